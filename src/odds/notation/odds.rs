//! The exact distribution of a notation's result, every form: sums, keeps and drops, rerolls,
//! exploding, compounding and penetrating dice, target numbers and failures, groups, and
//! arithmetic (`*`, `/` inside a rounding, `%`, functions).
//!
//! Plain sums go by the dice's structure (`Dist::plus_dice`), keeps of dice of one kind by
//! `Dist::keep_highest`, an exploding pool's keep by the number of explosions (the exploding
//! faces above every other face), and everything else by a walk over the pool that holds the
//! kept dice so far ([`Pool`]), capped at [`MOST_STATES`]. Open-ended dice are truncated where
//! the mass cut off drops below 1e-14, and that mass is reported (`Dist::truncated`).

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::faces::die_values;
use super::{
    BinaryOp, CompareOp, ComparePoint, DiceRoll, Die, ExplodeMode, Expr, Function, Group, Keep,
};
use crate::odds::Total;
use crate::odds::dist::Dist;
use crate::odds::stop::Stop;

/// Mass an exploding die may lose to truncation.
const TRUNCATION: f64 = 1e-14;
/// Most states the pool walk holds at once.
pub const MOST_STATES: usize = 250_000;
/// Most pairs of values an arithmetic step (`*`, `/`, `%`) works through.
pub const MOST_PAIRS: usize = 4_000_000;
/// Most values between a distribution's lowest and highest.
pub const MOST_SPAN: i64 = 2_000_000;

/// Why exact odds are not there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OddsError<S> {
    /// Whoever asked stopped waiting.
    Stopped(S),
    /// The work would be too large for the machine, with what and why.
    TooLarge(String),
}

impl<S> fmt::Display for OddsError<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OddsError::Stopped(_) => write!(f, "the odds were no longer wanted"),
            OddsError::TooLarge(why) => write!(f, "exact odds are not worked out: {why}"),
        }
    }
}

type Worked<T, S> = Result<T, OddsError<<S as Stop>::Stopped>>;

fn check<S: Stop>(stop: &S) -> Worked<(), S> {
    stop.check().map_err(OddsError::Stopped)
}

fn too_large<T, S>(why: String) -> Result<T, OddsError<S>> {
    Err(OddsError::TooLarge(why))
}

/// The exact distribution of `expr`.
pub(super) fn distribution<S: Stop>(expr: &Expr, stop: &S) -> Worked<Dist, S> {
    match outcomes(expr, stop)? {
        Outcomes::Whole(d) => Ok(d),
        Outcomes::Fraction(f) => f.in_points(),
    }
}

/// A distribution whose values may be fractions (inside `floor(...)`, after a `/`).
#[derive(Clone, Debug)]
struct Fractions {
    values: BTreeMap<BigRational, BigUint>,
    denom: BigUint,
}

impl Fractions {
    fn of(d: &Dist) -> Fractions {
        Fractions {
            values: d
                .iter()
                .map(|(v, w)| (BigRational::from_integer(BigInt::from(v)), w.clone()))
                .collect(),
            denom: d.denom().clone(),
        }
    }

    fn map(&self, f: impl Fn(&BigRational) -> BigRational) -> Fractions {
        let mut values: BTreeMap<BigRational, BigUint> = BTreeMap::new();
        for (v, w) in &self.values {
            *values.entry(f(v)).or_default() += w;
        }
        Fractions {
            values,
            denom: self.denom.clone(),
        }
    }

    /// As a distribution: of whole numbers when every value is one, else of the values by
    /// their places (`3d6/2`: 1.5, 2, ..., 9), refused past [`MOST_SPAN`] values.
    fn in_points<S>(&self) -> Result<Dist, OddsError<S>> {
        if self.values.keys().all(|v| v.is_integer()) {
            return self.whole();
        }
        if self.values.len() > MOST_SPAN as usize {
            return too_large(format!(
                "it has {} results, more than {MOST_SPAN}",
                self.values.len()
            ));
        }
        let mut pairs = Vec::with_capacity(self.values.len());
        for (v, w) in &self.values {
            let Some(value) = Total::of_ratio(v) else {
                return too_large(format!("a result of {v}"));
            };
            pairs.push((value, w.clone()));
        }
        Ok(Dist::of_values(pairs, self.denom.clone()))
    }

    /// As whole numbers (every value is one, or this is a mistake in the grammar's checks).
    fn whole<S>(&self) -> Result<Dist, OddsError<S>> {
        let mut pairs = Vec::with_capacity(self.values.len());
        for (v, w) in &self.values {
            let Some(n) = v.is_integer().then(|| v.to_integer().to_i64()).flatten() else {
                return too_large(format!("a result of {v} is not a whole number"));
            };
            pairs.push((n, w.clone()));
        }
        dense(pairs, self.denom.clone())
    }
}

