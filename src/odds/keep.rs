//! The sum of the `k` highest of `n` dice, exactly, for dice made of a few runs of equally
//! likely values: a fair die is one run, an open-ended die one run per explosion level
//! (`d20!`: 1..19, 21..39, … each a run). Used by [`super::dist::Dist::keep_highest`] when it is
//! cheaper than walking every value.
//!
//! Let `t` be the value of the `k`-th highest die and `a < k` the dice above it. The weight of
//! the kept sum is
//!
//! `Σ_t Σ_a C(n,a) · F(t,a) · x^((k-a)·t) · W_t(x)^a`
//!
//! with `W_t` the die's polynomial above `t` and `F(t,a)` the weight of the other `n - a` dice:
//! at least `k - a` showing `t`, the rest below it. For `t` in a run of weight `ω` ending at
//! `hi`, `W_t = ω·x^(t+1)·(1 - x^(hi-t))/(1-x) + A(x)` with `A` the runs above. Expanding the
//! power, every `1/(1-x)` is a running sum, so for each number `j` of dice in higher runs the
//! terms form a polynomial in `1/(1-x)` with sparse coefficients (Horner: a running sum and a
//! few additions per step), and the sum over `j` is a polynomial in `A` (Horner again:
//! multiplying by `A` is two shifted additions per higher run and one running sum, or two
//! passes in all when the runs' weights are geometric, as an open-ended die's levels are: a
//! window, then a recurrence). Nothing enumerates rolls and nothing multiplies two dense
//! polynomials: 100d100kh50 is about 10⁵ big-number operations, where walking every value took
//! 10⁷.
//!
//! Every number lives on a row of 64-bit limbs ([`super::limbs::Rows`]): the steps are sums,
//! differences and products only, so arithmetic modulo the row's width is exact as long as the
//! value worked out fits, however the numbers in between wrap. That lets each step be only as
//! wide as its own value: a run's terms are worked out divided by a factor common to all of
//! them (`ω^(n-k+1)` for an open-ended die's level) and multiplied by it once at the end, and
//! the Horner's value with `j` dice above, whose weights sum to at most the run's total over
//! `A(1)^j`, is narrower the more dice it has left to add. For 50d10!kh25 the rows shrink from
//! 40 limbs to 21 at most and 4 at least.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use super::limbs::{Rows, add_limbs, add_mul_limbs, sub_mul_limbs};
use super::poly;
use super::stop::Stop;

/// A run of consecutive values with one common weight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Run {
    /// The lowest value of the run (values count from 0).
    pub lo: usize,
    /// How many values.
    pub len: usize,
    /// The weight of each of them.
    pub weight: BigUint,
}

impl Run {
    fn hi(&self) -> usize {
        self.lo + self.len - 1
    }
}

/// The runs of equal non-zero weights in `weights` (index = value).
pub(super) fn runs(weights: &[BigUint]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for (value, w) in weights.iter().enumerate() {
        if w.is_zero() {
            continue;
        }
        match out.last_mut() {
            Some(run) if run.lo + run.len == value && run.weight == *w => run.len += 1,
            _ => out.push(Run {
                lo: value,
                len: 1,
                weight: w.clone(),
            }),
        }
    }
    out
}

/// Pascal's triangle up to row `n`.
pub(super) fn binomials(n: u32) -> Vec<Vec<BigUint>> {
    let mut rows: Vec<Vec<BigUint>> = vec![vec![BigUint::one()]];
    for i in 1..=n as usize {
        let prev = &rows[i - 1];
        let mut row = vec![BigUint::one(); i + 1];
        for j in 1..i {
            row[j] = &prev[j - 1] + &prev[j];
        }
        rows.push(row);
    }
    rows
}

/// A rough count of big-number operations of [`keep_highest_runs`], to choose between it and
/// the value-by-value walk.
pub(super) fn runs_cost(runs: &[Run], k: u32) -> f64 {
    let k = f64::from(k);
    let top = runs.last().map_or(0, Run::hi) as f64;
    runs.iter()
        .enumerate()
        .map(|(b, run)| {
            let higher = &runs[b + 1..];
            let len = run.len as f64;
            if higher.is_empty() {
                return len * k * k * 1.5;
            }
            let passes = match Above::of(higher) {
                Above::Geometric { .. } => 6.0,
                Above::Runs(r) => 2.0 * r.len() as f64 + 1.0,
            };
            // k products by the runs above, over about k (top - lo) / 2 coefficients; the
            // runs' own terms and running sums for every number of dice above.
            k * passes * k * (top - run.lo as f64) / 2.0 + len * k * k * k / 2.0
        })
        .sum()
}

