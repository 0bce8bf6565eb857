//! The feed: what happens at the table, as versioned JSON events, one per WebSocket text
//! message on `/feed`. The overlay page uses nothing else. Every event carries `"v": 1` and a
//! `"type"`; `docs/streaming.md` documents each.

use serde::Serialize;

use crate::dice::DieKind;
use crate::dice::marks::{FaceMarks, Mark};
use crate::dice::style::DieStyle;
use crate::dice::style::{Material, Rgb, Surface, Typeface};
use crate::errors::ErrorCode;
use crate::record::{Pose, RollRecord};

/// The feed's version: a change that breaks a reader raises it.
pub const FEED_VERSION: u32 = 1;

/// One die as the page draws it: its kind, colours and material.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct FeedDie {
    /// [`crate::dice::DieKind::id`].
    pub kind: &'static str,
    /// Body colour, "#rrggbb".
    pub body: String,
    /// Numbers' colour, "#rrggbb" (readable on the body: [`crate::dice::style`]).
    pub ink: String,
    /// What it is made of (absent: plastic, as pages drew every die before materials).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
    /// How the page draws that material (with `material`): the numbers every client uses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub surface: Option<Surface>,
    /// The numerals' typeface (absent: sans).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub typeface: Option<Typeface>,
    /// A game's own die: its faces' marks, as the atlas address takes them
    /// ([`FaceMarks::key`]: each face's mark and a '|'; absent: numbers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marks: Option<String>,
    /// A game's own die: each face's mark in words, face 1 first (for what a page announces).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reads: Option<Vec<String>>,
}

impl FeedDie {
    /// A die of `kind` as `style` draws it.
    pub fn of(kind: DieKind, style: DieStyle) -> FeedDie {
        let made_of = Some(style.material).filter(|m| *m != Material::Plastic);
        FeedDie {
            kind: kind.id(),
            body: hex(style.body),
            ink: hex(style.ink),
            material: made_of,
            surface: made_of.map(Material::surface),
            typeface: Some(style.typeface).filter(|t| !t.is_sans()),
            marks: None,
            reads: None,
        }
        .marked(style.marks_for(kind).as_ref())
    }

    /// The die with a game's own marks on its faces (none: as it is, numbers or its style's
    /// pips).
    pub fn marked(mut self, marks: Option<&FaceMarks>) -> FeedDie {
        if let Some(marks) = marks {
            self.marks = Some(marks.key());
            self.reads = Some(marks.0.iter().map(Mark::shown).collect());
        }
        self
    }
}

/// The exact chance of success of what is about to be thrown.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Chance {
    /// As a percentage, for the screen ("41.67%").
    pub percent: String,
    /// As an exact fraction ("5/12").
    pub exact: String,
    /// As a number between 0 and 1.
    pub p: f64,
}

/// Who threw and what for, as the overlay shows it.
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct Byline {
    /// Who rolls (None: the table's player).
    pub who: Option<String>,
    /// Their colour, "#rrggbb".
    pub colour: String,
    /// What for.
    pub label: Option<String>,
    /// What is thrown ("3d6+2", or the move in words).
    pub what: String,
}

