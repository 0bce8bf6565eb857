//! One roll's physics world: rapier3d's own sets and pipeline holding the tray and the roll's
//! dice and nothing else, stepped at [`STEP_HZ`]. After each step every die still moving is
//! watched: at rest and flat it is read and frozen; cocked, escaped or still moving at the time
//! cap it goes back in the hand with fresh parameters from the roll's generator.
//!
//! Nothing outside the world touches it, so a throw is the same whatever else a program does:
//! the window, `roll`, the fairness lab and the table server get the same trajectory from the
//! same seed and dice.

use glam::{Quat, Vec3};
use rand_chacha::ChaCha8Rng;
use rapier3d::prelude::{
    CCDSolver, CoefficientCombineRule, ColliderBuilder, ColliderSet, DefaultBroadPhase,
    ImpulseJointSet, IntegrationParameters, IslandManager, MultibodyJointSet, NarrowPhase,
    PhysicsPipeline, Pose, RigidBodyBuilder, RigidBodyHandle, RigidBodySet, RigidBodyType,
    SharedShape,
};

use super::throw::{self, ThrowParams};
use super::{
    BOUNCE_SPEED, CockedPolicy, DIE_ANGULAR_DAMPING, DIE_DENSITY, DIE_SURFACE, DieState, GRAVITY,
    Rethrows, RollId, RollResult, STEP_HZ, SettleRules, SettledDie, ThrowRequest, die_collider,
    tray,
};
use crate::dice::{self, DieKind};

/// Linear damping of the dice, 1/s: air.
const DIE_LINEAR_DAMPING: f32 = 0.1;

/// A thrown die and what the watch knows of it.
#[derive(Debug)]
pub struct PhysicalDie {
    /// Its body in the roll's world.
    body: RigidBodyHandle,
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
    /// The body frame the physics uses for this die (see the module notes of `physics`).
    pub frame: Quat,
    /// Bounces in its last throw: falling faster than 5 cm/s, then rising faster than 5 cm/s.
    pub bounces: u32,
    falling: bool,
}

/// Where a die is now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiePose {
    /// What die.
    pub kind: DieKind,
    /// Its place in the throw.
    pub index: usize,
    /// Position, cm.
    pub translation: Vec3,
    /// Orientation of its geometry (the body frame taken out).
    pub rotation: Quat,
    /// Speed, cm/s (a sudden drop is an impact, for the table's sounds).
    pub speed: f32,
}

/// rapier's state for one world.
struct Rapier {
    bodies: RigidBodySet,
    colliders: ColliderSet,
    params: IntegrationParameters,
    pipeline: PhysicsPipeline,
    islands: IslandManager,
    broad_phase: DefaultBroadPhase,
    narrow_phase: NarrowPhase,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    ccd: CCDSolver,
}

impl Rapier {
    /// A world holding a copy of `tray`, stepped by `pipeline` (a pipeline holds only scratch
    /// memory: one that stepped other worlds steps this one the same).
    fn new(dt: f32, tray: &Tray, pipeline: PhysicsPipeline) -> Rapier {
        Rapier {
            bodies: tray.bodies.clone(),
            colliders: tray.colliders.clone(),
            params: IntegrationParameters {
                dt,
                length_unit: 1.0,
                ..IntegrationParameters::default()
            },
            pipeline,
            islands: IslandManager::new(),
            broad_phase: DefaultBroadPhase::new(),
            narrow_phase: NarrowPhase::new(),
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            ccd: CCDSolver::new(),
        }
    }

    fn step(&mut self) {
        self.pipeline.step(
            Vec3::new(0.0, -GRAVITY, 0.0),
            &self.params,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.ccd,
            &(),
            &(),
        );
    }
}

/// The tray's bodies and colliders, built once and copied into each roll's world: a copy is the
/// same sets, handles and pending changes as building them again, for less work a throw.
#[derive(Clone)]
pub struct Tray {
    bodies: RigidBodySet,
    colliders: ColliderSet,
}

