//! The window draws while its table moves and sleeps while it is still: an idle table costs no
//! frames (a laptop's battery, a streamer's CPU beside OBS; under software rendering an idle
//! window took both cores of a 2-core machine). It wakes for input, for a room's news or an API
//! job (the [`Bell`](crate::net::bell::Bell) their threads ring), and at least every [`IDLE_WAIT`]. While dice fly, the
//! camera glides, a hand holds dice, a roll waits for its next throw or the odds are being
//! worked out, and for [`AFTERGLOW`] after, every frame is drawn. A run that counts frames
//! (`--exit-after-frames`, `--screenshot`, `--frame-times`) draws every frame.

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::{RequestRedraw, WindowEvent};
use bevy::winit::{EventLoopProxyWrapper, UpdateMode, WinitSettings};

use super::PlayOptions;
use super::table::{Hand, StoredReplay, TableMotion};
use super::ui::FreeRoll;
use super::wake::WakeBell;

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
    let proxy = app
        .world()
        .get_resource::<EventLoopProxyWrapper>()
        .map(|proxy| (**proxy).clone());
    app.insert_resource(WakeBell::through(proxy));
    app.add_systems(Last, keep_drawing_while_the_table_moves);
}

/// What moves on the table or waits to, and besides: a stored replay between its throws, dice
/// in the hand, odds being worked out.
#[derive(bevy::ecs::system::SystemParam)]
struct Motion<'w> {
    table: TableMotion<'w>,
    replay: Res<'w, StoredReplay>,
    hand: Res<'w, Hand>,
    free: Res<'w, FreeRoll>,
}

impl Motion<'_> {
    /// True while anything moves, or a roll waits for its next throw.
    fn moving(&self) -> bool {
        self.table.moving()
            || self.replay.in_flight()
            || self.hand.holding
            || self.free.working_out_odds()
    }
}

/// Asks for the next frame while the table moves, and for [`AFTERGLOW`] after it, after any
/// input and after the bell: what they started may be read only on the next frame.
fn keep_drawing_while_the_table_moves(
    motion: Motion,
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
    if stirred || motion.moving() {
        *still_since = None;
    }
    let since = *still_since.get_or_insert(now);
    if now.saturating_sub(since) < AFTERGLOW {
        redraw.write(RequestRedraw);
    }
}
