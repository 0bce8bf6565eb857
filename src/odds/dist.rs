//! Exact discrete distributions: integer weights over one common denominator.
//!
//! Every probability dicetable shows before a throw comes from here, so nothing is floating
//! point until the very last step (`Prob::to_f64`). Open-ended dice are truncated at a depth
//! where the mass cut off is below 1e-14 per die; that mass is never hidden: `Dist::truncated`
//! reports it exactly.

use std::fmt;
use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::Total;
use super::reduce::Reducer;
use super::stop::{Never, Stop};

/// Mass an open-ended die may lose to truncation; many dice together stay below 1e-12.
const OPEN_ENDED_TRUNCATION: f64 = 1e-14;

/// An exact probability, always reduced (`287/512`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Prob(BigRational);

impl Prob {
    /// `num / den`, reduced. A zero denominator reads as probability zero.
    pub fn new(num: BigUint, den: BigUint) -> Self {
        if den.is_zero() {
            return Self::zero();
        }
        Prob(BigRational::new(BigInt::from(num), BigInt::from(den)))
    }

    /// `num / den` already in lowest terms (`den` not zero), with no reduction to pay for.
    fn in_lowest_terms(num: BigUint, den: BigUint) -> Self {
        Prob(BigRational::new_raw(BigInt::from(num), BigInt::from(den)))
    }

    /// Probability zero.
    pub fn zero() -> Self {
        Prob(BigRational::zero())
    }

    /// Probability one.
    pub fn one() -> Self {
        Prob(BigRational::one())
    }

    /// The nearest `f64`, also for denominators far beyond `f64`'s range.
    pub fn to_f64(&self) -> f64 {
        self.0.to_f64().unwrap_or(0.0)
    }

    /// The fraction as text: `"287/512"`, `"0"`, `"1"`.
    pub fn exact(&self) -> String {
        self.0.to_string()
    }

    /// Sum of two probabilities of disjoint events.
    pub fn plus(&self, other: &Prob) -> Prob {
        Prob(&self.0 + &other.0)
    }

    /// Product of two probabilities of independent events.
    pub fn times(&self, other: &Prob) -> Prob {
        Prob(&self.0 * &other.0)
    }

    /// The complement, `1 - p`.
    pub fn complement(&self) -> Prob {
        Prob(BigRational::one() - &self.0)
    }

    /// The numerator and denominator of the reduced fraction.
    pub fn parts(&self) -> (BigInt, BigInt) {
        (self.0.numer().clone(), self.0.denom().clone())
    }
}

impl fmt::Display for Prob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A distribution over integers: `weights[i]` is the weight of `min + i`, out of `denom`.
/// `denom - Σ weights` is the mass cut off by truncation (zero for anything closed).
///
/// The integers are the values themselves for every distribution the rules and the arithmetic
/// below make. A notation whose result can be a fraction (`3d6/2`, `1d20/1d20`) counts its
/// results by place instead: point `i` is `values[i]`, the results in ascending order, so
/// every point has a result and the weights stay dense however fine the fractions are.
/// [`Dist::value_of`] turns a point into the value a player reads; the arithmetic is for
/// whole-valued distributions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dist {
    min: i64,
    weights: Vec<BigUint>,
    denom: BigUint,
    values: Points,
}

/// How a distribution's points read as values: each point its own value, or (for results that
/// may be fractions) point `i` the `i`-th of the results in ascending order. Shared by the exact
/// odds ([`Dist`]), the estimate and the charts, so all three read a point the same way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Points(Option<Arc<[Total]>>);

impl Points {
    /// Each point its own value.
    pub const WHOLE: Points = Points(None);

    /// Points for `values` (ascending, each once): the values themselves when all are whole.
    pub fn of(values: impl IntoIterator<Item = Total>) -> Points {
        let values: Arc<[Total]> = values.into_iter().collect();
        if values.iter().all(|v| v.as_whole().is_some()) {
            Points::WHOLE
        } else {
            Points(Some(values))
        }
    }

