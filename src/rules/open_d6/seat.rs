//! `open-d6` at the table: initiative (Closed rolls, special results reported, a Fortune
//! re-roll), surprise rounds, simplified initiative, actions on the shot counter with checks
//! against a number or another character (Active Defense raising it), focus and Limit Breaks
//! (Combination Action, Action Advantage), Assist and Push Luck on the last check, Stunt
//! Modifiers, team actions, Fortune, Setbacks, and new sessions.

use crate::rules::Refusal;
use crate::rules::bounds::Bounded;
use crate::text::possessive;
use serde::{Deserialize, Serialize};

use super::{
    Action, ActionType, Character, Cost, FocusCondition, LastCheck, RollKind, Table, assist_bonus,
    defended_difficulty, team_result,
};
use crate::rules::play::{Seat, TrackerRow, name_at, no_roll, resolve_sequence, seat_of, single};
use crate::rules::{ClassId, DieRole, Odds, Outcome, RollPlan, Step};

mod economy;
mod effects;
mod resolution;
mod verdicts;
mod words;

use economy::*;

/// The difficulty of a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Difficulty {
    /// A number the GM sets.
    Number(i64),
    /// Against a character: the higher of its same skill and its Dodge, Active Defense added.
    Against(usize),
    /// Against a character's skills that a stunt or schtick lists ("the opponent's Dodge or
    /// Know"): the highest applies, Active Defense added.
    Listed(usize, Vec<String>),
}

/// A check of a character's skill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// The actor's skill, by name.
    pub skill: String,
    /// How the dice are read.
    #[serde(default)]
    pub roll: RollKind,
    /// Against what.
    pub difficulty: Difficulty,
    /// Assists given before, team penalties, GM modifiers.
    #[serde(default)]
    pub modifier: i64,
    /// Advantages spent from the character's Stunt Modifier pool (+1 each).
    #[serde(default)]
    pub advantages: u32,
    /// Spend a Fortune point: the roll is Confident.
    #[serde(default)]
    pub fortune: bool,
    /// A second or later roll of a multi-roll action: no snake eyes or double deuces.
    #[serde(default)]
    pub later_roll: bool,
    /// A stunt for Advantage: success adds one to the character's pool.
    #[serde(default)]
    pub stunt: bool,
}

