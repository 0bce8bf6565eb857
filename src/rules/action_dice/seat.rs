//! `action-dice` at the table: skill and ability actions paid with action dice, attacks whose
//! target is the defender's defensive value (base + the best defensive roll in effect),
//! defensive actions that last the round, the two-die actions, passive abilities, noncombat,
//! and the end of the round.

use crate::rules::Refusal;
use crate::rules::bounds::Bounded;
use crate::rules::refusal::refuse;
use serde::{Deserialize, Serialize};

use super::{Action, Category, DefenseRoll, Kind, Table, Timed, extra_dice, resolution_order};
use crate::odds::Prob;
use crate::rules::play::{Seat, TrackerRow, name_at, no_roll, seat_of, single};
use crate::rules::{Odds, Outcome, RollPlan, Step};

/// The name of the Dive For Cover defensive action (its dice are spent on it when no movement
/// skill is named).
const DIVE_FOR_COVER: &str = "Dive For Cover";

/// What an action's total is measured against.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Goal {
    /// Nothing: the total is the effect (a move, a footrace).
    #[default]
    None,
    /// A number the GM sets.
    Number(i64),
    /// An attack on a character: its defensive value for the attack's category.
    Attack(usize),
}

/// An `action-dice` move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Move {
    /// A skill or (active) ability action with action dice spent.
    Act {
        /// Who acts.
        actor: usize,
        /// The skill or ability.
        skill: String,
        /// Action dice spent.
        action_dice: u32,
        /// Extra dice from time, tools or circumstance.
        #[serde(default)]
        extra: u32,
        /// What the total is measured against.
        #[serde(default)]
        target: Goal,
        /// An attack's range in metres: a ranged attack beyond the first unit (4 m) takes the
        /// rules' penalty on its target for each unit more; a hand-to-hand one reaches no
        /// farther than one unit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        range_m: Option<u32>,
        /// A movement action (a footrace, a dash): who finishes first goes by the total.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        movement: bool,
    },
    /// A defensive action: Dodge (both categories), a combat skill (its category) or General
    /// Defense (two dice, both categories). It lasts until the end of the round.
    Defend {
        /// Who defends.
        actor: usize,
        /// "Dodge", a combat skill, or "General Defense".
        skill: String,
        /// Action dice spent.
        action_dice: u32,
        /// Extra dice.
        #[serde(default)]
        extra: u32,
        /// Against the attacks of this character only (None: every attacker).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        against: Option<usize>,
        /// The GM rules this declaration the character's action for the sequence of events
        /// under way (the formal declaration order): no other action until **End sequence**.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        as_action: bool,
    },
    /// Dive For Cover: the dice of one movement action (action dice and, if given, a movement
    /// skill or ability) added to the ranged defensive value against one specific attack of
    /// `against`.
    DiveForCover {
        /// Who dives.
        actor: usize,
        /// The movement skill or ability (Running, Riding...); None: action dice alone.
        #[serde(default)]
        skill: Option<String>,
        /// Action dice spent.
        action_dice: u32,
        /// Extra dice.
        #[serde(default)]
        extra: u32,
        /// Whose attack is dived from.
        against: usize,
        /// How far, in metres, the edge of the danger zone (an area-effect attack) is: the
        /// dive succeeds, and the attack cannot reach the character, when its movement dice
        /// carry it that far (one unit, 4 m, a die).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone_m: Option<u32>,
        /// The GM rules this declaration the character's action for the sequence of events
        /// under way, as for Defend (Dive For Cover is one of "the common defensive actions"):
        /// no other action until **End sequence**.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        as_action: bool,
    },
    /// Group Attack: a two-die attack with a combat skill, half of (2 + the skill's dice).
    GroupAttack {
        /// Who attacks.
        actor: usize,
        /// The combat skill.
        skill: String,
        /// Action dice spent (at least 2).
        action_dice: u32,
        /// Extra dice.
        #[serde(default)]
        extra: u32,
        /// What the total is measured against.
        #[serde(default)]
        target: Goal,
        /// The attack's range in metres, as an action's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        range_m: Option<u32>,
    },
    /// A passive ability (Toughness): its dice, no action and no action dice.
    Passive {
        /// Whose.
        actor: usize,
        /// The ability.
        ability: String,
        /// Success at or above this.
        #[serde(default)]
        target: Option<i64>,
    },
    /// Declares a character noncombat for the round: one more action die, base defence 0, no
    /// General Defense. Only before it acts.
    DeclareNoncombat {
        /// Who.
        actor: usize,
    },
    /// The GM ends the sequence of events under way: characters whose defensive declaration
    /// was ruled their action may act again.
    EndSequence,
    /// Ends the round: unused action dice are lost, defences end, fresh dice for everyone.
    EndRound,
}

