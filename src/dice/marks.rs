//! The marks a game's own dice carry instead of numbers: a symbol, a short word, pips or
//! nothing. A system file writes them face by face; the atlases draw them where a numeral would
//! be, and a screen reader hears them in words. A mark is checked when it is read (its glyphs
//! are in the typeface the dice carry, it is short enough) and against the die it is on (pips
//! fit a cube's square faces, a word fits its face).

use serde::{Deserialize, Serialize};

use super::DieKind;
use super::glyphs::has_glyph;

/// The most characters of a symbol mark (two or three glyphs side by side: "✶✶").
pub const MOST_SYMBOL_CHARS: usize = 3;
/// The most characters of a word mark.
pub const MOST_WORD_CHARS: usize = 6;
/// The most pips a face has (a 3 × 3 grid).
pub const MOST_PIPS: u8 = 9;

/// What one face of a game's own die shows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Written")]
pub enum Mark {
    /// Nothing.
    #[default]
    Blank,
    /// One to three glyphs of the dice's typeface ("✶", "✶▲", "☠").
    Symbol(String),
    /// A short word ("hit", "miss").
    Word(String),
    /// Pips, as on a common d6 (1 to 9).
    Pips(u8),
}

/// A mark as a file writes it, before its checks.
#[derive(Deserialize)]
enum Written {
    Blank,
    Symbol(String),
    Word(String),
    Pips(u8),
}

impl TryFrom<Written> for Mark {
    type Error = String;
    /// The checks of a mark on its own (the error lands at the mark's line and column).
    fn try_from(w: Written) -> Result<Mark, String> {
        let glyphs = |what: &str, text: &str, most: usize| -> Result<(), String> {
            let count = text.chars().count();
            if count == 0 || count > most {
                return Err(format!(
                    "{what} \"{text}\" has {count} characters: a {what} has 1 to {most}"
                ));
            }
            if text.contains('|') || text.starts_with(':') {
                return Err(format!(
                    "{what} \"{text}\": a mark has no '|' and does not start with ':'"
                ));
            }
            if let Some(c) = text.chars().find(|c| c.is_whitespace() || !has_glyph(*c)) {
                return Err(format!(
                    "{what} \"{text}\": the dice's typeface (DejaVu Sans Condensed Bold) has no glyph for '{c}' (U+{:04X})",
                    u32::from(c)
                ));
            }
            Ok(())
        };
        match w {
            Written::Blank => Ok(Mark::Blank),
            Written::Symbol(s) => glyphs("symbol", &s, MOST_SYMBOL_CHARS).map(|()| Mark::Symbol(s)),
            Written::Word(s) => glyphs("word", &s, MOST_WORD_CHARS).map(|()| Mark::Word(s)),
            Written::Pips(n) if (1..=MOST_PIPS).contains(&n) => Ok(Mark::Pips(n)),
            Written::Pips(n) => Err(format!("Pips({n}): a face has 1 to {MOST_PIPS} pips")),
        }
    }
}

impl Mark {
    /// Whether the mark fits a face of `kind`, and if not, why: pips need a cube's square
    /// face, a d4's corners take one glyph, a word or symbol is as wide as the face allows.
    pub fn fits(&self, kind: DieKind) -> Result<(), String> {
        let (symbol, word) = match kind {
            DieKind::D4 => (1, 1),
            DieKind::D6 | DieKind::D2 | DieKind::D3 | DieKind::Fate => (3, 6),
            DieKind::D8 | DieKind::D10 | DieKind::D10Tens | DieKind::D12 => (2, 4),
            DieKind::D20 => (2, 3),
            // The belt dice's kites and triangles are narrow: two glyphs.
            _ => (2, 2),
        };
        let too_long = |what: &str, text: &str, most: usize| {
            let count = text.chars().count();
            if count > most {
                Err(format!(
                    "{what} \"{text}\" does not fit a {}'s face: at most {most} characters there",
                    kind.name()
                ))
            } else {
                Ok(())
            }
        };
        match self {
            Mark::Blank => Ok(()),
            Mark::Pips(n) if kind == DieKind::D6 => {
                debug_assert!(*n <= MOST_PIPS);
                Ok(())
            }
            Mark::Pips(n) => Err(format!(
                "Pips({n}) do not fit a {}'s face: pips go on a d6",
                kind.name()
            )),
            Mark::Symbol(s) => too_long("symbol", s, symbol),
            Mark::Word(s) => too_long("word", s, word),
        }
    }

    /// The mark in words, for a screen reader and the history: "blank", "3 pips", the
    /// symbol or word itself.
    pub fn words(&self) -> String {
        match self {
            Mark::Blank => "blank".into(),
            Mark::Pips(1) => "1 pip".into(),
            Mark::Pips(n) => format!("{n} pips"),
            Mark::Symbol(s) | Mark::Word(s) => s.clone(),
        }
    }

    /// The mark as a value shown over a settled die: its text, a pip count as its number,
    /// "–" for a blank.
    pub fn shown(&self) -> String {
        match self {
            Mark::Blank => "–".into(),
            Mark::Pips(n) => n.to_string(),
            Mark::Symbol(s) | Mark::Word(s) => s.clone(),
        }
    }

    /// The text drawn on the face (none for a blank or pips).
    pub fn text(&self) -> Option<&str> {
        match self {
            Mark::Symbol(s) | Mark::Word(s) => Some(s),
            Mark::Blank | Mark::Pips(_) => None,
        }
    }

    /// A short form for a web address or a cache key: the text itself, `:n` for pips, and
    /// nothing for a blank (a face's text never starts with ':', which no mark's glyphs are).
    pub fn key(&self) -> String {
        match self {
            Mark::Blank => String::new(),
            Mark::Pips(n) => format!(":{n}"),
            Mark::Symbol(s) | Mark::Word(s) => s.clone(),
        }
    }

