//! A camera that frames the tray and orbits (right mouse drag) and zooms (wheel) around it.
//! While dice fly it shows the whole tray; once they settle it glides in to frame them (the
//! view that shows the result), unless the player has turned that off or moved the camera.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;

use super::dice_view::DieOnTable;
use super::throwing::TableSimulator;
use crate::window::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ViewSettings>();
    app.init_resource::<CameraMotion>();
    app.add_systems(Startup, (spawn_camera, view_as_asked));
    app.add_systems(Update, orbit_camera.in_set(AppSystems::ReadInput));
    app.add_systems(
        PostUpdate,
        (frame_the_tray, frame_the_settled_dice, glide_to_the_goal).chain(),
    );
}

/// How the table is viewed (the View menu of the overlays).
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct ViewSettings {
    /// Glide in on the dice once they settle.
    pub follow_dice: bool,
    /// Frame settled dice as a close-up (a die fills a good part of the view).
    pub closeup: bool,
    /// Float each settled die's value above it.
    pub value_labels: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            follow_dice: true,
            closeup: false,
            value_labels: true,
        }
    }
}

/// Whether the camera is still gliding (a screenshot waits for it to arrive).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct CameraMotion {
    /// True while the camera moves towards its goal.
    pub gliding: bool,
}

/// The tray's outer corners at the felt and at the top of the walls: what the view of the
/// whole tray keeps in sight.
fn tray_corners() -> Vec<(Vec3, f32)> {
    use crate::physics::tray::{INNER_DEPTH, INNER_WIDTH, WALL_HEIGHT, WALL_THICKNESS};
    let (hw, hd) = (
        INNER_WIDTH / 2.0 + WALL_THICKNESS,
        INNER_DEPTH / 2.0 + WALL_THICKNESS,
    );
    [(-hw, -hd), (hw, -hd), (-hw, hd), (hw, hd)]
        .into_iter()
        .flat_map(|(x, z)| [Vec3::new(x, 0.0, z), Vec3::new(x, WALL_HEIGHT, z)])
        .map(|p| (p, 0.0))
        .collect()
}

/// The distance from which the whole tray fits a viewport of this shape, seen at `yaw`.
fn fitting_distance(aspect: f32, fov: f32, yaw: f32) -> f32 {
    framing(&tray_corners(), yaw, fov, aspect, 10.0, 400.0, 0.98)
        .map(|o| o.distance)
        .unwrap_or(Orbit::default().distance)
}

/// The camera that looks at the tray (the overlays have their own).
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct TableCamera;

/// Where the camera sits around the tray, in spherical coordinates about `target`.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
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
            // From the near end of the tray: dice are thrown away from the player, and the
            // tray's length runs up the (taller than wide) view between the panels.
            yaw: -std::f32::consts::FRAC_PI_2,
            pitch: 1.36,
            distance: 40.0,
            target: Vec3::new(0.0, 0.0, 0.0),
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

    /// Part of the way from this orbit to `goal` (`t` in 0..1).
    fn towards(&self, goal: &Orbit, t: f32) -> Orbit {
        Orbit {
            yaw: self.yaw + (goal.yaw - self.yaw) * t,
            pitch: self.pitch + (goal.pitch - self.pitch) * t,
            distance: self.distance + (goal.distance - self.distance) * t,
            target: self.target.lerp(goal.target, t),
        }
    }
}

/// Where the camera is headed, and which throw it last framed.
#[derive(Component, Debug, Clone, Copy, Default)]
struct Goal {
    orbit: Option<Orbit>,
    /// The throw whose flight was last shown (the whole tray).
    flying: Option<u64>,
    /// The settled throw last framed, and whether in close-up.
    framed: Option<(u64, bool)>,
    /// The player moved the camera: leave it where they put it until the next throw.
    held_by_player: bool,
}

fn view_as_asked(options: Option<Res<crate::window::PlayOptions>>, mut view: ResMut<ViewSettings>) {
    if options.is_some_and(|o| o.closeup) {
        view.closeup = true;
    }
}

/// The box around a die's corners on screen (window pixels), if any corner is in view: what
/// the labels float above, the pointer finds a die in, and the size report measures.
pub fn outline_on_screen(
    (camera, view): (&Camera, &GlobalTransform),
    transform: &GlobalTransform,
    kind: crate::dice::DieKind,
) -> Option<Rect> {
    kind.shape()
        .vertices
        .iter()
        .filter_map(|v| {
            camera
                .world_to_viewport(view, transform.transform_point(*v))
                .ok()
        })
        .map(|p| Rect::from_corners(p, p))
        .reduce(|a, b| a.union(b))
}

/// How many pixels across each die is on screen: the smaller side of its outline (what the
/// `--screenshot` report prints), smallest first, with its kind.
pub fn dice_across_on_screen(
    camera: (&Camera, &GlobalTransform),
    dice: impl Iterator<Item = (GlobalTransform, DieOnTable)>,
) -> Vec<(f32, crate::dice::DieKind)> {
    let mut sizes: Vec<(f32, crate::dice::DieKind)> = dice
        .filter_map(|(transform, die)| {
            let outline = outline_on_screen(camera, &transform, die.kind)?;
            Some((outline.size().min_element(), die.kind))
        })
        .collect();
    sizes.sort_by(|a, b| a.0.total_cmp(&b.0));
    sizes
}

