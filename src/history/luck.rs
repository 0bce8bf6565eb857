//! How lucky was I tonight: each roll's percentile within its own exact distribution, and for a
//! character's session the average percentile and the probability that rolls like theirs come
//! out at least this lucky.
//!
//! A roll's percentile is its mid-rank: 100 × (P(below) + P(exactly this) / 2). Over the
//! outcomes a roll can have, the mid-rank averages exactly 50, for a d20 as for 3d6 or a d4
//! pool, so percentiles of different rolls can be averaged and compared. A session's luck is the
//! sum of its rolls' percentiles; its distribution, given the rolls made, is the convolution of
//! each roll's distribution of percentiles, and the probability of a session at least this lucky
//! is that distribution's upper tail at the observed sum. Both are computed over every outcome,
//! not sampled. A roll with more than [`MAX_OUTCOMES`] outcomes (100d100 has 9,901) has them
//! gathered into that many bins of neighbouring percentiles, and a session whose sums take more
//! than [`SUM_BINS`] values has them kept on a grid of that many bins spanning every sum its
//! rolls can make, so that a long session costs no more per roll than a short one; a bin that
//! has to hold two different sums, like a roll's bins, marks the result `exact: false`.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use serde::{Deserialize, Serialize};

use crate::odds::Total;
use crate::odds::dist::Dist;

/// Whose rolls a luck tally is of when no character is named: the window's own free rolls.
pub const FREE_ROLLS: &str = "free rolls";

/// Most outcomes a roll's percentile distribution keeps one by one.
pub const MAX_OUTCOMES: usize = 512;

/// Most distinct sums a session's distribution keeps one by one, and the bins of the grid it is
/// kept on past that (they span 0 to 100 × rolls).
pub const SUM_BINS: usize = 8_192;

/// Sums closer than this (in percentile points) are the same sum: equal fractions added in
/// another order differ by rounding only.
const SAME_SUM: f64 = 1e-6;

/// One roll's luck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RollLuck {
    /// The mid-rank percentile of what was rolled (0 to 100; 50 on average).
    pub percentile: f64,
    /// Whether `outcomes` lists every outcome one by one (false: gathered into bins).
    pub exact: bool,
    /// The percentile of each outcome the roll could have had, with its probability.
    pub outcomes: Vec<(f64, f64)>,
}

/// A session's luck (one character's rolls, or everyone's).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SessionLuck {
    /// Rolls with a percentile.
    pub rolls: usize,
    /// Their average percentile (50: as luck goes on average).
    pub average: f64,
    /// The probability that the same rolls come out at least this lucky (average ≥ this one).
    pub p_at_least: f64,
    /// Whether every outcome was kept one by one (no bins).
    pub exact: bool,
}

/// `num / den` as the nearest f64, for any size of either.
fn ratio(num: &BigUint, den: &BigUint) -> f64 {
    let shift = den.bits().saturating_sub(62);
    let n = (num >> shift).to_f64().unwrap_or(f64::MAX);
    let d = (den >> shift).to_f64().unwrap_or(f64::MAX);
    if d == 0.0 { 0.0 } else { n / d }
}

