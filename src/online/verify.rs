//! `dicetable verify FILE`: checks a room's log offline, as `serve --export` printed it: the
//! chain of lines, every seed against its commitment, every throw re-simulated (faces and final
//! poses bit for bit), every rules outcome and table state, every hidden roll's reveal.

use super::log::{Entry, read_log};
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
        Err(e) if e == "the log is empty" => return Verdict::Unreadable(e),
        Err(e) => return Verdict::Failed(e),
    };
    let checks = Checks { physics: true };
    let mut room = match RoomState::open(&lines[0].0) {
        Ok(r) => r,
        Err(e) => return Verdict::Failed(format!("entry 1: {e}")),
    };
    for (line, _) in &lines[1..] {
        if let Err(e) = room.apply_line(line, checks) {
            return Verdict::Failed(e);
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
