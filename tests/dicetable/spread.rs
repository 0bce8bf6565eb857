//! Where thrown dice come to rest: the seed's own swing against the room page's toss across
//! the tray (`tossSwing` in `web/gesture.js`). A measurement for docs/online.md, not a check:
//! `cargo test --release --test dicetable spread -- --ignored --nocapture`.

use dicetable::dice::DieKind;
use dicetable::physics::headless::Simulator;
use dicetable::physics::throw::{FLICK_DROP, HAND_HEIGHT, RELEASE_REACH, Swing};
use dicetable::physics::tray::{INNER_DEPTH, INNER_WIDTH};
use dicetable::physics::{SettleRules, ThrowRequest};
use glam::Vec3;

/// The page's toss for two numbers in [0, 1), as `tossSwing` makes it.
fn toss(along: f32, turn: f32, speed: f32) -> Swing {
    let z = (along - 0.5) * RELEASE_REACH.1;
    let heading = (turn - 0.5) - z / RELEASE_REACH.1 / 2.0;
    Swing {
        release: Vec3::new(-RELEASE_REACH.0, HAND_HEIGHT, z),
        velocity: Vec3::new(speed * heading.cos(), -FLICK_DROP, speed * heading.sin()),
    }
}

/// Throws 8d10, 20d6 and 7d4 with 12 seeds each and prints where the dice rest.
fn measure(label: &str, swing: impl Fn(u64) -> Option<Swing>) {
    let (mut at_wall, mut all, mut sum_x, mut spread) = (0, 0, 0.0, 0.0);
    let pools = [(DieKind::D10, 8), (DieKind::D6, 20), (DieKind::D4, 7)];
    for seed in 0..12u64 {
        for (kind, count) in pools {
            let request = ThrowRequest {
                seed: seed * 7919 + 3,
                tag: 0,
                dice: vec![kind; count],
                swing: swing(seed),
            };
            let rolled = Simulator::new(SettleRules::default())
                .roll(&request)
                .expect("a throw");
            let xs: Vec<f32> = rolled.dice.iter().map(|d| d.translation[0]).collect();
            for d in &rolled.dice {
                let [x, _, z] = d.translation;
                all += 1;
                sum_x += x;
                if x.abs() > INNER_WIDTH / 2.0 - 4.0 || z.abs() > INNER_DEPTH / 2.0 - 3.0 {
                    at_wall += 1;
                }
            }
            let (lo, hi) = xs
                .iter()
                .fold((f32::MAX, f32::MIN), |(lo, hi), x| (lo.min(*x), hi.max(*x)));
            spread += hi - lo;
        }
    }
    let throws = 12.0 * pools.len() as f32;
    println!(
        "{label}: mean x {:+.1} cm, at a wall {at_wall} of {all}, mean spread {:.1} cm",
        sum_x / all as f32,
        spread / throws
    );
}

#[test]
#[ignore = "a measurement: run it with --ignored --nocapture"]
fn where_dice_rest_after_the_seed_swing_and_the_pages_toss() {
    // A measurement of physics, not of time: it may run beside the real-time tests.
    let _lane = crate::beside_real_time();
    measure("the seed's own swing", |_| None);
    for speed in [45.0, 55.0] {
        measure(&format!("the page's toss at {speed} cm/s"), |seed| {
            // Spread over the toss's range of places and headings, seed by seed.
            let along = (seed as f32 * 0.618_034).fract();
            let turn = (seed as f32 * 0.414_214 + 0.5).fract();
            Some(toss(along, turn, speed))
        });
    }
}
