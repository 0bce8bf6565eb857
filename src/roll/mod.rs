//! The one roll path: a move at a table, or a dice notation, turned into the physical throws it
//! needs, each throw's faces checked against what was asked, the throws capped, and the outcome
//! resolved. Every client drives it (the window, `session` and `demo --check`, the roll API
//! through the window, the table server and its clients, `verify`); none has a loop of its own.
//!
//! A roll is a small state machine ([`MoveRoll`], [`NotationRoll`]): started from what was asked,
//! it gives the next [`ThrowOrder`] (which physical dice, with which seed and looks), is fed
//! that throw's faces (a physical [`ThrowRecord`], or the rules' faces given by a script), and
//! says what comes next, until it is done. Who throws the dice is the caller's business: the
//! window's felt, the headless simulator ([`headless`]), a record read back.
//!
//! This module also owns what belongs to every roll: the throw cap ([`MAX_THROWS`]), the seed of
//! each throw ([`throw_seed`]), the physical dice of a plan or a notation, the looks of the dice
//! (from the rules' roles), and the records a finished roll makes.

mod driver;
pub mod headless;
mod moves;
mod notation;
pub mod replay;

pub use crate::seed::throw_seed;
pub use driver::{Driving, GivenFaces, Roll, drive, recorded_throw};
pub use moves::{MoveRoll, end_turn, play_without_dice};
pub use notation::{NotationRoll, notation_dice, read_record, recorded_notation};

use crate::dice::looks::Tint;
use crate::dice::marks::FaceMarks;
use crate::dice::style::DieStyle;
use crate::dice::{DieKind, NoPhysicalDie};
use crate::errors::ErrorCode;
use crate::odds::notation::{FacesError, NotationError};
use crate::physics::throw::Swing;
use crate::physics::{CockedPolicy, PhysicsError, RollResult, ThrowRequest};
use crate::record::{Cocked, Gesture, Pose, ThrowRecord};
use crate::rules::{DieRole, RulesError};

/// Most throws one roll may take (open-ended sixes keep coming, a tie keeps tying).
pub const MAX_THROWS: u32 = crate::odds::notation::MOST_THROWS;

/// Why a roll could not go on. The text is for people; [`RollError::code`] is for programs.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RollError {
    /// The rules refuse the move, or cannot read the faces fed to it.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The notation does not read.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// Faces that do not fit the notation's dice.
    #[error(transparent)]
    NotationFaces(#[from] FacesError),
    /// A notation that names no dice (a bare `3`): a roll names its dice, even none of them
    /// (`0d6+3` is read at once); a number alone is more likely a slip than a roll.
    #[error(
        "the notation names no dice: write the dice to throw (1d20+3), or 0d6+3 for a roll of \
         none"
    )]
    NoDice,
    /// A die of a size no physical die has.
    #[error(transparent)]
    NoPhysicalDie(#[from] NoPhysicalDie),
    /// More physical dice than one throw holds.
    #[error(
        "a throw holds at most {} dice in all (a d% is two: its tens and its units; a larger die of another size, d9, d11, d13, d15, d17, d18 or d21 to d30, counts two); this one has {dice}",
        crate::dice::MOST_IN_A_THROW
    )]
    TooManyDice {
        /// The physical dice it would throw.
        dice: usize,
    },
    /// Open-ended dice or follow-ups kept coming.
    #[error("more than {MAX_THROWS} throws for one roll")]
    TooManyThrows,
    /// A throw of other dice than the roll asked for (a record that does not fit its move).
    #[error("throw {} threw other dice than the rules ask for", n + 1)]
    OtherDice {
        /// The throw's number (0: the first).
        n: u32,
    },
    /// A throw whose seed or number does not follow from the roll's seed.
    #[error("throw {} was not thrown with the seed its roll gives it", n + 1)]
    OtherSeed {
        /// The throw's number (0: the first).
        n: u32,
    },
    /// A record read back with fewer throws than the roll asks for.
    #[error("the record has fewer throws than the rules ask for (no throw {})", n + 1)]
    Missing {
        /// The number of the throw missing (0: the first).
        n: u32,
    },
    /// A recorded throw that re-simulated to other faces or poses here (another build or
    /// platform, or a forged record).
    #[error(
        "throw {tag} re-simulated differently here (faces {here:?}, the record's {recorded:?})"
    )]
    Differs {
        /// The throw's number.
        tag: u64,
        /// The faces here.
        here: Vec<u32>,
        /// The faces recorded.
        recorded: Vec<u32>,
    },
    /// Faces fed to a roll that asks for no more throws.
    #[error("the roll is over: it asks for no more throws")]
    Over,
    /// The physics could not finish the throw.
    #[error(transparent)]
    Physics(#[from] PhysicsError),
}

