//! A quick estimate of a notation's distribution, shown (marked ≈) while the exact fractions
//! are worked out, so that nobody waits for a number: the notation's dice rolled on paper (not
//! on the felt: these are odds, not a roll) as many times as a time budget allows, every throw
//! followed by the same [`super::NotationDie::needs_another`] and read by the same reader as a real
//! roll.
//!
//! The error is bounded and stated: by the Dvoretzky–Kiefer–Wolfowitz inequality, with `n`
//! rolls every cumulative chance (of `n` or less, hence of `n` or more, and of any check) is
//! within `sqrt(ln(2 / α) / 2n)` of the exact one, with confidence `1 − α` ([`CONFIDENCE`]).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Notation;
use crate::odds::{Points, Total};

/// How sure the stated error is.
pub const CONFIDENCE: f64 = 0.999;
/// Most rolls an estimate takes, however long it may run.
pub const MOST_SAMPLES: u32 = 400_000;
/// Most faces a die is given before a sampled roll is set aside (rerolls and explosions).
const LONGEST_CHAIN: usize = 64;

/// An estimated distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Each result seen (as a point, read by `points` as [`crate::odds::Dist`] reads its
    /// own), with the share of rolls that gave it.
    pub chances: Vec<(i64, f64)>,
    /// How the points read as values: themselves, unless a division leaves fractions.
    pub points: Points,
    /// The rolls taken.
    pub samples: u32,
    /// Every cumulative chance is within this of the exact one, with [`CONFIDENCE`].
    pub error: f64,
    /// The mean of the rolls taken.
    pub mean: f64,
}

impl Estimate {
    /// The value a point stands for.
    pub fn value_of(&self, point: i64) -> Total {
        self.points.value_of(point)
    }

    /// The estimated chance of results meeting `pred`.
    pub fn p_where(&self, pred: impl Fn(i64) -> bool) -> f64 {
        self.chances
            .iter()
            .filter(|(v, _)| pred(*v))
            .map(|(_, p)| p)
            .sum()
    }
}

/// Rolls `notation` on paper for about `budget` (at least a few rolls): the estimate, or None
/// when no roll could be read (faces that never stop within the cap).
pub fn estimate(notation: &Notation, budget: Duration) -> Option<Estimate> {
    sample(notation, Some(budget), MOST_SAMPLES)
}

/// Rolls `notation` on paper `rolls` times, or fewer when `budget` runs out first.
pub fn sample(notation: &Notation, budget: Option<Duration>, rolls: u32) -> Option<Estimate> {
    let started = Instant::now();
    let dice = notation.dice();
    let mut rng = ChaCha8Rng::seed_from_u64(0x0dd5);
    let mut counts: BTreeMap<Total, u32> = BTreeMap::new();
    let mut samples = 0u32;
    let mut chains: Vec<Vec<u32>> = vec![Vec::new(); dice.len()];
    while samples < rolls {
        if samples.is_multiple_of(32)
            && samples >= 32
            && budget.is_some_and(|b| started.elapsed() >= b)
        {
            break;
        }
        let mut whole = true;
        for (chain, die) in chains.iter_mut().zip(&dice) {
            chain.clear();
            loop {
                chain.push(rng.random_range(1..=die.physical_sides()));
                if !die.needs_another(chain) {
                    break;
                }
                if chain.len() >= LONGEST_CHAIN {
                    whole = false;
                    break;
                }
            }
        }
        samples += 1;
        if !whole {
            continue;
        }
        if let Ok(result) = notation.evaluate(&chains) {
            *counts.entry(result.total).or_default() += 1;
        }
    }
    let read: u32 = counts.values().sum();
    if read == 0 {
        return None;
    }
    let n = f64::from(read);
    let points = Points::of(counts.keys().copied());
    let mut chances: Vec<(i64, f64)> = Vec::with_capacity(counts.len());
    let mut mean = 0.0;
    for (v, c) in counts {
        let share = f64::from(c) / n;
        chances.push((points.point_of(v)?, share));
        mean += v.to_f64() * share;
    }
    Some(Estimate {
        chances,
        points,
        samples: read,
        error: ((2.0 / (1.0 - CONFIDENCE)).ln() / (2.0 * n)).sqrt(),
        mean,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_estimate_is_within_its_stated_error_of_the_exact_odds() {
        for text in ["3d6", "8d10>7f1", "{1d20+5}>15", "4d6!kh3", "4dF+2"] {
            let n = Notation::parse(text).expect("parses");
            let exact = n.distribution().expect("odds");
            // A fixed count (a budget's count depends on the machine): the same rolls each run.
            let e = sample(&n, None, 4_000).expect("an estimate");
            assert_eq!(e.samples, 4_000, "{text}");
            // Every cumulative chance.
            let mut cumulative_estimate = 0.0;
            for v in exact.min_value()..=exact.max_value() {
                cumulative_estimate += e.p_where(|x| x == v);
                let cumulative_exact = exact.p_where(|x| x <= v).to_f64();
                assert!(
                    (cumulative_estimate - cumulative_exact).abs() <= e.error,
                    "{text}: P(≤{v}) ≈ {cumulative_estimate} against {cumulative_exact} (±{})",
                    e.error
                );
            }
        }
    }

    #[test]
    fn an_estimate_keeps_to_its_budget() {
        // Far more rolls than 1 ms allows: the budget stops it, after a first batch.
        let n = Notation::parse("100d100!kh50").expect("parses");
        let e = estimate(&n, Duration::from_millis(1)).expect("an estimate");
        assert!((32..MOST_SAMPLES).contains(&e.samples), "{}", e.samples);
    }
}
