//! A room's log: one JSON line per entry, append-only, hash-chained (`prev` is the hash of the
//! line before). The log is the room: replaying it from the first line rebuilds the table, and
//! `dicetable verify` checks it offline. The stored line is the unit on the wire and on disk, so
//! the chain holds byte for byte.

use serde::{Deserialize, Serialize};

use super::seal::{self, GENESIS};
use crate::errors::ErrorCode;
use crate::record::{Gesture, RollRecord};
use crate::rules::play::Move;

/// The version of the log format this build writes. Format 1 (the first logs) hashed the
/// table's state as the tracker words it (state version 1) and checked each entry's `said`
/// lines word for word; from format 2 an entry's state digest is of the rules' typed state alone
/// (state version 2) and `said` is for people, so rewording a rule's sentences breaks no log;
/// from format 3 a move's outcome class is compared by its id (`outcome_id`, never its words),
/// so rewording an outcome breaks none either. Every format from 1 is read, each by its own
/// version.
pub const LOG_FORMAT: u32 = 3;

/// The version of the table's state ([`crate::rules::table::TableState::canonical_state_of`])
/// whose digest the entries of a log of `format` carry.
pub fn state_version(format: u32) -> u32 {
    if format >= 2 { 2 } else { 1 }
}
/// The longest line a log may hold (a record of 100 dice with their re-throws fits easily).
pub const MAX_LINE: usize = 1 << 20;

/// Why a log line (or a whole log) does not read or does not chain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// A line over [`MAX_LINE`] bytes.
    #[error("a log line of {0} bytes (at most {MAX_LINE})")]
    TooLong(usize),
    /// Not an entry (the JSON reader's reason).
    #[error("not a log entry: {0}")]
    NotAnEntry(String),
    /// An entry out of its place.
    #[error("entry {found} where entry {due} was due (missing, repeated or reordered)")]
    OutOfPlace {
        /// The entry's `seq`.
        found: u64,
        /// The `seq` due.
        due: u64,
    },
    /// An entry whose `prev` is not the hash of the line before.
    #[error("entry {0} does not follow the line before it (its prev hash differs)")]
    BrokenChain(u64),
    /// A log without entries.
    #[error("the log is empty")]
    Empty,
    /// One of the above, at a line of a file.
    #[error("line {line}: {error}")]
    AtLine {
        /// The line's number (from 1).
        line: usize,
        /// What is wrong there.
        error: Box<LogError>,
    },
}

impl LogError {
    /// The stable code of the error.
    pub fn code(&self) -> ErrorCode {
        match self {
            LogError::TooLong(_) => ErrorCode::TooLarge,
            LogError::NotAnEntry(_) => ErrorCode::Malformed,
            LogError::OutOfPlace { .. } | LogError::BrokenChain(_) => ErrorCode::BrokenChain,
            LogError::Empty => ErrorCode::EmptyLog,
            LogError::AtLine { error, .. } => error.code(),
        }
    }
}

/// What someone may do in a room.
#[derive(
    Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Moves every character and the table's own moves, ends turns and rounds, sees the rolls
    /// thrown for the game master and blind, reveals any hidden roll.
    Gamemaster,
    /// Moves the characters it is seated as; rolls free rolls.
    #[default]
    Player,
    /// Watches.
    Spectator,
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Gamemaster => "gamemaster",
            Role::Player => "player",
            Role::Spectator => "spectator",
        })
    }
}

/// What a throw throws: a dice notation, or a move of the room's scene.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Proposal {
    /// A free roll.
    Notation(String),
    /// A move at the table (RON-shaped JSON of the ruleset's move).
    Move(Move),
}

/// The proof of a throw's seed: the commitment published first, the secret it hides, the
/// thrower's nonce and gesture.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SeedProof {
    /// The commitment the thrower was given before it sent its gesture.
    pub commitment: String,
    /// The server's secret (hex), revealed with the throw.
    pub secret: String,
    /// The thrower's nonce (hex).
    pub nonce: String,
    /// The thrower's gesture (None: the swing was drawn from the seed).
    pub gesture: Option<Gesture>,
}

/// Who sees a hidden roll before it is revealed (everyone sees that it was thrown: who, the
/// dice, the mode, when).
#[derive(
    Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum SecretMode {
    /// Its roller alone (the game master's hidden roll, the first kind there was).
    #[default]
    #[serde(rename = "self")]
    Roller,
    /// Its roller and the game master.
    Gamemaster,
    /// The game master alone: the roller sees that it was thrown, never what it showed.
    Blind,
}

impl SecretMode {
    /// Whether this is the first kind (the log leaves it unwritten, as before modes).
    pub fn is_roller(&self) -> bool {
        *self == SecretMode::Roller
    }

    /// Whether `name` may see a roll of `by` in this mode, in a room whose game master is
    /// `gamemaster`.
    pub fn shows_to(self, name: &str, by: &str, gamemaster: &str) -> bool {
        match self {
            SecretMode::Roller => name == by,
            SecretMode::Gamemaster => name == by || name == gamemaster,
            SecretMode::Blind => name == gamemaster,
        }
    }

