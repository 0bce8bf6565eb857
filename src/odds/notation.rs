//! Dice notation for free rolls: `3d6+2`, `4d6kh3`, `5d10!kh3`, `{1d20+5,2d8}kh1`, `2d6>=8`.
//!
//! One parse serves both the exact odds (`Notation::distribution`) and the physical throw
//! (`Notation::dice` lists what to throw, `Notation::evaluate` reads the settled faces).
//!
//! Grammar (spaces are ignored):
//! ```text
//! notation   := expr [comparison]
//! expr       := term (('+' | '-') term)*          (a leading '-' is allowed)
//! term       := dice | group | integer
//! dice       := [count] 'd' (sides | '%') ['!'] [keep]
//! keep       := ('kh' | 'kl' | 'dh' | 'dl') k
//! group      := '{' expr (',' expr)* '}' ('kh1' | 'kl1')
//! comparison := ('>=' | '>' | '<=' | '<' | '=') integer
//! ```
//!
//! Capped before anything recurses: [`MAX_NOTATION_CHARS`] characters, [`MAX_TERMS`] terms,
//! groups [`MAX_GROUP_DEPTH`] deep, [`MAX_DICE`] dice a term.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use super::dist::{Dist, Prob};
use super::stop::{Never, Stop};

/// Most dice one term may hold: enough for any table, small enough for exact odds.
pub const MAX_DICE: u32 = 100;
/// Fewest and most sides of a die.
pub const SIDES: std::ops::RangeInclusive<u32> = 2..=100;

/// Most characters a notation may have: any real roll fits many times over; a longer text is
/// refused before it is read.
pub const MAX_NOTATION_CHARS: usize = 256;
/// Most groups `{...}` one inside another: the parser, the odds and the reader recurse once a
/// level, so the depth is capped before any recursion (a server's stack is not the limit).
pub const MAX_GROUP_DEPTH: usize = 8;
/// Most terms (dice, numbers and groups) in a whole notation.
pub const MAX_TERMS: usize = 32;

/// How many distributions [`Notation::shared_distribution`] keeps (the most recently asked for).
pub const RECENT_MOST: usize = 8;

/// The distributions lately asked for, most recent last; each slot is filled by the first asker
/// that works it out to the end (one stopped half-way leaves it empty).
type Recent = Vec<(Expr, Arc<Mutex<Option<Arc<Dist>>>>)>;

static RECENT: Mutex<Recent> = Mutex::new(Vec::new());

/// A parsed notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notation {
    /// The summed terms.
    pub expr: Expr,
    /// An optional final comparison that turns the roll into success or failure.
    pub comparison: Option<Comparison>,
    source: String,
}

/// A sum of signed terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// The terms, each added or subtracted.
    pub terms: Vec<SignedTerm>,
}

/// One term and whether it is subtracted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedTerm {
    /// True for `- term`.
    pub negative: bool,
    /// The term itself.
    pub term: Term,
}

/// A term of a sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// `NdX` with its modifiers.
    Dice(DiceTerm),
    /// `{A,B,...}kh1` or `kl1`.
    Group {
        /// The alternatives.
        members: Vec<Expr>,
        /// True for `kh1`, false for `kl1`.
        highest: bool,
    },
    /// An integer constant.
    Constant(i64),
}

/// `NdX`, optionally open-ended and with a keep or drop rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceTerm {
    /// How many dice.
    pub count: u32,
    /// Sides of each die (`d%` is 100).
    pub sides: u32,
    /// `!`: the highest face throws another die and adds it, as long as it comes up.
    pub open_ended: bool,
    /// Which dice count.
    pub keep: Keep,
}

/// Which dice of a term count towards the total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Every die.
    All,
    /// The `k` highest (`khK`, or `dhK` turned around).
    Highest(u32),
    /// The `k` lowest.
    Lowest(u32),
}

impl DiceTerm {
    fn die(&self) -> Dist {
        let die = Dist::die(self.sides);
        if self.open_ended {
            die.open_ended()
        } else {
            die
        }
    }

    /// The exact distribution of this term's total.
    pub fn distribution(&self) -> Dist {
        let Ok(dist) = self.distribution_until(&Never);
        dist
    }

