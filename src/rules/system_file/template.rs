//! A move's throw as its system file writes it: dice notation with `$name` (or `$(a + b - 1)`)
//! where a trait, a resource or a choice goes. Filling it in gives notation text that the
//! notation parser reads like any free roll.

use crate::rules::Refusal;
use crate::rules::refusal::refuse;

/// What a name stands for in a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Filled {
    /// A number (a trait, a resource, a number choice).
    Number(i64),
    /// Notation words (an option's value: `2d20kh1`).
    Words(String),
}

/// One `$...` of a template: the names and numbers it adds up, each with its sign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placeholder {
    /// Each term: its sign (true: minus) and a number or a name.
    pub terms: Vec<(bool, Term)>,
}

/// A term of a placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// A number written out.
    Number(i64),
    /// A name to look up.
    Name(String),
}

/// A template read into text and placeholders, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Hole(Placeholder),
}

fn name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Reads a template: its text and its placeholders, or what is wrong with it.
fn pieces(template: &str) -> Result<Vec<Piece>, Refusal> {
    let chars: Vec<char> = template.chars().collect();
    let mut out = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '$' {
            text.push(chars[i]);
            i += 1;
            continue;
        }
        if !text.is_empty() {
            out.push(Piece::Text(std::mem::take(&mut text)));
        }
        i += 1;
        let inner: String = if chars.get(i) == Some(&'(') {
            let close = chars[i..].iter().position(|&c| c == ')').ok_or_else(|| {
                refuse!(Choice, "'$(' at character {i} has no ')' in \"{template}\"")
            })?;
            let inner = chars[i + 1..i + close].iter().collect();
            i += close + 1;
            inner
        } else {
            let start = i;
            while i < chars.len() && name_char(chars[i]) {
                i += 1;
            }
            if start == i {
                return Err(refuse!(
                    Choice,
                    "'$' at character {start} of \"{template}\" is followed by no name: write $name or $(name + 1)"
                ));
            }
            chars[start..i].iter().collect()
        };
        out.push(Piece::Hole(placeholder(&inner, template)?));
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    Ok(out)
}

fn placeholder(inner: &str, template: &str) -> Result<Placeholder, Refusal> {
    let mut terms = Vec::new();
    let mut minus = false;
    let mut word = String::new();
    let flush = |word: &mut String, minus: bool, terms: &mut Vec<(bool, Term)>| {
        let w = word.trim();
        if w.is_empty() {
            return Err(refuse!(
                Choice,
                "an empty term in $({inner}) of \"{template}\""
            ));
        }
        let term = match w.parse::<i64>() {
            Ok(n) if n.abs() <= super::MOST_NUMBER => Term::Number(n),
            Ok(n) => {
                return Err(refuse!(
                    Choice,
                    "{n} in \"{template}\" is past ±{}",
                    super::MOST_NUMBER
                ));
            }
            Err(_) if w.chars().all(|c| name_char(c) || c == ' ') => Term::Name(w.to_string()),
            Err(_) => {
                return Err(refuse!(
                    Choice,
                    "'{w}' in \"{template}\" is not a name or a number"
                ));
            }
        };
        terms.push((minus, term));
        word.clear();
        Ok(())
    };
    for c in inner.chars() {
        if c == '+' || c == '-' {
            if word.trim().is_empty() && terms.is_empty() && c == '-' {
                minus = !minus;
                continue;
            }
            flush(&mut word, minus, &mut terms)?;
            minus = c == '-';
        } else {
            word.push(c);
        }
    }
    flush(&mut word, minus, &mut terms)?;
    Ok(Placeholder { terms })
}

/// Every placeholder of a template (to check its names when the file is read).
pub fn placeholders(template: &str) -> Result<Vec<Placeholder>, Refusal> {
    Ok(pieces(template)?
        .into_iter()
        .filter_map(|p| match p {
            Piece::Hole(h) => Some(h),
            Piece::Text(_) => None,
        })
        .collect())
}