/// A distribution built from pairs, refused when it would span too many values.
fn dense<S>(pairs: Vec<(i64, BigUint)>, denom: BigUint) -> Result<Dist, OddsError<S>> {
    let lo = pairs.iter().map(|p| p.0).min().unwrap_or(0);
    let hi = pairs.iter().map(|p| p.0).max().unwrap_or(0);
    if hi.saturating_sub(lo) > MOST_SPAN {
        return too_large(format!(
            "its results run from {lo} to {hi}, more than {MOST_SPAN} values apart"
        ));
    }
    Ok(Dist::from_pairs(pairs, denom))
}

enum Outcomes {
    Whole(Dist),
    Fraction(Fractions),
}

impl Outcomes {
    fn fractions(&self) -> Fractions {
        match self {
            Outcomes::Whole(d) => Fractions::of(d),
            Outcomes::Fraction(f) => f.clone(),
        }
    }
}

fn outcomes<S: Stop>(expr: &Expr, stop: &S) -> Worked<Outcomes, S> {
    check(stop)?;
    Ok(match expr {
        Expr::Number(n) => Outcomes::Whole(Dist::constant(*n)),
        Expr::Labeled(inner, _) => outcomes(inner, stop)?,
        Expr::Roll(r) => Outcomes::Whole(roll(r, stop)?),
        Expr::Group(g) => Outcomes::Whole(group(g, stop)?),
        Expr::Negate(inner) => match outcomes(inner, stop)? {
            Outcomes::Whole(d) => Outcomes::Whole(d.neg()),
            Outcomes::Fraction(f) => Outcomes::Fraction(f.map(|v| -v)),
        },
        Expr::Call(function, inner) => {
            let inner = outcomes(inner, stop)?;
            let apply = |v: &BigRational| match function {
                Function::Floor => v.floor(),
                Function::Ceil => v.ceil(),
                Function::Round => (v + BigRational::new(1.into(), 2.into())).floor(),
                Function::Abs => v.abs(),
            };
            match inner {
                Outcomes::Whole(d) if *function == Function::Abs => {
                    Outcomes::Whole(d.map(i64::abs))
                }
                Outcomes::Whole(d) => Outcomes::Whole(d),
                Outcomes::Fraction(f) => {
                    let mapped = f.map(apply);
                    if *function == Function::Abs {
                        Outcomes::Fraction(mapped)
                    } else {
                        Outcomes::Whole(mapped.whole()?)
                    }
                }
            }
        }
        Expr::Binary(BinaryOp::Add | BinaryOp::Subtract, _, _) => sum(expr, stop)?,
        Expr::Binary(op, a, b) => {
            let (a, b) = (outcomes(a, stop)?, outcomes(b, stop)?);
            arithmetic(*op, &a, &b, stop)?
        }
    })
}

/// Most steps the count of matches may take, as bounded before it starts (values × dice² ×
/// matches): 4d6mt is bounded by 450, 100d20mt by about 10 million (it takes 0.04 s: most
/// states are empty); past the bound the exact count is refused (the roll still throws).
const MOST_MATCH_STEPS: usize = 20_000_000;

