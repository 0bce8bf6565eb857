//! Roll records: the unit everything outside the window consumes. A record fully describes a
//! roll (what was thrown, seed, gesture, each throw's dice, faces and final poses, and a digest
//! of those poses) so that anyone can re-simulate it and check it (`dicetable replay`, through
//! `crate::roll::replay`). A replay code carries a record's inputs in a short string. The format
//! holds its own types: it is read by pages, stores and other builds, not by the physics.

pub mod code;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::dice::DieKind;
use crate::odds::Total;

/// The version of the record format (and of the replay code).
pub const FORMAT: u32 = 1;

/// The generation of the physics: raised whenever the same seed, gesture and dice may come to
/// rest differently (2: each roll a rapier3d world of its own without Bevy, 120 Hz steps; 3: no
/// extra whole turns in the throw's spin; 4: the random turn made by the die's first touch of the
/// felt or a wall, with the whole turns that bring its spin nearest the hand's; 5: a die thrown
/// again is tossed in over any part of the tray, not sent after the handful), so a record made
/// by an earlier physics says so when it re-simulates differently.
pub const PHYSICS_GENERATION: u32 = 5;

/// The generation of the rules: raised whenever a logged move may resolve differently or be
/// refused where it was taken (2: issue 47's readings of the texts: a dodge or parry aimed at one
/// attacker, an ambusher's stance paid in the surprise round, Push Luck keeping its assists, a
/// d20-check resource stepping up said so, ...; 3: a d4-pool Team Action is a move of its own,
/// linked to the roll it acts on; 4: who may make a move is the rules' word, move by move; 5:
/// d4-pool Team Actions are one feature, so a second ally's of the same effect on one roll is
/// refused; 6: an open-d6 Gauge Skill taken as a trigger follows the target's use of the
/// skill, a failed one tells only the gauger's own result, and a Combination Action's last
/// check, which Assist and Push Luck act on, is its second action's own). A
/// room's log is played by the rules of the generation its build names, so every log verifies
/// and opens as it was played.
pub const RULES_GENERATION: u32 = SEEN_GAUGES;

/// The rules generation that brought issue 47's readings of the texts: each rule that changed
/// then is played only by tables of this generation or later.
pub const CLOSE_READING: u32 = 2;

/// The rules generation from which a d4-pool Team Action is its own move (**Team action**: it
/// throws nothing and puts its Disadvantage on the roll it hinders); an Aspect roll of the kind
/// "team action" is refused, where earlier tables rolled it with nothing linked.
pub const LINKED_TEAM_ACTIONS: u32 = 3;

/// The rules generation from which each move says who may make it
/// ([`crate::rules::play::MadeBy`]): a game master's call for a roll, an easy challenge, a
/// resource changed by hand are the game master's alone, and the acting character's player ends
/// their own turn in a system file's turn order. Earlier rooms let a player make any move for a
/// character they play, and no player end a turn.
pub const RIGHTS_BY_MOVE: u32 = 4;

/// The rules generation from which d4-pool Team Actions are one source ("Multiple effects
/// from the same ability, feature, or condition do not stack"): a second ally's Team Action
/// giving the same roll the same effect is refused, where earlier tables counted one per ally.
pub const ONE_SOURCE_TEAM_ACTIONS: u32 = 5;

/// The rules generation from which an open-d6 Gauge Skill is as the text has it ("When you see
/// someone else use a skill … If you fail, you still know the result of your own roll"): a
/// gauge taken as a trigger action follows the target's use of that skill (else it is a Limit
/// Break), and a failed gauge's outcome gives the gauger's own result, not the target's rating.
/// Earlier tables accepted a trigger gauge whatever the target did, and showed the rating.
/// From the same generation a Combination Action leaves its second action as the last check,
/// with that check's own total and success (earlier: the first action's total, and success only
/// when both succeeded), so an Assist or a Push Luck after it reads the action it follows.
pub const SEEN_GAUGES: u32 = 6;

/// The rules generation a build string names ("… physics 5 rules 2 …"); 1 for a build older
/// than the rules generations.
pub fn rules_generation(build: &str) -> u32 {
    build
        .split_whitespace()
        .skip_while(|word| *word != "rules")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

/// The current rules generation, for rules read from a file (serde's default).
pub fn current_rules_generation() -> u32 {
    RULES_GENERATION
}

/// The physics generation a build string names ("dicetable 0.1.0 physics 5 x86_64-linux"), read
/// back from what [`build_id`] writes; None for a build older than the generations.
pub fn physics_generation(build: &str) -> Option<u32> {
    build
        .split_whitespace()
        .skip_while(|word| *word != "physics")
        .nth(1)
        .and_then(|n| n.parse().ok())
}

/// What build made a record: re-simulation is exact within one build and platform.
pub fn build_id() -> String {
    format!(
        "dicetable {} physics {PHYSICS_GENERATION} rules {RULES_GENERATION} {}-{}",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::ARCH,
        std::env::consts::OS
    )
}

/// The hand's swing of a throw made with a gesture: where it opened and how fast it moved.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Gesture {
    /// Where the hand opens, cm.
    pub release: [f32; 3],
    /// Velocity of the hand, cm/s.
    pub velocity: [f32; 3],
}

