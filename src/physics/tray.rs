//! The dice tray: its dimensions (shared by its colliders and its rendered walls) and its
//! colliders. Walls, floor and lid are thick, so no die can pass through them in one step.
//!
//! World units are centimetres (a d6 is 1.6 across), masses grams, gravity 981 cm/s².

use glam::Vec3;
use rapier3d::prelude::SharedShape;

/// Inner width of the tray floor (x), cm: a real tray is 25-30 cm across for 16 mm dice, so
/// 17.5 d6 widths here, which keeps a die large in a view of the whole tray.
pub const INNER_WIDTH: f32 = 28.0;
/// Inner depth of the tray floor (z), cm.
pub const INNER_DEPTH: f32 = 20.0;
/// Height of the drawn walls above the felt, cm: low, as on a real tray, so the camera sees
/// dice lying against them (the colliders reach up to the clear lid).
pub const WALL_HEIGHT: f32 = 4.0;
/// Thickness of the wooden walls, cm.
pub const WALL_THICKNESS: f32 = 2.0;
/// Thickness of the tray's base under the felt, cm.
pub const BASE_THICKNESS: f32 = 1.5;
/// Height of the clear lid above the felt, cm: dice cannot leave the tray.
pub const LID_HEIGHT: f32 = 24.0;

/// Felt: (friction, restitution). Low enough friction that a die cannot stay leaning against a
/// wall (cocked), lively enough that dice bounce and forget how they were held.
pub const FELT: (f32, f32) = (0.22, 0.5);
/// Wood (walls and lid): slicker, livelier.
pub const WOOD: (f32, f32) = (0.1, 0.5);

/// How far the colliders reach beyond what is drawn, cm (thick, against tunnelling).
const SOLID: f32 = 10.0;

/// True when a point is inside the tray's inner volume (with `margin` cm of slack).
pub fn contains(p: Vec3, margin: f32) -> bool {
    p.x.abs() <= INNER_WIDTH / 2.0 + margin
        && p.z.abs() <= INNER_DEPTH / 2.0 + margin
        && p.y >= -margin
        && p.y <= LID_HEIGHT + margin
}

/// The tray's colliders for one physics world: floor, four walls and the lid, each as
/// (name, collider, centre, (friction, restitution)).
pub fn colliders() -> Vec<(&'static str, SharedShape, Vec3, (f32, f32))> {
    let (hw, hd) = (INNER_WIDTH / 2.0, INNER_DEPTH / 2.0);
    let h = SOLID / 2.0;
    let tall = LID_HEIGHT / 2.0 + SOLID;
    vec![
        (
            "floor",
            SharedShape::cuboid(hw + SOLID, h, hd + SOLID),
            Vec3::new(0.0, -h, 0.0),
            FELT,
        ),
        (
            "lid",
            SharedShape::cuboid(hw + SOLID, h, hd + SOLID),
            Vec3::new(0.0, LID_HEIGHT + h, 0.0),
            WOOD,
        ),
        (
            "wall -x",
            SharedShape::cuboid(h, tall, hd + SOLID),
            Vec3::new(-hw - h, LID_HEIGHT / 2.0, 0.0),
            WOOD,
        ),
        (
            "wall +x",
            SharedShape::cuboid(h, tall, hd + SOLID),
            Vec3::new(hw + h, LID_HEIGHT / 2.0, 0.0),
            WOOD,
        ),
        (
            "wall -z",
            SharedShape::cuboid(hw + SOLID, tall, h),
            Vec3::new(0.0, LID_HEIGHT / 2.0, -hd - h),
            WOOD,
        ),
        (
            "wall +z",
            SharedShape::cuboid(hw + SOLID, tall, h),
            Vec3::new(0.0, LID_HEIGHT / 2.0, hd + h),
            WOOD,
        ),
    ]
}