/// The weights of the sum of the `k` highest of `n` dice whose weights are `runs` (values from
/// 0), indexed from 0; `1 <= k <= n`. Exactly the weights of enumerating every roll. `stop` is
/// asked before each step of each run's Horner.
pub(super) fn keep_highest_runs<S: Stop>(
    runs: &[Run],
    n: u32,
    k: u32,
    stop: &S,
) -> Result<Vec<BigUint>, S::Stopped> {
    let Some(last) = runs.last() else {
        return Ok(Vec::new());
    };
    let k = k.clamp(1, n.max(1));
    let top = last.hi();
    let len = k as usize * top + 1;
    let shared = Shared::new(runs, n, k);
    let mut result = Rows::zeros(shared.width, 0, len);
    // Σ_b g_b^(n-k+1) · (run b's terms): while each run's g divides the one before it (an
    // open-ended die's levels), by Horner, so that the running sum is multiplied by a small
    // ratio at each run and by one large factor at the end.
    let mut pending: Option<(Rows, BigUint)> = None;
    let log2_answer = f64::from(n) * log2(&shared.total);
    let mut below = BigUint::zero();
    let mut at_or_above = shared.total.clone();
    let mut buffers = Buffers::default();
    for (b, run) in runs.iter().enumerate() {
        let higher = &runs[b + 1..];
        let this = ThisRun::new(run, &below, &at_or_above, &shared);
        // Horner over j, the dice in higher runs: acc = H_j + A · acc, each step as wide as
        // its numbers can be.
        let most_higher = if higher.is_empty() { 0 } else { k - 1 };
        let above = Above::of(higher);
        let mut acc = Rows::zeros(1, 0, 0);
        for j in (0..=most_higher).rev() {
            stop.check()?;
            let width = this.width(j);
            let in_run_from = (k - j) as usize * run.lo;
            if acc.len() > 0 {
                above.times(&acc, width, in_run_from, &mut buffers);
                std::mem::swap(&mut acc, &mut buffers.product);
            }
            let in_run = this.in_run_rows(j, width, &shared);
            acc.add_shifted(&in_run, in_run_from);
        }
        let common = this.common.clone();
        pending = Some(match pending.take() {
            Some((sum, before)) if (&before % &common).is_zero() => {
                let ratio = (&before / &common).pow(n - k + 1).to_u64_digits();
                let bound = log2_answer - f64::from(n - k + 1) * log2(&common);
                let width = limbs_for(bound).clamp(acc.width, shared.width);
                let mut next = Rows::zeros(width, sum.start, sum.len());
                next.add_times(&sum, &ratio);
                next.add_shifted(&acc, 0);
                (next, common)
            }
            Some((sum, before)) => {
                result.add_times(&sum, &before.pow(n - k + 1).to_u64_digits());
                (acc, common)
            }
            None => (acc, common),
        });
        let run_weight = &run.weight * BigUint::from(run.len);
        below += &run_weight;
        at_or_above -= &run_weight;
    }
    if let Some((sum, common)) = pending {
        result.add_times(&sum, &common.pow(n - k + 1).to_u64_digits());
    }
    let mut weights = result.to_biguints();
    weights.resize(len, BigUint::zero());
    Ok(weights)
}

/// The memory of the products by the runs above, kept from one Horner step to the next.
#[derive(Default)]
struct Buffers {
    /// The product (swapped with the Horner's value after each step).
    product: Rows,
    /// `acc · (1 - x^len) / (1 - x)`, on the way to it.
    window: Rows,
}

/// What every run's terms use: binomials (also as limbs), the dice's total weight and the width
/// of the answer's limb rows.
struct Shared {
    n: u32,
    k: u32,
    binom: Vec<Vec<BigUint>>,
    binom_limbs: Vec<Vec<Vec<u64>>>,
    total: BigUint,
    width: usize,
}

impl Shared {
    fn new(runs: &[Run], n: u32, k: u32) -> Self {
        let binom = binomials(n);
        let binom_limbs = binom[..k as usize]
            .iter()
            .map(|row| row.iter().map(BigUint::to_u64_digits).collect())
            .collect();
        // Limbs enough for the total weight of n dice, and a sign bit.
        let total: BigUint = runs.iter().map(|r| &r.weight * BigUint::from(r.len)).sum();
        let width = (u64::from(n) * total.bits() + 2).div_ceil(64) as usize;
        Shared {
            n,
            k,
            binom,
            binom_limbs,
            total,
            width,
        }
    }
}