/// An event of the feed.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FeedEvent {
    /// First to every new connection: the table now, and the latest outcomes (oldest first).
    Hello {
        /// The table.
        table: TableInfo,
        /// The latest outcomes.
        recent: Vec<FeedEvent>,
    },
    /// Something is about to be thrown (the roll API's request, the scene's drafted move),
    /// with its exact chance of success where it has one.
    Drafted {
        /// Who and what.
        by: Byline,
        /// The chance of success.
        chance: Option<Chance>,
    },
    /// Dice left the hand.
    Throw {
        /// The roll (counts from 1 since the table opened).
        roll: u64,
        /// The throw within the roll (0: the first; open-ended dice are thrown again).
        throw: u64,
        /// Who and what.
        by: Byline,
        /// The dice, in throw order.
        dice: Vec<FeedDie>,
        /// Where they start.
        poses: Vec<[f32; 7]>,
    },
    /// Where the dice that moved are: every 4 physics steps (30 a second of simulated time),
    /// positions in cm and orientations (x, y, z, w), rounded to 3 decimals. A die at rest is
    /// not sent again.
    Poses {
        /// The roll.
        roll: u64,
        /// The throw.
        throw: u64,
        /// Physics steps since the throw (120 a second).
        step: u32,
        /// Which dice moved (their places in the throw).
        dice: Vec<usize>,
        /// Each of those dice: x, y, z, qx, qy, qz, qw.
        poses: Vec<[f32; 7]>,
    },
    /// A throw's dice are all at rest: their faces and exact final poses.
    Settled {
        /// The roll.
        roll: u64,
        /// The throw.
        throw: u64,
        /// The value each die shows.
        faces: Vec<u32>,
        /// Exact final poses (as simulated, not rounded).
        poses: Vec<[f32; 7]>,
    },
    /// The roll is over: what it came to, its record and replay code.
    Outcome {
        /// The roll.
        roll: u64,
        /// Who and what.
        by: Byline,
        /// The total: a number, or a fraction's exact text ("11/2") where a notation leaves a
        /// division unrounded.
        total: Option<crate::odds::Total>,
        /// The outcome in words.
        outcome: Option<String>,
        /// The faces the rules read.
        faces: Vec<Vec<u32>>,
        /// A free roll written out, every die as shown: `(4+3+4+(2))+1 = 12`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shown: Option<String>,
        /// The replay code.
        code: String,
        /// What each die of the last throw reads where it lies (shown over it, as the window's
        /// "Values over dice" shows them).
        readings: Vec<String>,
        /// A move's outcome as the rules worked it out, as the window shows it: the arithmetic
        /// step by step ("22 − Evasion 11 = 11 damage") and its special results ("boxcars:
        /// windfall"); empty for a free roll.
        #[serde(skip_serializing_if = "Explained::is_empty")]
        explained: Explained,
        /// The record.
        record: Box<RollRecord>,
        /// When the app saw the last die settle (ms since the Unix epoch), for latency.
        settled_at_ms: u64,
    },
    /// The seated scene and whose turn it is.
    Table(TableInfo),
    /// A whole throw at once, for a page that plays it itself (the table server's room page,
    /// which follows a log rather than a window): the dice and where each is at every sample,
    /// the last sample where they came to rest. Its roll's `outcome` follows.
    Motion {
        /// The roll (the entry's `seq` in the room's log).
        roll: u64,
        /// The throw within the roll.
        throw: u64,
        /// Who and what.
        by: Byline,
        /// The dice, in throw order.
        dice: Vec<FeedDie>,
        /// Samples per second of simulated time.
        hz: f64,
        /// Each sample: every die's pose (x, y, z, qx, qy, qz, qw), rounded to 3 decimals but
        /// the last, which is exact.
        frames: Vec<Vec<[f32; 7]>>,
    },
    /// Someone rolled hidden dice: who, the dice, the mode in words; their result comes when
    /// revealed.
    Hidden {
        /// The roll (the entry's `seq`).
        roll: u64,
        /// Who and what.
        by: Byline,
    },
    /// The answer to a page's `unseal` of a hidden roll: its motions came before this (the
    /// page holds the roll's salt, so its member may see it), or why none came.
    Unsealed {
        /// The roll (the entry's `seq`).
        roll: u64,
        /// Why its dice are not drawn (a salt that is not the roll's, a roll revealed or not
        /// hidden); absent when its motions came.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<ErrorCode>,
        /// Each die's value where it lies, as an outcome's `readings` (absent when refused).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        readings: Vec<String>,
    },
    /// The page cannot follow (a wrong passcode, a room that is not there): why.
    Error {
        /// What is wrong, for programs.
        code: ErrorCode,
        /// What is wrong, in words.
        error: String,
        /// Where waiting helps (`busy`): how long to wait before opening again, in ms; the
        /// page opens again by itself after it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<u64>,
    },
}

/// A move's outcome in full, for a page to show what the window shows: the rules' arithmetic,
/// the special results and what the move changed at the table. Display only: a page checks the
/// record, never these words.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Explained {
    /// The arithmetic, step by step.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    /// Special results and what they trigger.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// What the move changed at the table.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
}

impl Explained {
    /// Nothing to explain (a free roll).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.tags.is_empty() && self.changed.is_empty()
    }
}

/// What each die of a roll's last throw reads where it came to rest ("40" on a tens die, "+"
/// on a Fate die), in throw order: a page shows each over its die.
pub fn readings(record: &RollRecord) -> Vec<String> {
    record
        .throws
        .last()
        .map(|t| {
            t.dice
                .iter()
                .zip(&t.faces)
                .map(|(kind, face)| kind.reading(*face))
                .collect()
        })
        .unwrap_or_default()
}

