//! The headless dice table: rolls in flight, each in a world of its own ([`RollWorld`]), stepped
//! together a few fixed steps per update. Used by `roll`, `fairness`, `bench`, the table server,
//! the tests, and the window too (one step per fixed update, drawing where it says).
//!
//! A roll's world holds its tray and its dice and nothing else, so what a throw does depends on
//! its seed, dice and gesture alone: not on the rolls in flight beside it, not on what the
//! program around it holds. A throw that must replay exactly gets the same trajectory in a fresh
//! simulator, in a busy one, in the window and on a server.

use rapier3d::prelude::PhysicsPipeline;

use super::world::{RollWorld, Tray};
use super::{PhysicsError, RollId, RollResult, SettleRules, ThrowRequest};

pub use super::world::DiePose;

/// Fixed steps one update runs.
const STEPS_PER_UPDATE: u32 = 4;

/// A headless dice table.
pub struct Simulator {
    rules: SettleRules,
    steps_per_update: u32,
    /// Rolls in flight, in the order they were thrown.
    rolls: Vec<RollWorld>,
    /// Rolls finished since the last [`Simulator::take_finished`], in the order they finished.
    finished: Vec<RollResult>,
    thrown: u64,
    /// The tray every roll's world starts from.
    tray: Tray,
    /// Pipelines of finished rolls, for the next ones.
    spare: Vec<PhysicsPipeline>,
}

impl Simulator {
    /// A simulator with the given settle rules, running a few fixed steps per update.
    pub fn new(rules: SettleRules) -> Simulator {
        Simulator::with_steps(rules, STEPS_PER_UPDATE)
    }

    /// A simulator running `steps` fixed steps per update (the window steps one at a time).
    pub fn with_steps(rules: SettleRules, steps: u32) -> Simulator {
        Simulator {
            rules,
            steps_per_update: steps.max(1),
            rolls: Vec::new(),
            finished: Vec::new(),
            thrown: 0,
            tray: Tray::new(),
            spare: Vec::new(),
        }
    }

    /// Where each die of a roll is, in throw order (nothing once the roll was taken).
    pub fn poses(&self, roll: RollId) -> Vec<DiePose> {
        self.rolls
            .iter()
            .find(|r| r.id == roll)
            .map(RollWorld::poses)
            .unwrap_or_default()
    }

    /// Throws a roll; it runs with the next updates.
    pub fn start(&mut self, request: &ThrowRequest) -> RollId {
        let id = RollId(self.thrown);
        self.thrown += 1;
        let pipeline = self.spare.pop().unwrap_or_default();
        self.rolls
            .push(RollWorld::throw(id, request, &self.tray, pipeline));
        id
    }

    /// Waits for the next finished roll.
    pub fn wait(&mut self) -> Result<RollResult, PhysicsError> {
        let max_updates = (super::THROW_BUDGET_SECONDS * super::STEP_HZ) as u64
            / u64::from(self.steps_per_update);
        for _ in 0..max_updates {
            if self.finished.is_empty() {
                self.update();
            }
            if !self.finished.is_empty() {
                return Ok(self.finished.remove(0));
            }
        }
        Err(PhysicsError::NotSettled {
            seconds: super::THROW_BUDGET_SECONDS,
        })
    }

    /// Advances every roll by one update (a few fixed steps); a roll whose dice have all
    /// settled stops there and is kept for [`Simulator::take_finished`].
    pub fn update(&mut self) {
        for _ in 0..self.steps_per_update {
            for roll in &mut self.rolls {
                roll.step(&self.rules);
            }
            let mut i = 0;
            while i < self.rolls.len() {
                let result = self.rolls[i]
                    .is_finished()
                    .then(|| self.rolls[i].result())
                    .flatten();
                match result {
                    Some(result) => {
                        self.finished.push(result);
                        let roll = self.rolls.remove(i);
                        self.spare.push(roll.into_pipeline());
                    }
                    None => i += 1,
                }
            }
            if self.rolls.is_empty() {
                break;
            }
        }
    }

