//! Dice notation as Roll20 reads it: `3d6+2`, `8d10>7`, `4d6!!`, `3d6r<2`, `{3d6+5}>15`,
//! `4dF`, `floor(3d6/2)`, `2d6[slashing]+1d6[fire]`. The grammar, every form's meaning and the
//! differences from Foundry and rpg-dice-roller are in `docs/notation.md`.
//!
//! One parse serves the exact odds ([`Notation::distribution`]), the physical throw
//! ([`Notation::dice`] lists the dice, [`NotationDie::needs_another`] says when a die is thrown
//! again: a reroll, an explosion) and the reading of the settled faces ([`Notation::evaluate`]).
//!
//! Capped before anything recurses: [`MAX_NOTATION_CHARS`] characters, [`MAX_TERMS`] terms,
//! [`MAX_DEPTH`] levels of groups, brackets and functions, [`MAX_DICE`] dice a term.

pub mod estimate;
mod faces;
mod grammar;
mod odds;
mod process;
mod read;
mod shape;

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use super::dist::{Dist, Prob};
use super::stop::{Never, Stop};

pub use odds::OddsError;
pub use process::{Link, NotationDie};
pub use read::{Critical, NotationResult, ShownDie};

/// Most dice one term may hold: no more than one throw holds ([`crate::dice::MOST_IN_A_THROW`],
/// the cap itself checked on the whole notation's physical dice), and small enough for exact
/// odds.
pub const MAX_DICE: u32 = crate::dice::MOST_IN_A_THROW as u32;
/// Fewest and most sides of a numbered die (which of them exist as physical dice is the
/// physics' answer: `crate::dice::physical_dice`).
pub const SIDES: std::ops::RangeInclusive<u32> = 2..=100;

/// Most characters a notation may have: any real roll fits many times over; a longer text is
/// refused before it is read.
pub const MAX_NOTATION_CHARS: usize = 256;
/// Most groups `{...}`, brackets and functions one inside another: the parser, the odds and
/// the reader recurse once a level, so the depth is capped before any recursion.
pub const MAX_DEPTH: usize = 8;
/// Most terms (dice, numbers and groups) in a whole notation.
pub const MAX_TERMS: usize = 32;
/// Largest number written in a notation (a constant, a target, a keep).
pub const MAX_NUMBER: i64 = 1_000_000;
/// Largest result (in size) a notation may reach: products of large terms are refused before
/// they are thrown, so no total overflows.
pub const MAX_RESULT: i64 = 1_000_000_000_000;
/// Most physical throws one roll of a notation makes: the first, then each throw of the dice
/// rerolled or exploding (they are thrown together, so a roll takes as many throws as its
/// longest chain of faces).
pub const MOST_THROWS: u32 = 64;
/// The largest chance, for any notation accepted, that a roll would need more than
/// [`MOST_THROWS`] throws: a notation whose dice are thrown again so often that it could come to
/// that more often is refused before anything is thrown, so an accepted roll never fails
/// half-way (with its odds saying what it would have given).
pub const MOST_UNFINISHED: f64 = 1e-9;
/// Most characters of an inline label `[fire]`.
pub const MAX_LABEL_CHARS: usize = 40;

/// How many distributions [`Notation::shared_distribution`] keeps (the most recently asked for).
pub const RECENT_MOST: usize = 8;

/// The distributions lately asked for, most recent last; each slot is filled by the first asker
/// that works it out to the end (one stopped half-way leaves it empty).
type Recent = Vec<(Expr, Arc<Mutex<Option<Arc<Dist>>>>)>;

static RECENT: Mutex<Recent> = Mutex::new(Vec::new());

/// A parsed notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notation {
    /// The expression.
    pub expr: Expr,
    source: String,
    /// What a reader should know beside the answer: a count that can never be above 0, with
    /// the way to write what was probably meant.
    notes: Vec<String>,
}

/// An expression: numbers, rolls and groups, with arithmetic, functions and labels.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A whole number.
    Number(i64),
    /// `NdX` with its modifiers.
    Roll(Box<DiceRoll>),
    /// `{A, B, ...}` with its modifiers.
    Group(Box<Group>),
    /// `-A`.
    Negate(Box<Expr>),
    /// `A + B`, `A * B`, ...
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `floor(A)`, ...
    Call(Function, Box<Expr>),
    /// `A[label]`: the label is shown with the roll, the value is `A`'s.
    Labeled(Box<Expr>, String),
}

