//! The dice tray's dimensions, shared by its colliders and its rendered walls.
//!
//! World units are centimetres (a d6 is 1.6 across), masses grams, gravity 981 cm/s².

/// Inner width of the tray floor (x), cm.
pub const INNER_WIDTH: f32 = 36.0;
/// Inner depth of the tray floor (z), cm.
pub const INNER_DEPTH: f32 = 26.0;
/// Height of the walls above the felt, cm.
pub const WALL_HEIGHT: f32 = 7.0;
/// Thickness of the wooden walls, cm.
pub const WALL_THICKNESS: f32 = 2.0;
/// Thickness of the tray's base under the felt, cm.
pub const BASE_THICKNESS: f32 = 1.5;
/// Height of the invisible lid above the felt, cm: dice cannot leave the tray.
pub const LID_HEIGHT: f32 = 24.0;
