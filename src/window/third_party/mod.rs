//! Set-up of third-party plugins, one file each.

use bevy::prelude::*;

pub mod egui;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(egui::plugin);
}
