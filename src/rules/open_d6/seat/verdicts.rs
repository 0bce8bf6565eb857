//! Whether a move may be made now, and why not: the rules' verdict before anything is thrown.

use super::*;
use crate::rules::Refusal;
use crate::rules::refusal::refuse;

impl Table {
    /// [`Seat::allowed`]: Ok, or the reason the move may not be made now.
    pub(super) fn allowed_move(&self, m: &Move) -> Result<(), Refusal> {
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
                    return Err(refuse!(
                        Choice,
                        "simplified initiative: no roll, characters act in order of Reflexes"
                    ));
                }
                if round_on {
                    return Err(refuse!(
                        NotNow,
                        "the round is on (shot {}): initiative is rolled when nobody has shots left",
                        self.current_shot().unwrap_or(0)
                    ));
                }
            }
            Move::SurpriseRound { ambushers } => {
                if self.simplified || round_on || self.round > 0 {
                    return Err(refuse!(
                        NotNow,
                        "a surprise round opens a scene, before initiative"
                    ));
                }
                if ambushers.is_empty() {
                    return Err(refuse!(Choice, "name who has the drop on the others"));
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
                return Err(refuse!(
                    Choice,
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
                return Err(refuse!(
                    Unable,
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
                    return Err(refuse!(Choice, "a finisher does not focus"));
                }
                if let Some(stance) = stance {
                    if *kind != ActionType::Stance {
                        return Err(refuse!(
                            Choice,
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
                return Err(refuse!(
                    Unable,
                    "gauging a skill not in use is a Limit Break: {} must focus first",
                    names[*actor]
                ));
            }
            Move::GaugeSkill { actor, .. }
                if self.out[*actor] && self.rules.generation >= crate::record::SEEN_GAUGES =>
            {
                return Err(refuse!(
                    Unable,
                    "{} is knocked out: no more actions this scene",
                    names[*actor]
                ));
            }
            Move::GaugeSkill {
                actor,
                target,
                skill,
                limit_break: false,
            } if self.rules.generation >= crate::record::SEEN_GAUGES
                && !self.seen_using(*target, skill) =>
            {
                return Err(refuse!(
                    NotNow,
                    "{} has not just used {skill}: a gauge follows seeing someone use the \
                     skill (their check, or their Active Defense); gauging a skill not in use \
                     is a Limit Break, and {} must focus for it",
                    names[*target],
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
                    return Err(refuse!(
                        Choice,
                        "a Setup Finisher sets the target up for someone else"
                    ));
                }
                if self.out[*partner] {
                    return Err(refuse!(Target, "{} is knocked out", names[*partner]));
                }
                if matches!(check.difficulty, Difficulty::Number(_)) {
                    return Err(refuse!(
                        Choice,
                        "a Setup Finisher is a check against its target: choose the target \
                         (against a character)"
                    ));
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
                    return Err(refuse!(
                        Unable,
                        "a Finishing Stunt is a Finisher: {} has neither just knocked an \
                         opponent out nor been set up to finish {}",
                        names[*actor],
                        names[*target]
                    ));
                }
                if *limit_break && !self.focused[*actor] {
                    return Err(refuse!(
                        Unable,
                        "a Finishing Stunt with a Limit Break needs focus: {} is not focused",
                        names[*actor]
                    ));
                }
            }
            Move::Check { actor, .. } => {
                if self.out[*actor] {
                    return Err(refuse!(
                        Unable,
                        "{} is knocked out: no more actions this scene",
                        names[*actor]
                    ));
                }
                if self.simplified {
                    return Err(refuse!(
                        Choice,
                        "simplified initiative: each acts in turn, with an Action"
                    ));
                }
                if !self.scene_over && self.round > 0 {
                    return Err(refuse!(
                        NotNow,
                        "an action scene is on: a check is an action on the shot counter \
                         (Action); checks without shots come before the first initiative or \
                         after the scene ends"
                    ));
                }
            }
            Move::CombinationAction {
                second: None,
                full_move: false,
                ..
            } => {
                return Err(refuse!(
                    Choice,
                    "a Combination Action is two Basic Actions: give the second action's check, \
                     or make the other action a Full Move"
                ));
            }
            Move::CombinationAction {
                second: Some(_),
                full_move: true,
                ..
            } => {
                return Err(refuse!(
                    Choice,
                    "a Combination Action is two actions: a Full Move and one check, or two \
                     checks, not both"
                ));
            }
            Move::CombinationAction {
                full_move: true,
                moves: true,
                ..
            } => {
                return Err(refuse!(
                    Choice,
                    "the Full Move is the combination's movement (twice the Move): there is no \
                     other move to add"
                ));
            }
            Move::CombinationAction {
                actor,
                moves,
                full_move,
                ..
            } if (*moves || *full_move) && self.characters[*actor].move_m.is_none() => {
                return Err(refuse!(
                    Unable,
                    "{} has no Move in the scene (move_m: 10)",
                    names[*actor]
                ));
            }
            Move::CombinationAction { actor, .. } | Move::ActionAdvantage { actor, .. } => {
                if !self.focused[*actor] {
                    return Err(refuse!(
                        Unable,
                        "{} must focus before a Limit Break",
                        names[*actor]
                    ));
                }
            }
            Move::ActiveDefense {
                actor,
                skill,
                against,
            } => {
                self.characters[*actor]
                    .skill(skill)
                    .ok_or_else(|| refuse!(Unknown, "{} has no skill '{skill}'", names[*actor]))?;
                if let Some(a) = against {
                    seat_of(&names, *a)?;
                    if a == actor {
                        return Err(refuse!(
                            Target,
                            "{} cannot defend against themself",
                            names[*actor]
                        ));
                    }
                }
                // "One trigger action of each type in each situation": one defence an attack.
                // A defence against every attacker answers each one's next attack.
                if self.defences_now(*actor, None).iter().any(|d| {
                    !d.answered
                        && (d.against.is_none() || against.is_none() || d.against == *against)
                }) {
                    return Err(refuse!(
                        Already,
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
            Move::Assist { helper: actor, .. } | Move::PushLuck { actor } if self.out[*actor] => {
                return Err(refuse!(
                    Unable,
                    "{} is knocked out: no more actions this scene",
                    names[*actor]
                ));
            }
            Move::Assist {
                helper,
                skill,
                no_roll,
            } => {
                if !self.characters[*helper].named {
                    return Err(refuse!(
                        Unable,
                        "{} is unnamed: unnamed characters assist with a Basic Action before the action, without a roll (+1 each, at most +3, as a modifier of the check)",
                        names[*helper]
                    ));
                }
                let last = self
                    .last_check
                    .as_ref()
                    .ok_or_else(|| refuse!(NotNow, "there is no check to assist"))?;
                if last.actor == *helper {
                    return Err(refuse!(Target, "nobody can assist their own check"));
                }
                if last.assisted_by.contains(helper) {
                    return Err(refuse!(
                        Already,
                        "{} has assisted this check already: one assist each",
                        names[*helper]
                    ));
                }
                if last.pushed {
                    return Err(refuse!(
                        Choice,
                        "the check was re-rolled by Push Luck, a trigger action, and a trigger \
                         action is never the trigger for another"
                    ));
                }
                if assist_bonus(&self.rules, last.assists) >= self.rules.max_assist_bonus {
                    return Err(refuse!(
                        Choice,
                        "the check has the most assistance it can take (+{})",
                        self.rules.max_assist_bonus
                    ));
                }
                if *no_roll {
                    let mine = self.skill_value(*helper, skill).ok_or_else(|| {
                        refuse!(Unknown, "{} has no skill '{skill}'", names[*helper])
                    })?;
                    let friend = self
                        .skill_value(last.actor, &last.skill)
                        .unwrap_or(last.action.skill);
                    if mine < friend {
                        return Err(refuse!(
                            Target,
                            "{}'s {skill} {mine} is below {}'s {} {friend}: the roll is forgone \
                             only when assisting someone of the same or lower skill",
                            names[*helper],
                            names[last.actor],
                            last.skill
                        ));
                    }
                }
            }
            Move::PushLuck { actor } => {
                let last = self
                    .last_check
                    .as_ref()
                    .ok_or_else(|| refuse!(NotNow, "there is no check to push"))?;
                if last.actor != *actor {
                    return Err(refuse!(
                        Choice,
                        "Push Luck follows one's own last action; the last check was {}'s",
                        names[last.actor]
                    ));
                }
                if last.success {
                    return Err(refuse!(
                        Choice,
                        "Push Luck re-rolls a failed check; the last one succeeded"
                    ));
                }
                if last.pushed {
                    return Err(refuse!(Already, "that check has been pushed already"));
                }
                if last.moved_on {
                    return Err(refuse!(
                        NotTheirTurn,
                        "Push Luck re-rolls one's last action, and {} has acted since that check",
                        names[last.actor]
                    ));
                }
            }
            Move::TeamAction { actors, .. } => {
                if round_on || (self.simplified && self.acted.iter().any(|a| *a)) {
                    return Err(refuse!(
                        NotNow,
                        "team actions are taken outside detailed time, not on the shot counter"
                    ));
                }
                if actors.len() < 2 {
                    return Err(refuse!(
                        Choice,
                        "a team action needs at least two participants"
                    ));
                }
                let mut seen = actors.clone();
                seen.sort_unstable();
                seen.dedup();
                if seen.len() != actors.len() {
                    return Err(refuse!(Target, "each participant rolls once"));
                }
            }
            Move::FortuneInitiative { actor } => {
                let c = &self.characters[*actor];
                if self.simplified || self.round == 0 || self.round_over() || self.surprise {
                    return Err(refuse!(
                        NotNow,
                        "a Fortune initiative re-roll follows a round's initiative"
                    ));
                }
                if !c.named {
                    return Err(refuse!(
                        Unable,
                        "{} is unnamed: it rolls no initiative",
                        c.name
                    ));
                }
                if self.shots[*actor] != self.first_shots[*actor] {
                    return Err(refuse!(NotTheirTurn, "{} has acted this round", c.name));
                }
                if self.fortune[*actor] == 0 {
                    return Err(refuse!(
                        Spent,
                        "{} has no Fortune left this session",
                        c.name
                    ));
                }
            }
            Move::FortuneReroll { actor } => {
                if self.last_d6.map(|(a, _)| a) != Some(*actor) {
                    return Err(refuse!(
                        Unable,
                        "{} has no d6 roll to re-roll",
                        names[*actor]
                    ));
                }
                if self.fortune[*actor] == 0 {
                    return Err(refuse!(
                        Spent,
                        "{} has no Fortune left this session",
                        names[*actor]
                    ));
                }
            }
            Move::TableD6 { .. } | Move::NewSession => {}
            Move::Focus { actor, condition } => {
                self.can_focus(*actor)?;
                if condition.is_some() && self.pending_focus[*actor].is_some() {
                    return Err(refuse!(
                        Already,
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
                        return Err(refuse!(
                            Target,
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
                        return Err(refuse!(
                            Target,
                            "{} cannot knock themself out",
                            names[*target]
                        ));
                    }
                }
                if self.out[*target] {
                    return Err(refuse!(Target, "{} is knocked out already", names[*target]));
                }
                if matches!(m, Move::Damage { .. }) && self.hits[*target].is_none() {
                    return Err(refuse!(
                        Target,
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
                    return Err(refuse!(Target, "{} is knocked out already", names[*target]));
                }
            }
            Move::UnderFriction { target, conditions } => {
                seat_of(&names, *target)?;
                let allowed = self.rules.friction_conditions();
                if let Some(f) = conditions.iter().find(|f| !allowed.contains(f)) {
                    return Err(refuse!(
                        Choice,
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
                    return Err(refuse!(
                        Choice,
                        "simplified initiative counts no shots: a Limit Break after the scene is \
                         for one out of shots, so end it in the regular initiative"
                    ));
                }
                if self.scene_over {
                    return Err(refuse!(NotNow, "the action scene is over already"));
                }
                if self.round == 0 {
                    return Err(refuse!(
                        NotNow,
                        "no action scene has started: roll initiative first"
                    ));
                }
            }
            Move::StanceBeforeRound { actor, stance } => {
                if let Some(stance) = stance {
                    self.may_adopt(*actor, stance)?;
                }
                if self.simplified {
                    return Err(refuse!(
                        Choice,
                        "simplified initiative counts no shots: a stance is the character's \
                         action there"
                    ));
                }
                if self.round > 0 && !self.round_over() && !self.scene_over {
                    return Err(refuse!(
                        NotNow,
                        "the round is under way: a stance now is a Stance action on the \
                         character's shot"
                    ));
                }
            }
        }
        Ok(())
    }
}
