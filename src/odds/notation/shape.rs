//! What a read expression is, for the grammar's checks: its value when it has no dice, the
//! range of its results, a group of one roll's dice and what each counts, and the words for a
//! count that can never happen.

use super::faces::die_values;
use super::{BinaryOp, ComparePoint, DiceRoll, ExplodeMode, Expr, Function, Keep, MOST_THROWS};

/// Why `mt` is refused with the roll's other modifiers: matches are counted among all of a
/// roll's dice, each one value (a keep, a target or dice added by explosions would need a count
/// over pools of other sizes).
pub(super) const MATCH_REFUSALS: [&str; 3] = [
    "mt counts matches, a target counts dice: a roll does one or the other",
    "mt counts matches among all the dice: keep or drop them in a group instead ({4d6mt}kh1 \
     is not read either), or show them with m",
    "mt counts matches among dice of one value each: an explosion that adds dice (! or !p) is \
     not read with it; compound them with !!",
];

/// Why a roll's matching cannot be read, if it cannot.
pub(super) fn match_refusal(roll: &DiceRoll) -> Option<&'static str> {
    let counts = roll.matching.is_some_and(|m| m.counts);
    if !counts {
        return None;
    }
    if roll.target.is_some() {
        Some(MATCH_REFUSALS[0])
    } else if roll.keep != Keep::All {
        Some(MATCH_REFUSALS[1])
    } else if roll
        .throw
        .explode
        .is_some_and(|e| e.mode != ExplodeMode::Compound)
    {
        Some(MATCH_REFUSALS[2])
    } else {
        None
    }
}

/// Whether a group of one roll is a check, its total compared: it holds one die whose throws
/// make one value (no explosion that adds a die of its own), so counting each die is comparing
/// the total.
pub(super) fn is_a_check(member: &Expr) -> bool {
    let rolls = super::rolls_of(member);
    let dice: u32 = rolls.iter().map(|r| r.count).sum();
    dice == 1
        && rolls.iter().all(|r| {
            r.target.is_none()
                && r.throw
                    .explode
                    .is_none_or(|e| e.mode == ExplodeMode::Compound)
        })
}

/// The number a group of one roll adds to each of its dice: its numbers with their signs
/// (`3d20+5-1` adds 4). None when it is not dice and numbers added together (dice subtracted
/// or multiplied, a group inside).
pub(super) fn offset(expr: &Expr, negative: bool) -> Option<i64> {
    if !super::throws_dice(expr) && !matches!(expr, Expr::Roll(_)) {
        let value = constant(expr)?;
        return Some(if negative { -value } else { value });
    }
    match expr {
        Expr::Roll(_) if !negative => Some(0),
        Expr::Labeled(inner, _) => offset(inner, negative),
        Expr::Binary(BinaryOp::Add, a, b) => Some(offset(a, negative)? + offset(b, negative)?),
        Expr::Binary(BinaryOp::Subtract, a, b) => {
            Some(offset(a, negative)? + offset(b, !negative)?)
        }
        _ => None,
    }
}

/// The value of an expression without dice, if it is a whole number.
pub(super) fn constant(expr: &Expr) -> Option<i64> {
    let dist = super::odds::distribution(expr, &crate::odds::stop::Never).ok()?;
    let mut values = dist.iter().map(|(v, _)| v);
    let first = values.next()?;
    (values.next().is_none() && dist.is_whole()).then_some(first)
}