impl RollError {
    /// The stable code of the error, for programs (the protocol and the API carry it).
    pub fn code(&self) -> ErrorCode {
        match self {
            RollError::Rules(e) => e.code(),
            RollError::Notation(_) => ErrorCode::BadNotation,
            RollError::NotationFaces(_) => ErrorCode::BadFaces,
            RollError::NoDice => ErrorCode::NoDice,
            RollError::NoPhysicalDie(_) => ErrorCode::NoSuchDie,
            RollError::TooManyDice { .. } => ErrorCode::TooManyDice,
            RollError::TooManyThrows => ErrorCode::TooManyThrows,
            RollError::OtherDice { .. } => ErrorCode::OtherDice,
            RollError::OtherSeed { .. } => ErrorCode::OtherSeed,
            RollError::Missing { .. } => ErrorCode::MissingThrow,
            RollError::Differs { .. } => ErrorCode::Differs,
            RollError::Over => ErrorCode::RollOver,
            RollError::Physics(_) => ErrorCode::ThrowFailed,
        }
    }

    /// The kind of a rules' refusal, where the rules refused (`refusal_kind` on the wire).
    pub fn refusal_kind(&self) -> Option<crate::rules::RefusalKind> {
        match self {
            RollError::Rules(e) => e.kind(),
            _ => None,
        }
    }
}

/// One physical throw a roll asks for: its dice, its seed and how its dice look.
#[derive(Clone, Debug, PartialEq)]
pub struct ThrowOrder {
    /// The throw's number within its roll (0: the first).
    pub n: u32,
    /// Its own seed, mixed from the roll's ([`throw_seed`]).
    pub seed: u64,
    /// The dice of the rules (or of the notation) thrown, by sides, in order.
    pub sides: Vec<u32>,
    /// Which of the roll's dice each of them is (a notation's dice by their place in it; a
    /// move's plan, 0 to n).
    pub of: Vec<usize>,
    /// The physical dice, in throw order (a d100 is a tens d10 and a d10).
    pub dice: Vec<DieKind>,
    /// How each physical die looks.
    pub tints: Vec<Tint>,
    /// What each physical die's faces show, for a game's own die (none: its numbers).
    pub marks: Vec<Option<FaceMarks>>,
    /// Why the dice are thrown, in words.
    pub purpose: String,
}

impl ThrowOrder {
    /// An order for the dice of sizes `sides`, each physical die tinted by `tints(rules die,
    /// physical die, kind)`.
    fn of_sides(
        n: u32,
        roll_seed: u64,
        sides: Vec<u32>,
        tints: impl Fn(usize, usize, DieKind) -> Tint,
        purpose: String,
    ) -> Result<ThrowOrder, RollError> {
        let per_die = sides
            .iter()
            .enumerate()
            .map(|(i, &s)| Ok((i, s, crate::dice::physical_dice(s)?)))
            .collect::<Result<Vec<_>, RollError>>()?;
        ThrowOrder::of_dice(n, roll_seed, per_die, tints, purpose)
    }

