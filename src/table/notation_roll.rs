//! Free rolls on the table: a dice notation and a seed, thrown physically; open-ended dice that
//! show their top face are thrown again. Results are printed, so a throw in the window can be
//! compared with `roll`. Asked for with a `ThrowNotation` message (the free-roll box, `--roll`,
//! the history).

use bevy::prelude::*;

use super::dice_view::DiceLook;
use super::history::{Caller, HistoryEntry, Replay, RollHistory};
use super::throwing::{DiceAssets, DiceThrow, TableSimulator, Thrower, start_throw};
use crate::dice::DieKind;
use crate::dice::looks::notation_style;
use crate::dice::mesh::DieStyle;
use crate::physics::notation::{physical_dice, record_faces};
use crate::physics::throw::Swing;
use crate::physics::{SettleRules, throw_seed};
use crate::record::{RollDice, RollInputs, RollRecord, ThrowRecord, Thrown};
use crate::rules::notation::{Notation, open_ended_rethrows};
use crate::{AppSystems, PlayOptions};

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
    /// Who asked, when not the window's player.
    pub caller: Caller,
}

/// The free roll on the table: what was thrown, the throws so far, and the result once read.
#[derive(Resource, Default)]
pub struct TableRoll {
    /// The notation and seed being thrown.
    pub current: Option<ThrowNotation>,
    /// Each notation die's chain of faces so far.
    pub chains: Vec<Vec<u32>>,
    /// Throws made (1 + open-ended re-throws).
    pub throws: u32,
    /// Notation dice in the current throw.
    pub in_throw: Vec<usize>,
    /// The final total, once every die has settled.
    pub total: Option<i64>,
    /// Each physical throw so far.
    pub records: Vec<ThrowRecord>,
}

impl TableRoll {
    /// True while dice are in the air or a re-throw is due.
    pub fn in_flight(&self) -> bool {
        self.current.is_some() && self.total.is_none()
    }
}