fn spawn_camera(mut commands: Commands) {
    let orbit = Orbit::default();
    commands.spawn((
        Name::new("Table camera"),
        Camera3d::default(),
        // A longer lens than the default 45°: the near and far ends of the tray show dice at
        // closer to the same size.
        Projection::Perspective(PerspectiveProjection {
            fov: 30f32.to_radians(),
            ..default()
        }),
        TableCamera,
        orbit.transform(),
        orbit,
        Goal::default(),
    ));
}

/// The view of the whole tray for a viewport of this shape, seen at `yaw`.
fn tray_view(aspect: f32, fov: f32, yaw: f32) -> Orbit {
    framing(&tray_corners(), yaw, fov, aspect, 10.0, 400.0, 0.98).unwrap_or_default()
}

/// True if every sphere (centre, radius) lies inside the middle `share` of the view seen from
/// `orbit` (vertical field of view `fov`, width / height `aspect`).
fn all_in_view(orbit: &Orbit, fov: f32, aspect: f32, spheres: &[(Vec3, f32)], share: f32) -> bool {
    let view = orbit.transform().to_matrix().inverse();
    let tan = (fov / 2.0).tan();
    spheres.iter().all(|(centre, radius)| {
        let v = view.transform_point3(*centre);
        let depth = -v.z;
        depth > *radius
            && v.x.abs() + radius <= depth * tan * aspect * share
            && v.y.abs() + radius <= depth * tan * share
    })
}

/// The orbit that frames spheres (centre, radius each), seen at `yaw`: looking down steeply at
/// the middle of them, as close as keeps them all inside the middle `share` of the view, but
/// not closer than `nearest` (a single die is not blown up past a sensible size) nor farther
/// than `farthest`.
pub fn framing(
    spheres: &[(Vec3, f32)],
    yaw: f32,
    fov: f32,
    aspect: f32,
    nearest: f32,
    farthest: f32,
    share: f32,
) -> Option<Orbit> {
    if spheres.is_empty() {
        return None;
    }
    let (lo, hi) = spheres.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), (c, _)| (lo.min(*c), hi.max(*c)),
    );
    let mut orbit = Orbit {
        yaw,
        pitch: 1.45,
        distance: nearest.min(farthest),
        target: Vec3::new((lo.x + hi.x) / 2.0, lo.y.min(0.6), (lo.z + hi.z) / 2.0),
    };
    while orbit.distance < farthest && !all_in_view(&orbit, fov, aspect, spheres, share) {
        orbit.distance *= 1.02;
    }
    orbit.distance = orbit.distance.min(farthest);
    Some(orbit)
}

/// Nearest distance when framing, cm: the view is at least this many cm tall at the dice (12
/// cm: a single d6 about an eighth of the view's height; 5 cm in close-up).
fn nearest_distance(fov: f32, closeup: bool) -> f32 {
    let view_height = if closeup { 5.0 } else { 12.0 };
    view_height / 2.0 / (fov / 2.0).tan()
}

fn viewport_shape(camera: &Camera, projection: &Projection) -> Option<(f32, f32)> {
    let (Some(size), Projection::Perspective(p)) = (camera.logical_viewport_size(), projection)
    else {
        return None;
    };
    Some((size.x / size.y.max(1.0), p.fov))
}

/// When the view's shape changes (window resized, panels moved), aim for the tray's view that
/// fits it (a framing of dice is redone below).
fn frame_the_tray(
    mut cameras: Query<(&Camera, &Projection, &mut Goal)>,
    mut last_aspect: Local<f32>,
) {
    for (camera, projection, mut goal) in &mut cameras {
        let Some((aspect, fov)) = viewport_shape(camera, projection) else {
            continue;
        };
        if (aspect - *last_aspect).abs() < 0.01 {
            continue;
        }
        *last_aspect = aspect;
        goal.orbit = Some(tray_view(aspect, fov, Orbit::default().yaw));
        goal.framed = None;
        goal.held_by_player = false;
    }
}

