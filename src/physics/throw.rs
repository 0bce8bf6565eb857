//! Throw parameters drawn from a seeded ChaCha generator: where each die starts, how it is
//! turned (a uniformly random rotation) and how fast it flies and spins.

use bevy::prelude::*;
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
    let tau = std::f32::consts::TAU;
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    Quat::from_xyzw(
        a * (tau * u2).sin(),
        a * (tau * u2).cos(),
        b * (tau * u3).sin(),
        b * (tau * u3).cos(),
    )
    .normalize()
}

/// A random swing: released over the near end of the tray, thrown towards the far end.
pub fn random_swing(rng: &mut ChaCha8Rng) -> Swing {
    let hw = tray::INNER_WIDTH / 2.0;
    Swing {
        release: Vec3::new(
            rng.random_range(-hw + 7.0..-hw + 10.0),
            rng.random_range(9.0..13.0),
            rng.random_range(-5.0..5.0),
        ),
        velocity: Vec3::new(
            rng.random_range(60.0..140.0),
            rng.random_range(-40.0..10.0),
            rng.random_range(-35.0..35.0),
        ),
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

/// The parameters of die `index` of `count` in a swing: the hand's velocity with some scatter,
/// a random orientation and a random spin.
pub fn die_params(rng: &mut ChaCha8Rng, swing: &Swing, index: usize, count: usize) -> ThrowParams {
    let mut jitter = || {
        Vec3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        )
    };
    let scatter = jitter() * 8.0;
    let spin = jitter() * 35.0;
    ThrowParams {
        position: swing.release + hand_offset(index, count),
        rotation: uniform_rotation(rng),
        linear: swing.velocity + scatter,
        angular: spin,
    }
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
    fn hands_hold_dice_apart_and_inside_the_tray() {
        for count in [1, 2, 10, 100] {
            let mut rng = generator(3);
            let swing = random_swing(&mut rng);
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