/// Arithmetic between two expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Subtract,
    /// `*`
    Multiply,
    /// `/`: exact; the result must be rounded by `floor`, `ceil` or `round` around it.
    Divide,
    /// `%`: the remainder, with the sign of the left side (as Roll20's JavaScript).
    Remainder,
    /// `**`: the power, to a whole exponent that is never negative (`1d4**2`).
    Power,
}

/// `base` to the power `exponent` (a whole number, 0 or more: the grammar refuses others),
/// exact. Like JavaScript's `**`, 0 to the power 0 is 1.
pub(crate) fn power(base: &num_rational::BigRational, exponent: u32) -> num_rational::BigRational {
    num_traits::Pow::pow(base, exponent)
}

/// The functions Roll20 offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Function {
    /// Down to a whole number.
    Floor,
    /// Up to a whole number.
    Ceil,
    /// To the nearest whole number, halves up (as JavaScript's `Math.round`).
    Round,
    /// The size, without its sign.
    Abs,
}

/// What a die shows: a number on each face, or a Fate die's −, blank, +.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Die {
    /// A numbered die, `d2` to `d100` (`d%`): a d2 and a d3 are d6s marked 1, 1, 1, 2, 2, 2
    /// and 1, 1, 2, 2, 3, 3.
    Numbered(u32),
    /// `dF`: a d6 marked −, −, blank, blank, +, + (−1, 0, +1).
    Fate,
}

/// `NdX` and its modifiers, in Roll20's order of operations: rerolls, explosions, keep or
/// drop, successes and failures; critical markers and sorting only change what is shown.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiceRoll {
    /// How many dice.
    pub count: u32,
    /// The die.
    pub die: Die,
    /// How each die is thrown: rerolls, explosions, clamps.
    pub throw: ThrowRules,
    /// Which dice count.
    pub keep: Keep,
    /// `>N`, `<N`, `=N`: the roll counts the dice meeting it instead of summing them.
    pub target: Option<ComparePoint>,
    /// `f<N`: dice meeting it subtract one success.
    pub failure: Option<ComparePoint>,
    /// `cs>N`: dice shown as critical successes, a face meeting any of them (`cs20cs10`, as
    /// Roll20's example); none given: the top face.
    pub critical_success: Vec<ComparePoint>,
    /// `cf<N`: dice shown as critical failures, likewise; none given: the bottom face.
    pub critical_failure: Vec<ComparePoint>,
    /// `s`, `sa`, `sd`: the order the dice are shown in.
    pub sort: Sort,
    /// `m`, `mt`: dice showing the same value make a match (shown; `mt` counts them).
    pub matching: Option<Matching>,
}

/// `m` and `mt` (Roll20's matching): the dice of a roll showing the same value, at least
/// [`Matching::at_least`] of them, make a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Matching {
    /// `mt`: the roll's result is how many matches there are, not the dice's sum.
    pub counts: bool,
    /// Fewest dice of one value that make a match (`4d6m3`; 2 when not written).
    pub at_least: u32,
}

/// How each die of a roll is thrown: what the throw process needs to know.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ThrowRules {
    /// `r`, `r<2`, `r1r3`: a die showing any of these is thrown again and the face discarded.
    pub rerolls: Vec<ComparePoint>,
    /// `ro`: a die is rerolled at most once (each throw of it).
    pub reroll_once: bool,
    /// `!`, `!!`, `!p`, with the faces that explode.
    pub explode: Option<Explode>,
    /// `minN`: a die's value below N counts as N.
    pub min: Option<i64>,
    /// `maxN`: a die's value above N counts as N.
    pub max: Option<i64>,
}

impl ThrowRules {
    /// Whether a die showing `value` is rerolled (`r`, `ro`: the face is set aside).
    pub fn rerolls_on(&self, value: i64) -> bool {
        self.rerolls.iter().any(|r| r.holds(value))
    }

    /// Whether a die showing `value` explodes (is thrown again, the face kept).
    pub fn explodes_on(&self, value: i64) -> bool {
        self.explode.is_some_and(|e| e.on.holds(value))
    }
}

/// An exploding die: which faces throw again, and how the throws add up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Explode {
    /// How the extra throws count.
    pub mode: ExplodeMode,
    /// The faces that explode (default: the top face).
    pub on: ComparePoint,
}

/// How an exploding die's extra throws count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExplodeMode {
    /// `!`: each extra throw is a die of its own (kept, dropped and counted on its own).
    Separate,
    /// `!!`: the throws add up into one die.
    Compound,
    /// `!p`: each extra throw is a die of its own, one less than it shows.
    Penetrate,
}

