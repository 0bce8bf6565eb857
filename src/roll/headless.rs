//! Rolls thrown here and now, headless: each throw a roll asks for is thrown in a fresh
//! simulator (a throw's world holds nothing else, see `physics::headless`, so the window, which
//! throws the same throws on its felt, reproduces it exactly). `roll`, `session`, `demo
//! --check`, the table server, the replay checker and the tests use it.

use super::{
    Driving, MoveRoll, NotationRoll, RollError, ThrowOrder, drive, physics_request, throw_record,
    throw_seed,
};
use crate::dice::DieKind;
use crate::odds::notation::Notation;
use crate::physics::headless::Simulator;
use crate::physics::{RollResult, STEP_HZ, SettleRules, ThrowRequest};
use crate::record::{Cocked, Gesture, Pose, RollDice, RollInputs, RollRecord, ThrowRecord};
use crate::rules::play::Move;
use crate::rules::table::TableState;

/// The settle rules of a roll with this cocked-dice policy.
pub fn settle_rules(cocked: Cocked) -> SettleRules {
    SettleRules {
        cocked: cocked.into(),
        ..SettleRules::default()
    }
}

/// Throw `n` of a roll seeded with `seed`: its own seed, its number, the gesture on the first.
pub fn nth_request(
    seed: u64,
    n: u32,
    dice: Vec<DieKind>,
    gesture: Option<Gesture>,
) -> ThrowRequest {
    physics_request(
        throw_seed(seed, n),
        u64::from(n),
        dice,
        gesture.filter(|_| n == 0),
    )
}

/// A recorded throw as it was asked of the physics: its seed, number, dice, and the roll's
/// gesture if the record says it set this throw.
pub fn recorded_request(throw: &ThrowRecord, gesture: Option<Gesture>) -> ThrowRequest {
    physics_request(
        throw.seed,
        throw.tag,
        throw.dice.clone(),
        gesture.filter(|_| throw.gesture),
    )
}

/// Throws what `request` asks in a fresh simulator: the record of the throw and the settled dice.
pub fn throw_request(
    request: &ThrowRequest,
    cocked: Cocked,
) -> Result<(ThrowRecord, RollResult), RollError> {
    let result = Simulator::new(settle_rules(cocked)).roll(request)?;
    Ok((throw_record(request, &result), result))
}

/// Throws an order of a roll, with the roll's gesture.
pub fn throw_order(
    order: &ThrowOrder,
    gesture: Option<Gesture>,
    cocked: Cocked,
) -> Result<ThrowRecord, RollError> {
    throw_request(&order.request(gesture), cocked).map(|(t, _)| t)
}

/// A move played physically at `table`: every throw it asks for thrown here. The roll (not
/// applied) with its throws, and why it stopped early, if it did.
pub fn play_move(
    table: &TableState,
    mv: &Move,
    seed: u64,
    gesture: Option<Gesture>,
    cocked: Cocked,
) -> Result<Driving<MoveRoll>, RollError> {
    let roll = MoveRoll::start(table, mv, seed)?;
    Ok(drive(roll, |order| throw_order(order, gesture, cocked)))
}

/// A notation thrown physically, with what `roll` shows of each die.
#[derive(Debug)]
pub struct RolledNotation {
    /// The roll, done.
    pub roll: NotationRoll,
    /// Each notation die's settle time in each of its throws, seconds.
    pub settle_times: Vec<Vec<f32>>,
    /// Each notation die's physics re-throws (cocked, escaped), all throws together.
    pub rethrows: Vec<u32>,
    /// Every physical throw.
    pub throws: Vec<ThrowRecord>,
}

