//! The dice picker's live die in the window: while "Your dice" is open, a d20 and a d6 in the
//! look being picked turn in the lower right of the view, wherever the camera goes, drawn by the
//! same atlases and materials as thrown dice (the numerals' colour as the contrast rule draws
//! it, pips on the d6 where asked) under the table's lights. They are drawn only: the physics
//! never knows them.

use bevy::prelude::*;

use super::dice_view::{DiceAssets, DiceLook as DiceParts, die_material};
use super::{OwnDice, TableCamera};
use crate::dice::DieKind;
use crate::window::PlayOptions;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (show_live_dice, turn_live_dice).chain());
}

/// A die of the picker's live look: where it sits in the view, and how far it has turned.
#[derive(Component, Debug, Clone, Copy)]
pub struct LiveDie {
    /// Across the view, -1 (left edge) to 1 (right edge).
    across: f32,
    /// Turned about its own upright, radians.
    turned: f32,
}

/// How far in front of the camera the live dice float, cm: nearer than anything on the table
/// ever is, so nothing hides them.
const AHEAD: f32 = 8.0;
/// Their size against a thrown die's: at [`AHEAD`], about an eighth of the view's height.
const SCALE: f32 = 0.2;

/// How long the picker's look must hold still before the live dice are drawn in it, seconds: a
/// colour dragged through the picker makes one atlas where it stops, not one each frame.
const SETTLE_S: f32 = 0.2;

/// The look the live dice wear now, and the one the picker has had since when.
#[derive(Default)]
struct LiveLook {
    worn: Option<crate::dice::style::DiceLook>,
    held: Option<(Option<crate::dice::style::DiceLook>, f32)>,
}

/// What the live dice are made with: the shared meshes, and the stores their looks go in.
#[derive(bevy::ecs::system::SystemParam)]
struct Makers<'w> {
    parts: ResMut<'w, DiceParts>,
    assets: DiceAssets<'w>,
}

/// Shows the picker's look as a d20 and a d6 on the felt while it is open (their numerals'
/// colour as the contrast rule draws it, pips on the d6 where asked), and takes them away when
/// it closes.
fn show_live_dice(
    mut commands: Commands,
    own: Res<OwnDice>,
    time: Res<Time>,
    mut live: Local<LiveLook>,
    shown: Query<Entity, With<LiveDie>>,
    mut makers: Makers,
    options: Res<PlayOptions>,
) {
    if own.preview == live.worn {
        live.held = None;
        return;
    }
    // Closed at once; a new look once it has held still.
    let now = time.elapsed_secs();
    let since = match live.held {
        Some((held, since)) if held == own.preview => since,
        _ => {
            live.held = Some((own.preview, now));
            now
        }
    };
    if own.preview.is_some() && now - since < SETTLE_S {
        return;
    }
    live.worn = own.preview;
    live.held = None;
    // The old dice go, and with their last handles their atlases (no cache keeps a look the
    // picker passed through).
    for e in &shown {
        commands.entity(e).despawn();
    }
    let Some(look) = own.preview else {
        return;
    };
    if options.print_ui {
        // For a script driving the window: what the live dice wear.
        println!(
            "live dice: {} dice: {}",
            look.material.name(),
            look.colours()
        );
    }
    let style = look.drawn();
    for kind in [DieKind::D20, DieKind::D6] {
        let marks = style.marks_for(kind);
        let mesh = makers.parts.mesh(kind, &mut makers.assets.0);
        let (images, materials) = (&mut makers.assets.1, &mut makers.assets.2);
        let material = die_material(kind, style, marks.as_ref(), images, materials);
        commands.spawn((
            Name::new(format!("live {}", kind.name())),
            LiveDie {
                across: if kind == DieKind::D20 { 0.8 } else { 0.55 },
                turned: 0.0,
            },
            Mesh3d(mesh),
            MeshMaterial3d(material),
            Transform::from_scale(Vec3::splat(SCALE)),
        ));
    }
}

/// The live dice turn slowly, so each face and the material's light are seen, and keep their
/// place in the lower right of the view as the camera moves.
fn turn_live_dice(
    time: Res<Time>,
    camera: Query<(&GlobalTransform, &Projection), With<TableCamera>>,
    mut dice: Query<(&mut Transform, &mut LiveDie)>,
) {
    let Ok((eye, Projection::Perspective(lens))) = camera.single() else {
        return;
    };
    let half_high = AHEAD * (lens.fov / 2.0).tan();
    let half_wide = half_high * lens.aspect_ratio;
    for (mut t, mut die) in &mut dice {
        die.turned += time.delta_secs() * 0.6;
        let local = Vec3::new(die.across * half_wide, -0.7 * half_high, -AHEAD);
        t.translation = eye.transform_point(local);
        t.rotation = eye.rotation()
            * Quat::from_rotation_x(0.5)
            * Quat::from_rotation_y(die.turned)
            * Quat::from_rotation_z(0.2);
    }
}