/// Where an attack reaches: its target after a range penalty, the lines that say so, and why
/// it cannot reach its defender, if it cannot.
struct Reach {
    goal: Option<i64>,
    lines: Vec<String>,
    out_of_reach: Option<String>,
}

/// A move's action, the name its dice are spent on, and the defence it sets up.
struct Rolled {
    actor: usize,
    spent_on: Option<String>,
    action: Action,
    defends: Vec<Category>,
    /// The defence is aimed at this attacker's attacks only.
    against: Option<usize>,
    /// The defence is good for one attack.
    once: bool,
    /// A dive out of a danger zone: whether the movement carries the character clear.
    clear: Option<bool>,
    /// The attack cannot reach its target: it dived clear of the danger zone.
    out_of_reach: Option<String>,
    /// A movement action, timed by its total.
    movement: bool,
    /// What the rules added (a range penalty), for the outcome's lines.
    lines: Vec<String>,
}

impl Rolled {
    /// A move's roll with nothing beyond its action.
    fn of(actor: usize, spent_on: Option<String>, action: Action) -> Self {
        Rolled {
            actor,
            spent_on,
            action,
            defends: vec![],
            against: None,
            once: false,
            clear: None,
            out_of_reach: None,
            movement: false,
            lines: vec![],
        }
    }
}

impl Table {
    fn goal(&self, actor: usize, skill: &str, goal: &Goal) -> Result<Option<i64>, Refusal> {
        Ok(match goal {
            Goal::None => None,
            Goal::Number(n) => Some(*n),
            Goal::Attack(defender) => {
                let names = Seat::names(self);
                seat_of(&names, *defender)?;
                // Nobody attacks themselves (it would be paid for and mark them attacked).
                if *defender == actor && self.rules.generation >= crate::record::CLOSE_READING {
                    return Err(refuse!(
                        Target,
                        "an attack is aimed at another character: {} cannot attack themself",
                        names[actor]
                    ));
                }
                let c = &self.characters[actor];
                let category = c.category_of(skill).ok_or_else(|| {
                    refuse!(
                        Unknown,
                        "{skill} is not one of {}'s combat skills (hand-to-hand: {}; ranged: {})",
                        c.name,
                        c.hand_to_hand.join(", "),
                        c.ranged.join(", ")
                    )
                })?;
                Some(self.attack_target(*defender, category, Some(actor)))
            }
        })
    }

