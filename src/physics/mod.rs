//! Throwing and settling: each roll is a physics world of its own (rapier3d's sets and pipeline
//! holding the tray and the roll's dice, nothing else, no Bevy), stepped at a fixed rate. Dice are watched until they rest flat;
//! cocked, escaped and never-settling dice are thrown again and counted. The faces are read
//! only when every die of the roll has settled, and nothing decides them but the physics.
//!
//! A roll is fully described by its seed and its dice: the same seed and dice give the same
//! trajectories and faces in the window and headless, whatever was thrown before.
//!
//! Each die is simulated in a random body frame (drawn from the roll's seed): the collider's
//! vertices are turned by that frame and the body by its inverse, so the die in the world is
//! the same. rapier's contact search has a slight preference tied to a body's local x axis
//! (measured: d4 faces whose normal pointed along local −x came up 12% more often than the
//! others); a random frame spreads that artefact evenly over the faces. The face read is still
//! the face that ends up on top.

pub mod baseline;
pub mod fairness;
pub mod headless;
pub mod throw;
pub mod tray;
pub mod world;

use glam::{Quat, Vec3};
use rapier3d::prelude::SharedShape;

use crate::dice::{DieKind, Reading};
use throw::Swing;

/// Physics steps per second of simulated time.
pub const STEP_HZ: f64 = 120.0;
/// Gravity, cm/s².
pub const GRAVITY: f32 = 981.0;
/// Density of the dice (acrylic), g/cm³.
pub const DIE_DENSITY: f32 = 1.18;
/// Die surface: (friction, restitution).
pub const DIE_SURFACE: (f32, f32) = (0.5, 0.45);
/// Vertical speed (cm/s) that counts as falling or rising, for counting bounces.
const BOUNCE_SPEED: f32 = 5.0;
/// Angular damping of the dice, 1/s: felt's rolling resistance. It also stops round dice
/// (d12, d20) from rolling far about one axis, which would walk the belt of faces through the
/// face they landed on.
pub const DIE_ANGULAR_DAMPING: f32 = 3.0;
/// Radius of the rounded edges of the dice colliders, cm.
pub const EDGE_RADIUS: f32 = 0.06;

/// The simulated time a throw may take before it is abandoned (an error, nothing recorded):
/// every die settles within a second or two, a die that keeps escaping or lands cocked is
/// thrown again (each throw of a die has [`SettleRules::time_cap`]), so only a die thrown
/// again and again reaches it. It bounds what one throw costs a server: at most this much
/// simulated time, of at most 100 dice thrown at most 300 cm/s.
pub const THROW_BUDGET_SECONDS: f64 = 60.0;

/// Why the physics could not finish a throw.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PhysicsError {
    /// The dice were still moving after this much simulated time (a die thrown again forever).
    #[error("the dice did not settle within {seconds} s of simulated time")]
    NotSettled {
        /// The simulated time waited, seconds.
        seconds: f64,
    },
}

/// What to do with a die that comes to rest cocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum CockedPolicy {
    /// Throw it again (the default).
    #[default]
    Rethrow,
    /// Give it a small upward nudge and let it fall again.
    Nudge,
}

/// When a die counts as settled, and the limits after which it is thrown again.
#[derive(Clone, Debug)]
pub struct SettleRules {
    /// Below this speed (cm/s)...
    pub still_speed: f32,
    /// ...and this spin (rad/s)...
    pub still_spin: f32,
    /// ...for this many seconds, a die is at rest.
    pub still_time: f32,
    /// At rest with its best face more than this many degrees from flat: cocked.
    pub cocked_degrees: f32,
    /// A die not at rest after this many seconds is thrown again.
    pub time_cap: f32,
    /// What happens to cocked dice.
    pub cocked: CockedPolicy,
}

impl SettleRules {
    /// Whether a die moving at `linear` (cm/s) and spinning at `angular` (rad/s) is still.
    pub fn is_still(&self, linear: Vec3, angular: Vec3) -> bool {
        linear.length() < self.still_speed && angular.length() < self.still_spin
    }

