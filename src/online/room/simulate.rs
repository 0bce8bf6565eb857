//! The server's side of a proposal: thrown here with the seed nobody chose, through the roll
//! path, into the event the log will hold.

use super::{RoomError, RoomState};
use crate::odds::notation::Notation;
use crate::online::log::{Proposal, SeedProof};
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

impl RoomState {
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
