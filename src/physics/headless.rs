//! The dice physics in an app of its own: Bevy's MinimalPlugins and rapier, every schedule on
//! the single-threaded executor (the multi-threaded one spends most of a small update parking
//! threads). Used by `roll`, `fairness`, `bench`, the tests, and the window too.
//!
//! Why the window runs this app instead of adding rapier to its own world: bevy_rapier's
//! results depend on the ECS around the bodies (measured: ten unrelated entities spawned before
//! a throw changed a d6's face), so a throw is only reproducible in a world that holds nothing
//! else. A throw that must replay exactly (`roll`, the table) gets a fresh simulator; the
//! fairness lab keeps many rolls in flight in one, which is deterministic for its seed too.

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;

use super::{
    DicePhysicsPlugin, FinishedRolls, PhysicalDie, PhysicsError, Roll, RollResult, SettleRules,
    ThrowRequest, despawn_roll, spawn_roll,
};
use crate::dice::DieKind;

/// Fixed steps one update runs.
const STEPS_PER_UPDATE: u32 = 4;

/// A headless dice table.
pub struct Simulator {
    app: App,
    in_flight: usize,
    steps_per_update: u32,
}

/// Where a thrown die is now.
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

impl Simulator {
    /// A simulator with the given settle rules, running a few fixed steps per update.
    pub fn new(rules: SettleRules) -> Simulator {
        Simulator::with_steps(rules, STEPS_PER_UPDATE)
    }