/// An `open-d6` move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Move {
    /// The round's initiative: a Closed Reflexes roll per named creature.
    Initiative,
    /// A surprise round before initiative: the ambushers get 3 shots, the surprised none.
    SurpriseRound {
        /// Who has the drop on the others.
        ambushers: Vec<usize>,
    },
    /// A check outside an action scene (before the first initiative, or after the scene
    /// ends): no shots, no turn order; Assist and Push Luck may follow it.
    Check {
        /// Who checks.
        actor: usize,
        /// The check.
        check: Check,
    },
    /// An action on the shot counter, with a check or without one.
    Act {
        /// Who acts.
        actor: usize,
        /// What it costs on the counter.
        kind: ActionType,
        /// The check, if the action rolls.
        #[serde(default)]
        check: Option<Check>,
        /// The action is a focus (a Limit Break may follow).
        #[serde(default)]
        focuses: bool,
        /// A Stance action that adopts one of the character's stance schticks, by name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stance: Option<String>,
        /// The character moves up to its Move, before or after acting: a Basic Action's (or a
        /// Limit Break's) movement; trigger actions include none.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        moves: bool,
    },
    /// Full Move, a Basic Action: moving, doing nothing else, twice the Move.
    FullMove {
        /// Who moves.
        actor: usize,
    },
    /// Gauge Skill: seeing someone use a skill, an opposed roll of that skill against theirs;
    /// success tells their rating and three schticks of the skill, failure only the gauger's
    /// own result. A trigger action after the target's check of the skill (or while they hold
    /// an Active Defense with it), else a Limit Break; outside an action scene, no shots.
    GaugeSkill {
        /// Who gauges.
        actor: usize,
        /// Whose skill.
        target: usize,
        /// The skill.
        skill: String,
        /// They are not using the skill: a Limit Break.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        limit_break: bool,
    },
    /// Setup Finisher (a Basic Action, our reading): a check against the target; on success
    /// `partner` may at once take a Finisher on it as a trigger action.
    SetupFinisher {
        /// Who sets the target up.
        actor: usize,
        /// Who may finish it.
        partner: usize,
        /// The check, against the target.
        check: Check,
    },
    /// Finishing Stunt, a Finisher (after knocking an opponent out, or set up by a friend): a
    /// Basic Action's power is a Routine task rolled Confident, a Limit Break's is rolled
    /// normally against the target; success is an infinite outcome, an automatic Setback.
    FinishingStunt {
        /// Who finishes.
        actor: usize,
        /// Whom.
        target: usize,
        /// The skill of the stunt or power.
        skill: String,
        /// The power used is a Limit Break (focus needed and used).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        limit_break: bool,
    },
    /// Limit Break: two Basic Actions in quick succession (two rolls; only the first can
    /// show snake eyes), or one and a Full Move ("this allows you to move even with actions
    /// that normally do not allow movements").
    CombinationAction {
        /// Who acts.
        actor: usize,
        /// The first action's check.
        first: Check,
        /// The second action's check; none when the other action is a Full Move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        second: Option<Check>,
        /// The character moves up to its Move before, between or after acting: once.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        moves: bool,
        /// The other action is a Full Move: twice the Move, whatever the first action allows.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        full_move: bool,
    },
    /// Limit Break: a Basic Action with an Advantage spent on it at once.
    ActionAdvantage {
        /// Who acts.
        actor: usize,
        /// The check.
        check: Check,
    },
    /// Trigger Action (Defense): +3 to one skill used as a difficulty, for this shot, against
    /// one attacker's attack or every attacker's. Several may be held at once (a Dodge against
    /// one, a Maneuver against another); bonuses to one skill do not stack.
    ActiveDefense {
        /// Who defends.
        actor: usize,
        /// The skill (Dodge, Maneuver...).
        skill: String,
        /// The attacker whose attack it answers; none: every attacker's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        against: Option<usize>,
    },
    /// Trigger Action (Combo) after a friend's check: a Confident roll of a skill against the
    /// friend's skill; success gives the friend's check +1 (at most +3).
    Assist {
        /// Who assists.
        helper: usize,
        /// The helper's skill.
        skill: String,
        /// Forgo the roll, for speed of play: allowed when the helper's skill is at least the
        /// friend's (a Confident roll could not fail); the assist succeeds.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        no_roll: bool,
    },
    /// Trigger Action (Combo) after one's own failed check: re-roll it; success counts as the
    /// first roll's, failure adds a Setback.
    PushLuck {
        /// Who pushes.
        actor: usize,
    },
    /// Outside detailed time: every participant rolls at −n; the best result counts.
    TeamAction {
        /// The participants.
        actors: Vec<usize>,
        /// The skill each rolls.
        skill: String,
        /// The difficulty.
        difficulty: i64,
    },
    /// A Fortune point for a Closed, Confident initiative re-roll (before acting this round).
    FortuneInitiative {
        /// Whose initiative.
        actor: usize,
    },
    /// A plain d6 on a random table.
    TableD6 {
        /// Who throws.
        actor: usize,
    },
    /// A Fortune point to re-roll one's last plain d6, keeping either result.
    FortuneReroll {
        /// Who.
        actor: usize,
    },
    /// A new session: Fortune points come back.
    NewSession,
    /// A focus that costs no shots ("Focusing normally does not cost any shots"): the
    /// character is focused, once a round, and a Limit Break may follow. A focus that is an
    /// action of its own kind is `Act` with `focuses`.
    Focus {
        /// Who focuses.
        actor: usize,
        /// A condition the focus waits on, checked when the character's turn ends (its Basic
        /// Action and the combos that follow): focused if it was met, else no focus.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        condition: Option<FocusCondition>,
    },
    /// A Setback inflicted on a character by another (a boxcars success played as the
    /// opponent's Setback, a Damage Setback): it is recorded, and it may meet a focus condition.
    Setback {
        /// Who suffers it.
        target: usize,
        /// Who inflicted it, if anyone.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<usize>,
    },
    /// A stance adopted before the round, even before initiative is rolled: it costs no shots
    /// now and is paid from the first shot of the next round, once.
    StanceBeforeRound {
        /// Who adopts it.
        actor: usize,
        /// One of the character's stance schticks, by name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stance: Option<String>,
    },
    /// Damage taken: the target's hits go down; at zero it is knocked out, and an opponent who
    /// dealt it may take a Finisher at no shot cost.
    Damage {
        /// Who takes it.
        target: usize,
        /// How many hits.
        hits: i64,
        /// Who dealt it, if anyone.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<usize>,
    },
    /// The damage of a successful attack, the attacker's last check against the target: its
    /// outcome, plus the weapon's damage and damage boosts in effect, less the target's soak
    /// and resistances to the attack's types of damage, comes off the target's hits.
    DealDamage {
        /// Who attacked.
        by: usize,
        /// Whom.
        target: usize,
        /// The weapon's damage modifier.
        #[serde(default)]
        weapon: i64,
        /// The weapon's type of damage ("physical", "fire"), for resistances.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<String>,
    },
    /// Another result that leaves the target unable to act this scene (a Setback, a Finisher).
    KnockOut {
        /// Who is knocked out.
        target: usize,
        /// Who did it, if anyone: an opponent may take a Finisher at no shot cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<usize>,
    },
    /// An impairment of so many points (0 lifts it): taken from every use of the character's
    /// skills, defence values included.
    Impair {
        /// Who is impaired.
        target: usize,
        /// The points.
        points: i64,
    },
    /// The friction conditions a character is under now (faces of the friction table; none:
    /// playing it safe). A friction check after snake eyes reads them.
    UnderFriction {
        /// Who.
        target: usize,
        /// The faces whose conditions hold.
        conditions: Vec<u32>,
    },
    /// The action scene ends: shots are over; one who ends it focused and out of shots may
    /// make one Limit Break after it. Stances kept running are paid again in the next one.
    EndScene,
}

