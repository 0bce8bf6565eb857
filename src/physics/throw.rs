//! Throw parameters drawn from a seeded ChaCha generator: where each die starts, how it is
//! turned (a uniformly random rotation) and how fast it flies and spins.

use std::f32::consts::TAU;

use glam::{Quat, Vec3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::tray;

/// How one die leaves the hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThrowParams {
    /// Start position, cm.
    pub position: Vec3,
    /// Start orientation.
    pub rotation: Quat,
    /// Start velocity, cm/s.
    pub linear: Vec3,
    /// Start spin, rad/s.
    pub angular: Vec3,
}

/// The direction and strength of a throw, shared by its dice (a gesture can set it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Swing {
    /// Where the hand opens, cm.
    pub release: Vec3,
    /// Velocity of the hand, cm/s.
    pub velocity: Vec3,
}

/// The generator of a roll's throw parameters.
pub fn generator(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A uniformly random rotation (Shoemake's method), not three random Euler angles.
pub fn uniform_rotation(rng: &mut ChaCha8Rng) -> Quat {
    let (u1, u2, u3): (f32, f32, f32) = (rng.random(), rng.random(), rng.random());
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    Quat::from_xyzw(
        a * (TAU * u2).sin(),
        a * (TAU * u2).cos(),
        b * (TAU * u3).sin(),
        b * (TAU * u3).cos(),
    )
    .normalize()
}

/// How far from the tray's middle a hand may open, cm, along the tray (x) and across it (z): a
/// hand of six dice across and five deep still starts inside the walls.
pub const RELEASE_REACH: (f32, f32) =
    (tray::INNER_WIDTH / 2.0 - 6.5, tray::INNER_DEPTH / 2.0 - 8.0);
/// Lowest and highest a hand may open above the felt, cm: over the walls, under the lid.
pub const RELEASE_HEIGHT: (f32, f32) = (tray::WALL_HEIGHT, tray::LID_HEIGHT);
/// The fastest hand a table server throws with, cm/s: the window's flick is at most 170 along
/// the felt; faster dice only bounce longer (a throw's physics time grows with its speed).
pub const MAX_HAND_SPEED: f32 = 300.0;

/// Whether a swing is one a hand over the tray makes: open within [`RELEASE_REACH`] and
/// [`RELEASE_HEIGHT`], no faster than [`MAX_HAND_SPEED`]. A hand outside the tray throws dice
/// that escape and are thrown again until the time cap; a table server throws neither.
pub fn within_reach(swing: &Swing) -> bool {
    let r = swing.release;
    r.x.abs() <= RELEASE_REACH.0
        && r.z.abs() <= RELEASE_REACH.1
        && (RELEASE_HEIGHT.0..=RELEASE_HEIGHT.1).contains(&r.y)
        && swing.velocity.length() <= MAX_HAND_SPEED
}

/// A random swing: released over the near end of the tray, thrown towards the far end.
pub fn random_swing(rng: &mut ChaCha8Rng) -> Swing {
    let hw = tray::INNER_WIDTH / 2.0;
    Swing {
        release: Vec3::new(
            rng.random_range(-hw + 6.5..-hw + 9.0),
            rng.random_range(14.0..19.0),
            // Room for a hand of six dice across on either side, inside the walls.
            rng.random_range(-(tray::INNER_DEPTH / 2.0 - 8.0)..(tray::INNER_DEPTH / 2.0 - 8.0)),
        ),
        velocity: Vec3::new(
            rng.random_range(60.0..140.0),
            rng.random_range(-40.0..10.0),
            rng.random_range(-30.0..30.0),
        ),
    }
}

/// How far from each wall a die thrown again may leave the hand, cm.
const RETHROW_MARGIN: f32 = 2.5;
/// Lowest and highest a die thrown again leaves the hand, cm above the felt.
const RETHROW_HEIGHT: (f32, f32) = (8.0, 14.0);
/// Slowest and fastest a die thrown again is tossed along the felt, cm/s.
const RETHROW_SPEED: (f32, f32) = (20.0, 80.0);

/// The swing of one die thrown again (it came to rest cocked, left the tray or never rested):
/// picked up and tossed in again, as a player does, from over any part of the tray and in any
/// direction, gently. The first throw's swing would send it back where the handful went; with
/// a hundred dice there, a die thrown there again lands leaning on the others, again and again.
pub fn rethrow_swing(rng: &mut ChaCha8Rng) -> Swing {
    let (hw, hd) = (
        tray::INNER_WIDTH / 2.0 - RETHROW_MARGIN,
        tray::INNER_DEPTH / 2.0 - RETHROW_MARGIN,
    );
    let release = Vec3::new(
        rng.random_range(-hw..hw),
        rng.random_range(RETHROW_HEIGHT.0..RETHROW_HEIGHT.1),
        rng.random_range(-hd..hd),
    );
    let heading = rng.random_range(0.0..TAU);
    let speed = rng.random_range(RETHROW_SPEED.0..RETHROW_SPEED.1);
    Swing {
        release,
        velocity: Vec3::new(heading.cos() * speed, -10.0, heading.sin() * speed),
    }
}

/// Height of the hand above the felt when a gesture throws, cm.
pub const HAND_HEIGHT: f32 = 16.0;
/// Slowest and fastest flick of a gesture along the felt, cm/s (a still hand still tosses the
/// dice at the slowest).
pub const FLICK_SPEED: (f32, f32) = (45.0, 170.0);
/// How fast the hand drops as it opens in a gesture, cm/s.
pub const FLICK_DROP: f32 = 15.0;

/// The swing of a gesture: the hand opens at `at` (pulled in within [`RELEASE_REACH`], at
/// [`HAND_HEIGHT`]) moving along the felt in `direction` (its height ignored; none: along +x) at
/// `speed` cm/s, kept within [`FLICK_SPEED`], dropping slightly.
pub fn gesture_swing(at: Vec3, direction: Vec3, speed: f32) -> Swing {
    let (hw, hd) = RELEASE_REACH;
    let along = Vec3::new(direction.x, 0.0, direction.z)
        .try_normalize()
        .unwrap_or(Vec3::X);
    Swing {
        release: Vec3::new(at.x.clamp(-hw, hw), HAND_HEIGHT, at.z.clamp(-hd, hd)),
        velocity: along * speed.clamp(FLICK_SPEED.0, FLICK_SPEED.1) - Vec3::Y * FLICK_DROP,
    }
}

/// The hand the fairness lab throws with: the table's random swing, or one of the two
/// extremes a gesture can make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Hand {
    /// The swing drawn from each throw's seed, as `roll` and the table server throw.
    #[default]
    Random,
    /// The softest release of a gesture: a still hand, at the slowest flick.
    Softest,
    /// The hardest flick of a gesture, at the fastest speed.
    Hardest,
}

impl Hand {
    /// Its name on the command line and in the lab's JSON.
    pub fn name(self) -> &'static str {
        match self {
            Hand::Random => "random",
            Hand::Softest => "softest",
            Hand::Hardest => "hardest",
        }
    }

    /// The swing of one throw with this hand (None: the seed's own random swing). An extreme
    /// hand opens anywhere within reach and throws in any direction along the felt, at its
    /// speed, all drawn from `rng`.
    pub fn swing(self, rng: &mut ChaCha8Rng) -> Option<Swing> {
        let speed = match self {
            Hand::Random => return None,
            Hand::Softest => FLICK_SPEED.0,
            Hand::Hardest => FLICK_SPEED.1,
        };
        let (hw, hd) = RELEASE_REACH;
        let at = Vec3::new(
            rng.random_range(-hw..=hw),
            HAND_HEIGHT,
            rng.random_range(-hd..=hd),
        );
        let heading = rng.random_range(0.0..TAU);
        Some(gesture_swing(
            at,
            Vec3::new(heading.cos(), 0.0, heading.sin()),
            speed,
        ))
    }
}

