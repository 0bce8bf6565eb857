//! The `open-d6` table: whose shot it is, the shots each character has left, stances, focus,
//! defences held, Setbacks, Hits and the last check, and the turn economy's rules over them.

use super::*;

/// The last check made at the table, which Assist and Push Luck act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastCheck {
    /// Who rolled.
    pub actor: usize,
    /// The skill, by name.
    pub skill: String,
    /// The check as rolled (for a Push Luck re-roll).
    pub action: Action,
    /// Skill + modifiers + bonus.
    pub check: i64,
    /// +1 per successful Assist.
    pub assists: u32,
    /// The check succeeded (after assists).
    pub success: bool,
    /// It has been pushed already.
    pub pushed: bool,
    /// Its roller has taken another action since: it is no longer their last action, so Push
    /// Luck cannot re-roll it. Left out of the table's state while false, so the state reads
    /// as it always has until it happens.
    pub moved_on: bool,
    /// Who has assisted it: one assist each ("only one trigger action of each type in each
    /// situation"). Left out of the table's state while empty.
    pub assisted_by: Vec<usize>,
    /// The character it was against, if any (an attack whose damage may follow).
    pub target: Option<usize>,
    /// Its damage has been dealt.
    pub damaged: bool,
}

/// The shot counter of an open-d6 table.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The ruleset's settings.
    pub rules: Rules,
    /// Who is in the scene.
    pub characters: Vec<Character>,
    /// Shots each has left this round.
    pub shots: Vec<i64>,
    /// Each one's first shot this round (after stances).
    pub first_shots: Vec<i64>,
    /// 1-based round; 0 before the first initiative.
    pub round: u32,
    /// Who is focused (may use a Limit Break).
    pub focused: Vec<bool>,
    /// The round each last focused in (focus once per round).
    pub focused_in: Vec<u32>,
    /// The round each last used a focus in (a Limit Break): "you cannot focus again until the
    /// following round begins", wherever the focus was taken. Left out of the table's state
    /// (it follows from the log's Limit Breaks), so every logged state reads as it always has.
    pub focus_used_in: Vec<Option<u32>>,
    /// Stances held.
    pub stances: Vec<u32>,
    /// Stances not paid for yet (paid from the first shot of the next round, once).
    pub unpaid_stances: Vec<u32>,
    /// Stances paid from this round's first shot.
    pub paid_stances: Vec<u32>,
    /// Setbacks each has suffered.
    pub setbacks: Vec<u32>,
    /// Fortune points left this session.
    pub fortune: Vec<u32>,
    /// Each one's pool of one-use Advantages from Stunt Modifiers.
    pub advantages: Vec<u32>,
    /// The Active Defenses each holds (several at once, each against one attacker or all).
    pub defences: Vec<Vec<Defence>>,
    /// Simplified initiative: one action each per round, in order of Reflexes.
    pub simplified: bool,
    /// Simplified initiative: who has used this round's action.
    pub acted: Vec<bool>,
    /// This round is a surprise round.
    pub surprise: bool,
    /// The last check, for Assist and Push Luck.
    pub last_check: Option<LastCheck>,
    /// The last plain d6 (random table) and who threw it, for a Fortune re-roll.
    pub last_d6: Option<(usize, u32)>,
    /// The session (Fortune comes back with each).
    pub session: u32,
    /// Hits left, for those whose hits the scene counts.
    pub hits: Vec<Option<i64>>,
    /// Who is knocked out (no more actions this scene).
    pub out: Vec<bool>,
    /// Who has just knocked an opponent out and may take a Finisher at no shot cost (until
    /// their next action).
    pub finisher_due: Vec<bool>,
    /// Impairment points: taken from every use of a skill, as a defence value too.
    pub impairment: Vec<i64>,
    /// The friction conditions each is under (faces of the friction table); none: playing it
    /// safe.
    pub under_friction: Vec<Vec<u32>>,
    /// The stance schticks each has adopted, by name.
    pub stance_schticks: Vec<Vec<String>>,
    /// The action scene has ended: no more shots; a Limit Break is left to those it allows.
    pub scene_over: bool,
    /// Who ended the action scene focused and out of shots: one Limit Break after it.
    pub limit_break_after: Vec<bool>,
    /// A Setup Finisher: who may finish which target at once, as a trigger action.
    pub set_up: Vec<Option<usize>>,
    /// A focus waiting on its condition, checked when the character's turn ends (and
    /// whether that turn has begun).
    pub pending_focus: Vec<Option<(FocusCondition, bool)>>,
    /// Whose turn is under way: the last to take an action on their own shot (a Basic Action,
    /// a Stance, a Limit Break) while its trigger actions may follow.
    pub turn_of: Option<usize>,
    /// What each character has done in its turn under way that a focus condition asks for.
    pub turn_feats: Vec<Vec<FocusCondition>>,
}