    /// [`DiceTerm::distribution`], asking `stop` between steps of a keep.
    pub fn distribution_until<S: Stop>(&self, stop: &S) -> Result<Dist, S::Stopped> {
        if self.open_ended && self.keep == Keep::All {
            return Ok(Dist::open_ended_sum(self.sides, self.count));
        }
        let die = self.die();
        match self.keep {
            Keep::All => Ok(die.repeat_sum(self.count)),
            Keep::Highest(k) => die.keep_highest_until(self.count, k, stop),
            Keep::Lowest(k) => die.keep_lowest_until(self.count, k, stop),
        }
    }

    /// Indices (into `values`) of the dice that count, given each die's value.
    pub fn kept(&self, values: &[i64]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..values.len()).collect();
        let k = match self.keep {
            Keep::All => return order,
            Keep::Highest(k) => {
                order.sort_by(|&a, &b| values[b].cmp(&values[a]).then(a.cmp(&b)));
                k
            }
            Keep::Lowest(k) => {
                order.sort_by(|&a, &b| values[a].cmp(&values[b]).then(a.cmp(&b)));
                k
            }
        };
        order.truncate(k as usize);
        order.sort_unstable();
        order
    }
}

/// The final comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// How the total is compared.
    pub op: CompareOp,
    /// The number it is compared with.
    pub target: i64,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
    /// `>=`
    AtLeast,
    /// `>`
    Above,
    /// `<=`
    AtMost,
    /// `<`
    Below,
    /// `=`
    Exactly,
}

impl Comparison {
    /// Whether `total` passes.
    pub fn holds(&self, total: i64) -> bool {
        let t = self.target;
        match self.op {
            CompareOp::AtLeast => total >= t,
            CompareOp::Above => total > t,
            CompareOp::AtMost => total <= t,
            CompareOp::Below => total < t,
            CompareOp::Exactly => total == t,
        }
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.op {
            CompareOp::AtLeast => ">=",
            CompareOp::Above => ">",
            CompareOp::AtMost => "<=",
            CompareOp::Below => "<",
            CompareOp::Exactly => "=",
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

/// One physical die to throw for a notation, in throw order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotationDie {
    /// Sides (100 for `d%`).
    pub sides: u32,
    /// Whether a top face throws another die.
    pub open_ended: bool,
}

/// What a set of settled faces makes of a notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationResult {
    /// The final total.
    pub total: i64,
    /// Pass or fail, when the notation has a comparison.
    pub success: Option<bool>,
    /// For each die (throw order): its value (open-ended chains summed) and whether it counted.
    pub dice: Vec<(i64, bool)>,
}

impl Notation {
    /// Parses notation text.
    pub fn parse(text: &str) -> Result<Notation, NotationError> {
        let length = text.chars().count();
        if length > MAX_NOTATION_CHARS {
            let start: String = text.chars().take(MAX_NOTATION_CHARS).collect();
            return Err(NotationError {
                position: MAX_NOTATION_CHARS,
                message: format!(
                    "a notation has at most {MAX_NOTATION_CHARS} characters (this one has {length})"
                ),
                text: format!("{start}…"),
            });
        }
        let mut parser = Parser {
            chars: text.chars().collect(),
            pos: 0,
            source: text.to_string(),
            depth: 0,
            terms: 0,
        };
        parser.skip_spaces();
        if parser.peek().is_none() {
            return Err(parser.error("the notation is empty; try something like 2d6+3"));
        }
        let expr = parser.expr()?;
        let comparison = parser.comparison()?;
        parser.skip_spaces();
        if let Some(c) = parser.peek() {
            return Err(parser.error(&format!("unexpected '{c}'")));
        }
        Ok(Notation {
            expr,
            comparison,
            source: text.trim().to_string(),
        })
    }

    /// The text this was parsed from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The exact distribution of the total.
    pub fn distribution(&self) -> Dist {
        let Ok(dist) = self.expr.distribution_until(&Never);
        dist
    }

    /// [`Notation::distribution`], asking `stop` between steps: a keep over many open-ended
    /// dice takes up to seconds, and text typed over should not hold a worker that long.
    pub fn distribution_until<S: Stop>(&self, stop: &S) -> Result<Dist, S::Stopped> {
        self.expr.distribution_until(stop)
    }

