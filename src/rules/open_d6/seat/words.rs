//! The table and its moves in words: the heading, the tracker, the notes, a move described.

use super::*;

impl Table {
    /// [`Seat::heading`]: whose turn it is, in a line.
    pub(super) fn heading_now(&self) -> String {
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

    /// [`Seat::tracker`]: each character's row of the tracker.
    pub(super) fn tracker_now(&self) -> Vec<TrackerRow> {
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

    /// [`Seat::notes`]: what else the tracker says of the round.
    pub(super) fn notes_now(&self) -> Vec<String> {
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

    /// [`Seat::describe`]: the move in words.
    pub(super) fn describe_move(&self, m: &Move) -> String {
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
                ..
            } => format!(
                "{}: Combination Action, {} {}{}",
                who(*actor),
                check(first),
                match second {
                    Some(second) => format!("then {}", check(second)),
                    None => "and a Full Move".to_string(),
                },
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
}
