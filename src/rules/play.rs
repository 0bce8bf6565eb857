//! Moves at a scene's table: what a player chose for a character (or a throw of the table's
//! own, such as initiative), made into dice to throw, read into an outcome and applied to the
//! turn economy. Plain Rust: the window and the tests play a round the same way.
//!
//! A move goes `allowed` -> `plan` (the first throw) -> `resolve` with every throw so far (which
//! may ask for more dice: open-ended sixes, friction, a tied initiative) -> `apply`.

use super::action_dice::Timed;
use super::d4_pool::Target;
use super::d20_check::{Edge, Initiative, Side};
use super::engine::{AnyAction, Rulebook};
use super::open_d6::{ActionType, RollKind};
use super::step_dice::Position;
use super::table::TableState;
use super::{Die, Odds, Outcome, RollPlan, Step, d20_check, open_d6};

/// Where a `d4-pool` total goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum D4Target {
    /// Just the total.
    None,
    /// Against a DC.
    Dc(i64),
    /// An attack on a character: damage = total − its Evasion.
    Attack(usize),
}

/// The DC of a `d20-check` check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DcChoice {
    /// A row of the DC table with the GM's modifier.
    Named(String, i64),
    /// A number.
    Number(i64),
}

/// The check of an `open-d6` action: a skill of the actor against a difficulty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenD6Check {
    /// The actor's skill, by name.
    pub skill: String,
    /// How the dice are read.
    pub roll: RollKind,
    /// The difficulty (an opponent's skill, plus active defence).
    pub difficulty: i64,
    /// Assists, team penalties and the like.
    pub modifier: i64,
}

/// One move at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// `d4-pool`: an Aspect roll of a kind from the costs table, with a weapon for an attack.
    D4Pool {
        /// Who acts (another's turn: only a reaction).
        actor: usize,
        /// The Aspect.
        aspect: String,
        /// A weapon, whose dice join the pool.
        weapon: Option<String>,
        /// The action's kind, a key of the costs table ("attack", "reaction"...).
        kind: String,
        /// DC, an attack, or nothing.
        target: D4Target,
        /// Sources of Advantage.
        advantages: Vec<String>,
        /// Sources of Disadvantage.
        disadvantages: Vec<String>,
    },
    /// `action-dice`: action dice spent on a skill, an ability or a two-die action.
    ActionDice {
        /// Who acts.
        actor: usize,
        /// Skill, ability, or "General Defense"/"Group Attack".
        skill: String,
        /// Action dice spent.
        action_dice: u32,
        /// Extra dice from time, tools or circumstance.
        extra: u32,
        /// Success at or above this.
        target: Option<i64>,
    },
    /// `step-dice`: the active character's action roll.
    StepAct {
        /// Who acts.
        actor: usize,
        /// The skill set (None: unskilled).
        skill: Option<String>,
        /// The difficulty rating.
        difficulty: String,
        /// The position.
        position: Position,
        /// Boost dice the player invokes.
        boosts: Vec<Die>,
    },
    /// `step-dice`: teamwork, a quick roll that may add a die to another's pool.
    StepHelp {
        /// Who helps.
        helper: usize,
        /// Whom.
        helped: usize,
        /// The helper's skill set.
        skill: String,
    },
    /// `open-d6` or `d20-check`: the round's initiative throw.
    Initiative,
    /// `open-d6`: an action on the shot counter, with a check or without one.
    OpenD6Act {
        /// Who acts.
        actor: usize,
        /// What it costs on the counter.
        kind: ActionType,
        /// The check, if the action rolls.
        check: Option<OpenD6Check>,
        /// The action is a focus (a Limit Break may follow).
        focuses: bool,
    },
    /// `d20-check`: a check.
    D20Check {
        /// Who acts.
        actor: usize,
        /// A named modifier of the actor (STR, DEX...).
        modifier: Option<String>,
        /// The DC.
        dc: DcChoice,
        /// Advantage or disadvantage.
        edge: Edge,
    },
    /// `d20-check`: a use of a resource die (not an action: torches burn as they burn).
    D20Resource {
        /// Whose.
        actor: usize,
        /// Which resource.
        name: String,
    },
}

fn wrong_ruleset(table: &TableState) -> String {
    format!("that move is not one of {}", table.ruleset())
}

fn name_of(names: &[&str], i: usize) -> String {
    names.get(i).copied().unwrap_or("nobody").to_string()
}

impl TableState {
    /// The characters' names, in seat order.
    pub fn names(&self) -> Vec<&str> {
        match self {
            TableState::D4Pool(t) => t.characters.iter().map(|c| c.name.as_str()).collect(),
            TableState::ActionDice(t) => t.characters.iter().map(|c| c.name.as_str()).collect(),
            TableState::StepDice(t) => t.characters.iter().map(|c| c.name.as_str()).collect(),
            TableState::OpenD6(t) => t.characters.iter().map(|c| c.name.as_str()).collect(),
            TableState::D20Check(t) => t.characters.iter().map(|c| c.name.as_str()).collect(),
        }
    }

    /// The character a move is made for (None: the table's own throw).
    pub fn actor_of(m: &Move) -> Option<usize> {
        match m {
            Move::D4Pool { actor, .. }
            | Move::ActionDice { actor, .. }
            | Move::StepAct { actor, .. }
            | Move::OpenD6Act { actor, .. }
            | Move::D20Check { actor, .. }
            | Move::D20Resource { actor, .. } => Some(*actor),
            Move::StepHelp { helper, .. } => Some(*helper),
            Move::Initiative => None,
        }
    }