/// What a focus may wait on (the text's Focus action): it is checked when the turn ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum FocusCondition {
    /// A named opponent defeated by the character (knocked out, or unable to go on).
    DefeatNamed,
    /// A Setback (or Damage Setback) inflicted by the character on a named opponent.
    SetbackOnNamed,
}

impl FocusCondition {
    /// The condition, in words.
    pub fn words(self) -> &'static str {
        match self {
            FocusCondition::DefeatNamed => "defeat a named opponent",
            FocusCondition::SetbackOnNamed => "inflict a Setback on a named opponent",
        }
    }
}

/// An Active Defense held: +the rules' bonus to `skill` as a difficulty for one moment (a
/// shot), against the attacks of `against` (everyone's when none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defence {
    /// The skill defended.
    pub skill: String,
    /// The shot (or simplified action) it lasts for.
    pub moment: i64,
    /// Whose attacks it answers; none: every attacker's.
    pub against: Option<usize>,
    /// An attack it answers has been made: a new attack is a new situation, and another
    /// defence may answer it. Not in the table's state: the moves say it.
    pub answered: bool,
}

impl Table {
    /// A scene before initiative is rolled.
    pub fn new(rules: Rules, characters: Vec<Character>) -> Self {
        let n = characters.len();
        Table {
            rules,
            shots: vec![0; n],
            first_shots: vec![0; n],
            round: 0,
            focused: vec![false; n],
            focused_in: vec![0; n],
            focus_used_in: vec![None; n],
            stances: characters.iter().map(|c| c.stances).collect(),
            unpaid_stances: characters.iter().map(|c| c.stances).collect(),
            paid_stances: vec![0; n],
            setbacks: vec![0; n],
            fortune: characters.iter().map(|c| c.fortune).collect(),
            advantages: vec![0; n],
            defences: vec![Vec::new(); n],
            simplified: false,
            acted: vec![false; n],
            surprise: false,
            last_check: None,
            last_d6: None,
            session: 1,
            hits: characters.iter().map(|c| c.hits).collect(),
            out: vec![false; n],
            finisher_due: vec![false; n],
            impairment: vec![0; n],
            under_friction: characters
                .iter()
                .map(|c| c.under_friction.clone())
                .collect(),
            stance_schticks: vec![Vec::new(); n],
            scene_over: false,
            limit_break_after: vec![false; n],
            set_up: vec![None; n],
            pending_focus: vec![None; n],
            turn_of: None,
            turn_feats: vec![Vec::new(); n],
            characters,
        }
    }

    /// Switches to simplified initiative (round-robin by Reflexes) and starts its first round.
    pub fn use_simplified_initiative(&mut self) {
        self.simplified = true;
        self.round = 1;
        self.acted.iter_mut().for_each(|a| *a = false);
    }

