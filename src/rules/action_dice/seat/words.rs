//! A `action-dice` move in words, for the outcome panel and the history.

use super::*;

impl Table {
    /// The move in words, for the outcome panel and the history.
    pub(super) fn describe_move(&self, m: &Move) -> String {
        let names = Seat::names(self);
        let who = |i: usize| name_at(&names, i);
        let goal = |g: &Goal| match g {
            Goal::None => String::new(),
            Goal::Number(n) => format!(" vs {n}"),
            Goal::Attack(d) => format!(" at {}", who(*d)),
        };
        let extra = |n: u32| {
            if n == 0 {
                String::new()
            } else {
                format!(" + {n} extra")
            }
        };
        match m {
            Move::Act {
                actor,
                skill,
                action_dice,
                extra: x,
                target,
                range_m,
                movement,
            } => format!(
                "{}: {skill}{} with {}{}{}{}",
                who(*actor),
                if *movement { " (movement)" } else { "" },
                dice_word(*action_dice),
                extra(*x),
                goal(target),
                range_m.map(|r| format!(" at {r} m")).unwrap_or_default()
            ),
            Move::Defend {
                actor,
                skill,
                action_dice,
                extra: x,
                against,
                as_action,
            } => format!(
                "{}: defends with {skill}, {}{}{}{}",
                who(*actor),
                dice_word(*action_dice),
                extra(*x),
                against
                    .map(|a| format!(" against {}", who(a)))
                    .unwrap_or_default(),
                if *as_action {
                    " (the GM rules it the action for this sequence)"
                } else {
                    ""
                }
            ),
            Move::DiveForCover {
                actor,
                skill,
                action_dice,
                extra: x,
                against,
                zone_m,
                as_action,
            } => format!(
                "{}: dives for cover from {}'s attack, {}{}{}{}{}",
                who(*actor),
                who(*against),
                dice_word(*action_dice),
                skill
                    .as_ref()
                    .map(|s| format!(" + {s}"))
                    .unwrap_or_default(),
                extra(*x),
                zone_m
                    .map(|z| format!(", out of a {z} m danger zone"))
                    .unwrap_or_default(),
                if *as_action {
                    " (the GM rules it the action for this sequence)"
                } else {
                    ""
                }
            ),
            Move::GroupAttack {
                actor,
                skill,
                action_dice,
                extra: x,
                target,
                range_m,
            } => format!(
                "{}: Group Attack with {skill}, {}{}{}{}",
                who(*actor),
                dice_word(*action_dice),
                extra(*x),
                goal(target),
                range_m.map(|r| format!(" at {r} m")).unwrap_or_default()
            ),
            Move::Passive {
                actor,
                ability,
                target,
            } => format!(
                "{}: {ability} (passive){}",
                who(*actor),
                target.map(|t| format!(" vs {t}")).unwrap_or_default()
            ),
            Move::DeclareNoncombat { actor } => format!("{} declares noncombat", who(*actor)),
            Move::EndSequence => "the GM ends the sequence of events".into(),
            Move::EndRound => "end of the round".into(),
        }
    }
}