    /// The exact distribution of the total, worked out once for the same dice however many
    /// threads ask for it, at once or one after the other (among the last [`RECENT_MOST`]
    /// asked for): the free-roll box's odds and the luck of the roll thrown from it share one.
    /// A thread asking while another works it out waits for that one.
    pub fn shared_distribution(&self) -> Arc<Dist> {
        let Ok(dist) = self.shared_distribution_until(&Never);
        dist
    }

    /// [`Notation::shared_distribution`], asking `stop` between steps. When the thread working
    /// it out is stopped, nothing is kept, and the next thread waiting works it out itself.
    pub fn shared_distribution_until<S: Stop>(&self, stop: &S) -> Result<Arc<Dist>, S::Stopped> {
        let slot = {
            let mut recent = RECENT.lock().unwrap_or_else(PoisonError::into_inner);
            let entry = match recent.iter().position(|(expr, _)| *expr == self.expr) {
                Some(i) => recent.remove(i),
                None => (self.expr.clone(), Arc::default()),
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
        let dist = Arc::new(self.expr.distribution_until(stop)?);
        *held = Some(Arc::clone(&dist));
        Ok(dist)
    }

    /// Probability of passing the comparison, if there is one.
    pub fn p_success(&self) -> Option<Prob> {
        let c = self.comparison?;
        Some(self.distribution().p_where(|v| c.holds(v)))
    }

    /// Every die to throw, in order (a group's members in order).
    pub fn dice(&self) -> Vec<NotationDie> {
        let mut out = Vec::new();
        self.expr.collect_dice(&mut out);
        out
    }

    /// Reads settled faces: one chain per die of `dice()` (the first face, then each extra face
    /// an open-ended die threw). Errors if the faces do not fit the dice.
    pub fn evaluate(&self, chains: &[Vec<u32>]) -> Result<NotationResult, FacesError> {
        self.read(chains).map_err(FacesError)
    }

    fn read(&self, chains: &[Vec<u32>]) -> Result<NotationResult, String> {
        let expected = self.dice();
        if chains.len() != expected.len() {
            return Err(format!(
                "{} dice settled but the notation throws {}",
                chains.len(),
                expected.len()
            ));
        }
        for (i, (chain, die)) in chains.iter().zip(&expected).enumerate() {
            let open = chain_is_complete(chain, die)?;
            if !open {
                return Err(format!(
                    "die {} (d{}) still has to be thrown again",
                    i + 1,
                    die.sides
                ));
            }
        }
        let mut cursor = 0;
        let mut dice = Vec::new();
        let total = self.expr.evaluate(chains, &mut cursor, &mut dice);
        Ok(NotationResult {
            total,
            success: self.comparison.map(|c| c.holds(total)),
            dice,
        })
    }
}

/// Checks a chain's faces; `Ok(true)` when it needs no more throws.
fn chain_is_complete(chain: &[u32], die: &NotationDie) -> Result<bool, String> {
    if chain.is_empty() {
        return Ok(false);
    }
    if let Some(bad) = chain.iter().find(|f| **f == 0 || **f > die.sides) {
        return Err(format!("face {bad} is not on a d{}", die.sides));
    }
    let last_is_top = chain.last() == Some(&die.sides);
    if !die.open_ended {
        if chain.len() > 1 {
            return Err(format!(
                "a d{} that is not open-ended is thrown once",
                die.sides
            ));
        }
        return Ok(true);
    }
    if chain[..chain.len() - 1].iter().any(|f| *f != die.sides) {
        return Err("an open-ended die is thrown again only after its top face".to_string());
    }
    Ok(!last_is_top)
}

/// How many more throws each open-ended die still needs: the indices into `dice()` whose chain
/// ends on the top face.
pub fn open_ended_rethrows(dice: &[NotationDie], chains: &[Vec<u32>]) -> Vec<usize> {
    dice.iter()
        .zip(chains)
        .enumerate()
        .filter(|(_, (d, c))| d.open_ended && c.last() == Some(&d.sides))
        .map(|(i, _)| i)
        .collect()
}

impl Expr {
    fn distribution_until<S: Stop>(&self, stop: &S) -> Result<Dist, S::Stopped> {
        // Every term but plain dice first, by products; then each plain dice term multiplies the
        // total by its own structure (window sums), never by a dense product of two large
        // polynomials: 100d6!+100d6! took 18 s that way. Terms of the same dice on the same
        // side are one term (100d6!+100d6! is 200d6!): one power from scratch is cheaper than
        // multiplying a long total by the second. `dice` gathers them as (sides, open-ended,
        // subtracted) and the count of dice of that kind, to be added last.
        let mut dice: Vec<((u32, bool, bool), u32)> = Vec::new();
        let mut total = Dist::constant(0);
        for t in &self.terms {
            stop.check()?;
            let d = match &t.term {
                Term::Dice(d) if d.keep == Keep::All => {
                    let kind = (d.sides, d.open_ended, t.negative);
                    match dice.iter_mut().find(|(k, _)| *k == kind) {
                        Some((_, count)) => *count += d.count,
                        None => dice.push((kind, d.count)),
                    }
                    continue;
                }
                Term::Dice(d) => d.distribution_until(stop)?,
                Term::Constant(c) => Dist::constant(*c),
                Term::Group { members, highest } => {
                    let dists = members
                        .iter()
                        .map(|m| m.distribution_until(stop))
                        .collect::<Result<Vec<Dist>, S::Stopped>>()?;
                    if *highest {
                        Dist::max_of(&dists)
                    } else {
                        Dist::min_of(&dists)
                    }
                }
            };
            total = if t.negative {
                total.sub(&d)
            } else {
                total.add(&d)
            };
        }
        for ((sides, open_ended, negative), count) in dice {
            stop.check()?;
            total = total.plus_dice(sides, count, open_ended, negative);
        }
        Ok(total)
    }

    fn collect_dice(&self, out: &mut Vec<NotationDie>) {
        for t in &self.terms {
            match &t.term {
                Term::Dice(d) => out.extend((0..d.count).map(|_| NotationDie {
                    sides: d.sides,
                    open_ended: d.open_ended,
                })),
                Term::Group { members, .. } => members.iter().for_each(|m| m.collect_dice(out)),
                Term::Constant(_) => {}
            }
        }
    }

    fn evaluate(
        &self,
        chains: &[Vec<u32>],
        cursor: &mut usize,
        dice: &mut Vec<(i64, bool)>,
    ) -> i64 {
        let mut total = 0;
        for t in &self.terms {
            let value = match &t.term {
                Term::Constant(c) => *c,
                Term::Dice(d) => {
                    let n = d.count as usize;
                    let values: Vec<i64> = chains[*cursor..*cursor + n]
                        .iter()
                        .map(|c| c.iter().map(|f| i64::from(*f)).sum())
                        .collect();
                    *cursor += n;
                    let kept = d.kept(&values);
                    dice.extend(
                        values
                            .iter()
                            .enumerate()
                            .map(|(i, v)| (*v, kept.contains(&i))),
                    );
                    kept.iter().map(|i| values[*i]).sum()
                }
                Term::Group { members, highest } => {
                    let mut results = Vec::new();
                    for m in members {
                        let start = dice.len();
                        let v = m.evaluate(chains, cursor, dice);
                        results.push((v, start, dice.len()));
                    }
                    let best = if *highest {
                        results
                            .iter()
                            .enumerate()
                            .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.0.cmp(&a.0)))
                    } else {
                        results
                            .iter()
                            .enumerate()
                            .min_by(|a, b| a.1.0.cmp(&b.1.0).then(a.0.cmp(&b.0)))
                    };
                    let (best_index, &(v, _, _)) = best.unwrap_or((0, &(0, 0, 0)));
                    for (i, &(_, start, end)) in results.iter().enumerate() {
                        if i != best_index {
                            dice[start..end].iter_mut().for_each(|d| d.1 = false);
                        }
                    }
                    v
                }
            };
            total += if t.negative { -value } else { value };
        }
        total
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    source: String,
    /// Groups open around the position.
    depth: usize,
    /// Terms read so far.
    terms: usize,
}

impl Parser {
    fn error(&self, message: &str) -> NotationError {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, position: usize, message: &str) -> NotationError {
        NotationError {
            position,
            message: message.to_string(),
            text: self.source.clone(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_spaces();
        if self.peek().is_some_and(|p| p.eq_ignore_ascii_case(&c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn number(&mut self) -> Option<(u64, usize)> {
        self.skip_spaces();
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(u64::from(d));
            self.pos += 1;
        }
        (self.pos > start).then_some((value, start))
    }

    fn expr(&mut self) -> Result<Expr, NotationError> {
        let mut terms = Vec::new();
        let mut negative = self.eat('-');
        loop {
            let term = self.term()?;
            terms.push(SignedTerm { negative, term });
            if self.eat('+') {
                negative = false;
            } else if self.eat('-') {
                negative = true;
            } else {
                return Ok(Expr { terms });
            }
        }
    }

    fn term(&mut self) -> Result<Term, NotationError> {
        self.skip_spaces();
        self.terms += 1;
        if self.terms > MAX_TERMS {
            return Err(self.error(&format!("a notation has at most {MAX_TERMS} terms")));
        }
        match self.peek() {
            Some('{') => self.group(),
            Some(c) if c.is_ascii_digit() || c.eq_ignore_ascii_case(&'d') => {
                let start = self.pos;
                let count = self.number();
                self.skip_spaces();
                if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'d')) {
                    self.pos += 1;
                    self.dice(count.map(|(n, _)| n).unwrap_or(1), start)
                } else {
                    let (n, at) = count.ok_or_else(|| self.error("expected a number or dice"))?;
                    let n = i64::try_from(n)
                        .ok()
                        .filter(|n| *n <= 1_000_000)
                        .ok_or_else(|| self.error_at(at, "that constant is too large"))?;
                    Ok(Term::Constant(n))
                }
            }
            Some(c) => Err(self.error(&format!(
                "expected dice like 2d6, a number or a group {{...}}, found '{c}'"
            ))),
            None => Err(self.error("expected dice like 2d6 or a number after this")),
        }
    }

    fn dice(&mut self, count: u64, start: usize) -> Result<Term, NotationError> {
        if count == 0 || count > u64::from(MAX_DICE) {
            return Err(self.error_at(start, &format!("a term throws from 1 to {MAX_DICE} dice")));
        }
        let sides = if self.eat('%') {
            100
        } else {
            let (s, at) = self.number().ok_or_else(|| {
                self.error("expected the number of sides after 'd' (d4, d6, d20, d%)")
            })?;
            if !SIDES.contains(&(s.min(u64::from(u32::MAX)) as u32)) {
                return Err(self.error_at(at, "a die has from 2 to 100 sides"));
            }
            s as u32
        };
        let open_ended = self.eat('!');
        let count = count as u32;
        let keep = self.keep(count)?;
        Ok(Term::Dice(DiceTerm {
            count,
            sides,
            open_ended,
            keep,
        }))
    }

    fn keep(&mut self, count: u32) -> Result<Keep, NotationError> {
        self.skip_spaces();
        let rest: String = self.chars[self.pos..]
            .iter()
            .take(2)
            .collect::<String>()
            .to_ascii_lowercase();
        let kind = match rest.as_str() {
            "kh" | "kl" | "dh" | "dl" => rest,
            _ if rest.starts_with('k')
                || rest.starts_with('d')
                    && rest.len() == 2
                    && !rest.ends_with(|c: char| c.is_ascii_digit()) =>
            {
                return Err(self.error("expected kh, kl, dh or dl"));
            }
            _ => return Ok(Keep::All),
        };
        self.pos += 2;
        let (k, k_at) = self
            .number()
            .ok_or_else(|| self.error(&format!("expected how many dice after '{kind}'")))?;
        if k > u64::from(count) || (kind.starts_with('k') && k == 0) {
            return Err(self.error_at(
                k_at,
                &format!(
                    "cannot {} {k} of {count} dice",
                    if kind.starts_with('k') {
                        "keep"
                    } else {
                        "drop"
                    }
                ),
            ));
        }
        let k = k as u32;
        Ok(match kind.as_str() {
            "kh" => Keep::Highest(k),
            "kl" => Keep::Lowest(k),
            "dh" => Keep::Lowest(count - k),
            _ => Keep::Highest(count - k),
        })
    }

    fn group(&mut self) -> Result<Term, NotationError> {
        if self.depth >= MAX_GROUP_DEPTH {
            return Err(self.error(&format!(
                "groups {{...}} nest at most {MAX_GROUP_DEPTH} deep"
            )));
        }
        self.pos += 1;
        self.depth += 1;
        let mut members = vec![self.expr()?];
        while self.eat(',') {
            members.push(self.expr()?);
        }
        if !self.eat('}') {
            return Err(self.error("expected ',' or '}' to close the group"));
        }
        self.depth -= 1;
        self.skip_spaces();
        let rest: String = self.chars[self.pos..]
            .iter()
            .take(3)
            .collect::<String>()
            .to_ascii_lowercase();
        let highest = match rest.as_str() {
            "kh1" => true,
            "kl1" => false,
            _ => {
                return Err(self.error_at(
                    self.pos,
                    "a group {...} ends with kh1 (best) or kl1 (worst)",
                ));
            }
        };
        self.pos += 3;
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error("a group keeps exactly one member: kh1 or kl1"));
        }
        Ok(Term::Group { members, highest })
    }

