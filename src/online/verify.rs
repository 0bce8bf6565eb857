//! `dicetable verify FILE`: checks a room's log offline, as `serve --export` printed it: the
//! chain of lines, every seed against its commitment, every throw re-simulated (faces and final
//! poses bit for bit), every rules outcome and table state, every hidden roll's reveal.

use super::log::{Entry, LogError, read_log};
use super::room::{Checks, RoomState};

/// What `verify` found.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Every entry checks: how many, and how many throws were re-simulated.
    Verified {
        /// Entries.
        entries: usize,
        /// Rolls re-simulated (throws and reveals).
        rolls: usize,
        /// Hidden rolls never revealed (their seal cannot be checked).
        unrevealed: usize,
    },
    /// The first entry that does not check.
    Failed(String),
    /// The file is not a log.
    Unreadable(String),
}

/// Checks a whole log.
pub fn verify_text(text: &str) -> Verdict {
    // Unreadable: a line that is not an entry at all.
    for (n, line) in text.lines().enumerate() {
        if !line.trim().is_empty()
            && let Err(e) = Entry::parse(line.trim_end_matches('\r'))
        {
            return Verdict::Unreadable(format!("line {}: {e}", n + 1));
        }
    }
    let lines = match read_log(text) {
        Ok(l) => l,
        Err(e @ LogError::Empty) => return Verdict::Unreadable(e.to_string()),
        Err(e) => return Verdict::Failed(e.to_string()),
    };
    let checks = Checks { physics: true };
    let mut room = match RoomState::open(&lines[0].0) {
        Ok(r) => r,
        Err(e) => return Verdict::Failed(format!("entry 1: {e}")),
    };
    for (line, _) in &lines[1..] {
        if let Err(e) = room.apply_line(line, checks) {
            return Verdict::Failed(e.to_string());
        }
        if let Some(m) = room.mismatches.first() {
            return Verdict::Failed(m.clone());
        }
    }
    Verdict::Verified {
        entries: lines.len(),
        rolls: room.history.iter().filter(|h| h.record.is_some()).count(),
        unrevealed: room
            .hidden
            .values()
            .filter(|h| h.revealed.is_none())
            .count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::room::{Checks, RoomState};

    /// A room's log written by the build before the table's state digest moved into the rules
    /// (a d4-pool table: moves with dice, ends of turn, a free roll, a hidden roll revealed).
    const STORED: &str = include_str!("../../tests/fixtures/room-d4-pool.jsonl");

    #[test]
    fn a_stored_log_still_verifies() {
        // By the rules alone: every state digest is the rules' own serialisation, so what a
        // command prints (`session --json`) can change without breaking it.
        let room =
            RoomState::replay(STORED.lines(), Checks::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((room.seq, room.history.len()), (11, 11));
        // Whole: chain, seeds, physics re-simulated bit for bit, rules, reveals.
        assert_eq!(
            verify_text(STORED),
            Verdict::Verified {
                entries: 11,
                rolls: 5,
                unrevealed: 0
            }
        );
    }

    #[test]
    fn a_changed_digest_fails_at_its_entry() {
        let lines: Vec<String> = STORED.lines().map(str::to_string).collect();
        let mut changed: serde_json::Value = serde_json::from_str(&lines[6]).expect("JSON");
        changed["event"]["state"] = serde_json::json!("00".repeat(32));
        let mut forged = lines.clone();
        forged[6] = changed.to_string();
        // Re-chained as a forger would: only the digest is wrong.
        for i in 7..forged.len() {
            let mut e: serde_json::Value = serde_json::from_str(&forged[i]).expect("JSON");
            e["prev"] = serde_json::json!(crate::online::seal::line_hash(&forged[i - 1]));
            forged[i] = e.to_string();
        }
        let err = RoomState::replay(forged.iter().map(String::as_str), Checks::default())
            .expect_err("a forged state digest");
        assert_eq!(err.code(), crate::errors::ErrorCode::EntryMismatch);
        assert!(matches!(
            err,
            crate::online::room::RoomError::AtEntry { seq: 7, .. }
        ));
    }
}