/// The table as the overlay names it.
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct TableInfo {
    /// The scene's name.
    pub scene: Option<String>,
    /// The ruleset id.
    pub ruleset: Option<String>,
    /// Whose turn, in words.
    pub turn: Option<String>,
    /// The game played by its own name where a system file names it ("Moves: 2d6 + stat");
    /// `ruleset` names a shipped one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// What is going on and how the game resolves it: the scene's description, then a system
    /// file's own paragraph.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub about: Option<String>,
}

/// An event with the feed's version: what goes on the wire.
#[derive(Serialize)]
struct Envelope<'a> {
    v: u32,
    #[serde(flatten)]
    event: &'a FeedEvent,
}

impl FeedEvent {
    /// The event as one line of JSON, versioned.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&Envelope {
            v: FEED_VERSION,
            event: self,
        })
        .unwrap_or_else(|e| format!(r#"{{"v":{FEED_VERSION},"type":"error","error":"{e}"}}"#))
    }
}

/// A pose as 7 numbers: position, then orientation.
pub fn flat(pose: &Pose) -> [f32; 7] {
    let [x, y, z] = pose.t;
    let [qx, qy, qz, qw] = pose.r;
    [x, y, z, qx, qy, qz, qw]
}

/// A pose as 7 numbers rounded to 3 decimals (0.01 mm, a few hundredths of a degree): what
/// the live poses need, in a third of the bytes.
pub fn rounded(pose: &Pose) -> [f32; 7] {
    flat(pose).map(|x| (x * 1000.0).round() / 1000.0)
}

/// "#rrggbb" of an sRGB colour.
pub fn hex(rgb: [u8; 3]) -> String {
    Rgb(rgb).hex()
}

/// The sRGB colour of "#rrggbb" (or "rrggbb"): the inverse of [`hex`].
pub fn parse_hex(text: &str) -> Option<[u8; 3]> {
    Rgb::parse(text).map(|c| c.0)
}

/// A colour for a name that has none: the same name, the same colour.
pub fn colour_of(who: Option<&str>) -> String {
    const PALETTE: [[u8; 3]; 8] = [
        [230, 80, 80],
        [80, 160, 240],
        [90, 200, 120],
        [240, 180, 60],
        [180, 110, 230],
        [60, 200, 200],
        [240, 120, 180],
        [200, 200, 200],
    ];
    let Some(who) = who else {
        return hex([236, 228, 210]);
    };
    let h = who.bytes().fold(2_166_136_261u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(16_777_619)
    });
    hex(PALETTE[h as usize % PALETTE.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_carry_the_version_and_their_type() {
        let e = FeedEvent::Poses {
            roll: 3,
            throw: 0,
            step: 16,
            dice: vec![2],
            poses: vec![rounded(&Pose {
                t: [1.234_567, 0.8, -2.0],
                r: [0.0, 0.6, 0.0, 0.8],
            })],
        };
        assert_eq!(
            e.to_json(),
            r#"{"v":1,"type":"poses","roll":3,"throw":0,"step":16,"dice":[2],"poses":[[1.235,0.8,-2.0,0.0,0.6,0.0,0.8]]}"#
        );
        let t = FeedEvent::Table(TableInfo {
            scene: Some("Goblin ambush".into()),
            ruleset: Some("d20-check".into()),
            turn: None,
            ..TableInfo::default()
        });
        assert_eq!(
            t.to_json(),
            r#"{"v":1,"type":"table","scene":"Goblin ambush","ruleset":"d20-check","turn":null}"#
        );
    }

    #[test]
    fn a_name_keeps_its_colour() {
        assert_eq!(colour_of(Some("Vex")), colour_of(Some("Vex")));
        assert_eq!(colour_of(None), "#ece4d2");
        assert_eq!(hex([1, 171, 255]), "#01abff");
        assert_eq!(parse_hex("#01abff"), Some([1, 171, 255]));
        assert_eq!(parse_hex("01ABFF"), Some([1, 171, 255]));
        assert_eq!(parse_hex("+1abff"), None);
        assert_eq!(parse_hex("#01abf"), None);
    }
}