    fn rolled(&self, m: &Move) -> Result<Option<Rolled>, Refusal> {
        let names = Seat::names(self);
        let rolled = match m {
            Move::Act {
                actor,
                skill,
                action_dice,
                extra,
                target,
                range_m,
                movement,
            } => {
                let c = &self.characters[seat_of(&names, *actor)?];
                if self.is_two_die(skill) {
                    return Err(refuse!(
                        Choice,
                        "{skill} is a two-die action: choose it as a defence or a Group Attack"
                    ));
                }
                if c.is_passive(skill) {
                    return Err(refuse!(
                        Unable,
                        "{skill} is passive: it needs no action, roll it without action dice"
                    ));
                }
                if !c.skills.contains_key(skill) && !c.abilities.contains_key(skill) {
                    return Err(refuse!(
                        Unknown,
                        "{} has no skill or ability '{skill}'",
                        c.name
                    ));
                }
                if *movement {
                    c.movement(skill)?;
                }
                let goal = self.goal(*actor, skill, target)?;
                let Reach {
                    goal,
                    lines,
                    out_of_reach,
                } = self.reach(*actor, skill, target, *range_m, goal)?;
                let mut a = self.action(*actor, skill, *action_dice, goal)?;
                a.extra = *extra;
                Rolled {
                    movement: *movement,
                    out_of_reach,
                    lines,
                    ..Rolled::of(*actor, Some(skill.clone()), a)
                }
            }
            Move::Defend {
                actor,
                skill,
                action_dice,
                extra,
                against,
                ..
            } => {
                let c = &self.characters[seat_of(&names, *actor)?];
                if let Some(attacker) = against {
                    self.attacker(*actor, *attacker)?;
                }
                // General Defense covers every attack until the end of the round; a dodge or
                // a parry the "attacks by one character" (the text): whose must be said.
                let general = skill.eq_ignore_ascii_case("General Defense");
                match (general, against) {
                    // A log played by the first rules took either.
                    _ if self.rules.generation < crate::record::CLOSE_READING => {}
                    (true, Some(_)) => {
                        return Err(refuse!(
                            Choice,
                            "General Defense covers every attacker until the end of the \
                                    round: it is aimed at no one attacker (against every \
                                    attacker)"
                        ));
                    }
                    (false, None) => {
                        return Err(refuse!(
                            Choice,
                            "{skill} adds to the defence against the attacks of one character: \
                             choose whose (against)"
                        ));
                    }
                    _ => {}
                }
                let both = vec![Category::HandToHand, Category::Ranged];
                let defends = if skill.eq_ignore_ascii_case("General Defense")
                    || skill.eq_ignore_ascii_case("Dodge")
                {
                    both
                } else {
                    vec![c.category_of(skill).ok_or_else(|| {
                        refuse!(Unable,
                            "{} cannot defend with {skill}: defend with Dodge, a combat skill or General Defense",
                            c.name
                        )
                    })?]
                };
                if skill.eq_ignore_ascii_case("Dodge") && !c.skills.contains_key("Dodge") {
                    return Err(refuse!(Unable, "{} has no Dodge skill", c.name));
                }
                let mut a = self.action(*actor, skill, *action_dice, None)?;
                a.extra = *extra;
                Rolled {
                    defends,
                    against: *against,
                    ..Rolled::of(*actor, Some(skill.clone()), a)
                }
            }
            Move::DiveForCover {
                actor,
                skill,
                action_dice,
                extra,
                against,
                zone_m,
                ..
            } => {
                let c = &self.characters[seat_of(&names, *actor)?];
                self.attacker(*actor, *against)?;
                let name = match skill {
                    Some(s) => {
                        c.movement(s)?;
                        s.clone()
                    }
                    None => DIVE_FOR_COVER.to_string(),
                };
                let mut a = self.action(*actor, &name, *action_dice, None)?;
                a.extra = *extra;
                let mut lines = Vec::new();
                let clear = zone_m.map(|zone| {
                    let dice = a.dice_kept(&self.rules);
                    let carried = dice * self.rules.unit_m;
                    let clear = carried >= zone;
                    lines.push(format!(
                        "{dice} {} of movement carry {} {carried} m: {} the {zone} m danger zone",
                        if dice == 1 { "die" } else { "dice" },
                        names[*actor],
                        if clear { "out of" } else { "still in" }
                    ));
                    clear
                });
                Rolled {
                    defends: vec![Category::Ranged],
                    against: Some(*against),
                    once: true,
                    clear,
                    lines,
                    ..Rolled::of(*actor, Some(name), a)
                }
            }
            Move::GroupAttack {
                actor,
                skill,
                action_dice,
                extra,
                target,
                range_m,
            } => {
                let c = &self.characters[seat_of(&names, *actor)?];
                let goal = self.goal(*actor, skill, target)?;
                if c.category_of(skill).is_none() {
                    return Err(refuse!(
                        Choice,
                        "Group Attack needs a combat skill, not {skill}"
                    ));
                }
                let Reach {
                    goal,
                    lines,
                    out_of_reach,
                } = self.reach(*actor, skill, target, *range_m, goal)?;
                let mut a = self.action(*actor, "Group Attack", *action_dice, goal)?;
                a.dice = c.skills.get(skill).copied().unwrap_or(0);
                a.extra = *extra;
                Rolled {
                    out_of_reach,
                    lines,
                    ..Rolled::of(*actor, Some("Group Attack".into()), a)
                }
            }
            Move::Passive {
                actor,
                ability,
                target,
            } => {
                let c = &self.characters[seat_of(&names, *actor)?];
                let dice = *c
                    .abilities
                    .get(ability)
                    .ok_or_else(|| refuse!(Unknown, "{} has no ability '{ability}'", c.name))?;
                if !c.is_passive(ability) {
                    return Err(refuse!(
                        Choice,
                        "{ability} is an active ability: it takes action dice"
                    ));
                }
                Rolled::of(
                    *actor,
                    None,
                    Action {
                        kind: Kind::Ability,
                        action_dice: 0,
                        dice,
                        extra: 0,
                        two_die: false,
                        target: *target,
                        max_dice: c.ability_max.get(ability).copied(),
                        passive: true,
                    },
                )
            }
            Move::DeclareNoncombat { .. } | Move::EndSequence | Move::EndRound => return Ok(None),
        };
        Ok(Some(rolled))
    }

