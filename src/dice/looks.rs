//! How the dice of a throw look: one choice of colours for every place that draws them (the
//! window, the stream overlay, the table server's room page), so a die reads the same on each.

use super::DieKind;
use super::mesh::DieStyle;
use crate::rules::{DieRole, RollPlan};

/// The palette of characters' dice, by seat.
pub const CHARACTER_DICE: [DieStyle; 6] = [
    DieStyle::RUBY,
    DieStyle::SAPPHIRE,
    DieStyle::EMERALD,
    DieStyle::AMBER,
    DieStyle::VIOLET,
    DieStyle::IVORY,
];

/// The dice colours of the character in seat `seat`.
pub fn character_style(seat: usize) -> DieStyle {
    CHARACTER_DICE[seat % CHARACTER_DICE.len()]
}

/// How a die of a plan looks: light and dark for positive and negative dice, dark for the
/// director's difficulty dice and the gamemaster's initiative, the actor's colour otherwise.
pub fn die_style(role: DieRole, label: &str, actor: Option<usize>) -> DieStyle {
    match role {
        DieRole::Positive => DieStyle::IVORY,
        DieRole::Negative | DieRole::Difficulty | DieRole::Position => DieStyle::ONYX,
        DieRole::Friction => DieStyle::AMBER,
        DieRole::Initiative if label.starts_with("gamemaster") => DieStyle::ONYX,
        DieRole::Initiative => DieStyle::IVORY,
        _ => actor.map(character_style).unwrap_or(DieStyle::IVORY),
    }
}

/// The physical dice of a plan, each in the colours of its role (and of the acting
/// character): what the throw launches and what the hand holds before it.
pub fn dice_of_plan(
    plan: &RollPlan,
    actor: Option<usize>,
) -> Result<Vec<(DieKind, DieStyle)>, String> {
    let mut dice = Vec::new();
    for d in &plan.dice {
        let style = die_style(d.role, &d.label, actor);
        dice.extend(
            super::physical_dice(d.sides)?
                .into_iter()
                .map(|k| (k, style)),
        );
    }
    Ok(dice)
}

/// A free roll's die at place `index` of its throw: light and dark alternate; a d100's tens
/// die is dark.
pub fn notation_style(kind: DieKind, index: usize) -> DieStyle {
    match (kind, index % 2) {
        (DieKind::D10Tens, _) | (_, 1) => DieStyle::ONYX,
        _ => DieStyle::IVORY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_roll_dice_alternate_and_a_tens_die_is_dark() {
        assert_eq!(notation_style(DieKind::D6, 0), DieStyle::IVORY);
        assert_eq!(notation_style(DieKind::D6, 1), DieStyle::ONYX);
        assert_eq!(notation_style(DieKind::D10Tens, 0), DieStyle::ONYX);
        assert_eq!(character_style(7), DieStyle::SAPPHIRE);
        assert_eq!(die_style(DieRole::Friction, "x", Some(0)), DieStyle::AMBER);
    }
}
