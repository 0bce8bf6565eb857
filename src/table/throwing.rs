//! Throwing on the table: a notation and a seed become a physical throw in a simulator of its
//! own (the same headless physics as `roll`, stepped at 240 Hz from the window's fixed
//! schedule), and the dice on screen follow it. Open-ended dice that show their top face are
//! thrown again. Results are printed, so a throw in the window can be compared with `roll`.
//! Throws are asked for with a `ThrowNotation` message (the free-roll box, `--roll`, history).

use bevy::prelude::*;

use super::dice_view::{DiceLook, die_visual};
use crate::dice::DieKind;
use crate::dice::mesh::DieStyle;
use crate::physics::headless::{DiePose, Simulator};
use crate::physics::notation::{physical_dice, record_faces};
use crate::physics::{RollResult, STEP_HZ, SettleRules, ThrowRequest, throw_seed};
use crate::rules::notation::{Notation, open_ended_rethrows};
use crate::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(Time::<Fixed>::from_hz(STEP_HZ));
    app.init_resource::<TableRoll>();
    app.insert_non_send(TableSimulator::default());
    app.add_message::<ThrowNotation>();
    app.add_systems(Startup, throw_requested_at_start);
    app.add_systems(FixedUpdate, step_throw);
    app.add_systems(
        Update,
        (
            throw_dice.in_set(AppSystems::Throw),
            move_dice_on_screen.in_set(AppSystems::Settle),
            read_settled_faces.in_set(AppSystems::ReadFaces),
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
}

/// The roll on the table: what was thrown, the throws so far, and the result once read.
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
    /// The dice on screen, in throw order.
    pub shown: Vec<Entity>,
}

impl TableRoll {
    /// True while dice are in the air or a re-throw is due.
    pub fn in_flight(&self) -> bool {
        self.current.is_some() && self.total.is_none()
    }
}

/// The physics of the throw in the air: its own simulator (a world holding nothing else).
#[derive(Default)]
struct TableSimulator {
    sim: Option<Simulator>,
    roll: Option<Entity>,
    finished: Option<RollResult>,
}

fn throw_requested_at_start(options: Res<PlayOptions>, mut writer: MessageWriter<ThrowNotation>) {
    let Some(text) = &options.roll else { return };
    match Notation::parse(text) {
        Ok(notation) => {
            writer.write(ThrowNotation {
                notation,
                seed: options.seed.unwrap_or_else(rand::random),
            });
        }
        Err(e) => error!("{e}"),
    }
}

/// The asset stores a die's look is made into.
type DiceAssets<'w> = (
    ResMut<'w, Assets<Mesh>>,
    ResMut<'w, Assets<Image>>,
    ResMut<'w, Assets<StandardMaterial>>,
);

/// Light dice and dark dice alternate; a d100's tens die is dark.
fn style(kind: DieKind, index: usize) -> DieStyle {
    match (kind, index % 2) {
        (DieKind::D10Tens, _) | (_, 1) => DieStyle::ONYX,
        _ => DieStyle::IVORY,
    }
}

/// The dice on screen for the throw, at their starting poses.
fn show_dice(
    commands: &mut Commands,
    poses: &[DiePose],
    look: &mut DiceLook,
    assets: &mut DiceAssets,
) -> Vec<Entity> {
    poses
        .iter()
        .map(|p| {
            let (mesh, material) = look.parts(
                p.kind,
                style(p.kind, p.index),
                &mut assets.0,
                &mut assets.1,
                &mut assets.2,
            );
            commands.spawn(die_visual(p, mesh, material)).id()
        })
        .collect()
}

/// Starts a throw of notation dice `which` in a fresh simulator and shows its dice.
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
    let kinds = match physical_dice(&current.notation.dice(), &which) {
        Ok(k) => k,
        Err(e) => {
            error!("{e}");
            table.current = None;
            return;
        }
    };
    let request = ThrowRequest {
        seed: throw_seed(current.seed, table.throws),
        tag: u64::from(table.throws),
        dice: kinds,
        swing: None,
    };
    let mut sim = Simulator::with_steps(SettleRules::default(), 1);
    let roll = sim.start(&request);
    for e in table.shown.drain(..) {
        commands.entity(e).despawn();
    }
    table.shown = show_dice(commands, &sim.poses(roll), look, assets);
    table.in_throw = which;
    table.throws += 1;
    *physics = TableSimulator {
        sim: Some(sim),
        roll: Some(roll),
        finished: None,
    };
}

fn throw_dice(
    mut commands: Commands,
    mut requests: MessageReader<ThrowNotation>,
    mut table: ResMut<TableRoll>,
    mut physics: NonSendMut<TableSimulator>,
    mut look: ResMut<DiceLook>,
    mut assets: DiceAssets,
) {
    let Some(request) = requests.read().last().cloned() else {
        return;
    };
    let n = request.notation.dice().len();
    table.current = Some(request);
    table.chains = vec![Vec::new(); n];
    table.throws = 0;
    table.total = None;
    launch(
        &mut commands,
        &mut table,
        &mut physics,
        (0..n).collect(),
        &mut look,
        &mut assets,
    );
}

/// One physics step of the throw in the air, at the window's fixed rate.
fn step_throw(mut physics: NonSendMut<TableSimulator>) {
    let physics = &mut *physics;
    if physics.finished.is_some() {
        return;
    }
    if let Some(sim) = physics.sim.as_mut() {
        sim.update();
        physics.finished = sim.take_finished().pop();
    }
}

fn move_dice_on_screen(
    mut physics: NonSendMut<TableSimulator>,
    table: Res<TableRoll>,
    mut shown: Query<&mut Transform>,
) {
    let physics = &mut *physics;
    let (Some(sim), Some(roll)) = (physics.sim.as_mut(), physics.roll) else {
        return;
    };
    let poses = match &physics.finished {
        Some(result) => result
            .dice
            .iter()
            .map(|d| {
                (
                    Vec3::from_array(d.translation),
                    Quat::from_array(d.rotation),
                )
            })
            .collect::<Vec<_>>(),
        None => sim
            .poses(roll)
            .iter()
            .map(|p| (p.translation, p.rotation))
            .collect(),
    };
    for (&entity, (translation, rotation)) in table.shown.iter().zip(poses) {
        if let Ok(mut t) = shown.get_mut(entity) {
            *t = Transform::from_translation(translation).with_rotation(rotation);
        }
    }
}

/// Reads a finished throw into the chains; throws open-ended dice again, or reports the total.
fn read_settled_faces(
    mut commands: Commands,
    mut table: ResMut<TableRoll>,
    mut physics: NonSendMut<TableSimulator>,
    mut look: ResMut<DiceLook>,
    mut assets: DiceAssets,
) {
    if !table.in_flight() {
        return;
    }
    if table.in_throw.is_empty() {
        return;
    }
    let Some(result) = physics.finished.clone() else {
        return;
    };
    let Some(current) = table.current.clone() else {
        return;
    };
    let dice = current.notation.dice();
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
            println!(
                "rolled {} seed {}: faces {:?} total {}",
                current.notation.source(),
                current.seed,
                table.chains,
                r.total
            );
        }
        Err(e) => {
            error!("{e}");
            table.current = None;
        }
    }
}
