//! Throws and reveals in a room's task: a proposal checked (the commitment, the nonce, the
//! gesture, rights and rules), thrown with a seed nobody chose, stored; a hidden roll sealed,
//! and shown when its thrower reveals it.

use super::error::ServerError;
use super::room_task::{Done, Proposed, Task};
use super::store::LogStore;
use crate::online::log::{Event, Proposal, RollMode, SealedRoll, SeedProof};
use crate::online::room::{RoomError, Simulated, Simulation, ToSeal, check_gesture, table_digest};
use crate::online::seal::{self, NONCE_BYTES, SECRET_BYTES};
use crate::roll::gesture_in_reach;

/// Tries to store a throw before giving up to other servers writing to the same room.
const RACE_TRIES: u32 = 8;

/// Throws a proposal of connection `conn` (seeded with its secret) as the room's next entry.
pub async fn throw<S: LogStore>(
    task: &mut Task<S>,
    conn: u64,
    name: &str,
    p: Proposed,
) -> Result<Done, ServerError> {
    task.catch_up().await?;
    let secret = *task.secrets.get(&conn).ok_or(ServerError::NotJoined)?;
    let commitment = seal::commitment(&secret);
    if !seal::same(&p.commitment, &commitment) {
        return Err(ServerError::WrongCommitment(commitment));
    }
    let nonce = seal::unhex(&p.nonce, NONCE_BYTES, "the nonce")?;
    if let Some(g) = &p.gesture {
        check_gesture(g)?;
        // Stricter than the log's replay (which takes what was logged before): a hand over
        // the tray, at a hand's speed, so no throw holds a physics slot for long.
        if !gesture_in_reach(g) {
            return Err(RoomError::OutOfReach.into());
        }
    }
    if p.label
        .as_ref()
        .is_some_and(|l| l.len() > crate::online::protocol::LABEL_BYTES)
    {
        return Err(ServerError::LabelTooLong);
    }
    if p.label
        .as_deref()
        .is_some_and(|l| !crate::online::room::label_fits(l))
    {
        return Err(ServerError::BadLabel);
    }
    // Another server may take the place first: then read its entry and throw again.
    let mut tries = 0;
    let (seq, sealed) = loop {
        task.state.may(name, &p.what)?;
        task.state.may_use_mode(name, RollMode::of(p.mode))?;
        match throw_next(task, name, &p, &secret, &nonce).await {
            Err(ServerError::Raced) if tries < RACE_TRIES => tries += 1,
            other => break other?,
        }
    };
    // Its content with the ack, to a thrower its mode shows it to (never the player who threw
    // a blind roll: that one sees it was thrown, never what it showed).
    let sealed = sealed.filter(|_| task.state.may_see(name, seq));
    // A fresh secret for the thrower's next throw (the old one is revealed now).
    let next = seal::random_bytes();
    task.secrets.insert(conn, next);
    Ok(Done {
        seq,
        commitment: seal::commitment(&next),
        sealed,
    })
}

/// Throws a proposal as the room's next entry and stores it: its `seq` and hidden content.
async fn throw_next<S: LogStore>(
    task: &mut Task<S>,
    name: &str,
    p: &Proposed,
    secret: &[u8; SECRET_BYTES],
    nonce: &[u8],
) -> Result<(u64, Option<SealedRoll>), ServerError> {
    let seq = task.state.seq + 1;
    let proof = SeedProof {
        commitment: seal::commitment(secret),
        secret: seal::hex(secret),
        nonce: p.nonce.clone(),
        gesture: p.gesture,
    };
    let simulated = {
        let (state, name, what, label, proof) = (
            task.state.clone(),
            name.to_string(),
            p.what.clone(),
            p.label.clone(),
            proof.clone(),
        );
        let (secret, nonce) = (*secret, nonce.to_vec());
        // In the thrower's turn on the physics pool (its address's, the server's own for none).
        let client = p.from.unwrap_or(crate::work::SERVER);
        crate::work::physics()
            .run(client, move |_| {
                state.simulate(Simulation {
                    by: &name,
                    what: &what,
                    label,
                    proof,
                    seq,
                    secret: &secret,
                    nonce: &nonce,
                })
            })
            .await??
    };
    let (event, sealed) = match simulated {
        Simulated::Played { .. } if p.mode.is_some() => {
            let Proposal::Move(mv) = &p.what else {
                return Err(ServerError::Internal("a free roll throws dice".into()));
            };
            return Err(RoomError::HiddenNoDice(task.state.table.describe(mv)).into());
        }
        Simulated::Played { said, table } => {
            let Proposal::Move(mv) = &p.what else {
                return Err(ServerError::Internal("a free roll throws dice".into()));
            };
            let event = Event::Played {
                by: name.into(),
                mv: mv.clone(),
                said,
                state: table_digest(&table, task.state.format),
            };
            (event, None)
        }
        Simulated::Throw {
            record,
            said,
            table,
        } if p.mode.is_none() => {
            let event = Event::Thrown {
                by: name.into(),
                what: p.what.clone(),
                proof,
                record,
                said,
                state: table_digest(&table, task.state.format),
            };
            (event, None)
        }
        Simulated::Throw {
            record,
            said,
            table,
        } => {
            let (event, content) = task
                .state
                .seal_throw(ToSeal {
                    by: name,
                    what: &p.what,
                    mode: p.mode.unwrap_or_default(),
                    proof,
                    record: *record,
                    said,
                    table: &table,
                })
                .map_err(|e| ServerError::Internal(e.to_string()))?;
            (event, Some(content))
        }
    };
    let seq = task.append(event, sealed.clone()).await?;
    Ok((seq, sealed))
}

/// Shows every hidden roll not yet revealed to everyone, oldest first (the game master, at a
/// session's end): the last reveal's `seq`. A reveal that fails stops there; those before it
/// stand.
pub async fn reveal_all<S: LogStore>(task: &mut Task<S>, name: &str) -> Result<u64, ServerError> {
    task.catch_up().await?;
    if name != task.state.gamemaster {
        return Err(RoomError::NotYours("the game master".into()).into());
    }
    let sealed: Vec<u64> = task.state.unrevealed().collect();
    let mut last = Err(RoomError::NoneSealed.into());
    for of in sealed {
        // Each reveal catches up first: another server of a cluster may append between them.
        last = Ok(reveal(task, name, of).await?);
    }
    last
}

/// Shows `name`'s hidden roll `of` to everyone: the reveal's `seq`.
pub async fn reveal<S: LogStore>(
    task: &mut Task<S>,
    name: &str,
    of: u64,
) -> Result<u64, ServerError> {
    task.catch_up().await?;
    task.state.may_reveal(name, of)?;
    let sealed = task
        .store
        .sealed(&task.state.room, of)
        .await?
        .ok_or(ServerError::SealedMissing(of))?;
    task.append(
        Event::Revealed {
            of,
            salt: sealed.salt,
            payload: sealed.payload,
        },
        None,
    )
    .await
}
