//! Reading notation text into an [`Expr`] (the grammar is written out in `docs/notation.md`):
//!
//! ```text
//! expr      := product (('+' | '-') product)*
//! product   := unary (('*' | '/' | '%') unary)*
//! unary     := '-' unary | '+' unary | atom
//! atom      := (number | roll | group | '(' expr ')' | function '(' expr ')') [label]
//! roll      := [count] 'd' (sides | '%' | 'F') modifier*
//! modifier  := '!' ['!' | 'p'] [point] | 'r' ['o'] [point] | ('k'|'kh'|'kl'|'d'|'dh'|'dl') n
//!            | ('>' | '<' | '=' | '>=' | '<=') n | 'f' point | ('cs' | 'cf') point
//!            | 's' | 'sa' | 'sd' | 'min' n | 'max' n
//! group     := '{' expr (',' expr)* '}' (keep | target | 'f' point)*
//! point     := ['>' | '<' | '=' | '>=' | '<='] n
//! label     := '[' text ']'
//! ```
//!
//! Everything that would make a throw or its odds go wrong is refused here, pointing at the
//! character: dice that never stop (`1d6r<6`, `1d6!>1`), a division that is not rounded or
//! whose divisor can be 0, results too large for a whole number.

use super::faces::{die_bottom, die_name, die_top, die_values};
use super::shape::{
    constant, each_die_counts, is_a_check, match_refusal, never_counts, offset, one_in_words,
    range, single_roll_dice, whole,
};
use super::{
    BinaryOp, CompareOp, ComparePoint, DiceRoll, Die, Explode, ExplodeMode, Expr, Function, Group,
    Keep, MAX_DEPTH, MAX_DICE, MAX_LABEL_CHARS, MAX_NOTATION_CHARS, MAX_NUMBER, MAX_RESULT,
    MAX_TERMS, MOST_THROWS, MOST_UNFINISHED, Matching, NotationError, Reading, SIDES, Sort,
    ThrowRules,
};

/// Parses `text` (the caps first, then the grammar, then the checks): the expression, and the
/// notes a reader should see beside its answer (a count that can never be above 0, say).
pub(super) fn parse(text: &str, reading: Reading) -> Result<(Expr, Vec<String>), NotationError> {
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
        rounding: 0,
        grouping: 0,
        unfinished: 0.0,
        notes: Vec::new(),
        reading,
    };
    parser.skip_spaces();
    if parser.peek().is_none() {
        return Err(parser.error("the notation is empty; try something like 2d6+3"));
    }
    let expr = parser.expr()?;
    parser.skip_spaces();
    match parser.peek() {
        None => {}
        Some(c @ ('>' | '<' | '=')) => {
            let written: String = parser.chars[..parser.pos].iter().collect();
            let compared: String = parser.chars[parser.pos..].iter().collect();
            return Err(parser.error(&format!(
                "'{c}' counts dice and follows dice (8d10>7) or a group: to compare a total, \
                 write it as a group of it and a roll of nothing, {{{},0d0}}{}",
                written.trim(),
                compared.trim()
            )));
        }
        Some(',') => return Err(parser.error("a ',' separates the rolls of a group {...}")),
        Some(c) => return Err(parser.error(&format!("unexpected '{c}'"))),
    }
    let (lo, hi) = range(&expr);
    if lo < -(MAX_RESULT as f64) || hi > MAX_RESULT as f64 {
        return Err(NotationError {
            position: 0,
            message: format!(
                "its results could reach {}; a notation's results stay within ±{MAX_RESULT}",
                if hi > MAX_RESULT as f64 { hi } else { lo }
            ),
            text: text.to_string(),
        });
    }
    Ok((expr, parser.notes))
}

/// The words a refusal about target and failure numbers uses for what carries them.
struct CountWords {
    /// "roll" or "group".
    noun: &'static str,
    /// What fails: "faces" or "totals".
    counted: &'static str,
    /// Failure numbers to give as an example.
    failing: &'static str,
    /// A whole form with both numbers.
    example: &'static str,
}