    /// An attack's reach: its range (a hand-to-hand attack reaches one unit at most, a ranged
    /// one beyond it takes the rules' penalty on its target) and a dive that took the defender
    /// out of the danger zone. The target after the penalty, the lines that say so, and why the
    /// attack cannot reach its defender, if it cannot.
    fn reach(
        &self,
        actor: usize,
        skill: &str,
        target: &Goal,
        range_m: Option<u32>,
        goal: Option<i64>,
    ) -> Result<Reach, Refusal> {
        let names = Seat::names(self);
        let c = &self.characters[actor];
        let mut goal = goal;
        let mut lines = Vec::new();
        if let Some(range) = range_m {
            // An attack's mark: a character, or what the GM sets a number for (a bottle on a
            // wall: "ranged attacks" take the penalty whatever they are aimed at).
            let mark = match target {
                Goal::Attack(defender) => name_at(&names, *defender),
                Goal::Number(_) if c.category_of(skill).is_some() => "the target".to_string(),
                Goal::Number(_) => {
                    return Err(refuse!(
                        Choice,
                        "a range is an attack's: {skill} is no combat skill"
                    ));
                }
                Goal::None => {
                    return Err(refuse!(
                        Choice,
                        "a range is an attack's: aim it at a character or a target number"
                    ));
                }
            };
            let unit = self.rules.unit_m;
            match c.category_of(skill) {
                Some(Category::HandToHand) if range > unit => {
                    return Err(refuse!(
                        Choice,
                        "a hand-to-hand attack reaches {unit} m at most; {mark} is {range} m away"
                    ));
                }
                Some(Category::Ranged) => {
                    let penalty = self.rules.range_penalty_at(range);
                    if penalty != 0 {
                        goal = goal.map(|g| g + penalty);
                        lines.push(format!(
                            "range {range} m, beyond {unit} m: {penalty:+} on the target"
                        ));
                    }
                }
                _ => {}
            }
        }
        let mut out_of_reach = None;
        if let Goal::Attack(defender) = target
            && let Some(category) = c.category_of(skill)
            && self.dived_clear(*defender, category, actor)
        {
            out_of_reach = Some(format!(
                "{} dived clear of the danger zone: the attack cannot reach them",
                name_at(&names, *defender)
            ));
        }
        Ok(Reach {
            goal,
            lines,
            out_of_reach,
        })
    }

    /// `attacker` is a character of the table other than `defender`.
    fn attacker(&self, defender: usize, attacker: usize) -> Result<(), Refusal> {
        let names = Seat::names(self);
        seat_of(&names, attacker)?;
        if attacker == defender {
            return Err(refuse!(
                Choice,
                "a defence is aimed at another character's attacks, not {}'s own",
                names[defender]
            ));
        }
        Ok(())
    }

    fn defence_line(&self, i: usize) -> String {
        let names = Seat::names(self);
        let h = self.attack_target(i, Category::HandToHand, None);
        let r = self.attack_target(i, Category::Ranged, None);
        let rolls: Vec<String> = self.defenses[i]
            .iter()
            .map(|d| {
                let whose = d
                    .against
                    .map(|a| format!(" vs {}", name_at(&names, a)))
                    .unwrap_or_default();
                let once = if d.once { ", one attack" } else { "" };
                format!("{} {}{whose}{once}", d.skill, d.total)
            })
            .collect();
        format!(
            "defence hand-to-hand {h}, ranged {r}{}",
            if rolls.is_empty() {
                String::new()
            } else {
                format!(" ({})", rolls.join(", "))
            }
        )
    }
}