    /// Simplified initiative: the order of the round, highest Reflexes first (villains first
    /// on a tie when the rules say so).
    pub fn reflexes_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.characters.len()).collect();
        order.sort_by_key(|&i| {
            let c = &self.characters[i];
            (
                std::cmp::Reverse(c.reflexes),
                !(self.rules.villains_first && c.villain),
                i,
            )
        });
        order
    }

    /// The initiative throw: a Closed roll (light and dark d6) for each named creature.
    pub fn initiative_plan(&self) -> RollPlan {
        let mut plan = RollPlan::new("initiative: a Closed Reflexes roll for each named creature");
        for c in self.characters.iter().filter(|c| c.named) {
            plan = plan
                .with(1, 6, DieRole::Positive, &format!("{} positive", c.name))
                .with(1, 6, DieRole::Negative, &format!("{} negative", c.name));
        }
        plan
    }

    /// Starts a round from the initiative faces: first shot = Reflexes + closed bonus − the
    /// stances not paid for yet (each is paid once, from the first round after it is adopted),
    /// at least the minimum.
    pub fn start_round(&mut self, faces: &[u32]) -> Result<(), Refusal> {
        self.initiative_plan().check_faces(faces)?;
        let mut pairs = faces.chunks(2);
        for (i, c) in self.characters.iter().enumerate() {
            let base = if c.named {
                let pair = pairs
                    .next()
                    .ok_or_else(|| refuse!(Faces, "missing initiative dice"))?;
                c.reflexes + i64::from(pair[0]) - i64::from(pair[1])
            } else {
                c.reflexes
            };
            self.paid_stances[i] = self.unpaid_stances[i];
            self.unpaid_stances[i] = 0;
            self.shots[i] = if self.out[i] {
                0
            } else {
                (base - i64::from(self.paid_stances[i])).max(self.rules.min_first_shot)
            };
            self.first_shots[i] = self.shots[i];
        }
        self.round += 1;
        self.surprise = false;
        self.scene_over = false;
        self.limit_break_after.iter_mut().for_each(|l| *l = false);
        self.defences.iter_mut().for_each(Vec::clear);
        Ok(())
    }

    /// A surprise round: the ambushers get 3 shots, everyone else none. It is the ambushers'
    /// first round, so they pay their stances from those shots ("you still have to pay the shot
    /// cost in the first round"), keeping at least the minimum; the surprised pay theirs in
    /// the first round they have shots in.
    pub fn start_surprise_round(&mut self, ambushers: &[usize]) {
        for i in 0..self.shots.len() {
            let ambusher = ambushers.contains(&i) && !self.out[i];
            self.shots[i] = if !ambusher {
                0
            } else if self.rules.generation < crate::record::CLOSE_READING {
                // The first rules charged it in the next round instead.
                i64::from(self.rules.surprise_shots)
            } else {
                self.paid_stances[i] = self.unpaid_stances[i];
                self.unpaid_stances[i] = 0;
                (i64::from(self.rules.surprise_shots) - i64::from(self.paid_stances[i]))
                    .max(self.rules.min_first_shot)
            };
        }
        self.first_shots = self.shots.clone();
        self.round += 1;
        self.surprise = true;
    }

    /// Whether no action scene is on: before the first initiative, or after the scene ended
    /// (checks there cost no shots).
    pub fn outside_action_scene(&self) -> bool {
        !self.simplified && (self.scene_over || self.round == 0)
    }

    /// The shot being counted: the highest shot anyone has left (None: the round is over).
    pub fn current_shot(&self) -> Option<i64> {
        if self.simplified {
            return None;
        }
        self.shots
            .iter()
            .zip(&self.out)
            .filter(|(s, out)| **s > 0 && !**out)
            .map(|(s, _)| *s)
            .max()
    }

    /// The moment an Active Defense lasts for: the current shot, or, in simplified initiative
    /// (where shots are not counted), the current action of the round. "Defense actions
    /// normally last for the current shot; the effect disappears on the next shot": here it
    /// disappears with the next action taken.
    pub fn defence_moment(&self) -> Option<i64> {
        if self.simplified {
            let acted = self.acted.iter().filter(|a| **a).count() as i64;
            Some(i64::from(self.round) * (self.acted.len() as i64 + 1) + acted)
        } else {
            self.current_shot()
        }
    }

    /// Who acts on the current shot, in order: villains first, then heroes, each in scene order.
    /// Simplified initiative: the next in order of Reflexes who has not acted.
    pub fn acting_now(&self) -> Vec<usize> {
        if self.simplified {
            return self
                .reflexes_order()
                .into_iter()
                .find(|&i| !self.acted[i] && !self.out[i])
                .into_iter()
                .collect();
        }
        let Some(shot) = self.current_shot() else {
            return vec![];
        };
        let mut who: Vec<usize> = (0..self.characters.len())
            .filter(|&i| self.shots[i] == shot && !self.out[i])
            .collect();
        if self.rules.villains_first {
            who.sort_by_key(|&i| (!self.characters[i].villain, i));
        }
        who
    }

    /// True when nobody has shots left: initiative is rolled again.
    pub fn round_over(&self) -> bool {
        !self.simplified && self.current_shot().is_none()
    }

    /// Whether `actor` may take an action of this type now, and if not, why.
    pub fn check(&self, actor: usize, kind: ActionType) -> Result<(), Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        if self.out[actor] {
            return Err(refuse!(
                Unable,
                "{} is knocked out: no more actions this scene",
                c.name
            ));
        }
        if self.scene_over {
            return match kind {
                ActionType::LimitBreak if self.limit_break_after[actor] => Ok(()),
                ActionType::LimitBreak => Err(refuse!(
                    NotNow,
                    "the action scene is over: one Limit Break after it is left to whoever \
                     ended it focused and out of shots, and {} has none left",
                    c.name
                )),
                _ => Err(refuse!(
                    NotNow,
                    "the action scene is over: roll initiative for the next one"
                )),
            };
        }
        if kind == ActionType::Finisher && !self.finisher_due[actor] {
            return Err(refuse!(
                Unable,
                "a Finisher follows knocking an opponent out, and {} has not just done so \
                 (on a willing or helpless target it is a Limit Break)",
                c.name
            ));
        }
        if self.simplified {
            return self.check_simplified(actor, kind);
        }
        let shots = self.shots[actor];
        match kind {
            ActionType::Trigger => {
                if shots < 1 {
                    return Err(refuse!(
                        Spent,
                        "{} has no shots left for a trigger action",
                        c.name
                    ));
                }
            }
            ActionType::Finisher => {}
            ActionType::Basic | ActionType::Stance | ActionType::LimitBreak => {
                if self.acting_now().first() != Some(&actor) {
                    let next = self
                        .acting_now()
                        .first()
                        .map(|&i| self.characters[i].name.clone());
                    return Err(match next {
                        Some(n) => refuse!(
                            NotTheirTurn,
                            "it is {} shot ({})",
                            crate::text::possessive(&n),
                            self.current_shot().unwrap_or(0)
                        ),
                        None if self.round == 0 && kind == ActionType::Stance => {
                            refuse!(
                                NotNow,
                                "no round has started: a stance before the first round is adopted \
                             before it (its shot is paid from the first round), or roll \
                             initiative"
                            )
                        }
                        None if self.round == 0 => {
                            refuse!(NotNow, "no round has started: roll initiative")
                        }
                        None => refuse!(NotNow, "the round is over: roll initiative"),
                    });
                }
                if kind == ActionType::LimitBreak && !self.focused[actor] {
                    return Err(refuse!(
                        Unable,
                        "{} must focus before a Limit Break",
                        c.name
                    ));
                }
            }
        }
        Ok(())
    }

    /// Simplified initiative: one action a round in order of Reflexes; trigger actions at any
    /// time (a character that takes one before acting loses its action).
    fn check_simplified(&self, actor: usize, kind: ActionType) -> Result<(), Refusal> {
        let c = &self.characters[actor];
        match kind {
            ActionType::Trigger | ActionType::Finisher => Ok(()),
            ActionType::Basic | ActionType::Stance | ActionType::LimitBreak => {
                if self.acted[actor] {
                    return Err(refuse!(
                        NotTheirTurn,
                        "{} has used this round's action",
                        c.name
                    ));
                }
                if self.acting_now().first() != Some(&actor) {
                    let next = self
                        .acting_now()
                        .first()
                        .map(|&i| self.characters[i].name.clone())
                        .unwrap_or_default();
                    return Err(refuse!(
                        NotTheirTurn,
                        "it is {next}'s action (highest Reflexes first)"
                    ));
                }
                if kind == ActionType::LimitBreak && !self.focused[actor] {
                    return Err(refuse!(
                        Unable,
                        "{} must focus before a Limit Break",
                        c.name
                    ));
                }
                Ok(())
            }
        }
    }

    /// What an action type costs `actor` on the counter: an NPC's Limit Break costs the
    /// rules' NPC shots instead of all remaining.
    pub fn cost_for(&self, actor: usize, kind: ActionType) -> Cost {
        match (
            kind,
            self.characters.get(actor).is_some_and(Character::is_npc),
        ) {
            (ActionType::LimitBreak, true) => Cost::Shots(self.rules.npc_limit_break_shots),
            _ => self.rules.cost(kind),
        }
    }

    /// Takes an action: pays its shots (a 3-shot action at shot 1 or 2 leaves 0).
    pub fn act(&mut self, actor: usize, kind: ActionType) -> Result<(), Refusal> {
        self.check(actor, kind)?;
        if kind == ActionType::Finisher {
            self.finisher_due[actor] = false;
        }
        if self.scene_over {
            // The one Limit Break after the scene: no shots to pay.
            self.limit_break_after[actor] = false;
            self.use_focus(actor);
            return Ok(());
        }
        if self.simplified {
            if kind != ActionType::Finisher {
                self.acted[actor] = true;
            }
            if kind == ActionType::LimitBreak {
                self.use_focus(actor);
            }
            self.next_simplified_round_if_done();
            return Ok(());
        }
        let cost = match self.cost_for(actor, kind) {
            Cost::Shots(n) => i64::from(n),
            Cost::AllRemaining => self.shots[actor],
        };
        self.shots[actor] = (self.shots[actor] - cost).max(0);
        if kind == ActionType::LimitBreak {
            self.use_focus(actor);
        }
        Ok(())
    }

    /// A focus used (a Limit Break): no longer focused, and no focus again this round.
    pub(crate) fn use_focus(&mut self, actor: usize) {
        if let Some(f) = self.focused.get_mut(actor) {
            *f = false;
        }
        if let Some(used) = self.focus_used_in.get_mut(actor) {
            *used = Some(self.round);
        }
    }

    /// Simplified initiative: when everyone still in the scene has acted, the next round.
    pub fn next_simplified_round_if_done(&mut self) {
        if self.simplified && self.acted.iter().zip(&self.out).all(|(a, out)| *a || *out) {
            self.round += 1;
            self.acted.iter_mut().for_each(|a| *a = false);
        }
    }

    /// Whether `actor` may focus now: once in any given round.
    pub fn can_focus(&self, actor: usize) -> Result<(), Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        if self.focused[actor] {
            return Err(refuse!(Already, "{} is focused already", c.name));
        }
        if self.round > 0 && self.focused_in[actor] == self.round {
            return Err(refuse!(
                Already,
                "{} has focused this round: focus again when the next round begins",
                c.name
            ));
        }
        if self.rules.generation >= crate::record::CLOSE_READING
            && self.focus_used_in[actor] == Some(self.round)
        {
            return Err(refuse!(
                Already,
                "{} used their focus {}: focus again when the next round begins",
                c.name,
                if self.round == 0 {
                    "before the first round"
                } else {
                    "this round"
                }
            ));
        }
        Ok(())
    }

    /// A skill's value as it is used now, by the character or as a difficulty against it: the
    /// rating, the best of the schticks in effect on it (they never stack), less impairment.
    pub fn skill_value(&self, who: usize, skill: &str) -> Option<i64> {
        let c = self.characters.get(who)?;
        let rating = c.skill(skill)?;
        let adopted = self.stance_schticks.get(who);
        let best = c
            .schticks
            .iter()
            .filter(|s| s.skill.eq_ignore_ascii_case(skill))
            .filter(|s| !s.stance || adopted.is_some_and(|a| a.contains(&s.name)))
            .map(|s| s.bonus)
            .max()
            .unwrap_or(0);
        Some(rating + best - self.impairment.get(who).copied().unwrap_or(0))
    }

    /// Whether `who` has just been seen using `skill`, so a Gauge Skill may follow as a trigger
    /// action: the last check at the table was theirs, of that skill, or they hold an Active
    /// Defense with it now (a skill "used as the difficulty of someone else's task").
    pub fn seen_using(&self, who: usize, skill: &str) -> bool {
        self.last_check
            .as_ref()
            .is_some_and(|l| l.actor == who && l.skill.eq_ignore_ascii_case(skill))
            || self
                .defences_now(who, None)
                .iter()
                .any(|d| d.skill.eq_ignore_ascii_case(skill))
    }

    /// The defences `who` holds now (on this shot), against `attacker` when one is named.
    pub fn defences_now(&self, who: usize, attacker: Option<usize>) -> Vec<&Defence> {
        let now = self.defence_moment();
        self.defences
            .get(who)
            .map(|held| {
                held.iter()
                    .filter(|d| Some(d.moment) == now)
                    .filter(|d| attacker.is_none() || d.against.is_none() || d.against == attacker)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Raises an Active Defense: it joins those held now (defences of other shots lapse, and
    /// one on the same skill against the same attackers is renewed).
    pub fn defend(&mut self, who: usize, skill: &str, against: Option<usize>) {
        let moment = self.defence_moment().unwrap_or(0);
        if let Some(held) = self.defences.get_mut(who) {
            held.retain(|d| {
                d.moment == moment && !(d.skill.eq_ignore_ascii_case(skill) && d.against == against)
            });
            held.push(Defence {
                skill: skill.to_string(),
                moment,
                against,
                answered: false,
            });
        }
    }

    /// An attack by `attacker` on `target` has been made: the target's defences that answered
    /// it are used for this situation (a later attack is a new one).
    pub fn attacked(&mut self, attacker: usize, target: usize) {
        let now = self.defence_moment();
        if let Some(held) = self.defences.get_mut(target) {
            for d in held.iter_mut() {
                if Some(d.moment) == now && (d.against.is_none() || d.against == Some(attacker)) {
                    d.answered = true;
                }
            }
        }
    }

    /// Marks a character focused (after a focus action).
    pub fn focus(&mut self, actor: usize) {
        if let Some(f) = self.focused.get_mut(actor) {
            *f = true;
            self.focused_in[actor] = self.round;
        }
    }
}