/// The luck of rolling `value` on `dist`: its mid-rank percentile and the distribution of
/// percentiles (None: the distribution is empty). Mass cut off by truncating open-ended dice
/// lies above every listed value.
pub fn roll_luck(dist: &Dist, value: impl Into<Total>) -> Option<RollLuck> {
    if dist.is_empty() || dist.denom().is_zero() {
        return None;
    }
    let value = value.into();
    let denom2 = dist.denom() * 2u32;
    let mut below = BigUint::zero();
    let mut outcomes = Vec::new();
    let mut percentile = None;
    for (point, w) in dist.iter() {
        let v = dist.value_of(point);
        let mid = &below * 2u32 + w;
        let u = 100.0 * ratio(&mid, &denom2);
        outcomes.push((u, ratio(w, dist.denom())));
        if v == value {
            percentile = Some(u);
        }
        if v > value && percentile.is_none() {
            // A value the distribution does not list: everything listed below it is below.
            percentile = Some(100.0 * ratio(&(&below * 2u32), &denom2));
        }
        below += w;
    }
    let truncated = dist.denom() - &below;
    if !truncated.is_zero() {
        let mid = &below * 2u32 + &truncated;
        outcomes.push((
            100.0 * ratio(&mid, &denom2),
            ratio(&truncated, dist.denom()),
        ));
    }
    let percentile = percentile.unwrap_or_else(|| {
        // Above every listed value: within the truncated mass, or the top.
        outcomes.last().map(|o| o.0).unwrap_or(100.0)
    });
    let exact = outcomes.len() <= MAX_OUTCOMES;
    if !exact {
        outcomes = gather(&outcomes, MAX_OUTCOMES, 100.0);
    }
    Some(RollLuck {
        percentile,
        exact,
        outcomes,
    })
}

/// Gathers `(value, p)` pairs spread over `0..=top` into `bins` bins of equal width, each at the
/// probability-weighted mean of what fell in it.
fn gather(pairs: &[(f64, f64)], bins: usize, top: f64) -> Vec<(f64, f64)> {
    let mut sums = vec![(0.0f64, 0.0f64); bins];
    for &(u, p) in pairs {
        let i = ((u / top) * bins as f64)
            .floor()
            .clamp(0.0, (bins - 1) as f64) as usize;
        sums[i].0 += u * p;
        sums[i].1 += p;
    }
    sums.into_iter()
        .filter(|(_, p)| *p > 0.0)
        .map(|(up, p)| (up / p, p))
        .collect()
}

/// Sums of percentiles that fell in one bin of a session's grid.
#[derive(Clone, Copy, Debug, Default)]
struct SumBin {
    /// Their probability.
    p: f64,
    /// Probability × sum, added up.
    weighted: f64,
    /// The lowest and highest sum in the bin (equal: the bin holds one sum, exactly).
    lo: f64,
    hi: f64,
}

impl SumBin {
    fn at(v: f64, p: f64) -> SumBin {
        SumBin {
            p,
            weighted: v * p,
            lo: v,
            hi: v,
        }
    }

    fn add(&mut self, v: f64, p: f64) {
        if self.p == 0.0 {
            *self = SumBin::at(v, p);
            return;
        }
        self.p += p;
        self.weighted += v * p;
        self.lo = self.lo.min(v);
        self.hi = self.hi.max(v);
    }

    /// The probability-weighted mean of its sums.
    fn mean(&self) -> f64 {
        self.weighted / self.p
    }
}

