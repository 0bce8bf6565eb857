//! The window app's own features: the tray scene, the camera, the dice and their throws, and
//! capture for headless checks.

use bevy::prelude::*;

mod camera;
mod capture;
mod dice_view;
mod scene;
mod throwing;

pub use throwing::{TableRoll, ThrowNotation};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        scene::plugin,
        camera::plugin,
        dice_view::plugin,
        throwing::plugin,
        capture::plugin,
    ));
}