    /// The rules action a move rolls; None for the table's own throws and actions without a roll.
    pub fn action_of(&self, m: &Move) -> Result<Option<AnyAction>, String> {
        Ok(Some(match (self, m) {
            (
                TableState::D4Pool(t),
                Move::D4Pool {
                    actor,
                    aspect,
                    weapon,
                    kind,
                    target,
                    advantages,
                    disadvantages,
                },
            ) => {
                let mut a = t.action(*actor, aspect, weapon.as_deref())?;
                a.cost = t.rules.cost_of(kind);
                a.advantages = advantages.clone();
                a.disadvantages = disadvantages.clone();
                a.target = match target {
                    D4Target::None => Target::None,
                    D4Target::Dc(dc) => Target::Dc(*dc),
                    D4Target::Attack(i) => Target::Evasion(
                        t.characters
                            .get(*i)
                            .ok_or("the target is not at the table")?
                            .evasion,
                    ),
                };
                AnyAction::D4Pool(a)
            }
            (
                TableState::ActionDice(t),
                Move::ActionDice {
                    actor,
                    skill,
                    action_dice,
                    extra,
                    target,
                },
            ) => {
                let mut a = t.action(*actor, skill, *action_dice, *target)?;
                a.extra = *extra;
                AnyAction::ActionDice(a)
            }
            (
                TableState::StepDice(t),
                Move::StepAct {
                    actor,
                    skill,
                    difficulty,
                    position,
                    boosts,
                },
            ) => AnyAction::StepDice(t.action(
                *actor,
                skill.as_deref(),
                difficulty,
                *position,
                boosts,
            )?),
            (TableState::StepDice(t), Move::StepHelp { helper, skill, .. }) => {
                AnyAction::StepDice(t.teamwork_roll(*helper, skill, None)?)
            }
            (TableState::OpenD6(_) | TableState::D20Check(_), Move::Initiative) => return Ok(None),
            (TableState::OpenD6(t), Move::OpenD6Act { actor, check, .. }) => {
                let Some(check) = check else { return Ok(None) };
                let c = t.characters.get(*actor).ok_or("no such character")?;
                let skill = c
                    .skills
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(&check.skill))
                    .map(|(_, v)| *v)
                    .ok_or_else(|| format!("{} has no skill '{}'", c.name, check.skill))?;
                AnyAction::OpenD6(open_d6::Action {
                    roll: check.roll,
                    skill,
                    difficulty: check.difficulty,
                    modifier: check.modifier,
                    first_roll: true,
                })
            }
            (
                TableState::D20Check(t),
                Move::D20Check {
                    actor,
                    modifier,
                    dc,
                    edge,
                },
            ) => {
                let mut a = t.action(*actor, modifier.as_deref(), 0, *edge)?;
                match dc {
                    DcChoice::Number(n) => a.dc = Some(*n),
                    DcChoice::Named(name, gm) => {
                        a.dc = None;
                        a.difficulty = Some(name.clone());
                        a.gm_modifier = *gm;
                    }
                }
                AnyAction::D20Check(a)
            }
            (TableState::D20Check(t), Move::D20Resource { actor, name }) => {
                AnyAction::D20Check(t.resource_action(*actor, name)?)
            }
            _ => return Err(wrong_ruleset(self)),
        }))
    }

    /// Whether the move may be made now, and if not, why (in the rules' words).
    pub fn allowed(&self, book: &Rulebook, m: &Move) -> Result<(), String> {
        let action = self.action_of(m)?;
        match (self, m) {
            (TableState::D4Pool(t), Move::D4Pool { actor, kind, .. }) => {
                if let Some(AnyAction::D4Pool(a)) = &action {
                    t.check(*actor, a, kind == "reaction")?;
                }
            }
            (TableState::ActionDice(t), Move::ActionDice { actor, skill, .. }) => {
                if let Some(AnyAction::ActionDice(a)) = &action {
                    t.check(*actor, skill, a)?;
                }
            }
            (TableState::StepDice(t), Move::StepAct { actor, .. }) => t.check(*actor)?,
            (TableState::StepDice(t), Move::StepHelp { helper, helped, .. }) => {
                if helper == helped {
                    return Err("a character cannot help itself".into());
                }
                if *helped != t.active {
                    return Err(format!(
                        "teamwork helps the character whose turn it is ({})",
                        name_of(&self.names(), t.active)
                    ));
                }
                if t.acted[*helped] {
                    return Err(format!(
                        "{} has already rolled this round",
                        name_of(&self.names(), *helped)
                    ));
                }
            }
            (TableState::OpenD6(t), Move::Initiative) => {
                if !t.round_over() {
                    return Err(format!(
                        "the round is on (shot {}): initiative is rolled when nobody has shots left",
                        t.current_shot().unwrap_or(0)
                    ));
                }
            }
            (TableState::D20Check(t), Move::Initiative) => {
                if let Some(side) = t.side_to_act() {
                    return Err(format!(
                        "the round is on: the {side:?} side still has to act"
                    ));
                }
            }
            (TableState::OpenD6(t), Move::OpenD6Act { actor, kind, .. }) => {
                t.check(*actor, *kind)?
            }
            (TableState::D20Check(t), Move::D20Check { actor, .. }) => t.check(*actor)?,
            (TableState::D20Check(_), Move::D20Resource { .. }) => {}
            _ => return Err(wrong_ruleset(self)),
        }
        match &action {
            Some(a) => a.check(book),
            None => Ok(()),
        }
    }

    /// The first throw of a move (no dice for an action without a roll or a mundane check).
    pub fn plan(&self, book: &Rulebook, m: &Move) -> Result<RollPlan, String> {
        self.allowed(book, m)?;
        match (self, self.action_of(m)?) {
            (_, Some(a)) => a.plan(book),
            (TableState::OpenD6(t), None) if *m == Move::Initiative => Ok(t.initiative_plan()),
            (TableState::D20Check(t), None) => Ok(t.initiative_plan()),
            (_, None) => Ok(RollPlan::new("no roll")),
        }
    }

    /// The exact odds of a move before it is thrown (None for a move that throws nothing).
    pub fn odds(&self, book: &Rulebook, m: &Move) -> Result<Option<Odds>, String> {
        match (self, self.action_of(m)?) {
            (_, Some(a)) => a.odds(book).map(Some),
            (TableState::D20Check(t), None) => {
                let p = t.initiative_odds();
                let mut odds = Odds::of("players − gamemaster", t.initiative_difference())
                    .class("players declare first (ties rolled again)", p.clone())
                    .class("gamemaster declares first", p.complement());
                odds.target = Some(1);
                odds.p_success = Some(p);
                Ok(Some(odds))
            }
            (TableState::OpenD6(_), None) if *m == Move::Initiative => {
                let closed = open_d6::Action {
                    roll: RollKind::Closed,
                    skill: 0,
                    difficulty: 0,
                    modifier: 0,
                    first_roll: false,
                };
                Ok(Some(Odds::of(
                    "closed bonus added to Reflexes",
                    closed.bonus_distribution(),
                )))
            }
            (_, None) => Ok(None),
        }
    }

    /// Reads every throw of the move so far: its outcome, or more dice to throw.
    pub fn resolve(&self, book: &Rulebook, m: &Move, throws: &[Vec<u32>]) -> Result<Step, String> {
        let names = self.names();
        match (self, self.action_of(m)?) {
            (_, Some(a)) => {
                if a.plan(book)?.dice.is_empty() {
                    return a.resolve(book, &[vec![]]);
                }
                a.resolve(book, throws)
            }
            (TableState::OpenD6(t), None) if *m == Move::Initiative => {
                let faces = throws.first().ok_or("no dice have been thrown yet")?;
                let mut after = t.clone();
                after.start_round(faces)?;
                let mut pairs = faces.chunks(2);
                let lines = t
                    .characters
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let how = match (c.named, pairs.next()) {
                            (true, Some([p, n])) => format!(
                                "Reflexes {} + ({p} − {n}){}",
                                c.reflexes,
                                if c.stances > 0 {
                                    format!(" − {} stance", c.stances)
                                } else {
                                    String::new()
                                }
                            ),
                            _ => format!("Reflexes {} (unnamed: no roll)", c.reflexes),
                        };
                        format!("{}: {how} -> shot {}", c.name, after.shots[i])
                    })
                    .collect();
                Ok(Step::Done(Outcome {
                    total: after.current_shot().unwrap_or(0),
                    success: None,
                    class: format!(
                        "round {} starts at shot {}",
                        after.round,
                        after.current_shot().unwrap_or(0)
                    ),
                    lines,
                    tags: vec![],
                }))
            }
            (TableState::D20Check(t), None) => {
                let faces = throws.last().ok_or("no dice have been thrown yet")?;
                let mut after = t.clone();
                let plan = t.initiative_plan();
                let side_total = |side: Side, label: &str| {
                    let dice: Vec<u32> = plan
                        .dice
                        .iter()
                        .zip(faces)
                        .filter(|(d, _)| d.label.starts_with(label))
                        .map(|(_, f)| *f)
                        .collect();
                    let best = dice.iter().copied().max().unwrap_or(0);
                    let total = i64::from(best) + t.initiative_modifier(side);
                    let line = format!(
                        "{label} {dice:?}{} {:+} = {total}",
                        if dice.len() > 1 { " (advantage)" } else { "" },
                        t.initiative_modifier(side),
                    );
                    (line, total)
                };
                let (players, p) = side_total(Side::Players, "players");
                let (gm, g) = side_total(Side::Gamemaster, "gamemaster");
                let lines = vec![players, gm];
                match after.resolve_initiative(faces)? {
                    Initiative::Tie => Ok(Step::ThrowMore(RollPlan {
                        purpose: "initiative tied: both sides roll again".into(),
                        ..plan
                    })),
                    Initiative::First(side) => Ok(Step::Done(Outcome {
                        total: p - g,
                        success: Some(side == Side::Players),
                        class: format!("the {side:?} side declares first"),
                        lines,
                        tags: vec![format!("round {}", after.round)],
                    })),
                }
            }
            (TableState::OpenD6(t), None) => {
                let Move::OpenD6Act { actor, kind, .. } = m else {
                    return Err(wrong_ruleset(self));
                };
                Ok(Step::Done(Outcome {
                    total: 0,
                    success: None,
                    class: "no roll".into(),
                    lines: vec![format!(
                        "{} takes a {kind:?} action without a roll (shots {})",
                        name_of(&names, *actor),
                        t.shots.get(*actor).copied().unwrap_or(0)
                    )],
                    tags: vec![],
                }))
            }
            _ => Err(wrong_ruleset(self)),
        }
    }

    /// Applies a resolved move to the turn economy; says what changed, one line each.
    pub fn apply(
        &mut self,
        book: &Rulebook,
        m: &Move,
        throws: &[Vec<u32>],
        outcome: &Outcome,
    ) -> Result<Vec<String>, String> {
        let action = self.action_of(m)?;
        let names: Vec<String> = self.names().into_iter().map(String::from).collect();
        let who = |i: usize| names.get(i).cloned().unwrap_or_default();
        let mut said = Vec::new();
        match (self, m, action) {
            (
                TableState::D4Pool(t),
                Move::D4Pool { actor, kind, .. },
                Some(AnyAction::D4Pool(a)),
            ) => {
                let before = t.loads[*actor];
                t.apply(*actor, &a);
                said.push(format!(
                    "{}'s Action Load {before} -> {} ({kind}, cost {})",
                    who(*actor),
                    t.loads[*actor],
                    a.cost
                ));
            }
            (
                TableState::ActionDice(t),
                Move::ActionDice { actor, skill, .. },
                Some(AnyAction::ActionDice(a)),
            ) => {
                t.spend(*actor, skill, &a)?;
                t.rolled.push(Timed {
                    actor: *actor,
                    timing_dice: a.timing_dice(),
                    total: outcome.total,
                });
                said.push(format!(
                    "{} spends {} action dice on {skill} ({} left this round)",
                    who(*actor),
                    a.action_dice,
                    t.budgets[*actor].total()
                ));
            }
            (TableState::StepDice(t), Move::StepAct { actor, .. }, Some(_)) => {
                let used = t.help[*actor].len();
                t.apply(*actor);
                said.push(format!("{} has used this round's action", who(*actor)));
                if used > 0 {
                    said.push(format!("{used} teamwork dice used"));
                }
            }
            (
                TableState::StepDice(t),
                Move::StepHelp { helper, helped, .. },
                Some(AnyAction::StepDice(roll)),
            ) => {
                let success = outcome.success == Some(true);
                t.apply_teamwork(*helper, *helped, &roll, success);
                said.push(if success {
                    format!(
                        "{} adds a {} to {}'s ability pool and earns grit ({} now)",
                        who(*helper),
                        roll.ability
                            .first()
                            .map(ToString::to_string)
                            .unwrap_or_default(),
                        who(*helped),
                        t.grit[*helper]
                    )
                } else {
                    format!(
                        "{}'s help came to nothing (its action is spent)",
                        who(*helper)
                    )
                });
            }
            (TableState::OpenD6(t), Move::Initiative, None) => {
                t.start_round(throws.first().ok_or("no initiative dice")?)?;
                said.push(format!(
                    "round {}: the counter starts at shot {}",
                    t.round,
                    t.current_shot().unwrap_or(0)
                ));
            }
            (TableState::D20Check(t), Move::Initiative, None) => {
                let faces = throws.last().ok_or("no initiative dice")?;
                if let Initiative::First(side) = t.resolve_initiative(faces)? {
                    said.push(format!(
                        "round {}: the {side:?} side declares first",
                        t.round
                    ));
                }
            }
            (
                TableState::OpenD6(t),
                Move::OpenD6Act {
                    actor,
                    kind,
                    focuses,
                    ..
                },
                _,
            ) => {
                let before = t.shots[*actor];
                t.act(*actor, *kind)?;
                said.push(format!(
                    "{}: {kind:?} action, shots {before} -> {}",
                    who(*actor),
                    t.shots[*actor]
                ));
                if *focuses {
                    t.focus(*actor);
                    said.push(format!("{} is focused", who(*actor)));
                }
            }
            (TableState::D20Check(t), Move::D20Check { actor, .. }, Some(_)) => {
                t.apply(*actor);
                said.push(format!("{} has acted this round", who(*actor)));
                if t.first.is_none() {
                    said.push("everyone has acted: roll initiative for the next round".into());
                }
            }
            (TableState::D20Check(t), Move::D20Resource { actor, name }, Some(_)) => {
                let face = throws
                    .first()
                    .and_then(|f| f.first())
                    .copied()
                    .ok_or("no resource die thrown")?;
                let state = t.apply_resource(*actor, name, face)?;
                said.push(format!(
                    "{}'s {name}: {}",
                    who(*actor),
                    match state {
                        d20_check::ResourceState::Holds => "the die holds".to_string(),
                        d20_check::ResourceState::StepsTo(d) => format!("steps down to {d}"),
                        d20_check::ResourceState::Spent => "spent".to_string(),
                    }
                ));
            }
            (table, _, _) => return Err(wrong_ruleset(table)),
        }
        let _ = book;
        Ok(said)
    }

    /// Ends the turn (`d4-pool`, `step-dice`) or the round (`action-dice`); the other rulesets
    /// move on by themselves (the shot counter; sides that have all acted).
    pub fn end_turn(&mut self) -> Result<String, String> {
        match self {
            TableState::D4Pool(t) => {
                t.end_turn();
                Ok(format!(
                    "round {}: {}'s turn, Action Load {}",
                    t.round, t.characters[t.active].name, t.loads[t.active]
                ))
            }
            TableState::StepDice(t) => {
                t.end_turn();
                Ok(format!(
                    "round {}: {}'s turn",
                    t.round, t.characters[t.active].name
                ))
            }
            TableState::ActionDice(t) => {
                t.end_round();
                Ok(format!("round {}: fresh action dice for everyone", t.round))
            }
            TableState::OpenD6(_) => {
                Err("the shot counter moves on as shots are spent; no turn to end".into())
            }
            TableState::D20Check(_) => {
                Err("the round ends when every character has acted; no turn to end".into())
            }
        }
    }

    /// A move to start with, for `play --throw` and the builder's first pick: the active
    /// character's first option (or initiative where the round needs it).
    pub fn default_move(&self) -> Move {
        match self {
            TableState::D4Pool(t) => {
                let c = &t.characters[t.active];
                let aspect = c
                    .aspects
                    .iter()
                    .max_by_key(|(_, v)| **v)
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default();
                let weapon = c.weapons.keys().next().cloned();
                // The last seat is the opposition in the shipped scenes (the goblin).
                let target = (0..t.characters.len())
                    .rev()
                    .find(|&i| i != t.active)
                    .map(D4Target::Attack)
                    .unwrap_or(D4Target::None);
                Move::D4Pool {
                    actor: t.active,
                    aspect,
                    kind: if weapon.is_some() {
                        "attack"
                    } else {
                        "aspect check"
                    }
                    .into(),
                    weapon,
                    target,
                    advantages: vec![],
                    disadvantages: vec![],
                }
            }
            TableState::ActionDice(t) => {
                let actor = t.declaration_order().last().copied().unwrap_or(0);
                let c = &t.characters[actor];
                let skill = c
                    .hand_to_hand
                    .first()
                    .or(c.ranged.first())
                    .or(c.skills.keys().next())
                    .cloned()
                    .unwrap_or_default();
                Move::ActionDice {
                    actor,
                    action_dice: t.usable_dice(actor, &skill).clamp(1, 2),
                    skill,
                    extra: 0,
                    target: Some(8),
                }
            }
            TableState::StepDice(t) => Move::StepAct {
                actor: t.active,
                skill: t.characters[t.active]
                    .skills
                    .first()
                    .map(|(n, _)| n.clone()),
                difficulty: t
                    .rules
                    .difficulties
                    .get(1)
                    .or(t.rules.difficulties.first())
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default(),
                position: Position::Neutral,
                boosts: vec![],
            },
            TableState::OpenD6(t) => match t.acting_now().first() {
                None => Move::Initiative,
                Some(&actor) => {
                    let c = &t.characters[actor];
                    let other = (0..t.characters.len())
                        .find(|&i| t.characters[i].villain != c.villain)
                        .unwrap_or(actor);
                    let skill = c.skills.first().map(|(n, _)| n.clone()).unwrap_or_default();
                    Move::OpenD6Act {
                        actor,
                        kind: ActionType::Basic,
                        check: Some(OpenD6Check {
                            difficulty: opposed_difficulty(&t.characters[other], &skill),
                            skill,
                            roll: RollKind::Standard,
                            modifier: 0,
                        }),
                        focuses: false,
                    }
                }
            },
            TableState::D20Check(t) => match t.side_to_act() {
                None => Move::Initiative,
                Some(side) => {
                    let actor = (0..t.characters.len())
                        .find(|&i| t.characters[i].side == side && !t.acted[i])
                        .unwrap_or(0);
                    Move::D20Check {
                        actor,
                        modifier: t.characters[actor]
                            .modifiers
                            .first()
                            .map(|(n, _)| n.clone()),
                        dc: DcChoice::Named(
                            t.rules
                                .dc_table
                                .iter()
                                .find(|(_, dc)| *dc > t.rules.dc_min)
                                .map(|(n, _)| n.clone())
                                .unwrap_or_default(),
                            0,
                        ),
                        edge: Edge::None,
                    }
                }
            },
        }
    }

    /// The move in words, for the outcome panel and the history.
    pub fn describe(&self, m: &Move) -> String {
        let names = self.names();
        let who = |i: usize| name_of(&names, i);
        match m {
            Move::D4Pool {
                actor,
                aspect,
                weapon,
                kind,
                target,
                ..
            } => {
                let mut s = format!("{}: {kind}, {aspect}", who(*actor));
                if let Some(w) = weapon {
                    s.push_str(&format!(" with {w}"));
                }
                match target {
                    D4Target::None => {}
                    D4Target::Dc(dc) => s.push_str(&format!(" vs DC {dc}")),
                    D4Target::Attack(i) => s.push_str(&format!(" at {}", who(*i))),
                }
                s
            }
            Move::ActionDice {
                actor,
                skill,
                action_dice,
                target,
                ..
            } => format!(
                "{}: {skill} with {action_dice} action dice{}",
                who(*actor),
                target.map(|t| format!(" vs {t}")).unwrap_or_default()
            ),
            Move::StepAct {
                actor,
                skill,
                difficulty,
                position,
                ..
            } => format!(
                "{}: {} vs {difficulty} ({position:?})",
                who(*actor),
                skill.as_deref().unwrap_or("unskilled")
            ),
            Move::StepHelp {
                helper,
                helped,
                skill,
            } => format!("{} helps {} with {skill}", who(*helper), who(*helped)),
            Move::Initiative => "initiative".into(),
            Move::OpenD6Act {
                actor, kind, check, ..
            } => match check {
                Some(c) => format!(
                    "{}: {kind:?} action, {} ({:?}) vs {}",
                    who(*actor),
                    c.skill,
                    c.roll,
                    c.difficulty
                ),
                None => format!("{}: {kind:?} action", who(*actor)),
            },
            Move::D20Check {
                actor,
                modifier,
                dc,
                edge,
            } => format!(
                "{}: check{} vs {}{}",
                who(*actor),
                modifier
                    .as_ref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default(),
                match dc {
                    DcChoice::Named(n, 0) => n.clone(),
                    DcChoice::Named(n, g) => format!("{n} {g:+}"),
                    DcChoice::Number(n) => format!("DC {n}"),
                },
                match edge {
                    Edge::None => "",
                    Edge::Advantage => " with advantage",
                    Edge::Disadvantage => " with disadvantage",
                }
            ),
            Move::D20Resource { actor, name } => format!("{} uses {name}", who(*actor)),
        }
    }

    /// Where an outcome falls on the axis of the move's odds chart (None where the chart is
    /// of something else: a resource die's number of uses, each creature's initiative bonus).
    pub fn charted_value(&self, m: &Move, outcome: &Outcome) -> Option<i64> {
        match (self, m) {
            (TableState::OpenD6(_), Move::Initiative) | (_, Move::D20Resource { .. }) => None,
            (_, Move::OpenD6Act { check: None, .. }) => None,
            _ => Some(outcome.total),
        }
    }

    /// The resolution order of this round's `action-dice` actions, in words (empty elsewhere).
    pub fn resolution_order(&self) -> Vec<String> {
        let TableState::ActionDice(t) = self else {
            return vec![];
        };
        super::action_dice::resolution_order(&t.rolled)
            .into_iter()
            .map(|group| {
                group
                    .iter()
                    .filter_map(|&k| t.rolled.get(k))
                    .map(|a| {
                        format!(
                            "{} ({} dice, {})",
                            t.characters[a.actor].name, a.timing_dice, a.total
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" = ")
            })
            .collect()
    }
}

/// The difficulty of acting against a creature with `skill`: the higher of its same skill and
/// its Dodge, the text's rule for a stunt against someone (Fred's Maneuver against Peter).
pub fn opposed_difficulty(target: &open_d6::Character, skill: &str) -> i64 {
    target
        .skills
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(skill) || n.eq_ignore_ascii_case("Dodge"))
        .map(|(_, v)| *v)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::scene::Scene;
    use std::path::Path;

    fn book() -> Rulebook {
        Rulebook::builtin().unwrap_or_else(|e| panic!("{e}"))
    }

    fn table(file: &str) -> TableState {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(file);
        let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
        TableState::new(&scene, &book(), 1)
    }

    /// Plays a move with the given throws (the first plan's faces, then each follow-up's);
    /// checks each throw fits the plan the rules asked for; returns the outcome and what changed.
    fn play(t: &mut TableState, m: &Move, throws: &[&[u32]]) -> (Outcome, Vec<String>) {
        let book = book();
        let mut plan = t.plan(&book, m).unwrap_or_else(|e| panic!("{m:?}: {e}"));
        let mut so_far: Vec<Vec<u32>> = Vec::new();
        for faces in throws {
            plan.check_faces(faces)
                .unwrap_or_else(|e| panic!("{}: {e}", plan.purpose));
            so_far.push(faces.to_vec());
            match t
                .resolve(&book, m, &so_far)
                .unwrap_or_else(|e| panic!("{e}"))
            {
                Step::ThrowMore(next) => plan = next,
                Step::Done(outcome) => {
                    assert_eq!(so_far.len(), throws.len(), "resolved before the last throw");
                    let said = t
                        .apply(&book, m, &so_far, &outcome)
                        .unwrap_or_else(|e| panic!("{e}"));
                    return (outcome, said);
                }
            }
        }
        if plan.dice.is_empty() {
            let outcome = match t.resolve(&book, m, &so_far) {
                Ok(Step::Done(o)) => o,
                other => panic!("{other:?}"),
            };
            let said = t
                .apply(&book, m, &so_far, &outcome)
                .unwrap_or_else(|e| panic!("{e}"));
            return (outcome, said);
        }
        panic!("more dice wanted: {}", plan.purpose)
    }

    #[test]
    fn d4_pool_round_vex_stabs_the_goblin_and_loads_rise() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        let book = book();
        // Vex's turn: load reset to −1 (Action Point Bonus 1). Finesse 6 with the dagger at
        // the goblin (Evasion 11): 6d4 + d4.
        let stab = t.default_move();
        assert_eq!(
            t.describe(&stab),
            "Vex the Rogue: attack, Finesse with dagger at Goblin"
        );
        let mut stab = stab;
        if let Move::D4Pool { target, .. } = &mut stab {
            *target = D4Target::Attack(3);
        }
        assert_eq!(t.plan(&book, &stab).map(|p| p.dice.len()), Ok(7));
        let (o, said) = play(&mut t, &stab, &[&[4, 4, 4, 1, 1, 1, 3]]);
        assert_eq!((o.total, o.class.as_str()), (18, "hit"));
        assert!(o.tags.contains(&"damage 7".to_string()), "{o:?}");
        assert_eq!(
            said,
            vec!["Vex the Rogue's Action Load -1 -> 0 (attack, cost 1)"]
        );
        // Load 0: a second stab still rolls six d4 (Aspect 6 − 0).
        assert_eq!(t.plan(&book, &stab).map(|p| p.dice.len()), Ok(7));
        // Pim may not act on Vex's turn, only react.
        let pim = Move::D4Pool {
            actor: 1,
            aspect: "Finesse".into(),
            weapon: None,
            kind: "aspect check".into(),
            target: D4Target::Dc(12),
            advantages: vec!["torch".into(), "advice".into()],
            disadvantages: vec!["dark".into()],
        };
        let err = t.allowed(&book, &pim).expect_err("not Pim's turn");
        assert!(err.contains("can only react"), "{err}");
        let mut react = pim.clone();
        if let Move::D4Pool { kind, .. } = &mut react {
            *kind = "reaction".into();
        }
        // Finesse 4 + 2 advantages − 1 disadvantage = 5d4.
        assert_eq!(t.plan(&book, &react).map(|p| p.dice.len()), Ok(5));
        let (o, _) = play(&mut t, &react, &[&[1, 2, 3, 4, 1]]);
        assert_eq!((o.total, o.success), (11, Some(false)));
        // Pim's own turn: its load was 1 from the reaction; it resets to −0 = 0.
        t.end_turn().expect("d4-pool turns end");
        if let TableState::D4Pool(d4) = &t {
            assert_eq!((d4.active, d4.loads[1]), (1, 0));
        }
        for _ in 0..3 {
            t.end_turn().expect("turn");
        }
        assert_eq!(t.heading(), "Round 2: Vex the Rogue's turn");
    }

    #[test]
    fn d4_pool_load_can_stop_an_aspect() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        t.end_turn().expect("turn"); // Pim, load 0
        let wits = |aspect: &str| Move::D4Pool {
            actor: 1,
            aspect: aspect.into(),
            weapon: None,
            kind: "aspect check".into(),
            target: D4Target::None,
            advantages: vec![],
            disadvantages: vec![],
        };
        // Might 2: after two actions the load is 2 and Might − 2 = 0 cannot act.
        play(&mut t, &wits("Might"), &[&[1, 1]]);
        play(&mut t, &wits("Might"), &[&[1]]);
        let err = t.allowed(&book(), &wits("Might")).expect_err("load 2");
        assert!(err.contains("cannot act until the load drops"), "{err}");
        assert!(
            t.allowed(&book(), &wits("Wits")).is_ok(),
            "Wits 5 − 2 still acts"
        );
    }

    #[test]
    fn action_dice_round_spends_budgets_and_orders_resolution() {
        let mut t = table("action-dice-knight-and-magician.ron");
        let book = book();
        // Sir Aldric rides with 2 action dice: the riding die goes first, then one general.
        let ride = Move::ActionDice {
            actor: 0,
            skill: "Riding".into(),
            action_dice: 2,
            extra: 0,
            target: Some(10),
        };
        assert_eq!(
            t.plan(&book, &ride).map(|p| p.dice.len()),
            Ok(4),
            "2 action + Riding 2"
        );
        let (o, said) = play(&mut t, &ride, &[&[6, 5, 2, 1]]);
        assert_eq!((o.total, o.success), (14, Some(true)));
        assert_eq!(
            said[0],
            "Sir Aldric spends 2 action dice on Riding (2 left this round)"
        );
        assert_eq!(
            t.tracker()[0].status,
            vec!["action dice 2/3".to_string(), "riding die 0/1".to_string()]
        );
        // The mugger has one die: a knife thrust, then nothing left.
        let stab = Move::ActionDice {
            actor: 3,
            skill: "Knife".into(),
            action_dice: 1,
            extra: 0,
            target: Some(8),
        };
        let (o, _) = play(&mut t, &stab, &[&[6, 6]]);
        assert_eq!(o.total, 12);
        let err = t.allowed(&book, &stab).expect_err("spent");
        assert!(err.contains("0 action dice usable"), "{err}");
        // Mirelle's magic dice serve Fire Bolt; General Defense needs two dice.
        let bolt = Move::ActionDice {
            actor: 1,
            skill: "Fire Bolt".into(),
            action_dice: 3,
            extra: 0,
            target: None,
        };
        assert!(t.allowed(&book, &bolt).is_ok(), "1 general + 2 magic");
        let defend = Move::ActionDice {
            actor: 1,
            skill: "General Defense".into(),
            action_dice: 1,
            extra: 0,
            target: None,
        };
        assert!(t.allowed(&book, &defend).is_err());
        play(&mut t, &bolt, &[&[1, 1, 1, 1, 1]]);
        // Most timing dice first: Mirelle (3), Aldric (2), the mugger (1).
        assert_eq!(
            t.resolution_order(),
            vec![
                "Mirelle the Magician (3 dice, 5)",
                "Sir Aldric (2 dice, 14)",
                "Mugger (1 dice, 12)"
            ]
        );
        assert_eq!(
            t.end_turn(),
            Ok("round 2: fresh action dice for everyone".into())
        );
        assert!(t.resolution_order().is_empty());
        assert!(t.allowed(&book, &stab).is_ok(), "a fresh die");
    }

    #[test]
    fn step_dice_teamwork_then_the_action_roll() {
        let mut t = table("step-dice-vault.ron");
        let book = book();
        // Bo helps Ana: a quick Locks d6 against Challenging d4.
        let help = Move::StepHelp {
            helper: 1,
            helped: 0,
            skill: "Locks".into(),
        };
        let (o, said) = play(&mut t, &help, &[&[5, 2]]);
        assert_eq!(o.success, Some(true));
        assert_eq!(
            said,
            vec!["Bo adds a d6 to Ana's ability pool and earns grit (2 now)"]
        );
        // Ana's action roll: Locks d10 + the teamwork d6 against Hard d8 at Advantage.
        let pick = Move::StepAct {
            actor: 0,
            skill: Some("Locks".into()),
            difficulty: "Hard".into(),
            position: Position::Advantage,
            boosts: vec![],
        };
        let plan = t.plan(&book, &pick).expect("plan");
        let labels: Vec<&str> = plan.dice.iter().map(|d| d.label.as_str()).collect();
        assert_eq!(
            labels,
            vec![
                "ability d10",
                "extra ability d6",
                "difficulty d8",
                "position d8"
            ]
        );
        // Highest ability 7, lowest difficulty 3 (advantage): result 4, effect 5.
        let (o, _) = play(&mut t, &pick, &[&[7, 2, 3, 8]]);
        assert_eq!((o.total, o.success), (4, Some(true)));
        assert_eq!(t.tracker()[0].status, vec!["grit 0", "acted"]);
        // Bo helped, so Bo's own turn has no action left.
        t.end_turn().expect("turn");
        let bo = Move::StepAct {
            actor: 1,
            skill: Some("Brawl".into()),
            difficulty: "Hard".into(),
            position: Position::Neutral,
            boosts: vec![],
        };
        let err = t.allowed(&book, &bo).expect_err("Bo helped");
        assert!(err.contains("used this round's action"), "{err}");
        t.end_turn().expect("turn");
        t.end_turn().expect("turn");
        assert_eq!(t.heading(), "Round 2: Ana's turn");
        assert_eq!(t.tracker()[1].status, vec!["grit 2", "ready"]);
    }

    #[test]
    fn open_d6_round_initiative_sixes_and_the_shot_counter() {
        let mut t = table("open-d6-fred-and-peter.ron");
        let book = book();
        let fred = Move::OpenD6Act {
            actor: 0,
            kind: ActionType::Basic,
            check: Some(OpenD6Check {
                skill: "Maneuver".into(),
                roll: RollKind::Standard,
                difficulty: 13,
                modifier: 0,
            }),
            focuses: false,
        };
        assert!(t.allowed(&book, &fred).is_err(), "no initiative yet");
        assert_eq!(t.default_move(), Move::Initiative);
        // Fred 8 + (3 − 1) = 10; Mia 9 + (2 − 2) − 1 stance = 8; Peter 7 + (6 − 1) = 12;
        // the goons start at Reflexes 5.
        let (o, said) = play(&mut t, &Move::Initiative, &[&[3, 1, 2, 2, 6, 1]]);
        assert_eq!(o.lines[0], "Fred: Reflexes 8 + (3 − 1) -> shot 10");
        assert_eq!(o.lines[3], "Goons: Reflexes 5 (unnamed: no roll) -> shot 5");
        assert_eq!(said, vec!["round 1: the counter starts at shot 12"]);
        assert!(
            t.allowed(&book, &Move::Initiative).is_err(),
            "the round is on"
        );
        // Peter's shot. His Maneuver stunt on Fred: the higher of Fred's Maneuver 10, Dodge 11.
        let peter = t.default_move();
        let Move::OpenD6Act {
            actor: 2,
            check: Some(c),
            ..
        } = &peter
        else {
            panic!("{peter:?}")
        };
        assert_eq!((c.skill.as_str(), c.difficulty), ("Maneuver", 11));
        // A six on the light die is thrown again: 6 + 3 − 2 = +7, Maneuver 10 + 7 = 17.
        let (o, said) = play(&mut t, &peter, &[&[6, 2], &[3]]);
        assert_eq!((o.total, o.success), (6, Some(true)));
        assert_eq!(said, vec!["Peter: Basic action, shots 12 -> 9"]);
        // Fred (10) now; Peter waits for shot 9.
        assert!(t.allowed(&book, &peter).is_err());
        let (o, _) = play(&mut t, &fred, &[&[1, 1], &[4]]);
        assert!(
            o.tags.iter().any(|tag| tag.starts_with("friction 4")),
            "{o:?}"
        );
        if let TableState::OpenD6(o6) = &t {
            assert_eq!(o6.shots, vec![7, 8, 9, 5]);
        }
    }

    #[test]
    fn d20_round_initiative_tie_checks_and_resources() {
        let mut t = table("d20-check-crypt.ron");
        let book = book();
        // Players 1d6 + 2 (Bea's proficiency), gamemaster 1d6 + 1: 2+2 = 3+1 is a tie.
        let odds = t
            .odds(&book, &Move::Initiative)
            .expect("odds")
            .expect("some");
        assert!(odds.p_success.is_some());
        let (o, said) = play(&mut t, &Move::Initiative, &[&[2, 3], &[5, 1]]);
        assert_eq!(o.class, "the Players side declares first");
        assert_eq!(o.total, 5, "players 5 + 2 = 7, gamemaster 1 + 1 = 2");
        assert_eq!(said, vec!["round 1: the Players side declares first"]);
        let check = |actor| Move::D20Check {
            actor,
            modifier: None,
            dc: DcChoice::Named("Risky".into(), 0),
            edge: Edge::None,
        };
        assert!(t.allowed(&book, &check(2)).is_err(), "players first");
        let (o, _) = play(&mut t, &check(0), &[&[12]]);
        assert_eq!((o.total, o.success), (15, Some(true)), "12 + 3 vs 15");
        assert!(t.allowed(&book, &check(0)).is_err(), "Ash has acted");
        // Torches: a d6 that rolls 2 steps down to a d4 (not an action).
        let torch = Move::D20Resource {
            actor: 0,
            name: "torches".into(),
        };
        let (_, said) = play(&mut t, &torch, &[&[2]]);
        assert_eq!(said, vec!["Ash's torches: steps down to d4"]);
        for actor in [1, 2, 3] {
            play(&mut t, &check(actor), &[&[20]]);
        }
        assert_eq!(t.heading(), "Round 1 is over: roll initiative");
        assert_eq!(t.default_move(), Move::Initiative);
        // A mundane check (DC 0) throws nothing and succeeds.
        play(&mut t, &Move::Initiative, &[&[1, 6]]);
        let mundane = Move::D20Check {
            actor: 2,
            modifier: None,
            dc: DcChoice::Number(0),
            edge: Edge::None,
        };
        assert!(t.plan(&book, &mundane).expect("plan").dice.is_empty());
        let (o, _) = play(&mut t, &mundane, &[]);
        assert_eq!(o.class, "mundane success");
    }

    #[test]
    fn moves_of_another_ruleset_are_refused() {
        let t = table("d20-check-crypt.ron");
        let err = t
            .allowed(&book(), &table("step-dice-vault.ron").default_move())
            .expect_err("wrong ruleset");
        assert!(err.contains("d20-check"), "{err}");
    }

    #[test]
    fn every_scene_default_move_is_allowed_and_has_odds() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        for file in crate::rules::scene::scene_files(&dir) {
            let s = Scene::load(&file).unwrap_or_else(|e| panic!("{e}"));
            let t = TableState::new(&s, &book(), 3);
            let m = t.default_move();
            assert!(t.allowed(&book(), &m).is_ok(), "{}: {m:?}", s.name);
            assert!(!t.plan(&book(), &m).expect("plan").dice.is_empty());
            assert!(t.odds(&book(), &m).expect("odds").is_some());
        }
    }
}