fn throw_requested_at_start(options: Res<PlayOptions>, mut writer: MessageWriter<ThrowNotation>) {
    let Some(text) = &options.roll else { return };
    if text.trim().starts_with(crate::record::code::PREFIX) {
        // A replay code: its notation, seed and gesture.
        let request = crate::record::code::decode_notation(text).and_then(|(n, seed, gesture)| {
            Ok(ThrowNotation {
                notation: Notation::parse(&n).map_err(|e| e.to_string())?,
                seed,
                swing: gesture.map(Into::into),
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
                caller: Caller::default(),
            });
        }
        Err(e) => error!("{e}"),
    }
}

/// The physical dice of notation dice `which`, light and dark alternating.
pub fn dice_of_notation(
    notation: &Notation,
    which: &[usize],
) -> Result<Vec<(DieKind, DieStyle)>, String> {
    let kinds = physical_dice(&notation.dice(), which).map_err(|e| e.to_string())?;
    Ok(kinds
        .iter()
        .enumerate()
        .map(|(i, &k)| (k, notation_style(k, i)))
        .collect())
}

/// Throws notation dice `which` (the first throw, or the open-ended ones again).
fn launch(
    commands: &mut Commands,
    table: &mut TableRoll,
    physics: &mut TableSimulator,
    which: Vec<usize>,
    look: &mut DiceLook,
    assets: &mut DiceAssets,
) {
    let Some(current) = table.current.clone() else {
        return;
    };
    let dice = match dice_of_notation(&current.notation, &which) {
        Ok(dice) => dice,
        Err(e) => {
            error!("{e}");
            table.current = None;
            return;
        }
    };
    let throw = DiceThrow {
        dice,
        seed: throw_seed(current.seed, table.throws),
        tag: u64::from(table.throws),
        // The gesture sets the first throw; re-throws of sixes come from the seed.
        swing: current.swing.filter(|_| table.throws == 0),
        thrower: Thrower::FreeRoll,
    };
    start_throw(commands, physics, &throw, look, assets);
    table.in_throw = which;
    table.throws += 1;
}

fn throw_notation(
    mut commands: Commands,
    mut requests: MessageReader<ThrowNotation>,
    mut table: ResMut<TableRoll>,
    mut physics: NonSendMut<TableSimulator>,
    mut look: ResMut<DiceLook>,
    mut assets: DiceAssets,
    remote: Option<Res<super::RemoteDriven>>,
) {
    let Some(request) = requests.read().last().cloned() else {
        return;
    };
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
    let n = request.notation.dice().len();
    table.current = Some(request);
    table.chains = vec![Vec::new(); n];
    table.throws = 0;
    table.total = None;
    table.records.clear();
    launch(
        &mut commands,
        &mut table,
        &mut physics,
        (0..n).collect(),
        &mut look,
        &mut assets,
    );
}

/// Reads a finished throw into the chains; throws open-ended dice again, or reports the total.
fn read_notation_faces(
    mut commands: Commands,
    mut table: ResMut<TableRoll>,
    mut physics: NonSendMut<TableSimulator>,
    mut look: ResMut<DiceLook>,
    mut assets: DiceAssets,
    mut history: ResMut<RollHistory>,
) {
    if !table.in_flight() || table.in_throw.is_empty() {
        return;
    }
    let Some(result) = physics.pick_up(Thrower::FreeRoll) else {
        return;
    };
    let Some(current) = table.current.clone() else {
        return;
    };
    let dice = current.notation.dice();
    table.records.extend(physics.settled_record());
    let thrown = std::mem::take(&mut table.in_throw);
    record_faces(&dice, &thrown, &result.dice, &mut table.chains);
    let again = open_ended_rethrows(&dice, &table.chains);
    if !again.is_empty() {
        launch(
            &mut commands,
            &mut table,
            &mut physics,
            again,
            &mut look,
            &mut assets,
        );
        return;
    }
    match current.notation.evaluate(&table.chains) {
        Ok(r) => {
            table.total = Some(r.total);
            let verdict = match current.notation.comparison.map(|c| c.holds(r.total)) {
                Some(true) => " ✔",
                Some(false) => " ✘",
                None => "",
            };
            let record = notation_record(&current, &table, r.total, r.success);
            let code = record.code();
            // Stored before it is shown: a crash right after loses nothing that was seen.
            history.push(HistoryEntry {
                what: current.notation.source().to_string(),
                seed: current.seed,
                faces: table.chains.clone(),
                result: format!("{}{verdict}", r.total),
                replay: Replay::Notation(current.notation.clone(), current.swing),
                record,
                luck: None,
                is_replay: current.caller.replay,
                character: current.caller.who.clone(),
            });
            println!(
                "rolled {} seed {}: faces {:?} total {}",
                current.notation.source(),
                current.seed,
                table.chains,
                r.total
            );
            println!("record {code}");
        }
        Err(e) => {
            error!("{e}");
            table.current = None;
        }
    }
}

/// The record of a finished free roll, the same as `roll` makes for the same inputs.
fn notation_record(
    current: &ThrowNotation,
    table: &TableRoll,
    total: i64,
    success: Option<bool>,
) -> RollRecord {
    let inputs = RollInputs {
        dice: RollDice::Notation(current.notation.source().to_string()),
        seed: current.seed,
        gesture: current.swing.map(Into::into),
        cocked: SettleRules::default().cocked,
    };
    let mut record = RollRecord::new(
        Thrown::Notation {
            notation: current.notation.source().to_string(),
        },
        &inputs,
        table.records.clone(),
    );
    record.who = current.caller.who.clone();
    record.label = current.caller.label.clone();
    record.faces = table.chains.clone();
    record.total = Some(total);
    record.outcome = success.map(|ok| if ok { "success" } else { "failure" }.to_string());
    record
}