const ROLL_COUNTS: CountWords = CountWords {
    noun: "roll",
    counted: "faces",
    failing: "f1 or f<2",
    example: "3d6>4f1",
};

const GROUP_COUNTS: CountWords = CountWords {
    noun: "group",
    counted: "totals",
    failing: "f<10",
    example: "{3d6+5}>15f<5",
};

struct Parser {
    chars: Vec<char>,
    pos: usize,
    source: String,
    /// Groups, brackets and functions open around the position.
    depth: usize,
    /// Terms read so far.
    terms: usize,
    /// `floor`, `ceil` and `round` open around the position: a division inside them is
    /// rounded to a whole number.
    rounding: usize,
    /// Groups open around the position: their rolls are whole numbers, so a division there
    /// must be rounded (outside any group it may leave a fraction, `3d6/2`).
    grouping: usize,
    /// The chance, at most, that the rolls read so far need more than [`MOST_THROWS`] throws.
    unfinished: f64,
    /// What a reader should know beside the answer.
    notes: Vec<String>,
    /// How a group of one roll with a target is read.
    reading: Reading,
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

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// Skips spaces when a target number (`>`, `<`, `=`) follows them.
    fn skip_spaces_before_target(&mut self) {
        let mut ahead = self.pos;
        while self.chars.get(ahead).is_some_and(|c| c.is_whitespace()) {
            ahead += 1;
        }
        if matches!(self.chars.get(ahead), Some('>' | '<' | '=')) {
            self.pos = ahead;
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

    /// Whether the text at the position starts with `word` (any case), not skipping spaces.
    fn looking_at(&self, word: &str) -> bool {
        word.chars()
            .enumerate()
            .all(|(i, w)| self.peek_at(i).is_some_and(|c| c.eq_ignore_ascii_case(&w)))
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

    /// A number that must be there, within [`MAX_NUMBER`].
    fn count(&mut self, what: &str) -> Result<(i64, usize), NotationError> {
        let (n, at) = self
            .number()
            .ok_or_else(|| self.error(&format!("expected {what}")))?;
        let n = i64::try_from(n)
            .ok()
            .filter(|n| *n <= MAX_NUMBER)
            .ok_or_else(|| self.error_at(at, &format!("numbers go up to {MAX_NUMBER}")))?;
        Ok((n, at))
    }

    /// A signed number: `-1`, `15`.
    fn signed(&mut self, what: &str) -> Result<i64, NotationError> {
        let negative = self.eat('-');
        let (n, _) = self.count(what)?;
        Ok(if negative { -n } else { n })
    }

    fn enter(&mut self) -> Result<(), NotationError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(&format!(
                "groups, brackets and functions nest at most {MAX_DEPTH} deep"
            )));
        }
        self.depth += 1;
        Ok(())
    }

