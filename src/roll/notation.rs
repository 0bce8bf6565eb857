//! A dice notation thrown physically: every die thrown, then each open-ended die that showed
//! its top face thrown again (a new physical throw each time) until none does; each throw's
//! faces checked against the dice asked for; the chains of faces read into the total.

use super::{MAX_THROWS, RollError, ThrowOrder};
use crate::dice::DieKind;
use crate::dice::looks::notation_tint;
use crate::odds::notation::{
    Die, Notation, NotationDie, NotationError, NotationResult, Reading, rethrows,
};
use crate::record::{Cocked, Gesture, RollDice, RollInputs, RollRecord, ThrowRecord, Thrown};

/// The physical dice of a notation's first throw, in throw order (a d100 is two; none for
/// `0d6+3`, which is read at once, as Roll20 reads it): refused when the notation names no
/// dice at all (a bare `3`), a die has no physical shape (a d31) or the throw holds more than
/// [`crate::dice::MOST_IN_A_THROW`] dice. Every command, the window, the roll and odds API and
/// rooms ask this before any work, so they refuse the same notations the same way.
pub fn notation_dice(notation: &Notation) -> Result<Vec<DieKind>, RollError> {
    if !notation.names_dice() {
        return Err(RollError::NoDice);
    }
    let mut dice = Vec::new();
    for d in notation.dice() {
        dice.extend(physical_kinds(&d)?);
    }
    crate::dice::fits_a_throw(crate::dice::tray_places(&dice))
        .map_err(|dice| RollError::TooManyDice { dice })?;
    Ok(dice)
}

/// The physical dice that make one die of a notation: a d100 is two d10s; a d2, a d3 and a dF
/// are cubes marked for them.
fn physical_kinds(die: &NotationDie) -> Result<Vec<DieKind>, RollError> {
    Ok(match die.die {
        Die::Fate => vec![DieKind::Fate],
        Die::Numbered(2) => vec![DieKind::D2],
        Die::Numbered(3) => vec![DieKind::D3],
        Die::Numbered(s) => crate::dice::physical_dice(s)?,
    })
}

/// A notation being rolled: each die's chain of faces so far, the dice to throw next, and the
/// result once no die is to be thrown again.
#[derive(Clone, Debug, PartialEq)]
pub struct NotationRoll {
    notation: Notation,
    dice: Vec<NotationDie>,
    seed: u64,
    /// Each notation die's faces: the first, then each one an open-ended die threw.
    chains: Vec<Vec<u32>>,
    /// The notation dice of the throw asked for now (empty once done).
    to_throw: Vec<usize>,
    /// Throws made.
    thrown: u32,
    result: Option<NotationResult>,
}

impl NotationRoll {
    /// Starts a notation with `seed`: every die in the first throw. A roll of no dice
    /// (`0d6+3`) asks for no throw: its result is there at once.
    pub fn start(notation: &Notation, seed: u64) -> Result<NotationRoll, RollError> {
        let dice = notation.dice();
        notation_dice(notation)?;
        let result = if dice.is_empty() {
            Some(notation.evaluate(&[])?)
        } else {
            None
        };
        Ok(NotationRoll {
            notation: notation.clone(),
            chains: vec![Vec::new(); dice.len()],
            to_throw: (0..dice.len()).collect(),
            dice,
            seed,
            thrown: 0,
            result,
        })
    }

    /// The throw the notation asks for now: every die first, then the open-ended dice that
    /// showed their top face (None once done, or when a die has no physical shape:
    /// [`NotationRoll::next_order`] says so).
    pub fn order(&self) -> Option<ThrowOrder> {
        self.next_order().ok().flatten()
    }

    /// The throw the notation asks for now (None once done), or why it cannot be thrown.
    pub fn next_order(&self) -> Result<Option<ThrowOrder>, RollError> {
        if self.to_throw.is_empty() {
            return Ok(None);
        }
        let purpose = if self.thrown == 0 {
            self.notation.source().to_string()
        } else {
            format!(
                "{}: thrown again (rerolls, explosions)",
                self.notation.source()
            )
        };
        let per_die = self
            .to_throw
            .iter()
            .map(|&i| {
                let die = &self.dice[i];
                Ok((i, die.physical_sides(), physical_kinds(die)?))
            })
            .collect::<Result<Vec<_>, RollError>>()?;
        ThrowOrder::of_dice(
            self.thrown,
            self.seed,
            per_die,
            |_, at, kind| notation_tint(kind, at),
            purpose,
        )
        .map(Some)
    }

