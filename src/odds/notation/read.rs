//! Reading settled faces into a result: every die shown (kept or dropped, rerolled faces,
//! explosions, successes, failures, criticals), the total or the successes, and the roll
//! written out as Roll20 writes it, `(6+5+~2~3+(1)) = 14`.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use super::process::NotationDie;
use super::{
    BinaryOp, CompareOp, ComparePoint, DiceRoll, Die, ExplodeMode, Expr, Function, Group, Keep,
    Measure, Notation, Sort,
};
use crate::odds::Total;

/// A die as shown in a result: one throw that counts (an exploding die's extra throws are dice
/// of their own, as in Roll20; a compounding die's throws are one die).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShownDie {
    /// The die: "d6", "d100", "dF".
    pub die: String,
    /// What it counts for.
    pub value: i64,
    /// Values thrown and rerolled before it (struck through).
    pub rerolled: Vec<i64>,
    /// A compounding die's throws, added up into `value` (empty for other dice).
    pub compounded: Vec<i64>,
    /// This throw exploded: the die was thrown again and the next shown die is that throw.
    pub exploded: bool,
    /// Thrown because the die before it exploded.
    pub extra: bool,
    /// Whether it counts (keep and drop).
    pub kept: bool,
    /// It met the roll's target number.
    pub success: bool,
    /// It met the roll's failure number.
    pub failure: bool,
    /// Marked critical (`cs`, `cf`, or the top and bottom faces).
    pub critical: Option<Critical>,
    /// It shows the same value as others of its roll, enough of them to make a match (`m`,
    /// `mt`).
    #[serde(default)]
    pub matched: bool,
    /// The label of the roll it belongs to (`[fire]`).
    pub label: Option<String>,
    /// Which die of `Notation::dice()` threw it.
    pub slot: usize,
}

/// A critical marker on a die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Critical {
    /// A critical success (`cs`, by default the top face).
    Success,
    /// A critical failure (`cf`, by default the bottom face).
    Failure,
}

impl ShownDie {
    /// One value of this die as written: a number, or a Fate die's mark (`−`, `0`, `+`).
    pub fn face(&self, value: i64) -> String {
        if self.die == "dF" {
            match value.signum() {
                1 => "+".to_string(),
                -1 => "−".to_string(),
                _ => "0".to_string(),
            }
        } else {
            value.to_string()
        }
    }

    /// The die as text: `~1~4` (1 rerolled, then 4), `6!` (exploded), `(2)` (dropped), `8✔`
    /// (a success), `1✖` (a failure), `20★` / `1☠` (critical), `15=6+6+3` (compounded).
    pub fn text(&self) -> String {
        let face = |v: i64| self.face(v);
        let mut out: String = self
            .rerolled
            .iter()
            .map(|r| format!("~{}~", face(*r)))
            .collect();
        if self.compounded.len() > 1 {
            let parts: Vec<String> = self.compounded.iter().map(|v| face(*v)).collect();
            out.push_str(&format!("{}={}", self.value, parts.join("+")));
        } else {
            out.push_str(&face(self.value));
        }
        if self.exploded {
            out.push('!');
        }
        if self.success {
            out.push('✔');
        }
        if self.failure {
            out.push('✖');
        }
        match self.critical {
            Some(Critical::Success) => out.push('★'),
            Some(Critical::Failure) => out.push('☠'),
            None => {}
        }
        if self.matched {
            out.push('≡');
        }
        if self.kept { out } else { format!("({out})") }
    }
}

/// What a set of settled faces makes of a notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationResult {
    /// The result: the total (a fraction where a division is left unrounded, `3d6/2`), or
    /// the count of successes.
    pub total: Total,
    /// Which of the two `total` is.
    pub measure: Measure,
    /// Pass or fail, when the notation is a check (`{1d20+5}>15`).
    pub success: Option<bool>,
    /// Every die shown, in throw order (sorted where the roll sorts them).
    pub dice: Vec<ShownDie>,
    /// The roll written out: `(6+5+(2)+3) = 14`.
    pub shown: String,
}

