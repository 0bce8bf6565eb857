//! Throwing and settling: each roll is a physics world of its own (a rapier context holding the
//! tray and the roll's dice), stepped at a fixed rate. Dice are watched until they rest flat;
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

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;
use bevy_rapier3d::rapier::dynamics::IntegrationParameters;
use rand_chacha::ChaCha8Rng;

use crate::dice::{self, DieKind, Reading};
use throw::{Swing, ThrowParams};

/// Physics steps per second of simulated time.
pub const STEP_HZ: f64 = 240.0;
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
#[derive(Resource, Clone, Debug)]
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
}

impl Rethrows {
    /// Throws beyond the first.
    pub fn total(&self) -> u32 {
        self.cocked + self.escaped + self.timed_out
    }
}

/// A roll in flight: the entity is also the rapier context (the roll's own physics world).
#[derive(Component)]
pub struct Roll {
    /// The seed its throws were drawn from.
    pub seed: u64,
    /// The caller's tag (history id, fairness throw number...).
    pub tag: u64,
    /// Its dice, in throw order.
    pub dice: Vec<Entity>,
    /// Its tray colliders.
    pub tray: Vec<Entity>,
    /// Fixed steps since the throw.
    pub steps: u32,
    /// Set once every die has settled and the result was published.
    pub finished: bool,
    rng: ChaCha8Rng,
    swing: Swing,
}

/// Where a die is in its throw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DieState {
    /// Flying, tumbling or rolling.
    Moving,
    /// At rest and flat: read and frozen.
    Settled(Reading),
}

/// A thrown die.
#[derive(Component, Debug)]
pub struct PhysicalDie {
    /// The roll (physics world) it belongs to.
    pub roll: Entity,
    /// Its place in the roll's throw order.
    pub index: usize,
    /// What die it is.
    pub kind: DieKind,
    /// Moving or settled.
    pub state: DieState,
    /// Steps since its last (re)throw.
    pub steps_in_throw: u32,
    /// Consecutive steps at rest.
    pub still_steps: u32,
    /// Re-throws so far.
    pub rethrows: Rethrows,
    /// The face in reading position (up; down for a d4) when it left the hand, for the check
    /// that a die does not remember how it started.
    pub initial_face: usize,
    /// Seconds from the roll's throw until it settled.
    pub settle_time: f32,
    /// The body frame the physics uses for this die (see the module notes).
    pub frame: Quat,
    /// Bounces in its last throw: falling faster than 5 cm/s, then rising faster than 5 cm/s.
    pub bounces: u32,
    falling: bool,
}

impl PhysicalDie {
    /// The die's orientation (of its geometry) from its body's transform.
    pub fn orientation(&self, transform: &Transform) -> Quat {
        transform.rotation * self.frame
    }
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
    /// The roll's entity (its physics world), to despawn or keep on show.
    pub roll: Entity,
    /// The seed.
    pub seed: u64,
    /// The caller's tag.
    pub tag: u64,
    /// Each die, in throw order.
    pub dice: Vec<SettledDie>,
    /// Simulated seconds until the last die settled.
    pub duration: f32,
}

/// Finished rolls waiting to be picked up (by the table, or the headless runner).
#[derive(Resource, Default)]
pub struct FinishedRolls(pub Vec<RollResult>);

/// The physics of the dice, the same in the window and headless.
pub struct DicePhysicsPlugin;

impl Plugin for DicePhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(
            RapierPhysicsPlugin::<NoUserData>::default()
                .with_custom_initialization(RapierContextInitialization::NoAutomaticRapierContext)
                .in_fixed_schedule(),
        );
        app.insert_resource(TimestepMode::Fixed {
            dt: (1.0 / STEP_HZ) as f32,
            substeps: 1,
        });
        app.insert_resource(Time::<Fixed>::from_hz(STEP_HZ));
        app.init_resource::<SettleRules>();
        app.init_resource::<FinishedRolls>();
        app.add_systems(
            FixedPostUpdate,
            (watch_dice, publish_finished_rolls)
                .chain()
                .after(PhysicsSet::Writeback),
        );
    }
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