/// Limbs enough for a number not negative below `2^log2_bound`, with four bits to spare for
/// rounding and the sign.
fn limbs_for(log2_bound: f64) -> usize {
    ((log2_bound.max(0.0) + 4.0) / 64.0).ceil() as usize
}

/// `log2(x)` to about 1e-15, for any size (`-inf` for 0).
fn log2(x: &BigUint) -> f64 {
    let bits = x.bits();
    if bits <= 64 {
        return x.to_f64().map_or(f64::NEG_INFINITY, f64::log2);
    }
    let top = (x >> (bits - 64)).to_f64().unwrap_or(1.0);
    top.log2() + (bits - 64) as f64
}

/// One run with what its terms need, worked out once for every number of dice above it.
///
/// Every term of this run is a multiple of `g^(n-k+1)`, `g` the greatest common divisor of the
/// run's weight `ω` and the total weight below it: the `n - j >= n - k + 1` dice not above the
/// run enter only through those two. For an open-ended die `g = ω = s^(depth-1-level)`. The
/// run's terms are worked out divided by it, on rows that much narrower, and multiplied by it
/// once at the end.
struct ThisRun<'a> {
    run: &'a Run,
    /// `(ω/g)^0 ..= (ω/g)^n`.
    omega_pow: Vec<BigUint>,
    /// `g^0 ..= g^k`.
    common_pow: Vec<BigUint>,
    /// `g`.
    common: BigUint,
    /// `G[t - lo][a] = C(n,a) · F(t,a) / g^(n-a)` for each value `t` of the run and `a < k`,
    /// as limbs.
    rest: Vec<Vec<Vec<u64>>>,
    /// `log2` of a bound on the sum of the run's terms (divided by `g^(n-k+1)`).
    log2_terms: f64,
    /// `log2` of the total weight of the runs above, `A(1)`.
    log2_above: f64,
    /// The answer's width, which no step needs more than.
    most_width: usize,
}

impl<'a> ThisRun<'a> {
    fn new(run: &'a Run, below_run: &BigUint, at_or_above: &BigUint, shared: &Shared) -> Self {
        let Shared { n, k, binom, .. } = shared;
        let (n, k) = (*n, *k);
        let common = run.weight.gcd(below_run);
        let omega = &run.weight / &common;
        let below = below_run / &common;
        let omega_pow = poly::powers(&omega, n as usize);
        let common_pow = poly::powers(&common, k as usize);
        let rest = rest_weights(run.len, &omega, &below, shared, &omega_pow)
            .iter()
            .map(|by_a| by_a.iter().map(BigUint::to_u64_digits).collect())
            .collect();
        // The weight of the rolls whose k-th highest die is in this run or above, at most
        // C(n,k) · (at or above)^k · total^(n-k), divided by g^(n-k+1).
        let log2_terms = log2(&binom[n as usize][k as usize])
            + f64::from(k) * log2(at_or_above)
            + f64::from(n - k) * log2(&shared.total)
            - f64::from(n - k + 1) * log2(&common);
        let above = at_or_above - &run.weight * BigUint::from(run.len);
        ThisRun {
            run,
            omega_pow,
            common_pow,
            common,
            rest,
            log2_terms,
            log2_above: log2(&above),
            most_width: shared.width,
        }
    }

    /// Limbs enough for the Horner's value with `j` dice above: its coefficients are weights
    /// (not negative) and sum to at most the run's total divided by `A(1)^j` (the whole being
    /// `Σ A^j H_j`). Arithmetic modulo the width is exact when the value fits, however the
    /// numbers in between wrap.
    fn width(&self, j: u32) -> usize {
        limbs_for(self.log2_bound(j)).clamp(1, self.most_width)
    }

    /// `log2` of the bound [`ThisRun::width`] is taken from.
    fn log2_bound(&self, j: u32) -> f64 {
        let above = if j == 0 {
            0.0
        } else {
            f64::from(j) * self.log2_above
        };
        self.log2_terms - above
    }

