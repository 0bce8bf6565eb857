//! The window draws while its table moves and sleeps while it is still: an idle table costs no
//! frames (a laptop's battery, a streamer's CPU beside OBS; under software rendering an idle
//! window took both cores of a 2-core machine). It wakes for input, for a room's news or an API
//! job (the [`Bell`] their threads ring), and at least every [`IDLE_WAIT`]. While dice fly, the
//! camera glides, a hand holds dice, a roll waits for its next throw or the odds are being
//! worked out, and for [`AFTERGLOW`] after, every frame is drawn. A run that counts frames
//! (`--exit-after-frames`, `--screenshot`, `--frame-times`) draws every frame.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bevy::prelude::*;
use bevy::window::{RequestRedraw, WindowEvent};
use bevy::winit::{EventLoopProxyWrapper, UpdateMode, WinitSettings, WinitUserEvent};

use super::PlayOptions;
use super::table::{
    CameraMotion, DemoRun, Hand, RemoteDriven, StoredReplay, TablePlay, TableRoll, TableSimulator,
};
use super::ui::FreeRoll;
use super::wake::WakeBell;
use crate::net::bell::Bell;

/// The longest a still table waits for its next frame.
pub const IDLE_WAIT: Duration = Duration::from_secs(1);

/// How long the window keeps drawing every frame once the table is still: the next step of a
/// chain (`--throw N`, a demo's steps, a message read the frame after it was written) starts
/// within it.
pub const AFTERGLOW: Duration = Duration::from_millis(500);

pub(super) fn plugin(app: &mut App) {
    let counts_frames = app
        .world()
        .get_resource::<PlayOptions>()
        .is_some_and(|o| o.exit_after_frames.is_some() || o.screenshot.is_some() || o.frame_times);
    if !counts_frames {
        app.insert_resource(WinitSettings {
            focused_mode: UpdateMode::reactive(IDLE_WAIT),
            unfocused_mode: UpdateMode::reactive_low_power(IDLE_WAIT),
        });
    }
    let rung = Arc::new(AtomicBool::new(false));
    let bell = app
        .world()
        .get_resource::<EventLoopProxyWrapper>()
        .map(|proxy| {
            let proxy = (**proxy).clone();
            let rung = rung.clone();
            Bell::new(move || {
                rung.store(true, Ordering::Release);
                let _ = proxy.send_event(WinitUserEvent::WakeUp);
            })
        })
        .unwrap_or_default();
    app.insert_resource(WakeBell::new(bell, rung));
    app.add_systems(Last, keep_drawing_while_the_table_moves);
}

/// What moves on the table, or waits to.
#[derive(bevy::ecs::system::SystemParam)]
struct Motion<'w> {
    play: Res<'w, TablePlay>,
    roll: Res<'w, TableRoll>,
    replay: Res<'w, StoredReplay>,
    camera: Res<'w, CameraMotion>,
    hand: Res<'w, Hand>,
    demo: Res<'w, DemoRun>,
    free: Res<'w, FreeRoll>,
    options: Res<'w, PlayOptions>,
    remote: Option<Res<'w, RemoteDriven>>,
}

impl Motion<'_> {
    /// True while anything moves, or a roll waits for its next throw.
    fn moving(&self, physics: &TableSimulator) -> bool {
        physics.busy()
            || self.play.in_flight()
            || self.roll.in_flight()
            || self.replay.in_flight()
            || self.camera.gliding
            || self.hand.holding
            || !self.demo.started_steps_played(self.options.demo.steps)
            || self.remote.as_ref().is_some_and(|r| r.catching_up)
            || self.free.working_out_odds()
    }
}

/// Asks for the next frame while the table moves, and for [`AFTERGLOW`] after it, after any
/// input and after the bell: what they started may be read only on the next frame.
fn keep_drawing_while_the_table_moves(
    motion: Motion,
    physics: NonSend<TableSimulator>,
    wake: Res<WakeBell>,
    mut input: MessageReader<WindowEvent>,
    time: Res<Time<Real>>,
    mut still_since: Local<Option<Duration>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let now = time.elapsed();
    // Our own redraw requests come back as window events: they stir nothing.
    let stirred = input
        .read()
        .any(|e| !matches!(e, WindowEvent::RequestRedraw(_)))
        | wake.take_rung();
    if stirred || motion.moving(&physics) {
        *still_since = None;
    }
    let since = *still_since.get_or_insert(now);
    if now.saturating_sub(since) < AFTERGLOW {
        redraw.write(RequestRedraw);
    }
}