    /// Feeds the physical values of the throw asked for, in its dice's order: checked against
    /// the dice, added to their chains; the dice to throw again, or the result.
    pub fn feed_values(&mut self, values: &[u32]) -> Result<(), RollError> {
        let order = self.next_order()?.ok_or(RollError::Over)?;
        self.read(&order, values)
    }

    /// Feeds a physical throw: it must be the throw asked for (the same dice, its seed).
    pub fn feed_throw(&mut self, throw: &ThrowRecord) -> Result<(), RollError> {
        let order = self.next_order()?.ok_or(RollError::Over)?;
        order.check_throw(throw)?;
        self.read(&order, &throw.faces)
    }

    fn read(&mut self, order: &ThrowOrder, values: &[u32]) -> Result<(), RollError> {
        if values.len() != order.dice.len() {
            return Err(crate::odds::notation::FacesError(format!(
                "{} faces for a throw of {} dice ({})",
                values.len(),
                order.dice.len(),
                order.purpose
            ))
            .into());
        }
        let faces = order.rules_faces(values);
        if let Some((face, sides)) = faces
            .iter()
            .zip(&order.sides)
            .find(|(f, s)| **f == 0 || *f > *s)
        {
            return Err(crate::odds::notation::FacesError(format!(
                "face {face} is not on a d{sides}"
            ))
            .into());
        }
        for (&i, face) in self.to_throw.iter().zip(faces) {
            self.chains[i].push(face);
        }
        self.thrown += 1;
        self.to_throw = rethrows(&self.dice, &self.chains);
        if self.to_throw.is_empty() {
            self.result = Some(self.notation.evaluate(&self.chains)?);
        } else if self.thrown >= MAX_THROWS {
            return Err(RollError::TooManyThrows);
        }
        Ok(())
    }

    /// The notation.
    pub fn notation(&self) -> &Notation {
        &self.notation
    }

    /// The notation's dice, in throw order.
    pub fn dice(&self) -> &[NotationDie] {
        &self.dice
    }

    /// The roll's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Each die's chain of faces so far.
    pub fn chains(&self) -> &[Vec<u32>] {
        &self.chains
    }

    /// The notation dice in the throw asked for now.
    pub fn in_throw(&self) -> &[usize] {
        &self.to_throw
    }

    /// Throws made so far.
    pub fn throws_made(&self) -> u32 {
        self.thrown
    }

    /// The result, once every die is done.
    pub fn result(&self) -> Option<&NotationResult> {
        self.result.as_ref()
    }

    /// The record of the finished roll: the notation, its chains, total and verdict.
    pub fn record(
        &self,
        throws: Vec<ThrowRecord>,
        gesture: Option<Gesture>,
        cocked: Cocked,
    ) -> RollRecord {
        let source = self.notation.source().to_string();
        let inputs = RollInputs {
            dice: RollDice::Notation(source.clone()),
            seed: self.seed,
            gesture,
            cocked,
        };
        let mut record = RollRecord::new(Thrown::Notation { notation: source }, &inputs, throws);
        record.faces = self.chains.clone();
        if let Some(r) = &self.result {
            record.total = Some(r.total);
            let count = r.total.as_whole();
            record.outcome = match (r.success, r.measure, count) {
                (Some(ok), _, _) => Some(if ok { "success" } else { "failure" }.to_string()),
                (None, crate::odds::notation::Measure::Successes, Some(n)) => {
                    Some(crate::text::plural(n, "success", "successes"))
                }
                (None, crate::odds::notation::Measure::Matches, Some(n)) => {
                    Some(crate::text::plural(n, "match", "matches"))
                }
                _ => None,
            };
        }
        record
    }
}

/// The notation of a record, read as it was read when the record was made: up to physics 4
/// (its `build` says which) a group of one roll with a target compared its total; since issue
/// #46 it counts each die, as Roll20 does. So a room's log, a history and a record file made
/// before still verify, and show the totals that were seen.
pub fn recorded_notation(text: &str, record: &RollRecord) -> Result<Notation, NotationError> {
    // A build that names no physics generation is older still.
    let reading = match crate::record::physics_generation(&record.build) {
        Some(g) if g >= FIRST_ROLL20_GROUPS => Reading::Roll20,
        _ => Reading::TotalOfGroup,
    };
    Notation::parse_read(text, reading)
}

/// The first physics generation whose records read a group of one roll with a target as
/// Roll20 does (each die counted).
const FIRST_ROLL20_GROUPS: u32 = 5;

