//! `--screenshot` and `--exit-after-frames`: render, save a PNG, and exit, for headless checks.
//! A throw still in the air holds the screenshot back until its dice have settled.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bevy::diagnostic::FrameCount;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::render::{Render, RenderApp, RenderSystems};

use crate::window::third_party::egui::PanelSpace;
use crate::window::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CaptureState>();
    let pipelines = PipelinesCompiling::default();
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app.insert_resource(pipelines.clone()).add_systems(
            Render,
            count_compiling_pipelines.in_set(RenderSystems::Cleanup),
        );
        app.insert_resource(pipelines);
    }
    app.add_systems(
        Update,
        (capture_and_exit, save_on_f12).in_set(AppSystems::Present),
    );
}

/// F12 saves a screenshot of the window: to the `--screenshot` path when one was given (and
/// the app is not set to exit), else `dicetable-<frame>.png` in the working directory. The path
/// is printed once the file is written.
fn save_on_f12(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    options: Res<PlayOptions>,
    frames: Res<FrameCount>,
) {
    if !keys.just_pressed(KeyCode::F12) {
        return;
    }
    let path = options
        .screenshot
        .clone()
        .filter(|_| options.exit_after_frames.is_none())
        .unwrap_or_else(|| format!("dicetable-{}.png", frames.0).into());
    let mut save = save_to_disk(path.clone());
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>| {
            save(captured);
            println!("saved screenshot {}", path.display());
        },
    );
}

/// How many render pipelines the render world is still compiling (shared with the main world):
/// a screenshot taken while the felt's or the dice's pipelines compile shows an empty view, so
/// the capture waits until none is left. `usize::MAX` until the render world has counted once.
#[derive(Resource, Clone)]
struct PipelinesCompiling(Arc<AtomicUsize>);

impl Default for PipelinesCompiling {
    fn default() -> Self {
        Self(Arc::new(AtomicUsize::new(usize::MAX)))
    }
}

impl PipelinesCompiling {
    /// True once the render world has counted and found nothing compiling.
    fn all_ready(&self) -> bool {
        self.0.load(Ordering::Relaxed) == 0
    }
}

/// Counts, after the frame's pipeline queue ran, the pipelines still queued or compiling.
fn count_compiling_pipelines(cache: Res<PipelineCache>, compiling: Res<PipelinesCompiling>) {
    let waiting = cache.waiting_pipelines().count();
    let total = cache.pipelines().count();
    // None created yet means nothing has been queued: not ready either.
    let count = if total == 0 { usize::MAX } else { waiting };
    compiling.0.store(count, Ordering::Relaxed);
}

/// Frames the app waits for a rendered (not blank) screenshot before it gives up.
const SCREENSHOT_GRACE_FRAMES: u32 = 600;

#[derive(Resource, Default)]
struct CaptureState {
    requested_at: Option<u32>,
    first_request: Option<u32>,
    saved: bool,
    /// Frames since the dice on the table settled (the overlays need a few to show the result).
    quiet_frames: u32,
}

/// Frames to wait after the dice settle and the pipelines are compiled, so every overlay has
/// drawn the result.
const QUIET_FRAMES: u32 = 4;

/// True when the frame is not drawn yet: every pixel the same, or the table's view (whose
/// centre is at `centre_x`, a share of the width) still untouched black while its pipelines
/// compile (the overlays may be drawn already).
fn is_blank(image: &Image, centre_x: f32) -> bool {
    let Some(data) = image.data.as_deref() else {
        return true;
    };
    let Some(first) = data.get(..4) else {
        return true;
    };
    if data.chunks_exact(4).all(|px| px == first) {
        return true;
    }
    let (w, h) = (image.width() as usize, image.height() as usize);
    let x = ((centre_x * w as f32) as usize).min(w.saturating_sub(1));
    let i = ((h / 2) * w + x) * 4;
    data.get(i..i + 3)
        .is_none_or(|px| px.iter().all(|c| *c == 0))
}

/// What holds a capture back: the table still moving, pipelines still compiling.
#[derive(SystemParam)]
struct Stillness<'w> {
    table: super::TableMotion<'w>,
    pipelines: Option<Res<'w, PipelinesCompiling>>,
}

/// The window and what it shows, for the screenshot's blank check and the dice's sizes.
#[derive(SystemParam)]
struct Framing<'w, 's> {
    panels: Res<'w, PanelSpace>,
    window: Single<'w, 's, &'static Window>,
    view: super::TableView<'w, 's>,
    dice: super::DiceShown<'w, 's>,
}

fn capture_and_exit(
    mut commands: Commands,
    options: Res<PlayOptions>,
    frames: Res<FrameCount>,
    mut state: ResMut<CaptureState>,
    mut exit: MessageWriter<AppExit>,
    still: Stillness,
    framing: Framing,
) {
    let Some(after) = options.exit_after_frames else {
        return;
    };
    let moving = still.table.moving();
    // No render world (headless tests): nothing to compile. A pipeline that never compiles
    // holds the capture back for the grace frames at most.
    let compiling = frames.0 < after + SCREENSHOT_GRACE_FRAMES
        && still.pipelines.as_ref().is_some_and(|p| !p.all_ready());
    state.quiet_frames = if moving || compiling {
        0
    } else {
        state.quiet_frames + 1
    };
    if frames.0 < after || state.quiet_frames < QUIET_FRAMES {
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
        if let Ok(view) = framing.view.single() {
            let sizes = super::camera::dice_across_on_screen(
                view,
                framing.dice.iter().map(|(t, d)| (*t, *d)),
            );
            if let (Some(small), Some(large)) = (sizes.first(), sizes.last()) {
                let each: Vec<String> = sizes
                    .iter()
                    .map(|(px, kind)| format!("{} {px:.0}", kind.name()))
                    .collect();
                println!(
                    "dice on screen: {} settled, smallest {:.0} px across, largest {:.0} px ({})",
                    sizes.len(),
                    small.0,
                    large.0,
                    each.join(", ")
                );
            }
        }
        let width = framing.window.width().max(1.0);
        let panels = &framing.panels;
        let centre_x = (panels.left + (width - panels.left - panels.right) / 2.0) / width;
        commands.spawn(Screenshot::primary_window()).observe(
            move |captured: On<ScreenshotCaptured>, mut state: ResMut<CaptureState>| {
                if is_blank(&captured.image, centre_x) {
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
