//! Checking a record or a replay code: throw its inputs again headless and compare every face
//! and final pose (bit for bit) with what was recorded.

use super::RollError;
use super::headless::{record_notation, rethrow};
use crate::dice::{self, DieKind};
use crate::record::code::{self, CHECK_BYTES, CodeError};
use crate::record::{
    FORMAT, RollDice, RollInputs, RollRecord, ThrowRecord, Thrown, build_id, digest,
};

/// Why a record or a code could not be re-simulated at all (a difference is not an error: it
/// is what the check found).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// A record of a format this build does not read.
    #[error("record format {0} is not known to this build (it reads format {FORMAT})")]
    Format(u32),
    /// Not a replay code.
    #[error(transparent)]
    Code(#[from] CodeError),
    /// A replay code of a move that lists no throws.
    #[error("the replay code lists no throws")]
    NoThrows,
    /// The roll could not be thrown again (its notation, its dice, the physics).
    #[error(transparent)]
    Roll(#[from] RollError),
}

impl From<crate::odds::notation::NotationError> for ReplayError {
    fn from(e: crate::odds::notation::NotationError) -> Self {
        ReplayError::Roll(e.into())
    }
}

/// What a re-simulation found.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// Every difference, in words (none: identical).
    pub differences: Vec<String>,
    /// Things worth knowing that are not differences (another build made the record).
    pub notes: Vec<String>,
    /// The throws as re-simulated.
    pub throws: Vec<ThrowRecord>,
    /// The digest of the re-simulated poses.
    pub digest: String,
}

impl Check {
    /// True when the re-simulation matches in every face and pose.
    pub fn identical(&self) -> bool {
        self.differences.is_empty()
    }
}

/// Re-simulates a record and compares it with what it says.
pub fn check_record(record: &RollRecord) -> Result<Check, ReplayError> {
    if record.format != FORMAT {
        return Err(ReplayError::Format(record.format));
    }
    let inputs = record.inputs();
    let mut differences = Vec::new();
    let throws = match &record.what {
        Thrown::Notation { notation } => {
            let notation = super::recorded_notation(notation, record)?;
            let (_, again) =
                record_notation(&notation, record.seed, record.gesture, record.cocked)?;
            if again.faces != record.faces {
                differences.push(format!(
                    "the notation's faces: recorded {:?}, re-simulated {:?}",
                    record.faces, again.faces
                ));
            }
            if again.total != record.total {
                differences.push(format!(
                    "the total: recorded {}, re-simulated {}",
                    shown(record.total),
                    shown(again.total)
                ));
            }
            again.throws
        }
        Thrown::Move { .. } => {
            let throws = rethrow(&inputs)?;
            let faces: Vec<Vec<u32>> = throws.iter().map(faces_of).collect();
            if faces != record.faces {
                differences.push(format!(
                    "the move's faces: recorded {:?}, re-simulated {:?}",
                    record.faces, faces
                ));
            }
            throws
        }
    };
    differences.extend(compare_throws(&record.throws, &throws));
    if digest(&record.throws) != record.digest {
        differences.push("the recorded digest does not match the recorded poses".into());
    }
    Ok(Check {
        digest: digest(&throws),
        differences,
        notes: build_note(&record.build),
        throws,
    })
}

/// Re-simulates a replay code and compares the poses' digest with the one it carries.
pub fn check_code(text: &str) -> Result<(RollInputs, Check), ReplayError> {
    let code = code::decode(text)?;
    let throws = rethrow(&code.inputs)?;
    let sealed = digest(&throws);
    let mut differences = Vec::new();
    if sealed[..2 * CHECK_BYTES] != code.check {
        differences.push(format!(
            "the final poses: the code's digest starts {}, the re-simulation's {}",
            code.check,
            &sealed[..2 * CHECK_BYTES]
        ));
    }
    if let RollDice::Throws(listed) = &code.inputs.dice
        && listed.is_empty()
    {
        return Err(ReplayError::NoThrows);
    }
    Ok((
        code.inputs,
        Check {
            differences,
            notes: Vec::new(),
            throws,
            digest: sealed,
        },
    ))
}

/// The rules' faces of a recorded throw: a d100 is its tens and units dice read together.
pub fn faces_of(throw: &ThrowRecord) -> Vec<u32> {
    dice::rules_faces(&dice::rules_sides(&throw.dice), &throw.faces)
}

fn shown(total: Option<crate::odds::Total>) -> String {
    total.map_or("none".into(), |t| t.to_string())
}

fn build_note(build: &str) -> Vec<String> {
    if build == build_id() {
        Vec::new()
    } else {
        vec![format!(
            "recorded by {build}, re-simulated by {}: physics is exact within one build",
            build_id()
        )]
    }
}

