//! `open-d6` at the table: initiative (Closed rolls, special results reported, a Fortune
//! re-roll), surprise rounds, simplified initiative, actions on the shot counter with checks
//! against a number or another character (Active Defense raising it), focus and Limit Breaks
//! (Combination Action, Action Advantage), Assist and Push Luck on the last check, Stunt
//! Modifiers, team actions, Fortune, Setbacks, and new sessions.

use crate::rules::bounds::Bounded;
use crate::rules::catalogue::{Form, MoveKind};
use crate::text::possessive;
use serde::{Deserialize, Serialize};

use super::{
    Action, ActionType, Character, Cost, FocusCondition, LastCheck, RollKind, Table, assist_bonus,
    defended_difficulty, team_result,
};
use crate::rules::play::{Seat, TrackerRow, name_at, no_roll, resolve_sequence, seat_of};
use crate::rules::{DieRole, Odds, Outcome, RollPlan, Step};

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
    /// success tells their rating and three schticks of the skill. A trigger action, or a
    /// Limit Break when they are not using the skill; outside an action scene, no shots.
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
    /// show snake eyes).
    CombinationAction {
        /// Who acts.
        actor: usize,
        /// The first action's check.
        first: Check,
        /// The second action's check.
        second: Check,
        /// The character moves up to its Move before, between or after acting: once.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        moves: bool,
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

fn single(throws: &[Vec<u32>]) -> Result<&[u32], String> {
    match throws {
        [one] => Ok(one),
        _ => Err(format!("{} throws for a roll of one throw", throws.len())),
    }
}

impl Table {
    /// The difficulty of `attacker` acting against `target` with `skill`: the higher of its
    /// same skill and its Dodge (as used now: schticks, impairment), each raised by an Active
    /// Defense it holds on this shot against that attacker (or every attacker); defences on one
    /// skill do not stack.
    pub fn difficulty_against(
        &self,
        attacker: usize,
        target: usize,
        skill: &str,
    ) -> Result<i64, String> {
        self.difficulty_of(attacker, target, &[skill, "Dodge"])?
            .ok_or_else(|| {
                format!(
                    "{} has neither {skill} nor Dodge",
                    name_at(&Seat::names(self), target)
                )
            })
    }

    /// The difficulty of `attacker` acting against `target`'s skills `names` (the highest, as
    /// used now, each raised by an Active Defense held against that attacker); none when it has
    /// none of them.
    pub fn difficulty_of(
        &self,
        attacker: usize,
        target: usize,
        names: &[&str],
    ) -> Result<Option<i64>, String> {
        let c = self
            .characters
            .get(target)
            .ok_or("the target is not in the scene")?;
        // A check against a character is against another: against oneself it would be an
        // attack rolled and paid for, that its target's own defences answer.
        if target == attacker && self.rules.generation >= crate::record::CLOSE_READING {
            return Err(format!(
                "a check against a character is against another: {} cannot act against themself",
                c.name
            ));
        }
        let held = self.defences_now(target, Some(attacker));
        let defenses = |name: &str| -> Vec<i64> {
            held.iter()
                .filter(|d| d.skill.eq_ignore_ascii_case(name))
                .map(|_| self.rules.active_defense_bonus)
                .collect()
        };
        Ok(names
            .iter()
            .filter_map(|n| {
                self.skill_value(target, n)
                    .map(|v| defended_difficulty(v, &defenses(n)))
            })
            .max())
    }

    /// The difficulty of a check of `actor`'s.
    fn difficulty(&self, actor: usize, check: &Check) -> Result<i64, String> {
        match &check.difficulty {
            Difficulty::Number(n) => Ok(*n),
            Difficulty::Against(t) => self.difficulty_against(actor, *t, &check.skill),
            Difficulty::Listed(t, skills) => {
                if skills.iter().all(|s| s.trim().is_empty()) {
                    return Err("name the opponent's skills the stunt targets (Dodge, Know)".into());
                }
                let names: Vec<&str> = skills
                    .iter()
                    .map(|s| s.trim())
                    .filter(|s| !s.is_empty())
                    .collect();
                self.difficulty_of(actor, *t, &names)?.ok_or_else(|| {
                    format!(
                        "{} has none of {}",
                        name_at(&Seat::names(self), *t),
                        names.join(", ")
                    )
                })
            }
        }
    }

    /// Whose rolls a move throws, in throw order (the friction check reads each one's).
    fn rollers(m: &Move) -> Vec<usize> {
        match m {
            Move::Act { actor, .. }
            | Move::Check { actor, .. }
            | Move::ActionAdvantage { actor, .. }
            | Move::GaugeSkill { actor, .. }
            | Move::SetupFinisher { actor, .. }
            | Move::FinishingStunt { actor, .. }
            | Move::PushLuck { actor } => vec![*actor],
            Move::CombinationAction { actor, .. } => vec![*actor, *actor],
            Move::Assist { helper, .. } => vec![*helper],
            Move::TeamAction { actors, .. } => actors.clone(),
            _ => vec![],
        }
    }

    /// The friction check of a roll, read for its roller: in place of the table's row alone.
    fn read_friction(&self, roller: usize, action: &Action, throws: &[Vec<u32>], o: &mut Outcome) {
        let (Ok(chains), Some(who)) = (action.chains(throws), self.characters.get(roller)) else {
            return;
        };
        if let Some(face) = chains.friction {
            let plain = self.rules.friction_tag(face);
            o.tags.retain(|t| *t != plain);
            let under = self
                .under_friction
                .get(roller)
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            o.tags.push(self.rules.friction_reading(who, under, face));
        }
    }

    /// Adopts a stance schtick: a typed one ends the stance of its type already adopted.
    fn adopt(&mut self, who: usize, stance: &str) -> String {
        let c = &self.characters[who];
        let Some(schtick) = c.schticks.iter().find(|s| s.name == stance).cloned() else {
            return String::new();
        };
        let mut said = format!(
            "{} adopts {} ({})",
            c.name,
            schtick.name,
            schtick.effect_words()
        );
        if let Some(kind) = &schtick.kind {
            let same_kind = |name: &String| {
                c.schticks
                    .iter()
                    .any(|s| &s.name == name && s.kind.as_ref() == Some(kind))
            };
            let ended: Vec<String> = self.stance_schticks[who]
                .iter()
                .filter(|n| same_kind(n))
                .cloned()
                .collect();
            if !ended.is_empty() {
                said.push_str(&format!(
                    "; {} ends (one {kind} stance at a time)",
                    ended.join(", ")
                ));
            }
            self.stance_schticks[who].retain(|n| !ended.contains(n));
            // An ended stance is no longer held (nor paid for in the next scene).
            let held = &mut self.stances[who];
            *held = held.saturating_sub(ended.len() as u32);
            let unpaid = &mut self.unpaid_stances[who];
            *unpaid = unpaid.saturating_sub(ended.len() as u32);
        }
        self.stance_schticks[who].push(schtick.name);
        said
    }

    /// Whether `who` may adopt the stance schtick `stance` now.
    fn may_adopt(&self, who: usize, stance: &str) -> Result<(), String> {
        let c = &self.characters[who];
        match c.schticks.iter().find(|s| s.name == stance) {
            None => Err(format!(
                "{} has no schtick '{stance}'{}",
                c.name,
                stance_names(c)
            )),
            Some(s) if !s.stance => Err(format!(
                "{stance} is not a stance: it is in effect all the time"
            )),
            Some(_) if self.stance_schticks[who].iter().any(|n| n == stance) => {
                Err(format!("{} has adopted {stance} already", c.name))
            }
            Some(_) => Ok(()),
        }
    }

    fn rolled(&self, actor: usize, check: &Check, extra_advantage: bool) -> Result<Rolled, String> {
        let c: &Character = &self.characters[seat_of(&Seat::names(self), actor)?];
        let skill = self
            .skill_value(actor, &check.skill)
            .ok_or_else(|| format!("{} has no skill '{}'", c.name, check.skill))?;
        let difficulty = self.difficulty(actor, check)?;
        if check.advantages > self.advantages[actor] {
            return Err(format!(
                "{} has {} Advantage in the pool, not {}",
                c.name, self.advantages[actor], check.advantages
            ));
        }
        if check.fortune && self.fortune[actor] == 0 {
            return Err(format!("{} has no Fortune left this session", c.name));
        }
        let advantage = i64::from(check.advantages) + i64::from(extra_advantage);
        Ok(Rolled {
            action: Action {
                roll: if check.fortune {
                    confident(check.roll)
                } else {
                    check.roll
                },
                skill,
                difficulty,
                modifier: check.modifier + advantage * self.rules.advantage_bonus,
                first_roll: !check.later_roll,
            },
            skill: check.skill.clone(),
            stunt: check.stunt,
            advantages: check.advantages,
            fortune: check.fortune,
            target: match &check.difficulty {
                Difficulty::Against(t) | Difficulty::Listed(t, _) => Some(*t),
                Difficulty::Number(_) => None,
            },
        })
    }

    /// The checks a move rolls, in throw order.
    fn checks(&self, m: &Move) -> Result<Vec<Rolled>, String> {
        Ok(match m {
            Move::Act {
                actor,
                check: Some(check),
                ..
            }
            | Move::Check { actor, check } => vec![self.rolled(*actor, check, false)?],
            Move::CombinationAction {
                actor,
                first,
                second,
                ..
            } => {
                let mut second = second.clone();
                second.later_roll = true;
                let spent = first.advantages + second.advantages;
                if spent > self.advantages[*actor] {
                    return Err(format!(
                        "the two actions spend {spent} Advantage; the pool has {}",
                        self.advantages[*actor]
                    ));
                }
                if first.fortune && second.fortune && self.fortune[*actor] < 2 {
                    return Err("two Fortune points are needed for two Confident rolls".into());
                }
                vec![
                    self.rolled(*actor, first, false)?,
                    self.rolled(*actor, &second, false)?,
                ]
            }
            Move::ActionAdvantage { actor, check } => vec![self.rolled(*actor, check, true)?],
            Move::SetupFinisher { actor, check, .. } => vec![self.rolled(*actor, check, false)?],
            Move::GaugeSkill {
                actor,
                target,
                skill,
                ..
            } => {
                let names = Seat::names(self);
                seat_of(&names, *target)?;
                if target == actor {
                    return Err(format!("{} cannot gauge their own skill", names[*actor]));
                }
                let theirs = self
                    .skill_value(*target, skill)
                    .ok_or_else(|| format!("{} has no {skill} to gauge", names[*target]))?;
                vec![self.rolled(
                    *actor,
                    &Check::plain(skill, RollKind::Standard, Difficulty::Number(theirs)),
                    false,
                )?]
            }
            Move::FinishingStunt {
                actor,
                target,
                skill,
                limit_break,
            } => {
                let names = Seat::names(self);
                seat_of(&names, *target)?;
                if target == actor {
                    return Err(format!("{} cannot finish themself", names[*actor]));
                }
                let check = if *limit_break {
                    Check::plain(skill, RollKind::Standard, Difficulty::Against(*target))
                } else {
                    Check::plain(
                        skill,
                        RollKind::Confident,
                        Difficulty::Number(self.rules.routine_difficulty),
                    )
                };
                vec![self.rolled(*actor, &check, false)?]
            }
            Move::Assist { no_roll: true, .. } => vec![],
            Move::Assist { helper, skill, .. } => {
                let last = self
                    .last_check
                    .as_ref()
                    .ok_or("there is no check to assist")?;
                let friend = self
                    .skill_value(last.actor, &last.skill)
                    .unwrap_or(last.action.skill);
                let check = Check::plain(skill, RollKind::Confident, Difficulty::Number(friend));
                vec![self.rolled(*helper, &check, false)?]
            }
            Move::PushLuck { actor } => {
                let last = self
                    .last_check
                    .as_ref()
                    .ok_or("there is no check to push")?;
                seat_of(&Seat::names(self), *actor)?;
                // The check again, with the assists it had (+1 each); Push Luck is a trigger
                // action of its own, so its roll is that action's first: snake eyes count.
                let mut action = last.action.clone();
                if self.rules.generation >= crate::record::CLOSE_READING {
                    action.modifier += assist_bonus(&self.rules, last.assists);
                    action.first_roll = true;
                } else {
                    action.first_roll = false;
                }
                vec![Rolled {
                    action,
                    skill: last.skill.clone(),
                    stunt: false,
                    advantages: 0,
                    fortune: false,
                    target: last.target,
                }]
            }
            Move::TeamAction {
                actors,
                skill,
                difficulty,
            } => {
                let n = actors.len() as u32;
                let mut out = Vec::new();
                for &a in actors {
                    let check = Check {
                        modifier: super::team_penalty(n),
                        ..Check::plain(skill, RollKind::Standard, Difficulty::Number(*difficulty))
                    };
                    out.push(self.rolled(a, &check, false)?);
                }
                out
            }
            _ => vec![],
        })
    }

    /// The shot cost a move pays and the kind it counts as.
    fn kind_of(&self, m: &Move) -> Option<ActionType> {
        match m {
            Move::Act { kind, .. } => Some(*kind),
            Move::GaugeSkill { .. } if self.outside_action_scene() => None,
            Move::GaugeSkill {
                limit_break: true, ..
            } => Some(ActionType::LimitBreak),
            Move::GaugeSkill { .. } => Some(ActionType::Trigger),
            Move::SetupFinisher { .. } | Move::FullMove { .. } => Some(ActionType::Basic),
            Move::FinishingStunt { actor, .. } => {
                Some(if self.finisher_due.get(*actor).copied().unwrap_or(false) {
                    ActionType::Finisher
                } else {
                    ActionType::Trigger
                })
            }
            Move::CombinationAction { .. } | Move::ActionAdvantage { .. } => {
                Some(ActionType::LimitBreak)
            }
            Move::ActiveDefense { .. } | Move::Assist { .. } | Move::PushLuck { .. } => {
                Some(ActionType::Trigger)
            }
            _ => None,
        }
    }

    fn first_shot_line(&self, i: usize, faces: Option<(u32, u32)>) -> String {
        let c = &self.characters[i];
        if self.out[i] {
            return format!("{}: knocked out -> no shots", c.name);
        }
        let how = match faces {
            Some((p, n)) => format!(
                "Reflexes {} + ({p} − {n}){}",
                c.reflexes,
                if self.paid_stances[i] > 0 {
                    format!(" − {} stance", self.paid_stances[i])
                } else {
                    String::new()
                }
            ),
            None => format!("Reflexes {} (unnamed: no roll)", c.reflexes),
        };
        format!("{}: {how} -> shot {}", c.name, self.shots[i])
    }

    fn initiative_outcome(&self, throws: &[Vec<u32>]) -> Result<Step, String> {
        let faces = throws.first().ok_or("no dice have been thrown yet")?;
        let mut after = self.clone();
        after.start_round(faces)?;
        let named: Vec<usize> = (0..self.characters.len())
            .filter(|&i| self.characters[i].named)
            .collect();
        let pairs: Vec<(u32, u32)> = faces.chunks(2).map(|p| (p[0], p[1])).collect();
        let snake: Vec<usize> = named
            .iter()
            .zip(&pairs)
            .filter(|(_, p)| **p == (1, 1))
            .map(|(i, _)| *i)
            .collect();
        if !snake.is_empty() && throws.len() == 1 {
            let mut plan = RollPlan::new("snake eyes on initiative: friction checks");
            for &i in &snake {
                plan = plan.with(
                    1,
                    6,
                    DieRole::Friction,
                    &format!("{} friction d6", self.characters[i].name),
                );
            }
            return Ok(Step::ThrowMore(plan));
        }
        let mut pair = named.iter().zip(&pairs);
        let mut lines = Vec::new();
        let mut tags = Vec::new();
        let mut friction = throws.get(1).into_iter().flatten();
        for i in 0..self.characters.len() {
            let faces = if self.characters[i].named {
                pair.next().map(|(_, p)| *p)
            } else {
                None
            };
            lines.push(after.first_shot_line(i, faces));
            let name = &self.characters[i].name;
            match faces {
                Some((6, 6)) => tags.push(format!(
                    "{name}: boxcars (a closed roll: no re-throw; it does not change shots)"
                )),
                Some((1, 1)) => {
                    let f = friction.next().copied().unwrap_or(0);
                    tags.push(format!(
                        "{name}: snake eyes, {}",
                        self.rules.friction_reading(
                            &self.characters[i],
                            &self.under_friction[i],
                            f
                        )
                    ));
                }
                Some((2, 2)) => tags.push(format!("{name}: double deuces")),
                _ => {}
            }
        }
        Ok(Step::Done(Outcome {
            total: after.current_shot().unwrap_or(0),
            success: None,
            class: format!(
                "round {} starts at shot {}",
                after.round,
                after.current_shot().unwrap_or(0)
            ),
            lines,
            tags,
        }))
    }

    fn pay(&mut self, actor: usize, kind: ActionType) -> Result<String, String> {
        let name = self.characters[actor].name.clone();
        if self.scene_over {
            self.act(actor, kind)?;
            return Ok(format!(
                "{name}: a Limit Break after the action scene (no shots: the scene is over)"
            ));
        }
        if self.simplified {
            let lost = kind == ActionType::Trigger && !self.acted[actor];
            let round = self.round;
            self.act(actor, kind)?;
            return Ok(if lost {
                format!("{name} took a trigger action before acting: no action this round")
            } else if self.round != round {
                format!(
                    "{name}: {kind:?} action; everyone has acted: round {}",
                    self.round
                )
            } else {
                format!("{name}: {kind:?} action")
            });
        }
        let before = self.shots[actor];
        self.act(actor, kind)?;
        Ok(format!(
            "{name}: {kind:?} action, shots {before} -> {}",
            self.shots[actor]
        ))
    }

    fn spend(&mut self, actor: usize, r: &Rolled, success: bool) -> Vec<String> {
        let name = self.characters[actor].name.clone();
        let mut said = Vec::new();
        if r.advantages > 0 {
            self.advantages[actor] -= r.advantages;
            said.push(format!(
                "{name} spends {} Advantage ({} left in the pool)",
                r.advantages, self.advantages[actor]
            ));
        }
        if r.fortune {
            self.fortune[actor] = self.fortune[actor].saturating_sub(1);
            said.push(format!(
                "{name} spends Fortune for a Confident roll ({} left)",
                self.fortune[actor]
            ));
        }
        if r.stunt && success {
            self.advantages[actor] += 1;
            said.push(format!(
                "{name}'s stunt adds an Advantage to the pool ({} now)",
                self.advantages[actor]
            ));
        }
        said
    }

    /// Knocks `target` out; an opponent who did it may take a Finisher at no shot cost.
    fn knock_out(&mut self, target: usize, by: Option<usize>) -> Vec<String> {
        self.out[target] = true;
        // The one who had yet to act in a simplified round no longer holds it up.
        self.next_simplified_round_if_done();
        let name = self.characters[target].name.clone();
        let mut said = vec![format!("{name} is knocked out: no more actions this scene")];
        if let Some(b) = by {
            self.feat(b, target, FocusCondition::DefeatNamed);
        }
        if let Some(b) = by
            && self.characters[b].villain != self.characters[target].villain
            && !self.out[b]
        {
            self.finisher_due[b] = true;
            said.push(format!(
                "{} knocked an opponent out: a Finisher at no shot cost may follow",
                self.characters[b].name
            ));
        }
        said
    }

    fn setback(&mut self, actor: usize, why: &str) -> String {
        self.setbacks[actor] += 1;
        format!(
            "{} suffers a Setback ({why}; {} now)",
            self.characters[actor].name, self.setbacks[actor]
        )
    }

    /// `by` did something to `target` that a focus condition may ask for: it counts when the
    /// target is a named opponent.
    fn feat(&mut self, by: usize, target: usize, feat: FocusCondition) {
        let (Some(b), Some(t)) = (self.characters.get(by), self.characters.get(target)) else {
            return;
        };
        if t.named && b.villain != t.villain {
            self.turn_feats[by].push(feat);
        }
    }

    /// The turn under way ends: a focus waiting on its condition is checked.
    fn end_turn(&mut self, said: &mut Vec<String>) {
        let Some(i) = self.turn_of.take() else {
            return;
        };
        self.check_pending_focus(i, said);
    }

    /// Checks `i`'s focus waiting on a condition, if its turn has begun.
    fn check_pending_focus(&mut self, i: usize, said: &mut Vec<String>) {
        let Some((condition, true)) = self.pending_focus[i] else {
            return;
        };
        self.pending_focus[i] = None;
        let name = self.characters[i].name.clone();
        if !self.turn_feats[i].contains(&condition) {
            said.push(format!(
                "{name}'s turn ends without the focus condition ({}): no focus",
                condition.words()
            ));
        } else if let Err(why) = self.can_focus(i) {
            said.push(format!("{name}'s focus condition is met, but {why}"));
        } else {
            self.focus(i);
            said.push(format!(
                "{name}'s turn ends with the focus condition met ({}): {name} is focused",
                condition.words()
            ));
        }
    }

    /// Turns begin and end with the move: an action on one's own shot begins a turn (ending
    /// the one under way); initiative and the end of the scene end every turn.
    fn turns(&mut self, m: &Move, said: &mut Vec<String>) {
        let starts = match self.kind_of(m) {
            Some(ActionType::Basic | ActionType::Stance | ActionType::LimitBreak) => self.actor(m),
            _ => None,
        };
        let ends_all = matches!(
            m,
            Move::Initiative | Move::SurpriseRound { .. } | Move::EndScene
        );
        if starts.is_some() || ends_all {
            self.end_turn(said);
        }
        if ends_all {
            // A focus whose turn never came lapses with the round.
            for i in 0..self.pending_focus.len() {
                if let Some((c, false)) = self.pending_focus[i] {
                    self.pending_focus[i] = Some((c, true));
                    self.check_pending_focus(i, said);
                }
            }
        }
        if let Some(a) = starts {
            self.turn_of = Some(a);
            self.turn_feats[a].clear();
            if let Some((c, false)) = self.pending_focus[a] {
                self.pending_focus[a] = Some((c, true));
            }
        }
    }

    fn remember(&mut self, actor: usize, r: &Rolled, o: &Outcome) {
        self.last_check = Some(LastCheck {
            actor,
            skill: r.skill.clone(),
            action: r.action.clone(),
            check: o.total + r.action.difficulty,
            assists: 0,
            success: o.success == Some(true),
            pushed: false,
            moved_on: false,
            assisted_by: Vec::new(),
            target: r.target,
            damaged: false,
        });
    }

    /// What dealing the damage would do, in words (for the form).
    pub(super) fn damage_preview(
        &self,
        by: usize,
        target: usize,
        weapon: i64,
        kind: Option<&str>,
    ) -> Result<Vec<String>, String> {
        self.damage_of(by, target, weapon, kind)
            .map(|(_, lines)| lines)
    }

    /// The damage of `by`'s last check, a hit on `target`: the outcome, plus the weapon's
    /// damage and every damage boost in effect; less the target's soak and its best resistance
    /// to each type of damage the attack carries. With the lines that say so.
    fn damage_of(
        &self,
        by: usize,
        target: usize,
        weapon: i64,
        kind: Option<&str>,
    ) -> Result<(i64, Vec<String>), String> {
        let names = Seat::names(self);
        seat_of(&names, by)?;
        seat_of(&names, target)?;
        let last = self
            .last_check
            .as_ref()
            .filter(|l| l.actor == by && l.target == Some(target))
            .ok_or_else(|| {
                format!(
                    "damage follows an attack: {} last check was not against {}",
                    possessive(names[by]),
                    names[target]
                )
            })?;
        if last.damaged {
            return Err(format!(
                "the damage of {} attack on {} has been dealt",
                possessive(names[by]),
                names[target]
            ));
        }
        let check = last.check + assist_bonus(&self.rules, last.assists);
        let outcome = check - last.action.difficulty;
        if !last.success || outcome < 0 {
            return Err(format!(
                "{} attack on {} failed: it deals no damage",
                possessive(names[by]),
                names[target]
            ));
        }
        if self.hits[target].is_none() {
            return Err(format!(
                "{} has no Hits in the scene (hits: 10)",
                names[target]
            ));
        }
        let attacker = &self.characters[by];
        let adopted = self.stance_schticks.get(by).cloned().unwrap_or_default();
        let mut types: Vec<String> = kind
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(|k| vec![k.to_string()])
            .unwrap_or_default();
        let mut damage = outcome + weapon;
        let mut lines = vec![format!(
            "outcome {outcome} + weapon {weapon}{}",
            kind.map(|k| format!(" ({k})")).unwrap_or_default()
        )];
        for s in &attacker.schticks {
            if let Some((kind, extra)) = &s.damage
                && attacker.in_effect(s, &adopted)
            {
                damage += extra;
                lines.push(format!("{} adds {extra:+} {kind} damage", s.name));
                types.push(kind.clone());
            }
        }
        let defender = &self.characters[target];
        let held = self
            .stance_schticks
            .get(target)
            .cloned()
            .unwrap_or_default();
        let mut soak = defender.soak;
        let mut soak_words = format!("soak {}", defender.soak);
        for kind in &types {
            let best = defender
                .schticks
                .iter()
                .filter(|s| defender.in_effect(s, &held))
                .filter_map(|s| {
                    s.resist
                        .as_ref()
                        .filter(|(k, _)| k.eq_ignore_ascii_case(kind))
                        .map(|(_, n)| (s.name.as_str(), *n))
                })
                .max_by_key(|(_, n)| *n);
            if let Some((name, n)) = best {
                soak += n;
                soak_words.push_str(&format!(" + {name} {n}"));
            }
        }
        let hits = (damage - soak).max(0);
        lines.push(format!(
            "damage {damage} − {soak_words} = {hits} {} on {}",
            if hits == 1 { "hit" } else { "hits" },
            names[target]
        ));
        Ok((hits, lines))
    }
}

/// ": its stances are A, B" for a refusal, or nothing when it has none.
/// What being under these friction conditions means, in words.
fn friction_words(rules: &super::Rules, who: &str, conditions: &[u32]) -> String {
    if conditions.is_empty() {
        return format!("{who} plays it safe: under no friction");
    }
    let rows: Vec<String> = conditions
        .iter()
        .map(|f| rules.condition_words(*f))
        .collect();
    format!("{who} is under friction: {}", rows.join(", "))
}

/// The friction faces a move names, in order and once each, as the table keeps them.
fn friction_faces(conditions: &[u32]) -> Vec<u32> {
    let mut faces = conditions.to_vec();
    faces.sort_unstable();
    faces.dedup();
    faces
}

/// What an impairment of `points` (0 lifts it) does to `who`, in words.
fn impairment_words(who: &str, points: i64) -> String {
    if points == 0 {
        format!("{who}'s impairment is lifted")
    } else {
        format!("{who} is impaired −{points}: every skill, as a defence value too")
    }
}

fn stance_names(c: &Character) -> String {
    let stances: Vec<&str> = c.stance_schticks().map(|s| s.name.as_str()).collect();
    if stances.is_empty() {
        String::new()
    } else {
        format!(": its stances are {}", stances.join(", "))
    }
}

/// A fumble among the outcome's tags (also a joined outcome's, whose tags carry a prefix).
fn fumbled(o: &Outcome) -> bool {
    o.tags.iter().any(|t| t.contains("boxcars: fumble"))
}

/// Joins the outcomes of several rolls into one: the first's class and total unless `best`.
fn joined(outcomes: &[Outcome], titles: &[String], best: bool) -> Outcome {
    let totals: Vec<i64> = outcomes.iter().map(|o| o.total).collect();
    let pick = match team_result(&totals) {
        Some(top) if best => totals.iter().position(|t| *t == top).unwrap_or(0),
        _ => 0,
    };
    let mut lines = Vec::new();
    let mut tags = Vec::new();
    for (o, title) in outcomes.iter().zip(titles) {
        lines.push(format!("{title}: {}", o.class));
        lines.extend(o.lines.iter().map(|l| format!("  {l}")));
        tags.extend(o.tags.iter().map(|t| format!("{title}: {t}")));
    }
    let chosen = outcomes.get(pick).cloned().unwrap_or_default();
    Outcome {
        total: chosen.total,
        success: if best {
            chosen.success
        } else {
            Some(outcomes.iter().all(|o| o.success == Some(true)))
        },
        class: if best {
            format!(
                "{} counts: {}",
                titles.get(pick).cloned().unwrap_or_default(),
                chosen.class
            )
        } else {
            outcomes
                .iter()
                .map(|o| o.class.clone())
                .collect::<Vec<_>>()
                .join(" / ")
        },
        lines,
        tags,
    }
}

impl Seat for Table {
    fn kinds(&self, actor: usize) -> Vec<MoveKind<Move>> {
        super::form::kinds(self, actor)
    }

    fn form(&self, m: &Move, form: &mut Form) {
        super::form::form(self, m, form)
    }

    type Move = Move;

    fn names(&self) -> Vec<&str> {
        self.characters.iter().map(|c| c.name.as_str()).collect()
    }

    fn round(&self) -> u32 {
        self.round
    }

    fn heading(&self) -> String {
        if self.simplified {
            return match self.acting_now().first() {
                Some(&i) => format!(
                    "Round {} (simplified): {}'s action",
                    self.round, self.characters[i].name
                ),
                None => format!("Round {} (simplified)", self.round),
            };
        }
        if self.scene_over {
            let after: Vec<&str> = (0..self.characters.len())
                .filter(|&i| self.limit_break_after[i])
                .map(|i| self.characters[i].name.as_str())
                .collect();
            return if after.is_empty() {
                "The action scene is over: roll initiative for the next one".to_string()
            } else {
                format!(
                    "The action scene is over: a Limit Break after it for {}; roll initiative for \
                     the next one",
                    after.join(", ")
                )
            };
        }
        match self.current_shot() {
            None if self.round == 0 => "Roll initiative (or a surprise round)".to_string(),
            None => format!("Round {} is over: roll initiative", self.round),
            Some(shot) => {
                let who: Vec<&str> = self
                    .acting_now()
                    .iter()
                    .map(|&i| self.characters[i].name.as_str())
                    .collect();
                format!(
                    "{} {}, shot {shot}: {}",
                    if self.surprise {
                        "Surprise round"
                    } else {
                        "Round"
                    },
                    self.round,
                    who.join(", then ")
                )
            }
        }
    }

    fn tracker(&self) -> Vec<TrackerRow> {
        let now = self.acting_now();
        self.characters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut status = vec![if self.simplified {
                    if self.acted[i] { "acted" } else { "ready" }.to_string()
                } else {
                    format!("shots {}", self.shots[i])
                }];
                status.push(if c.villain { "villain" } else { "hero" }.into());
                if !c.named {
                    status.push("unnamed group".into());
                }
                if self.stances[i] > 0 {
                    status.push(format!(
                        "stances {}{}",
                        self.stances[i],
                        if self.unpaid_stances[i] > 0 {
                            format!(" ({} unpaid)", self.unpaid_stances[i])
                        } else {
                            String::new()
                        }
                    ));
                }
                if self.focused[i] {
                    status.push("focused".into());
                }
                if let Some((c, _)) = self.pending_focus.get(i).copied().flatten() {
                    status.push(format!("focus if they {}", c.words()));
                }
                for d in self.defences_now(i, None) {
                    status.push(match d.against {
                        None => format!("defending {}", d.skill),
                        Some(a) => format!(
                            "defending {} against {}",
                            d.skill,
                            name_at(&Seat::names(self), a)
                        ),
                    });
                }
                for stance in &self.stance_schticks[i] {
                    status.push(format!("stance {stance}"));
                }
                if let (Some(most), Some(left)) = (c.hits, self.hits[i]) {
                    status.push(format!("hits {left}/{most}"));
                }
                if self.out[i] {
                    status.push("knocked out".into());
                }
                if self.finisher_due[i] {
                    status.push("may take a Finisher".into());
                }
                if self.impairment[i] != 0 {
                    status.push(format!("impaired −{}", self.impairment[i]));
                }
                if !self.under_friction[i].is_empty() {
                    status.push(format!(
                        "under friction {}",
                        self.under_friction[i]
                            .iter()
                            .map(u32::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                if self.limit_break_after[i] {
                    status.push("a Limit Break after the scene".into());
                }
                if self.advantages[i] > 0 {
                    status.push(format!("Advantage pool {}", self.advantages[i]));
                }
                if c.fortune > 0 || self.fortune[i] > 0 {
                    status.push(format!("Fortune {}/{}", self.fortune[i], c.fortune));
                }
                if self.setbacks[i] > 0 {
                    status.push(format!("Setbacks {}", self.setbacks[i]));
                }
                TrackerRow {
                    name: c.name.clone(),
                    acting: now.first() == Some(&i),
                    status,
                }
            })
            .collect()
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = vec![format!("Session {}", self.session)];
        if let Some(last) = &self.last_check {
            notes.push(format!(
                "Last check: {} {} {} against {}{} ({})",
                self.characters[last.actor].name,
                last.skill,
                last.check + assist_bonus(&self.rules, last.assists),
                last.action.difficulty,
                if last.assists > 0 {
                    format!(", assisted +{}", assist_bonus(&self.rules, last.assists))
                } else {
                    String::new()
                },
                if last.success { "success" } else { "failure" }
            ));
        }
        notes
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
                numbers.extend(check("the second check's ", second));
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

    fn allowed(&self, m: &Move) -> Result<(), String> {
        let names = Seat::names(self);
        if let Some(a) = self.actor(m) {
            seat_of(&names, a)?;
        }
        self.checks(m)?;
        if let Some(kind) = self.kind_of(m) {
            let actor = self.actor(m).unwrap_or(0);
            self.check(actor, kind)?;
        }
        let round_on = !self.simplified && !self.round_over();
        match m {
            Move::Initiative => {
                if self.simplified {
                    return Err(
                        "simplified initiative: no roll, characters act in order of Reflexes"
                            .into(),
                    );
                }
                if round_on {
                    return Err(format!(
                        "the round is on (shot {}): initiative is rolled when nobody has shots left",
                        self.current_shot().unwrap_or(0)
                    ));
                }
            }
            Move::SurpriseRound { ambushers } => {
                if self.simplified || round_on || self.round > 0 {
                    return Err("a surprise round opens a scene, before initiative".into());
                }
                if ambushers.is_empty() {
                    return Err("name who has the drop on the others".into());
                }
                for &a in ambushers {
                    seat_of(&names, a)?;
                }
            }
            Move::Act {
                actor,
                kind,
                moves: true,
                ..
            } if !matches!(kind, ActionType::Basic | ActionType::LimitBreak) => {
                return Err(format!(
                    "a {kind:?} action includes no movement: {} moves with a Basic Action (or a \
                     Limit Break, or a Full Move)",
                    names[*actor]
                ));
            }
            Move::Act {
                actor, moves: true, ..
            }
            | Move::FullMove { actor }
                if self.characters[*actor].move_m.is_none() =>
            {
                return Err(format!(
                    "{} has no Move in the scene (move_m: 10)",
                    names[*actor]
                ));
            }
            Move::FullMove { .. } => {}
            Move::Act {
                actor,
                kind,
                focuses,
                stance,
                ..
            } => {
                if *focuses {
                    self.can_focus(*actor)?;
                }
                if *kind == ActionType::Finisher && *focuses {
                    return Err("a finisher does not focus".into());
                }
                if let Some(stance) = stance {
                    if *kind != ActionType::Stance {
                        return Err(format!(
                            "{stance} is adopted with a Stance action, not a {kind:?} one"
                        ));
                    }
                    self.may_adopt(*actor, stance)?;
                }
            }
            Move::GaugeSkill {
                actor,
                limit_break: true,
                ..
            } if !self.focused[*actor] => {
                return Err(format!(
                    "gauging a skill not in use is a Limit Break: {} must focus first",
                    names[*actor]
                ));
            }
            Move::GaugeSkill { .. } => {}
            Move::SetupFinisher {
                actor,
                partner,
                check,
            } => {
                seat_of(&names, *partner)?;
                if partner == actor {
                    return Err("a Setup Finisher sets the target up for someone else".into());
                }
                if self.out[*partner] {
                    return Err(format!("{} is knocked out", names[*partner]));
                }
                if matches!(check.difficulty, Difficulty::Number(_)) {
                    return Err(
                        "a Setup Finisher is a check against its target: choose the target \
                         (against a character)"
                            .into(),
                    );
                }
            }
            Move::FinishingStunt {
                actor,
                target,
                limit_break,
                ..
            } => {
                let due = self.finisher_due[*actor];
                if !due && self.set_up[*actor] != Some(*target) {
                    return Err(format!(
                        "a Finishing Stunt is a Finisher: {} has neither just knocked an \
                         opponent out nor been set up to finish {}",
                        names[*actor], names[*target]
                    ));
                }
                if *limit_break && !self.focused[*actor] {
                    return Err(format!(
                        "a Finishing Stunt with a Limit Break needs focus: {} is not focused",
                        names[*actor]
                    ));
                }
            }
            Move::Check { actor, .. } => {
                if self.out[*actor] {
                    return Err(format!(
                        "{} is knocked out: no more actions this scene",
                        names[*actor]
                    ));
                }
                if self.simplified {
                    return Err("simplified initiative: each acts in turn, with an Action".into());
                }
                if !self.scene_over && self.round > 0 {
                    return Err(
                        "an action scene is on: a check is an action on the shot counter \
                         (Action); checks without shots come before the first initiative or \
                         after the scene ends"
                            .into(),
                    );
                }
            }
            Move::CombinationAction {
                actor, moves: true, ..
            } if self.characters[*actor].move_m.is_none() => {
                return Err(format!(
                    "{} has no Move in the scene (move_m: 10)",
                    names[*actor]
                ));
            }
            Move::CombinationAction { actor, .. } | Move::ActionAdvantage { actor, .. } => {
                if !self.focused[*actor] {
                    return Err(format!("{} must focus before a Limit Break", names[*actor]));
                }
            }
            Move::ActiveDefense {
                actor,
                skill,
                against,
            } => {
                self.characters[*actor]
                    .skill(skill)
                    .ok_or_else(|| format!("{} has no skill '{skill}'", names[*actor]))?;
                if let Some(a) = against {
                    seat_of(&names, *a)?;
                    if a == actor {
                        return Err(format!("{} cannot defend against themself", names[*actor]));
                    }
                }
                // "One trigger action of each type in each situation": one defence an attack.
                // A defence against every attacker answers each one's next attack.
                if self.defences_now(*actor, None).iter().any(|d| {
                    !d.answered
                        && (d.against.is_none() || against.is_none() || d.against == *against)
                }) {
                    return Err(format!(
                        "{} has an Active Defense up against {} already, and no attack has \
                         come since: one defence each attack",
                        names[*actor],
                        match against {
                            Some(a) => format!("{} next attack", possessive(names[*a])),
                            None => "the next attack".to_string(),
                        }
                    ));
                }
            }
            Move::Assist {
                helper,
                skill,
                no_roll,
            } => {
                if !self.characters[*helper].named {
                    return Err(format!(
                        "{} is unnamed: unnamed characters assist with a Basic Action before the action, without a roll (+1 each, at most +3, as a modifier of the check)",
                        names[*helper]
                    ));
                }
                let last = self
                    .last_check
                    .as_ref()
                    .ok_or("there is no check to assist")?;
                if last.actor == *helper {
                    return Err("nobody can assist their own check".into());
                }
                if last.assisted_by.contains(helper) {
                    return Err(format!(
                        "{} has assisted this check already: one assist each",
                        names[*helper]
                    ));
                }
                if last.pushed {
                    return Err(
                        "the check was re-rolled by Push Luck, a trigger action, and a trigger \
                         action is never the trigger for another"
                            .into(),
                    );
                }
                if assist_bonus(&self.rules, last.assists) >= self.rules.max_assist_bonus {
                    return Err(format!(
                        "the check has the most assistance it can take (+{})",
                        self.rules.max_assist_bonus
                    ));
                }
                if *no_roll {
                    let mine = self
                        .skill_value(*helper, skill)
                        .ok_or_else(|| format!("{} has no skill '{skill}'", names[*helper]))?;
                    let friend = self
                        .skill_value(last.actor, &last.skill)
                        .unwrap_or(last.action.skill);
                    if mine < friend {
                        return Err(format!(
                            "{}'s {skill} {mine} is below {}'s {} {friend}: the roll is forgone \
                             only when assisting someone of the same or lower skill",
                            names[*helper], names[last.actor], last.skill
                        ));
                    }
                }
            }
            Move::PushLuck { actor } => {
                let last = self
                    .last_check
                    .as_ref()
                    .ok_or("there is no check to push")?;
                if last.actor != *actor {
                    return Err(format!(
                        "Push Luck follows one's own last action; the last check was {}'s",
                        names[last.actor]
                    ));
                }
                if last.success {
                    return Err("Push Luck re-rolls a failed check; the last one succeeded".into());
                }
                if last.pushed {
                    return Err("that check has been pushed already".into());
                }
                if last.moved_on {
                    return Err(format!(
                        "Push Luck re-rolls one's last action, and {} has acted since that check",
                        names[last.actor]
                    ));
                }
            }
            Move::TeamAction { actors, .. } => {
                if round_on || (self.simplified && self.acted.iter().any(|a| *a)) {
                    return Err(
                        "team actions are taken outside detailed time, not on the shot counter"
                            .into(),
                    );
                }
                if actors.len() < 2 {
                    return Err("a team action needs at least two participants".into());
                }
                let mut seen = actors.clone();
                seen.sort_unstable();
                seen.dedup();
                if seen.len() != actors.len() {
                    return Err("each participant rolls once".into());
                }
            }
            Move::FortuneInitiative { actor } => {
                let c = &self.characters[*actor];
                if self.simplified || self.round == 0 || self.round_over() || self.surprise {
                    return Err("a Fortune initiative re-roll follows a round's initiative".into());
                }
                if !c.named {
                    return Err(format!("{} is unnamed: it rolls no initiative", c.name));
                }
                if self.shots[*actor] != self.first_shots[*actor] {
                    return Err(format!("{} has acted this round", c.name));
                }
                if self.fortune[*actor] == 0 {
                    return Err(format!("{} has no Fortune left this session", c.name));
                }
            }
            Move::FortuneReroll { actor } => {
                if self.last_d6.map(|(a, _)| a) != Some(*actor) {
                    return Err(format!("{} has no d6 roll to re-roll", names[*actor]));
                }
                if self.fortune[*actor] == 0 {
                    return Err(format!(
                        "{} has no Fortune left this session",
                        names[*actor]
                    ));
                }
            }
            Move::TableD6 { .. } | Move::NewSession => {}
            Move::Focus { actor, condition } => {
                self.can_focus(*actor)?;
                if condition.is_some() && self.pending_focus[*actor].is_some() {
                    return Err(format!(
                        "{} waits on a focus condition already",
                        names[*actor]
                    ));
                }
            }
            Move::Setback { target, by } => {
                seat_of(&names, *target)?;
                if let Some(b) = by {
                    seat_of(&names, *b)?;
                    if b == target {
                        return Err(format!(
                            "a Setback inflicted by another: {} cannot inflict one on themself",
                            names[*target]
                        ));
                    }
                }
            }
            Move::Damage { target, by, .. } | Move::KnockOut { target, by } => {
                seat_of(&names, *target)?;
                if let Some(b) = by {
                    seat_of(&names, *b)?;
                    if b == target {
                        return Err(format!("{} cannot knock themself out", names[*target]));
                    }
                }
                if self.out[*target] {
                    return Err(format!("{} is knocked out already", names[*target]));
                }
                if matches!(m, Move::Damage { .. }) && self.hits[*target].is_none() {
                    return Err(format!(
                        "the scene does not count {}'s hits: give the character hits in the \
                         scene, or knock it out",
                        names[*target]
                    ));
                }
            }
            Move::Impair { target, .. } => {
                seat_of(&names, *target)?;
            }
            Move::DealDamage {
                by,
                target,
                weapon,
                kind,
            } => {
                self.damage_of(*by, *target, *weapon, kind.as_deref())?;
                if self.out[*target] {
                    return Err(format!("{} is knocked out already", names[*target]));
                }
            }
            Move::UnderFriction { target, conditions } => {
                seat_of(&names, *target)?;
                let allowed = self.rules.friction_conditions();
                if let Some(f) = conditions.iter().find(|f| !allowed.contains(f)) {
                    return Err(format!(
                        "friction {f} is not a condition one can be under: the conditions are \
                         the faces {}",
                        allowed
                            .iter()
                            .map(u32::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            Move::EndScene => {
                if self.simplified {
                    return Err(
                        "simplified initiative counts no shots: a Limit Break after the scene is \
                         for one out of shots, so end it in the regular initiative"
                            .into(),
                    );
                }
                if self.scene_over {
                    return Err("the action scene is over already".into());
                }
                if self.round == 0 {
                    return Err("no action scene has started: roll initiative first".into());
                }
            }
            Move::StanceBeforeRound { actor, stance } => {
                if let Some(stance) = stance {
                    self.may_adopt(*actor, stance)?;
                }
                if self.simplified {
                    return Err(
                        "simplified initiative counts no shots: a stance is the character's \
                         action there"
                            .into(),
                    );
                }
                if self.round > 0 && !self.round_over() && !self.scene_over {
                    return Err(
                        "the round is under way: a stance now is a Stance action on the \
                         character's shot"
                            .into(),
                    );
                }
            }
        }
        Ok(())
    }

    fn plan(&self, m: &Move) -> Result<RollPlan, String> {
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

    fn odds(&self, m: &Move) -> Result<Option<Odds>, String> {
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

    fn resolve(&self, m: &Move, throws: &[Vec<u32>]) -> Result<Step, String> {
        let checks = self.checks(m)?;
        let names = Seat::names(self);
        let rollers = Self::rollers(m);
        if !checks.is_empty() {
            let titles: Vec<String> = match m {
                Move::TeamAction { actors, .. } => {
                    actors.iter().map(|&a| name_at(&names, a)).collect()
                }
                Move::CombinationAction { .. } => {
                    vec!["first action".into(), "second action".into()]
                }
                _ => vec![String::new()],
            };
            let done = resolve_sequence(
                checks.len(),
                throws,
                |k| {
                    Ok(pair_plan(
                        titles.get(k).map(String::as_str).unwrap_or(""),
                        &format!("{:?} roll", checks[k].action.roll),
                    ))
                },
                |k, t| {
                    let mut step = checks[k].action.resolve(&self.rules, t)?;
                    if let (Step::Done(o), Some(&roller)) = (&mut step, rollers.get(k)) {
                        self.read_friction(roller, &checks[k].action, t, o);
                    }
                    Ok(step)
                },
            )?;
            let outcomes = match done {
                Err(plan) => return Ok(Step::ThrowMore(plan)),
                Ok(o) => o,
            };
            return Ok(Step::Done(match m {
                Move::TeamAction { .. } => joined(&outcomes, &titles, true),
                Move::CombinationAction { .. } => joined(&outcomes, &titles, false),
                _ => outcomes.into_iter().next().unwrap_or_default(),
            }));
        }
        match m {
            Move::Initiative => self.initiative_outcome(throws),
            Move::FortuneInitiative { actor } => {
                let f = single(throws)?;
                let (p, n) = (i64::from(f[0]), i64::from(f[1]));
                let bonus = if f[0] == 6 && f[1] == 6 {
                    0
                } else {
                    (p - n).abs()
                };
                let c = &self.characters[*actor];
                let shot = (c.reflexes + bonus - i64::from(self.paid_stances[*actor]))
                    .max(self.rules.min_first_shot);
                Ok(Step::Done(Outcome {
                    total: shot,
                    success: None,
                    class: format!("{} now starts at shot {shot}", c.name),
                    lines: vec![format!(
                        "Reflexes {} + confident ({p}, {n}) = {bonus}{} -> shot {shot}",
                        c.reflexes,
                        if self.paid_stances[*actor] > 0 {
                            format!(" − {} stance", self.paid_stances[*actor])
                        } else {
                            String::new()
                        }
                    )],
                    tags: if f[0] == 6 && f[1] == 6 {
                        vec!["boxcars: the confident roll went wild (read as standard)".into()]
                    } else {
                        vec![]
                    },
                }))
            }
            Move::TableD6 { actor } => {
                let f = single(throws)?[0];
                Ok(Step::Done(Outcome {
                    total: i64::from(f),
                    success: None,
                    class: format!("d6: {f}"),
                    lines: vec![format!("{} throws a d6: {f}", name_at(&names, *actor))],
                    tags: vec![],
                }))
            }
            Move::FortuneReroll { actor } => {
                let f = single(throws)?[0];
                let first = self.last_d6.map(|(_, v)| v).unwrap_or(0);
                Ok(Step::Done(Outcome {
                    total: i64::from(f.max(first)),
                    success: None,
                    class: format!("keep either: {first} or {f}"),
                    lines: vec![format!(
                        "{} re-rolls the d6 {first} with Fortune: {f}; either result may be kept",
                        name_at(&names, *actor)
                    )],
                    tags: vec![],
                }))
            }
            Move::SurpriseRound { ambushers } => Ok(no_roll(
                "surprise round",
                format!(
                    "{} have the drop: {} shots each, the surprised none",
                    ambushers
                        .iter()
                        .map(|&a| name_at(&names, a))
                        .collect::<Vec<_>>()
                        .join(" and "),
                    self.rules.surprise_shots
                ),
            )),
            Move::ActiveDefense {
                actor,
                skill,
                against,
            } => Ok(no_roll(
                "active defense",
                format!(
                    "{} defends: {skill} +{} as a difficulty this shot{}",
                    name_at(&names, *actor),
                    self.rules.active_defense_bonus,
                    against
                        .map(|a| format!(", against {} attack", possessive(&name_at(&names, a))))
                        .unwrap_or_default()
                ),
            )),
            Move::Assist { helper, skill, .. } => Ok(Step::Done(Outcome {
                total: 0,
                success: Some(true),
                class: "assist without a roll".into(),
                lines: vec![format!(
                    "{} assists with {skill} without a roll: the friend's skill is the same or \
                     lower",
                    name_at(&names, *helper)
                )],
                tags: vec![],
            })),
            Move::Damage { target, hits, by } => {
                let left = self.hits[*target].unwrap_or(0) - hits;
                Ok(no_roll(
                    if left <= 0 { "knocked out" } else { "damage" },
                    format!(
                        "{} takes {hits} hits{}: {} left",
                        name_at(&names, *target),
                        by.map(|b| format!(" from {}", name_at(&names, b)))
                            .unwrap_or_default(),
                        left.max(0)
                    ),
                ))
            }
            Move::DealDamage {
                by,
                target,
                weapon,
                kind,
            } => {
                let (hits, lines) = self.damage_of(*by, *target, *weapon, kind.as_deref())?;
                let left = self.hits[*target].unwrap_or(0) - hits;
                Ok(Step::Done(Outcome {
                    total: hits,
                    success: None,
                    class: if left <= 0 { "knocked out" } else { "damage" }.into(),
                    lines,
                    tags: vec![],
                }))
            }
            Move::KnockOut { target, by } => Ok(no_roll(
                "knocked out",
                format!(
                    "{} is knocked out{}",
                    name_at(&names, *target),
                    by.map(|b| format!(" by {}", name_at(&names, b)))
                        .unwrap_or_default()
                ),
            )),
            Move::Impair { target, points } => Ok(no_roll(
                "impairment",
                impairment_words(&name_at(&names, *target), *points),
            )),
            Move::UnderFriction { target, conditions } => Ok(no_roll(
                "friction",
                friction_words(
                    &self.rules,
                    &name_at(&names, *target),
                    &friction_faces(conditions),
                ),
            )),
            Move::EndScene => Ok(no_roll(
                "the action scene ends",
                "the action scene ends: no more shots".into(),
            )),
            Move::NewSession => Ok(no_roll(
                "new session",
                "a new session: Fortune points come back".into(),
            )),
            Move::Focus {
                actor,
                condition: Some(c),
            } => Ok(no_roll(
                "focus waits",
                format!(
                    "{} will be focused if, when the turn ends, they did {}",
                    name_at(&names, *actor),
                    c.words()
                ),
            )),
            Move::Focus { actor, .. } => Ok(no_roll(
                "focused",
                format!("{} focuses (no shots)", name_at(&names, *actor)),
            )),
            Move::Setback { target, by } => Ok(no_roll(
                "setback",
                format!(
                    "{} suffers a Setback{}",
                    name_at(&names, *target),
                    by.map(|b| format!(" from {}", name_at(&names, b)))
                        .unwrap_or_default()
                ),
            )),
            Move::StanceBeforeRound { actor, .. } => Ok(no_roll(
                "stance",
                format!(
                    "{} adopts a stance before the round",
                    name_at(&names, *actor)
                ),
            )),
            Move::Act { actor, kind, .. } => Ok(no_roll(
                "no roll",
                format!(
                    "{} takes a {kind:?} action without a roll",
                    name_at(&names, *actor)
                ),
            )),
            Move::FullMove { actor } => Ok(no_roll(
                "full move",
                format!(
                    "{} moves up to {} m (twice the Move), doing nothing else",
                    name_at(&names, *actor),
                    self.characters[*actor].move_m.unwrap_or(0) * 2
                ),
            )),
            _ => Err("this move rolls checks".into()),
        }
    }

    fn apply_move(
        &mut self,
        m: &Move,
        throws: &[Vec<u32>],
        outcome: &Outcome,
    ) -> Result<Vec<String>, String> {
        let checks = self.checks(m)?;
        let names: Vec<String> = Seat::names(self).into_iter().map(String::from).collect();
        let mut said = Vec::new();
        // Any other action of the check's roller moves on from it (a new check replaces it
        // below): Push Luck re-rolls only one's last action.
        let mover = Seat::actor(self, m);
        if !matches!(m, Move::PushLuck { .. } | Move::FortuneReroll { .. })
            && let Some(last) = self.last_check.as_mut()
            && mover == Some(last.actor)
        {
            last.moved_on = true;
        }
        // A Finisher is taken just after the knock-out, or not at all.
        let finisher = matches!(
            m,
            Move::Act {
                kind: ActionType::Finisher,
                ..
            } | Move::FinishingStunt { .. }
        );
        // A Setup Finisher is taken up at once, or not at all.
        if !matches!(m, Move::SetupFinisher { .. } | Move::FinishingStunt { .. }) {
            self.set_up.iter_mut().for_each(|s| *s = None);
        }
        if let Some(a) = mover.filter(|_| !finisher)
            && let Some(due) = self.finisher_due.get_mut(a)
        {
            *due = false;
        }
        self.turns(m, &mut said);
        if let Some(kind) = self.kind_of(m) {
            let actor = self.actor(m).unwrap_or(0);
            said.push(self.pay(actor, kind)?);
        }
        // Each check against a character is an attack its defences answered.
        if let Some(actor) = mover {
            let targets: Vec<usize> = match m {
                Move::Act { check: Some(c), .. }
                | Move::ActionAdvantage { check: c, .. }
                | Move::Check { check: c, .. } => {
                    vec![&c.difficulty]
                }
                Move::CombinationAction { first, second, .. } => {
                    vec![&first.difficulty, &second.difficulty]
                }
                _ => vec![],
            }
            .into_iter()
            .filter_map(|d| match d {
                Difficulty::Against(t) | Difficulty::Listed(t, _) => Some(*t),
                Difficulty::Number(_) => None,
            })
            .collect();
            for t in targets {
                self.attacked(actor, t);
            }
        }
        match m {
            Move::Initiative => {
                self.start_round(throws.first().ok_or("no initiative dice")?)?;
                said.push(format!(
                    "round {}: the counter starts at shot {}",
                    self.round,
                    self.current_shot().unwrap_or(0)
                ));
            }
            Move::SurpriseRound { ambushers } => {
                self.start_surprise_round(ambushers);
                said.push(format!(
                    "surprise round: the counter starts at shot {}",
                    self.rules.surprise_shots
                ));
            }
            Move::FullMove { actor } => {
                let far = self.characters[*actor].move_m.unwrap_or(0) * 2;
                said.push(format!(
                    "{} makes a Full Move: up to {far} m, doing nothing else",
                    names[*actor]
                ));
            }
            Move::Act {
                actor,
                kind,
                focuses,
                check,
                stance,
                moves,
            } => {
                if *moves {
                    said.push(format!(
                        "{} moves up to {} m, before or after acting",
                        names[*actor],
                        self.characters[*actor].move_m.unwrap_or(0)
                    ));
                }
                if let (Some(_), Some(r)) = (check, checks.first()) {
                    said.extend(self.spend(*actor, r, outcome.success == Some(true)));
                    if fumbled(outcome) {
                        said.push(self.setback(*actor, "boxcars fumble"));
                    }
                    self.remember(*actor, r, outcome);
                }
                if *kind == ActionType::Stance {
                    self.stances[*actor] += 1;
                    said.push(match stance {
                        Some(stance) => self.adopt(*actor, stance),
                        None => format!("{} adopts a stance", names[*actor]),
                    });
                }
                if *focuses {
                    self.focus(*actor);
                    said.push(format!("{} is focused", names[*actor]));
                }
            }
            Move::GaugeSkill {
                actor,
                target,
                skill,
                limit_break,
            } => {
                if *limit_break && self.outside_action_scene() {
                    self.use_focus(*actor);
                }
                // The opposed roll's difficulty is the target's rating.
                let rating = checks
                    .first()
                    .map(|r| r.action.difficulty)
                    .unwrap_or_default();
                said.push(if outcome.success == Some(true) {
                    let known: Vec<String> = self.characters[*target]
                        .schticks
                        .iter()
                        .filter(|s| s.skill.eq_ignore_ascii_case(skill))
                        .take(3)
                        .map(|s| format!("{} ({:+})", s.name, s.bonus))
                        .collect();
                    format!(
                        "{} gauges {} {skill}: {}; schticks: {}",
                        names[*actor],
                        possessive(&names[*target]),
                        rating,
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    )
                } else {
                    format!(
                        "{} learns only their own result ({}) of {} {skill}",
                        names[*actor],
                        outcome.total + rating,
                        possessive(&names[*target])
                    )
                });
                if fumbled(outcome) {
                    said.push(self.setback(*actor, "boxcars fumble"));
                }
            }
            Move::SetupFinisher {
                actor,
                partner,
                check,
            } => {
                if let Some(r) = checks.first() {
                    said.extend(self.spend(*actor, r, outcome.success == Some(true)));
                }
                if fumbled(outcome) {
                    said.push(self.setback(*actor, "boxcars fumble"));
                }
                let target = match &check.difficulty {
                    Difficulty::Against(t) | Difficulty::Listed(t, _) => Some(*t),
                    Difficulty::Number(_) => None,
                };
                if let (Some(t), Some(true)) = (target, outcome.success) {
                    self.set_up[*partner] = Some(t);
                    said.push(format!(
                        "{} sets {} up: {} may finish them at once, as a trigger action",
                        names[*actor], names[t], names[*partner]
                    ));
                } else {
                    said.push(format!("{}'s setup fails", names[*actor]));
                }
            }
            Move::FinishingStunt {
                actor,
                target,
                limit_break,
                ..
            } => {
                self.set_up[*actor] = None;
                if *limit_break {
                    self.use_focus(*actor);
                }
                if outcome.success == Some(true) {
                    said.push(format!(
                        "the Finishing Stunt succeeds: an infinite outcome for {}",
                        names[*target]
                    ));
                    said.push(self.setback(*target, "a Finishing Stunt, automatically"));
                    self.feat(*actor, *target, FocusCondition::SetbackOnNamed);
                } else {
                    said.push("the Finishing Stunt fails: no effect".into());
                }
                if fumbled(outcome) {
                    said.push(self.setback(*actor, "boxcars fumble"));
                }
            }
            Move::Check { actor, .. } => {
                if let Some(r) = checks.first() {
                    said.extend(self.spend(*actor, r, outcome.success == Some(true)));
                    if fumbled(outcome) {
                        said.push(self.setback(*actor, "boxcars fumble"));
                    }
                    self.remember(*actor, r, outcome);
                }
                said.push(format!(
                    "{} checks outside an action scene: no shots",
                    names[*actor]
                ));
            }
            Move::CombinationAction { actor, .. } | Move::ActionAdvantage { actor, .. } => {
                if let Move::CombinationAction { moves: true, .. } = m {
                    said.push(format!(
                        "{} moves up to {} m, once: before, between or after the two actions",
                        names[*actor],
                        self.characters[*actor].move_m.unwrap_or(0)
                    ));
                }
                for r in &checks {
                    said.extend(self.spend(*actor, r, outcome.success == Some(true)));
                }
                if fumbled(outcome) {
                    said.push(self.setback(*actor, "boxcars fumble"));
                }
                if let Some(r) = checks.last() {
                    self.remember(*actor, r, outcome);
                }
            }
            Move::ActiveDefense {
                actor,
                skill,
                against,
            } => {
                self.defend(*actor, skill, *against);
                said.push(format!(
                    "{}'s {skill} counts +{} as a difficulty this shot{}",
                    names[*actor],
                    self.rules.active_defense_bonus,
                    against
                        .map(|a| format!(" against {}", names[a]))
                        .unwrap_or_default()
                ));
            }
            Move::Assist { helper, .. } => {
                let rules = self.rules.clone();
                if let Some(last) = self.last_check.as_mut() {
                    last.assisted_by.push(*helper);
                    if outcome.success == Some(true) {
                        last.assists += 1;
                        let total = last.check + assist_bonus(&rules, last.assists);
                        last.success = total >= last.action.difficulty;
                        said.push(format!(
                            "{} assists {}: the check is now {total} against {} ({})",
                            names[*helper],
                            names[last.actor],
                            last.action.difficulty,
                            if last.success {
                                "success"
                            } else {
                                "still a failure"
                            }
                        ));
                    } else {
                        said.push(format!("{}'s assist does not help", names[*helper]));
                    }
                }
                // "A fumble on any roll a character makes (an assist roll included) records
                // the Setback."
                if fumbled(outcome) {
                    said.push(self.setback(*helper, "boxcars fumble on the assist"));
                }
            }
            Move::PushLuck { actor } => {
                let success = outcome.success == Some(true);
                let rules = &self.rules;
                if let Some(last) = self.last_check.as_mut() {
                    last.pushed = true;
                    last.success = success;
                    // The re-roll's number, less the assists the note adds back (the first
                    // rules kept the first roll's).
                    if rules.generation >= crate::record::CLOSE_READING {
                        last.check = outcome.total + last.action.difficulty
                            - assist_bonus(rules, last.assists);
                    }
                }
                said.push(if success {
                    format!(
                        "{} pushed their luck: it counts as a success",
                        names[*actor]
                    )
                } else {
                    self.setback(*actor, "pushed their luck and failed")
                });
                if fumbled(outcome) {
                    said.push(self.setback(*actor, "boxcars fumble"));
                }
            }
            Move::TeamAction { actors, .. } => {
                said.push(format!(
                    "the team's result is the best roll: {}",
                    outcome.class
                ));
                for t in &outcome.tags {
                    if t.contains("boxcars: fumble")
                        && let Some(&a) = actors.iter().find(|&&a| t.starts_with(&names[a]))
                    {
                        said.push(self.setback(a, "boxcars fumble in the team action"));
                    }
                }
            }
            Move::FortuneInitiative { actor } => {
                let shot = outcome.total;
                self.fortune[*actor] -= 1;
                said.push(format!(
                    "{} spends Fortune: shots {} -> {shot} ({} Fortune left)",
                    names[*actor], self.shots[*actor], self.fortune[*actor]
                ));
                self.shots[*actor] = shot;
                self.first_shots[*actor] = shot;
            }
            Move::TableD6 { actor } => {
                let f = single(throws)?[0];
                self.last_d6 = Some((*actor, f));
            }
            Move::FortuneReroll { actor } => {
                self.fortune[*actor] -= 1;
                self.last_d6 = None;
                said.push(format!(
                    "{} spends Fortune ({} left)",
                    names[*actor], self.fortune[*actor]
                ));
            }
            Move::StanceBeforeRound { actor, stance } => {
                self.stances[*actor] += 1;
                self.unpaid_stances[*actor] += 1;
                if let Some(stance) = stance {
                    said.push(self.adopt(*actor, stance));
                }
                said.push(format!(
                    "{} adopts a stance before the round: 1 shot, paid from the first shot of \
                     the next round",
                    names[*actor]
                ));
            }
            Move::Damage { target, hits, by } => {
                let left = (self.hits[*target].unwrap_or(0) - hits).max(0);
                self.hits[*target] = Some(left);
                said.push(format!("{} has {left} hits left", names[*target]));
                if left == 0 {
                    said.extend(self.knock_out(*target, *by));
                }
            }
            Move::DealDamage { by, target, .. } => {
                if let Some(last) = self.last_check.as_mut() {
                    last.damaged = true;
                }
                let left = (self.hits[*target].unwrap_or(0) - outcome.total).max(0);
                self.hits[*target] = Some(left);
                said.push(format!(
                    "{} takes {} {}: {left} left",
                    names[*target],
                    outcome.total,
                    if outcome.total == 1 { "hit" } else { "hits" }
                ));
                if left == 0 {
                    said.extend(self.knock_out(*target, Some(*by)));
                }
            }
            Move::KnockOut { target, by } => said.extend(self.knock_out(*target, *by)),
            Move::Impair { target, points } => {
                self.impairment[*target] = *points;
                said.push(impairment_words(&names[*target], *points));
            }
            Move::UnderFriction { target, conditions } => {
                let faces = friction_faces(conditions);
                said.push(friction_words(&self.rules, &names[*target], &faces));
                self.under_friction[*target] = faces;
            }
            Move::EndScene => {
                for (i, name) in names.iter().enumerate() {
                    self.limit_break_after[i] =
                        self.focused[i] && self.shots[i] == 0 && !self.out[i];
                    if self.limit_break_after[i] {
                        said.push(format!(
                            "{name} ended the scene focused and out of shots: one Limit Break after it"
                        ));
                    }
                }
                self.shots.iter_mut().for_each(|s| *s = 0);
                self.scene_over = true;
                // Stances kept running cost nothing out of action, and are paid again in the
                // first round of the next action scene.
                self.unpaid_stances = self.stances.clone();
                said.push("the action scene ends".into());
            }
            Move::Focus {
                actor,
                condition: Some(c),
            } => {
                let started = self.turn_of == Some(*actor);
                self.pending_focus[*actor] = Some((*c, started));
                said.push(format!(
                    "{}'s focus waits on its condition ({}), checked when the turn ends",
                    names[*actor],
                    c.words()
                ));
            }
            Move::Setback { target, by } => {
                let why = by
                    .map(|b| format!("inflicted by {}", names[b]))
                    .unwrap_or_else(|| "the GM's".into());
                said.push(self.setback(*target, &why));
                if let Some(b) = by {
                    self.feat(*b, *target, FocusCondition::SetbackOnNamed);
                }
            }
            Move::Focus { actor, .. } => {
                self.focus(*actor);
                said.push(format!(
                    "{} is focused: focusing costs no shots",
                    names[*actor]
                ));
            }
            Move::NewSession => {
                self.session += 1;
                self.fortune = self.characters.iter().map(|c| c.fortune).collect();
                said.push(format!(
                    "session {}: Fortune recovered; Setbacks stay",
                    self.session
                ));
                // "After a session, player characters recover all lost Hits."
                for (i, c) in self.characters.iter().enumerate() {
                    if !c.is_npc() && c.hits.is_some() && self.hits[i] != c.hits {
                        self.hits[i] = c.hits;
                        self.out[i] = false;
                        said.push(format!("{} recovers all lost Hits", c.name));
                    }
                }
            }
        }
        Ok(said)
    }

    fn default_move(&self) -> Move {
        match self.acting_now().first() {
            None if self.simplified => Move::NewSession,
            None => Move::Initiative,
            Some(&actor) => super::form::act(self, actor),
        }
    }

    fn describe(&self, m: &Move) -> String {
        let names = Seat::names(self);
        let who = |i: usize| name_at(&names, i);
        let check = |c: &Check| {
            let mut s = format!(
                "{} ({:?}{}) vs {}",
                c.skill,
                c.roll,
                if c.fortune { ", Fortune" } else { "" },
                match &c.difficulty {
                    Difficulty::Number(n) => n.to_string(),
                    Difficulty::Against(t) => who(*t),
                    Difficulty::Listed(t, skills) => {
                        format!("{} {}", possessive(&who(*t)), skills.join(" or "))
                    }
                }
            );
            if c.advantages > 0 {
                s.push_str(&format!(", {} Advantage", c.advantages));
            }
            if c.stunt {
                s.push_str(", a stunt for Advantage");
            }
            s
        };
        match m {
            Move::Initiative => "initiative".into(),
            Move::SurpriseRound { ambushers } => format!(
                "surprise round: {} ambush",
                ambushers
                    .iter()
                    .map(|&a| who(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Move::Act {
                actor,
                kind,
                check: c,
                focuses,
                stance,
                moves,
            } => format!(
                "{}: {kind:?} action{}{}{}{}",
                who(*actor),
                stance
                    .as_ref()
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default(),
                c.as_ref()
                    .map(|c| format!(", {}", check(c)))
                    .unwrap_or_default(),
                if *focuses { ", focusing" } else { "" },
                if *moves { ", moving" } else { "" }
            ),
            Move::FullMove { actor } => format!("{}: Full Move", who(*actor)),
            Move::CombinationAction {
                actor,
                first,
                second,
                moves,
            } => format!(
                "{}: Combination Action, {} then {}{}",
                who(*actor),
                check(first),
                check(second),
                if *moves { ", moving once" } else { "" }
            ),
            Move::ActionAdvantage { actor, check: c } => {
                format!("{}: Action Advantage, {}", who(*actor), check(c))
            }
            Move::GaugeSkill {
                actor,
                target,
                skill,
                limit_break,
            } => format!(
                "{}: gauges {} {skill}{}",
                who(*actor),
                possessive(&who(*target)),
                if *limit_break { " (Limit Break)" } else { "" }
            ),
            Move::SetupFinisher {
                actor,
                partner,
                check: c,
            } => format!(
                "{}: Setup Finisher for {}, {}",
                who(*actor),
                who(*partner),
                check(c)
            ),
            Move::FinishingStunt {
                actor,
                target,
                skill,
                limit_break,
            } => format!(
                "{}: Finishing Stunt on {} with {skill}{}",
                who(*actor),
                who(*target),
                if *limit_break {
                    " (a Limit Break, rolled normally)"
                } else {
                    " (Routine, Confident)"
                }
            ),
            Move::Check { actor, check: c } => {
                format!(
                    "{}: a check outside an action scene, {}",
                    who(*actor),
                    check(c)
                )
            }
            Move::ActiveDefense {
                actor,
                skill,
                against,
            } => format!(
                "{}: Active Defense ({skill}{})",
                who(*actor),
                against
                    .map(|a| format!(" against {}", who(a)))
                    .unwrap_or_default()
            ),
            Move::Assist {
                helper,
                skill,
                no_roll,
            } => format!(
                "{}: Assist with {skill}{}",
                who(*helper),
                if *no_roll { " (no roll)" } else { "" }
            ),
            Move::PushLuck { actor } => format!("{}: Push Luck", who(*actor)),
            Move::TeamAction {
                actors,
                skill,
                difficulty,
            } => format!(
                "team action: {} ({skill} at −{} vs {difficulty})",
                actors
                    .iter()
                    .map(|&a| who(a))
                    .collect::<Vec<_>>()
                    .join(", "),
                actors.len()
            ),
            Move::FortuneInitiative { actor } => {
                format!("{}: Fortune initiative re-roll", who(*actor))
            }
            Move::TableD6 { actor } => format!("{}: a d6 on a random table", who(*actor)),
            Move::FortuneReroll { actor } => format!("{}: Fortune re-roll of the d6", who(*actor)),
            Move::NewSession => "a new session".into(),
            Move::Focus {
                actor,
                condition: Some(c),
            } => format!("{}: focus if they {}", who(*actor), c.words()),
            Move::Focus { actor, .. } => format!("{}: focus (no shots)", who(*actor)),
            Move::Setback { target, by } => format!(
                "{} suffers a Setback{}",
                who(*target),
                by.map(|b| format!(" from {}", who(b))).unwrap_or_default()
            ),
            Move::StanceBeforeRound { actor, stance } => format!(
                "{}: stance before the round{}",
                who(*actor),
                stance
                    .as_ref()
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default()
            ),
            Move::Damage { target, hits, by } => format!(
                "{} takes {hits} hits{}",
                who(*target),
                by.map(|b| format!(" from {}", who(b))).unwrap_or_default()
            ),
            Move::KnockOut { target, by } => format!(
                "{} is knocked out{}",
                who(*target),
                by.map(|b| format!(" by {}", who(b))).unwrap_or_default()
            ),
            Move::DealDamage {
                by,
                target,
                weapon,
                kind,
            } => format!(
                "{} attack deals its damage to {} (weapon {weapon:+}{})",
                possessive(&who(*by)),
                who(*target),
                kind.as_ref().map(|k| format!(", {k}")).unwrap_or_default()
            ),
            Move::Impair { target, points } => format!("{}: impairment {points}", who(*target)),
            Move::UnderFriction { target, conditions } => format!(
                "{}: under friction {}",
                who(*target),
                if conditions.is_empty() {
                    "none".to_string()
                } else {
                    conditions
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
            Move::EndScene => "the action scene ends".into(),
        }
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
mod tests {
    use super::*;
    use crate::rules::RulesError;
    use crate::rules::play::Move as AnyMove;
    use crate::rules::table::TableState;
    use crate::rules::testing::{play, table};

    fn mv(m: Move) -> AnyMove {
        AnyMove::OpenD6(m)
    }

    fn check(skill: &str, difficulty: Difficulty) -> Check {
        Check::plain(skill, RollKind::Standard, difficulty)
    }

    fn act(actor: usize, kind: ActionType, c: Option<Check>, focuses: bool) -> AnyMove {
        mv(Move::Act {
            actor,
            kind,
            check: c,
            focuses,
            stance: None,
            moves: false,
        })
    }

    fn o6(t: &TableState) -> &Table {
        match t {
            TableState::OpenD6(t) => t,
            _ => panic!("not open-d6"),
        }
    }

    fn o6_mut(t: &mut TableState) -> &mut Table {
        match t {
            TableState::OpenD6(t) => t,
            _ => panic!("not open-d6"),
        }
    }

    /// Fred 8 + (3 − 1) = 10; Mia 9 + (2 − 2) − 1 stance = 8; Peter 7 + (6 − 1) = 12; goons 5.
    fn first_round(t: &mut TableState) {
        play(t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
    }

    /// The text's own example is no fight: Fred tags Peter in a queue, a check outside an
    /// action scene (no shots, no turn order); and a stunt that lists "the opponent's Dodge or
    /// Know" is against the highest of those.
    #[test]
    fn a_check_outside_an_action_scene_and_a_stunt_against_listed_skills() {
        let mut t = table("open-d6-fred-and-peter.ron");
        let tag = mv(Move::Check {
            actor: 0,
            check: check("Maneuver", Difficulty::Against(2)),
        });
        assert_eq!(
            t.describe(&tag),
            "Fred: a check outside an action scene, Maneuver (Standard) vs Peter"
        );
        // 10 + (5 − 2) = 13 against the higher of Maneuver 10 and Dodge 13: marginal.
        let (o, said) = play(&mut t, &tag, &[&[5, 2]]);
        assert_eq!((o.total, o.success), (0, Some(true)));
        assert_eq!(said, vec!["Fred checks outside an action scene: no shots"]);
        // Assist and Push Luck follow it as they follow any check.
        assert!(o6(&t).last_check.is_some());
        // Listed skills: Peter's Impress 11 or Dodge 13, the highest.
        let listed = |skills: &[&str]| {
            mv(Move::Check {
                actor: 0,
                check: check(
                    "Maneuver",
                    Difficulty::Listed(2, skills.iter().map(|s| s.to_string()).collect()),
                ),
            })
        };
        let difficulty =
            |t: &TableState, m: &AnyMove| t.odds(m).ok().flatten().and_then(|o| o.target);
        assert_eq!(
            difficulty(&t, &listed(&["Impress"])),
            difficulty(
                &t,
                &mv(Move::Check {
                    actor: 0,
                    check: check("Maneuver", Difficulty::Number(11)),
                })
            )
        );
        assert_eq!(
            difficulty(&t, &listed(&["Dodge", "Impress"])),
            difficulty(&t, &tag)
        );
        assert_eq!(
            t.allowed(&listed(&["Know"])),
            Err(RulesError::Refused("Peter has none of Know".into()))
        );
        assert_eq!(
            t.describe(&listed(&["Dodge", "Know"])),
            "Fred: a check outside an action scene, Maneuver (Standard) vs Peter's Dodge or Know"
        );
        // Once a round is on, checks are actions on the shot counter.
        first_round(&mut t);
        assert_eq!(
            t.allowed(&tag),
            Err(RulesError::Refused(
                "an action scene is on: a check is an action on the shot counter (Action); \
                 checks without shots come before the first initiative or after the scene ends"
                    .into()
            ))
        );
        play(&mut t, &mv(Move::EndScene), &[]);
        assert_eq!(t.allowed(&tag), Ok(()), "after the scene, again");
    }

    /// Gauge Skill: "an opposed roll of that skill against them"; success tells the rating and
    /// three schticks; a trigger action in a round, a Limit Break when the skill is not in use.
    #[test]
    fn gauge_skill_learns_a_rating_and_its_schticks() {
        let mut t = table("open-d6-fred-and-peter.ron");
        let gauge = |target: usize, skill: &str, limit_break: bool| {
            mv(Move::GaugeSkill {
                actor: 0,
                target,
                skill: skill.into(),
                limit_break,
            })
        };
        // Outside an action scene: no shots. Mia's Dodge 12; 11 + (5 − 1) = 15.
        let (o, said) = play(&mut t, &gauge(1, "Dodge", false), &[&[5, 1]]);
        assert_eq!((o.total, o.success), (3, Some(true)));
        assert_eq!(
            said,
            vec!["Fred gauges Mia's Dodge: 12; schticks: Crane Stance (+2)"]
        );
        assert_eq!(
            t.allowed(&gauge(1, "Martial Arts", false)),
            Err(RulesError::Refused(
                "Fred has no skill 'Martial Arts'".into()
            ))
        );
        assert_eq!(
            t.allowed(&gauge(0, "Dodge", false)),
            Err(RulesError::Refused(
                "Fred cannot gauge their own skill".into()
            ))
        );
        // In a round it is a trigger action (1 shot); a failure tells only one's own result.
        first_round(&mut t);
        let (o, said) = play(&mut t, &gauge(2, "Maneuver", false), &[&[1, 4]]);
        assert_eq!(o.success, Some(false));
        assert_eq!(
            said,
            vec![
                "Fred: Trigger action, shots 10 -> 9",
                "Fred learns only their own result (7) of Peter's Maneuver"
            ]
        );
        // As a Limit Break it waits for Fred's shot, and his focus.
        assert_eq!(
            t.allowed(&gauge(2, "Maneuver", true)),
            Err(RulesError::Refused("it is Peter's shot (12)".into()))
        );
        play(&mut t, &mv(Move::EndScene), &[]);
        assert_eq!(
            t.allowed(&gauge(2, "Maneuver", true)),
            Err(RulesError::Refused(
                "gauging a skill not in use is a Limit Break: Fred must focus first".into()
            ))
        );
    }

    /// Setup Finisher sets a target up for a friend's Finisher "as a Trigger Action"; a
    /// Finishing Stunt with a Basic Action is Routine and Confident, and its success an
    /// "infinite outcome": an automatic Setback.
    #[test]
    fn setup_finisher_and_finishing_stunt() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        let basic = |actor| act(actor, ActionType::Basic, None, false);
        play(&mut t, &basic(2), &[]); // Peter 12 -> 9
        play(&mut t, &basic(0), &[]); // Fred 10 -> 7
        play(&mut t, &basic(2), &[]); // Peter 9 -> 6
        let finish = |actor, target| {
            mv(Move::FinishingStunt {
                actor,
                target,
                skill: "Shoot".into(),
                limit_break: false,
            })
        };
        assert_eq!(
            t.allowed(&finish(0, 3)),
            Err(RulesError::Refused(
                "a Finishing Stunt is a Finisher: Fred has neither just knocked an opponent out \
                 nor been set up to finish Goons"
                    .into()
            ))
        );
        // Mia (shot 8) sets the goons up for Fred: Martial Arts 12 + (3 − 3) against Dodge 7.
        let setup = mv(Move::SetupFinisher {
            actor: 1,
            partner: 0,
            check: check("Martial Arts", Difficulty::Against(3)),
        });
        let (o, said) = play(&mut t, &setup, &[&[3, 3]]);
        assert_eq!(o.success, Some(true));
        assert_eq!(
            said.last().map(String::as_str),
            Some("Mia sets Goons up: Fred may finish them at once, as a trigger action")
        );
        // Fred finishes at once, as a trigger action: Shoot 9, Confident (4, 1) = +3, against
        // Routine 5.
        let (o, said) = play(&mut t, &finish(0, 3), &[&[1, 4]]);
        assert_eq!((o.total, o.success), (7, Some(true)));
        assert_eq!(
            said,
            vec![
                "Fred: Trigger action, shots 7 -> 6",
                "the Finishing Stunt succeeds: an infinite outcome for Goons",
                "Goons suffers a Setback (a Finishing Stunt, automatically; 1 now)"
            ]
        );
        assert!(t.allowed(&finish(0, 3)).is_err(), "taken up once");
        // After a knock-out the Finisher costs no shots.
        play(&mut t, &ko_by(2, 0), &[]);
        let (_, said) = play(&mut t, &finish(0, 2), &[&[2, 2]]);
        assert_eq!(said[0], "Fred: Finisher action, shots 6 -> 6");
    }

    /// "When you take a basic action, you also get to move a distance equal to your Move";
    /// a Full Move moves twice the Move; a trigger action includes no movement.
    #[test]
    fn a_basic_action_moves_a_full_move_twice_and_a_trigger_not_at_all() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        let moving = |actor, kind| {
            mv(Move::Act {
                actor,
                kind,
                check: None,
                focuses: false,
                stance: None,
                moves: true,
            })
        };
        assert_eq!(
            t.allowed(&moving(0, ActionType::Trigger)),
            Err(RulesError::Refused(
                "a Trigger action includes no movement: Fred moves with a Basic Action (or a \
                 Limit Break, or a Full Move)"
                    .into()
            ))
        );
        let (_, said) = play(&mut t, &moving(2, ActionType::Basic), &[]);
        assert_eq!(
            said,
            vec![
                "Peter: Basic action, shots 12 -> 9",
                "Peter moves up to 10 m, before or after acting"
            ]
        );
        let (o, said) = play(&mut t, &mv(Move::FullMove { actor: 0 }), &[]);
        assert_eq!(o.class, "full move");
        assert_eq!(
            said,
            vec![
                "Fred: Basic action, shots 10 -> 7",
                "Fred makes a Full Move: up to 20 m, doing nothing else"
            ]
        );
        o6_mut(&mut t).characters[2].move_m = None;
        assert_eq!(
            t.allowed(&mv(Move::FullMove { actor: 2 })),
            Err(RulesError::Refused(
                "Peter has no Move in the scene (move_m: 10)".into()
            ))
        );
    }

    /// A hit's damage: the outcome, the weapon's damage, damage-increasing stances stacking
    /// with it; the soak, and resistances stacking with it against their type of damage.
    #[test]
    fn damage_boosts_soak_and_resistances() {
        let mut t = table("open-d6-fred-and-peter.ron");
        play(
            &mut t,
            &mv(Move::StanceBeforeRound {
                actor: 1,
                stance: Some("Fire Touch".into()),
            }),
            &[],
        );
        first_round(&mut t); // Mia 9 + 0 − 2 stances = 7
        let basic = |actor, c: Option<Check>| act(actor, ActionType::Basic, c, false);
        let deal = |by, weapon, kind: Option<&str>| {
            mv(Move::DealDamage {
                by,
                target: 2,
                weapon,
                kind: kind.map(String::from),
            })
        };
        assert_eq!(
            t.allowed(&deal(0, 3, None)),
            Err(RulesError::Refused(
                "damage follows an attack: Fred's last check was not against Peter".into()
            ))
        );
        play(&mut t, &basic(2, None), &[]); // Peter 12 -> 9
        // Fred: Maneuver 10 + (5 − 1) = 14 against Dodge 13: outcome 1, + weapon 3 = 4, less
        // soak 2: 2 hits.
        play(
            &mut t,
            &basic(0, Some(check("Maneuver", Difficulty::Against(2)))),
            &[&[5, 1]],
        );
        let (o, said) = play(&mut t, &deal(0, 3, Some("physical")), &[]);
        assert_eq!((o.total, o.class.as_str()), (2, "damage"));
        assert_eq!(
            o.lines,
            vec![
                "outcome 1 + weapon 3 (physical)",
                "damage 4 − soak 2 = 2 hits on Peter"
            ]
        );
        assert_eq!(said, vec!["Peter takes 2 hits: 8 left"]);
        assert_eq!(
            t.allowed(&deal(0, 3, None)),
            Err(RulesError::Refused(
                "the damage of Fred's attack on Peter has been dealt".into()
            ))
        );
        play(&mut t, &basic(2, None), &[]); // Peter 9 -> 6
        play(&mut t, &basic(0, None), &[]); // Fred 7 -> 4
        // Mia's Fire Touch adds fire damage; Peter's Resist Fire adds 3 to his soak against it.
        play(
            &mut t,
            &basic(1, Some(check("Martial Arts", Difficulty::Against(2)))),
            &[&[4, 1]],
        );
        let (o, said) = play(&mut t, &deal(1, 1, None), &[]);
        assert_eq!(
            o.lines,
            vec![
                "outcome 2 + weapon 1",
                "Fire Touch adds +2 fire damage",
                "damage 5 − soak 2 + Resist Fire 3 = 0 hits on Peter"
            ]
        );
        assert_eq!(said, vec!["Peter takes 0 hits: 8 left"]);
    }

    /// "When focus has a condition that has to be fulfilled, you check for that condition when
    /// your turn ends": defeating a named opponent focuses; a turn without it does not.
    #[test]
    fn a_focus_condition_is_checked_when_the_turn_ends() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        let basic = |actor| act(actor, ActionType::Basic, None, false);
        let focus_if = |actor, c| {
            mv(Move::Focus {
                actor,
                condition: Some(c),
            })
        };
        play(&mut t, &basic(2), &[]); // Peter 12 -> 9
        let (o, said) = play(&mut t, &focus_if(0, FocusCondition::DefeatNamed), &[]);
        assert_eq!(o.class, "focus waits");
        assert_eq!(
            said,
            vec![
                "Fred's focus waits on its condition (defeat a named opponent), checked when the \
                 turn ends"
            ]
        );
        assert!(
            t.tracker()[0]
                .status
                .contains(&"focus if they defeat a named opponent".to_string())
        );
        play(&mut t, &basic(0), &[]); // Fred's turn: 10 -> 7
        play(&mut t, &ko_by(2, 0), &[]); // he knocks Peter out
        assert!(!o6(&t).focused[0], "not before the turn ends");
        let (_, said) = play(&mut t, &basic(1), &[]); // Mia's turn ends Fred's
        assert_eq!(
            said[0],
            "Fred's turn ends with the focus condition met (defeat a named opponent): Fred is \
             focused"
        );
        assert!(o6(&t).focused[0]);
        // Mia waits on a Setback on a named opponent; one on the unnamed goons does not count.
        play(&mut t, &focus_if(1, FocusCondition::SetbackOnNamed), &[]);
        let (_, said) = play(
            &mut t,
            &mv(Move::Setback {
                target: 3,
                by: Some(1),
            }),
            &[],
        );
        assert_eq!(
            said,
            vec!["Goons suffers a Setback (inflicted by Mia; 1 now)"]
        );
        let (_, said) = play(&mut t, &basic(0), &[]); // Fred's next turn ends Mia's
        assert_eq!(
            said[0],
            "Mia's turn ends without the focus condition (inflict a Setback on a named \
             opponent): no focus"
        );
        assert!(!o6(&t).focused[1]);
    }

    #[test]
    fn initiative_sixes_and_the_shot_counter() {
        let mut t = table("open-d6-fred-and-peter.ron");
        let fred = act(
            0,
            ActionType::Basic,
            Some(check("Maneuver", Difficulty::Number(13))),
            false,
        );
        assert!(t.allowed(&fred).is_err(), "no initiative yet");
        assert_eq!(t.default_move(), mv(Move::Initiative));
        let (o, said) = play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
        assert_eq!(o.lines[0], "Fred: Reflexes 8 + (3 − 1) -> shot 10");
        assert_eq!(o.lines[1], "Mia: Reflexes 9 + (2 − 2) − 1 stance -> shot 8");
        assert_eq!(o.lines[3], "Goons: Reflexes 5 (unnamed: no roll) -> shot 5");
        assert_eq!(o.tags, vec!["Mia: double deuces"]);
        assert_eq!(said, vec!["round 1: the counter starts at shot 12"]);
        // Peter's shot: a Maneuver stunt on Fred, the higher of Fred's Maneuver 10, Dodge 11.
        let peter = t.default_move();
        assert_eq!(
            t.describe(&peter),
            "Peter: Basic action, Maneuver (Standard) vs Fred"
        );
        assert_eq!(t.odds(&peter).expect("odds").expect("some").target, Some(0));
        // A six on the light die is thrown again: 6 + 3 − 2 = +7, Maneuver 10 + 7 = 17.
        let (o, said) = play(&mut t, &peter, &[&[6, 2], &[3]]);
        assert_eq!((o.total, o.success), (6, Some(true)));
        assert_eq!(said, vec!["Peter: Basic action, shots 12 -> 9"]);
        let (o, _) = play(&mut t, &fred, &[&[1, 1], &[4]]);
        assert!(
            o.tags.iter().any(|tag| tag.starts_with("friction 4")),
            "{o:?}"
        );
        assert_eq!(o6(&t).shots, vec![7, 8, 9, 5]);
    }

    /// Point 9: a stance is paid from the first shot of the first round only.
    #[test]
    fn stances_are_paid_once() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        assert_eq!(o6(&t).shots[1], 8, "Mia pays her stance in round 1");
        // Everyone spends the round.
        o6_mut(&mut t).shots = vec![0; 4];
        let (o, _) = play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
        assert_eq!(o.lines[1], "Mia: Reflexes 9 + (2 − 2) -> shot 9");
        assert_eq!(o6(&t).shots[1], 9, "not again in round 2");
        // A stance adopted in a round costs a shot then, and is not paid again.
        o6_mut(&mut t).shots = vec![0, 9, 0, 0];
        let (_, said) = play(&mut t, &act(1, ActionType::Stance, None, false), &[]);
        assert_eq!(
            said,
            vec!["Mia: Stance action, shots 9 -> 8", "Mia adopts a stance"]
        );
        assert_eq!(o6(&t).stances[1], 2);
        o6_mut(&mut t).shots = vec![0; 4];
        play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
        assert_eq!(o6(&t).shots[1], 9);
    }

    /// Point 10: an NPC's Limit Break costs 3 shots, a hero's all that remain.
    #[test]
    fn npc_limit_breaks_do_not_cost_every_shot() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        let focus = act(2, ActionType::Trigger, None, true);
        play(&mut t, &focus, &[]);
        assert_eq!(o6(&t).shots[2], 11);
        let lb = act(
            2,
            ActionType::LimitBreak,
            Some(check("Impress", Difficulty::Number(8))),
            false,
        );
        let (_, said) = play(&mut t, &lb, &[&[4, 1]]);
        assert_eq!(said[0], "Peter: LimitBreak action, shots 11 -> 8");
        // Fred (a hero) at shot 10: a focus then a Limit Break takes everything.
        play(&mut t, &act(0, ActionType::Trigger, None, true), &[]);
        assert_eq!(o6(&t).shots[0], 9);
        o6_mut(&mut t).shots[2] = 0;
        let lb = act(
            0,
            ActionType::LimitBreak,
            Some(check("Shoot", Difficulty::Number(8))),
            false,
        );
        let (_, said) = play(&mut t, &lb, &[&[4, 1]]);
        assert_eq!(said[0], "Fred: LimitBreak action, shots 9 -> 0");
    }

    /// Point 11: focus once a round; snake eyes only on an action's first roll; special results
    /// on Closed rolls and initiative.
    #[test]
    fn focus_once_a_round_and_special_results_on_closed_rolls() {
        let mut t = table("open-d6-fred-and-peter.ron");
        // Snake eyes on initiative: reported with a friction check; shots unchanged.
        let (o, _) = play(&mut t, &mv(Move::Initiative), &[&[1, 1, 6, 6, 6, 1], &[5]]);
        assert_eq!(o.lines[0], "Fred: Reflexes 8 + (1 − 1) -> shot 8");
        assert_eq!(o.lines[1], "Mia: Reflexes 9 + (6 − 6) − 1 stance -> shot 8");
        assert!(
            o.tags[0].starts_with("Fred: snake eyes, friction 5"),
            "{o:?}"
        );
        assert!(
            o.tags[1].starts_with("Mia: boxcars (a closed roll"),
            "{o:?}"
        );
        // Peter (12) focuses, uses it, and may not focus again this round.
        play(&mut t, &act(2, ActionType::Trigger, None, true), &[]);
        play(&mut t, &act(2, ActionType::LimitBreak, None, false), &[]);
        let err = t
            .allowed(&act(2, ActionType::Trigger, None, true))
            .expect_err("once a round");
        assert_eq!(
            err,
            RulesError::Refused(
                "Peter has focused this round: focus again when the next round begins".into()
            )
        );
        // A Closed roll with boxcars is not thrown again, and fumbles.
        let mut closed = check("Dodge", Difficulty::Number(30));
        closed.roll = RollKind::Closed;
        let (o, said) = play(
            &mut t,
            &act(0, ActionType::Trigger, Some(closed.clone()), false),
            &[&[6, 6]],
        );
        assert_eq!((o.total, o.success), (-19, Some(false)));
        assert!(said.iter().any(|s| s.contains("Setback")), "{said:?}");
        // A later roll of an action: snake eyes ask for no friction check.
        closed.later_roll = true;
        let (o, _) = play(
            &mut t,
            &act(0, ActionType::Trigger, Some(closed), false),
            &[&[1, 1]],
        );
        assert!(o.tags.is_empty(), "{o:?}");
        // Next round: Peter may focus again.
        o6_mut(&mut t).shots = vec![0; 4];
        play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
        assert!(t.allowed(&act(2, ActionType::Trigger, None, true)).is_ok());
    }

    /// "If you are focused and use your focus, you cannot focus again until the following
    /// round begins": a focus taken before the first round (or between rounds) and used in
    /// round 1 leaves no second focus in round 1.
    #[test]
    fn a_focus_used_waits_for_the_next_round_wherever_it_was_taken() {
        let mut t = table("open-d6-fred-and-peter.ron");
        let focus = mv(Move::Focus {
            actor: 2,
            condition: None,
        });
        play(&mut t, &focus, &[]);
        first_round(&mut t);
        play(&mut t, &act(2, ActionType::LimitBreak, None, false), &[]);
        assert!(!o6(&t).focused[2]);
        assert_eq!(
            t.allowed(&focus),
            Err(RulesError::Refused(
                "Peter used their focus this round: focus again when the next round begins".into()
            ))
        );
        o6_mut(&mut t).shots = vec![0; 4];
        play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
        assert_eq!(t.allowed(&focus), Ok(()));
    }

    /// "Even if you had the stance running before the action began, you still have to pay the
    /// shot cost in the first round": an ambusher's first round is the surprise round.
    #[test]
    fn an_ambushers_stance_is_paid_in_the_surprise_round() {
        let mut t = table("open-d6-fred-and-peter.ron");
        let stance = mv(Move::Act {
            actor: 1,
            kind: ActionType::Stance,
            check: None,
            focuses: false,
            stance: None,
            moves: false,
        });
        assert_eq!(
            t.allowed(&stance),
            Err(RulesError::Refused(
                "no round has started: a stance before the first round is adopted before it \
                 (its shot is paid from the first round), or roll initiative"
                    .into()
            ))
        );
        play(
            &mut t,
            &mv(Move::SurpriseRound {
                ambushers: vec![0, 1],
            }),
            &[],
        );
        // Mia holds Tiger Stance: 3 shots less its 1.
        assert_eq!(o6(&t).shots, vec![3, 2, 0, 0]);
        o6_mut(&mut t).shots = vec![0; 4];
        // The next round does not charge it again.
        let (o, _) = play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
        assert_eq!(o.lines[1], "Mia: Reflexes 9 + (2 − 2) -> shot 9");
    }

    /// Point 12: surprise round, team action, Assist, Active Defense, simplified initiative.
    #[test]
    fn surprise_team_assist_and_active_defense() {
        let mut t = table("open-d6-fred-and-peter.ron");
        // A team action outside detailed time: Fred and Mia climb, each at −2, the best counts.
        let climb = mv(Move::TeamAction {
            actors: vec![0, 1],
            skill: "Maneuver".into(),
            difficulty: 9,
        });
        let (o, said) = play(&mut t, &climb, &[&[2, 3], &[5, 1]]);
        // Fred 10 − 2 + (2 − 3) = 7 (−2); Mia 9 − 2 + (5 − 1) = 11 (+2): Mia's counts.
        assert_eq!((o.total, o.success), (2, Some(true)));
        assert_eq!(o.class, "Mia counts: success, outcome 2");
        assert_eq!(
            said,
            vec!["the team's result is the best roll: Mia counts: success, outcome 2"]
        );
        // Peter's side ambushes: 3 shots, the surprised none.
        let ambush = mv(Move::SurpriseRound {
            ambushers: vec![2, 3],
        });
        play(&mut t, &ambush, &[]);
        assert_eq!(o6(&t).shots, vec![0, 0, 3, 3]);
        assert_eq!(t.heading(), "Surprise round 1, shot 3: Peter, then Goons");
        assert!(t.allowed(&climb).is_err(), "not during the shot counter");
        o6_mut(&mut t).shots = vec![0; 4];
        first_round(&mut t);
        // Nobody acts against themself (it was rolled and its shot cost paid).
        let own = act(
            2,
            ActionType::Basic,
            Some(check("Maneuver", Difficulty::Against(2))),
            false,
        );
        assert_eq!(
            t.allowed(&own),
            Err(RulesError::Refused(
                "a check against a character is against another: Peter cannot act against \
                 themself"
                    .into()
            ))
        );
        // Peter at 12 tags Fred: Fred defends actively with Dodge (+3 this shot): 11 + 3 = 14.
        let tag = act(
            2,
            ActionType::Basic,
            Some(check("Maneuver", Difficulty::Against(0))),
            false,
        );
        let defend = mv(Move::ActiveDefense {
            actor: 0,
            skill: "Dodge".into(),
            against: None,
        });
        let (_, said) = play(&mut t, &defend, &[]);
        assert_eq!(said[0], "Fred: Trigger action, shots 10 -> 9");
        let (o, _) = play(&mut t, &tag, &[&[5, 2]]);
        // 10 + 3 = 13 against 14: a failure by 1.
        assert_eq!((o.total, o.success), (-1, Some(false)));
        // The goons, unnamed, cannot assist with a roll; Mia can: a Confident Maneuver 9 roll
        // against Peter's Maneuver 10: 9 + |2 − 5| = 12, a success.
        let err = t
            .allowed(&mv(Move::Assist {
                helper: 3,
                skill: "Brawl".into(),
                no_roll: false,
            }))
            .expect_err("unnamed");
        assert_eq!(err, RulesError::Refused("Goons is unnamed: unnamed characters assist with a Basic Action before the action, without a roll (+1 each, at most +3, as a modifier of the check)".into()));
        let assist = mv(Move::Assist {
            helper: 1,
            skill: "Maneuver".into(),
            no_roll: false,
        });
        let (o, said) = play(&mut t, &assist, &[&[2, 5]]);
        assert_eq!((o.total, o.success), (2, Some(true)));
        assert_eq!(
            said[1],
            "Mia assists Peter: the check is now 14 against 14 (success)"
        );
        assert!(
            t.allowed(&mv(Move::Assist {
                helper: 2,
                skill: "Impress".into(),
                no_roll: false,
            }))
            .is_err(),
            "not one's own"
        );
        // Fred's assist comes up boxcars (6 + 1 against 6 + 5, read as a standard roll) and
        // fails: the fumble is a Setback, recorded on Fred.
        let setbacks = o6_mut(&mut t).setbacks[0];
        let fumble = mv(Move::Assist {
            helper: 0,
            skill: "Maneuver".into(),
            no_roll: false,
        });
        let (o, said) = play(&mut t, &fumble, &[&[6, 6], &[1, 5]]);
        assert_eq!(o.success, Some(false), "{o:?}");
        assert_eq!(
            said.last().map(String::as_str),
            Some(format!(
                "Fred suffers a Setback (boxcars fumble on the assist; {} now)",
                setbacks + 1
            ))
            .as_deref()
        );
        assert_eq!(o6_mut(&mut t).setbacks[0], setbacks + 1);
        // One assist each on a check.
        assert_eq!(
            t.allowed(&fumble),
            Err(RulesError::Refused(
                "Fred has assisted this check already: one assist each".into()
            ))
        );
    }

    #[test]
    fn in_simplified_initiative_an_active_defense_ends_with_the_next_action() {
        let mut t = table("open-d6-fred-and-peter.ron");
        o6_mut(&mut t).use_simplified_initiative();
        // Fred's Active Dodge: against Fred, Maneuver's difficulty is the higher of Maneuver 10
        // and Dodge 11 + 3.
        let dodge = mv(Move::ActiveDefense {
            actor: 0,
            skill: "Dodge".into(),
            against: None,
        });
        play(&mut t, &dodge, &[]);
        assert_eq!(o6_mut(&mut t).difficulty_against(1, 0, "Maneuver"), Ok(14));
        assert!(
            t.tracker()[0]
                .status
                .contains(&"defending Dodge".to_string())
        );
        // Mia's action is the one it meets; with the next action the defence is gone, as it
        // goes on the next shot when shots are counted.
        play(&mut t, &act(1, ActionType::Basic, None, false), &[]);
        assert_eq!(o6_mut(&mut t).difficulty_against(1, 0, "Maneuver"), Ok(11));
        assert!(
            !t.tracker()[0]
                .status
                .contains(&"defending Dodge".to_string())
        );
    }

    #[test]
    fn simplified_initiative_goes_round_robin_by_reflexes() {
        let mut t = table("open-d6-fred-and-peter.ron");
        o6_mut(&mut t).use_simplified_initiative();
        assert_eq!(t.heading(), "Round 1 (simplified): Mia's action");
        assert!(t.allowed(&mv(Move::Initiative)).is_err());
        // Fred takes a trigger action before his turn: he loses his action for the round.
        let (_, said) = play(
            &mut t,
            &mv(Move::ActiveDefense {
                actor: 0,
                skill: "Dodge".into(),
                against: None,
            }),
            &[],
        );
        assert_eq!(
            said[0],
            "Fred took a trigger action before acting: no action this round"
        );
        play(&mut t, &act(1, ActionType::Basic, None, false), &[]);
        assert_eq!(t.heading(), "Round 1 (simplified): Peter's action");
        let err = t
            .allowed(&act(3, ActionType::Basic, None, false))
            .expect_err("Peter first");
        assert_eq!(
            err,
            RulesError::Refused("it is Peter's action (highest Reflexes first)".into())
        );
        play(&mut t, &act(2, ActionType::Basic, None, false), &[]);
        let (_, said) = play(&mut t, &act(3, ActionType::Basic, None, false), &[]);
        assert_eq!(said[0], "Goons: Basic action; everyone has acted: round 2");
        assert_eq!(t.heading(), "Round 2 (simplified): Mia's action");
    }

    #[test]
    fn a_stance_may_be_adopted_before_initiative() {
        let mut t = table("open-d6-fred-and-peter.ron");
        // Before the first initiative, Mia (a stance already) adopts another: no shots now.
        let stance = mv(Move::StanceBeforeRound {
            actor: 1,
            stance: None,
        });
        let (_, said) = play(&mut t, &stance, &[]);
        assert_eq!(
            said,
            vec![
                "Mia adopts a stance before the round: 1 shot, paid from the first shot of the \
                 next round"
            ]
        );
        // Both are paid from her first shot: 9 + (2 − 2) − 2 = 7.
        first_round(&mut t);
        assert_eq!(o6_mut(&mut t).shots[1], 7);
        assert_eq!(
            t.allowed(&stance),
            Err(RulesError::Refused(
                "the round is under way: a stance now is a Stance action on the character's shot"
                    .into()
            ))
        );
    }

    #[test]
    fn focusing_costs_no_shots() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        let shots = o6_mut(&mut t).shots.clone();
        let focus = mv(Move::Focus {
            actor: 0,
            condition: None,
        });
        let (o, said) = play(&mut t, &focus, &[]);
        assert_eq!(o.class, "focused");
        assert_eq!(said, vec!["Fred is focused: focusing costs no shots"]);
        assert_eq!(o6_mut(&mut t).shots, shots);
        assert!(t.tracker()[0].status.contains(&"focused".to_string()));
        assert_eq!(
            t.allowed(&focus),
            Err(RulesError::Refused("Fred is focused already".into()))
        );
    }

    /// The first round, Peter out of shots, and Fred (10) failing a Shoot 9 against 12:
    /// 9 + (2 − 4) = 7.
    fn fred_fails_a_shoot() -> TableState {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        o6_mut(&mut t).shots[2] = 0;
        let shoot = act(
            0,
            ActionType::Basic,
            Some(check("Shoot", Difficulty::Number(12))),
            false,
        );
        let (o, _) = play(&mut t, &shoot, &[&[2, 4]]);
        assert_eq!(o.success, Some(false));
        t
    }

    /// Push Luck re-rolls the check as it stood, an Assist's +1 included; its roll is the first
    /// of its own trigger action (snake eyes count); the last check's note shows the re-roll.
    #[test]
    fn push_luck_keeps_the_assist_and_reads_snake_eyes() {
        let mut t = fred_fails_a_shoot();
        // Mia assists: a Confident Maneuver roll that succeeds gives +1 (still short of 12).
        let assist = mv(Move::Assist {
            helper: 1,
            skill: "Maneuver".into(),
            no_roll: false,
        });
        let (o, _) = play(&mut t, &assist, &[&[5, 2]]);
        assert_eq!(o.success, Some(true), "{o:?}");
        assert!(
            t.notes()[1].ends_with(", assisted +1 (failure)"),
            "{:?}",
            t.notes()
        );
        // The push: Shoot 9 + (5 − 2) + the assist's 1 = 13 against 12: outcome 1, not a
        // marginal success.
        let (o, _) = play(&mut t, &mv(Move::PushLuck { actor: 0 }), &[&[5, 2]]);
        assert_eq!((o.total, o.success), (1, Some(true)));
        assert_eq!(
            t.notes()[1],
            "Last check: Fred Shoot 13 against 12, assisted +1 (success)"
        );
        // Snake eyes on a push: a friction check, as on any action's first roll.
        let mut t = fred_fails_a_shoot();
        let (o, _) = play(&mut t, &mv(Move::PushLuck { actor: 0 }), &[&[1, 1], &[4]]);
        assert!(o.tags.iter().any(|tag| tag.contains("snake eyes")), "{o:?}");
    }

    #[test]
    fn push_luck_reaches_only_the_last_action() {
        let mut t = fred_fails_a_shoot();
        assert_eq!(t.allowed(&mv(Move::PushLuck { actor: 0 })), Ok(()));
        // He then raises an Active Defense: the failed check is no longer his last action.
        play(
            &mut t,
            &mv(Move::ActiveDefense {
                actor: 0,
                skill: "Dodge".into(),
                against: None,
            }),
            &[],
        );
        assert_eq!(
            t.allowed(&mv(Move::PushLuck { actor: 0 })),
            Err(RulesError::Refused(
                "Push Luck re-rolls one's last action, and Fred has acted since that check".into()
            ))
        );
    }

    /// Point 13: Push Luck, Combination Action, Action Advantage, Stunt Modifiers, Fortune,
    /// Setbacks kept on the character.
    #[test]
    fn push_luck_limit_breaks_stunts_fortune_and_setbacks() {
        let mut t = fred_fails_a_shoot();
        assert!(
            t.allowed(&mv(Move::PushLuck { actor: 1 })).is_err(),
            "Fred's check"
        );
        // He pushes his luck (a trigger, 1 shot) and fails again: a Setback.
        let (_, said) = play(&mut t, &mv(Move::PushLuck { actor: 0 }), &[&[1, 3]]);
        assert_eq!(
            said,
            vec![
                "Fred: Trigger action, shots 7 -> 6",
                "Fred suffers a Setback (pushed their luck and failed; 1 now)"
            ]
        );
        assert!(
            t.allowed(&mv(Move::PushLuck { actor: 0 })).is_err(),
            "pushed already"
        );
        // The re-roll was a trigger action: no Assist may answer it.
        assert_eq!(
            t.allowed(&mv(Move::Assist {
                helper: 1,
                skill: "Maneuver".into(),
                no_roll: false,
            })),
            Err(RulesError::Refused(
                "the check was re-rolled by Push Luck, a trigger action, and a trigger action is \
                 never the trigger for another"
                    .into()
            ))
        );
        // Mia (8) does a stunt for Advantage and succeeds: the pool has one.
        let mut stunt = check("Maneuver", Difficulty::Number(9));
        stunt.stunt = true;
        let (_, said) = play(
            &mut t,
            &act(1, ActionType::Basic, Some(stunt), false),
            &[&[4, 2]],
        );
        assert_eq!(said[1], "Mia's stunt adds an Advantage to the pool (1 now)");
        // Fred's Fortune: a Confident roll that spends the Advantage too (+1).
        let mut lucky = check("Shoot", Difficulty::Number(12));
        lucky.fortune = true;
        o6_mut(&mut t).advantages[0] = 1;
        lucky.advantages = 1;
        let (o, said) = play(
            &mut t,
            &act(0, ActionType::Basic, Some(lucky), false),
            &[&[1, 4]],
        );
        // Confident: 4 − 1 = +3; 9 + 1 + 3 = 13 against 12.
        assert_eq!((o.total, o.success), (1, Some(true)));
        assert!(
            said.contains(&"Fred spends Fortune for a Confident roll (1 left)".to_string()),
            "{said:?}"
        );
        assert!(
            said.contains(&"Fred spends 1 Advantage (0 left in the pool)".to_string()),
            "{said:?}"
        );
        // Mia focuses and makes a Combination Action (two rolls, snake eyes only on the first).
        o6_mut(&mut t).shots = vec![0, 5, 0, 0];
        play(&mut t, &act(1, ActionType::Trigger, None, true), &[]);
        let combo = mv(Move::CombinationAction {
            actor: 1,
            first: check("Martial Arts", Difficulty::Number(10)),
            second: check("Maneuver", Difficulty::Number(10)),
            moves: true,
        });
        let plan = t.plan(&combo).expect("plan");
        assert_eq!(plan.dice.len(), 2);
        let (o, said) = play(&mut t, &combo, &[&[3, 2], &[1, 1]]);
        assert_eq!(o.class, "success, outcome 3 / failure, outcome -1");
        assert_eq!(said[0], "Mia: LimitBreak action, shots 4 -> 0");
        // It moves once, wherever in the two actions.
        assert_eq!(
            said[1],
            "Mia moves up to 12 m, once: before, between or after the two actions"
        );
        assert!(
            !o.tags.iter().any(|t| t.contains("snake eyes")),
            "second roll: {o:?}"
        );
        // Action Advantage needs focus; with it, +1.
        o6_mut(&mut t).shots = vec![6, 0, 0, 0];
        let aa = mv(Move::ActionAdvantage {
            actor: 0,
            check: check("Maneuver", Difficulty::Number(11)),
        });
        assert!(t.allowed(&aa).is_err(), "not focused");
        play(&mut t, &act(0, ActionType::Trigger, None, true), &[]);
        let (o, _) = play(&mut t, &aa, &[&[1, 1], &[6]]);
        assert_eq!(
            (o.total, o.success),
            (0, Some(true)),
            "10 + 1 + 0 = 11: marginal"
        );
        // A d6 on a random table, re-rolled with Fortune: either result may be kept.
        play(&mut t, &mv(Move::TableD6 { actor: 0 }), &[&[2]]);
        let (o, said) = play(&mut t, &mv(Move::FortuneReroll { actor: 0 }), &[&[5]]);
        assert_eq!(o.class, "keep either: 2 or 5");
        assert_eq!(said, vec!["Fred spends Fortune (0 left)"]);
        // A new session: Fortune comes back, Setbacks stay.
        play(&mut t, &mv(Move::NewSession), &[]);
        assert_eq!((o6(&t).fortune[0], o6(&t).setbacks[0]), (2, 1));
    }

    #[test]
    fn fortune_rerolls_initiative_closed_and_confident() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        // Fred rolled 10; a Closed Confident re-roll of (2, 5) reads +3: 8 + 3 = 11.
        let (o, said) = play(
            &mut t,
            &mv(Move::FortuneInitiative { actor: 0 }),
            &[&[2, 5]],
        );
        assert_eq!(o.total, 11);
        assert_eq!(
            said,
            vec!["Fred spends Fortune: shots 10 -> 11 (1 Fortune left)"]
        );
        // Peter has no Fortune; the goons roll no initiative.
        assert!(
            t.allowed(&mv(Move::FortuneInitiative { actor: 2 }))
                .is_err()
        );
        assert!(
            t.allowed(&mv(Move::FortuneInitiative { actor: 3 }))
                .is_err()
        );
    }
    fn defend(actor: usize, skill: &str, against: Option<usize>) -> AnyMove {
        mv(Move::ActiveDefense {
            actor,
            skill: skill.into(),
            against,
        })
    }

    fn refused(t: &TableState, m: &AnyMove) -> String {
        match t.allowed(m) {
            Err(e) => e.to_string(),
            Ok(()) => panic!("{m:?} should be refused"),
        }
    }

    #[test]
    fn several_defences_each_against_its_attacker_one_an_attack() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        // A defence against every attacker is still written as it always was.
        play(&mut t, &defend(0, "Dodge", None), &[]);
        assert!(
            t.canonical_state()
                .contains(r#""defending":[["Dodge",12],null,null,null]"#),
            "{}",
            t.canonical_state()
        );
        // It answers Peter's next attack: no second defence against it before that attack.
        assert_eq!(
            refused(&t, &defend(0, "Maneuver", Some(2))),
            "Fred has an Active Defense up against Peter's next attack already, and no attack has come since: one defence each attack"
        );
        // Peter's Maneuver meets Dodge 11 + 3: 10 + (5 − 2) = 13 fails by 1.
        let tag = act(
            2,
            ActionType::Basic,
            Some(check("Maneuver", Difficulty::Against(0))),
            false,
        );
        let (o, _) = play(&mut t, &tag, &[&[5, 2]]);
        assert_eq!((o.total, o.success), (-1, Some(false)));
        // Shot 9: Fred holds a Dodge against Peter and a Maneuver against the goons at once.
        play(&mut t, &defend(0, "Dodge", Some(2)), &[]);
        play(&mut t, &defend(0, "Maneuver", Some(3)), &[]);
        let fred = o6(&t);
        assert_eq!(fred.difficulty_against(2, 0, "Maneuver"), Ok(14));
        assert_eq!(fred.difficulty_against(3, 0, "Maneuver"), Ok(13));
        assert_eq!(
            fred.difficulty_against(1, 0, "Maneuver"),
            Ok(11),
            "Mia: none"
        );
        assert_eq!(
            t.tracker()[0].status[2..4],
            [
                "defending Dodge against Peter".to_string(),
                "defending Maneuver against Goons".to_string()
            ]
        );
        assert!(
            t.canonical_state().contains(
                r#"[{"against":2,"moment":9,"skill":"Dodge"},{"against":3,"moment":9,"skill":"Maneuver"}]"#
            ),
            "{}",
            t.canonical_state()
        );
        assert_eq!(
            refused(&t, &defend(0, "Dodge", None)),
            "Fred has an Active Defense up against the next attack already, and no attack has come since: one defence each attack"
        );
        assert!(refused(&t, &defend(0, "Dodge", Some(0))).contains("against themself"));
        // The goons' trigger attack (shot 9 still) meets the Maneuver held against them:
        // 8 + (4 − 1) = 11 against 13. Their next attack is a new situation; Peter's is not.
        let jab = act(
            3,
            ActionType::Trigger,
            Some(check("Maneuver", Difficulty::Against(0))),
            false,
        );
        let (o, _) = play(&mut t, &jab, &[&[4, 1]]);
        assert_eq!((o.total, o.success), (-2, Some(false)));
        assert!(t.allowed(&defend(0, "Dodge", Some(3))).is_ok());
        assert!(t.allowed(&defend(0, "Maneuver", Some(2))).is_err());
        // The defences last for shot 9: with the next shot they are gone.
        play(&mut t, &act(2, ActionType::Basic, None, false), &[]);
        assert!(o6(&t).defences_now(0, None).is_empty());
    }

    #[test]
    fn friction_reads_the_roller_limitations_and_conditions() {
        let mut t = table("open-d6-fred-and-peter.ron");
        // Initiative: Fred's snake eyes, friction 2: his Limitation.
        let (o, _) = play(&mut t, &mv(Move::Initiative), &[&[1, 1, 2, 3, 6, 1], &[2]]);
        assert!(
            o.tags.contains(
                &"Fred: snake eyes, friction 2: Fred's Limitation \"Borrowed pistol jams\" triggers"
                    .to_string()
            ),
            "{:?}",
            o.tags
        );
        let shoot = act(
            0,
            ActionType::Trigger,
            Some(check("Shoot", Difficulty::Number(10))),
            false,
        );
        let friction = |t: &mut TableState, face: u32| {
            let (o, _) = play(t, &shoot, &[&[1, 1], &[face]]);
            o.tags.last().cloned().unwrap_or_default()
        };
        // Playing it safe: faces 4 to 6 do nothing to Fred; a Limitation number he lacks neither.
        assert_eq!(
            friction(&mut t, 6),
            "friction 6: Fred plays it safe (under no friction): no effect"
        );
        assert_eq!(
            friction(&mut t, 3),
            "friction 3: a Limitation's number, and Fred has no Limitation 3: no effect"
        );
        let under = mv(Move::UnderFriction {
            target: 0,
            conditions: vec![5],
        });
        let (_, said) = play(&mut t, &under, &[]);
        assert_eq!(
            said,
            [
                "Fred is under friction: 5 (Lack of maintenance or resources; operating without a nearby base)"
            ]
        );
        assert_eq!(
            friction(&mut t, 4),
            "friction 4: Fred is not under it (Improvised gear or plans, lack of resources, and poor supply): no effect"
        );
        assert_eq!(
            friction(&mut t, 5),
            "friction 5: Fred is under it (Lack of maintenance or resources; operating without a nearby base) — Light friction: something breaks or ceases to work until the end of the scene."
        );
        assert!(
            friction(&mut t, 6).starts_with("friction 6: Fred is under friction — Minor effect")
        );
        // The plain row is replaced, never written beside the reading.
        let (o, _) = play(&mut t, &shoot, &[&[1, 1], &[5]]);
        assert_eq!(
            o.tags.iter().filter(|t| t.starts_with("friction")).count(),
            1
        );
        let limitation = mv(Move::UnderFriction {
            target: 0,
            conditions: vec![1],
        });
        assert!(refused(&t, &limitation).starts_with("friction 1 is not a condition"));
    }

    #[test]
    fn hits_knock_outs_and_finishers() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        let damage =
            |target: usize, hits: i64, by: Option<usize>| mv(Move::Damage { target, hits, by });
        let (_, said) = play(&mut t, &damage(2, 4, Some(0)), &[]);
        assert_eq!(said, ["Peter has 6 hits left"]);
        // Knocking out one's own side gives no Finisher.
        let (_, said) = play(&mut t, &damage(1, 20, Some(0)), &[]);
        assert_eq!(
            said,
            [
                "Mia has 0 hits left",
                "Mia is knocked out: no more actions this scene"
            ]
        );
        let finisher = act(0, ActionType::Finisher, None, false);
        assert!(refused(&t, &finisher).starts_with("a Finisher follows knocking an opponent out"));
        let ko = mv(Move::KnockOut {
            target: 2,
            by: Some(0),
        });
        let (_, said) = play(&mut t, &ko, &[]);
        assert_eq!(
            said[1],
            "Fred knocked an opponent out: a Finisher at no shot cost may follow"
        );
        assert!(refused(&t, &ko).contains("knocked out already"));
        // Peter (shot 12) is out: Fred's shot comes next.
        assert_eq!(t.heading(), "Round 1, shot 10: Fred");
        let (_, said) = play(&mut t, &finisher, &[]);
        assert_eq!(said, ["Fred: Finisher action, shots 10 -> 10"]);
        assert!(refused(&t, &finisher).contains("Fred has not just done so"));
        // The Finisher lapses with the next action, taken or not.
        play(&mut t, &ko_by(3, 0), &[]);
        play(&mut t, &act(0, ActionType::Basic, None, false), &[]);
        assert!(refused(&t, &finisher).contains("Fred has not just done so"));
        o6_mut(&mut t).hits[3] = None;
        assert!(refused(&t, &damage(3, 1, None)).contains("knocked out already"));
        assert!(refused(&t, &damage(0, 1001, None)).starts_with("hits is 1001"));
        // A new session: player characters recover their Hits; Peter, a villain, does not.
        let (_, said) = play(&mut t, &mv(Move::NewSession), &[]);
        assert_eq!(said[1], "Mia recovers all lost Hits");
        assert_eq!(o6(&t).out, [false, false, true, true]);
        assert_eq!(o6(&t).hits[1], Some(14));
    }

    #[test]
    fn a_knocked_out_character_does_not_hold_up_a_simplified_round() {
        let mut t = table("open-d6-fred-and-peter.ron");
        o6_mut(&mut t).use_simplified_initiative();
        // Reflexes order: Mia 9, Fred 8, Peter 7, the goons 5.
        for actor in [1, 0, 2] {
            play(&mut t, &act(actor, ActionType::Basic, None, false), &[]);
        }
        assert_eq!((o6(&t).round, o6(&t).acting_now()), (1, vec![3]));
        play(&mut t, &ko_by(3, 0), &[]);
        assert_eq!((o6(&t).round, o6(&t).acting_now()), (2, vec![1]));
    }

    fn ko_by(target: usize, by: usize) -> AnyMove {
        mv(Move::KnockOut {
            target,
            by: Some(by),
        })
    }

    #[test]
    fn impairment_lowers_skills_and_defence_values() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        let impair = |points: i64| mv(Move::Impair { target: 0, points });
        play(&mut t, &impair(3), &[]);
        assert_eq!(o6(&t).difficulty_against(2, 0, "Maneuver"), Ok(8));
        assert!(t.tracker()[0].status.contains(&"impaired −3".to_string()));
        // Fred's Shoot 9 − 3 + (4 − 1) = 9 against 9.
        let shoot = act(
            0,
            ActionType::Trigger,
            Some(check("Shoot", Difficulty::Number(9))),
            false,
        );
        let (o, _) = play(&mut t, &shoot, &[&[4, 1]]);
        assert_eq!((o.total, o.class.as_str()), (0, "marginal success"));
        let (_, said) = play(&mut t, &impair(0), &[]);
        assert_eq!(said, ["Fred's impairment is lifted"]);
        assert_eq!(o6(&t).difficulty_against(2, 0, "Maneuver"), Ok(11));
        assert!(refused(&t, &impair(-1)).starts_with("points is -1"));
    }

    #[test]
    fn schticks_never_stack_and_typed_stances_do_not_either() {
        let mut t = table("open-d6-fred-and-peter.ron");
        let before = |stance: &str| {
            mv(Move::StanceBeforeRound {
                actor: 1,
                stance: Some(stance.into()),
            })
        };
        let (_, said) = play(&mut t, &before("Tiger Stance"), &[]);
        assert_eq!(said[0], "Mia adopts Tiger Stance (Martial Arts +2)");
        assert_eq!(o6(&t).skill_value(1, "Martial Arts"), Some(14));
        play(&mut t, &before("Inner Fire"), &[]);
        assert_eq!(
            o6(&t).skill_value(1, "Martial Arts"),
            Some(14),
            "+2 and +1: the best"
        );
        assert_eq!(
            refused(&t, &before("Inner Fire")),
            "Mia has adopted Inner Fire already"
        );
        assert_eq!(
            refused(&t, &before("Iron Body")),
            "Mia has no schtick 'Iron Body': its stances are Tiger Stance, Crane Stance, Inner Fire, Fire Touch"
        );
        let (_, said) = play(&mut t, &before("Crane Stance"), &[]);
        assert_eq!(
            said[0],
            "Mia adopts Crane Stance (Dodge +2); Tiger Stance ends (one Martial stance at a time)"
        );
        let mia = o6(&t);
        assert_eq!(mia.skill_value(1, "Martial Arts"), Some(13));
        assert_eq!(mia.skill_value(1, "Dodge"), Some(14));
        // Her scene stance and two held schtick stances: three, paid from the first shot.
        assert_eq!((mia.stances[1], mia.unpaid_stances[1]), (3, 3));
        first_round(&mut t);
        assert_eq!(o6(&t).shots[1], 9 - 3);
        // A Stance action names the stance; another kind of action does not adopt one.
        let wrong = mv(Move::Act {
            actor: 1,
            kind: ActionType::Trigger,
            check: None,
            focuses: false,
            stance: Some("Tiger Stance".into()),
            moves: false,
        });
        assert!(refused(&t, &wrong).contains("is adopted with a Stance action"));
    }

    #[test]
    fn assisting_without_a_roll_needs_the_same_or_more_skill() {
        let mut t = table("open-d6-fred-and-peter.ron");
        first_round(&mut t);
        let shoot = act(
            0,
            ActionType::Trigger,
            Some(check("Shoot", Difficulty::Number(12))),
            false,
        );
        play(&mut t, &shoot, &[&[3, 2]]);
        let assist = |helper: usize, skill: &str| {
            mv(Move::Assist {
                helper,
                skill: skill.into(),
                no_roll: true,
            })
        };
        // Peter's Impress 11 against Fred's Shoot 9: no roll needed. Mia's Maneuver 9 too.
        let (o, said) = play(&mut t, &assist(1, "Maneuver"), &[]);
        assert_eq!(
            (o.success, o.class.as_str()),
            (Some(true), "assist without a roll")
        );
        assert_eq!(
            said[1],
            "Mia assists Fred: the check is now 11 against 12 (still a failure)"
        );
        // Fred's check, assisted by Mia: Peter may forgo the roll; a lower skill may not.
        play(
            &mut t,
            &mv(Move::ActiveDefense {
                actor: 1,
                skill: "Dodge".into(),
                against: None,
            }),
            &[],
        );
        let mia_check = act(
            1,
            ActionType::Trigger,
            Some(check("Martial Arts", Difficulty::Number(12))),
            false,
        );
        play(&mut t, &mia_check, &[&[3, 3]]);
        assert_eq!(
            refused(&t, &assist(0, "Maneuver")),
            "Fred's Maneuver 10 is below Mia's Martial Arts 12: the roll is forgone only when assisting someone of the same or lower skill"
        );
    }

    #[test]
    fn a_limit_break_after_the_scene_for_the_focused_out_of_shots() {
        let mut t = table("open-d6-fred-and-peter.ron");
        let end = mv(Move::EndScene);
        assert_eq!(
            refused(&t, &end),
            "no action scene has started: roll initiative first"
        );
        first_round(&mut t);
        play(
            &mut t,
            &mv(Move::Focus {
                actor: 1,
                condition: None,
            }),
            &[],
        );
        play(
            &mut t,
            &mv(Move::Focus {
                actor: 0,
                condition: None,
            }),
            &[],
        );
        o6_mut(&mut t).shots[1] = 0;
        let (_, said) = play(&mut t, &end, &[]);
        assert_eq!(
            said,
            [
                "Mia ended the scene focused and out of shots: one Limit Break after it",
                "the action scene ends"
            ]
        );
        assert_eq!(refused(&t, &end), "the action scene is over already");
        // Fred is focused but had shots left: no Limit Break after the scene.
        let limit_break = |actor| act(actor, ActionType::LimitBreak, None, false);
        assert!(refused(&t, &limit_break(0)).ends_with("Fred has none left"));
        let (_, said) = play(&mut t, &limit_break(1), &[]);
        assert_eq!(
            said,
            ["Mia: a Limit Break after the action scene (no shots: the scene is over)"]
        );
        assert!(refused(&t, &limit_break(1)).ends_with("Mia has none left"));
        assert!(!o6(&t).focused[1]);
        // Mia's stance, held into the next action scene, is paid again from its first shot.
        first_round(&mut t);
        assert_eq!((o6(&t).shots[1], o6(&t).scene_over), (8, false));
        let mut simple = table("open-d6-fred-and-peter.ron");
        o6_mut(&mut simple).use_simplified_initiative();
        assert!(refused(&simple, &end).starts_with("simplified initiative counts no shots"));
    }
}
