//! A stored roll of an earlier session thrown again on the felt: each of its recorded throws
//! with its own seed, tag and gesture (the record holds the dice of every throw, open-ended
//! re-throws and a move's later throws included), then every face and final pose compared with
//! the record. Nothing is resolved again and nothing changes at the table: the rules of an
//! earlier evening's table are in the record's outcome, the physics is checked here.

use bevy::prelude::*;

use super::throwing::{DiceThrow, TableSimulator, ThrowSettled, Thrower, start_throw};
use crate::dice::looks::notation_tint;
use crate::record::{RollRecord, ThrowRecord};
use crate::roll::replay::compare_throws;
use crate::window::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StoredReplay>();
    app.add_message::<ReplayStored>();
    app.add_systems(
        Update,
        (
            start_stored_replay.in_set(AppSystems::Throw),
            read_stored_replay_faces.in_set(AppSystems::ReadFaces),
        ),
    );
}

/// A request to throw a stored roll again.
#[derive(Message, Clone, Debug)]
pub struct ReplayStored {
    /// Its session.
    pub session: i64,
    /// Its number in the session.
    pub n: i64,
    /// What it threw, in words.
    pub what: String,
    /// Its record.
    pub record: RollRecord,
}

/// The stored roll being thrown again, and what the last one came to.
#[derive(Resource, Default)]
pub struct StoredReplay {
    current: Option<ReplayStored>,
    thrown: Vec<ThrowRecord>,
    /// The last replay's verdict, in words.
    pub verdict: Option<String>,
}

impl StoredReplay {
    /// True while its throws are on the felt.
    pub fn in_flight(&self) -> bool {
        self.current.is_some()
    }
}

/// Throw `i` of the replayed record, as it was thrown.
fn launch(physics: &mut TableSimulator, replay: &ReplayStored, i: usize) -> bool {
    let Some(t) = replay.record.throws.get(i) else {
        return false;
    };
    let throw = DiceThrow {
        dice: t
            .dice
            .iter()
            .enumerate()
            .map(|(j, &k)| (k, notation_tint(k, j).style()))
            .collect(),
        // A stored roll is a notation's: numbered dice.
        marks: Vec::new(),
        request: crate::roll::headless::recorded_request(t, replay.record.gesture),
        // Its own cocked-dice policy: a nudged roll settles as it did.
        cocked: replay.record.cocked,
        thrower: Thrower::Stored,
    };
    start_throw(physics, &throw);
    true
}

fn start_stored_replay(
    mut requests: MessageReader<ReplayStored>,
    mut replay: ResMut<StoredReplay>,
    mut physics: NonSendMut<TableSimulator>,
) {
    let Some(request) = requests.read().last().cloned() else {
        return;
    };
    if physics.busy() || replay.in_flight() {
        warn!("dice are still rolling: the replay waits for them");
        return;
    }
    replay.thrown.clear();
    if launch(&mut physics, &request, 0) {
        replay.current = Some(request);
    } else {
        replay.verdict = Some(format!(
            "session {} roll {} threw no dice: nothing to replay",
            request.session, request.n
        ));
    }
}

/// Gathers each settled throw; after the last, compares them all with the record.
fn read_stored_replay_faces(
    mut settled: MessageReader<ThrowSettled>,
    mut replay: ResMut<StoredReplay>,
    mut physics: NonSendMut<TableSimulator>,
) {
    let Some(throw) = settled
        .read()
        .filter(|t| t.thrower == Thrower::Stored)
        .last()
    else {
        return;
    };
    if !replay.in_flight() {
        return;
    }
    replay.thrown.push(throw.record.clone());
    let Some(current) = replay.current.clone() else {
        return;
    };
    let next = replay.thrown.len();
    if next < current.record.throws.len() && launch(&mut physics, &current, next) {
        return;
    }
    let differences = compare_throws(&current.record.throws, &replay.thrown);
    let faces: Vec<Vec<u32>> = replay.thrown.iter().map(|t| t.faces.clone()).collect();
    let verdict = match differences.first() {
        None => format!(
            "replay of session {} roll {} ({}): faces {faces:?}, every face and final pose as recorded",
            current.session, current.n, current.what
        ),
        Some(first) => format!(
            "replay of session {} roll {} ({}) DIFFERS from its record ({} differences; first: {first}): another build or platform?",
            current.session,
            current.n,
            current.what,
            differences.len()
        ),
    };
    println!("{verdict}");
    replay.verdict = Some(verdict);
    replay.current = None;
}