impl Tray {
    /// The tray, built.
    pub fn new() -> Tray {
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        add_tray(&mut bodies, &mut colliders);
        Tray { bodies, colliders }
    }
}

impl Default for Tray {
    fn default() -> Self {
        Tray::new()
    }
}

/// A fixed body with one collider of a tray's material (felt or wood: the die's friction meets
/// the lower of the two).
fn add_fixed(
    bodies: &mut RigidBodySet,
    colliders: &mut ColliderSet,
    shape: SharedShape,
    pose: Pose,
    (friction, restitution): (f32, f32),
) {
    let body = bodies.insert(RigidBodyBuilder::fixed().pose(pose));
    colliders.insert_with_parent(
        ColliderBuilder::new(shape)
            .friction(friction)
            .friction_combine_rule(CoefficientCombineRule::Min)
            .restitution(restitution),
        body,
        bodies,
    );
}

/// The tray's colliders in a world.
pub(super) fn add_tray(bodies: &mut RigidBodySet, colliders: &mut ColliderSet) {
    for (_, shape, centre, surface) in tray::colliders() {
        add_fixed(
            bodies,
            colliders,
            shape,
            Pose::from_translation(centre),
            surface,
        );
    }
}

/// A die's body, thrown with `params` in body frame `frame`.
pub(super) fn die_body(params: &ThrowParams, frame: Quat) -> RigidBodyBuilder {
    RigidBodyBuilder::dynamic()
        .pose(Pose::from_parts(
            params.position,
            params.rotation * frame.inverse(),
        ))
        .linvel(params.linear)
        .angvel(params.angular)
        .linear_damping(DIE_LINEAR_DAMPING)
        .angular_damping(DIE_ANGULAR_DAMPING)
        .can_sleep(false)
}

/// A die's collider: its rounded hull in `frame`, acrylic.
pub(super) fn die_collider_builder(kind: DieKind, frame: Quat) -> ColliderBuilder {
    ColliderBuilder::new(die_collider(kind, frame).unwrap_or_else(|| SharedShape::ball(0.8)))
        .density(DIE_DENSITY)
        .friction(DIE_SURFACE.0)
        .restitution(DIE_SURFACE.1)
}

/// Why a die goes back in the hand.
enum Again {
    Escaped,
    Cocked,
    TimedOut,
    AboveSize,
}

/// A roll in flight: its world, its dice, and the generator its re-throws draw from.
pub struct RollWorld {
    /// The roll.
    pub id: RollId,
    /// The seed its throws were drawn from.
    pub seed: u64,
    /// The caller's tag.
    pub tag: u64,
    /// Its dice, in throw order.
    pub dice: Vec<PhysicalDie>,
    /// Steps since the throw.
    pub steps: u32,
    rapier: Rapier,
    rng: ChaCha8Rng,
}

impl RollWorld {
    /// The world of a new roll, with its dice in the air: a copy of `tray`, stepped by
    /// `pipeline` (a new one, or one a finished roll gave back with
    /// [`RollWorld::into_pipeline`], its scratch memory already grown).
    pub fn throw(
        id: RollId,
        request: &ThrowRequest,
        tray: &Tray,
        pipeline: PhysicsPipeline,
    ) -> RollWorld {
        let mut rng = throw::generator(request.seed);
        let swing = request
            .swing
            .unwrap_or_else(|| throw::random_swing(&mut rng));
        let swing = throw::fit_under_lid(swing, request.dice.len());
        let mut rapier = Rapier::new((1.0 / STEP_HZ) as f32, tray, pipeline);
        let count = request.dice.len();
        let dice = request
            .dice
            .iter()
            .enumerate()
            .map(|(index, &kind)| {
                let params = throw::die_params(&mut rng, &swing, index, count);
                let frame = throw::uniform_rotation(&mut rng);
                let body = rapier.bodies.insert(die_body(&params, frame));
                rapier.colliders.insert_with_parent(
                    die_collider_builder(kind, frame),
                    body,
                    &mut rapier.bodies,
                );
                PhysicalDie {
                    body,
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
                }
            })
            .collect();
        RollWorld {
            id,
            seed: request.seed,
            tag: request.tag,
            dice,
            steps: 0,
            rapier,
            rng,
        }
    }

