//! The scene's table in the window: the rules state of the seated scene, and moves played on
//! it through the roll path (`crate::roll::MoveRoll`). Each throw the move asks for is thrown
//! physically on the felt (each die in the colour of its character, or light and dark for
//! `open-d6`); its settled faces are fed back to the roll, which checks them against the plan,
//! caps the throws, asks for follow-ups (open-ended sixes, friction, a tied initiative) and
//! resolves the outcome, then applied to the turn economy. A replay from the history throws the
//! same dice against the table as it was, and changes nothing.

use bevy::prelude::*;

use super::history::Caller;
use super::history::{HistoryEntry, Replay, RollHistory, move_luck};
use super::throwing::{DiceThrow, TableSimulator, ThrowSettled, Thrower, start_throw};
use crate::dice::looks::DicePainter;
use crate::physics::throw::Swing;
use crate::record::Cocked;
use crate::roll::{Driving, MoveRoll, RollError};
use crate::rules::data::DataError;
use crate::rules::engine::Rulebook;
use crate::rules::play::Move;
use crate::rules::scene::Scene;
use crate::rules::table::TableState;
use crate::rules::{Odds, Outcome, RollPlan};
use crate::window::{AppSystems, PlayOptions};

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

/// A move on the table: its roll (the throws so far, their faces, the outcome once read), and
/// what it changed.
#[derive(Clone, Debug)]
pub struct MoveInPlay {
    /// What was asked.
    pub request: ActionRequest,
    /// The move in words.
    pub title: String,
    /// The move's roll, driven throw by throw on the felt by the roll path's one driver: the
    /// faces so far, every physical throw so far (None when the rules refused it at once).
    driving: Option<Driving<MoveRoll>>,
    /// The exact odds of the move at the table it was played at.
    pub odds: Option<Odds>,
    /// What changed at the table.
    pub effects: Vec<String>,
    /// Why the move stopped, if it did (the rules' refusal, faces that did not fit, a cap).
    pub error: Option<RollError>,
}

impl MoveInPlay {
    /// True while dice are in the air or a follow-up is due.
    pub fn in_flight(&self) -> bool {
        self.error.is_none() && self.roll().is_some_and(|r| !r.is_done())
    }

    /// The move's roll so far (None when the rules refused it at once).
    pub fn roll(&self) -> Option<&MoveRoll> {
        self.driving.as_ref().map(Driving::roll)
    }

    /// The outcome, once resolved.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.roll()?.outcome()
    }

    /// The rules' faces of each throw so far.
    pub fn faces(&self) -> &[Vec<u32>] {
        self.roll().map_or(&[], |r| r.faces())
    }

    /// The plan of each throw made, then the one waiting for its dice.
    pub fn plans(&self) -> Vec<&RollPlan> {
        self.roll().into_iter().flat_map(|r| r.plans()).collect()
    }

    /// Where the outcome falls on the odds chart.
    pub fn charted(&self) -> Option<i64> {
        self.roll()?.charted()
    }
}

/// The scene's table: its rules, its state, the move in play and what has happened.
#[derive(Resource)]
pub struct TablePlay {
    /// The rule files (compiled in).
    pub book: Result<Rulebook, DataError>,
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
    /// The dice the seated scene gives its characters (a room's throws bring their own).
    pub dice: DicePainter,
}

impl Default for TablePlay {
    fn default() -> Self {
        TablePlay {
            book: Rulebook::builtin(),
            scene: None,
            state: None,
            current: None,
            log: Vec::new(),
            next_seed: rand::random(),
            dice: DicePainter::default(),
        }
    }
}

impl TablePlay {
    /// True while a move's dice are in the air.
    pub fn in_flight(&self) -> bool {
        self.current.as_ref().is_some_and(MoveInPlay::in_flight)
    }

