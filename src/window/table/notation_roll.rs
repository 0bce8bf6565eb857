//! Free rolls on the table: a dice notation and a seed, thrown physically through the roll path
//! (`crate::roll::NotationRoll`): every die, then each open-ended die that shows its top face
//! again, each throw's faces checked against the dice asked for. Results are printed, so a throw
//! in the window can be compared with `roll`. Asked for with a `ThrowNotation` message (the
//! free-roll box, `--roll`, the history).

use bevy::prelude::*;

use super::history::{Caller, HistoryEntry, Replay, RollHistory};
use super::throwing::{DiceThrow, TableSimulator, ThrowSettled, Thrower, start_throw};
use crate::odds::notation::Notation;
use crate::physics::throw::Swing;
use crate::record::{Cocked, RollRecord, ThrowRecord};
use crate::roll::{Driving, NotationRoll, RollError};
use crate::window::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TableRoll>();
    app.add_message::<ThrowNotation>();
    app.add_systems(Startup, throw_requested_at_start);
    app.add_systems(
        Update,
        (
            throw_notation.in_set(AppSystems::Throw),
            read_notation_faces.in_set(AppSystems::ReadFaces),
        ),
    );
}

/// A request to throw a notation with a seed.
#[derive(Message, Clone, Debug)]
pub struct ThrowNotation {
    /// The dice.
    pub notation: Notation,
    /// The seed of the first throw.
    pub seed: u64,
    /// The hand's swing, from a mouse gesture (None: drawn from the seed).
    pub swing: Option<Swing>,
    /// What a die that lands cocked gets (a replay code's own policy; the table's default
    /// otherwise).
    pub cocked: Cocked,
    /// Who asked, when not the window's player.
    pub caller: Caller,
}

/// The free roll on the table: what was asked, its roll driven throw by throw on the felt (the
/// roll path's one driver), and the result once read.
#[derive(Resource, Default)]
pub struct TableRoll {
    /// The notation and seed being thrown.
    pub current: Option<ThrowNotation>,
    /// Its roll: each notation die's chain of faces so far, every physical throw so far.
    driving: Option<Driving<NotationRoll>>,
    /// The final total, once every die has settled.
    pub total: Option<crate::odds::Total>,
    /// Why the roll stopped, if it did.
    pub error: Option<RollError>,
}

impl TableRoll {
    /// True while dice are in the air or a re-throw is due.
    pub fn in_flight(&self) -> bool {
        self.current.is_some() && self.total.is_none() && self.error.is_none()
    }

    /// Each notation die's chain of faces so far.
    pub fn chains(&self) -> &[Vec<u32>] {
        self.driving.as_ref().map_or(&[], |d| d.roll().chains())
    }

    /// Throws made so far (1 + open-ended re-throws).
    pub fn throws(&self) -> u32 {
        self.driving.as_ref().map_or(0, |d| d.roll().throws_made())
    }
}

fn throw_requested_at_start(options: Res<PlayOptions>, mut writer: MessageWriter<ThrowNotation>) {
    let Some(text) = &options.roll else { return };
    if text.trim().starts_with(crate::record::code::PREFIX) {
        // A replay code: its notation, seed and gesture.
        let request = crate::record::code::decode_notation(text).and_then(|(n, inputs)| {
            Ok(ThrowNotation {
                notation: Notation::parse(&n).map_err(|e| e.to_string())?,
                seed: inputs.seed,
                swing: inputs.gesture.map(Into::into),
                cocked: inputs.cocked,
                caller: Caller::default(),
            })
        });
        match request {
            Ok(request) => {
                writer.write(request);
            }
            Err(e) => error!("{e}"),
        }
        return;
    }
    match Notation::parse(text) {
        Ok(notation) => {
            writer.write(ThrowNotation {
                notation,
                seed: options.seed.unwrap_or_else(rand::random),
                swing: None,
                cocked: Cocked::default(),
                caller: Caller::default(),
            });
        }
        Err(e) => error!("{e}"),
    }
}

