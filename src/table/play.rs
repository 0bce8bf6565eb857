//! The scene's table in the window: the rules state of the seated scene, and moves played on
//! it. A move's dice are thrown physically (each die in the colour of its character, or light
//! and dark for `open-d6`), the faces read go to the rules, follow-up throws (open-ended sixes,
//! friction, a tied initiative) are thrown in turn, and the outcome is applied to the turn
//! economy. A replay from the history throws the same dice against the table as it was, and
//! changes nothing.

use bevy::prelude::*;

use super::dice_view::DiceLook;
use super::history::Caller;
use super::history::{HistoryEntry, Replay, RollHistory, move_luck};
use super::throwing::{DiceAssets, DiceThrow, TableSimulator, Thrower, start_throw};
pub use crate::dice::looks::dice_of_plan;
use crate::physics::notation::rules_faces;
use crate::physics::throw::Swing;
use crate::physics::throw_seed;
use crate::record::{RollDice, RollInputs, RollRecord, ThrowRecord, Thrown};
use crate::rules::engine::Rulebook;
use crate::rules::play::Move;
use crate::rules::scene::Scene;
use crate::rules::table::TableState;
use crate::rules::{Odds, Outcome, RollPlan, Step};
use crate::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TablePlay>();
    app.add_message::<ActionRequest>();
    app.add_systems(Startup, seed_the_table);
    app.add_systems(
        Update,
        (
            throw_requested_move.in_set(AppSystems::ReadInput),
            throw_move.in_set(AppSystems::Throw),
            read_move_faces.in_set(AppSystems::ReadFaces),
        ),
    );
}

/// A request to play a move with a seed.
#[derive(Message, Clone, Debug)]
pub struct ActionRequest {
    /// The move.
    pub mv: Move,
    /// The seed of its first throw (follow-ups derive theirs from it).
    pub seed: u64,
    /// The hand's swing, from a mouse gesture (None: drawn from the seed).
    pub swing: Option<Swing>,
    /// For a replay: the table as it was. The move resolves against it and applies nothing.
    pub replay_of: Option<Box<TableState>>,
    /// Who asked, when not the window's player.
    pub caller: Caller,
}

/// A move on the table: its throws so far, and its outcome once read.
#[derive(Clone, Debug)]
pub struct MoveInPlay {
    /// What was asked.
    pub request: ActionRequest,
    /// The move in words.
    pub title: String,
    /// The table the move resolves against.
    pub before: TableState,
    /// The plan of each throw (the first, then the follow-ups).
    pub plans: Vec<RollPlan>,
    /// The faces of each throw, in plan order.
    pub throws: Vec<Vec<u32>>,
    /// The outcome, once resolved.
    pub outcome: Option<Outcome>,
    /// The exact odds of the move at the table it was played at.
    pub odds: Option<Odds>,
    /// Where the outcome falls on the odds chart.
    pub charted: Option<i64>,
    /// What changed at the table.
    pub effects: Vec<String>,
    /// Why the move stopped, if it did.
    pub error: Option<String>,
    /// Each physical throw so far.
    pub records: Vec<ThrowRecord>,
}

impl MoveInPlay {
    /// True while dice are in the air or a follow-up is due.
    pub fn in_flight(&self) -> bool {
        self.outcome.is_none() && self.error.is_none()
    }
}

/// The scene's table: its rules, its state, the move in play and what has happened.
#[derive(Resource)]
pub struct TablePlay {
    /// The rule files (compiled in).
    pub book: Result<Rulebook, String>,
    /// The seated scene's title.
    pub scene: Option<String>,
    /// Its turn economy.
    pub state: Option<TableState>,
    /// The last move played (or playing).
    pub current: Option<MoveInPlay>,
    /// What happened at the table, oldest first.
    pub log: Vec<String>,
    /// The seed of the next move.
    pub next_seed: u64,
}

impl Default for TablePlay {
    fn default() -> Self {
        TablePlay {
            book: Rulebook::builtin().map_err(|e| e.to_string()),
            scene: None,
            state: None,
            current: None,
            log: Vec::new(),
            next_seed: rand::random(),
        }
    }
}

impl TablePlay {
    /// True while a move's dice are in the air.
    pub fn in_flight(&self) -> bool {
        self.current.as_ref().is_some_and(MoveInPlay::in_flight)
    }

