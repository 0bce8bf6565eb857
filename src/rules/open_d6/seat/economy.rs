//! The table's own bookkeeping behind the moves: difficulties, the checks a move rolls,
//! paying shots, spending focus and Fortune, knock-outs, Setbacks, turns and damage.

use super::*;
use crate::rules::refusal::refuse;
use crate::rules::{Fact, Refusal, RollFact};

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
    ) -> Result<i64, Refusal> {
        self.difficulty_of(attacker, target, &[skill, "Dodge"])?
            .ok_or_else(|| {
                refuse!(
                    Unable,
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
    ) -> Result<Option<i64>, Refusal> {
        let c = self
            .characters
            .get(target)
            .ok_or_else(|| refuse!(Unknown, "the target is not in the scene"))?;
        // A check against a character is against another: against oneself it would be an
        // attack rolled and paid for, that its target's own defences answer.
        if target == attacker && self.rules.generation >= crate::record::CLOSE_READING {
            return Err(refuse!(
                Target,
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
    pub(super) fn difficulty(&self, actor: usize, check: &Check) -> Result<i64, Refusal> {
        match &check.difficulty {
            Difficulty::Number(n) => Ok(*n),
            Difficulty::Against(t) => self.difficulty_against(actor, *t, &check.skill),
            Difficulty::Listed(t, skills) => {
                if skills.iter().all(|s| s.trim().is_empty()) {
                    return Err(refuse!(
                        Choice,
                        "name the opponent's skills the stunt targets (Dodge, Know)"
                    ));
                }
                let names: Vec<&str> = skills
                    .iter()
                    .map(|s| s.trim())
                    .filter(|s| !s.is_empty())
                    .collect();
                self.difficulty_of(actor, *t, &names)?.ok_or_else(|| {
                    refuse!(
                        Unable,
                        "{} has none of {}",
                        name_at(&Seat::names(self), *t),
                        names.join(", ")
                    )
                })
            }
        }
    }

    /// Whose rolls a move throws, in throw order (the friction check reads each one's).
    pub(super) fn rollers(m: &Move) -> Vec<usize> {
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

    /// What a friction check's face does to the character at `roller` (a Limitation of
    /// theirs, a condition they are under, or nothing when they play it safe).
    pub(super) fn friction_on(&self, roller: usize, face: u32) -> String {
        let Some(who) = self.characters.get(roller) else {
            return self.rules.friction_tag(face);
        };
        let under = self
            .under_friction
            .get(roller)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        self.rules.friction_reading(who, under, face)
    }

    /// Adopts a stance schtick: a typed one ends the stance of its type already adopted.
    pub(super) fn adopt(&mut self, who: usize, stance: &str) -> String {
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
    pub(super) fn may_adopt(&self, who: usize, stance: &str) -> Result<(), Refusal> {
        let c = &self.characters[who];
        match c.schticks.iter().find(|s| s.name == stance) {
            None => Err(refuse!(
                Unknown,
                "{} has no schtick '{stance}'{}",
                c.name,
                stance_names(c)
            )),
            Some(s) if !s.stance => Err(refuse!(
                Unknown,
                "{stance} is not a stance: it is in effect all the time"
            )),
            Some(_) if self.stance_schticks[who].iter().any(|n| n == stance) => {
                Err(refuse!(Already, "{} has adopted {stance} already", c.name))
            }
            Some(_) => Ok(()),
        }
    }

    pub(super) fn rolled(
        &self,
        actor: usize,
        check: &Check,
        extra_advantage: bool,
    ) -> Result<Rolled, Refusal> {
        let c: &Character = &self.characters[seat_of(&Seat::names(self), actor)?];
        let skill = self
            .skill_value(actor, &check.skill)
            .ok_or_else(|| refuse!(Unknown, "{} has no skill '{}'", c.name, check.skill))?;
        let difficulty = self.difficulty(actor, check)?;
        if check.advantages > self.advantages[actor] {
            return Err(refuse!(
                Spent,
                "{} has {} Advantage in the pool, not {}",
                c.name,
                self.advantages[actor],
                check.advantages
            ));
        }
        if check.fortune && self.fortune[actor] == 0 {
            return Err(refuse!(
                Spent,
                "{} has no Fortune left this session",
                c.name
            ));
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
    pub(super) fn checks(&self, m: &Move) -> Result<Vec<Rolled>, Refusal> {
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
                second: None,
                ..
            } => vec![self.rolled(*actor, first, false)?],
            Move::CombinationAction {
                actor,
                first,
                second: Some(second),
                ..
            } => {
                let mut second = second.clone();
                second.later_roll = true;
                let spent = first.advantages + second.advantages;
                if spent > self.advantages[*actor] {
                    return Err(refuse!(
                        Spent,
                        "the two actions spend {spent} Advantage; the pool has {}",
                        self.advantages[*actor]
                    ));
                }
                if first.fortune && second.fortune && self.fortune[*actor] < 2 {
                    return Err(refuse!(
                        Spent,
                        "two Fortune points are needed for two Confident rolls"
                    ));
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
                    return Err(refuse!(
                        Target,
                        "{} cannot gauge their own skill",
                        names[*actor]
                    ));
                }
                let theirs = self
                    .skill_value(*target, skill)
                    .ok_or_else(|| refuse!(Unable, "{} has no {skill} to gauge", names[*target]))?;
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
                    return Err(refuse!(Target, "{} cannot finish themself", names[*actor]));
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
                    .ok_or_else(|| refuse!(NotNow, "there is no check to assist"))?;
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
                    .ok_or_else(|| refuse!(NotNow, "there is no check to push"))?;
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
                        modifier: super::super::team_penalty(n),
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
    pub(super) fn kind_of(&self, m: &Move) -> Option<ActionType> {
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
            // Assist and Push Luck after a check outside an action scene: no shots to pay.
            Move::Assist { .. } | Move::PushLuck { .. } if self.outside_action_scene() => None,
            Move::ActiveDefense { .. } | Move::Assist { .. } | Move::PushLuck { .. } => {
                Some(ActionType::Trigger)
            }
            _ => None,
        }
    }

    pub(super) fn first_shot_line(&self, i: usize, faces: Option<(u32, u32)>) -> String {
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

    pub(super) fn initiative_outcome(&self, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        let faces = throws
            .first()
            .ok_or_else(|| refuse!(Faces, "no dice have been thrown yet"))?;
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
            class_id: ClassId::new("round_started"),
            lines,
            tags,
            facts: Vec::new(),
        }))
    }

    pub(super) fn pay(&mut self, actor: usize, kind: ActionType) -> Result<String, Refusal> {
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

    pub(super) fn spend(&mut self, actor: usize, r: &Rolled, success: bool) -> Vec<String> {
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
    pub(super) fn knock_out(&mut self, target: usize, by: Option<usize>) -> Vec<String> {
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

    pub(super) fn setback(&mut self, actor: usize, why: &str) -> String {
        self.setbacks[actor] += 1;
        format!(
            "{} suffers a Setback ({why}; {} now)",
            self.characters[actor].name, self.setbacks[actor]
        )
    }

    /// `by` did something to `target` that a focus condition may ask for: it counts when the
    /// target is a named opponent.
    pub(super) fn feat(&mut self, by: usize, target: usize, feat: FocusCondition) {
        let (Some(b), Some(t)) = (self.characters.get(by), self.characters.get(target)) else {
            return;
        };
        if t.named && b.villain != t.villain {
            self.turn_feats[by].push(feat);
        }
    }

    /// The turn under way ends: a focus waiting on its condition is checked.
    pub(super) fn end_turn(&mut self, said: &mut Vec<String>) {
        let Some(i) = self.turn_of.take() else {
            return;
        };
        self.check_pending_focus(i, said);
    }

    /// Checks `i`'s focus waiting on a condition, if its turn has begun.
    pub(super) fn check_pending_focus(&mut self, i: usize, said: &mut Vec<String>) {
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
    pub(super) fn turns(&mut self, m: &Move, said: &mut Vec<String>) {
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

    pub(super) fn remember(&mut self, actor: usize, r: &Rolled, o: &Outcome) {
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
    pub(in crate::rules::open_d6) fn damage_preview(
        &self,
        by: usize,
        target: usize,
        weapon: i64,
        kind: Option<&str>,
    ) -> Result<Vec<String>, Refusal> {
        self.damage_of(by, target, weapon, kind)
            .map(|(_, lines)| lines)
    }

    /// The damage of `by`'s last check, a hit on `target`: the outcome, plus the weapon's
    /// damage and every damage boost in effect; less the target's soak and its best resistance
    /// to each type of damage the attack carries. With the lines that say so.
    pub(super) fn damage_of(
        &self,
        by: usize,
        target: usize,
        weapon: i64,
        kind: Option<&str>,
    ) -> Result<(i64, Vec<String>), Refusal> {
        let names = Seat::names(self);
        seat_of(&names, by)?;
        seat_of(&names, target)?;
        let last = self
            .last_check
            .as_ref()
            .filter(|l| l.actor == by && l.target == Some(target))
            .ok_or_else(|| {
                refuse!(
                    NotNow,
                    "damage follows an attack: {} last check was not against {}",
                    possessive(names[by]),
                    names[target]
                )
            })?;
        if last.damaged {
            return Err(refuse!(
                Already,
                "the damage of {} attack on {} has been dealt",
                possessive(names[by]),
                names[target]
            ));
        }
        let check = last.check + assist_bonus(&self.rules, last.assists);
        let outcome = check - last.action.difficulty;
        if !last.success || outcome < 0 {
            return Err(refuse!(
                Choice,
                "{} attack on {} failed: it deals no damage",
                possessive(names[by]),
                names[target]
            ));
        }
        if self.hits[target].is_none() {
            return Err(refuse!(
                Unable,
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

/// What being under these friction conditions means, in words.
pub(super) fn friction_words(rules: &super::super::Rules, who: &str, conditions: &[u32]) -> String {
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
pub(super) fn friction_faces(conditions: &[u32]) -> Vec<u32> {
    let mut faces = conditions.to_vec();
    faces.sort_unstable();
    faces.dedup();
    faces
}

/// What an impairment of `points` (0 lifts it) does to `who`, in words.
pub(super) fn impairment_words(who: &str, points: i64) -> String {
    if points == 0 {
        format!("{who}'s impairment is lifted")
    } else {
        format!("{who} is impaired −{points}: every skill, as a defence value too")
    }
}

/// ": its stances are A, B" for a refusal, or nothing when it has none.
pub(super) fn stance_names(c: &Character) -> String {
    let stances: Vec<&str> = c.stance_schticks().map(|s| s.name.as_str()).collect();
    if stances.is_empty() {
        String::new()
    } else {
        format!(": its stances are {}", stances.join(", "))
    }
}

/// A fumble in the outcome (in any of a joined outcome's rolls).
pub(super) fn fumbled(o: &Outcome) -> bool {
    o.has(Fact::Fumble)
}

/// Joins the outcomes of several rolls into one: the first's class and total unless `best`.
pub(super) fn joined(outcomes: &[Outcome], titles: &[String], best: bool) -> Outcome {
    let totals: Vec<i64> = outcomes.iter().map(|o| o.total).collect();
    let pick = match team_result(&totals) {
        Some(top) if best => totals.iter().position(|t| *t == top).unwrap_or(0),
        _ => 0,
    };
    let mut lines = Vec::new();
    let mut tags = Vec::new();
    let mut facts = Vec::new();
    for (roll, (o, title)) in outcomes.iter().zip(titles).enumerate() {
        lines.push(format!("{title}: {}", o.class));
        lines.extend(o.lines.iter().map(|l| format!("  {l}")));
        tags.extend(o.tags.iter().map(|t| format!("{title}: {t}")));
        facts.extend(o.facts.iter().map(|f| RollFact { roll, ..*f }));
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
        // The roll that counts, or every roll's in order.
        class_id: if best {
            chosen.class_id.clone()
        } else {
            let ids: Vec<&str> = outcomes.iter().map(|o| o.class_id.as_str()).collect();
            ClassId::named(&ids.join("/"))
        },
        lines,
        tags,
        facts,
    }
}