/// The roll's next step: its next throw on the felt (the first, or the open-ended dice again),
/// its total, or why it stopped.
fn go_on(table: &mut TableRoll, physics: &mut TableSimulator, history: &mut RollHistory) {
    let (Some(current), Some(driving)) = (&table.current, &mut table.driving) else {
        return;
    };
    if let Some(order) = driving.order() {
        start_throw(
            physics,
            &DiceThrow::of(&order, current.swing, current.cocked, Thrower::FreeRoll).painted(
                &order,
                current.caller.painter.as_ref(),
                true,
            ),
        );
        return;
    }
    if let Some(e) = driving.stopped().cloned() {
        error!("{e}");
        println!("roll stopped: {e}");
        table.error = Some(e);
        return;
    }
    finish(table, history);
}

fn throw_notation(
    mut requests: MessageReader<ThrowNotation>,
    mut table: ResMut<TableRoll>,
    mut physics: NonSendMut<TableSimulator>,
    mut history: ResMut<RollHistory>,
    remote: Option<Res<super::RemoteDriven>>,
    own: Res<super::OwnDice>,
) {
    let Some(mut request) = requests.read().last().cloned() else {
        return;
    };
    // The window's own free roll comes in its own dice (a room's brings the room's; a replay
    // is shown as it was).
    if request.caller.painter.is_none() && !request.caller.replay {
        request.caller.painter = own.painter();
    }
    if remote.is_some() && !request.caller.shown_only {
        return; // a proposal to the table server (join), thrown once it is logged
    }
    if physics.busy() {
        warn!(
            "dice are still rolling: the throw of {} waits for them",
            request.notation.source()
        );
        return;
    }
    let roll = NotationRoll::start(&request.notation, request.seed);
    *table = TableRoll {
        current: Some(request),
        ..TableRoll::default()
    };
    match roll {
        // A roll of no dice (`0d6+3`) asks for no throw: it is read at once.
        Ok(roll) => {
            table.driving = Some(Driving::new(roll));
            go_on(&mut table, &mut physics, &mut history);
        }
        Err(e) => {
            error!("{e}");
            table.current = None;
        }
    }
}

/// Feeds each settled throw to the roll: the faces checked against the dice asked for; then the
/// open-ended dice again, or the total.
fn read_notation_faces(
    mut settled: MessageReader<ThrowSettled>,
    mut table: ResMut<TableRoll>,
    mut physics: NonSendMut<TableSimulator>,
    mut history: ResMut<RollHistory>,
) {
    for throw in settled.read().filter(|t| t.thrower == Thrower::FreeRoll) {
        if !table.in_flight() {
            continue;
        }
        let Some(driving) = table.driving.as_mut() else {
            continue;
        };
        driving.feed(throw.record.clone());
        go_on(&mut table, &mut physics, &mut history);
    }
}

/// A finished roll: its total, its record in the history (stored before it is shown), and a
/// line on standard output to compare with `roll`.
fn finish(table: &mut TableRoll, history: &mut RollHistory) {
    let (Some(driving), Some(current)) = (&table.driving, &table.current) else {
        return;
    };
    let roll = driving.roll();
    let Some(result) = roll.result().cloned() else {
        return;
    };
    let verdict = match result.success {
        Some(true) => " ✔",
        Some(false) => " ✖",
        None => "",
    };
    let record = notation_record(current, roll, driving.throws().to_vec());
    let code = record.code();
    // Stored before it is shown: a crash right after loses nothing that was seen.
    history.push(HistoryEntry {
        what: current.notation.source().to_string(),
        seed: current.seed,
        faces: roll.chains().to_vec(),
        result: format!("{}{verdict}", result.total),
        replay: Replay::Notation(current.notation.clone(), current.swing),
        record,
        luck: None,
        is_replay: current.caller.replay,
        withheld: current.caller.withheld,
        character: current.caller.who.clone(),
    });
    println!(
        "rolled {} seed {}: faces {:?} total {}",
        current.notation.source(),
        current.seed,
        roll.chains(),
        result.total
    );
    println!("record {code}");
    table.total = Some(result.total);
}

/// The record of a finished free roll, the same as `roll` makes for the same inputs.
fn notation_record(
    current: &ThrowNotation,
    roll: &NotationRoll,
    throws: Vec<ThrowRecord>,
) -> RollRecord {
    let mut record = roll.record(throws, current.swing.map(Into::into), current.cocked);
    record.who = current.caller.who.clone();
    record.label = current.caller.label.clone();
    record
}