/// `NdXmt`: how many values at least `at_least` of the dice show. Each die's value is drawn
/// alike (its rerolls, clamps and compounding), so the count runs over the values one by one:
/// the ordered ways for `k` dice to show the values so far with `s` matches, weighted by each
/// value's chance; adding `c` dice of the next value multiplies by the ways to place them among
/// `k + c` and by its weight to the power `c`. All whole numbers over the die's denominator to
/// the power `n`.
fn matches<S: Stop>(roll: &DiceRoll, value: &Dist, stop: &S) -> Worked<Dist, S> {
    let at_least = roll.matching.map_or(2, |m| m.at_least.max(1)) as usize;
    let n = roll.count as usize;
    let most = n / at_least;
    let values = value.iter().count();
    if values
        .saturating_mul((n + 1) * (n + 1))
        .saturating_mul(most + 1)
        > MOST_MATCH_STEPS
    {
        return too_large(format!(
            "counting matches of {n} dice over {values} values takes more than \
             {MOST_MATCH_STEPS} steps"
        ));
    }
    // Pascal's triangle: the ways to place c dice among k.
    let mut choose = vec![vec![BigUint::one()]];
    for k in 1..=n {
        let above = &choose[k - 1];
        let row: Vec<BigUint> = (0..=k)
            .map(|c| match c {
                0 => BigUint::one(),
                c if c == k => BigUint::one(),
                c => &above[c - 1] + &above[c],
            })
            .collect();
        choose.push(row);
    }
    let mut ways = vec![vec![BigUint::zero(); most + 1]; n + 1];
    ways[0][0] = BigUint::one();
    for (_, weight) in value.iter() {
        check(stop)?;
        let mut powers = vec![BigUint::one()];
        for c in 1..=n {
            let next = &powers[c - 1] * weight;
            powers.push(next);
        }
        let mut next = vec![vec![BigUint::zero(); most + 1]; n + 1];
        for (k, row) in ways.iter().enumerate() {
            for (s, seen) in row.iter().enumerate().filter(|(_, w)| !w.is_zero()) {
                for c in 0..=(n - k) {
                    let matched = (s + usize::from(c >= at_least)).min(most);
                    next[k + c][matched] += seen * &choose[k + c][c] * &powers[c];
                }
            }
        }
        ways = next;
    }
    let denom = num_traits::Pow::pow(value.denom(), n as u32);
    let pairs = ways[n]
        .iter()
        .enumerate()
        .map(|(s, w)| (s as i64, w.clone()));
    Ok(Dist::from_pairs(pairs, denom))
}

/// A roll that the dice's structure sums fastest: numbered, no rerolls, no clamps, no keep,
/// no target; open-ended (`!` or `!!` on the top face) or not.
fn plain(roll: &DiceRoll) -> Option<(u32, bool)> {
    let Die::Numbered(sides) = roll.die else {
        return None;
    };
    let t = &roll.throw;
    if roll.matching.is_some_and(|m| m.counts)
        || !t.rerolls.is_empty()
        || t.min.is_some()
        || t.max.is_some()
        || roll.keep != Keep::All
        || roll.target.is_some()
    {
        return None;
    }
    let top = i64::from(sides);
    match t.explode {
        None => Some((sides, false)),
        // Exploding or compounding on the top face only: the same sum.
        Some(e)
            if e.mode != ExplodeMode::Penetrate
                && e.on.target == top
                && matches!(e.on.op, CompareOp::Equal | CompareOp::AtLeast) =>
        {
            Some((sides, true))
        }
        Some(_) => None,
    }
}

/// A sum of terms: plain dice of the same kind on the same side are one term (100d6!+100d6!
/// is 200d6!), added last by their structure; the rest one by one.
fn sum<S: Stop>(expr: &Expr, stop: &S) -> Worked<Outcomes, S> {
    let mut terms = Vec::new();
    flatten(expr, false, &mut terms);
    let mut dice: Vec<((u32, bool, bool), u32)> = Vec::new();
    let mut total = Outcomes::Whole(Dist::constant(0));
    for (negative, term) in terms {
        check(stop)?;
        if let Expr::Roll(r) = term
            && let Some((sides, open)) = plain(r)
        {
            let kind = (sides, open, negative);
            match dice.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, count)) => *count += r.count,
                None => dice.push((kind, r.count)),
            }
            continue;
        }
        let part = outcomes(term, stop)?;
        let op = if negative {
            BinaryOp::Subtract
        } else {
            BinaryOp::Add
        };
        total = arithmetic(op, &total, &part, stop)?;
    }
    for ((sides, open, negative), count) in dice {
        check(stop)?;
        total = match total {
            Outcomes::Whole(d) => Outcomes::Whole(d.plus_dice(sides, count, open, negative)),
            Outcomes::Fraction(f) => {
                let dice = Dist::constant(0).plus_dice(sides, count, open, negative);
                arithmetic(
                    BinaryOp::Add,
                    &Outcomes::Fraction(f),
                    &Outcomes::Whole(dice),
                    stop,
                )?
            }
        };
    }
    Ok(total)
}

fn flatten<'a>(expr: &'a Expr, negative: bool, out: &mut Vec<(bool, &'a Expr)>) {
    match expr {
        Expr::Binary(BinaryOp::Add, a, b) => {
            flatten(a, negative, out);
            flatten(b, negative, out);
        }
        Expr::Binary(BinaryOp::Subtract, a, b) => {
            flatten(a, negative, out);
            flatten(b, !negative, out);
        }
        Expr::Labeled(inner, _) => flatten(inner, negative, out),
        other => out.push((negative, other)),
    }
}

