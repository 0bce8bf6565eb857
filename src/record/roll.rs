//! Rolling headless: a notation's dice thrown physically until no open-ended die shows its top
//! face (each re-throw a new physical throw), or a record's throws thrown again one by one.
//! `roll`, the replay checker and the tests share it; the window throws the same throws.

use super::{Gesture, Pose, RollDice, RollInputs, RollRecord, ThrowRecord, Thrown, throw_request};
use crate::dice::DieKind;
use crate::physics::SettleRules;
use crate::physics::headless::Simulator;
use crate::physics::notation::{physical_dice, record_faces};
use crate::rules::notation::{Notation, NotationDie, open_ended_rethrows};

/// Most throws one roll may take (open-ended dice keep coming up).
pub const MAX_THROWS: u32 = 64;

/// A notation thrown physically.
#[derive(Debug)]
pub struct NotationRoll {
    /// The notation's dice.
    pub dice: Vec<NotationDie>,
    /// Each notation die's chain of faces.
    pub chains: Vec<Vec<u32>>,
    /// Each notation die's settle time in each of its throws, seconds.
    pub settle_times: Vec<Vec<f32>>,
    /// Each notation die's physics re-throws (cocked, escaped), all throws together.
    pub rethrows: Vec<u32>,
    /// Every physical throw.
    pub throws: Vec<ThrowRecord>,
}

/// Throws one throw in a fresh simulator (a throw's world holds nothing else, see
/// physics::headless, so the window reproduces it exactly).
pub fn throw_once(
    rules: &SettleRules,
    seed: u64,
    n: u32,
    dice: Vec<DieKind>,
    gesture: Option<Gesture>,
) -> Result<ThrowRecord, String> {
    let request = throw_request(seed, n, dice, gesture);
    let result = Simulator::new(rules.clone()).roll(&request)?;
    Ok(ThrowRecord::new(&request, &result))
}

/// Throws a notation's dice physically until no open-ended die shows its top face.
pub fn roll_notation(
    rules: &SettleRules,
    notation: &Notation,
    seed: u64,
    gesture: Option<Gesture>,
) -> Result<NotationRoll, String> {
    let dice = notation.dice();
    if dice.is_empty() {
        return Err("the notation throws no dice".into());
    }
    let mut roll = NotationRoll {
        chains: vec![Vec::new(); dice.len()],
        settle_times: vec![Vec::new(); dice.len()],
        rethrows: vec![0; dice.len()],
        throws: Vec::new(),
        dice,
    };
    let mut to_throw: Vec<usize> = (0..roll.dice.len()).collect();
    let mut n = 0;
    while !to_throw.is_empty() {
        if n >= MAX_THROWS {
            return Err(format!(
                "open-ended dice kept coming up for {MAX_THROWS} throws"
            ));
        }
        let request = throw_request(seed, n, physical_dice(&roll.dice, &to_throw)?, gesture);
        let result = Simulator::new(rules.clone()).roll(&request)?;
        for (&i, (time, rethrows)) in to_throw.iter().zip(record_faces(
            &roll.dice,
            &to_throw,
            &result.dice,
            &mut roll.chains,
        )) {
            roll.settle_times[i].push(time);
            roll.rethrows[i] += rethrows;
        }
        roll.throws.push(ThrowRecord::new(&request, &result));
        n += 1;
        to_throw = open_ended_rethrows(&roll.dice, &roll.chains);
    }
    Ok(roll)
}

/// Rolls a notation and records it, total and verdict included.
pub fn record_notation(
    rules: &SettleRules,
    notation: &Notation,
    seed: u64,
    gesture: Option<Gesture>,
) -> Result<(NotationRoll, RollRecord), String> {
    let roll = roll_notation(rules, notation, seed, gesture)?;
    let result = notation.evaluate(&roll.chains)?;
    let inputs = RollInputs {
        dice: RollDice::Notation(notation.source().to_string()),
        seed,
        gesture,
        cocked: rules.cocked,
    };
    let mut record = RollRecord::new(
        Thrown::Notation {
            notation: notation.source().to_string(),
        },
        &inputs,
        roll.throws.clone(),
    );
    record.faces = roll.chains.clone();
    record.total = Some(result.total);
    record.outcome = result
        .success
        .map(|ok| if ok { "success" } else { "failure" }.to_string());
    Ok((roll, record))
}

/// Throws a roll's inputs again: the notation, or each listed throw in turn.
pub fn rethrow(inputs: &RollInputs) -> Result<Vec<ThrowRecord>, String> {
    let rules = SettleRules {
        cocked: inputs.cocked,
        ..SettleRules::default()
    };
    match &inputs.dice {
        RollDice::Notation(text) => {
            let notation = Notation::parse(text).map_err(|e| e.to_string())?;
            Ok(roll_notation(&rules, &notation, inputs.seed, inputs.gesture)?.throws)
        }
        RollDice::Throws(throws) => throws
            .iter()
            .enumerate()
            .map(|(n, dice)| {
                throw_once(&rules, inputs.seed, n as u32, dice.clone(), inputs.gesture)
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

/// Throws one recorded throw again, sampling where its dice are, for a page that plays the
/// throw itself (the table server's room page). The dice must come to rest exactly where the
/// record says: a throw that re-simulates differently is an error, never shown as if it matched.
pub fn trace(
    throw: &ThrowRecord,
    gesture: Option<Gesture>,
    cocked: crate::physics::CockedPolicy,
    every: u32,
) -> Result<Motion, String> {
    let every = every.max(1);
    let rules = SettleRules {
        cocked,
        ..SettleRules::default()
    };
    let request = crate::physics::ThrowRequest {
        seed: throw.seed,
        tag: throw.tag,
        dice: throw.dice.clone(),
        swing: gesture
            .filter(|_| throw.gesture)
            .map(crate::physics::throw::Swing::from),
    };
    let mut simulator = Simulator::with_steps(rules, every);
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
    let max_frames = (600.0 * crate::physics::STEP_HZ) as usize / every as usize;
    loop {
        if frames.len() > max_frames {
            return Err("the dice did not settle within 600 s of simulated time".into());
        }
        simulator.update();
        let finished = simulator.take_finished();
        if let Some(result) = finished.into_iter().next() {
            let again = ThrowRecord::new(&request, &result);
            if again.poses != throw.poses || again.faces != throw.faces {
                return Err(format!(
                    "throw {} re-simulated differently here (faces {:?}, the record's {:?})",
                    throw.tag, again.faces, throw.faces
                ));
            }
            frames.push(again.poses);
            return Ok(Motion {
                hz: crate::physics::STEP_HZ / f64::from(every),
                frames,
            });
        }
        frames.push(sample(&mut simulator));
    }
}