    /// Where each die is, in throw order.
    pub fn poses(&self) -> Vec<DiePose> {
        self.dice
            .iter()
            .filter_map(|die| {
                let body = self.rapier.bodies.get(die.body)?;
                Some(DiePose {
                    kind: die.kind,
                    index: die.index,
                    translation: body.translation(),
                    rotation: *body.rotation() * die.frame,
                    speed: body.linvel().length(),
                })
            })
            .collect()
    }

    /// The world's pipeline, for the next roll's world.
    pub fn into_pipeline(self) -> PhysicsPipeline {
        self.rapier.pipeline
    }

    /// Whether every die has settled.
    pub fn is_finished(&self) -> bool {
        self.dice
            .iter()
            .all(|d| matches!(d.state, DieState::Settled(_)))
    }

    /// One step of the world, then the watch over its dice.
    pub fn step(&mut self, rules: &SettleRules) {
        // On a server's physics pool, where a long throw lets a waiting one have the core.
        crate::work::pause_point();
        self.rapier.step();
        self.steps += 1;
        self.watch(rules);
    }

    /// Counts time, detects rest, reads and freezes flat dice, throws again escaped, cocked and
    /// never-resting ones.
    fn watch(&mut self, rules: &SettleRules) {
        let dt = (1.0 / STEP_HZ) as f32;
        let (still_needed, cap) = (rules.still_steps(dt), rules.cap_steps(dt));
        for die in &mut self.dice {
            if matches!(die.state, DieState::Settled(_)) {
                continue;
            }
            // Read without marking the body changed: a body taken mutably is handed to rapier's
            // change tracking at the next step (islands, colliders' poses), which a die that
            // only moved on its own does not need.
            let Some(body) = self.rapier.bodies.get(die.body) else {
                continue;
            };
            die.steps_in_throw += 1;
            // A bounce: falling, then rising.
            let (linear, angular) = (body.linvel(), body.angvel());
            if linear.y < -BOUNCE_SPEED {
                die.falling = true;
            } else if linear.y > BOUNCE_SPEED && die.falling {
                die.falling = false;
                die.bounces += 1;
            }
            die.still_steps = if rules.is_still(linear, angular) {
                die.still_steps + 1
            } else {
                0
            };
            // Decide whether it settles, is nudged, or goes back in the hand (and why).
            let again = if !tray::contains(body.translation(), 0.5) {
                Some(Again::Escaped)
            } else if die.still_steps >= still_needed {
                let reading = dice::read(die.kind, *body.rotation() * die.frame);
                let Some(body) = self.rapier.bodies.get_mut(die.body) else {
                    continue;
                };
                if reading.tilt_degrees <= rules.cocked_degrees
                    && die.kind.throws_again_on(reading.value)
                {
                    // A d18 thrown for a d17 shows 18: picked up and thrown again, as a
                    // player does.
                    Some(Again::AboveSize)
                } else if reading.tilt_degrees <= rules.cocked_degrees {
                    die.state = DieState::Settled(reading);
                    die.settle_time = self.steps as f32 * dt;
                    body.set_body_type(RigidBodyType::Fixed, false);
                    body.set_linvel(Vec3::ZERO, false);
                    body.set_angvel(Vec3::ZERO, false);
                    None
                } else if rules.cocked == CockedPolicy::Nudge {
                    die.rethrows.nudged += 1;
                    die.still_steps = 0;
                    body.set_linvel(Vec3::new(0.0, 25.0, 0.0), true);
                    body.set_angvel(Vec3::new(6.0, 0.0, 4.0), true);
                    None
                } else {
                    Some(Again::Cocked)
                }
            } else if die.steps_in_throw >= cap {
                Some(Again::TimedOut)
            } else {
                None
            };
            if let Some(why) = again {
                *match why {
                    Again::Escaped => &mut die.rethrows.escaped,
                    Again::Cocked => &mut die.rethrows.cocked,
                    Again::TimedOut => &mut die.rethrows.timed_out,
                    Again::AboveSize => &mut die.rethrows.above_size,
                } += 1;
                // Picked up and tossed in again over any part of the tray, with fresh
                // parameters from the roll's generator.
                let swing = throw::rethrow_swing(&mut self.rng);
                let params = throw::die_params(&mut self.rng, &swing, 0, 1);
                let Some(body) = self.rapier.bodies.get_mut(die.body) else {
                    continue;
                };
                body.set_position(
                    Pose::from_parts(params.position, params.rotation * die.frame.inverse()),
                    true,
                );
                body.set_linvel(params.linear, true);
                body.set_angvel(params.angular, true);
                die.steps_in_throw = 0;
                die.still_steps = 0;
                die.bounces = 0;
                die.falling = false;
            }
        }
    }