/// What the physics did with dice that came to rest cocked (on an edge or against a wall).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Cocked {
    /// Thrown again (the default).
    #[default]
    Rethrow,
    /// Nudged with a small push and left to fall again.
    Nudge,
}

/// What a roll threw: a dice notation, or a move of a scene under a ruleset.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Thrown {
    /// A free roll.
    Notation {
        /// The notation as typed.
        notation: String,
    },
    /// A move at a scene's table.
    Move {
        /// The ruleset id.
        ruleset: String,
        /// The scene's name.
        scene: String,
        /// The move in words.
        action: String,
    },
}

/// Where a die came to rest: position (cm) and orientation (x, y, z, w) of its geometry.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Pose {
    /// Position, cm.
    pub t: [f32; 3],
    /// Orientation quaternion (x, y, z, w).
    pub r: [f32; 4],
}

/// One physical throw of a roll.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ThrowRecord {
    /// The seed of this throw's parameters.
    pub seed: u64,
    /// Its number within the roll (0: the first).
    pub tag: u64,
    /// Whether the roll's gesture set this throw's swing (only the first throw's).
    pub gesture: bool,
    /// The physical dice, in throw order (ids of [`DieKind::id`]).
    #[serde(with = "die_ids")]
    pub dice: Vec<DieKind>,
    /// The value each die settled on.
    pub faces: Vec<u32>,
    /// How often each die was thrown again by the physics (cocked, escaped, too slow).
    pub rethrows: Vec<u32>,
    /// Where each die came to rest.
    pub poses: Vec<Pose>,
}

/// A finished roll, self-contained: enough to re-simulate it and check every face and pose.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RollRecord {
    /// The record format ([`FORMAT`]).
    pub format: u32,
    /// The build that made it ([`build_id`]).
    pub build: String,
    /// What was thrown.
    pub what: Thrown,
    /// Who threw, when someone is named (the roll API's `who`, a scene's character).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub who: Option<String>,
    /// What the roll was for, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The roll's seed (throw n's seed derives from it).
    pub seed: u64,
    /// The gesture of the first throw (None: its swing was drawn from the seed).
    pub gesture: Option<Gesture>,
    /// What happened to dice that came to rest cocked.
    pub cocked: Cocked,
    /// Every physical throw, in order.
    pub throws: Vec<ThrowRecord>,
    /// The faces the rules read: each notation die's chain of faces, or each throw's dice of
    /// a move.
    pub faces: Vec<Vec<u32>>,
    /// The total, where the roll has one (a fraction where a notation leaves a division
    /// unrounded: stored as "11/2", a whole total as the number it always was).
    pub total: Option<Total>,
    /// The outcome in words ("success", "partial success", ...), where there is one.
    pub outcome: Option<String>,
    /// The outcome class's id ([`crate::rules::ClassId`]: `marginal_success`) of a move: what
    /// a room's log of format 3 compares, where the words above may be reworded by a later build.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome_id: Option<String>,
    /// SHA-256 (hex) of every throw's final poses ([`digest`]).
    pub digest: String,
}

/// What the rules asked for, to throw again: a notation, or each throw's dice.
#[derive(Clone, Debug, PartialEq)]
pub enum RollDice {
    /// A notation (its re-throws follow from its faces).
    Notation(String),
    /// The physical dice of each throw, in order.
    Throws(Vec<Vec<DieKind>>),
}

/// A roll's inputs: what a replay code carries.
#[derive(Clone, Debug, PartialEq)]
pub struct RollInputs {
    /// The dice.
    pub dice: RollDice,
    /// The roll's seed.
    pub seed: u64,
    /// The gesture of the first throw.
    pub gesture: Option<Gesture>,
    /// The cocked-dice policy.
    pub cocked: Cocked,
}

impl RollRecord {
    /// A record of `throws`, with its digest.
    pub fn new(what: Thrown, inputs: &RollInputs, throws: Vec<ThrowRecord>) -> RollRecord {
        RollRecord {
            format: FORMAT,
            build: build_id(),
            what,
            who: None,
            label: None,
            seed: inputs.seed,
            gesture: inputs.gesture,
            cocked: inputs.cocked,
            digest: digest(&throws),
            throws,
            faces: Vec::new(),
            total: None,
            outcome: None,
            outcome_id: None,
        }
    }

    /// The inputs to throw it again: the notation of a free roll, each throw's dice of a move.
    pub fn inputs(&self) -> RollInputs {
        RollInputs {
            dice: match &self.what {
                Thrown::Notation { notation } => RollDice::Notation(notation.clone()),
                Thrown::Move { .. } => {
                    RollDice::Throws(self.throws.iter().map(|t| t.dice.clone()).collect())
                }
            },
            seed: self.seed,
            gesture: self.gesture,
            cocked: self.cocked,
        }
    }