    fn expr(&mut self) -> Result<Expr, NotationError> {
        let mut left = self.product()?;
        loop {
            let op = if self.eat('+') {
                BinaryOp::Add
            } else if self.eat('-') {
                BinaryOp::Subtract
            } else {
                return Ok(left);
            };
            let right = self.product()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn product(&mut self) -> Result<Expr, NotationError> {
        let mut left = self.unary()?;
        loop {
            self.skip_spaces();
            let at = self.pos;
            let op = if self.eat('*') {
                BinaryOp::Multiply
            } else if self.eat('/') {
                BinaryOp::Divide
            } else if self.eat('%') {
                BinaryOp::Remainder
            } else {
                return Ok(left);
            };
            if op == BinaryOp::Divide && self.rounding == 0 && self.grouping > 0 {
                return Err(self.error_at(
                    at,
                    "a group adds, keeps and counts whole numbers: round a division inside it, \
                     floor(3d6/2), ceil(3d6/2) or round(3d6/2)",
                ));
            }
            let right = self.unary()?;
            if op != BinaryOp::Multiply {
                let (lo, hi) = range(&right);
                if lo <= 0.0 && hi >= 0.0 {
                    return Err(self.error_at(
                        at + 1,
                        "the number divided by can be 0 here; a division's right side must \
                         never be 0",
                    ));
                }
            }
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> Result<Expr, NotationError> {
        if self.eat('-') {
            return Ok(Expr::Negate(Box::new(self.unary()?)));
        }
        if self.eat('+') {
            return self.unary();
        }
        let atom = self.atom()?;
        let base = self.label(atom)?;
        self.power(base)
    }

    /// `A ** B`, if a `**` follows (right to left: `2**3**2` is 2 to the 9th), with an exponent
    /// that is a whole number, 0 or more, whatever the dice show.
    fn power(&mut self, base: Expr) -> Result<Expr, NotationError> {
        self.skip_spaces();
        if !self.looking_at("**") {
            return Ok(base);
        }
        self.pos += 2;
        self.skip_spaces();
        let at = self.pos;
        let exponent = self.unary()?;
        let (lo, _) = range(&exponent);
        if lo < 0.0 {
            return Err(self.error_at(
                at,
                "an exponent can be below 0 here; a power's exponent is 0 or more (1d4**2)",
            ));
        }
        if !whole(&exponent) {
            return Err(self.error_at(at, "a power's exponent is a whole number"));
        }
        Ok(Expr::Binary(
            BinaryOp::Power,
            Box::new(base),
            Box::new(exponent),
        ))
    }

    fn label(&mut self, atom: Expr) -> Result<Expr, NotationError> {
        if !self.eat('[') {
            return Ok(atom);
        }
        let start = self.pos;
        let mut text = String::new();
        loop {
            match self.peek() {
                Some(']') => break,
                Some(c) => {
                    text.push(c);
                    self.pos += 1;
                }
                None => return Err(self.error("expected ']' to close the label")),
            }
        }
        self.pos += 1;
        let text = text.trim().to_string();
        if text.chars().count() > MAX_LABEL_CHARS {
            return Err(self.error_at(
                start,
                &format!("a label has at most {MAX_LABEL_CHARS} characters"),
            ));
        }
        if text.chars().any(|c| c == '[' || c.is_control()) {
            return Err(self.error_at(start, "a label holds plain text"));
        }
        Ok(Expr::Labeled(Box::new(atom), text))
    }

    fn atom(&mut self) -> Result<Expr, NotationError> {
        self.skip_spaces();
        self.terms += 1;
        if self.terms > MAX_TERMS {
            return Err(self.error(&format!("a notation has at most {MAX_TERMS} terms")));
        }
        match self.peek() {
            Some('{') => self.group(),
            Some('(') => {
                let start = self.pos;
                let inner = self.bracketed()?;
                if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'d'))
                    && self
                        .peek_at(1)
                        .is_some_and(|c| c.is_ascii_digit() || matches!(c, '%' | 'f' | 'F' | '('))
                {
                    let count = self.worked_out(&inner, start, "the number of dice")?;
                    self.pos += 1;
                    return self.roll(count.max(0).unsigned_abs(), start);
                }
                Ok(inner)
            }
            Some(c) if c.is_ascii_digit() || c.eq_ignore_ascii_case(&'d') => {
                let start = self.pos;
                let count = self.number();
                self.skip_spaces();
                if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'d')) {
                    self.pos += 1;
                    self.roll(count.map(|(n, _)| n).unwrap_or(1), start)
                } else {
                    let (n, at) = count.ok_or_else(|| self.error("expected a number or dice"))?;
                    let n = i64::try_from(n)
                        .ok()
                        .filter(|n| *n <= MAX_NUMBER)
                        .ok_or_else(|| self.error_at(at, "that constant is too large"))?;
                    Ok(Expr::Number(n))
                }
            }
            Some(c) if c.is_ascii_alphabetic() => self.call(),
            Some(c) => Err(self.error(&format!(
                "expected dice like 2d6, a number or a group {{...}}, found '{c}'"
            ))),
            None => Err(self.error("expected dice like 2d6 or a number after this")),
        }
    }

    /// `(A)`: an expression in brackets.
    fn bracketed(&mut self) -> Result<Expr, NotationError> {
        self.enter()?;
        self.pos += 1;
        let inner = self.expr()?;
        if !self.eat(')') {
            return Err(self.error("expected ')'"));
        }
        self.depth -= 1;
        Ok(inner)
    }