/// `x + y`, stopping between the blocks of a large product.
fn whole_sum<S: Stop>(x: &Dist, y: &Dist, stop: &S) -> Worked<Outcomes, S> {
    use crate::odds::poly::{MOST_PACKED_BITS, Unworked};
    match x.add_until(y, stop) {
        Ok(sum) => Ok(Outcomes::Whole(sum)),
        Err(Unworked::Stopped(s)) => Err(OddsError::Stopped(s)),
        Err(Unworked::TooLarge(bits)) => too_large(format!(
            "a sum of two distributions of {} Mbit of weights, more than {}",
            bits >> 20,
            MOST_PACKED_BITS >> 20
        )),
    }
}

fn arithmetic<S: Stop>(op: BinaryOp, a: &Outcomes, b: &Outcomes, stop: &S) -> Worked<Outcomes, S> {
    if let (Outcomes::Whole(x), Outcomes::Whole(y)) = (a, b) {
        match op {
            BinaryOp::Add => return whole_sum(x, y, stop),
            BinaryOp::Subtract => return whole_sum(x, &y.neg(), stop),
            BinaryOp::Multiply | BinaryOp::Remainder | BinaryOp::Power => {
                let pairs = x.iter().count().saturating_mul(y.iter().count());
                if pairs > MOST_PAIRS {
                    return too_large(format!(
                        "{pairs} pairs of values to combine, more than {MOST_PAIRS}"
                    ));
                }
                let mut out = Vec::with_capacity(pairs);
                for (u, wu) in x.iter() {
                    check(stop)?;
                    for (v, wv) in y.iter() {
                        let value = if op == BinaryOp::Multiply {
                            u.saturating_mul(v)
                        } else if op == BinaryOp::Power {
                            let Ok(exponent) = u32::try_from(v) else {
                                return too_large(format!("an exponent of {v}"));
                            };
                            u.saturating_pow(exponent)
                        } else if v == 0 {
                            return too_large("a remainder of a division by 0".to_string());
                        } else {
                            u % v
                        };
                        out.push((value, wu * wv));
                    }
                }
                return Ok(Outcomes::Whole(dense(out, x.denom() * y.denom())?));
            }
            BinaryOp::Divide => {}
        }
    }
    let (x, y) = (a.fractions(), b.fractions());
    let pairs = x.values.len().saturating_mul(y.values.len());
    if pairs > MOST_PAIRS {
        return too_large(format!(
            "{pairs} pairs of values to combine, more than {MOST_PAIRS}"
        ));
    }
    let mut values: BTreeMap<BigRational, BigUint> = BTreeMap::new();
    for (u, wu) in &x.values {
        check(stop)?;
        for (v, wv) in &y.values {
            let value = match op {
                BinaryOp::Add => u + v,
                BinaryOp::Subtract => u - v,
                BinaryOp::Multiply => u * v,
                BinaryOp::Power => {
                    let Some(exponent) = v.is_integer().then(|| v.to_integer().to_u32()).flatten()
                    else {
                        return too_large(format!("an exponent of {v}"));
                    };
                    super::power(u, exponent)
                }
                _ if v.is_zero() => return too_large("a division by 0".to_string()),
                BinaryOp::Divide => u / v,
                BinaryOp::Remainder => u - v * (u / v).trunc(),
            };
            *values.entry(value).or_default() += wu * wv;
        }
    }
    Ok(Outcomes::Fraction(Fractions {
        values,
        denom: &x.denom * &y.denom,
    }))
}

/// One throw of a die after its rerolls: each face's value (as it shows) and weight.
struct Throw {
    faces: Vec<(i64, BigUint)>,
    denom: BigUint,
}

impl Throw {
    fn of(roll: &DiceRoll) -> Throw {
        let values = die_values(roll.die);
        let sides = values.len() as u64;
        let rerolled = |v: i64| roll.throw.rerolls_on(v);
        let rerolled_faces = values.iter().filter(|v| rerolled(**v)).count() as u64;
        if roll.throw.rerolls.is_empty() {
            Throw {
                faces: values.iter().map(|v| (*v, BigUint::one())).collect(),
                denom: BigUint::from(sides),
            }
        } else if roll.throw.reroll_once {
            // Kept at once, or rerolled once and then whatever comes.
            Throw {
                faces: values
                    .iter()
                    .map(|v| {
                        let first = if rerolled(*v) { 0 } else { sides };
                        (*v, BigUint::from(first + rerolled_faces))
                    })
                    .collect(),
                denom: BigUint::from(sides * sides),
            }
        } else {
            Throw {
                faces: values
                    .iter()
                    .filter(|v| !rerolled(**v))
                    .map(|v| (*v, BigUint::one()))
                    .collect(),
                denom: BigUint::from(sides - rerolled_faces),
            }
        }
    }