/// While dice fly the goal is the whole tray; once they settle, the dice.
fn frame_the_settled_dice(
    settings: Res<ViewSettings>,
    physics: NonSend<TableSimulator>,
    hand: Res<super::Hand>,
    dice: Query<(&GlobalTransform, &DieOnTable)>,
    mut cameras: Query<(&Camera, &Projection, &Orbit, &mut Goal)>,
) {
    for (camera, projection, orbit, mut goal) in &mut cameras {
        let Some((aspect, fov)) = viewport_shape(camera, projection) else {
            continue;
        };
        let throw = physics.throws_started();
        if hand.holding && goal.framed.is_some() {
            // Dice picked up: show the whole tray to throw into.
            goal.framed = None;
            goal.held_by_player = false;
            goal.orbit = Some(tray_view(aspect, fov, orbit.yaw));
            continue;
        }
        if hand.holding {
            continue;
        }
        if physics.busy() {
            if goal.flying != Some(throw) {
                goal.flying = Some(throw);
                goal.framed = None;
                goal.held_by_player = false;
                goal.orbit = Some(tray_view(aspect, fov, orbit.yaw));
            }
            continue;
        }
        let Some(settled) = physics.settled_throw() else {
            continue;
        };
        let key = (settled, settings.closeup);
        if goal.held_by_player || !settings.follow_dice || goal.framed == Some(key) {
            continue;
        }
        let spheres: Vec<(Vec3, f32)> = dice
            .iter()
            .map(|(t, d)| (t.translation(), d.radius))
            .collect();
        let nearest = nearest_distance(fov, settings.closeup);
        let farthest = fitting_distance(aspect, fov, orbit.yaw);
        if let Some(framed) = framing(&spheres, orbit.yaw, fov, aspect, nearest, farthest, 0.92) {
            goal.orbit = Some(framed);
            goal.framed = Some(key);
        }
    }
}

/// The camera glides towards its goal (most of the way in a third of a second).
fn glide_to_the_goal(
    time: Res<Time<Real>>,
    mut motion: ResMut<CameraMotion>,
    mut cameras: Query<(&mut Orbit, &mut Goal, &mut Transform)>,
) {
    let t = 1.0 - (-time.delta_secs() * 9.0).exp();
    motion.gliding = false;
    for (mut orbit, mut goal, mut transform) in &mut cameras {
        let Some(target) = goal.orbit else {
            continue;
        };
        let next = orbit.towards(&target, t.clamp(0.0, 1.0));
        let close = (next.distance - target.distance).abs() < 0.05
            && next.target.distance(target.target) < 0.02
            && (next.pitch - target.pitch).abs() < 0.002
            && (next.yaw - target.yaw).abs() < 0.002;
        *orbit = if close { target } else { next };
        if close {
            goal.orbit = None;
        } else {
            motion.gliding = true;
        }
        *transform = orbit.transform();
    }
}

fn orbit_camera(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    mut contexts: bevy_egui::EguiContexts,
    mut cameras: Query<(&mut Orbit, &mut Goal, &mut Transform)>,
) {
    let over_panels = contexts
        .ctx_mut()
        .map(|c| c.is_pointer_over_egui())
        .unwrap_or(false);
    let drag = if buttons.pressed(MouseButton::Right) {
        motion.delta
    } else {
        Vec2::ZERO
    };
    let wheel = if over_panels { 0.0 } else { scroll.delta.y };
    if drag == Vec2::ZERO && wheel == 0.0 {
        return;
    }
    for (mut orbit, mut goal, mut transform) in &mut cameras {
        goal.orbit = None;
        goal.held_by_player = true;
        orbit.yaw -= drag.x * 0.005;
        orbit.pitch = (orbit.pitch + drag.y * 0.005).clamp(0.25, 1.55);
        orbit.distance = (orbit.distance * (1.0 - wheel * 0.08)).clamp(6.0, 150.0);
        *transform = orbit.transform();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOV: f32 = std::f32::consts::FRAC_PI_4;

    #[test]
    fn one_die_is_framed_close_and_spread_dice_farther_but_all_in_view() {
        let frame = |spheres: &[(Vec3, f32)]| {
            let far = fitting_distance(0.8, FOV, 0.0);
            framing(
                spheres,
                0.0,
                FOV,
                0.8,
                nearest_distance(FOV, false),
                far,
                0.86,
            )
        };
        let one = [(Vec3::new(5.0, 0.8, 3.0), 1.2)];
        let framed = frame(&one).expect("framed");
        assert!((framed.distance - nearest_distance(FOV, false)).abs() < 1e-3);
        assert_eq!((framed.target.x, framed.target.z), (5.0, 3.0));
        let spread = [
            (Vec3::new(-12.0, 0.8, -8.0), 1.2),
            (Vec3::new(10.0, 0.8, 9.0), 1.2),
        ];
        let wide = frame(&spread).expect("framed");
        assert!(wide.distance > framed.distance);
        assert!(all_in_view(&wide, FOV, 0.8, &spread, 0.87));
        // Never farther than the view of the whole tray, which shows every corner.
        let corners = [
            (Vec3::new(-17.0, 0.8, -12.0), 1.2),
            (Vec3::new(17.0, 0.8, 12.0), 1.2),
        ];
        let whole = frame(&corners).expect("framed");
        assert!(whole.distance <= fitting_distance(0.8, FOV, 0.0) + 1e-3);
        assert!(all_in_view(
            &tray_view(0.8, FOV, 0.0),
            FOV,
            0.8,
            &tray_corners(),
            0.99
        ));
        assert_eq!(frame(&[]), None);
    }

    #[test]
    fn a_portrait_view_fits_the_tray_closer_along_its_length() {
        // Between the panels the view is taller than wide: the tray's length up the view
        // (the default yaw) comes closer than across it.
        let along = fitting_distance(0.8, FOV, -std::f32::consts::FRAC_PI_2);
        let across = fitting_distance(0.8, FOV, 0.0);
        assert!(along < across * 0.9, "{along} vs {across}");
    }
}