impl Seat for Table {
    type Move = Move;

    fn names(&self) -> Vec<&str> {
        self.characters.iter().map(|c| c.name.as_str()).collect()
    }

    fn round(&self) -> u32 {
        self.round
    }

    fn heading(&self) -> String {
        let order: Vec<&str> = self
            .declaration_order()
            .iter()
            .map(|&i| self.characters[i].name.as_str())
            .collect();
        format!(
            "Round {}: declare in order {}",
            self.round,
            order.join(", ")
        )
    }

    fn tracker(&self) -> Vec<TrackerRow> {
        self.characters
            .iter()
            .zip(&self.budgets)
            .enumerate()
            .map(|(i, (c, b))| {
                let have = c.action_dice
                    + if b.noncombat {
                        self.rules.noncombat_dice
                    } else {
                        0
                    };
                let mut status = vec![format!(
                    "{} {}/{have}",
                    if have == 1 {
                        "action die"
                    } else {
                        "action dice"
                    },
                    b.general
                )];
                for (pool, left) in c
                    .limited
                    .iter()
                    .zip(&b.limited)
                    .chain(c.specialized.iter().zip(&b.specialized))
                {
                    status.push(format!("{} {left}/{}", pool.name, pool.count));
                }
                if b.noncombat {
                    status.push("noncombat".into());
                }
                if b.bound {
                    status.push("defending: its action this sequence".into());
                }
                status.push(self.defence_line(i));
                TrackerRow {
                    name: c.name.clone(),
                    acting: false,
                    status,
                }
            })
            .collect()
    }

