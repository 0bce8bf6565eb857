//! `--screenshot` and `--exit-after-frames`: render, save a PNG, and exit, for headless checks.
//! A throw still in the air holds the screenshot back until its dice have settled.

use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::throwing::TableRoll;
use crate::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CaptureState>();
    app.add_systems(Update, capture_and_exit.in_set(AppSystems::Present));
}

/// Frames the app waits for a rendered (not blank) screenshot before it gives up.
const SCREENSHOT_GRACE_FRAMES: u32 = 600;

#[derive(Resource, Default)]
struct CaptureState {
    requested_at: Option<u32>,
    first_request: Option<u32>,
    saved: bool,
}

/// True when every pixel is the same: pipelines still compiling, only the clear colour shown.
fn is_blank(image: &Image) -> bool {
    let Some(data) = image.data.as_deref() else {
        return true;
    };
    let Some(first) = data.get(..4) else {
        return true;
    };
    data.chunks_exact(4).all(|px| px == first)
}

fn capture_and_exit(
    mut commands: Commands,
    options: Res<PlayOptions>,
    frames: Res<FrameCount>,
    mut state: ResMut<CaptureState>,
    mut exit: MessageWriter<AppExit>,
    table: Res<TableRoll>,
) {
    let Some(after) = options.exit_after_frames else {
        return;
    };
    if frames.0 < after || table.in_flight() {
        return;
    }
    let Some(path) = options.screenshot.clone() else {
        exit.write(AppExit::Success);
        return;
    };
    let first = *state.first_request.get_or_insert(frames.0);
    if state.saved {
        exit.write(AppExit::Success);
    } else if frames.0 > first + SCREENSHOT_GRACE_FRAMES {
        error!("no rendered frame to save within {SCREENSHOT_GRACE_FRAMES} frames");
        exit.write(AppExit::error());
    } else if state.requested_at.is_none() {
        state.requested_at = Some(frames.0);
        let mut save = save_to_disk(path);
        commands.spawn(Screenshot::primary_window()).observe(
            move |captured: On<ScreenshotCaptured>, mut state: ResMut<CaptureState>| {
                if is_blank(&captured.image) {
                    // Not rendered yet: ask again next frame.
                    state.requested_at = None;
                } else {
                    save(captured);
                    state.saved = true;
                }
            },
        );
    }
}
