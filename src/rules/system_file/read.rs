//! How a system move's faces are read: the throw's notation gives its total (a sum, the
//! highest die, a count of sixes: whatever the notation says), capped where the move caps it,
//! then counted against the dice it is read against; the bands' conditions pick the outcome.
//! The exact odds enumerate every throw (each roll's dice as a multiset, with its weight) and
//! read each one the same way, so the odds and the table can never disagree.

use crate::rules::Refusal;
use crate::rules::refusal::refuse;
use std::collections::BTreeMap;

use num_bigint::BigUint;

use crate::odds::notation::Notation;
use crate::odds::{Dist, Prob};
use crate::rules::{DieRole, RollPlan};

use super::{Amount, Band, Condition, DieDef, MOST_OUTCOMES};

/// A move's throw for one actor and one set of choices: notation filled in and parsed.
#[derive(Clone, Debug)]
pub struct Throw {
    /// The dice thrown and read.
    pub main: Notation,
    /// Whether `main` is the move's own throw (false: its `if_no_dice` throw).
    pub with_dice: bool,
    /// The dice read against, if any.
    pub against: Option<Notation>,
    /// The most the main total counts for.
    pub cap: Option<i64>,
    /// The game's own die each die of `main` is, in order (empty: numbered dice, read by
    /// the notation).
    pub own: Vec<DieDef>,
    /// For the game's own dice: the value the result is.
    pub result: Option<String>,
    /// The throw as the file writes it, its own dice by name (`2d{Ability}`).
    pub written: String,
}

/// What a throw came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The main notation's total, capped.
    pub total: i64,
    /// The result the bands read: the total, or how many dice read against it beats.
    pub value: i64,
    /// The faces of the main throw's dice.
    pub main_faces: Vec<u32>,
    /// The faces of the dice read against.
    pub against_faces: Vec<u32>,
    /// What the game's own dice count for, by value, over the whole throw.
    pub counts: BTreeMap<String, i64>,
    /// Whether the main throw was the move's own.
    pub with_dice: bool,
    /// The main throw written out (`(4+5)+1 = 10`).
    pub shown: String,
}

/// The physical sides of every die of a notation, refusing one that is not a plain die
/// thrown once (a system move's odds read each die once).
pub fn plain_dice(n: &Notation) -> Result<Vec<u32>, Refusal> {
    let mut out = Vec::new();
    for d in n.dice() {
        let sides = d.sides();
        let plain = crate::odds::notation::SIDES.contains(&sides)
            && d.physical_sides() == sides
            && (1..=sides).all(|f| !d.needs_another(&[f]));
        if !plain {
            return Err(refuse!(
                Faces,
                "\"{}\" throws a {}: a system move throws d4, d6, d8, d10, d12, d20 or d100 dice, each once (no rerolls or exploding dice)",
                n.source(),
                d.name()
            ));
        }
        out.push(sides);
    }
    Ok(out)
}

impl Throw {
    /// A throw of numbered dice, read by its notation.
    pub fn numbered(
        main: Notation,
        with_dice: bool,
        against: Option<Notation>,
        cap: Option<i64>,
    ) -> Throw {
        Throw {
            written: main.source().to_string(),
            main,
            with_dice,
            against,
            cap,
            own: Vec::new(),
            result: None,
        }
    }

    /// Every value the game's own dice of the throw count for, each at 0: a tally to add
    /// faces into, so a value no face thrown shows still reads 0.
    fn zero_tally(&self) -> BTreeMap<String, i64> {
        self.own
            .iter()
            .flat_map(|d| d.faces.iter().flat_map(|f| f.counts.keys()))
            .map(|v| (v.clone(), 0))
            .collect()
    }
    /// Every die thrown, main then against, by sides.
    pub fn sides(&self) -> Result<Vec<u32>, Refusal> {
        let mut sides = plain_dice(&self.main)?;
        if let Some(a) = &self.against {
            sides.extend(plain_dice(a)?);
        }
        Ok(sides)
    }