    /// Steps of `dt` seconds a die must stay still to be at rest.
    pub fn still_steps(&self, dt: f32) -> u32 {
        (self.still_time / dt).ceil() as u32
    }

    /// Steps of `dt` seconds before a die not at rest is thrown again.
    pub fn cap_steps(&self, dt: f32) -> u32 {
        (self.time_cap / dt).ceil() as u32
    }
}

impl Default for SettleRules {
    fn default() -> Self {
        SettleRules {
            still_speed: 0.5,
            still_spin: 0.1,
            still_time: 0.2,
            cocked_degrees: 4.0,
            time_cap: 12.0,
            cocked: CockedPolicy::Rethrow,
        }
    }
}

/// How often a die had to be thrown again, and why.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Rethrows {
    /// Came to rest cocked.
    pub cocked: u32,
    /// Left the tray.
    pub escaped: u32,
    /// Did not settle within the time cap.
    pub timed_out: u32,
    /// Nudged (with the nudge policy).
    pub nudged: u32,
    /// Showed a number above its size (a d18 thrown for a d17 showing 18).
    pub above_size: u32,
}

impl Rethrows {
    /// Throws beyond the first.
    pub fn total(&self) -> u32 {
        self.cocked + self.escaped + self.timed_out + self.above_size
    }
}

/// A roll in a [`headless::Simulator`]: its own physics world, named by the order it was thrown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RollId(pub u64);

/// Where a die is in its throw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DieState {
    /// Flying, tumbling or rolling.
    Moving,
    /// At rest and flat: read and frozen.
    Settled(Reading),
}

/// One die of a finished roll.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SettledDie {
    /// What die.
    #[serde(serialize_with = "serialize_kind")]
    pub kind: DieKind,
    /// The face value read.
    pub value: u32,
    /// How far from flat it lies, degrees.
    pub tilt_degrees: f32,
    /// Seconds of simulated time from the throw to rest.
    pub settle_time: f32,
    /// Re-throws.
    pub rethrows: Rethrows,
    /// The face in reading position when it left the hand.
    pub initial_face: usize,
    /// The face read (index into the shape's faces).
    pub face: usize,
    /// Bounces in its last throw.
    pub bounces: u32,
    /// Final position.
    pub translation: [f32; 3],
    /// Final orientation (x, y, z, w).
    pub rotation: [f32; 4],
}

fn serialize_kind<S: serde::Serializer>(kind: &DieKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.name())
}

/// A finished roll.
#[derive(Clone, Debug, PartialEq)]
pub struct RollResult {
    /// The roll (its physics world is gone once it is taken).
    pub roll: RollId,
    /// The seed.
    pub seed: u64,
    /// The caller's tag.
    pub tag: u64,
    /// Each die, in throw order.
    pub dice: Vec<SettledDie>,
    /// Simulated seconds until the last die settled.
    pub duration: f32,
}

/// What to throw.
#[derive(Clone, Debug, PartialEq)]
pub struct ThrowRequest {
    /// Seed of the throw parameters.
    pub seed: u64,
    /// The caller's tag.
    pub tag: u64,
    /// The dice, in order.
    pub dice: Vec<DieKind>,
    /// A swing from a gesture (None: drawn from the seed).
    pub swing: Option<Swing>,
}

/// The collider of a die in a body frame: the convex hull of its vertices turned by `frame`,
/// shrunk so that rounding the edges keeps the faces where they are.
pub fn die_collider(kind: DieKind, frame: Quat) -> Option<SharedShape> {
    let shape = kind.shape();
    let scale = (shape.inradius() - EDGE_RADIUS) / shape.inradius();
    let points: Vec<Vec3> = shape
        .vertices
        .iter()
        .map(|v| frame * (*v * scale))
        .collect();
    SharedShape::round_convex_hull(&points, EDGE_RADIUS)
}