/// The physics world of a new roll, with its tray, and its dice in the air. Returns the roll's
/// entity; `decorate` can add to each die (the window adds its render mesh, turned by the die's
/// body frame).
pub fn spawn_roll(
    commands: &mut Commands,
    request: &ThrowRequest,
    mut decorate: impl FnMut(&mut EntityCommands, &PhysicalDie),
) -> Entity {
    let mut rng = throw::generator(request.seed);
    let swing = request
        .swing
        .unwrap_or_else(|| throw::random_swing(&mut rng));
    let swing = throw::fit_under_lid(swing, request.dice.len());
    let mut world = RapierContextSimulation::default();
    world.integration_parameters = IntegrationParameters {
        length_unit: 1.0,
        ..default()
    };
    let roll = commands
        .spawn((
            Name::new(format!("Roll {}", request.tag)),
            world,
            RapierConfiguration {
                gravity: Vec3::new(0.0, -GRAVITY, 0.0),
                ..RapierConfiguration::new(1.0)
            },
        ))
        .id();
    let tray: Vec<Entity> = tray::colliders()
        .into_iter()
        .map(|(name, collider, centre, (friction, restitution))| {
            commands
                .spawn((
                    Name::new(format!("Tray {name}")),
                    RapierContextEntityLink(roll),
                    RigidBody::Fixed,
                    collider,
                    Friction {
                        coefficient: friction,
                        combine_rule: CoefficientCombineRule::Min,
                    },
                    Restitution::coefficient(restitution),
                    Transform::from_translation(centre),
                ))
                .id()
        })
        .collect();
    let count = request.dice.len();
    let dice: Vec<Entity> = request
        .dice
        .iter()
        .enumerate()
        .map(|(index, &kind)| {
            let params = throw::die_params(&mut rng, &swing, index, count);
            let frame = throw::uniform_rotation(&mut rng);
            let die = PhysicalDie {
                roll,
                index,
                kind,
                state: DieState::Moving,
                steps_in_throw: 0,
                still_steps: 0,
                rethrows: Rethrows::default(),
                initial_face: dice::read(kind, params.rotation).face,
                settle_time: 0.0,
                frame,
                bounces: 0,
                falling: false,
            };
            let mut e = commands.spawn(die_bundle(roll, &die, &params));
            decorate(&mut e, &die);
            e.insert(die);
            e.id()
        })
        .collect();
    commands.entity(roll).insert(Roll {
        seed: request.seed,
        tag: request.tag,
        dice,
        tray,
        steps: 0,
        finished: false,
        rng,
        swing,
    });
    roll
}

/// The collider of a die in a body frame: the convex hull of its vertices turned by `frame`,
/// shrunk so that rounding the edges keeps the faces where they are.
pub fn die_collider(kind: DieKind, frame: Quat) -> Option<Collider> {
    let shape = kind.shape();
    let scale = (shape.inradius() - EDGE_RADIUS) / shape.inradius();
    let points: Vec<Vec3> = shape
        .vertices
        .iter()
        .map(|v| frame * (*v * scale))
        .collect();
    Collider::round_convex_hull(&points, EDGE_RADIUS)
}

fn die_bundle(roll: Entity, die: &PhysicalDie, params: &ThrowParams) -> impl Bundle {
    (
        Name::new(format!("{} #{}", die.kind.name(), die.index)),
        RapierContextEntityLink(roll),
        RigidBody::Dynamic,
        die_collider(die.kind, die.frame).unwrap_or_else(|| Collider::ball(0.8)),
        ColliderMassProperties::Density(DIE_DENSITY),
        Friction::coefficient(DIE_SURFACE.0),
        Restitution::coefficient(DIE_SURFACE.1),
        Damping {
            linear_damping: 0.1,
            angular_damping: DIE_ANGULAR_DAMPING,
        },
        Sleeping::disabled(),
        Transform::from_translation(params.position)
            .with_rotation(params.rotation * die.frame.inverse()),
        Velocity {
            linear: params.linear,
            angular: params.angular,
        },
    )
}

/// Puts a die back in the hand with fresh parameters from its roll's generator.
fn rethrow(
    roll: &mut Roll,
    die: &mut PhysicalDie,
    transform: &mut Transform,
    velocity: &mut Velocity,
    body: &mut RigidBody,
) {
    let count = roll.dice.len();
    let params = throw::die_params(&mut roll.rng, &roll.swing, die.index, count);
    *transform = Transform::from_translation(params.position)
        .with_rotation(params.rotation * die.frame.inverse());
    *velocity = Velocity {
        linear: params.linear,
        angular: params.angular,
    };
    *body = RigidBody::Dynamic;
    die.state = DieState::Moving;
    die.steps_in_throw = 0;
    die.still_steps = 0;
    die.bounces = 0;
    die.falling = false;
}

/// Why a die goes back in the hand.
enum Again {
    Escaped,
    Cocked,
    TimedOut,
}