/// Spacing of dice in the hand, cm.
const HAND_SPACING: f32 = 2.6;

/// Where die `index` of `count` sits in the hand relative to the release point: a block up to
/// six across and five deep per layer, so even a hundred dice start inside the tray.
pub fn hand_offset(index: usize, count: usize) -> Vec3 {
    let across = count.clamp(1, 6);
    let deep = count.div_ceil(across).clamp(1, 5);
    let per_layer = across * deep;
    let (layer, rest) = (index / per_layer, index % per_layer);
    let (row, col) = (rest / across, rest % across);
    let centre = |n: usize, i: usize| (i as f32 - (n as f32 - 1.0) / 2.0) * HAND_SPACING;
    Vec3::new(
        centre(deep, row),
        layer as f32 * HAND_SPACING,
        centre(across, col),
    )
}

/// A swing with its release point lowered, if need be, so a hand of `count` dice starts below
/// the lid.
pub fn fit_under_lid(mut swing: Swing, count: usize) -> Swing {
    let top = hand_offset(count.saturating_sub(1), count).y;
    swing.release.y = swing.release.y.min(tray::LID_HEIGHT - 2.0 - top);
    swing
}

/// The parameters of die `index` of `count` in a swing: the hand's velocity with some scatter,
/// a uniformly random orientation, and a spin chosen so that the die's turn in the air, up to
/// the moment it first touches the tray (the felt, or a wall it meets first), is itself a
/// uniformly random rotation. The face up when it lands is then independent of the face up when
/// it left the hand. (Regular dice spin about a fixed axis in flight; a plain random spin keeps
/// the start face on the belt of faces around that axis, and a die spun like a top keeps its
/// bottom face down.) How fast it spins is drawn apart from that turn: the die turns by the
/// random rotation plus the whole turns that bring its spin nearest a rate of the hand's own
/// (up to [`HAND_SPIN_MAX`]; [`whole_turns_for`]), so the spin it lands with, which carries on
/// rolling it after it lands, says next to nothing about the face it started on. (A spin set by
/// the turn alone, or by the turn and a fixed one to four extra turns, left a start-face memory:
/// see docs/fairness.md.)
pub fn die_params(rng: &mut ChaCha8Rng, swing: &Swing, index: usize, count: usize) -> ThrowParams {
    let mut jitter = || {
        Vec3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        )
    };
    let scatter = jitter() * 8.0;
    let position = swing.release + hand_offset(index, count);
    let linear = swing.velocity + scatter;
    let rotation = uniform_rotation(rng);
    let (axis, angle) = uniform_rotation(rng).to_axis_angle();
    let flight = first_touch_time(position, linear);
    let hand_turn = rng.random_range(0.0..HAND_SPIN_MAX) * flight;
    let turn = angle + whole_turns_for(angle, hand_turn) * TAU;
    ThrowParams {
        position,
        rotation,
        linear,
        angular: axis * spin_for_turn(turn, flight),
    }
}