/// The luck of a series of rolls: their average percentile and the probability that the same
/// rolls come out with an average at least as high (None: no roll has a percentile).
///
/// The distribution of the sum is kept sum by sum while it has at most [`SUM_BINS`] of them
/// (exact); past that, on a grid of [`SUM_BINS`] bins spanning every sum the rolls can make,
/// each bin at the probability-weighted mean of the sums in it, so that a roll costs at most
/// bins × its outcomes however long the session. An edge of the grid lies at the observed sum,
/// so no bin straddles it; a grid whose bins each hold one sum is still exact.
pub fn session_luck(rolls: &[&RollLuck]) -> Option<SessionLuck> {
    if rolls.is_empty() {
        return None;
    }
    let observed: f64 = rolls.iter().map(|r| r.percentile).sum();
    // The grid's edges are laid so that one falls just under the observed sum: a bin is then
    // wholly at least as lucky, or wholly less.
    let width = 100.0 * rolls.len() as f64 / SUM_BINS as f64;
    let shift = (observed - SAME_SUM / 2.0).rem_euclid(width) - width;
    let bin_of = |v: f64| (((v - shift) / width).floor().max(0.0) as usize).min(SUM_BINS);
    // The sums one by one, keyed in millionths of a point, until there are too many.
    let key = |x: f64| (x / SAME_SUM).round() as i64;
    let mut one_by_one: Option<HashMap<i64, f64>> = Some(HashMap::from([(0, 1.0)]));
    let mut grid = vec![SumBin::default(); SUM_BINS + 1];
    let mut next = vec![SumBin::default(); SUM_BINS + 1];
    for roll in rolls {
        if let Some(sums) = &one_by_one {
            let mut added: HashMap<i64, f64> = HashMap::with_capacity(sums.len() * 2);
            for (&k, &p) in sums {
                for &(u, q) in &roll.outcomes {
                    *added.entry(k + key(u)).or_default() += p * q;
                }
            }
            if added.len() > SUM_BINS {
                for (k, p) in added {
                    let v = k as f64 * SAME_SUM;
                    grid[bin_of(v)].add(v, p);
                }
                one_by_one = None;
            } else {
                one_by_one = Some(added);
            }
            continue;
        }
        for bin in grid.iter().filter(|b| b.p > 0.0) {
            let x = bin.mean();
            for &(u, q) in &roll.outcomes {
                next[bin_of(x + u)].add(x + u, bin.p * q);
            }
        }
        std::mem::swap(&mut grid, &mut next);
        next.fill(SumBin::default());
    }
    let rolls_exact = rolls.iter().all(|r| r.exact);
    let (exact, p_at_least) = match one_by_one {
        Some(sums) => {
            let at = key(observed);
            let tail = sums
                .iter()
                .filter(|(k, _)| **k >= at - 1)
                .map(|(_, p)| p)
                .sum();
            (rolls_exact, tail)
        }
        None => {
            let tail: f64 = grid[bin_of(observed)..].iter().map(|b| b.p).sum();
            (
                rolls_exact && grid.iter().all(|b| b.hi - b.lo <= SAME_SUM),
                tail,
            )
        }
    };
    Some(SessionLuck {
        rolls: rolls.len(),
        average: observed / rolls.len() as f64,
        p_at_least: p_at_least.min(1.0),
        exact,
    })
}

/// Each roller's luck over a series of rolls, in order of their first roll: `(who, replay,
/// luck)` per roll, `who` None for the window's own free rolls ([`FREE_ROLLS`]). Replays and
/// rolls without a luck count for no one (a roller with none has `None`).
pub fn by_roller<'a>(
    rolls: impl IntoIterator<Item = (Option<&'a str>, bool, Option<&'a RollLuck>)>,
) -> Vec<(String, Option<SessionLuck>)> {
    let mut rollers: Vec<(&str, Vec<&RollLuck>)> = Vec::new();
    for (who, replay, luck) in rolls {
        let who = who.unwrap_or(FREE_ROLLS);
        let at = match rollers.iter().position(|(n, _)| *n == who) {
            Some(at) => at,
            None => {
                rollers.push((who, Vec::new()));
                rollers.len() - 1
            }
        };
        if let Some(luck) = luck.filter(|_| !replay) {
            rollers[at].1.push(luck);
        }
    }
    rollers
        .into_iter()
        .map(|(who, lucks)| (who.to_string(), session_luck(&lucks)))
        .collect()
}

/// A luck in a few words: "average 63 over 4 rolls; at least this lucky: 21%".
pub fn words(luck: &SessionLuck) -> String {
    format!(
        "luck {:.0} over {} roll{}; a session at least this lucky: {}{}",
        luck.average,
        luck.rolls,
        if luck.rolls == 1 { "" } else { "s" },
        if luck.exact { "" } else { "≈" },
        percent(luck.p_at_least)
    )
}