    /// Whether every point is its own value.
    pub fn is_whole(&self) -> bool {
        self.0.is_none()
    }

    /// The value a point stands for.
    pub fn value_of(&self, point: i64) -> Total {
        match &self.0 {
            None => Total::whole(point),
            Some(values) => usize::try_from(point)
                .ok()
                .and_then(|i| values.get(i).copied())
                .unwrap_or(Total::whole(point)),
        }
    }

    /// The point a value stands at (`None`: no result is that value).
    pub fn point_of(&self, value: Total) -> Option<i64> {
        match &self.0 {
            None => value.as_whole(),
            Some(values) => values
                .binary_search(&value)
                .ok()
                .and_then(|i| i64::try_from(i).ok()),
        }
    }
}

impl Dist {
    /// Certainly `value`.
    pub fn constant(value: i64) -> Self {
        Dist {
            min: value,
            weights: vec![BigUint::one()],
            denom: BigUint::one(),
            values: Points::WHOLE,
        }
    }

    /// Every integer from `lo` to `hi` equally likely.
    pub fn uniform(lo: i64, hi: i64) -> Self {
        assert!(lo <= hi, "uniform range {lo}..={hi} is empty");
        let n = (hi - lo + 1) as usize;
        Dist {
            min: lo,
            weights: vec![BigUint::one(); n],
            denom: BigUint::from(n),
            values: Points::WHOLE,
        }
    }

    /// One fair die with faces `1..=sides`.
    pub fn die(sides: u32) -> Self {
        Self::uniform(1, i64::from(sides.max(1)))
    }