    /// Probability (as f64) that a throw's face meets `point`.
    fn p(&self, point: &ComparePoint) -> f64 {
        let hits: BigUint = self
            .faces
            .iter()
            .filter(|(v, _)| point.holds(*v))
            .map(|(_, w)| w.clone())
            .sum();
        hits.to_f64().unwrap_or(0.0) / self.denom.to_f64().unwrap_or(1.0)
    }
}

/// How many throws deep an exploding die is followed: the mass cut off stays below 1e-14.
fn depth(p_explode: f64) -> u32 {
    if p_explode <= 0.0 {
        return 1;
    }
    ((TRUNCATION.ln() / p_explode.ln()).ceil().max(1.0) as u32).saturating_add(1)
}

/// What each die of a roll counts for on its own: its value, or its success (+1), failure
/// (−1) or neither (0) when the roll has a target.
fn score(roll: &DiceRoll) -> impl Fn(i64) -> i64 + '_ {
    move |v| match roll.target {
        None => v,
        Some(t) if t.holds(v) => 1,
        Some(_) if roll.failure.is_some_and(|f| f.holds(v)) => -1,
        Some(_) => 0,
    }
}

fn roll<S: Stop>(roll: &DiceRoll, stop: &S) -> Worked<Dist, S> {
    if roll.count == 0 {
        // No dice (`0d6`, `0d0`): nothing to add, nothing to count.
        return Ok(Dist::constant(0));
    }
    if let Some((sides, open)) = plain(roll) {
        return Ok(Dist::constant(0).plus_dice(sides, roll.count, open, false));
    }
    let throw = Throw::of(roll);
    let clamp = |v: i64| {
        let v = roll.throw.min.map_or(v, |m| v.max(m));
        roll.throw.max.map_or(v, |m| v.min(m))
    };
    let score = score(roll);
    let n = roll.count;
    let single = |f: &dyn Fn(i64) -> i64| -> Dist {
        Dist::from_pairs(
            throw.faces.iter().map(|(v, w)| (f(*v), w.clone())),
            throw.denom.clone(),
        )
    };
    let Some(explode) = roll.throw.explode else {
        // One value a die.
        let value = single(&clamp);
        return one_value_dice(roll, &value, stop);
    };
    let depth = depth(throw.p(&explode.on));
    if explode.mode == ExplodeMode::Compound {
        let value = chain_sum(&throw, &explode.on, depth, &|v, _| clamp(v));
        return one_value_dice(roll, &value, stop);
    }
    let penetrate = explode.mode == ExplodeMode::Penetrate;
    let value = |v: i64, later: bool| clamp(v - i64::from(penetrate && later));
    if roll.keep == Keep::All {
        let per_die = chain_sum(&throw, &explode.on, depth, &|v, later| {
            score(value(v, later))
        });
        return Ok(per_die.repeat_sum(n));
    }
    let upper = match explode.on.op {
        CompareOp::AtLeast => true,
        CompareOp::Equal => die_values(roll.die).iter().all(|v| *v <= explode.on.target),
        CompareOp::AtMost => false,
    };
    if !penetrate && upper && roll.target.is_none() {
        return split_by_explosions(roll, &throw, &explode.on, &clamp, stop);
    }
    let sources: Vec<Source> = (0..n)
        .map(|_| Source::Chain {
            throw: &throw,
            on: explode.on,
            depth,
            value: &value,
        })
        .collect();
    Pool::walk(roll.keep, &sources, &score, stop)
}

/// A roll whose dice have one value each (`value`, one die's distribution): summed, kept,
/// counted against a target, or its matches counted (`mt`, which the grammar reads only with
/// dice of one value each).
fn one_value_dice<S: Stop>(roll: &DiceRoll, value: &Dist, stop: &S) -> Worked<Dist, S> {
    if roll.matching.is_some_and(|m| m.counts) {
        return matches(roll, value, stop);
    }
    let n = roll.count;
    let score = score(roll);
    match (roll.keep, roll.target) {
        (Keep::All, _) => Ok(value.map(&score).repeat_sum(n)),
        (keep, None) => {
            let k = keep.kept_of(n as usize) as u32;
            let kept = if keep.keeps_highest() {
                value.keep_highest_until(n, k, stop)
            } else {
                value.keep_lowest_until(n, k, stop)
            };
            kept.map_err(OddsError::Stopped)
        }
        (keep, Some(_)) => {
            let sources: Vec<Source> = (0..n).map(|_| Source::Value(value)).collect();
            Pool::walk(keep, &sources, &score, stop)
        }
    }
}