    /// `H_j`: the weights of the kept dice inside the run when `j` of the kept dice lie in higher
    /// runs (those `j` left out), placed from `(k - j) · lo`, divided by `g^(n-k+1)`, on rows of
    /// `width` limbs.
    ///
    /// `Σ_{i < k-j} (1-x)^(-i) · C(i+j,i) · ω^i · Σ_t G(t,i+j) · x^((k-j)(t-lo) + i) ·
    /// (1 - x^(hi-t))^i`, by Horner in `1/(1-x)`.
    ///
    /// Every term holds `g^(k-1-j)` (what is left of the `g^(n-j)` of the dice not above the
    /// run): the Horner runs without it, on rows narrower by its bits (an open-ended die's
    /// lowest level, whose `g` is largest, narrows most), and its rows are multiplied by it
    /// once at the end.
    fn in_run_rows(&self, j: u32, width: usize, shared: &Shared) -> Rows {
        let lift = &self.common_pow[(shared.k - 1 - j) as usize];
        let narrow = limbs_for(self.log2_bound(j) - log2(lift)).clamp(1, width);
        let h = self.in_run_rows_without_lift(j, narrow, shared);
        if lift.is_one() {
            return h;
        }
        let mut lift = lift.to_u64_digits();
        lift.truncate(width);
        let mut out = Rows::zeros(width, h.start, h.len());
        out.add_times(&h, &lift);
        out
    }

    /// [`ThisRun::in_run_rows`] divided by `g^(k-1-j)`, on rows of `width` limbs.
    fn in_run_rows_without_lift(&self, j: u32, width: usize, shared: &Shared) -> Rows {
        let Shared {
            k,
            binom,
            binom_limbs,
            ..
        } = shared;
        let (run, rest, omega_pow) = (self.run, &self.rest, &self.omega_pow);
        let kept_here = (k - j) as usize;
        let size = kept_here * run.len;
        // Every step is a ring operation on the limb rows: no number is allocated per step.
        let mut h = Rows::zeros(width, 0, size);
        let mut base = vec![0u64; width];
        let j = j as usize;
        for i in (0..kept_here).rev() {
            if i + 1 < kept_here {
                // Rows below i + 1 hold nothing yet (each term starts at its i).
                h.prefix_sums_from(i + 1);
            }
            let mut scale = (&binom[i + j][i] * &omega_pow[i]).to_u64_digits();
            scale.truncate(width);
            for (offset, g) in rest.iter().enumerate() {
                let above_in_run = run.len - 1 - offset;
                if i > 0 && above_in_run == 0 {
                    continue; // (1 - x^0)^i = 0: nothing above t in the run.
                }
                let g = &g[i + j][..g[i + j].len().min(width)];
                if g.is_empty() || scale.is_empty() {
                    continue;
                }
                // base = scale · G, modulo the width.
                base.fill(0);
                if g.len() < scale.len() {
                    add_mul_limbs(&mut base, &scale, g);
                } else {
                    add_mul_limbs(&mut base, g, &scale);
                }
                let used = base
                    .iter()
                    .rposition(|&limb| limb != 0)
                    .map_or(0, |top| top + 1);
                let base = &base[..used];
                let start = kept_here * offset + i;
                for (l, c) in binom_limbs[i].iter().enumerate() {
                    let row = h.row_mut(start + l * above_in_run);
                    if l % 2 == 0 {
                        add_mul_limbs(row, base, c);
                    } else {
                        sub_mul_limbs(row, base, c);
                    }
                }
            }
        }
        h
    }
}

/// `G[t - lo][a] = C(n,a) · F(t,a)` for each value `t` of a run of `len` values of weight `ω`
/// and `a < k`: the weight of choosing which `a` dice are above `t` and of the other `n - a`
/// dice having at least `k - a` at `t` and the rest below it, `F(t,a) = Σ_{d ≤ n-k} C(n-a,d) ·
/// below^d · ω^(n-a-d)`. `omega` and `below_run` may both be divided by a common factor `g`;
/// the weights are then divided by `g^(n-a)`.
fn rest_weights(
    len: usize,
    omega: &BigUint,
    below_run: &BigUint,
    shared: &Shared,
    omega_pow: &[BigUint],
) -> Vec<Vec<BigUint>> {
    let Shared { n, k, binom, .. } = shared;
    let (n, k) = (*n, *k);
    let dropped = (n - k) as usize;
    (0..len)
        .map(|offset| {
            let below = below_run + omega * BigUint::from(offset);
            let all = &below + omega;
            // S(m) = Σ_{d ≤ n-k} C(m,d) below^d ω^(m-d), from S(n-k) = (ω + below)^(n-k) by
            // S(m) = (ω + below) S(m-1) - C(m-1, n-k) below^(n-k+1) ω^(m-1-(n-k)).
            let below_top = below.pow(dropped as u32 + 1);
            let mut s = all.pow(dropped as u32);
            let mut by_m = Vec::with_capacity(k as usize);
            for m in dropped + 1..=n as usize {
                s = &s * &all - &binom[m - 1][dropped] * &below_top * &omega_pow[m - 1 - dropped];
                by_m.push(s.clone());
            }
            // by_m[m - dropped - 1] = S(m); a = n - m.
            (0..k as usize)
                .map(|a| &binom[n as usize][a] * &by_m[n as usize - a - dropped - 1])
                .collect()
        })
        .collect()
}