/// Throws a notation's dice physically until no open-ended die shows its top face.
pub fn roll_notation(
    notation: &Notation,
    seed: u64,
    gesture: Option<Gesture>,
    cocked: Cocked,
) -> Result<RolledNotation, RollError> {
    let roll = NotationRoll::start(notation, seed)?;
    let count = roll.dice().len();
    let mut settle_times = vec![Vec::new(); count];
    let mut rethrows = vec![0; count];
    let driving = drive(roll, |order| {
        let (t, result) = throw_request(&order.request(gesture), cocked)?;
        // Each notation die of the throw is one or two physical dice (a d100 is two).
        let mut settled = result.dice.iter();
        for (&i, &sides) in order.of.iter().zip(&order.sides) {
            let parts = crate::dice::physical_dice(sides).map_or(1, |d| d.len());
            let dice: Vec<_> = settled.by_ref().take(parts).collect();
            settle_times[i].push(dice.iter().map(|d| d.settle_time).fold(0.0, f32::max));
            rethrows[i] += dice.iter().map(|d| d.rethrows.total()).sum::<u32>();
        }
        Ok(t)
    });
    let (roll, throws) = driving.finished()?;
    Ok(RolledNotation {
        roll,
        settle_times,
        rethrows,
        throws,
    })
}

/// Rolls a notation and records it, total and verdict included.
pub fn record_notation(
    notation: &Notation,
    seed: u64,
    gesture: Option<Gesture>,
    cocked: Cocked,
) -> Result<(RolledNotation, RollRecord), RollError> {
    let rolled = roll_notation(notation, seed, gesture, cocked)?;
    let record = rolled.roll.record(rolled.throws.clone(), gesture, cocked);
    Ok((rolled, record))
}

/// Throws a roll's inputs again: the notation, or each listed throw in turn.
pub fn rethrow(inputs: &RollInputs) -> Result<Vec<ThrowRecord>, RollError> {
    match &inputs.dice {
        RollDice::Notation(text) => {
            let notation = Notation::parse(text)?;
            Ok(roll_notation(&notation, inputs.seed, inputs.gesture, inputs.cocked)?.throws)
        }
        RollDice::Throws(throws) => throws
            .iter()
            .enumerate()
            .map(|(n, dice)| {
                let request = nth_request(inputs.seed, n as u32, dice.clone(), inputs.gesture);
                throw_request(&request, inputs.cocked).map(|(t, _)| t)
            })
            .collect(),
    }
}

/// A throw's motion, sampled: every die's pose after each `every` physics steps, from the
/// release to the last die at rest.
#[derive(Clone, Debug, PartialEq)]
pub struct Motion {
    /// Samples per second of simulated time.
    pub hz: f64,
    /// Each sample: every die's pose, in throw order. The last is where they came to rest.
    pub frames: Vec<Vec<Pose>>,
}

/// Samples per second of simulated time when a throw's motion is sampled every `every` steps.
pub fn samples_per_second(every: u32) -> f64 {
    STEP_HZ / f64::from(every.max(1))
}

/// Throws one recorded throw again, sampling where its dice are, for a page that plays the
/// throw itself (the table server's room page). The dice must come to rest exactly where the
/// record says: a throw that re-simulates differently is an error, never shown as if it matched.
pub fn trace(
    throw: &ThrowRecord,
    gesture: Option<Gesture>,
    cocked: Cocked,
    every: u32,
) -> Result<Motion, RollError> {
    let every = every.max(1);
    let request = recorded_request(throw, gesture);
    let mut simulator = Simulator::with_steps(settle_rules(cocked), every);
    let roll = simulator.start(&request);
    let sample = |simulator: &mut Simulator| -> Vec<Pose> {
        simulator
            .poses(roll)
            .iter()
            .map(|p| Pose {
                t: p.translation.to_array(),
                r: p.rotation.to_array(),
            })
            .collect()
    };
    let mut frames = vec![sample(&mut simulator)];
    let budget = crate::physics::THROW_BUDGET_SECONDS;
    let max_frames = (budget * STEP_HZ) as usize / every as usize;
    loop {
        if frames.len() > max_frames {
            return Err(crate::physics::PhysicsError::NotSettled { seconds: budget }.into());
        }
        simulator.update();
        let finished = simulator.take_finished();
        if let Some(result) = finished.into_iter().next() {
            let again = throw_record(&request, &result);
            if again.poses != throw.poses || again.faces != throw.faces {
                return Err(RollError::Differs {
                    tag: throw.tag,
                    here: again.faces,
                    recorded: throw.faces.clone(),
                });
            }
            frames.push(again.poses);
            return Ok(Motion {
                hz: samples_per_second(every),
                frames,
            });
        }
        frames.push(sample(&mut simulator));
    }
}
