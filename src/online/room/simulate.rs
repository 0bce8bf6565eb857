//! The server's side of a proposal: thrown here with the seed nobody chose, through the roll
//! path, into the event the log will hold.

use super::{RoomError, RoomState};
use crate::odds::notation::Notation;
use crate::online::log::{Event, HiddenRoll, Proposal, SealedRoll, SecretMode, SeedProof};
use crate::online::seal;
use crate::record::{Cocked, RollRecord};
use crate::roll::headless::{play_move, record_notation};
use crate::rules::table::TableState;

/// What a simulated proposal came to.
#[derive(Debug)]
pub enum Simulated {
    /// A move without dice.
    Played {
        /// What changed.
        said: Vec<String>,
        /// The table after.
        table: TableState,
    },
    /// A throw.
    Throw {
        /// The roll.
        record: Box<RollRecord>,
        /// What changed.
        said: Vec<String>,
        /// The table after.
        table: TableState,
    },
}

/// A proposal to simulate: who proposes what, with which seed proof, at which place of the
/// log.
#[derive(Clone, Debug)]
pub struct Simulation<'a> {
    /// Who proposes.
    pub by: &'a str,
    /// What.
    pub what: &'a Proposal,
    /// What for.
    pub label: Option<String>,
    /// The seed's proof (the commitment, the secret revealed, the nonce and gesture).
    pub proof: SeedProof,
    /// The place the entry will take.
    pub seq: u64,
    /// The server's secret behind the commitment.
    pub secret: &'a [u8],
    /// The thrower's nonce.
    pub nonce: &'a [u8],
}

/// The most lines of what a move changed an entry keeps: past them, one line says how many
/// more there were. A log of format 2 keeps them for people (its digest is of the typed state),
/// so no scene can make an entry long by changing many things.
pub const SAID_LINES: usize = 24;

/// What a move changed as an entry of a log of `format` keeps it: from format 2, at most
/// [`SAID_LINES`] lines of at most [`crate::text::MOST_QUOTED`] characters each; a log of format
/// 1 compared every line word for word, so keeps them all.
pub fn said_for_the_log(format: u32, said: Vec<String>) -> Vec<String> {
    if format < 2 {
        return said;
    }
    let more = said.len().saturating_sub(SAID_LINES);
    let mut kept: Vec<String> = said
        .iter()
        .take(if more > 0 { SAID_LINES - 1 } else { SAID_LINES })
        .map(|line| crate::text::one_line(line))
        .collect();
    if more > 0 {
        kept.push(format!("… and {} more changes", more + 1));
    }
    kept
}

/// A throw to seal in a roll mode: who threw what, its seed's proof, and what the simulation
/// made of it.
#[derive(Debug)]
pub struct ToSeal<'a> {
    /// Who threw.
    pub by: &'a str,
    /// A free roll or a move.
    pub what: &'a Proposal,
    /// Who sees it before its reveal.
    pub mode: SecretMode,
    /// The seed's proof.
    pub proof: SeedProof,
    /// The roll.
    pub record: RollRecord,
    /// What a move changed at the table.
    pub said: Vec<String>,
    /// The table after it.
    pub table: &'a TableState,
}

impl RoomState {
    /// A throw sealed in a roll mode: the log's `hidden` entry, which names who, the mode, the
    /// seed's commitment and (for a free roll) the dice; and the content its reveal shows, which
    /// holds the rest: the label, a move and its dice, the record, and for a move what it changed
    /// and the table's digest after it.
    pub fn seal_throw(&self, t: ToSeal<'_>) -> Result<(Event, SealedRoll), serde_json::Error> {
        let (notation, mv, state) = match t.what {
            Proposal::Notation(n) => (Some(n.clone()), None, None),
            Proposal::Move(mv) => (
                None,
                Some(mv.clone()),
                Some(super::table_digest(t.table, self.format)),
            ),
        };
        let commitment = t.proof.commitment.clone();
        let payload = serde_json::to_string(&HiddenRoll {
            notation: notation.clone(),
            mv,
            proof: t.proof,
            record: t.record,
            said: t.said,
            state,
        })?;
        let salt: [u8; seal::SALT_BYTES] = seal::random_bytes();
        let event = Event::Hidden {
            by: t.by.into(),
            notation,
            label: None,
            mode: t.mode,
            commitment,
            sealed: seal::seal(&salt, &payload),
        };
        let content = SealedRoll {
            salt: seal::hex(&salt),
            payload,
        };
        Ok((event, content))
    }

    /// Simulates a proposal (the server's side): the throws and what they change.
    pub fn simulate(&self, p: Simulation<'_>) -> Result<Simulated, RoomError> {
        let gesture = p.proof.gesture;
        let seed = seal::throw_seed(p.secret, p.nonce, gesture.as_ref(), &self.room, p.seq);
        let cocked = Cocked::default();
        match p.what {
            Proposal::Notation(text) => {
                let notation = Notation::parse(text)?;
                let (_, mut record) = record_notation(&notation, seed, gesture, cocked)?;
                record.who = Some(p.by.to_string());
                record.label = p.label;
                Ok(Simulated::Throw {
                    record: Box::new(record),
                    said: Vec::new(),
                    table: self.table.clone(),
                })
            }
            Proposal::Move(mv) => {
                let (roll, throws) =
                    play_move(&self.table, mv, seed, gesture, cocked)?.finished()?;
                let mut table = self.table.clone();
                let said = said_for_the_log(self.format, roll.apply_to(&mut table)?);
                if throws.is_empty() {
                    return Ok(Simulated::Played { said, table });
                }
                let mut record = roll.record(&self.scene.name, throws, gesture, cocked);
                record.who = Some(p.by.to_string());
                if p.label.is_some() {
                    record.label = p.label;
                }
                Ok(Simulated::Throw {
                    record: Box::new(record),
                    said,
                    table,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_changed_is_bounded_in_a_log_of_format_2_and_whole_in_format_1() {
        let said: Vec<String> = (0..2300)
            .map(|i| format!("{} {i}", "x".repeat(400)))
            .collect();
        let kept = said_for_the_log(2, said.clone());
        assert_eq!(kept.len(), SAID_LINES);
        assert!(
            kept[..SAID_LINES - 1]
                .iter()
                .all(|l| l.chars().count() <= 241)
        );
        assert_eq!(kept[SAID_LINES - 1], "… and 2277 more changes");
        let few = vec!["Vex's Action Load 0 -> 1".to_string(); SAID_LINES];
        assert_eq!(said_for_the_log(2, few.clone()), few);
        assert_eq!(said_for_the_log(1, said.clone()), said);
    }
}