/// The runs above a run, as a polynomial `A(x)` to multiply by.
enum Above<'a> {
    /// Any runs: two shifted additions each.
    Runs(&'a [Run]),
    /// Runs of one length, one period apart, each weight `ratio` times the next one's (an
    /// open-ended die: each level weighs `sides` times the one above it), or the next one
    /// `ratio` times this one's (the same die turned around, for keep-lowest):
    /// `A(x) = x^lo · (1 - x^len) / (1 - x) · Γ(x^period)` with `Γ` geometric:
    /// `Γ(y) = Σ_{i<m} g_i y^i`, `g_i = r^(m-1-i)·g_last` or `r^i·g_0`, which a recurrence
    /// multiplies by in one pass (from the top or the bottom), whatever the number of runs.
    /// `near` and `far` are its two factors (`r^m·g_last` and `g_last`, or `g_0` and
    /// `r^m·g_0`), all as limbs.
    Geometric {
        lo: usize,
        len: usize,
        period: usize,
        count: usize,
        ratio: Vec<u64>,
        near: Vec<u64>,
        far: Vec<u64>,
        falling: bool,
    },
}

impl<'a> Above<'a> {
    fn of(runs: &'a [Run]) -> Self {
        Self::geometric(runs).unwrap_or(Above::Runs(runs))
    }

    fn geometric(runs: &[Run]) -> Option<Self> {
        let [first, second, ..] = runs else {
            return None;
        };
        let period = second.lo - first.lo;
        let spaced = runs
            .windows(2)
            .all(|w| w[1].lo - w[0].lo == period && w[1].len == first.len);
        if !spaced || runs.len() < 3 {
            return None;
        }
        let steady = |ratio: &BigUint, falling: bool| {
            runs.windows(2).all(|w| {
                let (big, small) = if falling {
                    (&w[0], &w[1])
                } else {
                    (&w[1], &w[0])
                };
                big.weight == &small.weight * ratio
            })
        };
        let (ratio, falling) = if first.weight >= second.weight {
            (&first.weight / &second.weight, true)
        } else {
            (&second.weight / &first.weight, false)
        };
        if !steady(&ratio, falling) {
            return None;
        }
        let last = &runs.last()?.weight;
        let (near, far) = if falling {
            (&ratio * &first.weight, last.clone())
        } else {
            (first.weight.clone(), &ratio * last)
        };
        Some(Above::Geometric {
            lo: first.lo,
            len: first.len,
            period,
            count: runs.len(),
            ratio: ratio.to_u64_digits(),
            near: near.to_u64_digits(),
            far: far.to_u64_digits(),
            falling,
        })
    }