    /// The plan of the throw: the main dice for `purpose`, the dice read against beside them.
    pub fn plan(&self, purpose: String, actor: &str) -> Result<RollPlan, Refusal> {
        if !self.own.is_empty() {
            return Ok(self.own_plan(purpose, actor));
        }
        let mut plan = RollPlan::new(purpose);
        for sides in plain_dice(&self.main)? {
            plan = plan.with(1, sides, DieRole::Pool, &format!("{actor}'s d{sides}"));
        }
        if let Some(a) = &self.against {
            for sides in plain_dice(a)? {
                plan = plan.with(
                    1,
                    sides,
                    DieRole::Difficulty,
                    &format!("challenge d{sides}"),
                );
            }
        }
        Ok(plan)
    }

    /// The plan of a throw of the game's own dice: each die with its name and marks.
    fn own_plan(&self, purpose: String, actor: &str) -> RollPlan {
        let mut plan = RollPlan::new(purpose);
        for die in &self.own {
            plan.dice.push(
                crate::rules::PlannedDie::new(
                    die.shape.faces(),
                    DieRole::Pool,
                    format!("{actor}'s {}", die.name),
                )
                .marked(die.marks())
                .in_look(die.look),
            );
        }
        plan
    }

    /// Reads a throw of the game's own dice: what its faces count for, the result the value
    /// the move names.
    fn read_own(&self, faces: &[u32]) -> Result<Reading, Refusal> {
        if faces.len() != self.own.len() {
            return Err(refuse!(
                Faces,
                "{} faces for a throw of {} dice",
                faces.len(),
                self.own.len()
            ));
        }
        let mut counts = self.zero_tally();
        let mut said = Vec::new();
        for (die, value) in self.own.iter().zip(faces) {
            let face = die.face(*value).ok_or_else(|| {
                refuse!(
                    Faces,
                    "face {value} of a {} ({}), which has {}",
                    die.name,
                    die.shape.name(),
                    die.faces.len()
                )
            })?;
            for (v, n) in &face.counts {
                *counts.entry(v.clone()).or_default() += n;
            }
            said.push(format!("{} {}", die.name, face.words()));
        }
        let value = self
            .result
            .as_ref()
            .and_then(|r| counts.get(r))
            .copied()
            .unwrap_or(0);
        let tally: Vec<String> = counts.iter().map(|(v, n)| format!("{v} {n}")).collect();
        Ok(Reading {
            total: value,
            value,
            main_faces: faces.to_vec(),
            against_faces: Vec::new(),
            counts,
            with_dice: self.with_dice,
            shown: format!("{} = {}", said.join(", "), tally.join(", ")),
        })
    }

    /// The exact odds of a throw of the game's own dice: each die's faces added into what
    /// they count for, value by value (the throws that count alike are read once).
    fn exact_own(
        &self,
        bands: &[Band],
        amount: &impl Fn(&Amount) -> i64,
    ) -> Result<(Dist, Vec<Prob>), Refusal> {
        let names: Vec<String> = self.zero_tally().into_keys().collect();
        let mut sums: BTreeMap<Vec<i64>, u128> = BTreeMap::from([(vec![0; names.len()], 1)]);
        let mut denom: u128 = 1;
        for die in &self.own {
            let mut next: BTreeMap<Vec<i64>, u128> = BTreeMap::new();
            for (sum, w) in &sums {
                for face in &die.faces {
                    let mut s = sum.clone();
                    for (k, name) in names.iter().enumerate() {
                        s[k] += face.counts.get(name).copied().unwrap_or(0);
                    }
                    *next.entry(s).or_default() += w;
                }
            }
            sums = next;
            denom = denom.saturating_mul(die.faces.len() as u128);
            if sums.len() as u64 > MOST_OUTCOMES {
                return Err(refuse!(
                    Faces,
                    "its exact odds would read over {MOST_OUTCOMES} different tallies; a system move reads at most {MOST_OUTCOMES}"
                ));
            }
        }
        let result = self.result.as_deref().unwrap_or_default();
        let mut values: BTreeMap<i64, u128> = BTreeMap::new();
        let mut band_weights = vec![0u128; bands.len()];
        for (sum, w) in sums {
            let counts: BTreeMap<String, i64> = names.iter().cloned().zip(sum).collect();
            let value = counts.get(result).copied().unwrap_or(0);
            let r = Reading {
                total: value,
                value,
                main_faces: Vec::new(),
                against_faces: Vec::new(),
                counts,
                with_dice: self.with_dice,
                shown: String::new(),
            };
            *values.entry(value).or_default() += w;
            if let Some(b) = band_weights.get_mut(band_of(bands, &r, amount)) {
                *b += w;
            }
        }
        let bands = band_weights.into_iter().map(|w| chance(w, denom)).collect();
        Ok((weighed(values, denom), bands))
    }

