//! A resolved move applied to the table: shots paid, damage, focus, stances, turns.

use super::*;
use crate::rules::refusal::refuse;
use crate::rules::{Fact, Refusal};

impl Table {
    /// [`Seat::apply_move`]: the resolved move applied to the table; what changed, a line each.
    pub(super) fn apply_effects(
        &mut self,
        m: &Move,
        throws: &[Vec<u32>],
        outcome: &Outcome,
    ) -> Result<Vec<String>, Refusal> {
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
                Move::CombinationAction { first, second, .. } => std::iter::once(first)
                    .chain(second)
                    .map(|c| &c.difficulty)
                    .collect(),
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
                self.start_round(
                    throws
                        .first()
                        .ok_or_else(|| refuse!(Faces, "no initiative dice"))?,
                )?;
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
                    // A failed gauge's outcome is the gauger's own result, where the rules
                    // generation hides the rating; earlier, the result less the rating.
                    let own = if self.rules.generation >= crate::record::SEEN_GAUGES {
                        outcome.total
                    } else {
                        outcome.total + rating
                    };
                    format!(
                        "{} learns only their own result ({own}) of {} {skill}",
                        names[*actor],
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
                // The last check is the last action's own: its total and success, not the
                // combination's joined outcome (the first action's total, both succeeding).
                let own = match m {
                    Move::CombinationAction {
                        second: Some(_), ..
                    } if self.rules.generation >= crate::record::SEEN_GAUGES => self
                        .check_outcomes(m, &checks, throws)?
                        .ok()
                        .and_then(|outcomes| outcomes.last().cloned()),
                    _ => None,
                };
                match m {
                    Move::CombinationAction { moves: true, .. } => said.push(format!(
                        "{} moves up to {} m, once: before, between or after the two actions",
                        names[*actor],
                        self.characters[*actor].move_m.unwrap_or(0)
                    )),
                    Move::CombinationAction {
                        full_move: true, ..
                    } => said.push(format!(
                        "{} makes a Full Move with the action: up to {} m, before or after it, \
                         even where the action allows no movement",
                        names[*actor],
                        self.characters[*actor].move_m.unwrap_or(0) * 2
                    )),
                    _ => {}
                }
                for r in &checks {
                    said.extend(self.spend(*actor, r, outcome.success == Some(true)));
                }
                if fumbled(outcome) {
                    said.push(self.setback(*actor, "boxcars fumble"));
                }
                if let Some(r) = checks.last() {
                    self.remember(*actor, r, own.as_ref().unwrap_or(outcome));
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
                // Each participant's roll is the outcome's roll of the same place.
                for f in &outcome.facts {
                    if f.fact == Fact::Fumble
                        && let Some(&a) = actors.get(f.roll)
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
}