/// A check made into the engine's action, and what it spends.
struct Rolled {
    action: Action,
    skill: String,
    stunt: bool,
    advantages: u32,
    fortune: bool,
    /// The character the check is against, if any.
    target: Option<usize>,
}

impl Check {
    /// A check of `skill` with nothing spent on it (no modifier, Advantage or Fortune).
    pub fn plain(skill: &str, roll: RollKind, difficulty: Difficulty) -> Check {
        Check {
            skill: skill.to_string(),
            roll,
            difficulty,
            modifier: 0,
            advantages: 0,
            fortune: false,
            later_roll: false,
            stunt: false,
        }
    }
}

fn confident(roll: RollKind) -> RollKind {
    match roll {
        RollKind::Standard | RollKind::Confident => RollKind::Confident,
        RollKind::Closed | RollKind::ClosedConfident => RollKind::ClosedConfident,
    }
}

fn pair_plan(who: &str, purpose: &str) -> RollPlan {
    RollPlan::new(purpose.to_string())
        .with(1, 6, DieRole::Positive, &format!("{who} positive"))
        .with(1, 6, DieRole::Negative, &format!("{who} negative"))
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
        self.heading_now()
    }

    fn tracker(&self) -> Vec<TrackerRow> {
        self.tracker_now()
    }

    fn notes(&self) -> Vec<String> {
        self.notes_now()
    }

    fn actor(&self, m: &Move) -> Option<usize> {
        match m {
            Move::Act { actor, .. }
            | Move::FullMove { actor }
            | Move::Check { actor, .. }
            | Move::GaugeSkill { actor, .. }
            | Move::SetupFinisher { actor, .. }
            | Move::FinishingStunt { actor, .. }
            | Move::CombinationAction { actor, .. }
            | Move::ActionAdvantage { actor, .. }
            | Move::ActiveDefense { actor, .. }
            | Move::PushLuck { actor }
            | Move::FortuneInitiative { actor }
            | Move::TableD6 { actor }
            | Move::FortuneReroll { actor } => Some(*actor),
            Move::Assist { helper, .. } => Some(*helper),
            Move::TeamAction { actors, .. } => actors.first().copied(),
            Move::Initiative
            | Move::SurpriseRound { .. }
            | Move::NewSession
            | Move::EndScene
            | Move::Damage { .. }
            | Move::DealDamage { .. }
            | Move::KnockOut { .. }
            | Move::Setback { .. }
            | Move::Impair { .. }
            | Move::UnderFriction { .. } => None,
            Move::Focus { actor, .. } | Move::StanceBeforeRound { actor, .. } => Some(*actor),
        }
    }

    fn numbers(&self, m: &Move) -> Vec<Bounded> {
        let check = |which: &str, c: &Check| {
            let mut numbers = vec![
                Bounded::number(format!("{which}modifier"), c.modifier),
                Bounded::count(format!("{which}advantages"), c.advantages),
            ];
            if let Difficulty::Number(n) = c.difficulty {
                numbers.push(Bounded::number(format!("{which}difficulty"), n));
            }
            numbers
        };
        match m {
            Move::Act { check: Some(c), .. }
            | Move::ActionAdvantage { check: c, .. }
            | Move::SetupFinisher { check: c, .. }
            | Move::Check { check: c, .. } => check("", c),
            Move::GaugeSkill { .. } | Move::FinishingStunt { .. } | Move::FullMove { .. } => {
                Vec::new()
            }
            Move::CombinationAction { first, second, .. } => {
                let mut numbers = check("the first check's ", first);
                if let Some(second) = second {
                    numbers.extend(check("the second check's ", second));
                }
                numbers
            }
            Move::TeamAction {
                actors, difficulty, ..
            } => vec![
                Bounded::count("actors", actors.len() as u64),
                Bounded::number("difficulty", *difficulty),
            ],
            Move::SurpriseRound { ambushers } => {
                vec![Bounded::count("ambushers", ambushers.len() as u64)]
            }
            Move::Damage { hits, .. } => vec![Bounded::within(
                "hits",
                i128::from(*hits),
                0,
                crate::rules::bounds::MOST_NUMBER,
            )],
            Move::Impair { points, .. } => vec![Bounded::count("points", *points)],
            Move::UnderFriction { conditions, .. } => {
                vec![Bounded::count("conditions", conditions.len() as u64)]
            }
            Move::Act { check: None, .. }
            | Move::Initiative
            | Move::ActiveDefense { .. }
            | Move::Assist { .. }
            | Move::PushLuck { .. }
            | Move::FortuneInitiative { .. }
            | Move::TableD6 { .. }
            | Move::FortuneReroll { .. }
            | Move::NewSession
            | Move::Focus { .. }
            | Move::StanceBeforeRound { .. }
            | Move::KnockOut { .. }
            | Move::Setback { .. }
            | Move::EndScene => Vec::new(),
            Move::DealDamage { weapon, .. } => vec![Bounded::number("weapon", *weapon)],
        }
    }

    fn allowed(&self, m: &Move) -> Result<(), Refusal> {
        self.allowed_move(m)
    }

    fn plan(&self, m: &Move) -> Result<RollPlan, Refusal> {
        let checks = self.checks(m)?;
        if let Some(r) = checks.first() {
            // The actor, or a team action's first participant: its roll is thrown first.
            let who = name_at(&Seat::names(self), self.actor(m).unwrap_or(0));
            return Ok(pair_plan(&who, &format!("{:?} roll", r.action.roll)));
        }
        Ok(match m {
            Move::Initiative => self.initiative_plan(),
            Move::FortuneInitiative { actor } => pair_plan(
                &self.characters[*actor].name,
                "Fortune: a Closed, Confident initiative re-roll",
            ),
            Move::TableD6 { actor } | Move::FortuneReroll { actor } => RollPlan::new("a d6").with(
                1,
                6,
                DieRole::Pool,
                &format!("{} d6", self.characters[*actor].name),
            ),
            _ => RollPlan::new("no roll"),
        })
    }

    fn odds(&self, m: &Move) -> Result<Option<Odds>, Refusal> {
        let checks = self.checks(m)?;
        if let Some(r) = checks.first() {
            return Ok(Some(r.action.odds()));
        }
        Ok(match m {
            Move::Initiative => Some(Odds::of(
                "closed bonus added to Reflexes",
                closed(RollKind::Closed).bonus_distribution(),
            )),
            Move::FortuneInitiative { .. } => Some(Odds::of(
                "closed confident bonus added to Reflexes",
                closed(RollKind::ClosedConfident).bonus_distribution(),
            )),
            Move::TableD6 { .. } | Move::FortuneReroll { .. } => {
                Some(Odds::of("d6", crate::odds::Dist::die(6)))
            }
            _ => None,
        })
    }

    fn resolve(&self, m: &Move, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        self.resolve_throws(m, throws)
    }

    fn apply_move(
        &mut self,
        m: &Move,
        throws: &[Vec<u32>],
        outcome: &Outcome,
    ) -> Result<Vec<String>, Refusal> {
        self.apply_effects(m, throws, outcome)
    }

    fn describe(&self, m: &Move) -> String {
        self.describe_move(m)
    }

    fn charted_value(&self, m: &Move, outcome: &Outcome) -> Option<i64> {
        match m {
            Move::Initiative | Move::FortuneInitiative { .. } => None,
            _ if self.checks(m).map(|c| c.is_empty()).unwrap_or(true) => match m {
                Move::TableD6 { .. } | Move::FortuneReroll { .. } => Some(outcome.total),
                _ => None,
            },
            _ => Some(outcome.total),
        }
    }
}

fn closed(roll: RollKind) -> Action {
    Action {
        roll,
        skill: 0,
        difficulty: 0,
        modifier: 0,
        first_roll: false,
    }
}

impl Table {
    /// What a stance, a limit break or another kind costs, in words, for the builder.
    pub fn cost_words(&self, actor: usize, kind: ActionType) -> String {
        match self.cost_for(actor, kind) {
            Cost::Shots(n) => crate::text::plural(n, "shot", "shots"),
            Cost::AllRemaining => "all remaining shots".into(),
        }
    }
}

#[cfg(test)]
mod tests;
