//! A move's throws read into its outcome: checks against their difficulties, initiative,
//! friction, special results.

use super::*;
use crate::rules::Refusal;
use crate::rules::refusal::refuse;

impl Table {
    /// What each of a move's checks is called in its outcome (the team's names, a
    /// combination's first and second action; nothing for a single check).
    fn check_titles(&self, m: &Move) -> Vec<String> {
        let names = Seat::names(self);
        match m {
            Move::TeamAction { actors, .. } => actors.iter().map(|&a| name_at(&names, a)).collect(),
            Move::CombinationAction {
                second: Some(_), ..
            } => vec!["first action".into(), "second action".into()],
            _ => vec![String::new()],
        }
    }

    /// Each of a move's `checks` ([`Table::checks`]) read from its own throws, in throw order:
    /// the outcomes, or the next throw wanted.
    pub(super) fn check_outcomes(
        &self,
        m: &Move,
        checks: &[Rolled],
        throws: &[Vec<u32>],
    ) -> Result<Result<Vec<Outcome>, RollPlan>, Refusal> {
        let rollers = Self::rollers(m);
        let titles = self.check_titles(m);
        resolve_sequence(
            checks.len(),
            throws,
            |k| {
                Ok(pair_plan(
                    titles.get(k).map(String::as_str).unwrap_or(""),
                    &format!("{:?} roll", checks[k].action.roll),
                ))
            },
            |k, t| match rollers.get(k) {
                Some(&roller) => checks[k]
                    .action
                    .resolve_reading_friction(t, |face| self.friction_on(roller, face)),
                None => checks[k].action.resolve(&self.rules, t),
            },
        )
    }

    /// [`Seat::resolve`]: the outcome of the move's throws, or the next throw it needs.
    pub(super) fn resolve_throws(&self, m: &Move, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        let checks = self.checks(m)?;
        let names = Seat::names(self);
        if !checks.is_empty() {
            let titles = self.check_titles(m);
            let outcomes = match self.check_outcomes(m, &checks, throws)? {
                Err(plan) => return Ok(Step::ThrowMore(plan)),
                Ok(o) => o,
            };
            return Ok(Step::Done(match m {
                Move::TeamAction { .. } => joined(&outcomes, &titles, true),
                Move::CombinationAction {
                    second: Some(_), ..
                } => joined(&outcomes, &titles, false),
                Move::GaugeSkill { .. } if self.rules.generation >= crate::record::SEEN_GAUGES => {
                    let outcome = outcomes.into_iter().next().unwrap_or_default();
                    let rating = checks.first().map_or(0, |r| r.action.difficulty);
                    own_result_only(outcome, rating)
                }
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
                    class_id: ClassId::new("initiative_shot"),
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
                    facts: Vec::new(),
                }))
            }
            Move::TableD6 { actor } => {
                let f = single(throws)?[0];
                Ok(Step::Done(Outcome {
                    total: i64::from(f),
                    success: None,
                    class: format!("d6: {f}"),
                    class_id: ClassId::new("table_d6"),
                    lines: vec![format!("{} throws a d6: {f}", name_at(&names, *actor))],
                    tags: vec![],
                    facts: Vec::new(),
                }))
            }
            Move::FortuneReroll { actor } => {
                let f = single(throws)?[0];
                let first = self.last_d6.map(|(_, v)| v).unwrap_or(0);
                Ok(Step::Done(Outcome {
                    total: i64::from(f.max(first)),
                    success: None,
                    class: format!("keep either: {first} or {f}"),
                    class_id: ClassId::new("keep_either"),
                    lines: vec![format!(
                        "{} re-rolls the d6 {first} with Fortune: {f}; either result may be kept",
                        name_at(&names, *actor)
                    )],
                    tags: vec![],
                    facts: Vec::new(),
                }))
            }
            Move::SurpriseRound { ambushers } => Ok(no_roll(
                "surprise_round",
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
                "active_defense",
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
                class_id: ClassId::new("assist_without_a_roll"),
                lines: vec![format!(
                    "{} assists with {skill} without a roll: the friend's skill is the same or \
                     lower",
                    name_at(&names, *helper)
                )],
                tags: vec![],
                facts: Vec::new(),
            })),
            Move::Damage { target, hits, by } => {
                let left = self.hits[*target].unwrap_or(0) - hits;
                let (id, class) = if left <= 0 {
                    ("knocked_out", "knocked out")
                } else {
                    ("damage", "damage")
                };
                Ok(no_roll(
                    id,
                    class,
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
                    class_id: ClassId::new(if left <= 0 { "knocked_out" } else { "damage" }),
                    lines,
                    tags: vec![],
                    facts: Vec::new(),
                }))
            }
            Move::KnockOut { target, by } => Ok(no_roll(
                "knocked_out",
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
                "impairment",
                impairment_words(&name_at(&names, *target), *points),
            )),
            Move::UnderFriction { target, conditions } => Ok(no_roll(
                "friction",
                "friction",
                friction_words(
                    &self.rules,
                    &name_at(&names, *target),
                    &friction_faces(conditions),
                ),
            )),
            Move::EndScene => Ok(no_roll(
                "scene_ended",
                "the action scene ends",
                "the action scene ends: no more shots".into(),
            )),
            Move::NewSession => Ok(no_roll(
                "new_session",
                "new session",
                "a new session: Fortune points come back".into(),
            )),
            Move::Focus {
                actor,
                condition: Some(c),
            } => Ok(no_roll(
                "focus_waits",
                "focus waits",
                format!(
                    "{} will be focused if, when the turn ends, they did {}",
                    name_at(&names, *actor),
                    c.words()
                ),
            )),
            Move::Focus { actor, .. } => Ok(no_roll(
                "focused",
                "focused",
                format!("{} focuses (no shots)", name_at(&names, *actor)),
            )),
            Move::Setback { target, by } => Ok(no_roll(
                "setback",
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
                "stance",
                format!(
                    "{} adopts a stance before the round",
                    name_at(&names, *actor)
                ),
            )),
            Move::Act { actor, kind, .. } => Ok(no_roll(
                "no_roll",
                "no roll",
                format!(
                    "{} takes a {kind:?} action without a roll",
                    name_at(&names, *actor)
                ),
            )),
            Move::FullMove { actor } => Ok(no_roll(
                "full_move",
                "full move",
                format!(
                    "{} moves up to {} m (twice the Move), doing nothing else",
                    name_at(&names, *actor),
                    self.characters[*actor].move_m.unwrap_or(0) * 2
                ),
            )),
            _ => Err(refuse!(Choice, "this move rolls checks")),
        }
    }
}

/// A failed gauge's outcome as the gauger knows it ("If you fail, you still know the result of
/// your own roll"): the total is their own result, and no line or class names the target's
/// rating, which the roll was against. A success is left as it is: it tells the rating.
fn own_result_only(outcome: Outcome, rating: i64) -> Outcome {
    if outcome.success != Some(false) {
        return outcome;
    }
    let own = outcome.total + rating;
    let against = format!(" against {rating}");
    Outcome {
        total: own,
        class: format!("failure: their own result is {own}"),
        lines: outcome
            .lines
            .into_iter()
            .map(|line| match line.strip_suffix(&against) {
                Some(kept) => format!("{kept}: short of the rating, which stays unknown"),
                None => line,
            })
            .collect(),
        ..outcome
    }
}