    /// The `n`-th throw of a roll, of these dice: each die of the roll (its place in the roll,
    /// its sides, as its faces are read) with the physical dice that make it (a d100 is two, a d3
    /// a marked cube). Refused when the throw would hold more than
    /// [`crate::dice::MOST_IN_A_THROW`] physical dice: the one cap of every throw, a move's or a
    /// notation's.
    pub(crate) fn of_dice(
        n: u32,
        roll_seed: u64,
        per_die: Vec<(usize, u32, Vec<DieKind>)>,
        tints: impl Fn(usize, usize, DieKind) -> Tint,
        purpose: String,
    ) -> Result<ThrowOrder, RollError> {
        let mut dice = Vec::new();
        let mut looks = Vec::new();
        let mut sides = Vec::new();
        let mut of = Vec::new();
        for (i, (member, s, kinds)) in per_die.into_iter().enumerate() {
            sides.push(s);
            of.push(member);
            for kind in kinds {
                looks.push(tints(i, dice.len(), kind));
                dice.push(kind);
            }
        }
        crate::dice::fits_a_throw(crate::dice::tray_places(&dice))
            .map_err(|dice| RollError::TooManyDice { dice })?;
        Ok(ThrowOrder {
            n,
            seed: throw_seed(roll_seed, n),
            sides,
            of,
            marks: vec![None; dice.len()],
            dice,
            tints: looks,
            purpose,
        })
    }

    /// The order with each rules die's marks (a game's own dice) on its physical dice.
    pub(crate) fn marked(mut self, marks: Vec<Option<FaceMarks>>) -> ThrowOrder {
        let mut physical = 0;
        for (s, m) in self.sides.iter().zip(marks) {
            let count = crate::dice::physical_dice(*s).map_or(1, |k| k.len());
            for slot in self.marks.iter_mut().skip(physical).take(count) {
                *slot = m.clone();
            }
            physical += count;
        }
        self
    }

    /// Each physical die with its colours, in throw order (what the hand holds and the felt
    /// shows).
    pub fn styled(&self) -> Vec<(DieKind, DieStyle)> {
        self.dice
            .iter()
            .zip(&self.tints)
            .map(|(k, t)| (*k, t.style()))
            .collect()
    }

    /// Each physical die's marks, in throw order (none: its numbers).
    pub fn marks(&self) -> Vec<Option<FaceMarks>> {
        self.marks.clone()
    }

    /// The gesture applies to the first throw of a roll only; follow-ups come from the seed.
    pub fn gesture_applies(&self) -> bool {
        self.n == 0
    }

    /// What the physics is asked to throw, with the roll's gesture (if any: it sets the first
    /// throw only).
    pub fn request(&self, gesture: Option<Gesture>) -> ThrowRequest {
        physics_request(
            self.seed,
            u64::from(self.n),
            self.dice.clone(),
            gesture.filter(|_| self.gesture_applies()),
        )
    }

    /// The rules' faces of this order's dice from a throw's physical values.
    pub fn rules_faces(&self, values: &[u32]) -> Vec<u32> {
        crate::dice::rules_faces(&self.sides, values)
    }

    /// A throw of this order's dice, seed and number, as if they had settled on `faces` (a
    /// test's stand-in for the physics).
    #[cfg(test)]
    pub(crate) fn settled_as(&self, faces: Vec<u32>) -> ThrowRecord {
        ThrowRecord {
            seed: self.seed,
            tag: u64::from(self.n),
            gesture: false,
            rethrows: vec![0; faces.len()],
            dice: self.dice.clone(),
            faces,
            poses: Vec::new(),
        }
    }

    /// Checks that a throw is the one this order asked for: the same dice, seed and number.
    fn check_throw(&self, throw: &ThrowRecord) -> Result<(), RollError> {
        if throw.dice != self.dice {
            return Err(RollError::OtherDice { n: self.n });
        }
        if throw.seed != self.seed || throw.tag != u64::from(self.n) {
            return Err(RollError::OtherSeed { n: self.n });
        }
        Ok(())
    }
}

/// The one builder of what the physics is asked to throw: throw `tag` of its roll, seeded with
/// `seed` (its own, already mixed), its swing from `gesture` (given only for the throw the
/// gesture set: a roll's first). An order, a record read back and a roll's inputs thrown again
/// all come here.
fn physics_request(
    seed: u64,
    tag: u64,
    dice: Vec<DieKind>,
    gesture: Option<Gesture>,
) -> ThrowRequest {
    ThrowRequest {
        seed,
        tag,
        dice,
        swing: gesture.map(Swing::from),
    }
}