/// The sum of a die's chain: each throw's `count(face, later)` added, as long as faces meet
/// `on` (at most `depth` throws).
fn chain_sum(
    throw: &Throw,
    on: &ComparePoint,
    depth: u32,
    count: &dyn Fn(i64, bool) -> i64,
) -> Dist {
    // `rest` is the sum of the throws after an explosion.
    let mut rest: Option<Dist> = None;
    for _ in 1..depth {
        rest = Some(chain_step(throw, on, rest.as_ref(), &|v| count(v, true)));
    }
    chain_step(throw, on, rest.as_ref(), &|v| count(v, false))
}

fn chain_step(
    throw: &Throw,
    on: &ComparePoint,
    rest: Option<&Dist>,
    count: &dyn Fn(i64) -> i64,
) -> Dist {
    let one = BigUint::one();
    let rest_denom = rest.map_or(&one, Dist::denom);
    let mut pairs = Vec::new();
    for (v, w) in &throw.faces {
        let c = count(*v);
        if !on.holds(*v) {
            pairs.push((c, w * rest_denom));
        } else if let Some(rest) = rest {
            pairs.extend(rest.iter().map(|(u, wu)| (c + u, w * wu)));
        }
    }
    Dist::from_pairs(pairs, &throw.denom * rest_denom)
}

/// A keep over exploding dice whose exploding faces are above every other: the pool is the
/// explosions (T of them, each an exploding face) and one last face a die (below them all),
/// so the kept are the highest explosions and the highest last faces, or the other way round.
/// Summed over T, truncated where the mass left drops below 1e-14.
fn split_by_explosions<S: Stop>(
    roll: &DiceRoll,
    throw: &Throw,
    on: &ComparePoint,
    clamp: &dyn Fn(i64) -> i64,
    stop: &S,
) -> Worked<Dist, S> {
    let n = roll.count;
    let part = |explodes: bool| {
        let pairs: Vec<(i64, BigUint)> = throw
            .faces
            .iter()
            .filter(|(v, _)| on.holds(*v) == explodes)
            .map(|(v, w)| (clamp(*v), w.clone()))
            .collect();
        let total: BigUint = pairs.iter().map(|(_, w)| w.clone()).sum();
        (Dist::from_pairs(pairs, total.clone()), total)
    };
    let (high, w_high) = part(true);
    let (low, w_low) = part(false);
    let p = throw.p(on);
    // P(T = t) = C(n+t-1, t) p^t q^n; t up to where what is left is below the truncation.
    let q = 1.0 - p;
    let mut most = 0u32;
    let mut mass = q.powi(n as i32);
    let mut left = 1.0 - mass;
    let mut p_t = mass;
    while left > TRUNCATION && most < 4096 {
        most += 1;
        p_t *= p * f64::from(n + most - 1) / f64::from(most);
        mass += p_t;
        left = 1.0 - mass;
        if p_t < TRUNCATION * 1e-3 && left < TRUNCATION * 10.0 {
            break;
        }
    }
    let denom = &throw.denom;
    let common = denom.pow(n + most);
    let mut pairs: Vec<(i64, BigUint)> = Vec::new();
    let mut ways = BigUint::one(); // C(n+t-1, t)
    for t in 0..=most {
        check(stop)?;
        if t > 0 {
            ways = ways * BigUint::from(n + t - 1) / BigUint::from(t);
        }
        let total = n + t;
        let k = roll.keep.kept_of(total as usize) as u32;
        let keep = |d: &Dist, of: u32, k: u32, highest: bool| {
            if highest {
                d.keep_highest_until(of, k, stop)
            } else {
                d.keep_lowest_until(of, k, stop)
            }
        };
        let kept = if roll.keep.keeps_highest() {
            let from_high = k.min(t);
            keep(&high, t, from_high, true)
                .and_then(|h| Ok(h.add(&keep(&low, n, k - from_high, true)?)))
        } else {
            let from_low = k.min(n);
            keep(&low, n, from_low, false)
                .and_then(|l| Ok(l.add(&keep(&high, t, k - from_low, false)?)))
        }
        .map_err(OddsError::Stopped)?;
        // P(T = t) · kept(x) = ways · w_high^t · w_low^n / denom^(n+t) · kept(x) / kept.denom,
        // and kept.denom is w_high^t · w_low^n.
        let scale = &ways * denom.pow(most - t);
        let expected = w_high.pow(t) * w_low.pow(n);
        if *kept.denom() != expected {
            return too_large("an explosion count whose odds do not add up".to_string());
        }
        pairs.extend(kept.iter().map(|(v, w)| (v, w * &scale)));
    }
    Ok(Dist::from_pairs(pairs, common))
}