/// A free roll's record read again: every die as shown (rerolls, explosions, drops,
/// successes), the roll written out and the total or the successes. None for a record of a
/// move, or one whose notation or faces do not read (`verify` says why).
pub fn read_record(record: &RollRecord) -> Option<NotationResult> {
    let Thrown::Notation { notation } = &record.what else {
        return None;
    };
    recorded_notation(notation, record)
        .ok()?
        .evaluate(&record.faces)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(text: &str) -> NotationRoll {
        let n = Notation::parse(text).unwrap_or_else(|e| panic!("{e}"));
        NotationRoll::start(&n, 4).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_roll_of_no_dice_is_read_at_once_and_a_bare_number_is_refused() {
        for (text, total) in [("0d6+3", 3), ("0d0", 0), ("0d20*2+(0d6)", 0)] {
            let r = roll(text);
            assert_eq!(r.order(), None, "{text}: nothing to throw");
            assert_eq!(r.result().map(|x| x.total), Some(total.into()), "{text}");
            let n = Notation::parse(text).expect("parses");
            let (rolled, record) =
                crate::roll::headless::record_notation(&n, 9, None, Cocked::Rethrow).expect("read");
            assert!(
                rolled.throws.is_empty() && record.throws.is_empty(),
                "{text}"
            );
            assert_eq!(record.total, Some(total.into()), "{text}");
            assert_eq!(
                read_record(&record).map(|x| x.total),
                Some(total.into()),
                "{text}"
            );
            assert_eq!(notation_dice(&n), Ok(Vec::new()), "{text}");
        }
        for text in ["3", "1+2", "floor(7/2)"] {
            let n = Notation::parse(text).expect("parses");
            assert_eq!(NotationRoll::start(&n, 1), Err(RollError::NoDice), "{text}");
            assert_eq!(notation_dice(&n), Err(RollError::NoDice), "{text}");
        }
    }

    #[test]
    fn open_ended_dice_are_thrown_again_until_they_stop() {
        let mut r = roll("2d6!+d100");
        let first = r.order().expect("a throw");
        assert_eq!(first.sides, vec![6, 6, 100]);
        assert_eq!(first.dice.len(), 4, "a d100 is two dice");
        r.feed_values(&[6, 2, 0, 7]).expect("fits");
        let again = r.order().expect("the six again");
        assert_eq!((again.n, again.sides.clone()), (1, vec![6]));
        assert_eq!(
            again.purpose,
            "2d6!+d100: thrown again (rerolls, explosions)"
        );
        r.feed_values(&[3]).expect("fits");
        assert_eq!(r.chains(), &[vec![6, 3], vec![2], vec![7]]);
        assert_eq!(r.result().map(|x| x.total), Some(18.into()));
        assert_eq!(r.order(), None);
        assert_eq!(r.feed_values(&[1]), Err(RollError::Over));
    }

    #[test]
    fn faces_that_do_not_fit_are_refused_and_sixes_are_capped() {
        let mut r = roll("3d6");
        assert_eq!(
            r.feed_values(&[1, 2]).map_err(|e| e.to_string()),
            Err("2 faces for a throw of 3 dice (3d6)".to_string())
        );
        assert_eq!(
            r.feed_values(&[1, 7, 2]).map_err(|e| e.to_string()),
            Err("face 7 is not on a d6".to_string())
        );
        assert_eq!(
            r.chains(),
            &[Vec::<u32>::new(), vec![], vec![]],
            "nothing was read"
        );
        let mut r = roll("d6!");
        let mut fed = 0;
        let err = loop {
            match r.feed_values(&[6]) {
                Ok(()) => fed += 1,
                Err(e) => break e,
            }
        };
        // The 64th throw is read, and a 65th is refused.
        assert_eq!((err, fed + 1), (RollError::TooManyThrows, MAX_THROWS));
        assert_eq!(
            NotationRoll::start(&Notation::parse("2d31").expect("parses"), 1),
            Err(RollError::NoPhysicalDie(crate::dice::NoPhysicalDie(31)))
        );
    }

    #[test]
    fn a_record_is_read_as_it_was_when_it_was_made() {
        // {3d6+5}>15 with 6, 3, 1: 15, a success, as physics 4 and before read it (the total
        // compared); no die of 6 + 5 reaches 15, as Roll20 reads it since #46.
        let n = Notation::parse("{3d6+5}>15").expect("parses");
        let mut record =
            NotationRoll::start(&n, 1)
                .expect("starts")
                .record(Vec::new(), None, Cocked::Rethrow);
        record.faces = vec![vec![6], vec![3], vec![1]];
        let read = |build: &str| {
            let mut r = record.clone();
            r.build = build.to_string();
            read_record(&r).map(|x| (x.total.as_whole(), x.success))
        };
        assert_eq!(
            read("dicetable 0.1.0 physics 4 x86_64-linux"),
            Some((Some(15), Some(true)))
        );
        assert_eq!(
            read("dicetable 0.1.0 x86_64-linux"),
            Some((Some(15), Some(true)))
        );
        assert_eq!(
            read("dicetable 0.1.0 physics 5 x86_64-linux"),
            Some((Some(0), None))
        );
        assert_eq!(read(&crate::record::build_id()), Some((Some(0), None)));
    }

    /// Notations of every form, small enough to throw quickly: rolls of 0 to 3 dice of every
    /// kind with every kind of modifier, numbers, groups (totals kept, a total compared, each
    /// die counted), functions and arithmetic between two of them.
    fn any_notation() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let die = prop::sample::select(vec![
            "d2", "d3", "d4", "d6", "d8", "d10", "d12", "d20", "d%", "dF",
        ]);
        let modifier = prop::sample::select(vec![
            "", "r1", "ro<2", "!", "!!", "!p", "kh1", "dl1", ">3", "<2", "=4", ">3f1", "cs>5cf2",
            "cs2cs4", "min2", "max5", "sd", "!kh2", "r<2!", "!!>5", "m", "mt", "mt3", "r1mt",
        ]);
        let roll = (0u32..4, die, modifier).prop_map(|(n, d, m)| format!("{n}{d}{m}"));
        let term = prop_oneof![
            roll.clone(),
            (0i64..10).prop_map(|n| n.to_string()),
            roll.clone().prop_map(|r| format!("{{{r}+2}}>5")),
            (roll.clone(), roll.clone()).prop_map(|(a, b)| format!("{{{a},{b}}}kh1")),
            roll.clone().prop_map(|r| format!("{{{r},0d0}}>4")),
            roll.clone().prop_map(|r| format!("floor({r}/2)")),
            roll.clone().prop_map(|r| format!("({r})**2")),
            roll.clone().prop_map(|r| format!("abs({r}-3)")),
        ];
        let op = prop::sample::select(vec!["+", "-", "*", "%", "/"]);
        (term.clone(), op, term).prop_map(|(a, op, b)| format!("{a}{op}{b}"))
    }

    /// The notation, when the table throws it and its exact odds are worked out (a notation
    /// refused, or too large for exact odds, is left out).
    fn accepted(text: &str) -> Option<(Notation, crate::odds::dist::Dist)> {
        let n = Notation::parse(text).ok()?;
        notation_dice(&n).ok()?;
        let dist = n.distribution().ok()?;
        Some((n, dist))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

        /// Any faces the dice can show, read by the roll's own path, give a result the odds
        /// give a chance above 0 (the faces drawn at random, as many throws as the roll asks).
        #[test]
        fn every_result_read_has_a_chance_in_the_odds(
            text in any_notation(),
            faces in proptest::collection::vec(0u32..1000, 400),
        ) {
            let Some((n, dist)) = accepted(&text) else {
                return Ok(());
            };
            let mut roll = NotationRoll::start(&n, 1).map_err(|e| {
                proptest::test_runner::TestCaseError::fail(format!("{text}: {e}"))
            })?;
            let mut draws = faces.iter().cycle();
            while let Some(order) = roll.order() {
                let values: Vec<u32> = order
                    .dice
                    .iter()
                    .map(|kind| {
                        let draw = draws.next().copied().unwrap_or(0);
                        match kind {
                            DieKind::D10 | DieKind::D10Tens => draw % 10,
                            k => 1 + draw % k.faces(),
                        }
                    })
                    .collect();
                if roll.feed_values(&values) == Err(RollError::TooManyThrows) {
                    // Below one in a billion for any accepted form: drawn faces are not thrown
                    // ones, and a cycle of them can keep a die exploding.
                    return Ok(());
                }
            }
            let total = roll.result().map(|r| r.total);
            proptest::prop_assert!(
                total.is_some_and(|t| dist.point_of(t).is_some_and(|p| dist.p(p).to_f64() > 0.0)),
                "{text}: {total:?} has no chance in its odds"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// The same, thrown physically: what the dice settle on is a result the odds give a
        /// chance above 0.
        #[test]
        fn every_result_thrown_has_a_chance_in_the_odds(text in any_notation(), seed in 0u64..1_000_000) {
            let Some((n, dist)) = accepted(&text) else {
                return Ok(());
            };
            let (rolled, _) = crate::roll::headless::record_notation(&n, seed, None, Cocked::Rethrow)
                .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{text} seed {seed}: {e}")))?;
            let total = rolled.roll.result().map(|r| r.total);
            proptest::prop_assert!(
                total.is_some_and(|t| dist.point_of(t).is_some_and(|p| dist.p(p).to_f64() > 0.0)),
                "{text} seed {seed}: {total:?} has no chance in its odds"
            );
        }
    }
}