/// The fastest a hand spins a die, rad/s (about 11 turns a second: two whole turns in the
/// random hand's flight of about 0.18 s). Each die's rate is drawn evenly up to it, apart from
/// its turn; the turn it makes before it first touches the tray comes within half a turn of
/// that rate's.
pub const HAND_SPIN_MAX: f32 = 70.0;

/// How many whole turns to add to a die's random turn of `angle` radians (0 to a whole turn) so
/// that its whole turn in the air comes nearest `hand_turn`, the turn the hand gives it: a
/// whole number, never below none.
pub fn whole_turns_for(angle: f32, hand_turn: f32) -> f32 {
    ((hand_turn - angle) / TAU).round().max(0.0)
}

/// How far a die's centre is from the felt or a wall when it first touches it, roughly, cm.
const CENTRE_AT_TOUCH: f32 = 0.9;

/// Seconds until a die thrown from `position` at `linear` (cm/s) first touches the tray: the
/// felt, or a wall if it meets one in the air first (a hard flick from near a wall does).
pub fn first_touch_time(position: Vec3, linear: Vec3) -> f32 {
    let to_wall = |at: f32, speed: f32, half_width: f32| {
        let wall = half_width - CENTRE_AT_TOUCH;
        if speed > 0.0 {
            (wall - at) / speed
        } else if speed < 0.0 {
            (-wall - at) / speed
        } else {
            f32::INFINITY
        }
    };
    fall_time(position.y - CENTRE_AT_TOUCH, linear.y)
        .min(to_wall(position.x, linear.x, tray::INNER_WIDTH / 2.0))
        .min(to_wall(position.z, linear.z, tray::INNER_DEPTH / 2.0))
        .max(1e-3)
}

/// Seconds to fall `height` cm starting at vertical speed `vy` (cm/s, up positive).
pub fn fall_time(height: f32, vy: f32) -> f32 {
    let g = super::GRAVITY;
    ((vy + (vy * vy + 2.0 * g * height.max(0.0)).sqrt()) / g).max(1e-3)
}

