//! The anchor `bench --physics-only` measures the simulator against: the same d6 throw into the
//! same walled tray, stepped at 120 Hz with rapier3d's own API (its sets and pipeline, no Bevy
//! world, no plugin), until the die rests. Same rapier, same shapes and materials, same throw
//! from the same seed, and the same rule for "at rest": what is left of the ratio is the cost
//! of everything around rapier.

use glam::Vec3;
use rapier3d::prelude::{
    CCDSolver, ColliderSet, DefaultBroadPhase, ImpulseJointSet, IntegrationParameters,
    IslandManager, MultibodyJointSet, NarrowPhase, PhysicsPipeline, RigidBodySet,
};

use super::world::{add_tray, die_body, die_collider_builder};
use super::{GRAVITY, SettleRules, throw};
use crate::dice::DieKind;

/// The baseline's step rate (Hz).
pub const BASELINE_HZ: f32 = 120.0;

/// How one baseline throw went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BaselineThrow {
    /// Steps until the die rested (or the time cap).
    pub steps: u32,
    /// Simulated seconds.
    pub seconds: f32,
    /// It came to rest within the rules' time cap.
    pub rested: bool,
}

/// Throws one d6 from `seed` (the simulator's own throw for that seed) and steps it at
/// [`BASELINE_HZ`] with plain rapier until it is at rest by `rules` or the time cap passes.
pub fn throw_d6(seed: u64, rules: &SettleRules) -> BaselineThrow {
    let mut rng = throw::generator(seed);
    let swing = throw::fit_under_lid(throw::random_swing(&mut rng), 1);
    let params = throw::die_params(&mut rng, &swing, 0, 1);
    let frame = throw::uniform_rotation(&mut rng);

    let mut bodies = RigidBodySet::new();
    let mut colliders = ColliderSet::new();
    add_tray(&mut bodies, &mut colliders);
    let die = bodies.insert(die_body(&params, frame));
    colliders.insert_with_parent(die_collider_builder(DieKind::D6, frame), die, &mut bodies);

    let dt = 1.0 / BASELINE_HZ;
    let params = IntegrationParameters {
        dt,
        length_unit: 1.0,
        ..IntegrationParameters::default()
    };
    let gravity = Vec3::new(0.0, -GRAVITY, 0.0);
    let mut pipeline = PhysicsPipeline::new();
    let mut islands = IslandManager::new();
    let mut broad_phase = DefaultBroadPhase::new();
    let mut narrow_phase = NarrowPhase::new();
    let mut impulse_joints = ImpulseJointSet::new();
    let mut multibody_joints = MultibodyJointSet::new();
    let mut ccd = CCDSolver::new();

    let still_needed = rules.still_steps(dt);
    let cap = rules.cap_steps(dt);
    let mut still = 0;
    let mut steps = 0;
    while steps < cap {
        pipeline.step(
            gravity,
            &params,
            &mut islands,
            &mut broad_phase,
            &mut narrow_phase,
            &mut bodies,
            &mut colliders,
            &mut impulse_joints,
            &mut multibody_joints,
            &mut ccd,
            &(),
            &(),
        );
        steps += 1;
        let body = &bodies[die];
        let at_rest = rules.is_still(body.linvel(), body.angvel());
        still = if at_rest { still + 1 } else { 0 };
        if still >= still_needed {
            break;
        }
    }
    BaselineThrow {
        steps,
        seconds: steps as f32 * dt,
        rested: still >= still_needed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_baseline_die_rests_in_the_tray_the_same_way_each_time() {
        let rules = SettleRules::default();
        let first = throw_d6(9_000, &rules);
        assert!(first.rested, "{first:?}");
        assert!(first.seconds < rules.time_cap);
        assert_eq!(throw_d6(9_000, &rules), first, "deterministic");
    }
}