    /// The mark of a [`Mark::key`]: None where it is no mark the dice can draw (a page's
    /// address is anyone's input).
    pub fn from_key(key: &str) -> Option<Mark> {
        if key.is_empty() {
            return Some(Mark::Blank);
        }
        let written = match key.strip_prefix(':') {
            Some(n) => Written::Pips(n.parse().ok()?),
            // A key is drawn as a word or a symbol alike: the longer limit holds.
            None => Written::Word(key.to_string()),
        };
        Mark::try_from(written).ok()
    }

    /// Where the pips of a count sit on a square face, as fractions of the face's half width
    /// from its centre (x right, y up): the common d6's layouts, and a 3 × 3 grid beyond 6.
    pub fn pip_places(n: u8) -> Vec<(f32, f32)> {
        let a = 0.5;
        match n {
            1 => vec![(0.0, 0.0)],
            2 => vec![(-a, a), (a, -a)],
            3 => vec![(-a, a), (0.0, 0.0), (a, -a)],
            4 => vec![(-a, a), (a, a), (-a, -a), (a, -a)],
            5 => vec![(-a, a), (a, a), (0.0, 0.0), (-a, -a), (a, -a)],
            6 => vec![(-a, a), (a, a), (-a, 0.0), (a, 0.0), (-a, -a), (a, -a)],
            _ => (0..n.min(MOST_PIPS))
                .map(|i| {
                    let (col, row) = (f32::from(i % 3), f32::from(i / 3));
                    ((col - 1.0) * a, (1.0 - row) * a)
                })
                .collect(),
        }
    }
}

/// Each face's mark of one die, face value 1 first: what the atlas draws instead of numerals.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FaceMarks(pub Vec<Mark>);

impl FaceMarks {
    /// A common d6's pips, one to six.
    pub fn pips() -> FaceMarks {
        FaceMarks((1..=6).map(Mark::Pips).collect())
    }

    /// The mark of a face value (blank past the list).
    pub fn of(&self, value: u32) -> Mark {
        value
            .checked_sub(1)
            .and_then(|i| self.0.get(i as usize))
            .cloned()
            .unwrap_or_default()
    }

    /// The marks as one short text, face by face, each [`Mark::key`] followed by '|': a cache
    /// key, and the `marks` of a page's atlas address.
    pub fn key(&self) -> String {
        self.0.iter().map(|m| m.key() + "|").collect()
    }

    /// The marks of a [`FaceMarks::key`], each checked, for a die of `kind` (None where a mark
    /// is no mark, does not fit the die, or the count is not the die's faces).
    pub fn from_key(key: &str, kind: DieKind) -> Option<FaceMarks> {
        let body = key.strip_suffix('|')?;
        let marks: Vec<Mark> = body.split('|').map(Mark::from_key).collect::<Option<_>>()?;
        if marks.len() != kind.faces() as usize || marks.iter().any(|m| m.fits(kind).is_err()) {
            return None;
        }
        Some(FaceMarks(marks))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Mark, String> {
        ron::from_str::<Mark>(text).map_err(|e| e.to_string())
    }

    #[test]
    fn marks_are_read_with_their_glyphs_and_lengths_checked() {
        assert_eq!(read("Symbol(\"✶▲\")"), Ok(Mark::Symbol("✶▲".into())));
        assert_eq!(read("Pips(3)"), Ok(Mark::Pips(3)));
        assert_eq!(read("Blank"), Ok(Mark::Blank));
        let missing = read("Symbol(\"🐉\")").unwrap_err();
        assert!(missing.contains("no glyph for '🐉' (U+1F409)"), "{missing}");
        assert!(read("Word(\"fortunate\")").unwrap_err().contains("1 to 6"));
        assert!(read("Pips(10)").unwrap_err().contains("1 to 9 pips"));
        assert!(read("Symbol(\"\")").is_err());
    }

    #[test]
    fn a_mark_fits_its_die_or_says_why_not() {
        assert_eq!(Mark::Pips(6).fits(DieKind::D6), Ok(()));
        assert_eq!(
            Mark::Pips(2).fits(DieKind::D8),
            Err("Pips(2) do not fit a d8's face: pips go on a d6".into())
        );
        assert!(Mark::Word("miss".into()).fits(DieKind::D12).is_ok());
        assert!(Mark::Word("hits".into()).fits(DieKind::D20).is_err());
        assert!(Mark::Symbol("✶✶".into()).fits(DieKind::D4).is_err());
    }

    #[test]
    fn marks_go_through_their_key_and_back() {
        let marks = FaceMarks(vec![
            Mark::Symbol("☠".into()),
            Mark::Pips(2),
            Mark::Pips(3),
            Mark::Blank,
            Mark::Word("hit".into()),
            Mark::Pips(6),
        ]);
        assert_eq!(marks.key(), "☠|:2|:3||hit|:6|");
        // A symbol and a word draw alike; the key keeps the text.
        let back = FaceMarks::from_key(&marks.key(), DieKind::D6);
        assert_eq!(
            back.map(|m| m.0.iter().map(Mark::key).collect::<Vec<_>>()),
            Some(marks.0.iter().map(Mark::key).collect())
        );
        assert_eq!(FaceMarks::from_key(&marks.key(), DieKind::D8), None);
        assert_eq!(FaceMarks::from_key("|||", DieKind::D4), None);
        assert_eq!(
            FaceMarks::from_key("||||", DieKind::D4).map(|m| m.0.len()),
            Some(4)
        );
        assert_eq!(marks.of(1).words(), "☠");
        assert_eq!(marks.of(7), Mark::Blank);
    }
}