    /// Seats a scene: a fresh table (ties the rules leave to chance are broken with `seed`).
    pub fn seat(&mut self, scene: &Scene, seed: u64) -> Result<(), String> {
        let book = self.book.as_ref().map_err(Clone::clone)?;
        self.state = Some(TableState::new(scene, book, seed));
        self.scene = Some(scene.name.clone());
        self.current = None;
        self.log
            .push(format!("— {} ({}) —", scene.name, scene.ruleset()));
        Ok(())
    }

    /// The next seed, moving on.
    pub fn take_seed(&mut self) -> u64 {
        let seed = self.next_seed;
        self.next_seed = self.next_seed.wrapping_add(1);
        seed
    }
}

fn seed_the_table(options: Res<PlayOptions>, mut play: ResMut<TablePlay>) {
    if let Some(seed) = options.seed {
        play.next_seed = seed;
    }
}

/// `play --throw N`: the scene's default move, N times, each once the last has settled; a
/// turn whose character cannot act is ended first (as a game master demoing the round would).
fn throw_requested_move(
    options: Res<PlayOptions>,
    mut play: ResMut<TablePlay>,
    physics: NonSend<TableSimulator>,
    mut played: Local<u32>,
    mut requests: MessageWriter<ActionRequest>,
) {
    if *played >= options.throw || play.in_flight() || physics.busy() {
        return;
    }
    let Some(state) = play.state.as_mut() else {
        return;
    };
    let mut mv = state.default_move();
    let mut ended = None;
    if state.allowed(&mv).is_err()
        && let Ok(line) = state.end_turn()
    {
        ended = Some(line);
        mv = state.default_move();
    }
    play.log.extend(ended);
    *played += 1;
    let seed = play.take_seed();
    requests.write(ActionRequest {
        mv,
        seed,
        swing: None,
        replay_of: None,
        caller: Default::default(),
    });
}

/// Throws the next plan of a move and records it; a die that cannot be thrown stops the move.
fn throw_plan(
    commands: &mut Commands,
    physics: &mut TableSimulator,
    current: &mut MoveInPlay,
    plan: RollPlan,
    look: &mut DiceLook,
    assets: &mut DiceAssets,
) {
    let actor = current.before.actor_of(&current.request.mv);
    let dice = match dice_of_plan(&plan, actor) {
        Ok(dice) => dice,
        Err(e) => {
            current.error = Some(e);
            current.plans.push(plan);
            return;
        }
    };
    let index = current.throws.len() as u32;
    let throw = DiceThrow {
        dice,
        seed: throw_seed(current.request.seed, index),
        tag: u64::from(index),
        swing: current.request.swing.filter(|_| index == 0),
        thrower: Thrower::Scene,
    };
    start_throw(commands, physics, &throw, look, assets);
    current.plans.push(plan);
}

#[allow(clippy::too_many_arguments)]
fn throw_move(
    mut commands: Commands,
    mut requests: MessageReader<ActionRequest>,
    mut play: ResMut<TablePlay>,
    mut physics: NonSendMut<TableSimulator>,
    mut look: ResMut<DiceLook>,
    mut assets: DiceAssets,
    mut history: ResMut<RollHistory>,
    remote: Option<Res<super::RemoteDriven>>,
) {
    let Some(request) = requests.read().last().cloned() else {
        return;
    };
    if remote.is_some() && !request.caller.shown_only {
        return; // a proposal to the table server (join), thrown once it is logged
    }
    if physics.busy() || play.in_flight() {
        warn!("dice are still rolling: the move waits for them");
        return;
    }
    let Some(before) = request
        .replay_of
        .as_deref()
        .cloned()
        .or_else(|| play.state.clone())
    else {
        return;
    };
    let mut current = MoveInPlay {
        title: before.describe(&request.mv),
        request,
        before,
        plans: Vec::new(),
        throws: Vec::new(),
        outcome: None,
        odds: None,
        charted: None,
        effects: Vec::new(),
        error: None,
        records: Vec::new(),
    };
    current.odds = current.before.odds(&current.request.mv).ok().flatten();
    match current.before.plan(&current.request.mv) {
        Err(e) => current.error = Some(e),
        Ok(plan) if plan.dice.is_empty() => {
            current.plans.push(plan);
            advance(&mut play, &mut current, &mut history);
        }
        Ok(plan) => throw_plan(
            &mut commands,
            &mut physics,
            &mut current,
            plan,
            &mut look,
            &mut assets,
        ),
    }
    play.current = Some(current);
}

