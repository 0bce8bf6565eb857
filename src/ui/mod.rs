//! The overlays (bevy_egui): the scene and its turn tracker on the left; the free-roll box with
//! its exact odds, the outcome of the throw and the history on the right.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::third_party::egui::PanelSpace;

mod free_roll;
mod scene_panel;

pub use free_roll::{FreeRoll, RollHistory};
pub use scene_panel::SceneShelf;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((free_roll::plugin, scene_panel::plugin));
    app.add_systems(EguiPrimaryContextPass, draw_overlays);
}

/// Draws both side panels and reports the room they take.
#[allow(clippy::too_many_arguments)]
fn draw_overlays(
    mut contexts: EguiContexts,
    mut space: ResMut<PanelSpace>,
    mut free: ResMut<FreeRoll>,
    table: Res<crate::table::TableRoll>,
    history: Res<RollHistory>,
    mut shelf: ResMut<SceneShelf>,
    mut throws: MessageWriter<crate::table::ThrowNotation>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "overlays".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    // Panels take a share of the window, so a small window still shows the tray.
    let width = ctx.viewport_rect().width();
    space.left = egui::Panel::left("scene")
        .default_size((width * 0.21).clamp(150.0, 300.0))
        .resizable(true)
        .show(&mut root, |ui| scene_panel::show(ui, &mut shelf))
        .response
        .rect
        .width();
    space.right = egui::Panel::right("free roll")
        .default_size((width * 0.26).clamp(180.0, 360.0))
        .resizable(true)
        .show(&mut root, |ui| {
            free_roll::show(ui, &mut free, &table, &history, &mut throws)
        })
        .response
        .rect
        .width();
    Ok(())
}