    /// The finished roll, once every die has settled.
    pub fn result(&self) -> Option<RollResult> {
        let dice = self
            .dice
            .iter()
            .map(|die| {
                let DieState::Settled(reading) = die.state else {
                    return None;
                };
                let body = self.rapier.bodies.get(die.body)?;
                Some(SettledDie {
                    kind: die.kind,
                    value: reading.value,
                    tilt_degrees: reading.tilt_degrees,
                    settle_time: die.settle_time,
                    rethrows: die.rethrows,
                    initial_face: die.initial_face,
                    face: reading.face,
                    bounces: die.bounces,
                    translation: body.translation().to_array(),
                    rotation: (*body.rotation() * die.frame).to_array(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(RollResult {
            roll: self.id,
            seed: self.seed,
            tag: self.tag,
            duration: self.steps as f32 / STEP_HZ as f32,
            dice,
        })
    }

    /// Stages a scene for a test: a fixed box in the world.
    #[cfg(test)]
    pub(super) fn add_fixed_box(&mut self, half: Vec3, centre: Vec3, rotation: Quat) {
        add_fixed(
            &mut self.rapier.bodies,
            &mut self.rapier.colliders,
            SharedShape::cuboid(half.x, half.y, half.z),
            Pose::from_parts(centre, rotation),
            tray::FELT,
        );
    }

    /// Stages a scene for a test: puts die `index` at a pose of its geometry, at rest.
    #[cfg(test)]
    pub(super) fn place_die(&mut self, index: usize, translation: Vec3, rotation: Quat) {
        let Some(die) = self.dice.get(index) else {
            return;
        };
        if let Some(body) = self.rapier.bodies.get_mut(die.body) {
            body.set_position(
                Pose::from_parts(translation, rotation * die.frame.inverse()),
                true,
            );
            body.set_linvel(Vec3::ZERO, true);
            body.set_angvel(Vec3::ZERO, true);
        }
    }

    /// Stages a scene for a test: `count` unrelated bodies in the world, far from the tray, each
    /// on a floor of its own (they fall, bounce and rest, and never meet the dice).
    #[cfg(test)]
    pub(super) fn add_unrelated_bodies(&mut self, count: usize) {
        for i in 0..count {
            let centre = Vec3::new(1_000.0 + 40.0 * i as f32, 0.0, 0.0);
            add_fixed(
                &mut self.rapier.bodies,
                &mut self.rapier.colliders,
                SharedShape::cuboid(10.0, 1.0, 10.0),
                Pose::from_translation(centre),
                tray::FELT,
            );
            let body = self.rapier.bodies.insert(
                RigidBodyBuilder::dynamic()
                    .translation(centre + Vec3::new(0.0, 8.0, 0.0))
                    .angvel(Vec3::new(3.0, 1.0, 2.0)),
            );
            self.rapier.colliders.insert_with_parent(
                ColliderBuilder::new(SharedShape::cuboid(0.8, 0.8, 0.8)).density(DIE_DENSITY),
                body,
                &mut self.rapier.bodies,
            );
        }
    }
}