    /// Reads the faces of the whole throw (main, then against).
    pub fn read(&self, faces: &[u32]) -> Result<Reading, Refusal> {
        if !self.own.is_empty() {
            return self.read_own(faces);
        }
        let main_count = self.main.dice().len();
        let against_count = self.against.as_ref().map_or(0, |a| a.dice().len());
        if faces.len() != main_count + against_count {
            return Err(refuse!(
                Faces,
                "{} faces for a throw of {} dice",
                faces.len(),
                main_count + against_count
            ));
        }
        let (main_faces, against_faces) = faces.split_at(main_count);
        let chains: Vec<Vec<u32>> = main_faces.iter().map(|f| vec![*f]).collect();
        let result = self
            .main
            .evaluate(&chains)
            .map_err(|e| refuse!(Faces, "{}", e.0))?;
        let whole = result.total.as_whole().ok_or_else(|| {
            refuse!(
                Choice,
                "\"{}\" comes to a fraction; a system move's throw comes to a whole number",
                self.main.source()
            )
        })?;
        let total = self.cap.map_or(whole, |cap| whole.min(cap));
        // Read against dice: how many of them the total beats (a tie goes to the die).
        let value = match &self.against {
            None => total,
            Some(_) => against_faces
                .iter()
                .filter(|f| total > i64::from(**f))
                .count() as i64,
        };
        Ok(Reading {
            total,
            value,
            main_faces: main_faces.to_vec(),
            against_faces: against_faces.to_vec(),
            counts: BTreeMap::new(),
            with_dice: self.with_dice,
            shown: result.shown,
        })
    }

    /// Whether the throw's exact odds can be worked out (at most [`MOST_OUTCOMES`] throws
    /// to read), and if not, why.
    pub fn within_reach(&self) -> Result<(), Refusal> {
        if !self.own.is_empty() {
            // Read by tallies, not throw by throw: worked out once to see it fits.
            return self.exact_own(&[], &|_| 0).map(|_| ());
        }
        let sides = self.sides()?;
        let count = outcomes(&sides, &self.blocks(), &vec![None; sides.len()]);
        if count > MOST_OUTCOMES {
            return Err(refuse!(
                Faces,
                "\"{}\" would read {count} different throws for its exact odds; a system move reads at most {MOST_OUTCOMES}",
                self.main.source()
            ));
        }
        Ok(())
    }

    /// The groups of dice whose faces may be taken as a multiset: each roll of each notation,
    /// by position in the whole throw.
    fn blocks(&self) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let mut at = 0;
        let notations = std::iter::once(&self.main).chain(self.against.as_ref());
        for n in notations {
            for size in n.roll_sizes() {
                out.push((at..at + size).collect());
                at += size;
            }
        }
        out
    }
}