/// Every difference between recorded and re-simulated throws.
pub fn compare_throws(recorded: &[ThrowRecord], again: &[ThrowRecord]) -> Vec<String> {
    let mut out = Vec::new();
    if recorded.len() != again.len() {
        out.push(format!(
            "the number of throws: recorded {}, re-simulated {}",
            recorded.len(),
            again.len()
        ));
    }
    for (n, (r, a)) in recorded.iter().zip(again).enumerate() {
        let throw = n + 1;
        if r.dice != a.dice {
            out.push(format!(
                "throw {throw}: the dice: recorded {:?}, re-simulated {:?}",
                ids(&r.dice),
                ids(&a.dice)
            ));
            continue;
        }
        if (r.seed, r.tag, r.gesture) != (a.seed, a.tag, a.gesture) {
            out.push(format!(
                "throw {throw}: seed {} tag {} recorded, {} and {} follow from the roll's seed",
                r.seed, r.tag, a.seed, a.tag
            ));
        }
        for (i, kind) in r.dice.iter().enumerate() {
            let die = format!("throw {throw}, die {} ({})", i + 1, kind.id());
            let (rf, af) = (r.faces.get(i), a.faces.get(i));
            if rf != af {
                out.push(format!(
                    "{die}: face {} recorded, {} re-simulated",
                    opt(rf),
                    opt(af)
                ));
            }
            if r.rethrows.get(i) != a.rethrows.get(i) {
                out.push(format!(
                    "{die}: {} re-throws recorded, {} re-simulated",
                    opt(r.rethrows.get(i)),
                    opt(a.rethrows.get(i))
                ));
            }
            if r.poses.get(i) != a.poses.get(i) {
                out.push(format!(
                    "{die}: final pose {:?} recorded, {:?} re-simulated",
                    r.poses.get(i),
                    a.poses.get(i)
                ));
            }
        }
    }
    out
}

fn ids(dice: &[DieKind]) -> Vec<&'static str> {
    dice.iter().map(|d| d.id()).collect()
}

fn opt(x: Option<&u32>) -> String {
    x.map_or("none".into(), u32::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odds::notation::Notation;
    use crate::record::{Cocked, Pose, RollDice};
    use crate::roll::headless::{nth_request, throw_request};

    fn rolled(notation: &str, seed: u64) -> RollRecord {
        let n = Notation::parse(notation).expect("notation");
        record_notation(&n, seed, None, Cocked::Rethrow)
            .expect("rolls")
            .1
    }

    fn throw_once(seed: u64, n: u32, dice: Vec<DieKind>) -> ThrowRecord {
        throw_request(&nth_request(seed, n, dice, None), Cocked::Rethrow)
            .expect("throws")
            .0
    }

    #[test]
    fn a_fresh_record_replays_identically() {
        let record = rolled("2d6+d100", 11);
        let check = check_record(&record).expect("checks");
        assert_eq!(check.differences, Vec::<String>::new());
        assert_eq!(check.digest, record.digest);
        let (inputs, by_code) = check_code(&record.code()).expect("code checks");
        assert_eq!(inputs, record.inputs());
        assert!(by_code.identical(), "{:?}", by_code.differences);
    }

    #[test]
    fn a_tampered_face_or_pose_is_found() {
        let record = rolled("3d6", 4);
        let mut tampered = record.clone();
        tampered.throws[0].faces[1] = tampered.throws[0].faces[1] % 6 + 1;
        let check = check_record(&tampered).expect("checks");
        assert_eq!(
            check.differences,
            vec![format!(
                "throw 1, die 2 (d6): face {} recorded, {} re-simulated",
                tampered.throws[0].faces[1], record.throws[0].faces[1]
            )]
        );
        let mut moved = record.clone();
        moved.throws[0].poses[0] = Pose {
            t: [0.0, 0.8, 0.0],
            ..moved.throws[0].poses[0]
        };
        let check = check_record(&moved).expect("checks");
        assert_eq!(check.differences.len(), 2, "{:?}", check.differences);
        assert!(check.differences[1].contains("digest does not match"));
    }

    #[test]
    fn a_move_record_replays_its_throws() {
        let first = throw_once(9, 0, vec![DieKind::D10Tens, DieKind::D10]);
        let second = throw_once(9, 1, vec![DieKind::D20]);
        let inputs = RollInputs {
            dice: RollDice::Throws(vec![first.dice.clone(), second.dice.clone()]),
            seed: 9,
            gesture: None,
            cocked: Cocked::Rethrow,
        };
        let mut record = RollRecord::new(
            Thrown::Move {
                ruleset: "d20-check".into(),
                scene: "test".into(),
                action: "two throws".into(),
            },
            &inputs,
            vec![first.clone(), second.clone()],
        );
        record.faces = vec![faces_of(&first), faces_of(&second)];
        assert!(check_record(&record).expect("checks").identical());
        let (_, by_code) = check_code(&record.code()).expect("code");
        assert!(by_code.identical());
        record.faces[1][0] = if record.faces[1][0] == 20 { 1 } else { 20 };
        assert_eq!(check_record(&record).expect("checks").differences.len(), 1);
    }

    #[test]
    fn unreadable_inputs_are_errors_not_differences() {
        let mut record = rolled("d4", 1);
        record.what = Thrown::Notation {
            notation: "3q6".into(),
        };
        assert!(check_record(&record).is_err());
        record.format = 7;
        assert_eq!(check_record(&record), Err(ReplayError::Format(7)));
        assert!(check_code("dt1-").is_err());
    }
}