    /// Builds from `(value, weight)` pairs over `denom`; repeated values add up.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (i64, BigUint)>, denom: BigUint) -> Self {
        let pairs: Vec<(i64, BigUint)> = pairs.into_iter().filter(|(_, w)| !w.is_zero()).collect();
        let Some(lo) = pairs.iter().map(|(v, _)| *v).min() else {
            return Dist {
                min: 0,
                weights: Vec::new(),
                denom,
                values: Points::WHOLE,
            };
        };
        let hi = pairs.iter().map(|(v, _)| *v).max().unwrap_or(lo);
        let mut weights = vec![BigUint::zero(); (hi - lo + 1) as usize];
        for (v, w) in pairs {
            weights[(v - lo) as usize] += w;
        }
        Dist {
            min: lo,
            weights,
            denom,
            values: Points::WHOLE,
        }
        .trimmed()
    }

    fn trimmed(mut self) -> Self {
        while self.weights.last().is_some_and(Zero::is_zero) {
            self.weights.pop();
        }
        let lead = self.weights.iter().take_while(|w| w.is_zero()).count();
        if lead > 0 {
            self.weights.drain(..lead);
            self.min += lead as i64;
        }
        self
    }

    /// The distribution of results that may be fractions, from `(value, weight)` pairs over
    /// `denom` (repeated values add up): the values themselves when every one is whole,
    /// else each counted by its place among them.
    pub fn of_values(pairs: impl IntoIterator<Item = (Total, BigUint)>, denom: BigUint) -> Self {
        let mut summed: std::collections::BTreeMap<Total, BigUint> = Default::default();
        for (v, w) in pairs.into_iter().filter(|(_, w)| !w.is_zero()) {
            *summed.entry(v).or_default() += w;
        }
        if summed.keys().all(|v| v.as_whole().is_some()) {
            let whole = summed
                .into_iter()
                .filter_map(|(v, w)| Some((v.as_whole()?, w)));
            return Dist::from_pairs(whole, denom);
        }
        Dist {
            min: 0,
            values: Points::of(summed.keys().copied()),
            weights: summed.into_values().collect(),
            denom,
        }
    }

    /// How the points read as values.
    pub fn points(&self) -> &Points {
        &self.values
    }

    /// Whether every point is its own value (no result is a fraction).
    pub fn is_whole(&self) -> bool {
        self.values.is_whole()
    }

    /// The value a point stands for (the point itself unless results are fractions).
    pub fn value_of(&self, point: i64) -> Total {
        self.values.value_of(point)
    }

    /// The point a value stands at (`None`: no result is that value).
    pub fn point_of(&self, value: Total) -> Option<i64> {
        self.values.point_of(value)
    }

    /// The common denominator of all weights.
    pub fn denom(&self) -> &BigUint {
        &self.denom
    }

    /// Smallest value with positive weight (0 for an empty distribution).
    pub fn min_value(&self) -> i64 {
        self.min
    }

    /// Largest value with positive weight.
    pub fn max_value(&self) -> i64 {
        self.min + self.weights.len() as i64 - 1
    }

    /// True when no value has weight (everything was truncated away).
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// `(value, weight)` for each value with positive weight, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (i64, &BigUint)> + '_ {
        self.weights
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_zero())
            .map(move |(i, w)| (self.min + i as i64, w))
    }

    /// The weight of one value.
    pub fn weight(&self, value: i64) -> BigUint {
        if value < self.min {
            return BigUint::zero();
        }
        self.weights
            .get((value - self.min) as usize)
            .cloned()
            .unwrap_or_default()
    }

    fn kept_weight(&self) -> BigUint {
        self.weights.iter().sum()
    }

    /// Probability of exactly `value`.
    pub fn p(&self, value: i64) -> Prob {
        Prob::new(self.weight(value), self.denom.clone())
    }

    /// Probability that the value satisfies `pred`.
    pub fn p_where(&self, pred: impl Fn(i64) -> bool) -> Prob {
        let num: BigUint = self.iter().filter(|(v, _)| pred(*v)).map(|(_, w)| w).sum();
        Prob::new(num, self.denom.clone())
    }

    /// Probability mass cut off by truncating open-ended dice (exactly zero otherwise).
    pub fn truncated(&self) -> Prob {
        Prob::new(&self.denom - self.kept_weight(), self.denom.clone())
    }

    /// The expected value (of the mass that was kept), in values, not points.
    pub fn mean(&self) -> f64 {
        if self.denom.is_zero() {
            return 0.0;
        }
        if self.is_whole() {
            // One sum of whole numbers and one division: 100d20! has 22,000 values.
            let num: BigInt = self
                .iter()
                .map(|(v, w)| BigInt::from(v) * BigInt::from(w.clone()))
                .sum();
            return BigRational::new(num, BigInt::from(self.denom.clone()))
                .to_f64()
                .unwrap_or(0.0);
        }
        let num: BigRational = self
            .iter()
            .map(|(point, w)| {
                let v = self.value_of(point);
                BigRational::new(
                    BigInt::from(v.numerator()) * BigInt::from(w.clone()),
                    BigInt::from(v.denominator()),
                )
            })
            .sum();
        (num / BigRational::from_integer(BigInt::from(self.denom.clone())))
            .to_f64()
            .unwrap_or(0.0)
    }

    /// The distribution of `self + other` for independent outcomes.
    pub fn add(&self, other: &Dist) -> Dist {
        if self.is_empty() || other.is_empty() {
            return Dist {
                min: 0,
                weights: Vec::new(),
                denom: &self.denom * &other.denom,
                values: Points::WHOLE,
            };
        }
        let weights = super::poly::multiply(&self.weights, &other.weights);
        self.sum_of(other, weights)
    }

    /// [`Dist::add`], asking `stop` between the blocks of a large product and refusing one too
    /// large to work out (see [`super::poly::multiply_until`]).
    pub fn add_until<S: Stop>(
        &self,
        other: &Dist,
        stop: &S,
    ) -> Result<Dist, super::poly::Unworked<S::Stopped>> {
        if self.is_empty() || other.is_empty() {
            return Ok(self.add(other));
        }
        let weights = super::poly::multiply_until(&self.weights, &other.weights, stop)?;
        Ok(self.sum_of(other, weights))
    }

    /// The distribution of `self + other` given the product of their weights.
    fn sum_of(&self, other: &Dist, weights: Vec<BigUint>) -> Dist {
        Dist {
            min: self.min + other.min,
            weights,
            denom: &self.denom * &other.denom,
            values: Points::WHOLE,
        }
        .trimmed()
    }

    /// The distribution of `self` plus (or minus, when `negative`) `n` fair dice of `sides`
    /// faces, open-ended or not: exactly `self.add(&dice)`, but multiplied by the dice's
    /// structure (window sums, see [`super::poly::times_open_ended_power`]) instead of a dense
    /// product of two large polynomials.
    pub fn plus_dice(&self, sides: u32, n: u32, open_ended: bool, negative: bool) -> Dist {
        if negative {
            return self.neg().plus_dice(sides, n, open_ended, false).neg();
        }
        let sides = sides.max(1);
        let open_ended = open_ended && sides >= 2;
        let depth = if open_ended {
            Dist::die(sides).open_ended_depth()
        } else {
            1
        };
        let denom = &self.denom * BigUint::from(sides).pow(depth * n);
        if self.is_empty() {
            return Dist {
                min: 0,
                weights: Vec::new(),
                denom,
                values: Points::WHOLE,
            };
        }
        let weights = if open_ended {
            super::poly::times_open_ended_power(self.weights.clone(), sides, depth, n)
        } else {
            super::poly::times_window_power(self.weights.clone(), sides as usize, n)
        };
        Dist {
            min: self.min + i64::from(n),
            weights,
            denom,
            values: Points::WHOLE,
        }
        .trimmed()
    }

    /// The distribution of `-self`.
    pub fn neg(&self) -> Dist {
        let mut weights = self.weights.clone();
        weights.reverse();
        Dist {
            min: -self.max_value(),
            weights,
            denom: self.denom.clone(),
            values: Points::WHOLE,
        }
    }

    /// The distribution of `self - other` for independent outcomes.
    pub fn sub(&self, other: &Dist) -> Dist {
        self.add(&other.neg())
    }

    /// The distribution of `self + c`.
    pub fn shift(&self, c: i64) -> Dist {
        Dist {
            min: self.min + c,
            ..self.clone()
        }
    }

    /// The distribution of `f(self)`.
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Dist {
        Dist::from_pairs(
            self.iter().map(|(v, w)| (f(v), w.clone())),
            self.denom.clone(),
        )
    }

    /// The sum of `n` independent copies: a window sum per copy when every value is equally
    /// likely (any fair die), binary powering of the product otherwise.
    pub fn repeat_sum(&self, n: u32) -> Dist {
        if let Some(first) = self.weights.first()
            && self.weights.iter().all(|w| w == first)
        {
            let scale = first.pow(n);
            let mut weights = super::poly::window_power(self.weights.len(), n);
            if !scale.is_one() {
                weights.iter_mut().for_each(|w| *w *= &scale);
            }
            return Dist {
                min: self.min * i64::from(n),
                weights,
                denom: self.denom.pow(n),
                values: Points::WHOLE,
            };
        }
        let mut result = Dist::constant(0);
        let mut base = self.clone();
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                result = result.add(&base);
            }
            k >>= 1;
            if k > 0 {
                base = base.add(&base);
            }
        }
        result
    }

    /// An open-ended version: whenever the highest value comes up, another copy is added, as
    /// long as it keeps coming up. Truncated where the cut-off mass drops below 1e-14.
    pub fn open_ended(&self) -> Dist {
        if self.weights.len() < 2 {
            return self.clone();
        }
        self.open_ended_to_depth(self.open_ended_depth())
    }

    /// How deep [`Dist::open_ended`] goes: the copies after which the mass cut off is below
    /// 1e-14.
    fn open_ended_depth(&self) -> u32 {
        let p_top = self.p(self.max_value()).to_f64();
        (OPEN_ENDED_TRUNCATION.ln() / p_top.ln()).ceil().max(1.0) as u32
    }

    /// The sum of `n` open-ended fair dice of `sides` faces: exactly
    /// `Dist::die(sides).open_ended().repeat_sum(n)`, computed from the die's structure (see
    /// [`super::poly::times_open_ended_power`]).
    pub fn open_ended_sum(sides: u32, n: u32) -> Dist {
        Dist::constant(0).plus_dice(sides, n, true, false)
    }

    /// Open-ended with at most `depth` copies thrown (the mass of `depth` tops in a row is cut).
    pub fn open_ended_to_depth(&self, depth: u32) -> Dist {
        let top = self.max_value();
        let w_top = self.weight(top);
        let mut inner = Dist {
            min: 0,
            weights: Vec::new(),
            denom: BigUint::one(),
            values: Points::WHOLE,
        };
        for _ in 0..depth {
            let mut pairs: Vec<(i64, BigUint)> = self
                .iter()
                .filter(|(v, _)| *v != top)
                .map(|(v, w)| (v, w * &inner.denom))
                .collect();
            pairs.extend(inner.iter().map(|(u, w)| (top + u, w * &w_top)));
            inner = Dist::from_pairs(pairs, &self.denom * &inner.denom);
        }
        inner
    }

    /// The sum of the `k` highest of `n` independent copies, without enumerating rolls: by runs
    /// of equally likely values (fair and open-ended dice, see `rules/keep.rs`), or value by
    /// value, whichever costs less.
    pub fn keep_highest(&self, n: u32, k: u32) -> Dist {
        let Ok(kept) = self.keep_highest_until(n, k, &Never);
        kept
    }

    /// [`Dist::keep_highest`], asking `stop` between steps (it may take seconds for many
    /// open-ended dice).
    pub fn keep_highest_until<S: Stop>(
        &self,
        n: u32,
        k: u32,
        stop: &S,
    ) -> Result<Dist, S::Stopped> {
        let denom = self.denom.pow(n);
        let k = k.min(n);
        if k == 0 || self.is_empty() {
            let kept = self.kept_weight().pow(n);
            return Ok(Dist::from_pairs([(0, kept)], denom));
        }
        let runs = super::keep::runs(&self.weights);
        let values = self.weights.iter().filter(|w| !w.is_zero()).count() as f64;
        let span = (self.max_value() - self.min_value()) as f64;
        let walk_cost = values * f64::from(k).powi(3) * span / 4.0;
        if super::keep::runs_cost(&runs, k) < walk_cost {
            return self.keep_highest_by_runs(&runs, n, k, stop);
        }
        self.keep_highest_by_walk(n, k, stop)
    }

    /// [`Dist::keep_highest`] by the runs of equal weights of this distribution (`runs` of
    /// its weights from its lowest value). `1 <= k <= n`.
    fn keep_highest_by_runs<S: Stop>(
        &self,
        runs: &[super::keep::Run],
        n: u32,
        k: u32,
        stop: &S,
    ) -> Result<Dist, S::Stopped> {
        Ok(Dist {
            min: i64::from(k) * self.min,
            weights: super::keep::keep_highest_runs(runs, n, k, stop)?,
            denom: self.denom.pow(n),
            values: Points::WHOLE,
        }
        .trimmed())
    }

    /// [`Dist::keep_highest`] value by value, from the top down: for dice of many different
    /// weights (a sum used as a die), where runs of equal weights are short. `1 <= k <= n`.
    fn keep_highest_by_walk<S: Stop>(&self, n: u32, k: u32, stop: &S) -> Result<Dist, S::Stopped> {
        let denom = self.denom.pow(n);
        let values: Vec<(i64, &BigUint)> =
            self.iter().collect::<Vec<_>>().into_iter().rev().collect();
        // below[i]: weight of values strictly below values[i].
        let mut below = vec![BigUint::zero(); values.len()];
        let mut acc = BigUint::zero();
        for i in (0..values.len()).rev() {
            below[i] = acc.clone();
            acc += values[i].1;
        }
        let lo = (i64::from(k) * self.min_value()).min(0);
        let hi = (i64::from(k) * self.max_value()).max(0);
        let width = (hi - lo + 1) as usize;
        let binom = super::keep::binomials(n);
        // Once k dice are placed, the rest only need to be lower (one power of the lower mass).
        // states[used]: weights of the kept sum with `used` (< k) dice placed so far.
        let mut states: Vec<Option<Vec<BigUint>>> = vec![None; k as usize];
        let mut start = vec![BigUint::zero(); width];
        start[(-lo) as usize] = BigUint::one();
        states[0] = Some(start);
        let mut result = vec![BigUint::zero(); width];
        for (i, (value, w)) in values.iter().enumerate() {
            stop.check()?;
            let mut next: Vec<Option<Vec<BigUint>>> = vec![None; k as usize];
            let w_pow = super::poly::powers(w, n as usize);
            let below_pow = super::poly::powers(&below[i], n as usize);
            for (used, poly) in states.iter_mut().enumerate() {
                let Some(poly) = poly.take() else { continue };
                let used = used as u32;
                let left = n - used;
                // Fewer than k placed after this value: c of the dice left show it, all kept.
                for c in 1..(k - used).min(left + 1) {
                    let factor = &binom[left as usize][c as usize] * &w_pow[c as usize];
                    let target = next[(used + c) as usize]
                        .get_or_insert_with(|| vec![BigUint::zero(); width]);
                    add_scaled(target, &poly, i64::from(c) * value, &factor);
                }
                // k placed or more: k - used of them kept, whatever c is, and every die after
                // them lower: one sum of factors, one pass over the sums.
                let keep_here = k - used;
                let mut factor = BigUint::zero();
                for c in keep_here..=left {
                    factor += &binom[left as usize][c as usize]
                        * &w_pow[c as usize]
                        * &below_pow[(left - c) as usize];
                }
                add_scaled(&mut result, &poly, i64::from(keep_here) * value, &factor);
                // None of the dice left shows it: the state goes on as it is.
                match &mut next[used as usize] {
                    Some(target) => add_scaled(target, &poly, 0, &BigUint::one()),
                    slot => *slot = Some(poly),
                }
            }
            states = next;
        }
        Ok(Dist {
            min: lo,
            weights: result,
            denom,
            values: Points::WHOLE,
        }
        .trimmed())
    }

    /// The sum of the `k` lowest of `n` independent copies.
    pub fn keep_lowest(&self, n: u32, k: u32) -> Dist {
        let Ok(kept) = self.keep_lowest_until(n, k, &Never);
        kept
    }

    /// [`Dist::keep_lowest`], asking `stop` between steps.
    pub fn keep_lowest_until<S: Stop>(&self, n: u32, k: u32, stop: &S) -> Result<Dist, S::Stopped> {
        Ok(self.neg().keep_highest_until(n, k, stop)?.neg())
    }

    /// The highest of several independent outcomes (products of cumulative weights).
    pub fn max_of(dists: &[Dist]) -> Dist {
        let Some(first) = dists.first() else {
            return Dist::constant(0);
        };
        let lo = dists.iter().map(Dist::min_value).min().unwrap_or(first.min);
        let hi = dists.iter().map(Dist::max_value).max().unwrap_or(lo);
        let denom: BigUint = dists.iter().map(|d| d.denom.clone()).product();
        let mut cumulative: Vec<BigUint> = vec![BigUint::zero(); dists.len()];
        let mut previous = BigUint::zero();
        let mut pairs = Vec::new();
        for x in lo..=hi {
            for (c, d) in cumulative.iter_mut().zip(dists) {
                *c += d.weight(x);
            }
            let all_at_most: BigUint = cumulative.iter().product();
            pairs.push((x, &all_at_most - &previous));
            previous = all_at_most;
        }
        Dist::from_pairs(pairs, denom)
    }

    /// The lowest of several independent outcomes.
    pub fn min_of(dists: &[Dist]) -> Dist {
        let negated: Vec<Dist> = dists.iter().map(Dist::neg).collect();
        Dist::max_of(&negated).neg()
    }

    /// The distribution of `f(a, b)` for independent `a` (self) and `b`.
    pub fn combine(&self, other: &Dist, f: impl Fn(i64, i64) -> i64) -> Dist {
        let mut pairs = Vec::with_capacity(self.weights.len() * other.weights.len());
        for (a, wa) in self.iter() {
            for (b, wb) in other.iter() {
                pairs.push((f(a, b), wa * wb));
            }
        }
        Dist::from_pairs(pairs, &self.denom * &other.denom)
    }

    /// `(value, probability as f64)` for every value with positive weight, without reducing
    /// any fraction (for drawing: 100d20! has 22,000 values over a 4,750-bit denominator).
    pub fn chances(&self) -> Vec<(i64, f64)> {
        // Both sides shifted into f64's range alike; what shifts out is below 2^-1000.
        let shift = self.denom.bits().saturating_sub(1000);
        let denom = (&self.denom >> shift).to_f64().unwrap_or(f64::INFINITY);
        self.iter()
            .map(|(v, w)| (v, (w >> shift).to_f64().unwrap_or(0.0) / denom))
            .collect()
    }

    /// `(value, probability)` for every value with positive weight, each in lowest terms.
    pub fn probabilities(&self) -> Vec<(i64, Prob)> {
        self.probabilities_where(|_| true)
    }

    /// [`Dist::probabilities`], asking `stop` every few dozen values: a distribution of
    /// thousands of values with long fractions takes a while to put in lowest terms, and whoever
    /// stopped waiting should not pay for it.
    pub fn probabilities_until<S: Stop>(&self, stop: &S) -> Result<Vec<(i64, Prob)>, S::Stopped> {
        self.probabilities_where_until(|_| true, stop)
    }

    /// [`Dist::probabilities`] of the values `pred` picks only: a table that shows 611 of
    /// 100d20!'s 22,000 values puts only those in lowest terms.
    pub fn probabilities_where(&self, pred: impl Fn(i64) -> bool) -> Vec<(i64, Prob)> {
        let Ok(picked) = self.probabilities_where_until(pred, &Never);
        picked
    }

    /// [`Dist::probabilities_where`], asking `stop` every 32 values picked.
    fn probabilities_where_until<S: Stop>(
        &self,
        pred: impl Fn(i64) -> bool,
        stop: &S,
    ) -> Result<Vec<(i64, Prob)>, S::Stopped> {
        let picked = self.iter().filter(|(v, _)| pred(*v));
        if self.denom.is_zero() {
            return Ok(picked.map(|(v, _)| (v, Prob::zero())).collect());
        }
        let reducer = Reducer::new(&self.denom);
        let mut out = Vec::new();
        for (i, (v, w)) in picked.enumerate() {
            if i % 32 == 0 {
                stop.check()?;
            }
            let (num, den) = reducer.reduce(w);
            out.push((v, Prob::in_lowest_terms(num, den)));
        }
        Ok(out)
    }
}

/// `target[i + offset] += poly[i] * factor` for every non-zero `poly[i]`.
fn add_scaled(target: &mut [BigUint], poly: &[BigUint], offset: i64, factor: &BigUint) {
    if factor.is_zero() {
        return;
    }
    let one = factor.is_one();
    for (idx, weight) in poly.iter().enumerate() {
        if weight.is_zero() {
            continue;
        }
        let to = (idx as i64 + offset) as usize;
        if one {
            target[to] += weight;
        } else {
            target[to] += weight * factor;
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fast_tests;