/// The spin (rad/s) that turns a die by `angle` radians in `seconds`, despite its angular damping.
pub fn spin_for_turn(angle: f32, seconds: f32) -> f32 {
    let c = super::DIE_ANGULAR_DAMPING;
    angle * c / (1.0 - (-c * seconds).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_parameters() {
        let draw = |seed| {
            let mut rng = generator(seed);
            let swing = random_swing(&mut rng);
            (0..3)
                .map(|i| die_params(&mut rng, &swing, i, 3))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
    }

    #[test]
    fn falling_and_spinning_by_hand() {
        // From rest, 981 cm/s², 4.905 cm takes 0.1 s.
        assert!((fall_time(4.905, 0.0) - 0.1).abs() < 1e-4);
        // Thrown up at 98.1 cm/s, a fall of 0 cm takes 0.2 s (up and back).
        assert!((fall_time(0.0, 98.1) - 0.2).abs() < 1e-4);
        // The spin asked for, slowed by damping step by step, turns the die by the angle asked.
        let spin = spin_for_turn(TAU, 0.5);
        let (dt, c) = (1e-5f32, crate::physics::DIE_ANGULAR_DAMPING);
        let turned: f32 = (0..50_000)
            .map(|i| spin * (-c * i as f32 * dt).exp() * dt)
            .sum();
        assert!((turned - TAU).abs() < 1e-2, "{turned}");
    }

    #[test]
    fn a_die_turns_until_it_first_touches_the_felt_or_a_wall() {
        // Dropped: the fall to the felt.
        let dropped = first_touch_time(Vec3::new(0.0, 10.9, 0.0), Vec3::ZERO);
        assert!((dropped - fall_time(10.0, 0.0)).abs() < 1e-6);
        // Flicked at 100 cm/s towards the +x wall from 5 cm short of touching it: 0.05 s, before
        // it could reach the felt.
        let wall = tray::INNER_WIDTH / 2.0 - CENTRE_AT_TOUCH;
        let flicked = first_touch_time(Vec3::new(wall - 5.0, 16.0, 0.0), Vec3::X * 100.0);
        assert!((flicked - 0.05).abs() < 1e-5, "{flicked}");
        // And towards the -z wall likewise.
        let wall = tray::INNER_DEPTH / 2.0 - CENTRE_AT_TOUCH;
        let across = first_touch_time(Vec3::new(0.0, 16.0, 2.0 - wall), Vec3::Z * -40.0);
        assert!((across - 0.05).abs() < 1e-5, "{across}");
    }

    #[test]
    fn the_whole_turns_bring_the_spin_nearest_the_hands() {
        // A quarter turn, a hand giving none: none added; giving two and a bit: two.
        assert_eq!(whole_turns_for(TAU / 4.0, 0.0), 0.0);
        assert_eq!(whole_turns_for(TAU / 4.0, 2.0 * TAU + 0.5), 2.0);
        // Within half a turn of the hand's.
        let mut rng = generator(9);
        for _ in 0..1000 {
            let (angle, hand) = (rng.random_range(0.0..TAU), rng.random_range(0.0..3.0 * TAU));
            let turn = angle + whole_turns_for(angle, hand) * TAU;
            assert!(turn >= angle, "{angle} {hand}");
            // (A hand giving under half a turn may be outdone by the random turn alone.)
            assert!(
                hand < TAU / 2.0 || (turn - hand).abs() <= TAU / 2.0 + 1e-4,
                "{angle} {hand}"
            );
        }
    }

    #[test]
    fn rotations_are_uniform_enough() {
        // The rotated +Y of a uniform rotation is uniform on the sphere: its y is uniform in
        // [-1, 1], so each of 4 bands holds a quarter.
        let mut rng = generator(1);
        let mut bands = [0u32; 4];
        for _ in 0..40_000 {
            let y = (uniform_rotation(&mut rng) * Vec3::Y).y;
            bands[(((y + 1.0) / 2.0 * 4.0) as usize).min(3)] += 1;
        }
        for b in bands {
            assert!((9_500..10_500).contains(&b), "{bands:?}");
        }
    }

    #[test]
    fn the_extreme_hands_throw_at_the_gestures_limits_from_within_reach() {
        let mut rng = generator(5);
        assert_eq!(Hand::Random.swing(&mut rng), None);
        for (hand, speed) in [(Hand::Softest, 45.0), (Hand::Hardest, 170.0)] {
            for _ in 0..200 {
                let s = hand.swing(&mut rng).expect("an extreme hand has a swing");
                let along = Vec3::new(s.velocity.x, 0.0, s.velocity.z).length();
                assert!((along - speed).abs() < 1e-3, "{hand:?} {s:?}");
                assert_eq!(s.velocity.y, -15.0);
                assert_eq!(s.release.y, HAND_HEIGHT);
                assert!(within_reach(&s), "{hand:?} {s:?}");
            }
        }
        // Any speed asked of a gesture is kept within the flick's range.
        let slow = gesture_swing(Vec3::ZERO, Vec3::Z, 1.0);
        assert_eq!(slow.velocity, Vec3::new(0.0, -15.0, 45.0));
    }

    #[test]
    fn hands_hold_dice_apart_and_inside_the_tray() {
        for count in [1, 2, 10, 100] {
            let mut rng = generator(3);
            let swing = fit_under_lid(random_swing(&mut rng), count);
            let ps: Vec<Vec3> = (0..count)
                .map(|i| die_params(&mut rng, &swing, i, count).position)
                .collect();
            for (i, a) in ps.iter().enumerate() {
                assert!(tray::contains(*a, -1.2), "die {i} of {count} starts at {a}");
                for b in &ps[i + 1..] {
                    assert!(a.distance(*b) >= HAND_SPACING - 1e-3);
                }
            }
        }
    }
}