/// Fills a template in: each placeholder with what `lookup` says its names are. Words stand
/// alone in a placeholder; numbers add up. A number written before `d` (a pool's count) may not
/// be below 0.
pub fn fill(template: &str, lookup: impl Fn(&str) -> Option<Filled>) -> Result<String, Refusal> {
    let mut out = String::new();
    let list = pieces(template)?;
    for (k, piece) in list.iter().enumerate() {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Hole(h) => {
                let filled = value_of(h, &lookup)?;
                match filled {
                    Filled::Words(w) => out.push_str(&w),
                    Filled::Number(n) => {
                        let counts_dice = matches!(list.get(k + 1), Some(Piece::Text(t)) if t.starts_with(['d', 'D']));
                        if counts_dice && n < 0 {
                            return Err(refuse!(Choice, "a pool of {n} dice in \"{template}\""));
                        }
                        // "2d6+0" reads as "2d6", "2d6+-1" as "2d6-1".
                        if n == 0 && !counts_dice && out.ends_with(['+', '-']) {
                            out.pop();
                            continue;
                        }
                        if n < 0 && out.ends_with('+') {
                            out.pop();
                        } else if n < 0 && out.ends_with('-') {
                            out.pop();
                            out.push('+');
                            out.push_str(&(-n).to_string());
                            continue;
                        }
                        out.push_str(&n.to_string());
                    }
                }
            }
        }
    }
    Ok(out)
}

fn value_of(h: &Placeholder, lookup: &impl Fn(&str) -> Option<Filled>) -> Result<Filled, Refusal> {
    let mut sum: i64 = 0;
    for (minus, term) in &h.terms {
        let n = match term {
            Term::Number(n) => *n,
            Term::Name(name) => match lookup(name) {
                Some(Filled::Number(n)) => n,
                Some(Filled::Words(w)) if h.terms.len() == 1 && !minus => {
                    return Ok(Filled::Words(w));
                }
                Some(Filled::Words(_)) => {
                    return Err(refuse!(
                        Choice,
                        "{name} is an option's words, which stand alone: write ${name}"
                    ));
                }
                None => {
                    return Err(refuse!(
                        Choice,
                        "{name} is no trait, resource or choice here"
                    ));
                }
            },
        };
        sum = if *minus {
            sum.saturating_sub(n)
        } else {
            sum.saturating_add(n)
        };
    }
    Ok(Filled::Number(sum))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<Filled> {
        match name {
            "Hot" => Some(Filled::Number(2)),
            "Cold" => Some(Filled::Number(-1)),
            "rating" => Some(Filled::Number(0)),
            "edge" => Some(Filled::Words("2d20kh1".into())),
            _ => None,
        }
    }

    #[test]
    fn templates_fill_in_numbers_and_words() {
        assert_eq!(fill("2d6+$Hot", lookup), Ok("2d6+2".into()));
        assert_eq!(fill("2d6+$rating", lookup), Ok("2d6".into()));
        assert_eq!(fill("$(rating)d6kh1", lookup), Ok("0d6kh1".into()));
        assert_eq!(fill("2d6+$Cold", lookup), Ok("2d6-1".into()));
        assert_eq!(fill("2d6-$Cold", lookup), Ok("2d6+1".into()));
        assert_eq!(
            fill("$(rating + 1 + Hot)d6kh1", lookup),
            Ok("3d6kh1".into())
        );
        assert_eq!(fill("$edge+$Hot", lookup), Ok("2d20kh1+2".into()));
        assert_eq!(
            fill("$(Cold)d6", lookup),
            Err(refuse!(Choice, "a pool of -1 dice in \"$(Cold)d6\""))
        );
        assert_eq!(
            fill("2d6+$Sharp", lookup),
            Err(refuse!(
                Choice,
                "Sharp is no trait, resource or choice here"
            ))
        );
        assert!(fill("2d6+$", lookup).is_err());
        assert!(fill("2d6+$(Hot", lookup).is_err());
        assert!(fill("$(edge+1)", lookup).is_err());
    }
}