/// How a die of the rules looks, from its role and the acting character: light and dark for
/// positive and negative dice, dark for the director's dice and the other side's initiative,
/// the actor's colours otherwise.
pub fn tint_of(role: DieRole, actor: Option<usize>) -> Tint {
    match role {
        DieRole::Positive | DieRole::Initiative => Tint::Light,
        DieRole::Negative
        | DieRole::Difficulty
        | DieRole::Position
        | DieRole::OpposingInitiative => Tint::Dark,
        DieRole::Friction => Tint::Special,
        DieRole::Pool | DieRole::Extra | DieRole::Ability | DieRole::Check | DieRole::Resource => {
            actor.map_or(Tint::Light, Tint::Character)
        }
    }
}

/// The record of a finished physical throw made from `request`.
pub fn throw_record(request: &ThrowRequest, result: &RollResult) -> ThrowRecord {
    ThrowRecord {
        seed: request.seed,
        tag: request.tag,
        gesture: request.swing.is_some(),
        dice: request.dice.clone(),
        faces: result.dice.iter().map(|d| d.value).collect(),
        rethrows: result.dice.iter().map(|d| d.rethrows.total()).collect(),
        poses: result
            .dice
            .iter()
            .map(|d| Pose {
                t: d.translation,
                r: d.rotation,
            })
            .collect(),
    }
}

impl From<Swing> for Gesture {
    fn from(swing: Swing) -> Self {
        Gesture {
            release: swing.release.to_array(),
            velocity: swing.velocity.to_array(),
        }
    }
}

/// Whether a gesture is one a hand over the tray makes (what a table server throws):
/// [`crate::physics::throw::within_reach`].
pub fn gesture_in_reach(g: &Gesture) -> bool {
    crate::physics::throw::within_reach(&Swing::from(*g))
}

impl From<Gesture> for Swing {
    fn from(g: Gesture) -> Self {
        Swing {
            release: g.release.into(),
            velocity: g.velocity.into(),
        }
    }
}

impl From<CockedPolicy> for Cocked {
    fn from(policy: CockedPolicy) -> Self {
        match policy {
            CockedPolicy::Rethrow => Cocked::Rethrow,
            CockedPolicy::Nudge => Cocked::Nudge,
        }
    }
}

impl From<Cocked> for CockedPolicy {
    fn from(cocked: Cocked) -> Self {
        match cocked {
            Cocked::Rethrow => CockedPolicy::Rethrow,
            Cocked::Nudge => CockedPolicy::Nudge,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_looks_of_the_rules_dice() {
        assert_eq!(tint_of(DieRole::Pool, Some(2)), Tint::Character(2));
        assert_eq!(tint_of(DieRole::Pool, None), Tint::Light);
        assert_eq!(tint_of(DieRole::Negative, Some(2)), Tint::Dark);
        assert_eq!(tint_of(DieRole::OpposingInitiative, None), Tint::Dark);
        assert_eq!(tint_of(DieRole::Initiative, Some(1)), Tint::Light);
        assert_eq!(tint_of(DieRole::Friction, Some(0)), Tint::Special);
    }

    #[test]
    fn an_order_of_a_d100_throws_two_dice_of_one_look() {
        let order = ThrowOrder::of_sides(
            1,
            9,
            vec![100, 6],
            |i, _, _| Tint::Character(i),
            "test".into(),
        )
        .expect("dice");
        assert_eq!(
            order.dice,
            vec![DieKind::D10Tens, DieKind::D10, DieKind::D6]
        );
        assert_eq!(
            order.tints,
            vec![Tint::Character(0), Tint::Character(0), Tint::Character(1)]
        );
        assert_eq!(order.seed, throw_seed(9, 1));
        assert_eq!(order.rules_faces(&[0, 0, 5]), vec![100, 5]);
        assert!(!order.gesture_applies());
        let d31 = ThrowOrder::of_sides(0, 9, vec![31], |_, _, _| Tint::Light, "d31".into());
        assert_eq!(d31, Err(RollError::NoPhysicalDie(NoPhysicalDie(31))));
    }
}