    /// Its name on the wire and in the log: `self`, `gamemaster`, `blind`.
    pub fn name(self) -> &'static str {
        match self {
            SecretMode::Roller => "self",
            SecretMode::Gamemaster => "gamemaster",
            SecretMode::Blind => "blind",
        }
    }
}

/// How a throw is seen: in the open, or sealed in a [`SecretMode`]. What the game master sets
/// as a room's default and lets players use.
#[derive(
    Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum RollMode {
    /// Everyone sees it at once.
    Public,
    /// Its roller and the game master.
    Gamemaster,
    /// The game master alone.
    Blind,
    /// Its roller alone.
    #[serde(rename = "self")]
    Roller,
}

impl RollMode {
    /// Every mode, public first.
    pub const ALL: [RollMode; 4] = [
        RollMode::Public,
        RollMode::Gamemaster,
        RollMode::Blind,
        RollMode::Roller,
    ];

    /// The mode of a throw sealed in `secret` (None: public).
    pub fn of(secret: Option<SecretMode>) -> RollMode {
        match secret {
            None => RollMode::Public,
            Some(SecretMode::Gamemaster) => RollMode::Gamemaster,
            Some(SecretMode::Blind) => RollMode::Blind,
            Some(SecretMode::Roller) => RollMode::Roller,
        }
    }

    /// The secret mode it seals in (None: public).
    pub fn secret(self) -> Option<SecretMode> {
        match self {
            RollMode::Public => None,
            RollMode::Gamemaster => Some(SecretMode::Gamemaster),
            RollMode::Blind => Some(SecretMode::Blind),
            RollMode::Roller => Some(SecretMode::Roller),
        }
    }

    /// Its name on the wire: `public`, `gamemaster`, `blind`, `self`.
    pub fn name(self) -> &'static str {
        self.secret().map_or("public", SecretMode::name)
    }
}

/// A hidden roll's content, kept apart from the log until it is revealed.
#[derive(Clone, Debug, PartialEq)]
pub struct SealedRoll {
    /// The salt (hex).
    pub salt: String,
    /// The exact text sealed.
    pub payload: String,
}

/// A hidden roll's content, as the reveal shows it (and its seal binds it): a free roll's
/// notation, or a move with what it changed at the table and the table's digest after it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HiddenRoll {
    /// The notation rolled (a free roll).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
    /// The move made (a hidden move).
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    pub mv: Option<Move>,
    /// Its seed's proof.
    pub proof: SeedProof,
    /// The roll.
    pub record: RollRecord,
    /// What a move changed at the table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub said: Vec<String>,
    /// A move's table digest after it (as a public move's entry carries it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
}

impl HiddenRoll {
    /// What was thrown: the free roll's notation or the move; None when the content names
    /// neither or both (not a roll the server seals).
    pub fn what(&self) -> Option<Proposal> {
        match (&self.notation, &self.mv) {
            (Some(n), None) => Some(Proposal::Notation(n.clone())),
            (None, Some(mv)) => Some(Proposal::Move(mv.clone())),
            _ => None,
        }
    }
}

/// One thing that happened in a room.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// The room opened: its scene (RON, as given) and the seed of the table's ties.
    Created {
        /// The log format.
        format: u32,
        /// The room's name.
        room: String,
        /// The game master's name.
        gamemaster: String,
        /// The scene file's text.
        scene: String,
        /// Breaks the ties the rules leave to chance when seating.
        table_seed: u64,
        /// The server's build (re-simulation is exact within one build and platform).
        build: String,
    },
    /// Someone joined (or came back) with a role and seats.
    Joined {
        /// Their name.
        name: String,
        /// Their role.
        role: Role,
        /// The characters they are seated as (players).
        seats: Vec<String>,
        /// The commitment to the member's key, when this join claimed the name: a later join
        /// under the name must show the key.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
    /// A move that throws nothing (ending a turn, declaring).
    Played {
        /// Who made it.
        by: String,
        /// The move.
        #[serde(rename = "move")]
        mv: Move,
        /// What changed at the table.
        said: Vec<String>,
        /// The table's digest after it.
        state: String,
    },
    /// A throw: a move's dice or a free roll, with the proof of its seed.
    Thrown {
        /// Who threw.
        by: String,
        /// What was thrown.
        what: Proposal,
        /// The proof of the seed.
        proof: SeedProof,
        /// The roll.
        record: Box<RollRecord>,
        /// What changed at the table.
        said: Vec<String>,
        /// The table's digest after it.
        state: String,
    },
    /// A hidden roll: who rolled which dice (a free roll's; a move's dice are sealed with it),
    /// the commitment its seed used and the seal of what a reveal will show.
    Hidden {
        /// Who rolled.
        by: String,
        /// A free roll's dice; None for a move (which move, and so its dice, is sealed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        notation: Option<String>,
        /// What it is for: written here by builds before roll modes; sealed in the record
        /// since (the label is the roll's own secret).
        label: Option<String>,
        /// Who sees it before the reveal (unwritten: its roller alone).
        #[serde(default, skip_serializing_if = "SecretMode::is_roller")]
        mode: SecretMode,
        /// The seed's commitment.
        commitment: String,
        /// The seal of the reveal.
        sealed: String,
    },
    /// The game master sets the room's roll modes: the one every member's form starts at, and
    /// those players may use.
    Modes {
        /// Who set them (the game master).
        by: String,
        /// The room's default.
        default: RollMode,
        /// The modes players may use (the game master may use every one).
        players: Vec<RollMode>,
    },
    /// A member chooses its own dice, or a character's it plays (the game master any
    /// character's): every client draws that member's or character's dice so from here on.
    Dice {
        /// Who chose.
        by: String,
        /// The character whose dice these are (None: the member's own).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        character: Option<String>,
        /// The look (None: back to the room's own dice).
        look: Option<crate::dice::style::DiceLook>,
    },
    /// A hidden roll shown: the salt and exact text the seal binds.
    Revealed {
        /// The `seq` of the hidden roll.
        of: u64,
        /// The seal's salt (hex).
        salt: String,
        /// The [`HiddenRoll`] as JSON, the exact text sealed.
        payload: String,
    },
}

