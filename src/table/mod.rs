//! The window app's own features: the tray scene, the camera, and capture for headless checks.

use bevy::prelude::*;

mod camera;
mod capture;
mod scene;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((scene::plugin, camera::plugin, capture::plugin));
}
