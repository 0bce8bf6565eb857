//! bevy_egui: the overlays are drawn by a camera of their own on top of the table, so the table
//! camera's viewport can shrink to the space the side panels leave.

use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, Viewport};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::window::PrimaryWindow;
use bevy_egui::{
    EguiGlobalSettings, EguiInput, EguiPlugin, EguiPreUpdateSet, PrimaryEguiContext, egui,
};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(EguiPlugin::default());
    app.init_resource::<PanelSpace>();
    app.add_systems(Startup, spawn_overlay_camera);
    app.add_systems(bevy_egui::EguiPrimaryContextPass, add_the_dice_typeface);
    app.add_systems(PostUpdate, fit_table_viewport);
    app.add_systems(
        PreUpdate,
        drop_unchanged_modifiers
            .after(EguiPreUpdateSet::ProcessInput)
            .before(EguiPreUpdateSet::BeginPass),
    );
}

/// bevy_egui tells egui the modifier keys every frame, as a change; egui then asks for the next
/// frame at once, and a window that should sleep while its table is still never does. A
/// "change" to the modifiers egui already has is dropped (egui keeps them from frame to frame).
fn drop_unchanged_modifiers(
    mut inputs: Query<&mut EguiInput>,
    mut known: Local<Option<egui::Modifiers>>,
) {
    for mut input in &mut inputs {
        input.events.retain(|event| match event {
            egui::Event::ModifiersChanged(now) if *known == Some(*now) => false,
            egui::Event::ModifiersChanged(now) => {
                *known = Some(*now);
                true
            }
            // egui forgets the modifiers when the window loses focus.
            egui::Event::WindowFocused(false) => {
                *known = None;
                true
            }
            _ => true,
        });
    }
}

/// The dice's typeface as egui's last fallback: a game's own dice show symbols (✶ ▲ ☠) that
/// egui's own fonts lack, and their values over the dice are drawn in it.
fn add_the_dice_typeface(mut contexts: bevy_egui::EguiContexts, mut added: Local<bool>) {
    if *added {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    ctx.add_font(egui::epaint::text::FontInsert::new(
        "DejaVu Sans Condensed Bold",
        egui::FontData::from_static(crate::dice::TYPEFACE),
        vec![egui::epaint::text::InsertFontFamily {
            family: egui::FontFamily::Proportional,
            priority: egui::epaint::text::FontPriority::Lowest,
        }],
    ));
    *added = true;
}

/// Pixels (logical) the side panels take from the window, written by the overlays each frame.
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct PanelSpace {
    /// Width of the left panel.
    pub left: f32,
    /// Width of the right panel.
    pub right: f32,
}

fn spawn_overlay_camera(mut commands: Commands, mut settings: ResMut<EguiGlobalSettings>) {
    settings.auto_create_primary_context = false;
    commands.spawn((
        Name::new("Overlay camera"),
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

/// The table camera draws only between the panels.
fn fit_table_viewport(
    space: Res<PanelSpace>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut cameras: Query<&mut Camera, (With<Camera3d>, Without<PrimaryEguiContext>)>,
) {
    let scale = window.scale_factor();
    let (w, h) = (window.physical_width(), window.physical_height());
    let left = ((space.left * scale) as u32).min(w.saturating_sub(1));
    let right = ((space.right * scale) as u32).min(w.saturating_sub(left + 1));
    let size = UVec2::new(w.saturating_sub(left + right).max(1), h.max(1));
    for mut camera in &mut cameras {
        camera.viewport = Some(Viewport {
            physical_position: UVec2::new(left, 0),
            physical_size: size,
            ..default()
        });
    }
}