/// Each fixed step: counts time, detects rest, reads and freezes flat dice, throws again
/// escaped, cocked and never-resting ones.
fn watch_dice(
    rules: Res<SettleRules>,
    mut rolls: Query<&mut Roll>,
    mut dice: Query<(
        &mut PhysicalDie,
        &mut Transform,
        &mut Velocity,
        &mut RigidBody,
    )>,
) {
    let dt = (1.0 / STEP_HZ) as f32;
    let still_steps = rules.still_steps(dt);
    let cap_steps = rules.cap_steps(dt);
    for mut roll in &mut rolls {
        if roll.finished {
            continue;
        }
        roll.steps += 1;
        let entities = roll.dice.clone();
        for entity in entities {
            let Ok((mut die, mut transform, mut velocity, mut body)) = dice.get_mut(entity) else {
                continue;
            };
            if matches!(die.state, DieState::Settled(_)) {
                continue;
            }
            die.steps_in_throw += 1;
            // A bounce: falling, then rising.
            let vy = velocity.linear.y;
            if vy < -BOUNCE_SPEED {
                die.falling = true;
            } else if vy > BOUNCE_SPEED && die.falling {
                die.falling = false;
                die.bounces += 1;
            }
            let at_rest = rules.is_still(velocity.linear, velocity.angular);
            die.still_steps = if at_rest { die.still_steps + 1 } else { 0 };
            // Decide whether it settles, is nudged, or goes back in the hand (and why).
            let throw_again = if !tray::contains(transform.translation, 0.5) {
                Some(Again::Escaped)
            } else if die.still_steps >= still_steps {
                let reading = dice::read(die.kind, die.orientation(&transform));
                if reading.tilt_degrees <= rules.cocked_degrees {
                    die.state = DieState::Settled(reading);
                    die.settle_time = roll.steps as f32 * dt;
                    *body = RigidBody::Fixed;
                    *velocity = Velocity::zero();
                    None
                } else if rules.cocked == CockedPolicy::Nudge {
                    die.rethrows.nudged += 1;
                    die.still_steps = 0;
                    velocity.linear = Vec3::new(0.0, 25.0, 0.0);
                    velocity.angular = Vec3::new(6.0, 0.0, 4.0);
                    None
                } else {
                    Some(Again::Cocked)
                }
            } else if die.steps_in_throw >= cap_steps {
                Some(Again::TimedOut)
            } else {
                None
            };
            if let Some(why) = throw_again {
                let count = match why {
                    Again::Escaped => &mut die.rethrows.escaped,
                    Again::Cocked => &mut die.rethrows.cocked,
                    Again::TimedOut => &mut die.rethrows.timed_out,
                };
                *count += 1;
                rethrow(
                    &mut roll,
                    &mut die,
                    &mut transform,
                    &mut velocity,
                    &mut body,
                );
            }
        }
    }
}

/// Publishes each roll whose dice have all settled.
fn publish_finished_rolls(
    mut rolls: Query<(Entity, &mut Roll)>,
    dice: Query<(&PhysicalDie, &Transform)>,
    mut finished: ResMut<FinishedRolls>,
) {
    for (entity, mut roll) in &mut rolls {
        if roll.finished {
            continue;
        }
        let mut settled = Vec::with_capacity(roll.dice.len());
        for &d in &roll.dice {
            match dice.get(d) {
                Ok((die, transform)) => match die.state {
                    DieState::Settled(reading) => settled.push(SettledDie {
                        kind: die.kind,
                        value: reading.value,
                        tilt_degrees: reading.tilt_degrees,
                        settle_time: die.settle_time,
                        rethrows: die.rethrows,
                        initial_face: die.initial_face,
                        face: reading.face,
                        bounces: die.bounces,
                        translation: transform.translation.to_array(),
                        rotation: die.orientation(transform).to_array(),
                    }),
                    DieState::Moving => break,
                },
                Err(_) => break,
            }
        }
        if settled.len() == roll.dice.len() {
            roll.finished = true;
            finished.0.push(RollResult {
                roll: entity,
                seed: roll.seed,
                tag: roll.tag,
                duration: roll.steps as f32 / STEP_HZ as f32,
                dice: settled,
            });
        }
    }
}

/// Despawns a roll's physics world: its dice, its tray and the context.
pub fn despawn_roll(commands: &mut Commands, roll: Entity, parts: &Roll) {
    for &e in parts.dice.iter().chain(&parts.tray) {
        commands.entity(e).despawn();
    }
    commands.entity(roll).despawn();
}
