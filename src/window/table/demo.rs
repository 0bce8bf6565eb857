//! A guided demo at the table: the demo's scene is seated, and its steps are thrown one by one
//! when the game master asks (Throw, Next, Back, Replay). Back restores the table as it was
//! before the step; Replay throws the step again with its seed against that table and changes
//! nothing, so the same dice come up.

use std::path::PathBuf;

use bevy::prelude::*;

use super::play::{ActionRequest, TablePlay};
use super::throwing::TableSimulator;
use crate::demo::LoadedDemo;
use crate::rules::table::TableState;
use crate::window::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DemoRun>();
    app.add_message::<DemoCommand>();
    app.add_systems(Startup, open_requested_demo);
    app.add_systems(
        Update,
        (play_steps_at_start, run_demo_commands)
            .chain()
            .in_set(AppSystems::ReadInput),
    );
}

/// The demo being played, if any.
#[derive(Resource, Default)]
pub struct DemoRun {
    /// The demo.
    pub demo: Option<LoadedDemo>,
    /// The step being narrated (0-based).
    pub at: usize,
    /// Whether that step has been thrown.
    pub thrown: bool,
    /// The table before each step thrown so far.
    before: Vec<TableState>,
    /// Why the last demo could not be opened.
    pub error: Option<String>,
    /// Steps played by `--steps` so far.
    autoplayed: u32,
}

impl DemoRun {
    /// The number of steps.
    pub fn steps(&self) -> usize {
        self.demo.as_ref().map(|d| d.demo.steps.len()).unwrap_or(0)
    }

    /// Whether `demo --steps N` has played its N steps (or there is no demo to play).
    pub fn started_steps_played(&self, wanted: u32) -> bool {
        self.demo.is_none() || self.autoplayed >= wanted.min(self.steps() as u32)
    }

    /// Whether there is a step after this one.
    pub fn has_next(&self) -> bool {
        self.at + 1 < self.steps()
    }
}

/// What the game master asks of the demo.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum DemoCommand {
    /// Open a demo file and seat its scene.
    Start(PathBuf),
    /// Throw the current step.
    Throw,
    /// Go on to the next step.
    Next,
    /// Go back: the table as it was before the step.
    Back,
    /// Throw the current step again with its seed (changes nothing at the table).
    Replay,
    /// Leave the demo (the table stays as it is).
    Leave,
}

fn open_requested_demo(options: Res<PlayOptions>, mut commands: MessageWriter<DemoCommand>) {
    if let Some(path) = &options.demo.path {
        commands.write(DemoCommand::Start(path.clone()));
    }
}

/// `demo --steps N`: the first N steps, each thrown once the last has settled.
fn play_steps_at_start(
    options: Res<PlayOptions>,
    mut run: ResMut<DemoRun>,
    play: Res<TablePlay>,
    physics: NonSend<TableSimulator>,
    mut commands: MessageWriter<DemoCommand>,
) {
    if run.demo.is_none()
        || run.autoplayed >= options.demo.steps
        || play.in_flight()
        || physics.busy()
    {
        return;
    }
    if !run.thrown {
        commands.write(DemoCommand::Throw);
        run.autoplayed += 1;
    } else if run.has_next() {
        commands.write(DemoCommand::Next);
    }
}

fn restore(run: &DemoRun, play: &mut TablePlay) {
    if let Some(state) = run.before.get(run.at) {
        play.state = Some(state.clone());
        play.current = None;
        play.log.push(format!("demo: back to step {}", run.at + 1));
    }
}

fn run_demo_commands(
    mut commands: MessageReader<DemoCommand>,
    mut run: ResMut<DemoRun>,
    mut play: ResMut<TablePlay>,
    physics: NonSend<TableSimulator>,
    mut requests: MessageWriter<ActionRequest>,
) {
    for command in commands.read() {
        let busy = play.in_flight() || physics.busy();
        match command {
            DemoCommand::Start(path) => match LoadedDemo::load(path) {
                Ok(demo) => match play.seat(&demo.scene, demo.demo.seed) {
                    Ok(()) => {
                        play.log.push(format!("demo: {}", demo.demo.title));
                        *run = DemoRun {
                            demo: Some(demo),
                            ..DemoRun::default()
                        };
                    }
                    Err(e) => run.error = Some(e.to_string()),
                },
                Err(e) => {
                    warn!("demo not opened: {e}");
                    run.error = Some(e.to_string());
                }
            },
            DemoCommand::Throw if !run.thrown && !busy => {
                let (Some(demo), Some(state)) = (&run.demo, &play.state) else {
                    continue;
                };
                let Some(step) = demo.demo.steps.get(run.at) else {
                    continue;
                };
                let request = ActionRequest {
                    mv: step.mv.clone(),
                    seed: demo.step_seed(run.at),
                    swing: None,
                    replay_of: None,
                    caller: Default::default(),
                };
                let at = run.at;
                let state = state.clone();
                run.before.truncate(at);
                run.before.push(state);
                run.thrown = true;
                requests.write(request);
            }
            DemoCommand::Next if run.thrown && run.has_next() && !busy => {
                run.at += 1;
                run.thrown = false;
            }
            DemoCommand::Back if !busy => {
                if run.thrown {
                    run.thrown = false;
                    restore(&run, &mut play);
                } else if run.at > 0 {
                    run.at -= 1;
                    restore(&run, &mut play);
                }
            }
            DemoCommand::Replay if run.thrown && !busy => {
                let (Some(demo), Some(before)) = (&run.demo, run.before.get(run.at)) else {
                    continue;
                };
                let Some(step) = demo.demo.steps.get(run.at) else {
                    continue;
                };
                requests.write(ActionRequest {
                    mv: step.mv.clone(),
                    seed: demo.step_seed(run.at),
                    swing: None,
                    replay_of: Some(Box::new(before.clone())),
                    caller: Default::default(),
                });
            }
            DemoCommand::Leave => {
                *run = DemoRun::default();
            }
            _ => {}
        }
    }
}