    /// Its replay code.
    pub fn code(&self) -> String {
        code::encode(&self.inputs(), &self.digest)
    }

    /// Every physical die thrown, across throws.
    pub fn dice_thrown(&self) -> usize {
        self.throws.iter().map(|t| t.dice.len()).sum()
    }
}

/// SHA-256 over every throw's final poses (the count of dice, then each die's position and
/// orientation as little-endian f32), lower-case hex.
pub fn digest(throws: &[ThrowRecord]) -> String {
    let mut hash = Sha256::new();
    for throw in throws {
        hash.update((throw.poses.len() as u32).to_le_bytes());
        for pose in &throw.poses {
            for x in pose.t.iter().chain(&pose.r) {
                hash.update(x.to_le_bytes());
            }
        }
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Dice as their ids in JSON.
mod die_ids {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use crate::dice::DieKind;

    pub fn serialize<S: Serializer>(dice: &[DieKind], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(dice.iter().map(|d| d.id()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<DieKind>, D::Error> {
        let ids = Vec::<String>::deserialize(d)?;
        ids.iter()
            .map(|id| {
                DieKind::from_id(id).ok_or_else(|| {
                    D::Error::custom(format!(
                        "'{id}' is not a die: use d4, d6, d8, d10, d10t, d12 or d20"
                    ))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn throw(poses: Vec<Pose>) -> ThrowRecord {
        ThrowRecord {
            seed: 1,
            tag: 0,
            gesture: false,
            dice: vec![DieKind::D6; poses.len()],
            faces: vec![1; poses.len()],
            rethrows: vec![0; poses.len()],
            poses,
        }
    }

    #[test]
    fn the_digest_is_sha256_of_the_poses() {
        // Empty input: SHA-256 of the four bytes 0, 0, 0, 0 (a throw of no dice).
        assert_eq!(
            digest(&[throw(vec![])]),
            "df3f619804a92fdb4057192dc43dd748ea778adc52bc498ce80524c014b81119"
        );
        let a = throw(vec![Pose {
            t: [1.0, 2.0, 3.0],
            r: [0.0, 0.0, 0.0, 1.0],
        }]);
        let mut b = a.clone();
        b.poses[0].t[2] = 3.000_000_2;
        assert_ne!(digest(std::slice::from_ref(&a)), digest(&[b]));
        assert_eq!(digest(std::slice::from_ref(&a)).len(), 64);
        // Faces are not part of the digest: it seals the transforms.
        let mut c = a.clone();
        c.faces[0] = 6;
        assert_eq!(digest(&[a]), digest(&[c]));
    }

    #[test]
    fn a_record_reads_back_from_its_json() {
        let inputs = RollInputs {
            dice: RollDice::Notation("2d6+1".into()),
            seed: u64::MAX,
            gesture: Some(Gesture {
                release: [0.5, 9.0, -3.25],
                velocity: [10.0, -1.0, 55.5],
            }),
            cocked: Cocked::Nudge,
        };
        let mut record = RollRecord::new(
            Thrown::Notation {
                notation: "2d6+1".into(),
            },
            &inputs,
            vec![throw(vec![
                Pose {
                    t: [0.1, 0.8, -2.7],
                    r: [0.1, 0.2, 0.3, 0.927_361_9],
                };
                2
            ])],
        );
        record.total = Some(Total::whole(8));
        let json = serde_json::to_string(&record).expect("serialises");
        assert!(json.contains(r#""kind":"notation""#), "{json}");
        assert!(json.contains(r#""dice":["d6","d6"]"#), "{json}");
        assert!(json.contains(r#""cocked":"nudge""#), "{json}");
        let back: RollRecord = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, record);
        assert_eq!(back.inputs(), inputs);
    }

    #[test]
    fn a_record_with_an_unknown_field_or_die_is_refused() {
        let inputs = RollInputs {
            dice: RollDice::Throws(vec![vec![DieKind::D20]]),
            seed: 3,
            gesture: None,
            cocked: Cocked::Rethrow,
        };
        let record = RollRecord::new(
            Thrown::Move {
                ruleset: "d20-check".into(),
                scene: "s".into(),
                action: "a".into(),
            },
            &inputs,
            vec![],
        );
        let json = serde_json::to_string(&record).expect("serialises");
        let extra = json.replacen('{', r#"{"cheat":1,"#, 1);
        let err = serde_json::from_str::<RollRecord>(&extra).expect_err("unknown field");
        assert!(err.to_string().contains("unknown field `cheat`"), "{err}");
        let t = throw(vec![]);
        let mut with_throw = record.clone();
        with_throw.throws.push(t);
        let json = serde_json::to_string(&with_throw)
            .expect("serialises")
            .replace(r#""dice":[]"#, r#""dice":["d31"]"#);
        let err = serde_json::from_str::<RollRecord>(&json).expect_err("no d31");
        assert!(err.to_string().contains("'d31' is not a die"), "{err}");
    }
}