/// What a pool's value comes from: a die with one value, or an exploding die's chain.
enum Source<'a> {
    /// One value from a distribution.
    Value(&'a Dist),
    /// A die thrown while its faces meet `on`, each throw a value of its own.
    Chain {
        throw: &'a Throw,
        on: ComparePoint,
        depth: u32,
        value: &'a dyn Fn(i64, bool) -> i64,
    },
}

/// A walk over a pool's values that holds, for each way the pool has gone so far, the values
/// that matter: the kept ones (keep) or the dropped ones and the sum of all (drop).
struct Pool {
    keep: Keep,
}

/// The values held (sorted, the extreme first) and the sum of every value's score.
type State = (Vec<i64>, i64);

impl Pool {
    /// How many values are held.
    fn slots(&self) -> usize {
        match self.keep {
            Keep::All => 0,
            Keep::Highest(k) | Keep::Lowest(k) | Keep::DropHighest(k) | Keep::DropLowest(k) => {
                k as usize
            }
        }
    }

    /// Whether the held values are the highest.
    fn holds_highest(&self) -> bool {
        matches!(self.keep, Keep::Highest(_) | Keep::DropHighest(_))
    }

    fn dropping(&self) -> bool {
        matches!(self.keep, Keep::DropHighest(_) | Keep::DropLowest(_))
    }

    fn add(&self, state: &State, value: i64, score: &dyn Fn(i64) -> i64) -> State {
        let (mut held, mut all) = state.clone();
        if self.dropping() {
            all += score(value);
        }
        let at = if self.holds_highest() {
            held.partition_point(|h| *h >= value)
        } else {
            held.partition_point(|h| *h <= value)
        };
        if at < self.slots() {
            held.insert(at, value);
            held.truncate(self.slots());
        }
        (held, all)
    }

    /// Two independent parts of the pool together: the extreme held values of both, and the
    /// sum of both.
    fn merge(&self, a: &State, b: &State) -> State {
        let mut held: Vec<i64> = a.0.iter().chain(&b.0).copied().collect();
        if self.holds_highest() {
            held.sort_unstable_by(|x, y| y.cmp(x));
        } else {
            held.sort_unstable();
        }
        held.truncate(self.slots());
        (held, a.1 + b.1)
    }

    fn result(&self, state: &State, score: &dyn Fn(i64) -> i64) -> i64 {
        let held: i64 = state.0.iter().map(|v| score(*v)).sum();
        if self.dropping() {
            state.1 - held
        } else {
            held
        }
    }

    /// The distribution of the kept values' scores over independent sources.
    fn walk<S: Stop>(
        keep: Keep,
        sources: &[Source],
        score: &dyn Fn(i64) -> i64,
        stop: &S,
    ) -> Worked<Dist, S> {
        let pool = Pool { keep };
        let mut states: HashMap<State, BigUint> =
            HashMap::from([((Vec::new(), 0), BigUint::one())]);
        let mut denom = BigUint::one();
        for source in sources {
            check(stop)?;
            let (outcomes, source_denom) = pool.source(source, score, stop)?;
            let mut next: HashMap<State, BigUint> = HashMap::new();
            for (state, w) in &states {
                for (outcome, wv) in &outcomes {
                    *next.entry(pool.merge(state, outcome)).or_default() += w * wv;
                }
                if next.len() > MOST_STATES {
                    return too_large(format!(
                        "keeping among these dice means following more than {MOST_STATES} \
                         ways the dice can fall"
                    ));
                }
            }
            states = next;
            denom *= source_denom;
        }
        let pairs: Vec<(i64, BigUint)> = states
            .into_iter()
            .map(|(s, w)| (pool.result(&s, score), w))
            .collect();
        dense(pairs, denom)
    }