    /// A count or a number of sides worked out from the arithmetic in brackets (`(1+1)d6`,
    /// `2d(2+4)`): a whole number, 0 or more, that throws no dice.
    fn worked_out(&self, expr: &Expr, at: usize, what: &str) -> Result<i64, NotationError> {
        if super::throws_dice(expr) {
            return Err(self.error_at(
                at,
                &format!("{what} is worked out from numbers, not from dice"),
            ));
        }
        let value = constant(expr)
            .ok_or_else(|| self.error_at(at, &format!("{what} must be a whole number")))?;
        if value < 0 {
            return Err(self.error_at(at, &format!("{what} is 0 or more, not {value}")));
        }
        Ok(value)
    }

    fn call(&mut self) -> Result<Expr, NotationError> {
        let start = self.pos;
        let mut name = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
            name.push(c.to_ascii_lowercase());
            self.pos += 1;
        }
        let function = match name.as_str() {
            "floor" => Function::Floor,
            "ceil" => Function::Ceil,
            "round" => Function::Round,
            "abs" => Function::Abs,
            _ if self.peek() == Some('(') => {
                return Err(self.error_at(
                    start,
                    &format!("unknown function '{name}': floor, ceil, round or abs"),
                ));
            }
            _ => {
                let found = self.chars.get(start).copied().unwrap_or(' ');
                return Err(self.error_at(
                    start,
                    &format!(
                        "expected dice like 2d6, a number or a group {{...}}, found '{found}'"
                    ),
                ));
            }
        };
        if !self.eat('(') {
            return Err(self.error(&format!("expected '(' after {name}")));
        }
        self.enter()?;
        let rounds = function != Function::Abs;
        self.rounding += usize::from(rounds);
        let inner = self.expr()?;
        self.rounding -= usize::from(rounds);
        if !self.eat(')') {
            return Err(self.error("expected ')'"));
        }
        self.depth -= 1;
        Ok(Expr::Call(function, Box::new(inner)))
    }

    fn roll(&mut self, count: u64, start: usize) -> Result<Expr, NotationError> {
        if count > u64::from(MAX_DICE) {
            return Err(self.error_at(start, &format!("a term throws from 0 to {MAX_DICE} dice")));
        }
        let count = count as u32;
        let die = if self.eat('%') {
            Die::Numbered(100)
        } else if self.peek().is_some_and(|c| c == 'F' || c == 'f') {
            self.pos += 1;
            Die::Fate
        } else {
            let (s, at) = if self.peek() == Some('(') {
                let at = self.pos;
                let inner = self.bracketed()?;
                let sides = self.worked_out(&inner, at, "the number of sides")?;
                (sides.unsigned_abs(), at)
            } else {
                self.number().ok_or_else(|| {
                    self.error("expected the number of sides after 'd' (d4, d6, d20, d%, dF)")
                })?
            };
            // No dice of no sides is nothing, as in Roll20 (`0d0`, for `{3d6+5,0d0}>15`).
            if !(SIDES.contains(&(s.min(u64::from(u32::MAX)) as u32)) || (s == 0 && count == 0)) {
                return Err(self.error_at(at, "a die has from 2 to 100 sides (0d0 is no dice)"));
            }
            Die::Numbered(s as u32)
        };
        let mut roll = DiceRoll {
            count,
            die,
            throw: ThrowRules::default(),
            keep: Keep::All,
            target: None,
            failure: None,
            critical_success: Vec::new(),
            critical_failure: Vec::new(),
            sort: Sort::Thrown,
            matching: None,
        };
        let mut sorted = false;
        loop {
            // No spaces inside a roll's modifiers ("2d6 d1" is not read as a drop), but a
            // target may stand apart: "8d10 > 7".
            self.skip_spaces_before_target();
            let at = self.pos;
            let Some(c) = self.peek() else { break };
            let lower = c.to_ascii_lowercase();
            if lower == '!' {
                if roll.throw.explode.is_some() {
                    return Err(self.error("a die explodes one way: !, !! or !p"));
                }
                self.pos += 1;
                let mode = if self.peek() == Some('!') {
                    self.pos += 1;
                    ExplodeMode::Compound
                } else if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'p')) {
                    self.pos += 1;
                    ExplodeMode::Penetrate
                } else {
                    ExplodeMode::Separate
                };
                let on = self.point()?.unwrap_or(ComparePoint {
                    op: CompareOp::Equal,
                    target: die_top(die),
                });
                roll.throw.explode = Some(Explode { mode, on });
            } else if lower == 'r' {
                self.pos += 1;
                let once = self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'o'));
                if once {
                    self.pos += 1;
                }
                if !roll.throw.rerolls.is_empty() && once != roll.throw.reroll_once {
                    return Err(self.error_at(at, "a roll rerolls with r or with ro, not both"));
                }
                roll.throw.reroll_once = once;
                let point = self.point()?.unwrap_or(ComparePoint {
                    op: CompareOp::Equal,
                    target: die_bottom(die),
                });
                roll.throw.rerolls.push(point);
            } else if lower == 'k' || (lower == 'd' && !self.looking_at("d%")) {
                if roll.keep != Keep::All {
                    return Err(self.error("a roll keeps or drops once"));
                }
                roll.keep = self.keep(count as usize, "dice")?;
            } else if lower == 'c' {
                let which = self.peek_at(1).map(|c| c.to_ascii_lowercase());
                if which != Some('s') && which != Some('f') {
                    return Err(
                        self.error("expected cs (critical success) or cf (critical failure)")
                    );
                }
                self.pos += 2;
                let point = self
                    .point()?
                    .ok_or_else(|| self.error("expected the faces, like cs>19 or cf1"))?;
                if which == Some('s') {
                    roll.critical_success.push(point);
                } else {
                    roll.critical_failure.push(point);
                }
            } else if self.looking_at("min") || self.looking_at("max") {
                let is_min = self.looking_at("min");
                self.pos += 3;
                let n = self.signed("a number after min or max")?;
                let slot = if is_min {
                    &mut roll.throw.min
                } else {
                    &mut roll.throw.max
                };
                if slot.replace(n).is_some() {
                    return Err(self.error_at(at, "min and max are given once each"));
                }
            } else if lower == 'm' {
                if roll.matching.is_some() {
                    return Err(self.error_at(at, "a roll matches once: m or mt"));
                }
                self.pos += 1;
                let counts = self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'t'));
                if counts {
                    self.pos += 1;
                }
                let at_least = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    let (n, n_at) = self.count("how many dice make a match")?;
                    if !(2..=i64::from(MAX_DICE)).contains(&n) {
                        return Err(self.error_at(n_at, "a match is 2 dice or more"));
                    }
                    n as u32
                } else {
                    2
                };
                roll.matching = Some(Matching { counts, at_least });
            } else if lower == 's' {
                if sorted {
                    return Err(self.error("the dice are sorted once"));
                }
                sorted = true;
                self.pos += 1;
                roll.sort = match self.peek().map(|c| c.to_ascii_lowercase()) {
                    Some('d') if !self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) => {
                        self.pos += 1;
                        Sort::Descending
                    }
                    Some('a') => {
                        self.pos += 1;
                        Sort::Ascending
                    }
                    _ => Sort::Ascending,
                };
            } else if matches!(lower, '>' | '<' | '=' | 'f') {
                self.counting(at, &mut roll.target, &mut roll.failure, &ROLL_COUNTS)?;
            } else if c.is_ascii_alphanumeric() {
                return Err(self.error(&format!("unknown modifier '{c}' after the dice")));
            } else {
                break;
            }
        }
        self.failures_with_target(start, &roll.target, &roll.failure, &ROLL_COUNTS)?;
        if let Some(why) = match_refusal(&roll) {
            return Err(self.error_at(start, why));
        }
        if roll.count > 0 {
            self.check_throw(&roll, start)?;
            self.check_finishes(&roll, start)?;
        }
        if never_counts(&roll) {
            let written: String = self.chars[start..self.pos].iter().collect();
            let (dice, compared) =
                written.split_at(written.find(['>', '<', '=']).unwrap_or(written.len()));
            let (dice, compared) = (dice.trim(), compared.trim());
            self.notes.push(format!(
                "no face of a {} meets {}, so {written} always counts 0 dice. To compare the \
                 total, write it as a group with a roll of nothing: {{{dice},0d0}}{compared}",
                die_name(roll.die),
                roll.target.map(|t| t.to_string()).unwrap_or_default(),
            ));
        }
        Ok(Expr::Roll(Box::new(roll)))
    }

    /// Refuses a roll whose dice are thrown again so often that the notation's chance of
    /// needing more than [`MOST_THROWS`] throws would reach [`MOST_UNFINISHED`]. A die thrown
    /// again with chance `p` each time needs more than `n` throws with chance `p^n`; the dice
    /// are thrown together, so the chance for the notation is at most the sum over its dice.
    fn check_finishes(&mut self, roll: &DiceRoll, start: usize) -> Result<(), NotationError> {
        let values = die_values(roll.die);
        let faces = values.len() as f64;
        let share = |holds: &dyn Fn(i64) -> bool| {
            values.iter().filter(|v| holds(**v)).count() as f64 / faces
        };
        let rules = &roll.throw;
        let rerolled = share(&|v| rules.rerolls_on(v));
        let exploding = share(&|v| rules.explodes_on(v));
        let again = share(&|v| rules.rerolls_on(v) || rules.explodes_on(v));
        let throws = f64::from(MOST_THROWS);
        let per_die = if roll.throw.reroll_once {
            // Each face a die keeps takes at most two throws: it needs more than n throws only
            // after n/2 explosions, each with at most this chance.
            (exploding + rerolled * exploding)
                .min(1.0)
                .powf((throws / 2.0).floor())
        } else {
            again.powf(throws)
        };
        self.unfinished += f64::from(roll.count) * per_die;
        if self.unfinished >= MOST_UNFINISHED {
            let one_in = 1.0 / self.unfinished.min(1.0);
            let (what, share) = if roll.throw.explode.is_some() && rerolled == 0.0 {
                ("explodes", exploding)
            } else {
                ("is thrown again", again)
            };
            return Err(self.error_at(
                start,
                &format!(
                    "each die {what} on {} of its {} faces, so about 1 roll in {} would need \
                     more than {MOST_THROWS} throws (the most one roll makes); throw again on \
                     fewer faces, or reroll once (ro)",
                    (share * faces).round(),
                    faces,
                    one_in_words(one_in)
                ),
            ));
        }
        Ok(())
    }

    /// Refuses a roll whose dice would never stop being thrown again.
    fn check_throw(&self, roll: &DiceRoll, start: usize) -> Result<(), NotationError> {
        let values = die_values(roll.die);
        let rerolled = |v: i64| roll.throw.rerolls_on(v);
        let explodes = |v: i64| roll.throw.explodes_on(v);
        if !roll.throw.reroll_once && values.iter().all(|v| rerolled(*v)) {
            return Err(self.error_at(
                start,
                "it rerolls every face, so its dice would never stop; reroll fewer faces (r1) \
                 or only once (ro)",
            ));
        }
        if let Some(e) = roll.throw.explode
            && values.iter().all(|v| explodes(*v))
        {
            return Err(self.error_at(
                start,
                &format!(
                    "it explodes on every face ({}), so its dice would never stop",
                    e.on
                ),
            ));
        }
        // A throw ends on a face that is kept and does not explode; with `ro` the second face
        // is always kept.
        let ends = |v: i64| !explodes(v) && (roll.throw.reroll_once || !rerolled(v));
        if !values.iter().any(|v| ends(*v)) {
            return Err(self.error_at(
                start,
                "every face it keeps explodes, so its dice would never stop",
            ));
        }
        if let (Some(lo), Some(hi)) = (roll.throw.min, roll.throw.max)
            && lo > hi
        {
            return Err(self.error_at(start, &format!("min {lo} is above max {hi}")));
        }
        Ok(())
    }
    /// Reads a target number (`>4`) or a failure number (`f1`) at `at`, for a roll or a group.
    fn counting(
        &mut self,
        at: usize,
        target: &mut Option<ComparePoint>,
        failure: &mut Option<ComparePoint>,
        words: &CountWords,
    ) -> Result<(), NotationError> {
        if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'f')) {
            self.pos += 1;
            if failure.is_some() {
                return Err(self.error_at(at, &format!("a {} has one failure number", words.noun)));
            }
            let point = self.point()?.ok_or_else(|| {
                self.error(&format!(
                    "expected the failing {}, like {}",
                    words.counted, words.failing
                ))
            })?;
            *failure = Some(point);
        } else {
            if target.is_some() {
                return Err(self.error(&format!("a {} has one target number", words.noun)));
            }
            *target = self.point()?;
        }
        Ok(())
    }

    /// Refuses failures counted without a target number.
    fn failures_with_target(
        &self,
        start: usize,
        target: &Option<ComparePoint>,
        failure: &Option<ComparePoint>,
        words: &CountWords,
    ) -> Result<(), NotationError> {
        if failure.is_some() && target.is_none() {
            return Err(self.error_at(
                start,
                &format!(
                    "failures (f) are counted with a target number: {}",
                    words.example
                ),
            ));
        }
        Ok(())
    }

    /// A compare point, if one is here: `>N`, `<N`, `=N`, `>=N`, `<=N` or a bare `N`.
    fn point(&mut self) -> Result<Option<ComparePoint>, NotationError> {
        let op = match (self.peek(), self.peek_at(1)) {
            (Some('>'), Some('=')) => {
                self.pos += 2;
                CompareOp::AtLeast
            }
            (Some('<'), Some('=')) => {
                self.pos += 2;
                CompareOp::AtMost
            }
            (Some('>'), _) => {
                self.pos += 1;
                CompareOp::AtLeast
            }
            (Some('<'), _) => {
                self.pos += 1;
                CompareOp::AtMost
            }
            (Some('='), _) => {
                self.pos += 1;
                CompareOp::Equal
            }
            (Some(c), _) if c.is_ascii_digit() => CompareOp::Equal,
            (Some('-'), Some(d)) if d.is_ascii_digit() => CompareOp::Equal,
            _ => return Ok(None),
        };
        let target = self.signed("a number to compare with")?;
        Ok(Some(ComparePoint { op, target }))
    }

    /// `kN`, `khN`, `klN`, `dN`, `dhN`, `dlN`, of `n` dice or rolls.
    fn keep(&mut self, n: usize, of: &str) -> Result<Keep, NotationError> {
        let at = self.pos;
        let first = self.peek().map(|c| c.to_ascii_lowercase());
        self.pos += 1;
        let second = self.peek().map(|c| c.to_ascii_lowercase());
        let highest = match second {
            Some('h') => {
                self.pos += 1;
                true
            }
            Some('l') => {
                self.pos += 1;
                false
            }
            _ => first == Some('k'),
        };
        let keeping = first == Some('k');
        let word = if keeping { "keep" } else { "drop" };
        let (k, k_at) = self.count(&format!("how many to {word}, like kh3 or dl1"))?;
        if k as usize > n || (keeping && k == 0) {
            return Err(self.error_at(k_at, &format!("cannot {word} {k} of {n} {of}")));
        }
        let _ = at;
        let k = k as u32;
        Ok(match (keeping, highest) {
            (true, true) => Keep::Highest(k),
            (true, false) => Keep::Lowest(k),
            (false, true) => Keep::DropHighest(k),
            (false, false) => Keep::DropLowest(k),
        })
    }

    fn group(&mut self) -> Result<Expr, NotationError> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        // A rounding around the group does not round inside it: floor({3d6/2}) is refused.
        let rounding = std::mem::take(&mut self.rounding);
        self.grouping += 1;
        let mut members = vec![self.expr()?];
        while self.eat(',') {
            members.push(self.expr()?);
        }
        self.grouping -= 1;
        self.rounding = rounding;
        if !self.eat('}') {
            return Err(self.error("expected ',' or '}' to close the group"));
        }
        self.depth -= 1;
        let mut group = Group {
            members,
            keep: Keep::All,
            target: None,
            failure: None,
        };
        let single = group.members.len() == 1;
        loop {
            self.skip_spaces_before_target();
            let at = self.pos;
            let Some(c) = self.peek() else { break };
            let lower = c.to_ascii_lowercase();
            if lower == 'k' || lower == 'd' {
                if group.keep != Keep::All {
                    return Err(self.error("a group keeps or drops once"));
                }
                let (n, of) = if single {
                    let dice = single_roll_dice(&group.members[0]).ok_or_else(|| {
                        self.error_at(
                            start,
                            "a group of one roll keeps among its dice, so it holds dice added \
                             together ({4d6+3d8}k4); to keep among totals, separate them with \
                             commas",
                        )
                    })?;
                    (dice, "dice")
                } else {
                    (group.members.len(), "rolls")
                };
                group.keep = self.keep(n, of)?;
            } else if matches!(lower, '>' | '<' | '=' | 'f') {
                self.counting(at, &mut group.target, &mut group.failure, &GROUP_COUNTS)?;
            } else if c.is_ascii_alphanumeric() {
                return Err(self.error(&format!("unknown modifier '{c}' after the group")));
            } else {
                break;
            }
        }
        self.failures_with_target(start, &group.target, &group.failure, &GROUP_COUNTS)?;
        if single
            && group.target.is_some()
            && self.reading == Reading::Roll20
            && !is_a_check(&group.members[0])
        {
            return self.each_die(group, start);
        }
        Ok(Expr::Group(Box::new(group)))
    }

    /// A group of one roll with a target, as Roll20 reads it: each die counted on its own, with
    /// the roll's numbers added to it (`{3d20+5}>21` counts the d20s showing 16 or more). Read
    /// as the dice's own targets, shifted by the numbers (`3d20>16`); the dice shown are the
    /// faces thrown. A group whose dice can never count gets a note showing how a total is
    /// compared (`{3d6+5,0d0}>15`).
    fn each_die(&mut self, group: Group, start: usize) -> Result<Expr, NotationError> {
        let written: String = self.chars[start..self.pos].iter().collect();
        let refuse = |why: &str| {
            self.error_at(
                start,
                &format!(
                    "a group of one roll with a target counts each of its dice, with the numbers \
                     added to each ({{3d20+5}}>21), so it holds dice and numbers added together; \
                     {why}"
                ),
            )
        };
        let member = &group.members[0];
        let Some(offset) = offset(member, false) else {
            return Err(refuse(
                "to compare a total, add a roll of nothing as a second roll: {3d6*2,0d0}>15",
            ));
        };
        let shift = |point: Option<ComparePoint>| {
            point.map(|p| ComparePoint {
                op: p.op,
                target: p.target.saturating_sub(offset),
            })
        };
        let (target, failure) = (shift(group.target), shift(group.failure));
        let counted = each_die_counts(member, target, failure)
            .ok_or_else(|| refuse("its dice count no targets of their own"))?;
        let counted = match (group.keep, counted) {
            (Keep::All, counted) => counted,
            (keep, Expr::Roll(mut r)) if r.keep == Keep::All => {
                r.keep = keep;
                Expr::Roll(r)
            }
            _ => {
                return Err(refuse(
                    "to keep among several rolls' dice and count them, write one roll: \
                     {4d6}k3>4",
                ));
            }
        };
        if super::rolls_of(&counted).iter().all(|r| never_counts(r)) {
            let (inner, compared) = written.split_at(written.rfind('}').unwrap_or(0));
            self.notes.push(format!(
                "{written} counts each die with the numbers added to it, as Roll20 reads a group \
                 of one roll, and no die can reach it: it always counts 0. To compare the \
                 total, add a roll of nothing as a second roll: {inner},0d0{compared}"
            ));
        }
        Ok(counted)
    }
}