    fn notes(&self) -> Vec<String> {
        let order: Vec<String> = resolution_order(&self.rolled)
            .into_iter()
            .map(|group| {
                group
                    .iter()
                    .filter_map(|&k| self.rolled.get(k))
                    .map(|a| {
                        format!(
                            "{} ({} {}, {})",
                            self.characters[a.actor].name,
                            a.timing_dice,
                            if a.timing_dice == 1 { "die" } else { "dice" },
                            a.total
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" = ")
            })
            .collect();
        let mut notes = Vec::new();
        if !order.is_empty() {
            notes.push(format!("Resolution order: {}", order.join(", then ")));
        }
        let finishing: Vec<String> = self
            .finishing_order()
            .iter()
            .map(|group| {
                group
                    .iter()
                    .filter_map(|&k| self.rolled.get(k))
                    .map(|a| format!("{} ({})", self.characters[a.actor].name, a.total))
                    .collect::<Vec<_>>()
                    .join(" = ")
            })
            .collect();
        if !finishing.is_empty() {
            notes.push(format!(
                "Movement finishes by total: {}",
                finishing.join(", then ")
            ));
        }
        notes
    }

    fn actor(&self, m: &Move) -> Option<usize> {
        match m {
            Move::Act { actor, .. }
            | Move::Defend { actor, .. }
            | Move::DiveForCover { actor, .. }
            | Move::GroupAttack { actor, .. }
            | Move::Passive { actor, .. }
            | Move::DeclareNoncombat { actor } => Some(*actor),
            Move::EndSequence | Move::EndRound => None,
        }
    }

    fn numbers(&self, m: &Move) -> Vec<Bounded> {
        let goal = |target: &Goal| match target {
            Goal::Number(n) => Some(Bounded::number("target", *n)),
            Goal::None | Goal::Attack(_) => None,
        };
        match m {
            Move::Act {
                action_dice,
                extra,
                target,
                range_m,
                ..
            }
            | Move::GroupAttack {
                action_dice,
                extra,
                target,
                range_m,
                ..
            } => [
                Some(Bounded::count("action_dice", *action_dice)),
                Some(extra_dice(*extra)),
                goal(target),
                range_m.map(|r| Bounded::number("range_m", i64::from(r))),
            ]
            .into_iter()
            .flatten()
            .collect(),
            Move::Defend {
                action_dice, extra, ..
            } => vec![
                Bounded::count("action_dice", *action_dice),
                extra_dice(*extra),
            ],
            Move::DiveForCover {
                action_dice,
                extra,
                zone_m,
                ..
            } => [
                Some(Bounded::count("action_dice", *action_dice)),
                Some(extra_dice(*extra)),
                zone_m.map(|z| Bounded::number("zone_m", i64::from(z))),
            ]
            .into_iter()
            .flatten()
            .collect(),
            Move::Passive { target, .. } => target
                .iter()
                .map(|n| Bounded::number("target", *n))
                .collect(),
            Move::DeclareNoncombat { .. } | Move::EndSequence | Move::EndRound => Vec::new(),
        }
    }

    fn allowed(&self, m: &Move) -> Result<(), Refusal> {
        match (m, self.rolled(m)?) {
            (Move::DeclareNoncombat { actor }, _) => {
                let b = &self.budgets[seat_of(&Seat::names(self), *actor)?];
                let name = &self.characters[*actor].name;
                if b.noncombat {
                    return Err(refuse!(Already, "{name} is already noncombat this round"));
                }
                if b.acted {
                    return Err(refuse!(
                        NotNow,
                        "{name} has acted: noncombat is declared at the start of the round"
                    ));
                }
                if b.affected {
                    return Err(refuse!(
                        NotNow,
                        "{name} has been attacked this round: noncombat is declared before any \
                         action directly affects the character"
                    ));
                }
                Ok(())
            }
            (_, Some(r)) => match &r.spent_on {
                Some(_) if self.budgets[r.actor].bound => Err(refuse!(
                    NotNow,
                    "the GM ruled {}'s defence the action for this sequence: no other action \
                     until the sequence is over (End sequence)",
                    self.characters[r.actor].name
                )),
                Some(skill) => self.check(r.actor, skill, &r.action),
                None => r.action.check(),
            },
            (_, None) => Ok(()),
        }
    }

    fn plan(&self, m: &Move) -> Result<RollPlan, Refusal> {
        Ok(match self.rolled(m)? {
            Some(r) => r.action.plan(&self.rules),
            None => RollPlan::new("no roll"),
        })
    }

    fn odds(&self, m: &Move) -> Result<Option<Odds>, Refusal> {
        match self.rolled(m)? {
            Some(r) => {
                r.action.check()?;
                let mut odds = r.action.odds(&self.rules);
                let known = if r.out_of_reach.is_some() {
                    Some((false, "out of reach"))
                } else {
                    r.clear.map(|clear| {
                        (
                            clear,
                            if clear {
                                "out of the danger zone"
                            } else {
                                "still in the danger zone"
                            },
                        )
                    })
                };
                if let Some((success, class)) = known {
                    let p = if success { Prob::one() } else { Prob::zero() };
                    odds.classes = vec![(class.to_string(), Prob::one())];
                    odds.p_success = Some(p);
                }
                Ok(Some(odds))
            }
            None => Ok(None),
        }
    }

    fn resolve(&self, m: &Move, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        match (self.rolled(m)?, throws) {
            (Some(r), _) => Ok(match r.action.resolve(&self.rules, single(throws)?)? {
                Step::Done(mut o) => {
                    o.lines.extend(r.lines.iter().cloned());
                    if let Some(reason) = &r.out_of_reach {
                        o.success = Some(false);
                        o.reclassed("out_of_reach", "out of reach");
                        o.lines.push(reason.clone());
                    } else if let Some(clear) = r.clear {
                        o.success = Some(clear);
                        if clear {
                            o.reclassed("out_of_danger", "out of the danger zone");
                        } else {
                            o.reclassed("still_in_danger", "still in the danger zone");
                        }
                    }
                    Step::Done(o)
                }
                more => more,
            }),
            (None, _) => Ok(match m {
                Move::DeclareNoncombat { actor } => no_roll(
                    "noncombat",
                    "noncombat",
                    format!(
                        "{} declares noncombat: one more action die, base defence 0, no General Defense",
                        name_at(&Seat::names(self), *actor)
                    ),
                ),
                Move::EndSequence => no_roll(
                    "sequence_over",
                    "sequence over",
                    "the sequence of events is over: everyone may declare again".into(),
                ),
                _ => no_roll(
                    "round_ended",
                    "round ended",
                    "unused action dice are lost".into(),
                ),
            }),
        }
    }

    fn apply_move(
        &mut self,
        m: &Move,
        _: &[Vec<u32>],
        outcome: &Outcome,
    ) -> Result<Vec<String>, Refusal> {
        let names: Vec<String> = Seat::names(self).into_iter().map(String::from).collect();
        let Some(r) = self.rolled(m)? else {
            return Ok(match m {
                Move::DeclareNoncombat { actor } => {
                    self.declare_noncombat(*actor)?;
                    vec![format!(
                        "{} is noncombat this round: +{} action die, defence 0",
                        names[*actor], self.rules.noncombat_dice
                    )]
                }
                Move::EndSequence => {
                    let freed: Vec<&str> = (0..self.budgets.len())
                        .filter(|&i| self.budgets[i].bound)
                        .map(|i| names[i].as_str())
                        .collect();
                    let said = if freed.is_empty() {
                        "the sequence is over".to_string()
                    } else {
                        format!(
                            "the sequence is over: {} may act again",
                            freed.join(" and ")
                        )
                    };
                    self.budgets.iter_mut().for_each(|b| b.bound = false);
                    vec![said]
                }
                _ => {
                    self.end_round();
                    vec![format!(
                        "round {}: fresh action dice for everyone; defences end",
                        self.round
                    )]
                }
            });
        };
        let Some(skill) = &r.spent_on else {
            return Ok(vec![format!(
                "{} rolls a passive ability: no action, no action dice",
                names[r.actor]
            )]);
        };
        self.spend(r.actor, skill, &r.action)?;
        if let Move::Act {
            target: Goal::Attack(defender),
            skill: weapon,
            ..
        }
        | Move::GroupAttack {
            target: Goal::Attack(defender),
            skill: weapon,
            ..
        } = m
            && let Some(b) = self.budgets.get_mut(*defender)
        {
            b.affected = true;
            if let Some(category) = self.characters[r.actor].category_of(weapon) {
                self.attacked(*defender, category, r.actor);
            }
        }
        self.rolled.push(Timed {
            actor: r.actor,
            timing_dice: r.action.timing_dice(),
            total: outcome.total,
            movement: r.movement,
        });
        let left = self.budgets[r.actor].total();
        let mut said = vec![format!(
            "{} spends {} on {skill} ({left} left this round)",
            names[r.actor],
            dice_word(r.action.action_dice),
        )];
        if !r.defends.is_empty() {
            self.defenses[r.actor].push(DefenseRoll {
                skill: if matches!(m, Move::DiveForCover { .. }) {
                    DIVE_FOR_COVER.to_string()
                } else {
                    skill.clone()
                },
                categories: r.defends.clone(),
                total: outcome.total,
                against: r.against,
                once: r.once,
                clear: r.clear == Some(true),
            });
            said.push(format!(
                "{}'s {} until the end of the round",
                names[r.actor],
                self.defence_line(r.actor)
            ));
        }
        if let Move::Defend {
            as_action: true, ..
        }
        | Move::DiveForCover {
            as_action: true, ..
        } = m
        {
            self.budgets[r.actor].bound = true;
            said.push(format!(
                "the GM rules it {}'s action for this sequence: no other action until it is over",
                names[r.actor]
            ));
        }
        if let Some(reason) = &r.out_of_reach {
            said.push(reason.clone());
        }
        Ok(said)
    }

    fn end_turn_label(&self) -> &'static str {
        "End round"
    }

    fn end_turn_move(&self) -> Option<Move> {
        Some(Move::EndRound)
    }

    fn describe(&self, m: &Move) -> String {
        self.describe_move(m)
    }

    fn charted_value(&self, m: &Move, outcome: &Outcome) -> Option<i64> {
        matches!(
            m,
            Move::Act { .. }
                | Move::Defend { .. }
                | Move::GroupAttack { .. }
                | Move::Passive { .. }
        )
        .then_some(outcome.total)
    }
}

/// "1 action die", "2 action dice".
pub fn dice_word(n: u32) -> String {
    crate::text::plural(n, "action die", "action dice")
}

mod words;

#[cfg(test)]
mod tests;