    /// A source's outcomes as states of their own (the values held and the sum), each with
    /// its weight over the returned denominator.
    fn source<S: Stop>(
        &self,
        source: &Source,
        score: &dyn Fn(i64) -> i64,
        stop: &S,
    ) -> Worked<(Vec<(State, BigUint)>, BigUint), S> {
        let empty: State = (Vec::new(), 0);
        match source {
            Source::Value(d) => Ok((
                d.iter()
                    .map(|(v, w)| (self.add(&empty, v, score), w.clone()))
                    .collect(),
                d.denom().clone(),
            )),
            Source::Chain {
                throw,
                on,
                depth,
                value,
            } => {
                // Walk the chain: states still exploding, and those done (all over denom^step).
                let mut going: HashMap<State, BigUint> = HashMap::from([(empty, BigUint::one())]);
                let mut done: HashMap<State, BigUint> = HashMap::new();
                for step in 0..*depth {
                    check(stop)?;
                    for w in done.values_mut() {
                        *w *= &throw.denom;
                    }
                    let mut next: HashMap<State, BigUint> = HashMap::new();
                    for (state, w) in &going {
                        for (face, wf) in &throw.faces {
                            let s = self.add(state, value(*face, step > 0), score);
                            let into = if on.holds(*face) {
                                &mut next
                            } else {
                                &mut done
                            };
                            *into.entry(s).or_default() += w * wf;
                        }
                    }
                    if next.len() + done.len() > MOST_STATES {
                        return too_large(format!(
                            "keeping among exploding dice means following more than \
                             {MOST_STATES} ways a die can fall"
                        ));
                    }
                    going = next;
                }
                Ok((done.into_iter().collect(), throw.denom.pow(*depth)))
            }
        }
    }
}

fn group<S: Stop>(group: &Group, stop: &S) -> Worked<Dist, S> {
    let count = |v: i64| match group.target {
        Some(t) if t.holds(v) => 1,
        Some(_) if group.failure.is_some_and(|f| f.holds(v)) => -1,
        Some(_) => 0,
        None => v,
    };
    if group.members.len() == 1 && group.keep != Keep::All {
        let kept = keep_among_dice(&group.members[0], group.keep, stop)?;
        return Ok(kept.map(count));
    }
    let mut members = Vec::with_capacity(group.members.len());
    for m in &group.members {
        members.push(distribution(m, stop)?);
    }
    match (group.keep, group.target) {
        (Keep::All, _) => {
            let mut total = Dist::constant(0);
            for m in &members {
                check(stop)?;
                total = total.add(&m.map(count));
            }
            Ok(total)
        }
        (Keep::Highest(1), None) => Ok(Dist::max_of(&members)),
        (Keep::Lowest(1), None) => Ok(Dist::min_of(&members)),
        (keep, _) => {
            let sources: Vec<Source> = members.iter().map(Source::Value).collect();
            Pool::walk(keep, &sources, &count, stop)
        }
    }
}

/// A group of one roll keeping among its dice (`{4d6+3d8}k4`): every die of every roll in it
/// is a source of the pool.
fn keep_among_dice<S: Stop>(member: &Expr, keep: Keep, stop: &S) -> Worked<Dist, S> {
    let rolls = super::rolls_of(member);
    let throws: Vec<Throw> = rolls.iter().map(|r| Throw::of(r)).collect();
    let values: Vec<Dist> = rolls
        .iter()
        .zip(&throws)
        .map(|(r, t)| {
            let clamp = |v: i64| {
                let v = r.throw.min.map_or(v, |m| v.max(m));
                r.throw.max.map_or(v, |m| v.min(m))
            };
            match r.throw.explode {
                Some(e) if e.mode == ExplodeMode::Compound => {
                    chain_sum(t, &e.on, depth(t.p(&e.on)), &|v, _| clamp(v))
                }
                _ => Dist::from_pairs(
                    t.faces.iter().map(|(v, w)| (clamp(*v), w.clone())),
                    t.denom.clone(),
                ),
            }
        })
        .collect();
    let penetrates: Vec<bool> = rolls
        .iter()
        .map(|r| {
            r.throw
                .explode
                .is_some_and(|e| e.mode == ExplodeMode::Penetrate)
        })
        .collect();
    let value_fns: Vec<Box<dyn Fn(i64, bool) -> i64>> = rolls
        .iter()
        .zip(&penetrates)
        .map(|(r, pen)| {
            let (min, max, pen) = (r.throw.min, r.throw.max, *pen);
            Box::new(move |v: i64, later: bool| {
                let v = v - i64::from(pen && later);
                let v = min.map_or(v, |m| v.max(m));
                max.map_or(v, |m| v.min(m))
            }) as Box<dyn Fn(i64, bool) -> i64>
        })
        .collect();
    let mut sources = Vec::new();
    for (i, r) in rolls.iter().enumerate() {
        for _ in 0..r.count {
            sources.push(match r.throw.explode {
                Some(e) if e.mode != ExplodeMode::Compound => Source::Chain {
                    throw: &throws[i],
                    on: e.on,
                    depth: depth(throws[i].p(&e.on)),
                    value: value_fns[i].as_ref(),
                },
                _ => Source::Value(&values[i]),
            });
        }
    }
    Pool::walk(keep, &sources, &|v| v, stop)
}
