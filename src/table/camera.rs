//! A camera that frames the tray and orbits (right mouse drag) and zooms (wheel) around it.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;

use crate::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera);
    app.add_systems(Update, orbit_camera.in_set(AppSystems::ReadInput));
    app.add_systems(PostUpdate, frame_the_tray);
}

/// Half the tray's width with its walls and a margin, cm: what must fit across the view.
const TRAY_HALF_WIDTH: f32 =
    crate::physics::tray::INNER_WIDTH / 2.0 + crate::physics::tray::WALL_THICKNESS + 7.0;

/// The distance at which the whole tray fits a viewport of this aspect (width / height).
fn fitting_distance(aspect: f32, fov: f32) -> f32 {
    let half_h = (fov / 2.0).tan() * aspect.max(0.1);
    (TRAY_HALF_WIDTH / half_h).max(Orbit::default().distance)
}

/// When the view's shape changes (window resized, panels moved), back off just enough that the
/// tray fits across it; the player's own zoom is kept otherwise.
fn frame_the_tray(
    mut cameras: Query<(&Camera, &Projection, &mut Orbit, &mut Transform)>,
    mut last_aspect: Local<f32>,
) {
    for (camera, projection, mut orbit, mut transform) in &mut cameras {
        let (Some(size), Projection::Perspective(p)) = (camera.logical_viewport_size(), projection)
        else {
            continue;
        };
        let aspect = size.x / size.y.max(1.0);
        if (aspect - *last_aspect).abs() < 0.01 {
            continue;
        }
        *last_aspect = aspect;
        orbit.distance = fitting_distance(aspect, p.fov);
        *transform = orbit.transform();
    }
}

/// The camera that looks at the tray (the overlays have their own).
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct TableCamera;

/// Where the camera sits around the tray, in spherical coordinates about `target`.
#[derive(Component, Debug, Clone, Copy)]
pub struct Orbit {
    /// Angle about the vertical, radians.
    pub yaw: f32,
    /// Angle above the felt, radians.
    pub pitch: f32,
    /// Distance from the target, cm.
    pub distance: f32,
    /// The point looked at.
    pub target: Vec3,
}

impl Default for Orbit {
    fn default() -> Self {
        Orbit {
            yaw: 0.0,
            pitch: 1.3,
            distance: 56.0,
            target: Vec3::new(0.0, 0.0, 1.5),
        }
    }
}

impl Orbit {
    /// The camera transform for this orbit.
    pub fn transform(&self) -> Transform {
        let offset = Vec3::new(
            self.distance * self.pitch.cos() * self.yaw.sin(),
            self.distance * self.pitch.sin(),
            self.distance * self.pitch.cos() * self.yaw.cos(),
        );
        Transform::from_translation(self.target + offset).looking_at(self.target, Vec3::Y)
    }
}

fn spawn_camera(mut commands: Commands) {
    let orbit = Orbit::default();
    commands.spawn((
        Name::new("Table camera"),
        Camera3d::default(),
        TableCamera,
        orbit.transform(),
        orbit,
    ));
}

fn orbit_camera(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    mut cameras: Query<(&mut Orbit, &mut Transform)>,
) {
    let drag = if buttons.pressed(MouseButton::Right) {
        motion.delta
    } else {
        Vec2::ZERO
    };
    if drag == Vec2::ZERO && scroll.delta.y == 0.0 {
        return;
    }
    for (mut orbit, mut transform) in &mut cameras {
        orbit.yaw -= drag.x * 0.005;
        orbit.pitch = (orbit.pitch + drag.y * 0.005).clamp(0.25, 1.5);
        orbit.distance = (orbit.distance * (1.0 - scroll.delta.y * 0.08)).clamp(20.0, 150.0);
        *transform = orbit.transform();
    }
}