/// Reads `chains` (one per die of `notation.dice()`) into the result.
pub(super) fn evaluate(notation: &Notation, chains: &[Vec<u32>]) -> Result<NotationResult, String> {
    let expected = notation.dice();
    if chains.len() != expected.len() {
        return Err(format!(
            "{} dice settled but the notation throws {}",
            chains.len(),
            expected.len()
        ));
    }
    let mut reader = Reader {
        chains,
        dice: &expected,
        cursor: 0,
        shown: Vec::new(),
        label: None,
        group_total: None,
    };
    let (value, text) = reader.expr(&notation.expr)?;
    // A check is its total, passed or failed.
    let check = notation.check();
    let value = match (&check, reader.group_total.take()) {
        (Some(_), Some(total)) => total,
        _ => value,
    };
    let total = Total::of_ratio(&value).ok_or_else(|| "the result is too large".to_string())?;
    let measure = notation.measure();
    let passes = |point: ComparePoint| meets(&point, &value);
    let ending = match (measure, check, total.as_whole()) {
        (_, Some(point), _) if passes(point) => format!("{total}, success"),
        (_, Some(_), _) => format!("{total}, failure"),
        (Measure::Successes, None, Some(n)) => crate::text::plural(n, "success", "successes"),
        (Measure::Matches, None, Some(n)) => crate::text::plural(n, "match", "matches"),
        _ => total.to_string(),
    };
    Ok(NotationResult {
        total,
        measure,
        success: check.map(passes),
        dice: reader.shown,
        shown: format!("{text} = {ending}"),
    })
}

struct Reader<'a> {
    chains: &'a [Vec<u32>],
    dice: &'a [NotationDie],
    cursor: usize,
    shown: Vec<ShownDie>,
    label: Option<String>,
    /// The total of the last group of one roll read (before its target counted it).
    group_total: Option<BigRational>,
}

fn ratio(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

/// Whether a (possibly fractional) value meets a compare point.
fn meets(point: &ComparePoint, value: &BigRational) -> bool {
    let target = ratio(point.target);
    match point.op {
        CompareOp::Equal => *value == target,
        CompareOp::AtLeast => *value >= target,
        CompareOp::AtMost => *value <= target,
    }
}

/// Indices of the kept ones among `values`: the highest or lowest first, ties to the earlier.
fn kept_indices<T: Ord>(values: &[T], keep: Keep) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    if keep.keeps_highest() {
        order.sort_by(|&a, &b| values[b].cmp(&values[a]).then(a.cmp(&b)));
    } else {
        order.sort_by(|&a, &b| values[a].cmp(&values[b]).then(a.cmp(&b)));
    }
    order.truncate(keep.kept_of(values.len()));
    order.sort_unstable();
    order
}