    /// Takes the rolls that finished (their worlds are gone).
    pub fn take_finished(&mut self) -> Vec<RollResult> {
        std::mem::take(&mut self.finished)
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
            while self.rolls.len() < lanes {
                match requests.next() {
                    Some(r) => {
                        self.start(&r);
                    }
                    None => break,
                }
            }
            if self.rolls.is_empty() && self.finished.is_empty() {
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
    use crate::dice::DieKind;
    use glam::{Quat, Vec3};

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
            assert!(d.value <= 30);
            // The face read is the one physically up (down for a d4) in the final pose.
            let reading = crate::dice::read(d.kind, Quat::from_array(d.rotation));
            assert_eq!(reading.value, d.value);
        }
    }

    /// The world of a roll in flight, to stage a scene in.
    fn world_of(sim: &mut Simulator, roll: RollId) -> &mut RollWorld {
        sim.rolls
            .iter_mut()
            .find(|r| r.id == roll)
            .expect("a roll in flight")
    }

    #[test]
    fn an_escaped_die_is_thrown_again_and_counted() {
        let mut sim = Simulator::new(SettleRules::default());
        let roll = sim.start(&request(11, vec![DieKind::D6]));
        sim.update();
        // Knock it over the wall.
        world_of(&mut sim, roll).place_die(0, Vec3::new(30.0, 5.0, 0.0), Quat::IDENTITY);
        let r = sim.wait().expect("settles");
        assert_eq!(r.dice[0].rethrows.escaped, 1);
        assert!(r.dice[0].tilt_degrees <= 4.0);
    }

    /// A d19 is a d20 thrown again while it shows 20: laid at rest on its 20, it is picked up
    /// and thrown again, counted so, and settles on 1 to 19.
    #[test]
    fn a_die_showing_more_than_its_size_is_thrown_again() {
        let mut sim = Simulator::new(SettleRules::default());
        let roll = sim.start(&request(13, vec![DieKind::D19]));
        sim.update();
        let shape = DieKind::D19.shape();
        let twenty = shape
            .faces
            .iter()
            .position(|f| f.value == 20)
            .expect("a d20 has a 20");
        let lying = crate::dice::rotation_showing(DieKind::D19, twenty, 0.4);
        let rest_height = shape.inradius() + 0.1;
        world_of(&mut sim, roll).place_die(0, Vec3::new(0.0, rest_height, 0.0), lying);
        let r = sim.wait().expect("settles");
        assert!(r.dice[0].rethrows.above_size >= 1, "{:?}", r.dice[0]);
        assert!((1..=19).contains(&r.dice[0].value), "{:?}", r.dice[0]);
        assert_eq!(r.dice[0].rethrows.total(), {
            let t = r.dice[0].rethrows;
            t.cocked + t.escaped + t.timed_out + t.above_size
        });
    }

    /// Throws a d6, builds a 10° ramp in a corner of its tray and sets the die on it, at rest:
    /// friction holds it there, tilted. Returns the result once it settles.
    fn settle_from_a_ramp(rules: SettleRules) -> RollResult {
        let mut sim = Simulator::new(rules);
        let roll = sim.start(&request(12, vec![DieKind::D6]));
        let ramp = Quat::from_rotation_z(10f32.to_radians());
        let world = world_of(&mut sim, roll);
        world.add_fixed_box(Vec3::new(3.0, 0.5, 3.0), Vec3::new(13.0, 0.6, 9.0), ramp);
        world.place_die(0, Vec3::new(13.0, 2.0, 9.0), ramp);
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
    fn unrelated_bodies_in_the_world_do_not_change_a_throw() {
        let dice = vec![DieKind::D6, DieKind::D20, DieKind::D8];
        let alone = Simulator::new(SettleRules::default())
            .roll(&request(21, dice.clone()))
            .expect("settles");
        let mut sim = Simulator::new(SettleRules::default());
        let roll = sim.start(&request(21, dice));
        world_of(&mut sim, roll).add_unrelated_bodies(10);
        let crowded = sim.wait().expect("settles");
        assert_eq!(alone.dice, crowded.dice);
        assert_eq!(alone.duration, crowded.duration);
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
