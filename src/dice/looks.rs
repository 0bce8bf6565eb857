//! How the dice of a throw look: one choice of colours for every place that draws them (the
//! window, the stream overlay, the table server's room page), so a die reads the same on each.
//! The caller says what a die is for as a [`Tint`] (the roll path makes it from the rules' roles);
//! nothing here knows the rules.

use super::DieKind;
use super::style::{DiceLook, DieStyle};

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
    /// A game's own die, in the colours its system file gives it (kept whoever throws it).
    Game(DieStyle),
}

impl Tint {
    /// The colours of a die of this tint.
    pub fn style(self) -> DieStyle {
        match self {
            Tint::Character(seat) => character_style(seat),
            Tint::Light => DieStyle::IVORY,
            Tint::Dark => DieStyle::ONYX,
            Tint::Special => DieStyle::AMBER,
            Tint::Game(style) => style,
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

/// How one member's throws look in a room: its own dice for its free rolls, and each
/// character's dice (the character's own, else those of the player who plays it) for a move's
/// character dice. The game master's and the challenge dice keep the room's look.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DicePainter {
    /// The thrower's own dice.
    own: Option<DiceLook>,
    /// Each seat's dice, by seat.
    seats: Vec<Option<DiceLook>>,
}

impl DicePainter {
    /// A painter of `own` dice for a thrower's free rolls and `seats` (each seat's dice, by
    /// seat) for a move's character dice.
    pub fn new(own: Option<DiceLook>, seats: Vec<Option<DiceLook>>) -> DicePainter {
        DicePainter { own, seats }
    }

    /// A die of `tint` in a free roll (`free`) or a move: its colours (numerals made readable)
    /// and material.
    pub fn paint(&self, tint: Tint, free: bool) -> DieStyle {
        let look = if free {
            self.own
        } else {
            match tint {
                Tint::Character(seat) => self.seats.get(seat).copied().flatten(),
                _ => None,
            }
        };
        look.map_or_else(|| tint.style(), DiceLook::drawn)
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