/// Which dice (or a group's rolls) count towards the total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    /// Every one.
    All,
    /// `kN`, `khN`: the N highest.
    Highest(u32),
    /// `klN`: the N lowest.
    Lowest(u32),
    /// `dhN`: all but the N highest.
    DropHighest(u32),
    /// `dN`, `dlN`: all but the N lowest.
    DropLowest(u32),
}

impl Keep {
    /// How many of `n` are kept.
    pub fn kept_of(&self, n: usize) -> usize {
        match *self {
            Keep::All => n,
            Keep::Highest(k) | Keep::Lowest(k) => (k as usize).min(n),
            Keep::DropHighest(d) | Keep::DropLowest(d) => n.saturating_sub(d as usize),
        }
    }

    /// Whether the highest are the ones kept.
    pub fn keeps_highest(&self) -> bool {
        matches!(self, Keep::All | Keep::Highest(_) | Keep::DropLowest(_))
    }
}

/// Sorting of the dice shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sort {
    /// As thrown.
    #[default]
    Thrown,
    /// `s`, `sa`: lowest first.
    Ascending,
    /// `sd`: highest first.
    Descending,
}

/// `{A, B, ...}` with its modifiers. With one roll inside, keep and drop choose among its dice
/// (`{4d6+3d8}k4`); with several, among the rolls' totals (`{1d20+5, 2d8}kh1`). A target counts
/// the totals meeting it (`{3d6+5}>15` is one success when the total is 15 or more).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    /// The rolls, separated by commas.
    pub members: Vec<Expr>,
    /// Which count.
    pub keep: Keep,
    /// `>N`: count the totals meeting it.
    pub target: Option<ComparePoint>,
    /// `f<N`: totals meeting it subtract one success.
    pub failure: Option<ComparePoint>,
}

/// A compare point: `=N`, `>N` (N or more, as Roll20 reads it), `<N` (N or less).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComparePoint {
    /// How a value is compared.
    pub op: CompareOp,
    /// With what.
    pub target: i64,
}

/// Compare operators. Roll20's `>` and `<` include the number itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// `=N`, or a bare `N` where a modifier takes one (`r1`, `!10`).
    Equal,
    /// `>N` or `>=N`: N or more.
    AtLeast,
    /// `<N` or `<=N`: N or less.
    AtMost,
}

impl ComparePoint {
    /// Whether `value` meets it.
    pub fn holds(&self, value: i64) -> bool {
        match self.op {
            CompareOp::Equal => value == self.target,
            CompareOp::AtLeast => value >= self.target,
            CompareOp::AtMost => value <= self.target,
        }
    }
}

impl fmt::Display for ComparePoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.op {
            CompareOp::Equal => "=",
            CompareOp::AtLeast => ">",
            CompareOp::AtMost => "<",
        };
        write!(f, "{op}{}", self.target)
    }
}

/// Bad notation, with the character it went wrong at.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad dice notation at character {}: {message}\n  {text}\n  {caret}^", position + 1, caret = " ".repeat(*position))]
pub struct NotationError {
    /// Zero-based character index of the offending character.
    pub position: usize,
    /// What was wrong, in words.
    pub message: String,
    /// The notation as given.
    pub text: String,
}

/// Faces that do not fit a notation's dice (a face not on its die, a chain that is not done).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FacesError(pub String);

/// What a notation's result measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// A sum (of dice, numbers, arithmetic).
    Total,
    /// A count of successes (target numbers).
    Successes,
    /// A count of matches (`4d6mt`: sets of dice showing the same value).
    Matches,
}

impl Measure {
    /// The word for it: "total", "successes".
    pub fn word(&self) -> &'static str {
        match self {
            Measure::Total => "total",
            Measure::Successes => "successes",
            Measure::Matches => "matches",
        }
    }
}

/// How a group of one roll with a target is read: Roll20's way, or the way the records made
/// before it were read, so that they still verify and show what was seen then.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reading {
    /// Roll20's: each die counted, with the roll's numbers added (`{3d20+5}>21`).
    #[default]
    Roll20,
    /// The group's total compared (`{3d6+5}>15` one success on 15 or more), as dicetable read
    /// it up to physics 4 (issue #46 made it Roll20's): records made then are read this way.
    TotalOfGroup,
}

impl Notation {
    /// Parses notation text, as Roll20 reads it.
    pub fn parse(text: &str) -> Result<Notation, NotationError> {
        Notation::parse_read(text, Reading::Roll20)
    }