    /// A simulator running `steps` fixed steps per update (the window steps one at a time).
    pub fn with_steps(rules: SettleRules, steps: u32) -> Simulator {
        let steps = steps.max(1);
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, TransformPlugin, DicePhysicsPlugin));
        app.insert_resource(rules);
        app.insert_resource(TimeUpdateStrategy::FixedTimesteps(steps));
        app.finish();
        app.cleanup();
        let mut schedules = app.world_mut().resource_mut::<Schedules>();
        for (_, schedule) in schedules.iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
        Simulator {
            app,
            in_flight: 0,
            steps_per_update: steps,
        }
    }

    /// Where each die of a roll is, in throw order.
    pub fn poses(&mut self, roll: Entity) -> Vec<DiePose> {
        let world = self.app.world_mut();
        let dice = world
            .get::<Roll>(roll)
            .map(|r| r.dice.clone())
            .unwrap_or_default();
        dice.iter()
            .filter_map(|&e| {
                let die = world.get::<PhysicalDie>(e)?;
                let t = world.get::<Transform>(e)?;
                Some(DiePose {
                    kind: die.kind,
                    index: die.index,
                    translation: t.translation,
                    rotation: die.orientation(t),
                    speed: world
                        .get::<bevy_rapier3d::prelude::Velocity>(e)
                        .map_or(0.0, |v| v.linear.length()),
                })
            })
            .collect()
    }

    /// Throws a roll; it runs with the next updates.
    pub fn start(&mut self, request: &ThrowRequest) -> Entity {
        let world = self.app.world_mut();
        let roll = {
            let mut commands = world.commands();
            spawn_roll(&mut commands, request, |_, _| {})
        };
        world.flush();
        self.in_flight += 1;
        roll
    }

    /// The simulator's world, for tests that stage a scene.
    pub fn world_mut(&mut self) -> &mut World {
        self.app.world_mut()
    }

    /// Waits for the next finished roll.
    pub fn wait(&mut self) -> Result<RollResult, PhysicsError> {
        let max_updates = (super::THROW_BUDGET_SECONDS * super::STEP_HZ) as u64
            / u64::from(self.steps_per_update);
        for _ in 0..max_updates {
            self.update();
            if let Some(r) = self.take_finished().pop() {
                return Ok(r);
            }
        }
        Err(PhysicsError::NotSettled {
            seconds: super::THROW_BUDGET_SECONDS,
        })
    }

    /// Advances every roll by one update (a few fixed steps).
    pub fn update(&mut self) {
        self.app.update();
    }

    /// Takes the rolls that finished, and removes their physics worlds.
    pub fn take_finished(&mut self) -> Vec<RollResult> {
        let world = self.app.world_mut();
        let done = std::mem::take(&mut world.resource_mut::<FinishedRolls>().0);
        for r in &done {
            if let Some(parts) = world.entity_mut(r.roll).take::<Roll>() {
                let mut commands = world.commands();
                despawn_roll(&mut commands, r.roll, &parts);
            }
        }
        world.flush();
        self.in_flight -= done.len().min(self.in_flight);
        done
    }

    /// Throws one roll and waits for it.
    pub fn roll(&mut self, request: &ThrowRequest) -> Result<RollResult, PhysicsError> {
        self.start(request);
        self.wait()
    }

    /// Runs many rolls with up to `lanes` in flight, calling `on_result` as each finishes (in
    /// the order they finish). Stops early when `on_result` returns false.
    pub fn run_many(
        &mut self,
        lanes: usize,
        requests: impl IntoIterator<Item = ThrowRequest>,
        mut on_result: impl FnMut(RollResult) -> bool,
    ) {
        let mut requests = requests.into_iter().peekable();
        let lanes = lanes.max(1);
        loop {
            while self.in_flight < lanes {
                match requests.next() {
                    Some(r) => {
                        self.start(&r);
                    }
                    None => break,
                }
            }
            if self.in_flight == 0 {
                return;
            }
            self.update();
            for r in self.take_finished() {
                if !on_result(r) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_throw_that_never_settles_stops_at_its_budget() {
        // Dice that never count as still, and are never thrown again: only the budget ends it.
        let rules = SettleRules {
            still_time: 1.0e9,
            time_cap: 1.0e9,
            ..SettleRules::default()
        };
        let err = Simulator::new(rules)
            .roll(&request(7, vec![DieKind::D6]))
            .expect_err("never settles");
        assert_eq!(
            err,
            PhysicsError::NotSettled {
                seconds: super::super::THROW_BUDGET_SECONDS
            }
        );
    }

    fn request(seed: u64, dice: Vec<DieKind>) -> ThrowRequest {
        ThrowRequest {
            seed,
            tag: seed,
            dice,
            swing: None,
        }
    }

    #[test]
    fn the_world_around_does_not_change_a_throw_in_its_own_simulator() {
        // A fresh simulator per throw, as the table and `roll` use: identical every time.
        let throw = || {
            Simulator::new(SettleRules::default())
                .roll(&request(11, vec![DieKind::D6, DieKind::D6]))
        };
        let a = throw().expect("settles");
        let b = throw().expect("settles");
        assert_eq!(a.dice, b.dice);
        // Stepped one fixed step per update (as in the window) it is the same throw.
        let mut one = Simulator::with_steps(SettleRules::default(), 1);
        let c = one
            .roll(&request(11, vec![DieKind::D6, DieKind::D6]))
            .expect("settles");
        assert_eq!(a.dice, c.dice);
    }

    #[test]
    fn same_seed_same_faces_and_final_transforms() {
        let dice = vec![
            DieKind::D6,
            DieKind::D20,
            DieKind::D4,
            DieKind::D10Tens,
            DieKind::D10,
        ];
        let mut a = Simulator::new(SettleRules::default());
        let first = a.roll(&request(42, dice.clone())).expect("settles");
        // Same simulator after other rolls, and a fresh one: identical.
        a.roll(&request(7, vec![DieKind::D12; 3])).expect("settles");
        let again = a.roll(&request(42, dice.clone())).expect("settles");
        let fresh = Simulator::new(SettleRules::default())
            .roll(&request(42, dice))
            .expect("settles");
        for other in [&again, &fresh] {
            assert_eq!(first.dice, other.dice);
            assert_eq!(first.duration, other.duration);
        }
        let other_seed = a
            .roll(&request(43, vec![DieKind::D6, DieKind::D20]))
            .expect("settles");
        assert_ne!(first.dice[0].translation, other_seed.dice[0].translation);
    }

    #[test]
    fn settled_dice_lie_flat_inside_the_tray() {
        let mut sim = Simulator::new(SettleRules::default());
        let r = sim
            .roll(&request(5, DieKind::ALL.to_vec()))
            .expect("settles");
        assert_eq!(r.dice.len(), DieKind::ALL.len());
        for d in &r.dice {
            assert!(d.tilt_degrees <= 4.0, "{d:?}");
            assert!(crate::physics::tray::contains(
                Vec3::from_array(d.translation),
                0.0
            ));
            assert!(d.value < 21);
            // The face read is the one physically up (down for a d4) in the final pose.
            let reading = crate::dice::read(d.kind, Quat::from_array(d.rotation));
            assert_eq!(reading.value, d.value);
        }
    }

    /// The first die of a roll in flight.
    fn first_die(sim: &mut Simulator, roll: Entity) -> Entity {
        sim.world_mut()
            .get::<Roll>(roll)
            .map(|r| r.dice[0])
            .expect("a roll in flight")
    }

    #[test]
    fn an_escaped_die_is_thrown_again_and_counted() {
        let mut sim = Simulator::new(SettleRules::default());
        let roll = sim.start(&request(11, vec![DieKind::D6]));
        sim.update();
        let die = first_die(&mut sim, roll);
        // Knock it over the wall.
        if let Some(mut t) = sim.world_mut().get_mut::<Transform>(die) {
            t.translation = Vec3::new(30.0, 5.0, 0.0);
        }
        let r = sim.wait().expect("settles");
        assert_eq!(r.dice[0].rethrows.escaped, 1);
        assert!(r.dice[0].tilt_degrees <= 4.0);
    }

    /// Throws a d6, builds a 10° ramp in a corner of its tray and sets the die on it, at rest:
    /// friction holds it there, tilted. Returns the result once it settles.
    fn settle_from_a_ramp(rules: SettleRules) -> RollResult {
        use bevy_rapier3d::prelude::*;
        let mut sim = Simulator::new(rules);
        let roll = sim.start(&request(12, vec![DieKind::D6]));
        let ramp = Quat::from_rotation_z(10f32.to_radians());
        sim.world_mut().spawn((
            RapierContextEntityLink(roll),
            RigidBody::Fixed,
            Collider::cuboid(3.0, 0.5, 3.0),
            Transform::from_xyz(13.0, 0.6, 9.0).with_rotation(ramp),
        ));
        sim.update();
        let die = first_die(&mut sim, roll);
        if let Some(mut t) = sim.world_mut().get_mut::<Transform>(die) {
            *t = Transform::from_translation(Vec3::new(13.0, 2.2, 9.0)).with_rotation(ramp);
        }
        if let Some(mut v) = sim.world_mut().get_mut::<Velocity>(die) {
            *v = Velocity::zero();
        }
        sim.wait().expect("settles")
    }

    #[test]
    fn a_die_resting_tilted_is_cocked_and_thrown_again() {
        let r = settle_from_a_ramp(SettleRules::default());
        assert!(r.dice[0].rethrows.cocked >= 1, "{:?}", r.dice[0]);
        assert!(r.dice[0].tilt_degrees <= 4.0);
    }

    #[test]
    fn with_the_nudge_policy_a_cocked_die_is_nudged_not_thrown_again() {
        let r = settle_from_a_ramp(SettleRules {
            cocked: crate::physics::CockedPolicy::Nudge,
            ..SettleRules::default()
        });
        assert!(r.dice[0].rethrows.nudged >= 1, "{:?}", r.dice[0]);
        assert_eq!(r.dice[0].rethrows.cocked, 0);
        assert!(r.dice[0].tilt_degrees <= 4.0);
    }

    #[test]
    fn thrown_dice_bounce() {
        let mut sim = Simulator::new(SettleRules::default());
        let mut bounced = 0;
        sim.run_many(
            16,
            (0..32).map(|s| request(200 + s, vec![DieKind::D6])),
            |r| {
                bounced += usize::from(r.dice[0].bounces >= 1);
                true
            },
        );
        assert!(bounced >= 30, "only {bounced} of 32 throws bounced");
    }

    #[test]
    fn many_rolls_in_flight_match_rolls_alone() {
        let mut sim = Simulator::new(SettleRules::default());
        let mut together = Vec::new();
        sim.run_many(
            8,
            (0..16).map(|s| request(100 + s, vec![DieKind::D8])),
            |r| {
                together.push(r);
                true
            },
        );
        assert_eq!(together.len(), 16);
        together.sort_by_key(|r| r.seed);
        let mut alone = Simulator::new(SettleRules::default());
        for r in together.iter().take(4) {
            let solo = alone
                .roll(&request(r.seed, vec![DieKind::D8]))
                .expect("settles");
            assert_eq!(solo.dice, r.dice, "seed {}", r.seed);
        }
    }
}