/// Whether a condition holds of a reading; `amount` gives a named number its value.
pub fn holds(c: &Condition, r: &Reading, amount: &impl Fn(&Amount) -> i64) -> bool {
    match c {
        Condition::AtLeast(a) => r.value >= amount(a),
        Condition::AtMost(a) => r.value <= amount(a),
        Condition::Faces { face, at_least } => {
            r.main_faces.iter().filter(|f| *f == face).count() >= *at_least as usize
        }
        Condition::Match => {
            r.against_faces.len() >= 2 && r.against_faces.iter().all(|f| *f == r.against_faces[0])
        }
        Condition::WithDice => r.with_dice,
        Condition::Count { value, at_least } => {
            r.counts.get(value).copied().unwrap_or(0) >= *at_least
        }
        Condition::CountAtMost { value, at_most } => {
            r.counts.get(value).copied().unwrap_or(0) <= *at_most
        }
    }
}

/// The first band whose conditions all hold (the last has none, so there is always one).
pub fn band_of(bands: &[Band], r: &Reading, amount: &impl Fn(&Amount) -> i64) -> usize {
    bands
        .iter()
        .position(|b| b.when.iter().all(|c| holds(c, r, amount)))
        .unwrap_or(bands.len().saturating_sub(1))
}

/// The dice of each block that are thrown (not kept in `fixed`), with the block's sides: the
/// runs of faces to enumerate.
fn free_blocks(
    sides: &[u32],
    blocks: &[Vec<usize>],
    fixed: &[Option<u32>],
) -> Vec<(Vec<usize>, u32)> {
    blocks
        .iter()
        .filter_map(|b| {
            let free: Vec<usize> = b.iter().copied().filter(|&i| fixed[i].is_none()).collect();
            let s = *sides.get(*free.first()?)?;
            Some((free, s))
        })
        .collect()
}

/// How many distinct throws the odds of `throw` enumerate, with `fixed` faces kept (a push).
pub fn outcomes(sides: &[u32], blocks: &[Vec<usize>], fixed: &[Option<u32>]) -> u64 {
    free_blocks(sides, blocks, fixed)
        .iter()
        .fold(1u64, |count, (free, s)| {
            count.saturating_mul(multisets(free.len() as u64, u64::from(*s)))
        })
}

/// Visits every throw of dice of `sides` in `blocks`, the `fixed` faces kept, each once with
/// its weight; returns the denominator of the weights.
fn each_throw(
    sides: &[u32],
    blocks: &[Vec<usize>],
    fixed: &[Option<u32>],
    visit: &mut impl FnMut(&[u32], u128),
) -> u128 {
    let free = free_blocks(sides, blocks, fixed);
    let mut faces: Vec<u32> = fixed.iter().map(|f| f.unwrap_or(1)).collect();
    walk(&free, 0, &mut faces, 1, visit);
    free.iter()
        .map(|(b, s)| u128::from(*s).pow(b.len() as u32))
        .product()
}

/// A distribution from the weights of its values out of `denom`.
pub fn weighed(values: BTreeMap<i64, u128>, denom: u128) -> Dist {
    Dist::from_pairs(
        values.into_iter().map(|(v, w)| (v, BigUint::from(w))),
        BigUint::from(denom),
    )
}

/// A chance of `weight` out of `denom`.
pub fn chance(weight: u128, denom: u128) -> Prob {
    Prob::new(BigUint::from(weight), BigUint::from(denom))
}

