//! How the dice of a throw look: one choice of colours for every place that draws them (the
//! window, the stream overlay, the table server's room page), so a die reads the same on each.
//! The caller says what a die is for as a [`Tint`] (the roll path makes it from the rules' roles);
//! nothing here knows the rules.

use super::DieKind;
use super::mesh::DieStyle;

/// The palette of characters' dice, by seat.
pub const CHARACTER_DICE: [DieStyle; 6] = [
    DieStyle::RUBY,
    DieStyle::SAPPHIRE,
    DieStyle::EMERALD,
    DieStyle::AMBER,
    DieStyle::VIOLET,
    DieStyle::IVORY,
];

/// What a die is for, as far as its colours go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tint {
    /// A die of the character in this seat: the character's colours.
    Character(usize),
    /// A light die: the positive die, a die of nobody's, the first of a free roll's pair.
    Light,
    /// A dark die: the negative die, the director's dice, the other side's initiative.
    Dark,
    /// A die that reads a special result (a friction check).
    Special,
}

impl Tint {
    /// The colours of a die of this tint.
    pub fn style(self) -> DieStyle {
        match self {
            Tint::Character(seat) => character_style(seat),
            Tint::Light => DieStyle::IVORY,
            Tint::Dark => DieStyle::ONYX,
            Tint::Special => DieStyle::AMBER,
        }
    }
}

/// The dice colours of the character in seat `seat`.
pub fn character_style(seat: usize) -> DieStyle {
    CHARACTER_DICE[seat % CHARACTER_DICE.len()]
}

/// A free roll's die at place `index` of its throw: light and dark alternate; a d100's tens
/// die is dark.
pub fn notation_tint(kind: DieKind, index: usize) -> Tint {
    match (kind, index % 2) {
        (DieKind::D10Tens, _) | (_, 1) => Tint::Dark,
        _ => Tint::Light,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_roll_dice_alternate_and_a_tens_die_is_dark() {
        assert_eq!(notation_tint(DieKind::D6, 0).style(), DieStyle::IVORY);
        assert_eq!(notation_tint(DieKind::D6, 1).style(), DieStyle::ONYX);
        assert_eq!(notation_tint(DieKind::D10Tens, 0).style(), DieStyle::ONYX);
        assert_eq!(character_style(7), DieStyle::SAPPHIRE);
        assert_eq!(Tint::Special.style(), DieStyle::AMBER);
    }
}
