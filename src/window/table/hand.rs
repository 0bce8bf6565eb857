//! The dice in the hand: while the player holds the mouse button in the tray, the dice about to
//! be thrown are picked up (the settled dice leave the felt), follow the cursor above the tray
//! and rattle; letting go throws them (the gesture in `ui::gesture` turns the flick into the
//! throw's swing) and the physics takes over from the release point.

use std::collections::VecDeque;

use bevy::prelude::*;

use super::dice_view::{DiceAssets, DiceLook, DieOnTable};
use crate::dice::DieKind;
use crate::dice::marks::FaceMarks;
use crate::dice::style::DieStyle;
use crate::physics::throw::hand_offset;
use crate::window::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hand>();
    app.add_systems(Update, carry_dice_in_hand.in_set(AppSystems::Present));
}

/// The hand holding the dice: the dice, and where it has been, with the time.
#[derive(Resource, Default)]
pub struct Hand {
    /// Holding the dice.
    pub holding: bool,
    /// The dice held (what the throw will launch), in throw order.
    pub dice: Vec<(DieKind, DieStyle, Option<FaceMarks>)>,
    /// Recent positions over the tray, with the time in seconds.
    pub path: VecDeque<(f64, Vec3)>,
}

/// A die shown in the hand.
#[derive(Component, Debug, Clone, Copy)]
struct HeldDie {
    index: usize,
}

/// Dice sit closer together in the hand than in the throw's starting block.
const HAND_SQUEEZE: f32 = 0.75;

/// Spawns the held dice when the hand closes, moves them with it, rattling, and clears them
/// (showing the table's dice again if no throw replaced them) when it opens.
fn carry_dice_in_hand(
    mut commands: Commands,
    hand: Res<Hand>,
    time: Res<Time<Real>>,
    mut held: Query<(Entity, &HeldDie, &mut Transform)>,
    mut on_table: Query<&mut Visibility, With<DieOnTable>>,
    mut look: ResMut<DiceLook>,
    mut assets: DiceAssets,
) {
    let holding = hand.holding && !hand.dice.is_empty();
    if !holding {
        if !held.is_empty() {
            for (entity, _, _) in &held {
                commands.entity(entity).despawn();
            }
            for mut visibility in &mut on_table {
                *visibility = Visibility::Inherited;
            }
        }
        return;
    }
    let Some(&(_, at)) = hand.path.back() else {
        return;
    };
    let t = time.elapsed_secs();
    let count = hand.dice.len();
    if held.is_empty() {
        for mut visibility in &mut on_table {
            *visibility = Visibility::Hidden;
        }
        for (index, (kind, style, marks)) in hand.dice.iter().enumerate() {
            let (mesh, material) = look.parts(
                *kind,
                *style,
                marks.as_ref(),
                &mut assets.0,
                &mut assets.1,
                &mut assets.2,
            );
            commands.spawn((
                Name::new(format!("{} in the hand", kind.name())),
                HeldDie { index },
                Mesh3d(mesh),
                MeshMaterial3d(material),
                held_pose(at, index, count, t),
            ));
        }
        return;
    }
    for (_, die, mut transform) in &mut held {
        *transform = held_pose(at, die.index, count, t);
    }
}

/// Where die `index` of `count` is in a hand at `at`, `t` seconds in: in a tight block under
/// the cursor, each jiggling and tumbling on its own rhythm (the rattle).
fn held_pose(at: Vec3, index: usize, count: usize, t: f32) -> Transform {
    let phase = index as f32 * 1.618;
    let rattle = Vec3::new(
        (t * 23.0 + phase).sin(),
        (t * 31.0 + phase * 2.0).sin(),
        (t * 27.0 + phase * 3.0).cos(),
    ) * 0.18;
    let offset = hand_offset(index, count) * HAND_SQUEEZE;
    let tumble = Quat::from_euler(
        EulerRot::XYZ,
        t * 5.0 + phase,
        t * 3.5 + phase * 0.7,
        t * 4.2 + phase * 1.3,
    );
    Transform::from_translation(at + offset - Vec3::Y * offset.y * 0.5 + rattle)
        .with_rotation(tumble)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_dice_stay_near_the_hand_and_keep_moving() {
        let at = Vec3::new(3.0, 16.0, -2.0);
        for index in 0..6 {
            let a = held_pose(at, index, 6, 1.0);
            let b = held_pose(at, index, 6, 1.05);
            assert!(a.translation.distance(at) < 6.0, "{a:?}");
            assert_ne!(a.rotation, b.rotation, "the dice tumble");
            assert_ne!(a.translation, b.translation, "the dice rattle");
        }
    }
}