/// A probability as a percentage with the digits that matter.
pub fn percent(p: f64) -> String {
    let pc = p * 100.0;
    if pc >= 10.0 {
        format!("{pc:.0}%")
    } else if pc >= 1.0 {
        format!("{pc:.1}%")
    } else {
        format!("{pc:.2}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odds::notation::Notation;

    fn dist(notation: &str) -> Dist {
        Notation::parse(notation)
            .expect("parses")
            .distribution()
            .expect("odds")
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn a_die_s_percentiles_are_mid_ranks_averaging_fifty() {
        let d20 = dist("1d20");
        let one = roll_luck(&d20, 1).expect("luck");
        assert!(close(one.percentile, 2.5), "{}", one.percentile);
        assert!(close(roll_luck(&d20, 20).expect("luck").percentile, 97.5));
        assert!(close(roll_luck(&d20, 11).expect("luck").percentile, 52.5));
        assert_eq!(one.outcomes.len(), 20);
        assert!(one.exact);
        for notation in ["1d20", "3d6", "2d6+3", "4d6kh3", "1d6!", "1d100"] {
            let luck = roll_luck(&dist(notation), 0).expect("luck");
            let mean: f64 = luck.outcomes.iter().map(|(u, p)| u * p).sum();
            let mass: f64 = luck.outcomes.iter().map(|(_, p)| p).sum();
            assert!((mean - 50.0).abs() < 1e-9, "{notation}: mean {mean}");
            assert!((mass - 1.0).abs() < 1e-12, "{notation}: mass {mass}");
        }
        // 3d6 = 10: P(below) = 81/216, P(10) = 27/216: (81 + 13.5) / 216 = 43.75 %.
        assert!(close(
            roll_luck(&dist("3d6"), 10).expect("luck").percentile,
            43.75
        ));
    }

    #[test]
    fn a_roll_with_many_outcomes_is_gathered_into_bins() {
        let luck = roll_luck(&dist("100d100"), 5050).expect("luck");
        assert!(!luck.exact);
        assert!(luck.outcomes.len() <= MAX_OUTCOMES);
        assert!((luck.percentile - 50.0).abs() < 0.5, "{}", luck.percentile);
        let mean: f64 = luck.outcomes.iter().map(|(u, p)| u * p).sum();
        assert!((mean - 50.0).abs() < 1e-9, "{mean}");
    }

    #[test]
    fn a_long_session_s_tail_is_still_exact_where_its_sums_stay_apart() {
        // A hundred d20s showing 10 and 11 in turn: the average is 50. Their percentiles step
        // by 5, wider than the grid's bins, so no bin holds two sums and the tail is exact:
        // P(faces add up to at least 1,050), worked out here over the faces.
        let d20 = dist("1d20");
        let (ten, eleven) = (
            roll_luck(&d20, 10).expect("luck"),
            roll_luck(&d20, 11).expect("luck"),
        );
        let rolls: Vec<&RollLuck> = (0..100)
            .map(|i| if i % 2 == 0 { &ten } else { &eleven })
            .collect();
        let s = session_luck(&rolls).expect("session");
        let mut faces = vec![1.0f64];
        for _ in 0..100 {
            let mut next = vec![0.0; faces.len() + 19];
            for (sum, p) in faces.iter().enumerate() {
                for face in 0..20 {
                    next[sum + face] += p / 20.0;
                }
            }
            faces = next;
        }
        // Index 0 is a sum of 100 (every die a 1).
        let tail: f64 = faces[1_050 - 100..].iter().sum();
        assert!(s.exact);
        assert!(
            (s.p_at_least - tail).abs() < 1e-9,
            "{} {tail}",
            s.p_at_least
        );
        assert!((s.average - 50.0).abs() < 1e-9);
    }

    #[test]
    fn a_short_session_of_mixed_dice_stays_exact() {
        // A d6 showing 4 and 3d6 showing 10: 6 × 16 sums, each kept; at least as lucky as
        // 58.33 + 43.75 is counted over the faces here.
        let d6 = roll_luck(&dist("1d6"), 4).expect("luck");
        let three = roll_luck(&dist("3d6"), 10).expect("luck");
        let s = session_luck(&[&d6, &three]).expect("session");
        assert!(s.exact);
        let mut tail = 0.0;
        for (u, p) in &d6.outcomes {
            for (w, q) in &three.outcomes {
                if u + w >= d6.percentile + three.percentile - 1e-9 {
                    tail += p * q;
                }
            }
        }
        assert!(close(s.p_at_least, tail), "{} {tail}", s.p_at_least);
    }

    #[test]
    fn a_session_of_mixed_dice_is_gathered_and_marked() {
        // Percentiles of a d6, a d20, 3d6 and a d100 fall between each other: sixty such rolls
        // make more sums than the grid has bins. The tail is then near, and marked "≈".
        let rolls: Vec<RollLuck> = (0..60)
            .map(|i| {
                let (notation, face) =
                    [("1d6", 4), ("1d20", 11), ("3d6", 10), ("1d100", 51)][i % 4];
                roll_luck(&dist(notation), face).expect("luck")
            })
            .collect();
        let s = session_luck(&rolls.iter().collect::<Vec<_>>()).expect("session");
        assert!(!s.exact);
        // Each roll sits near its middle: the session is about as lucky as half of them.
        assert!((0.3..0.7).contains(&s.p_at_least), "{}", s.p_at_least);
    }

    #[test]
    fn a_session_s_tail_is_exact() {
        let d20 = dist("1d20");
        // One d20 showing 20: a session at least this lucky is a 20: 1/20.
        let top = roll_luck(&d20, 20).expect("luck");
        let s = session_luck(&[&top]).expect("session");
        assert!(close(s.p_at_least, 0.05), "{}", s.p_at_least);
        assert!(close(s.average, 97.5));
        assert!(s.exact);
        // Two d20 showing 20 and 1: a sum of faces at least 21 (mid-ranks add like faces):
        // 210/400.
        let bottom = roll_luck(&d20, 1).expect("luck");
        let s = session_luck(&[&top, &bottom]).expect("session");
        assert!(close(s.p_at_least, 210.0 / 400.0), "{}", s.p_at_least);
        assert!(close(s.average, 50.0));
        // A d6 showing 6 and a d20 showing 19: percentiles 91.667 and 92.5; the sums at least
        // 184.1667 are (6, 19) and (6, 20) ((5, 20) makes 172.5): 2/120.
        let d6 = roll_luck(&dist("1d6"), 6).expect("luck");
        let nineteen = roll_luck(&d20, 19).expect("luck");
        let s = session_luck(&[&d6, &nineteen]).expect("session");
        assert!(close(s.p_at_least, 2.0 / 120.0), "{}", s.p_at_least);
        // Always at least as lucky as the unluckiest possible session.
        let ones: Vec<RollLuck> = (0..10).map(|_| bottom.clone()).collect();
        let s = session_luck(&ones.iter().collect::<Vec<_>>()).expect("session");
        assert!(close(s.p_at_least, 1.0), "{}", s.p_at_least);
        assert_eq!(session_luck(&[]), None);
    }

    #[test]
    fn each_roller_is_tallied_in_order_of_first_roll_without_replays() {
        let d20 = dist("1d20");
        let top = roll_luck(&d20, 20).expect("luck");
        let bottom = roll_luck(&d20, 1).expect("luck");
        let rollers = by_roller([
            (Some("Ash"), false, Some(&top)),
            (None, false, Some(&bottom)),
            (Some("Ash"), true, Some(&bottom)),
            (Some("Bea"), true, Some(&top)),
            (Some("Ash"), false, None),
        ]);
        let names: Vec<&str> = rollers.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Ash", FREE_ROLLS, "Bea"]);
        let ash = rollers[0].1.as_ref().expect("Ash's luck");
        assert_eq!((ash.rolls, ash.average), (1, 97.5));
        assert_eq!(rollers[1].1.as_ref().map(|l| l.average), Some(2.5));
        assert_eq!(rollers[2].1, None, "Bea only replayed");
    }
}