    fn comparison(&mut self) -> Result<Option<Comparison>, NotationError> {
        self.skip_spaces();
        let op = match (self.peek(), self.chars.get(self.pos + 1).copied()) {
            (Some('>'), Some('=')) => (CompareOp::AtLeast, 2),
            (Some('<'), Some('=')) => (CompareOp::AtMost, 2),
            (Some('>'), _) => (CompareOp::Above, 1),
            (Some('<'), _) => (CompareOp::Below, 1),
            (Some('='), _) => (CompareOp::Exactly, 1),
            _ => return Ok(None),
        };
        self.pos += op.1;
        let negative = self.eat('-');
        let (n, at) = self
            .number()
            .ok_or_else(|| self.error("expected a number to compare with"))?;
        let n = i64::try_from(n)
            .ok()
            .filter(|n| *n <= 1_000_000)
            .ok_or_else(|| self.error_at(at, "that target is too large"))?;
        Ok(Some(Comparison {
            op: op.0,
            target: if negative { -n } else { n },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Notation {
        Notation::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parses_and_computes_simple_sums() {
        let n = parse("2d6+3");
        assert_eq!(n.distribution().p(10).exact(), "1/6");
        let n = parse("d%");
        assert_eq!(
            n.dice(),
            vec![NotationDie {
                sides: 100,
                open_ended: false
            }]
        );
        assert_eq!(n.distribution().p(100).exact(), "1/100");
        let n = parse(" 1d20 - 2 >= 10 ");
        // needs a natural 12+: 9/20
        assert_eq!(n.p_success().map(|p| p.exact()), Some("9/20".into()));
    }

    #[test]
    fn a_shared_distribution_is_worked_out_once_for_everyone_asking() {
        // Two threads ask at the same moment, a third later with other text for the same dice
        // (spaces, a comparison): all three hold the one distribution worked out.
        let barrier = std::sync::Barrier::new(2);
        let (a, b) = std::thread::scope(|scope| {
            let ask = || {
                barrier.wait();
                parse("30d20!kh15").shared_distribution()
            };
            let first = scope.spawn(ask);
            let second = scope.spawn(ask);
            (first.join(), second.join())
        });
        let (Ok(a), Ok(b)) = (a, b) else {
            panic!("a thread asking for the distribution panicked");
        };
        assert!(Arc::ptr_eq(&a, &b));
        let c = parse(" 30d20!kh15 >= 300").shared_distribution();
        assert!(Arc::ptr_eq(&a, &c));
        assert_eq!(*a, parse("30d20!kh15").distribution());
        // Other dice: another distribution.
        assert!(!Arc::ptr_eq(&a, &parse("30d20!kh14").shared_distribution()));
    }

    /// Stops at its `at`-th check, counting the checks made.
    struct StopAt {
        at: u32,
        checks: std::cell::Cell<u32>,
    }

    impl StopAt {
        fn new(at: u32) -> Self {
            StopAt {
                at,
                checks: std::cell::Cell::new(0),
            }
        }
    }

    impl Stop for StopAt {
        type Stopped = u32;

        fn check(&self) -> Result<(), u32> {
            let made = self.checks.get() + 1;
            self.checks.set(made);
            if made >= self.at { Err(made) } else { Ok(()) }
        }
    }

    #[test]
    fn terms_of_the_same_dice_are_one_term() {
        let dist = |text: &str| Notation::parse(text).map(|n| n.distribution());
        assert_eq!(dist("3d6!+2d6!"), Ok(Dist::open_ended_sum(6, 5)));
        assert_eq!(dist("2d4+3d4"), Ok(Dist::die(4).repeat_sum(5)));
        // Opposite sides stay apart: 1d6-1d6 is 0 one time in six, not 2d6.
        let spread = dist("1d6-1d6").map(|d| (d.min_value(), d.max_value(), d.p(0).exact()));
        assert_eq!(spread, Ok((-5, 5, "1/6".to_string())));
    }

    #[test]
    fn a_long_keep_stops_at_the_check_that_says_stop() {
        // Seconds of work in a release build, and a check before every step of it.
        let stop = StopAt::new(5);
        assert_eq!(parse("100d100!kh50").distribution_until(&stop), Err(5));
        assert_eq!(stop.checks.get(), 5);
        let stop = StopAt::new(4);
        assert_eq!(
            parse("3 + {100d10!kl40, 2}kh1").distribution_until(&stop),
            Err(4)
        );
        // Work that ends before its checks run out is the plain distribution.
        let stop = StopAt::new(u32::MAX);
        let n = parse("5d10!kh3 - 2");
        assert_eq!(n.distribution_until(&stop), Ok(n.distribution()));
        assert!(stop.checks.get() > 10, "{} checks", stop.checks.get());
    }

    #[test]
    fn cancelling_from_another_thread_stops_the_work() {
        use crate::odds::stop::{Abandoned, Cancel};
        /// A cancel handle that says when the work first asks it.
        struct Asked {
            cancel: Cancel,
            first: std::sync::mpsc::SyncSender<()>,
        }
        impl Stop for Asked {
            type Stopped = Abandoned;
            fn check(&self) -> Result<(), Abandoned> {
                let _ = self.first.try_send(());
                self.cancel.check()
            }
        }
        let cancel = Cancel::new();
        let (first, asked) = std::sync::mpsc::sync_channel(1);
        let stop = Asked {
            cancel: cancel.clone(),
            first,
        };
        let work = std::thread::spawn(move || parse("100d100!kh50").distribution_until(&stop));
        assert_eq!(asked.recv(), Ok(()));
        cancel.cancel();
        let Ok(result) = work.join() else {
            panic!("the work panicked");
        };
        assert_eq!(result, Err(Abandoned));
    }

    #[test]
    fn a_shared_distribution_stopped_half_way_is_worked_out_by_the_next_asker() {
        use crate::odds::stop::{Abandoned, Cancel};
        let n = parse("12d10!kh6 + 1");
        assert_eq!(n.shared_distribution_until(&StopAt::new(3)), Err(3));
        let cancelled = Cancel::new();
        cancelled.cancel();
        assert_eq!(n.shared_distribution_until(&cancelled), Err(Abandoned));
        let kept = n.shared_distribution();
        assert_eq!(*kept, n.distribution());
        // Kept now: even a cancelled asker gets it, there is no work left to stop.
        let again = n.shared_distribution_until(&cancelled).expect("kept");
        assert!(Arc::ptr_eq(&kept, &again));
    }

    #[test]
    fn keep_and_drop() {
        // 4d6 drop lowest is 4d6 keep highest 3; P(18) = P(at least three sixes) = (4*5+1)/1296 = 21/1296.
        let a = parse("4d6dl1").distribution();
        let b = parse("4d6kh3").distribution();
        assert_eq!(a, b);
        assert_eq!(a.p(18).exact(), "7/432");
        let c = parse("2d20kl1").distribution();
        assert_eq!(c.p(20).exact(), "1/400");
        assert_eq!(
            parse("3d6dh1").distribution(),
            parse("3d6kl2").distribution()
        );
    }

    #[test]
    fn groups_and_comparisons() {
        // {1d4, 1d4}kh1 >= 4: 1 - (3/4)^2 = 7/16
        assert_eq!(
            parse("{1d4,1d4}kh1>=4").p_success().map(|p| p.exact()),
            Some("7/16".into())
        );
        assert_eq!(
            parse("{d6,d6}kl1=6").p_success().map(|p| p.exact()),
            Some("1/36".into())
        );
        assert_eq!(
            parse("d6>3").p_success().map(|p| p.exact()),
            Some("1/2".into())
        );
        assert_eq!(
            parse("d6<3").p_success().map(|p| p.exact()),
            Some("1/3".into())
        );
        assert_eq!(
            parse("d6<=3").p_success().map(|p| p.exact()),
            Some("1/2".into())
        );
    }

    #[test]
    fn open_ended_notation() {
        let n = parse("d6!");
        assert_eq!(n.distribution().p(8).exact(), "1/36");
        assert!(n.distribution().truncated().to_f64() < 1e-12);
        let r = n.evaluate(&[vec![6, 6, 2]]).expect("valid chain");
        assert_eq!(r.total, 14);
        assert!(
            n.evaluate(&[vec![6]]).is_err(),
            "a 6 on an open-ended die must be thrown again"
        );
        assert_eq!(open_ended_rethrows(&n.dice(), &[vec![6, 6]]), vec![0]);
    }

    #[test]
    fn evaluates_faces_with_keeps_and_groups() {
        let n = parse("4d6kh3+1");
        let r = n
            .evaluate(&[vec![2], vec![6], vec![1], vec![5]])
            .expect("ok");
        assert_eq!(r.total, 14);
        assert_eq!(r.dice, vec![(2, true), (6, true), (1, false), (5, true)]);
        let g = parse("{1d20+5, 2d8}kh1 >= 12");
        let r = g.evaluate(&[vec![3], vec![7], vec![6]]).expect("ok");
        assert_eq!(r.total, 13);
        assert_eq!(r.success, Some(true));
        assert_eq!(r.dice, vec![(3, false), (7, true), (6, true)]);
        assert!(g.evaluate(&[vec![3]]).is_err());
        assert!(parse("d6").evaluate(&[vec![7]]).is_err());
    }

    #[test]
    fn notations_are_capped_before_they_are_read() {
        let nested = |depth: usize| format!("{}1d6{}", "{".repeat(depth), "}kh1".repeat(depth));
        assert!(Notation::parse(&nested(MAX_GROUP_DEPTH)).is_ok());
        let too_deep = Notation::parse(&nested(MAX_GROUP_DEPTH + 1)).expect_err("too deep");
        assert_eq!(
            (too_deep.position, too_deep.message.as_str()),
            (MAX_GROUP_DEPTH, "groups {...} nest at most 8 deep")
        );
        // What crashed a server: 5,300 groups deep, 26 KB. Refused by length, unread.
        let attack = nested(5_300);
        let refused = Notation::parse(&attack).expect_err("too long");
        assert_eq!(
            refused.message,
            format!(
                "a notation has at most 256 characters (this one has {})",
                attack.len()
            )
        );
        assert_eq!(refused.text.chars().count(), MAX_NOTATION_CHARS + 1);
        // Under the length cap, as deep as it fits: refused by depth.
        let deep = format!("{}1", "{".repeat(255));
        assert_eq!(
            Notation::parse(&deep).map_err(|e| e.message),
            Err("groups {...} nest at most 8 deep".to_string())
        );
        let terms = vec!["1"; MAX_TERMS].join("+");
        assert!(Notation::parse(&terms).is_ok());
        assert_eq!(
            Notation::parse(&format!("{terms}+1")).map_err(|e| e.message),
            Err("a notation has at most 32 terms".to_string())
        );
    }

    #[test]
    fn errors_point_at_the_character() {
        let cases = [
            ("3d6+x", 4),
            ("3d", 2),
            ("3d1", 2),
            ("3d101", 2),
            ("3d6kh4", 5),
            ("2d6 >= ", 7),
            ("{d6,d6}kh2", 7),
            ("{d6,d6", 6),
            ("", 0),
            ("0d6", 0),
            ("2d6 2", 4),
            ("101d6", 0),
        ];
        for (text, at) in cases {
            match Notation::parse(text) {
                Ok(n) => panic!("{text:?} parsed as {n:?}"),
                Err(e) => assert_eq!(e.position, at, "{text:?}: {e}"),
            }
        }
        let e = Notation::parse("3d6+x")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert_eq!(
            e,
            "bad dice notation at character 5: expected dice like 2d6, a number or a group {...}, found 'x'\n  3d6+x\n      ^"
        );
    }
}
