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
                let said = roll.apply_to(&mut table)?;
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