    /// Seats a scene: a fresh table (ties the rules leave to chance are broken with `seed`).
    pub fn seat(&mut self, scene: &Scene, seed: u64) -> Result<(), DataError> {
        let book = self.book.as_ref().map_err(Clone::clone)?;
        let table = TableState::new(scene, book, seed);
        // The dice the scene gives its characters (a table no room drives).
        let seats = table
            .names()
            .iter()
            .map(|n| scene.dice.get(*n).copied())
            .collect();
        self.dice = DicePainter::new(None, seats);
        self.state = Some(table);
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
        && let Ok(line) = crate::roll::end_turn(state)
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

/// Starts a requested move: the roll path's verdict, then its first throw (or, for a move
/// without dice, its outcome at once).
fn throw_move(
    mut requests: MessageReader<ActionRequest>,
    mut play: ResMut<TablePlay>,
    mut physics: NonSendMut<TableSimulator>,
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
        odds: before.odds(&request.mv).ok().flatten(),
        driving: None,
        effects: Vec::new(),
        error: None,
        request,
    };
    match MoveRoll::start(&before, &current.request.mv, current.request.seed) {
        Ok(roll) => {
            current.driving = Some(Driving::new(roll));
            go_on(&mut play, &mut current, &mut physics, &mut history);
        }
        Err(e) => current.error = Some(e),
    }
    play.current = Some(current);
}

/// Feeds each settled throw of the move to its roll: the faces checked against the plan, then
/// the next throw or the outcome.
fn read_move_faces(
    mut settled: MessageReader<ThrowSettled>,
    mut play: ResMut<TablePlay>,
    mut physics: NonSendMut<TableSimulator>,
    mut history: ResMut<RollHistory>,
) {
    for throw in settled.read().filter(|t| t.thrower == Thrower::Scene) {
        if !play.in_flight() {
            continue;
        }
        let Some(mut current) = play.current.take() else {
            continue;
        };
        if let Some(driving) = current.driving.as_mut() {
            driving.feed(throw.record.clone());
            go_on(&mut play, &mut current, &mut physics, &mut history);
        }
        play.current = Some(current);
    }
}

/// The move's next step: its next throw on the felt, or its outcome (applied to the table,
/// recorded in the history).
fn go_on(
    play: &mut TablePlay,
    current: &mut MoveInPlay,
    physics: &mut TableSimulator,
    history: &mut RollHistory,
) {
    let Some(driving) = current.driving.as_mut() else {
        return;
    };
    if let Some(order) = driving.order() {
        let throw = DiceThrow::of(
            &order,
            current.request.swing,
            Cocked::default(),
            Thrower::Scene,
        )
        .painted(
            &order,
            Some(
                current
                    .request
                    .caller
                    .painter
                    .as_ref()
                    .unwrap_or(&play.dice),
            ),
            false,
        );
        start_throw(physics, &throw);
        return;
    }
    if let Some(e) = driving.stopped().cloned() {
        warn!("{}: {e}", current.title);
        println!("move stopped: {}: {e}", current.title);
        current.error = Some(e);
        return;
    }
    finish(play, current, history);
}

/// A resolved move: applied to the table (unless it is a replay), recorded, printed.
fn finish(play: &mut TablePlay, current: &mut MoveInPlay, history: &mut RollHistory) {
    let Some(driving) = &current.driving else {
        return;
    };
    let roll = driving.roll();
    let Some(outcome) = roll.outcome().cloned() else {
        return;
    };
    let replay = current.request.replay_of.is_some();
    if !replay && let Some(state) = play.state.as_mut() {
        match roll.apply_to(state) {
            Ok(effects) => current.effects = effects,
            Err(e) => current.error = Some(e),
        }
    }
    let mut record = roll.record(
        play.scene.as_deref().unwrap_or_default(),
        driving.throws().to_vec(),
        current.request.swing.map(Into::into),
        Cocked::default(),
    );
    record.who = current.request.caller.who.clone();
    if let Some(label) = &current.request.caller.label {
        record.label = Some(label.clone());
    }
    let code = record.code();
    // Stored before it is shown: a crash right after loses nothing that was seen.
    history.push(HistoryEntry {
        record,
        what: current.title.clone(),
        seed: current.request.seed,
        faces: roll.faces().to_vec(),
        result: outcome.class.clone(),
        replay: Replay::Move {
            mv: current.request.mv.clone(),
            before: Box::new(roll.table().clone()),
            swing: current.request.swing,
        },
        luck: move_luck(current.odds.as_ref(), roll.charted()),
        is_replay: current.request.caller.replay,
        withheld: current.request.caller.withheld,
        character: current
            .request
            .caller
            .who
            .clone()
            .or_else(|| roll.character()),
    });
    println!(
        "{} {} seed {}: throws {:?} -> {} ({})",
        if replay { "replayed" } else { "played" },
        current.title,
        current.request.seed,
        roll.faces(),
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
}