/// A log line: its place, the hash of the line before, when, and what.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// 1 for the room's first entry, then one more each.
    pub seq: u64,
    /// The hash of the previous line ([`GENESIS`] for the first).
    pub prev: String,
    /// The server's clock, ms since 1970 (for people; nothing is computed from it).
    pub at_ms: u64,
    /// What happened.
    pub event: Event,
}

impl Entry {
    /// The entry as its log line.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads one log line, with its size limited; says what is wrong.
    pub fn parse(line: &str) -> Result<Entry, LogError> {
        if line.len() > MAX_LINE {
            return Err(LogError::TooLong(line.len()));
        }
        serde_json::from_str(line).map_err(|e| LogError::NotAnEntry(e.to_string()))
    }
}

/// Milliseconds since 1970 by the system clock (0 if it is before).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// A whole log read from text (one entry per line, blank lines skipped): every line parsed and
/// the chain checked (`seq` from 1, each `prev` the hash of the line before). The first problem
/// is named with its line number.
pub fn read_log(text: &str) -> Result<Vec<(String, Entry)>, LogError> {
    let mut out: Vec<(String, Entry)> = Vec::new();
    let mut prev = GENESIS.to_string();
    for (n, line) in text.lines().enumerate() {
        let at = |error: LogError| LogError::AtLine {
            line: n + 1,
            error: Box::new(error),
        };
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let entry = Entry::parse(line).map_err(at)?;
        check_link(&entry, out.len() as u64 + 1, &prev).map_err(at)?;
        prev = seal::line_hash(line);
        out.push((line.to_string(), entry));
    }
    if out.is_empty() {
        return Err(LogError::Empty);
    }
    Ok(out)
}

/// Checks an entry's place in the chain.
pub fn check_link(entry: &Entry, seq: u64, prev: &str) -> Result<(), LogError> {
    if entry.seq != seq {
        return Err(LogError::OutOfPlace {
            found: entry.seq,
            due: seq,
        });
    }
    if !seal::same(&entry.prev, prev) {
        return Err(LogError::BrokenChain(seq));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(seq: u64, prev: &str, name: &str) -> String {
        Entry {
            seq,
            prev: prev.to_string(),
            at_ms: 5,
            event: Event::Joined {
                name: name.into(),
                role: Role::Spectator,
                seats: vec![],
                key: None,
            },
        }
        .to_line()
    }

    #[test]
    fn a_chained_log_reads_and_a_broken_chain_is_named() {
        let a = joined(1, GENESIS, "a");
        let b = joined(2, &seal::line_hash(&a), "b");
        let log = format!("{a}\n\n{b}\n");
        let read = read_log(&log).expect("reads");
        assert_eq!(read.len(), 2);
        assert_eq!(
            read[1].1.event,
            Event::Joined {
                name: "b".into(),
                role: Role::Spectator,
                seats: vec![],
                key: None,
            }
        );
        assert!(
            a.contains(r#""event":{"kind":"joined","name":"a","role":"spectator""#),
            "{a}"
        );
        // Reordered.
        let err = read_log(&format!("{b}\n{a}")).expect_err("reordered");
        assert_eq!(
            err.to_string(),
            "line 1: entry 2 where entry 1 was due (missing, repeated or reordered)"
        );
        assert_eq!(err.code(), ErrorCode::BrokenChain);
        // A changed line breaks the next link.
        let changed = a.replace(r#""name":"a""#, r#""name":"x""#);
        let err = read_log(&format!("{changed}\n{b}")).expect_err("changed");
        assert_eq!(
            err,
            LogError::AtLine {
                line: 2,
                error: Box::new(LogError::BrokenChain(2))
            }
        );
        assert_eq!(read_log("\n").expect_err("empty"), LogError::Empty);
        let err = read_log("{\"seq\":1}").expect_err("bad");
        assert_eq!(err.code(), ErrorCode::Malformed);
        assert!(
            err.to_string()
                .starts_with("line 1: not a log entry: missing field"),
            "{err}"
        );
    }
}