/// Resolves the throws so far: the next plan to throw, or the outcome (applied to the table,
/// recorded in the history).
fn advance(
    play: &mut TablePlay,
    current: &mut MoveInPlay,
    history: &mut RollHistory,
) -> Option<RollPlan> {
    let step = current.before.resolve(&current.request.mv, &current.throws);
    let outcome = match step {
        Err(e) => {
            current.error = Some(e);
            return None;
        }
        Ok(Step::ThrowMore(plan)) => return Some(plan),
        Ok(Step::Done(outcome)) => outcome,
    };
    current.charted = current.before.charted_value(&current.request.mv, &outcome);
    let replay = current.request.replay_of.is_some();
    if !replay && let Some(state) = play.state.as_mut() {
        match state.apply(&current.request.mv, &current.throws, &outcome) {
            Ok(effects) => current.effects = effects,
            Err(e) => current.error = Some(e),
        }
    }
    let record = move_record(play, current, &outcome);
    let code = record.code();
    // Stored before it is shown: a crash right after loses nothing that was seen.
    history.push(HistoryEntry {
        record,
        what: current.title.clone(),
        seed: current.request.seed,
        faces: current.throws.clone(),
        result: outcome.class.clone(),
        replay: Replay::Move {
            mv: current.request.mv.clone(),
            before: Box::new(current.before.clone()),
            swing: current.request.swing,
        },
        luck: move_luck(current.odds.as_ref(), current.charted),
        is_replay: current.request.caller.replay,
        character: current
            .request
            .caller
            .who
            .clone()
            .or_else(|| acting_character(&current.before, &current.request.mv)),
    });
    println!(
        "{} {} seed {}: throws {:?} -> {} ({})",
        if replay { "replayed" } else { "played" },
        current.title,
        current.request.seed,
        current.throws,
        outcome.class,
        outcome.total
    );
    let mut logged = vec![format!("{}: {}", current.title, outcome.class)];
    logged.extend(current.effects.iter().cloned());
    if replay {
        logged = vec![format!("replay of {}: {}", current.title, outcome.class)];
    }
    play.log.extend(logged);
    println!("record {code}");
    current.outcome = Some(outcome);
    None
}

fn read_move_faces(
    mut commands: Commands,
    mut play: ResMut<TablePlay>,
    mut physics: NonSendMut<TableSimulator>,
    mut look: ResMut<DiceLook>,
    mut assets: DiceAssets,
    mut history: ResMut<RollHistory>,
) {
    if !play.in_flight() {
        return;
    }
    let Some(result) = physics.pick_up(Thrower::Scene) else {
        return;
    };
    let Some(mut current) = play.current.take() else {
        return;
    };
    let sides: Vec<u32> = current
        .plans
        .last()
        .map(|p| p.dice.iter().map(|d| d.sides).collect())
        .unwrap_or_default();
    current.throws.push(rules_faces(&sides, &result.dice));
    current.records.extend(physics.settled_record());
    if let Some(next) = advance(&mut play, &mut current, &mut history) {
        throw_plan(
            &mut commands,
            &mut physics,
            &mut current,
            next,
            &mut look,
            &mut assets,
        );
    }
    play.current = Some(current);
}

/// The name of the character a move is made for.
fn acting_character(table: &TableState, mv: &Move) -> Option<String> {
    let i = table.actor_of(mv)?;
    table.names().get(i).map(|n| n.to_string())
}

/// The record of a finished move: its ruleset, scene and title, every throw it took.
fn move_record(play: &TablePlay, current: &MoveInPlay, outcome: &Outcome) -> RollRecord {
    let inputs = RollInputs {
        dice: RollDice::Throws(current.records.iter().map(|t| t.dice.clone()).collect()),
        seed: current.request.seed,
        gesture: current.request.swing.map(Into::into),
        cocked: crate::physics::SettleRules::default().cocked,
    };
    let mut record = RollRecord::new(
        Thrown::Move {
            ruleset: current.before.ruleset().to_string(),
            scene: play.scene.clone().unwrap_or_default(),
            action: current.title.clone(),
        },
        &inputs,
        current.records.clone(),
    );
    record.who = current.request.caller.who.clone();
    record.label = current
        .request
        .caller
        .label
        .clone()
        .or_else(|| Some(current.title.clone()));
    record.faces = current.throws.clone();
    record.total = Some(outcome.total);
    record.outcome = Some(outcome.class.clone());
    record
}
