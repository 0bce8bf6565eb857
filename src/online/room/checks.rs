//! How an entry is checked as the server should have made it: the seed's proof, and the throws
//! read back through the roll path (the dice each throw asked for, its seed, its faces, the
//! outcome and what changed at the table).

use super::{RoomError, RoomState, table_digest};
use crate::online::log::{Proposal, SeedProof};
use crate::online::seal::{self, NONCE_BYTES, SECRET_BYTES};
use crate::record::{RollRecord, Thrown};
use crate::roll::{MoveRoll, NotationRoll, ThrowOrder, drive, recorded_throw};
use crate::rules::table::TableState;

impl RoomState {
    /// The seed proof: the secret behind the commitment, and the seed it and the nonce,
    /// gesture, room and place make.
    pub(super) fn check_proof(
        &self,
        proof: &SeedProof,
        record: &RollRecord,
        seq: u64,
    ) -> Result<(), RoomError> {
        let secret = seal::unhex(&proof.secret, SECRET_BYTES, "the secret").map_err(mismatch)?;
        let nonce = seal::unhex(&proof.nonce, NONCE_BYTES, "the nonce").map_err(mismatch)?;
        if !seal::same(&seal::commitment(&secret), &proof.commitment) {
            return Err(RoomError::Mismatch(
                "the secret does not match the commitment published before the throw".into(),
            ));
        }
        let seed = seal::throw_seed(&secret, &nonce, proof.gesture.as_ref(), &self.room, seq);
        if record.seed != seed {
            return Err(RoomError::Mismatch(format!(
                "the roll's seed {} is not the one its proof makes ({seed})",
                record.seed
            )));
        }
        if record.gesture != proof.gesture {
            return Err(RoomError::Mismatch(
                "the roll's gesture is not the one its proof hashes".into(),
            ));
        }
        Ok(())
    }

    /// The rules' reading of a record, through the roll path: every throw the roll asks for
    /// taken from the record (the same dice and seeds, faces that fit), the same outcome and
    /// changes; the table after.
    pub(super) fn check_throw(
        &self,
        what: &Proposal,
        record: &RollRecord,
        said: &[String],
    ) -> Result<TableState, RoomError> {
        for (n, t) in record.throws.iter().enumerate() {
            if t.faces.len() != t.dice.len() || t.poses.len() != t.dice.len() {
                return Err(RoomError::Mismatch(format!(
                    "throw {} lists its dice, faces and poses unevenly",
                    n + 1
                )));
            }
        }
        let recorded = |order: &ThrowOrder| recorded_throw(record, order);
        let read_back = |taken: usize| -> Result<(), RoomError> {
            if taken != record.throws.len() {
                return Err(RoomError::Mismatch(
                    "the record has more throws than the rules ask for".into(),
                ));
            }
            Ok(())
        };
        match what {
            Proposal::Notation(text) => {
                // Read as it was when the record was made (an older log still verifies).
                let notation = crate::roll::recorded_notation(text, record)?;
                if record.what
                    != (Thrown::Notation {
                        notation: text.clone(),
                    })
                {
                    return Err(RoomError::Mismatch(
                        "the record throws another notation".into(),
                    ));
                }
                let roll = NotationRoll::start(&notation, record.seed)?;
                let (roll, throws) = drive(roll, recorded).finished()?;
                read_back(throws.len())?;
                if roll.chains() != record.faces.as_slice() {
                    return Err(RoomError::Mismatch(format!(
                        "the record's faces {:?} are not its throws' {:?}",
                        record.faces,
                        roll.chains()
                    )));
                }
                let total = roll.result().map(|r| r.total);
                if total != record.total {
                    return Err(RoomError::Mismatch(format!(
                        "the faces {:?} make {}, the record says {}",
                        record.faces,
                        total.map_or("no total".to_string(), |t| t.to_string()),
                        record
                            .total
                            .map_or("no total".to_string(), |t| t.to_string())
                    )));
                }
                if !said.is_empty() {
                    return Err(RoomError::Mismatch(
                        "a free roll changes nothing at the table".into(),
                    ));
                }
                Ok(self.table.clone())
            }
            Proposal::Move(mv) => {
                let roll = MoveRoll::start(&self.table, mv, record.seed)?;
                let (roll, throws) = drive(roll, recorded).finished()?;
                read_back(throws.len())?;
                if roll.faces() != record.faces.as_slice() {
                    return Err(RoomError::Mismatch(format!(
                        "the record's faces {:?} are not its throws' {:?}",
                        record.faces,
                        roll.faces()
                    )));
                }
                let outcome = roll.outcome().cloned().unwrap_or_default();
                // From format 3 the class is compared by its id; before, by its words, which
                // those logs hold alone (so a class's words of then are kept as they were).
                let (made, logged) = if self.format >= 3 {
                    (outcome.class_id.as_str(), record.outcome_id.as_deref())
                } else {
                    (outcome.class.as_str(), record.outcome.as_deref())
                };
                if logged != Some(made) || record.total != Some(outcome.total.into()) {
                    return Err(RoomError::Mismatch(format!(
                        "the faces {:?} make {made} ({}), the record says {} ({:?})",
                        roll.faces(),
                        outcome.total,
                        logged.unwrap_or("no outcome"),
                        record.total
                    )));
                }
                let mut table = self.table.clone();
                let now = roll.apply_to(&mut table)?;
                self.same_effects(said, &now)?;
                Ok(table)
            }
        }
    }
}

/// Hex in a logged entry that does not read: the entry is not as the server made it.
pub(super) fn mismatch(e: seal::HexError) -> RoomError {
    RoomError::Mismatch(e.to_string())
}

impl RoomState {
    /// The changes an entry logged are the ones the rules make: word for word in a log of
    /// format 1; from format 2 they are words for people, and the typed state's digest
    /// ([`RoomState::same_state`]) is what is checked.
    pub(super) fn same_effects(&self, logged: &[String], now: &[String]) -> Result<(), RoomError> {
        if self.format < 2 && logged != now {
            return Err(RoomError::Mismatch(format!(
                "the table changed otherwise: logged {logged:?}, the rules say {now:?}"
            )));
        }
        Ok(())
    }

    /// The state digest an entry logged is the table's after it, by the log's state version.
    pub(super) fn same_state(&self, logged: &str, table: &TableState) -> Result<(), RoomError> {
        if !seal::same(logged, &table_digest(table, self.format)) {
            return Err(RoomError::Mismatch(
                "the table's state after it differs from the one logged".into(),
            ));
        }
        Ok(())
    }
}