    /// `acc · A(x)` into `buffers.product`, on rows of `width` limbs (at least `acc`'s; its
    /// coefficients are read as numbers not negative), holding the degrees from `from` up (the
    /// Horner's next term is then added with nothing moved).
    fn times(&self, acc: &Rows, width: usize, from: usize, buffers: &mut Buffers) {
        match self {
            Above::Runs(runs) => buffers.product = times_runs(acc, runs, width, from),
            Above::Geometric {
                lo,
                len,
                period,
                count,
                ratio,
                near,
                far,
                falling,
            } => {
                let (p, c) = (*period, *count);
                // z = acc · (1 - x^len) / (1 - x), from the bottom: z[d] = z[d-1] + acc[d] -
                // acc[d-len].
                let Buffers {
                    product: u,
                    window: z,
                } = buffers;
                acc.times_window_to(*len, width, z);
                let rows = z.len() + (c - 1) * p;
                // `room` rows below the product's lowest degree, kept as zeros.
                let room = (acc.start + lo).saturating_sub(from);
                u.reuse_as(width, acc.start + lo - room, room + rows);
                for d in 0..room {
                    u.row_mut(d).fill(0);
                }
                if *falling {
                    // u = Γ(y) · z with Γ(y) = g_last · Σ_{i<c} r^(c-1-i) y^i, from the top:
                    // u[d] = r·u[d+p] - r^c·g_last·z[d+p] + g_last·z[d-(c-1)p].
                    for d in (0..rows).rev() {
                        u.row_mut(room + d).fill(0);
                        if d + p < rows {
                            let (to, from) = u.pair_mut(room + d, room + d + p);
                            add_mul_limbs(to, from, ratio);
                        }
                        let row = u.row_mut(room + d);
                        if d + p < z.len() {
                            sub_mul_limbs(row, z.row(d + p), near);
                        }
                        if let Some(e) = d.checked_sub((c - 1) * p).filter(|&e| e < z.len()) {
                            // The top level of an open-ended die weighs 1.
                            if far[..] == [1] {
                                add_limbs(row, z.row(e));
                            } else {
                                add_mul_limbs(row, z.row(e), far);
                            }
                        }
                    }
                } else {
                    // Γ(y) = g_0 · Σ_{i<c} r^i y^i, from the bottom:
                    // u[d] = r·u[d-p] + g_0·z[d] - g_0·r^c·z[d-cp].
                    for d in 0..rows {
                        u.row_mut(room + d).fill(0);
                        if d >= p {
                            let (to, from) = u.pair_mut(room + d, room + d - p);
                            add_mul_limbs(to, from, ratio);
                        }
                        let row = u.row_mut(room + d);
                        if d < z.len() {
                            add_mul_limbs(row, z.row(d), near);
                        }
                        if let Some(e) = d.checked_sub(c * p).filter(|&e| e < z.len()) {
                            sub_mul_limbs(row, z.row(e), far);
                        }
                    }
                }
            }
        }
    }
}

/// `acc · Σ_runs ω x^lo (1 - x^len) / (1 - x)` on rows of `width` limbs: two shifted additions a
/// run, then one running sum.
fn times_runs(acc: &Rows, runs: &[Run], width: usize, from: usize) -> Rows {
    let (Some(first), Some(last)) = (runs.first(), runs.last()) else {
        return Rows::zeros(width, 0, 0);
    };
    let start = (acc.start + first.lo).min(from);
    let end = acc.end() + last.hi();
    let mut out = Rows::zeros(width, start, end - start);
    let room = acc.start + first.lo - start;
    for run in runs {
        let weight = run.weight.to_u64_digits();
        for i in 0..acc.len() {
            add_mul_limbs(
                out.row_mut(room + i + run.lo - first.lo),
                acc.row(i),
                &weight,
            );
            let after = room + i + run.hi() + 1 - first.lo;
            if after < out.len() {
                sub_mul_limbs(out.row_mut(after), acc.row(i), &weight);
            }
        }
    }
    out.prefix_sums();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odds::stop::Never;

    #[test]
    fn runs_of_a_fair_and_an_open_ended_die() {
        let one = BigUint::one;
        let fair = vec![BigUint::zero(), one(), one(), one()];
        assert_eq!(
            runs(&fair),
            vec![Run {
                lo: 1,
                len: 3,
                weight: one()
            }]
        );
        // d3! to depth 2 over 9: 1, 2 weigh 3; 4, 5 weigh 1; 3 never stays.
        let w = |v: u32| BigUint::from(v);
        let open = vec![w(0), w(3), w(3), w(0), w(1), w(1)];
        assert_eq!(
            runs(&open),
            vec![
                Run {
                    lo: 1,
                    len: 2,
                    weight: w(3)
                },
                Run {
                    lo: 4,
                    len: 2,
                    weight: w(1)
                }
            ]
        );
    }

    #[test]
    fn four_d6_keep_three_by_hand() {
        // 4d6 keep 3: 18 needs at least three sixes (1 + 4·5 = 21 ways of 1296), 3 needs four 1s.
        let die: Vec<BigUint> = (0..=6).map(|v| BigUint::from(u32::from(v > 0))).collect();
        let Ok(w) = keep_highest_runs(&runs(&die), 4, 3, &Never);
        assert_eq!(w.len(), 19);
        assert_eq!(w[18], BigUint::from(21u32));
        assert_eq!(w[3], BigUint::one());
        assert_eq!(w.iter().sum::<BigUint>(), BigUint::from(1296u32));
    }
}