impl Reader<'_> {
    fn expr(&mut self, expr: &Expr) -> Result<(BigRational, String), String> {
        match expr {
            Expr::Number(n) => Ok((ratio(*n), n.to_string())),
            Expr::Roll(r) => self.roll(r),
            Expr::Group(g) => self.group(g),
            Expr::Negate(inner) => {
                let (v, t) = self.expr(inner)?;
                Ok((-v, format!("-{t}")))
            }
            Expr::Labeled(inner, label) => {
                let outer = self.label.replace(label.clone());
                let result = self.expr(inner);
                self.label = outer;
                let (v, t) = result?;
                Ok((v, format!("{t}[{label}]")))
            }
            Expr::Call(f, inner) => {
                let (v, t) = self.expr(inner)?;
                let (value, name) = match f {
                    Function::Floor => (v.floor(), "floor"),
                    Function::Ceil => (v.ceil(), "ceil"),
                    Function::Round => {
                        ((v + BigRational::new(1.into(), 2.into())).floor(), "round")
                    }
                    Function::Abs => (v.abs(), "abs"),
                };
                Ok((value, format!("{name}({t})")))
            }
            Expr::Binary(op, a, b) => {
                let (x, tx) = self.expr(a)?;
                let (y, ty) = self.expr(b)?;
                let (value, sign) = match op {
                    BinaryOp::Add => (x + y, "+"),
                    BinaryOp::Subtract => (x - y, "-"),
                    BinaryOp::Multiply => (x * y, "*"),
                    BinaryOp::Divide | BinaryOp::Remainder if y.is_zero() => {
                        return Err("a division by 0".to_string());
                    }
                    BinaryOp::Divide => (x / y, "/"),
                    BinaryOp::Remainder => {
                        let quotient = (&x / &y).trunc();
                        (&x - &y * quotient, "%")
                    }
                    BinaryOp::Power => {
                        let exponent = y
                            .to_integer()
                            .to_u32()
                            .filter(|_| y.is_integer())
                            .ok_or_else(|| format!("an exponent of {y}"))?;
                        (super::power(&x, exponent), "**")
                    }
                };
                Ok((value, format!("{tx}{sign}{ty}")))
            }
        }
    }

    fn roll(&mut self, roll: &DiceRoll) -> Result<(BigRational, String), String> {
        if roll.count == 0 {
            // No dice (`0d0` beside a roll): nothing, written as Roll20 writes it.
            return Ok((BigRational::zero(), "0".to_string()));
        }
        let start = self.shown.len();
        let values_of = super::faces::die_values(roll.die);
        let (top, bottom) = (
            values_of.iter().copied().max().unwrap_or(1),
            values_of.iter().copied().min().unwrap_or(1),
        );
        for _ in 0..roll.count {
            let slot = self.cursor;
            let (Some(die), Some(chain)) = (self.dice.get(slot), self.chains.get(slot)) else {
                return Err("fewer dice settled than the notation throws".to_string());
            };
            self.cursor += 1;
            let (links, done) = die.links(chain)?;
            if !done {
                return Err(format!(
                    "die {} ({}) still has to be thrown again",
                    slot + 1,
                    die.name()
                ));
            }
            let critical = |face: i64| {
                let marked = |points: &[ComparePoint], default: i64| {
                    if points.is_empty() {
                        roll.die != Die::Fate && face == default
                    } else {
                        points.iter().any(|c| c.holds(face))
                    }
                };
                let success = marked(&roll.critical_success, top);
                let failure = marked(&roll.critical_failure, bottom);
                if success {
                    Some(Critical::Success)
                } else if failure {
                    Some(Critical::Failure)
                } else {
                    None
                }
            };
            let base = ShownDie {
                die: die.name(),
                value: 0,
                rerolled: Vec::new(),
                compounded: Vec::new(),
                exploded: false,
                extra: false,
                kept: true,
                success: false,
                failure: false,
                critical: None,
                matched: false,
                label: self.label.clone(),
                slot,
            };
            let compound = roll
                .throw
                .explode
                .is_some_and(|e| e.mode == ExplodeMode::Compound);
            if compound {
                let first = links.first().map_or(0, |l| l.face);
                self.shown.push(ShownDie {
                    value: links.iter().map(|l| l.value).sum(),
                    rerolled: links.iter().flat_map(|l| l.rerolled.clone()).collect(),
                    compounded: links.iter().map(|l| l.value).collect(),
                    exploded: false,
                    critical: critical(first),
                    ..base
                });
            } else {
                for (j, link) in links.iter().enumerate() {
                    self.shown.push(ShownDie {
                        value: link.value,
                        rerolled: link.rerolled.clone(),
                        exploded: link.explodes,
                        extra: j > 0,
                        critical: critical(link.face),
                        ..base.clone()
                    });
                }
            }
        }
        let values: Vec<i64> = self.shown[start..].iter().map(|d| d.value).collect();
        let kept = kept_indices(&values, roll.keep);
        let mut total = 0i64;
        for (i, shown) in self.shown[start..].iter_mut().enumerate() {
            shown.kept = kept.binary_search(&i).is_ok();
            if !shown.kept {
                continue;
            }
            match roll.target {
                Some(target) => {
                    shown.success = target.holds(shown.value);
                    shown.failure =
                        !shown.success && roll.failure.is_some_and(|f| f.holds(shown.value));
                    total += i64::from(shown.success) - i64::from(shown.failure);
                }
                None => total += shown.value,
            }
        }
        if let Some(matching) = roll.matching {
            // Among the dice that count, each value shown by at least `at_least` of them.
            let mut shown_by: BTreeMap<i64, u32> = BTreeMap::new();
            for shown in self.shown[start..].iter().filter(|d| d.kept) {
                *shown_by.entry(shown.value).or_default() += 1;
            }
            let matched = |v: i64| shown_by.get(&v).is_some_and(|n| *n >= matching.at_least);
            for shown in self.shown[start..].iter_mut().filter(|d| d.kept) {
                shown.matched = matched(shown.value);
            }
            if matching.counts {
                total = shown_by
                    .values()
                    .filter(|n| **n >= matching.at_least)
                    .count() as i64;
            }
        }
        match roll.sort {
            Sort::Thrown => {}
            Sort::Ascending => self.shown[start..].sort_by_key(|d| d.value),
            Sort::Descending => self.shown[start..].sort_by_key(|d| std::cmp::Reverse(d.value)),
        }
        let parts: Vec<String> = self.shown[start..].iter().map(ShownDie::text).collect();
        // Fate dice show + and −: commas keep them apart, so "(0, +, −)" cannot read as sums.
        let between = if roll.die == Die::Fate { ", " } else { "+" };
        Ok((ratio(total), format!("({})", parts.join(between))))
    }

    fn group(&mut self, group: &Group) -> Result<(BigRational, String), String> {
        let mut members = Vec::new();
        let mut texts = Vec::new();
        for m in &group.members {
            let start = self.shown.len();
            let (v, t) = self.expr(m)?;
            members.push((v, start, self.shown.len()));
            texts.push(t);
        }
        let text = |kept: &[usize]| {
            let parts: Vec<String> = texts
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    if kept.binary_search(&i).is_ok() {
                        t.clone()
                    } else {
                        format!("({t})")
                    }
                })
                .collect();
            format!("{{{}}}", parts.join(", "))
        };
        let count = |value: &BigRational| -> i64 {
            match group.target {
                Some(target) if meets(&target, value) => 1,
                Some(_) if group.failure.is_some_and(|f| meets(&f, value)) => -1,
                _ => 0,
            }
        };
        if members.len() == 1 && group.keep != Keep::All {
            // Keep among the one roll's dice.
            let (_, start, end) = members[0].clone();
            let values: Vec<i64> = self.shown[start..end].iter().map(|d| d.value).collect();
            let kept = kept_indices(&values, group.keep);
            let mut sum = 0i64;
            for (i, shown) in self.shown[start..end].iter_mut().enumerate() {
                shown.kept = kept.binary_search(&i).is_ok();
                if shown.kept {
                    sum += shown.value;
                }
            }
            // Shown as one pool: the dice kept among are all the roll's.
            let dice: Vec<String> = self.shown[start..end].iter().map(ShownDie::text).collect();
            let text = format!("{{({})}}", dice.join("+"));
            let sum = ratio(sum);
            self.group_total = Some(sum.clone());
            let value = if group.target.is_some() {
                ratio(count(&sum))
            } else {
                sum
            };
            return Ok((value, text));
        }
        if members.len() == 1 || group.keep == Keep::All {
            // A check's total: its one roll's (the others of `{3d6+5,0d0}` are nothing).
            self.group_total = Some(
                members
                    .iter()
                    .fold(BigRational::zero(), |sum, (v, _, _)| sum + v),
            );
        }
        let values: Vec<BigRational> = members.iter().map(|(v, _, _)| v.clone()).collect();
        let kept = kept_indices(&values, group.keep);
        let text = text(&kept);
        let mut total = BigRational::zero();
        for (i, (v, start, end)) in members.iter().enumerate() {
            if kept.binary_search(&i).is_err() {
                self.shown[*start..*end]
                    .iter_mut()
                    .for_each(|d| d.kept = false);
                continue;
            }
            total += if group.target.is_some() {
                ratio(count(v))
            } else {
                v.clone()
            };
        }
        Ok((total, text))
    }
}
