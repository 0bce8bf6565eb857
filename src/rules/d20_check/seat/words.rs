//! A `d20-check` move in words, for the outcome panel and the history.

use super::*;

impl Table {
    /// The move in words, for the outcome panel and the history.
    pub(super) fn describe_move(&self, m: &Move) -> String {
        let names = Seat::names(self);
        let who = |i: usize| name_at(&names, i);
        match m {
            Move::DeclareInitiative => "the GM declares initiative".into(),
            Move::EndInitiative => "the GM ends initiative".into(),
            Move::Initiative => "initiative".into(),
            Move::Check {
                actor,
                kind,
                modifier,
                dc,
                edge,
                play_the_odds,
            } => format!(
                "{}: {} check{} vs {}{}{}",
                who(*actor),
                match kind {
                    CheckType::Standard => "Standard".to_string(),
                    CheckType::Bonus => "Bonus".to_string(),
                    CheckType::Save => "Save".to_string(),
                    CheckType::Extended { task } => format!("Extended ({task})"),
                },
                modifier
                    .as_ref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default(),
                dc_words(dc, &names),
                edge_words(*edge),
                if *play_the_odds {
                    ", playing the odds"
                } else {
                    ""
                }
            ),
            Move::Group {
                leader,
                helpers,
                modifier,
                dc,
                edge,
            } => format!(
                "Group check led by {}{}{} vs {}{}",
                who(*leader),
                if helpers.is_empty() {
                    String::new()
                } else {
                    format!(
                        " with {}",
                        helpers
                            .iter()
                            .map(|&h| match modifier {
                                Some(m)
                                    if self.rules.group == GroupRule::HalfSucceed
                                        && h < self.characters.len()
                                        && !self.has_modifier(h, m) =>
                                {
                                    format!("{} (no {m})", who(h))
                                }
                                _ => who(h),
                            })
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                },
                modifier
                    .as_ref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default(),
                dc_words(dc, &names),
                edge_words(*edge)
            ),
            Move::Resource { actor, name } => format!("{} uses {name}", who(*actor)),
            Move::Opposed {
                by,
                against,
                modifier,
                edge,
            } => format!(
                "the GM's opposed check for {}{}{} against {}",
                who(*by),
                modifier
                    .as_ref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default(),
                edge_words(*edge),
                who(*against)
            ),
        }
    }
}
