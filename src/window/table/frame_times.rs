//! `play --frame-times`: the mean frame time while dice fly and once they lie still, printed
//! when the app exits, with the number of dice on the table (the figures in `docs/performance.md`).

use bevy::prelude::*;

use super::throwing::TableSimulator;
use crate::window::PlayOptions;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FrameTimes>();
    app.add_systems(Last, (count_frame, report_on_exit).chain());
}

/// Frame times seen, split by whether dice were in the air.
#[derive(Resource, Default)]
struct FrameTimes {
    flying: (u32, f64),
    still: (u32, f64),
    dice: usize,
}

/// Frames skipped at the start (shader compilation, first layout).
const WARM_UP_FRAMES: u32 = 30;

fn count_frame(
    time: Res<Time<Real>>,
    physics: NonSend<TableSimulator>,
    mut times: ResMut<FrameTimes>,
    mut frame: Local<u32>,
) {
    *frame += 1;
    if *frame <= WARM_UP_FRAMES {
        return;
    }
    let dt = time.delta_secs_f64();
    times.dice = physics.dice_shown();
    let slot = if physics.busy() {
        &mut times.flying
    } else {
        &mut times.still
    };
    slot.0 += 1;
    slot.1 += dt;
}

fn report_on_exit(
    options: Res<PlayOptions>,
    times: Res<FrameTimes>,
    mut exits: MessageReader<AppExit>,
) {
    if !options.frame_times || exits.read().next().is_none() {
        return;
    }
    let mean = |(n, total): (u32, f64)| {
        if n == 0 {
            "no frames".to_string()
        } else {
            format!("{:.2} ms over {n} frames", total * 1000.0 / f64::from(n))
        }
    };
    println!(
        "frame times with {} dice: in the air {}; at rest {}",
        times.dice,
        mean(times.flying),
        mean(times.still)
    );
}