/// The number of multisets of `n` faces of a die of `s` sides: C(n + s - 1, s - 1).
fn multisets(n: u64, s: u64) -> u64 {
    let k = n.min(s - 1);
    let mut out: u128 = 1;
    for i in 0..k {
        out = out * u128::from(n + s - 1 - i) / u128::from(i + 1);
        if out > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    out as u64
}

/// The exact odds of a throw: the distribution of the value, and each band's probability.
/// `fixed` keeps some faces (a push throws the others again); None where it would enumerate
/// more than [`MOST_OUTCOMES`] throws.
pub fn exact(
    throw: &Throw,
    fixed: &[Option<u32>],
    bands: &[Band],
    amount: &impl Fn(&Amount) -> i64,
) -> Result<(Dist, Vec<Prob>), Refusal> {
    if !throw.own.is_empty() {
        return throw.exact_own(bands, amount);
    }
    let sides = throw.sides()?;
    let blocks = throw.blocks();
    if fixed.len() != sides.len() {
        return Err(refuse!(
            Choice,
            "{} kept faces for {} dice",
            fixed.len(),
            sides.len()
        ));
    }
    let count = outcomes(&sides, &blocks, fixed);
    if count > MOST_OUTCOMES {
        return Err(refuse!(
            Faces,
            "its exact odds would read {count} different throws; a system move reads at most {MOST_OUTCOMES}"
        ));
    }
    let mut values: BTreeMap<i64, u128> = BTreeMap::new();
    let mut band_weights = vec![0u128; bands.len()];
    let mut failure = None;
    let denom = each_throw(
        &sides,
        &blocks,
        fixed,
        &mut |faces, weight| match throw.read(faces) {
            Ok(r) => {
                *values.entry(r.value).or_default() += weight;
                band_weights[band_of(bands, &r, amount)] += weight;
            }
            Err(e) => failure = Some(e),
        },
    );
    if let Some(e) = failure {
        return Err(e);
    }
    let bands = band_weights.into_iter().map(|w| chance(w, denom)).collect();
    Ok((weighed(values, denom), bands))
}

/// Visits every throw of `throws` side by side (each its own dice, in order), each once with
/// its weight out of the denominator it returns; None where there would be more than
/// [`MOST_OUTCOMES`] to visit.
pub fn each_throw_of(
    throws: &[Throw],
    mut visit: impl FnMut(&[u32], u128),
) -> Result<Option<u128>, Refusal> {
    let mut blocks = Vec::new();
    let mut sides = Vec::new();
    for t in throws {
        let at = sides.len();
        for b in t.blocks() {
            blocks.push(b.iter().map(|i| i + at).collect::<Vec<_>>());
        }
        sides.extend(t.sides()?);
    }
    let fixed = vec![None; sides.len()];
    if outcomes(&sides, &blocks, &fixed) > MOST_OUTCOMES {
        return Ok(None);
    }
    Ok(Some(each_throw(&sides, &blocks, &fixed, &mut visit)))
}

/// Visits every throw of the free blocks from `k` on: each block's faces as a non-decreasing
/// run (a multiset), weighted by the orders it can come in.
fn walk(
    blocks: &[(Vec<usize>, u32)],
    k: usize,
    faces: &mut Vec<u32>,
    weight: u128,
    visit: &mut impl FnMut(&[u32], u128),
) {
    let Some((positions, sides)) = blocks.get(k) else {
        visit(faces, weight);
        return;
    };
    let mut run = vec![1u32; positions.len()];
    loop {
        for (p, f) in positions.iter().zip(&run) {
            faces[*p] = *f;
        }
        walk(blocks, k + 1, faces, weight * orders(&run), visit);
        // The next non-decreasing run.
        let Some(i) = run.iter().rposition(|f| f < sides) else {
            return;
        };
        let next = run[i] + 1;
        for f in &mut run[i..] {
            *f = next;
        }
    }
}

/// How many orders a sorted run of faces comes in: n! / (each face's count)!.
fn orders(run: &[u32]) -> u128 {
    let mut out: u128 = 1;
    let mut same = 0u128;
    for (i, f) in run.iter().enumerate() {
        same = if i > 0 && run[i - 1] == *f {
            same + 1
        } else {
            1
        };
        // n!/(∏ m!) built one factor at a time stays whole: C(i+1, same) steps.
        out = out * (i as u128 + 1) / same;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runs_orders_are_its_multinomial() {
        assert_eq!(orders(&[1, 2, 3]), 6);
        assert_eq!(orders(&[6, 6]), 1);
        assert_eq!(orders(&[1, 1, 2]), 3);
        assert_eq!(orders(&[1, 1, 2, 2]), 6);
        assert_eq!(orders(&[]), 1);
        assert_eq!(multisets(2, 6), 21);
        assert_eq!(multisets(12, 6), 6188);
        assert_eq!(multisets(1, 20), 20);
    }
}