/// A group of one roll's dice, each counting `target` and `failure` (already shifted by the
/// numbers), with the numbers left out: the rolls added together. None when a roll counts a
/// target of its own.
pub(super) fn each_die_counts(
    expr: &Expr,
    target: Option<ComparePoint>,
    failure: Option<ComparePoint>,
) -> Option<Expr> {
    if !super::throws_dice(expr) && !matches!(expr, Expr::Roll(_)) {
        // A number: added to each die already.
        return Some(Expr::Number(0));
    }
    match expr {
        Expr::Roll(r) if r.target.is_none() => Some(Expr::Roll(Box::new(DiceRoll {
            target,
            failure,
            ..(**r).clone()
        }))),
        Expr::Labeled(inner, label) => Some(Expr::Labeled(
            Box::new(each_die_counts(inner, target, failure)?),
            label.clone(),
        )),
        Expr::Binary(BinaryOp::Add | BinaryOp::Subtract, a, b) => {
            let a = each_die_counts(a, target, failure)?;
            let b = each_die_counts(b, target, failure)?;
            Some(match (a, b) {
                (Expr::Number(0), b) => b,
                (a, Expr::Number(0)) => a,
                (a, b) => Expr::Binary(BinaryOp::Add, Box::new(a), Box::new(b)),
            })
        }
        _ => None,
    }
}

/// Whether a roll counting a target can never count a die: no value its dice can show meets
/// it (a compounding die's value has no top, so it can).
pub(super) fn never_counts(roll: &DiceRoll) -> bool {
    let Some(target) = roll.target else {
        return false;
    };
    if roll.count == 0
        || roll
            .throw
            .explode
            .is_some_and(|e| e.mode == ExplodeMode::Compound)
    {
        return false;
    }
    let penetrates = roll
        .throw
        .explode
        .is_some_and(|e| e.mode == ExplodeMode::Penetrate);
    die_values(roll.die)
        .into_iter()
        .flat_map(|v| if penetrates { vec![v, v - 1] } else { vec![v] })
        .map(|v| {
            let v = roll.throw.min.map_or(v, |m| v.max(m));
            roll.throw.max.map_or(v, |m| v.min(m))
        })
        .all(|v| !target.holds(v))
}

/// How many dice a group's one roll keeps among, when it is rolls added together with no
/// keep, drop or target of their own (`4d6+3d8`); None otherwise.
pub(super) fn single_roll_dice(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Roll(r) if r.keep == Keep::All && r.target.is_none() => Some(r.count as usize),
        Expr::Labeled(inner, _) => single_roll_dice(inner),
        Expr::Binary(BinaryOp::Add, a, b) => Some(single_roll_dice(a)? + single_roll_dice(b)?),
        _ => None,
    }
}

/// Whether an expression's values are whole numbers whatever the dice show: no division outside
/// a rounding function.
pub(super) fn whole(expr: &Expr) -> bool {
    match expr {
        Expr::Number(_) | Expr::Roll(_) | Expr::Group(_) => true,
        Expr::Call(Function::Abs, inner) | Expr::Negate(inner) | Expr::Labeled(inner, _) => {
            whole(inner)
        }
        Expr::Call(..) => true,
        Expr::Binary(BinaryOp::Divide, ..) => false,
        Expr::Binary(_, a, b) => whole(a) && whole(b),
    }
}

/// Most throws a die's chain may take (the physical roll's cap on throws bounds it too).
const MOST_LINKS: f64 = MOST_THROWS as f64;

/// "26", "41,000", "3.2 million": how rare something is, for a person.
pub(super) fn one_in_words(n: f64) -> String {
    if n < 1e4 {
        format!("{}", n.round())
    } else if n < 1e6 {
        let thousands = (n / 1e3).round() as u64;
        format!("{thousands},000")
    } else {
        format!("{:.1} million", n / 1e6)
    }
}