    /// Parses notation text, reading its groups as `reading` says (a record's notation is read
    /// as it was when the record was made: `crate::roll::recorded_notation`).
    pub fn parse_read(text: &str, reading: Reading) -> Result<Notation, NotationError> {
        let (expr, notes) = grammar::parse(text, reading)?;
        Ok(Notation {
            expr,
            source: text.trim().to_string(),
            notes,
        })
    }

    /// What a reader should know beside the answer (shown with the odds and the roll): a count
    /// that can never be above 0 (`2d6>8`, `{3d6+5}>15`) and how to write the total's compare.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The text this was parsed from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the result is a total or a count of successes: successes when the outermost
    /// roll or group counts them (`8d10>7`, `{1d20+5, 1d20+5}>15`). A check (`{1d20+5}>15`)
    /// is its total, passed or failed.
    pub fn measure(&self) -> Measure {
        if self.check().is_some() {
            Measure::Total
        } else {
            measure_of(&self.expr)
        }
    }

    /// The target of a check, whose one success (Roll20's reading) is a pass: a group with a
    /// target and no failures holding one die with one value (`{1d20+5}>15`: counting each die
    /// is comparing the total), or one roll beside rolls of nothing that never count
    /// (`{3d6+5,0d0}>15`, Roll20's way to compare a total). Its result is that roll's total,
    /// passed or failed; its odds are those of the total, with the chance to pass.
    pub fn check(&self) -> Option<ComparePoint> {
        let mut expr = &self.expr;
        while let Expr::Labeled(inner, _) = expr {
            expr = inner;
        }
        let Expr::Group(g) = expr else {
            return None;
        };
        let target = g.target.filter(|_| g.failure.is_none())?;
        if let [_] = g.members.as_slice() {
            return Some(target);
        }
        let rolled = g.members.iter().filter(|m| throws_dice(m)).count();
        let nothing = g
            .members
            .iter()
            .filter(|m| !throws_dice(m))
            .all(|m| shape::constant(m) == Some(0) && !target.holds(0));
        (g.keep == Keep::All && rolled == 1 && nothing).then_some(target)
    }

    /// The exact distribution of the result, or why it is not worked out.
    pub fn distribution(&self) -> Result<Dist, OddsError<std::convert::Infallible>> {
        self.distribution_until(&Never)
    }

    /// [`Notation::distribution`], asking `stop` between steps: a keep over many open-ended
    /// dice takes up to seconds, and text typed over should not hold a worker that long.
    pub fn distribution_until<S: Stop>(&self, stop: &S) -> Result<Dist, OddsError<S::Stopped>> {
        odds::distribution(&self.counted(), stop)
    }

    /// What the result counts: the expression, or a check's total (its group without the
    /// target).
    fn counted(&self) -> Expr {
        let mut expr = &self.expr;
        while let Expr::Labeled(inner, _) = expr {
            expr = inner;
        }
        match expr {
            Expr::Group(g) if self.check().is_some() => Expr::Group(Box::new(Group {
                target: None,
                ..(**g).clone()
            })),
            _ => self.expr.clone(),
        }
    }

    /// The exact distribution of the result, worked out once for the same dice however many
    /// threads ask for it, at once or one after the other (among the last [`RECENT_MOST`]
    /// asked for): the free-roll box's odds and the luck of the roll thrown from it share one.
    /// A thread asking while another works it out waits for that one.
    pub fn shared_distribution(&self) -> Result<Arc<Dist>, OddsError<std::convert::Infallible>> {
        self.shared_distribution_until(&Never)
    }

    /// [`Notation::shared_distribution`], asking `stop` between steps. When the thread working
    /// it out is stopped, nothing is kept, and the next thread waiting works it out itself.
    pub fn shared_distribution_until<S: Stop>(
        &self,
        stop: &S,
    ) -> Result<Arc<Dist>, OddsError<S::Stopped>> {
        let key = without_labels(&self.counted());
        let slot = {
            let mut recent = RECENT.lock().unwrap_or_else(PoisonError::into_inner);
            let entry = match recent.iter().position(|(expr, _)| *expr == key) {
                Some(i) => recent.remove(i),
                None => (key.clone(), Arc::default()),
            };
            let slot = Arc::clone(&entry.1);
            recent.push(entry);
            if recent.len() > RECENT_MOST {
                recent.remove(0);
            }
            slot
        };
        // Held while working it out: the others asking wait here.
        let mut held = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(dist) = &*held {
            return Ok(Arc::clone(dist));
        }
        let dist = Arc::new(odds::distribution(&key, stop)?);
        *held = Some(Arc::clone(&dist));
        Ok(dist)
    }

