//! Tactile throwing: press the left button over the tray to pick the dice up, shake, and let go
//! with a flick. The hand's path is followed on a plane above the felt; the flick's speed and
//! direction (measured over the last tenth of a second) become the throw's swing, which the
//! history keeps with the seed, so the throw replays exactly.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::EguiContexts;

use super::ThrowControls;
use crate::physics::throw::{HAND_HEIGHT, Swing, gesture_swing};
use crate::physics::tray;
use crate::window::table::{Hand, TableCamera};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        pick_up_shake_and_throw.in_set(crate::window::AppSystems::ReadInput),
    );
}

/// The flick is measured over this much of the hand's last movement, seconds.
const FLICK_WINDOW: f64 = 0.1;

/// The swing of a hand's path: released where the hand is (kept over the tray so the dice
/// start inside it), at the flick's velocity along the felt, slightly downwards.
pub fn swing_of(path: &VecDeque<(f64, Vec3)>) -> Option<Swing> {
    let &(t1, p1) = path.back()?;
    let &(t0, p0) = path
        .iter()
        .find(|(t, _)| t1 - t <= FLICK_WINDOW)
        .unwrap_or(&(t1, p1));
    let dt = (t1 - t0) as f32;
    let flick = if dt > 0.0 {
        Vec3::new(p1.x - p0.x, 0.0, p1.z - p0.z) / dt
    } else {
        Vec3::ZERO
    };
    // A hand at rest tosses towards the middle of the tray.
    let direction = if flick.length() > 1.0 {
        flick.normalize()
    } else {
        Vec3::new(-p1.x, 0.0, -p1.z)
            .try_normalize()
            .unwrap_or(Vec3::X)
    };
    Some(gesture_swing(p1, direction, flick.length()))
}

/// Where the cursor points on the plane of the hand, if it is over the tray.
fn hand_at(window: &Window, camera: &Camera, transform: &GlobalTransform) -> Option<Vec3> {
    let cursor = window.cursor_position()?;
    // Only over the table's own view (not over the panels beside it).
    if !camera
        .logical_viewport_rect()
        .is_some_and(|r| r.contains(cursor))
    {
        return None;
    }
    let ray = camera.viewport_to_world(transform, cursor).ok()?;
    let distance = ray.intersect_plane(
        Vec3::new(0.0, HAND_HEIGHT, 0.0),
        InfinitePlane3d::new(Vec3::Y),
    )?;
    let p = ray.get_point(distance);
    let inside =
        p.x.abs() <= tray::INNER_WIDTH / 2.0 + 4.0 && p.z.abs() <= tray::INNER_DEPTH / 2.0 + 4.0;
    inside.then_some(p)
}

/// Press over the tray: the dice the throw would launch are picked up; the hand follows the
/// cursor; let go: they are thrown with the flick's swing.
fn pick_up_shake_and_throw(
    buttons: Res<ButtonInput<MouseButton>>,
    time: Res<Time<Real>>,
    mut hand: ResMut<Hand>,
    mut contexts: EguiContexts,
    window: Single<&Window>,
    camera: Query<(&Camera, &GlobalTransform), With<TableCamera>>,
    mut controls: ThrowControls,
) {
    let Ok((camera, transform)) = camera.single() else {
        return;
    };
    let now = time.elapsed_secs_f64();
    let at = hand_at(&window, camera, transform);
    if buttons.just_pressed(MouseButton::Left) {
        let over_panels = contexts
            .ctx_mut()
            .map(|c| c.is_pointer_over_egui())
            .unwrap_or(true);
        if let Some(p) = at.filter(|_| !over_panels && !controls.busy()) {
            hand.holding = true;
            hand.dice = controls.dice_to_pick_up();
            println!(
                "picked up {}",
                crate::text::plural(hand.dice.len() as i64, "die", "dice")
            );
            hand.path.clear();
            hand.path.push_back((now, p));
        }
        return;
    }
    if !hand.holding {
        return;
    }
    if let Some(p) = at {
        hand.path.push_back((now, p));
        while hand.path.front().is_some_and(|(t, _)| now - t > 0.5) {
            hand.path.pop_front();
        }
    }
    if !buttons.pressed(MouseButton::Left) {
        hand.holding = false;
        controls.throw(swing_of(&hand.path));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::throw::FLICK_SPEED;

    #[test]
    fn a_flick_sets_direction_and_speed_and_a_still_hand_tosses_inwards() {
        // 10 cm towards +x in 0.1 s: 100 cm/s along x.
        let path: VecDeque<(f64, Vec3)> = [
            (0.0, Vec3::new(-10.0, HAND_HEIGHT, 0.0)),
            (0.05, Vec3::new(-5.0, HAND_HEIGHT, 0.0)),
            (0.1, Vec3::new(0.0, HAND_HEIGHT, 0.0)),
        ]
        .into();
        let s = swing_of(&path).expect("swing");
        assert!(
            (s.velocity - Vec3::new(100.0, -15.0, 0.0)).length() < 1e-3,
            "{s:?}"
        );
        // Far too fast: capped. Released outside the tray: pulled in over it.
        let path: VecDeque<(f64, Vec3)> = [
            (0.0, Vec3::new(0.0, 16.0, 0.0)),
            (0.01, Vec3::new(0.0, 16.0, 30.0)),
        ]
        .into();
        let s = swing_of(&path).expect("swing");
        assert!((s.velocity.z - FLICK_SPEED.1).abs() < 1e-3, "{s:?}");
        assert!(s.release.z <= tray::INNER_DEPTH / 2.0 - 8.0);
        // A still hand at +x tosses towards −x at the slowest speed.
        let path: VecDeque<(f64, Vec3)> = [(0.0, Vec3::new(8.0, 16.0, 0.0))].into();
        let s = swing_of(&path).expect("swing");
        assert!((s.velocity.x + FLICK_SPEED.0).abs() < 1e-3, "{s:?}");
    }
}