/// The smallest and largest value an expression can take (a bound: large enough to hold every
/// result, used to refuse divisions by a range holding 0 and results too large).
pub(super) fn range(expr: &Expr) -> (f64, f64) {
    match expr {
        Expr::Number(n) => (*n as f64, *n as f64),
        Expr::Roll(r) => {
            let values = die_values(r.die);
            let mut lo = values.iter().copied().min().unwrap_or(0) as f64;
            let mut hi = values.iter().copied().max().unwrap_or(0) as f64;
            if r.throw
                .explode
                .is_some_and(|e| e.mode == ExplodeMode::Penetrate)
            {
                lo -= 1.0;
            }
            let lo_clamped = r.throw.min.map_or(lo, |m| lo.max(m as f64));
            let hi_clamped = r.throw.max.map_or(hi, |m| hi.min(m as f64));
            (lo, hi) = (lo_clamped.min(hi_clamped), hi_clamped.max(lo_clamped));
            let links = if r.throw.explode.is_some() {
                MOST_LINKS
            } else {
                1.0
            };
            let most = f64::from(r.count) * links;
            if r.target.is_some() {
                return (if r.failure.is_some() { -most } else { 0.0 }, most);
            }
            let fewest = r.keep.kept_of(r.count as usize) as f64;
            let low = if lo >= 0.0 { fewest * lo } else { most * lo };
            let high = if hi >= 0.0 { most * hi } else { fewest * hi };
            (low, high)
        }
        Expr::Group(g) => {
            let n = g.members.len() as f64;
            if g.target.is_some() {
                return (if g.failure.is_some() { -n } else { 0.0 }, n);
            }
            let ranges: Vec<(f64, f64)> = g.members.iter().map(range).collect();
            if g.keep == Keep::All {
                ranges
                    .iter()
                    .fold((0.0, 0.0), |(lo, hi), (a, b)| (lo + a, hi + b))
            } else {
                ranges.iter().fold((0.0, 0.0), |(lo, hi), (a, b)| {
                    (lo + a.min(0.0), hi + b.max(0.0))
                })
            }
        }
        Expr::Negate(inner) => {
            let (lo, hi) = range(inner);
            (-hi, -lo)
        }
        Expr::Labeled(inner, _) => range(inner),
        Expr::Call(f, inner) => {
            let (lo, hi) = range(inner);
            match f {
                Function::Floor => (lo.floor(), hi.floor()),
                Function::Ceil => (lo.ceil(), hi.ceil()),
                Function::Round => ((lo + 0.5).floor(), (hi + 0.5).floor()),
                Function::Abs if lo >= 0.0 => (lo, hi),
                Function::Abs if hi <= 0.0 => (-hi, -lo),
                Function::Abs => (0.0, hi.max(-lo)),
            }
        }
        Expr::Binary(op, a, b) => {
            let (a0, a1) = range(a);
            let (b0, b1) = range(b);
            match op {
                BinaryOp::Add => (a0 + b0, a1 + b1),
                BinaryOp::Subtract => (a0 - b1, a1 - b0),
                BinaryOp::Multiply => {
                    let c = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
                    (
                        c.iter().copied().fold(f64::INFINITY, f64::min),
                        c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    )
                }
                BinaryOp::Divide if b0 > 0.0 || b1 < 0.0 => {
                    // A divisor of one sign: the extremes are at the corners.
                    let c = [a0 / b0, a0 / b1, a1 / b0, a1 / b1];
                    (
                        c.iter().copied().fold(f64::INFINITY, f64::min),
                        c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    )
                }
                BinaryOp::Divide => {
                    // The divisor's range does not hold 0 (refused before): its smallest size
                    // gives the largest quotient.
                    let smallest = b0.abs().min(b1.abs()).max(1e-9);
                    let size = a0.abs().max(a1.abs()) / smallest;
                    (-size, size)
                }
                BinaryOp::Remainder => {
                    let size = b0.abs().max(b1.abs());
                    (if a0 < 0.0 { -size } else { 0.0 }, size)
                }
                BinaryOp::Power => {
                    // Exponents are whole and 0 or more: the extremes are at the corners, and
                    // a negative base to an odd power is at most the largest size negated.
                    let corners = [a0.powf(b0), a0.powf(b1), a1.powf(b0), a1.powf(b1)];
                    let size = a0.abs().max(a1.abs()).powf(b1.max(1.0)).max(1.0);
                    if a0 < 0.0 {
                        (-size, size)
                    } else {
                        (
                            corners
                                .iter()
                                .copied()
                                .fold(f64::INFINITY, f64::min)
                                .min(1.0),
                            corners.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                        )
                    }
                }
            }
        }
    }
}