    /// Probability that a check passes, if the notation is one ([`Notation::check`]).
    pub fn p_success(&self) -> Option<Prob> {
        let point = self.check()?;
        let dist = self.distribution().ok()?;
        Some(dist.p_where(|v| point.holds(v)))
    }

    /// Whether the notation names any dice, even none of them (`0d6+3` does, `3` does not): a
    /// roll of no dice is read at once, a bare number is not a roll.
    pub fn names_dice(&self) -> bool {
        !rolls_of(&self.expr).is_empty()
    }

    /// Every die to throw, in order (a group's members in order).
    pub fn dice(&self) -> Vec<NotationDie> {
        let mut out = Vec::new();
        collect_dice(&self.expr, &mut out);
        out
    }

    /// How many dice each roll of the notation throws, in the order of `dice()`: the dice of
    /// one roll are alike (their order does not change the result), so a count of outcomes
    /// may take each roll's faces as a multiset.
    pub fn roll_sizes(&self) -> Vec<usize> {
        rolls_of(&self.expr)
            .iter()
            .map(|r| r.count as usize)
            .collect()
    }

    /// Reads settled faces: one chain per die of `dice()` (the first face, then each face
    /// thrown again for a reroll or an explosion). Errors if the faces do not fit the dice.
    pub fn evaluate(&self, chains: &[Vec<u32>]) -> Result<NotationResult, FacesError> {
        read::evaluate(self, chains).map_err(FacesError)
    }
}

/// What an expression's value counts: successes when its outermost roll or group counts a
/// target, matches when its roll counts them (`mt`), else a total.
fn measure_of(expr: &Expr) -> Measure {
    match expr {
        Expr::Roll(r) if r.target.is_some() => Measure::Successes,
        Expr::Roll(r) if r.matching.is_some_and(|m| m.counts) => Measure::Matches,
        Expr::Group(g) if g.target.is_some() => Measure::Successes,
        Expr::Labeled(inner, _) => measure_of(inner),
        _ => Measure::Total,
    }
}

/// The expression with its labels taken off: the same dice, the same distribution.
fn without_labels(expr: &Expr) -> Expr {
    match expr {
        Expr::Labeled(inner, _) => without_labels(inner),
        Expr::Negate(inner) => Expr::Negate(Box::new(without_labels(inner))),
        Expr::Binary(op, a, b) => Expr::Binary(
            *op,
            Box::new(without_labels(a)),
            Box::new(without_labels(b)),
        ),
        Expr::Call(f, inner) => Expr::Call(*f, Box::new(without_labels(inner))),
        Expr::Group(g) => Expr::Group(Box::new(Group {
            members: g.members.iter().map(without_labels).collect(),
            ..(**g).clone()
        })),
        other => other.clone(),
    }
}

fn collect_dice(expr: &Expr, out: &mut Vec<NotationDie>) {
    for r in rolls_of(expr) {
        out.extend((0..r.count).map(|_| NotationDie {
            die: r.die,
            throw: r.throw.clone(),
        }));
    }
}

/// The rolls of an expression, in throw order (a group's members in order): the one walk the
/// dice to throw, the parser's checks and the odds of a group's keep read.
pub(super) fn rolls_of(expr: &Expr) -> Vec<&DiceRoll> {
    fn collect<'a>(expr: &'a Expr, out: &mut Vec<&'a DiceRoll>) {
        match expr {
            Expr::Number(_) => {}
            Expr::Roll(r) => out.push(r),
            Expr::Group(g) => g.members.iter().for_each(|m| collect(m, out)),
            Expr::Negate(inner) | Expr::Call(_, inner) | Expr::Labeled(inner, _) => {
                collect(inner, out)
            }
            Expr::Binary(_, a, b) => {
                collect(a, out);
                collect(b, out);
            }
        }
    }
    let mut out = Vec::new();
    collect(expr, &mut out);
    out
}

/// Whether an expression throws any die (`0d0` and numbers throw none).
pub(super) fn throws_dice(expr: &Expr) -> bool {
    rolls_of(expr).iter().any(|r| r.count > 0)
}

/// Which dice of `dice()` still have to be thrown again, given their chains so far.
pub fn rethrows(dice: &[NotationDie], chains: &[Vec<u32>]) -> Vec<usize> {
    dice.iter()
        .zip(chains)
        .enumerate()
        .filter(|(_, (d, c))| d.needs_another(c))
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests;
