//! RON data: rule settings, dice chains, difficulty tables and action costs.
//!
//! Every file is validated when it is read. A bad file gives a [`DataError`] naming the file,
//! the line and column, and what was expected; it never panics. The shipped rule files are also
//! compiled in, so the CLI works from any directory and the table always has good data to fall
//! back on.

use std::fmt;
use std::path::Path;

use ron::extensions::Extensions;
use serde::de::DeserializeOwned;

use super::RulesetId;

/// A data file that could not be used, and where it went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct DataError {
    /// The file (or the name of the text, for data that did not come from a file).
    pub file: String,
    /// 1-based line, 0 when the error is not about a place in the text.
    pub line: usize,
    /// 1-based column, 0 when the error is not about a place in the text.
    pub column: usize,
    /// What was wrong or expected.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

impl DataError {
    /// An error about the file as a whole (or about a value found valid RON but wrong).
    pub fn whole(file: &str, message: impl Into<String>) -> Self {
        DataError {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: crate::text::one_line(&message.into()),
        }
    }
}

fn options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME)
}

/// Parses RON text; `file` names it in errors. A field the type does not have is refused by
/// name, with the known field nearest to it ([`unknown_field`]).
pub fn parse_ron<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, DataError> {
    options().from_str(text).map_err(|e| DataError {
        file: file.to_string(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: crate::text::one_line(&match &e.code {
            ron::Error::NoSuchStructField {
                expected,
                found,
                outer,
            } => unknown_field(found, outer.as_deref(), expected),
            code => code.to_string(),
        }),
    })
}

/// The words for a field a type does not have: "no field `zone` in `Throw`; did you mean
/// `zone_m`?", the nearest known field by edit distance when it is near enough to be a slip
/// (at most a third of the name's letters, and at least two, but fewer than the name has),
/// else the fields there are.
pub fn unknown_field(found: &str, outer: Option<&str>, expected: &[&str]) -> String {
    let place = outer.map(|o| format!(" in `{o}`")).unwrap_or_default();
    let nearest = expected
        .iter()
        .map(|known| (strsim::damerau_levenshtein(found, known), *known))
        .min()
        .filter(|(distance, _)| {
            let letters = found.chars().count();
            *distance <= (letters / 3).max(2) && *distance < letters
        });
    match (nearest, expected) {
        (Some((_, known)), _) => format!("no field `{found}`{place}; did you mean `{known}`?"),
        (None, []) => format!("no field `{found}`{place}: it takes no fields"),
        (None, known) => format!(
            "no field `{found}`{place}; the fields are {}",
            known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// serde's words for a field a type lacks, as JSON readers pass them on ("unknown field
/// `zone`, expected one of `zone_m`, `range_m` at line 1 column 40"), in ours: the field named
/// and the nearest known one ([`unknown_field`]), where it was kept. serde_json gives no typed
/// form of the error, so serde's own format (`serde::de::Error::unknown_field`) is read here
/// and nowhere else; a test pins it.
pub fn json_unknown_field(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (found, rest) = rest.split_once('`')?;
    let (known, place) = match rest.rfind(" at line ") {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let expected: Vec<&str> = known.split('`').skip(1).step_by(2).collect();
    Some(format!("{}{place}", unknown_field(found, None, &expected)))
}

/// A JSON reader's error in words: a field the type lacks named with the nearest known one
/// ([`json_unknown_field`]), any other error as serde_json says it.
pub fn json_error(e: &serde_json::Error) -> String {
    let said = e.to_string();
    json_unknown_field(&said).unwrap_or(said)
}

/// Reads and parses a RON file.
pub fn load_ron<T: DeserializeOwned>(path: &Path) -> Result<T, DataError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| DataError::whole(&name, format!("cannot read: {e}")))?;
    parse_ron(&name, &text)
}

/// The path of a ruleset's file under `assets/rules/`.
pub fn rules_file_name(id: RulesetId) -> String {
    format!("assets/rules/{id}.ron")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// serde's words for an unknown field, as serde_json gives them, read into ours.
    #[test]
    fn a_json_readers_unknown_field_is_named_with_the_nearest() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Throw {
            zone_m: u32,
            range_m: u32,
        }
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Nothing {}
        let said = |text: &str| -> String {
            json_error(&serde_json::from_str::<Throw>(text).expect_err("refused"))
        };
        assert_eq!(
            said(r#"{"zone": 3}"#),
            "no field `zone`; did you mean `zone_m`? at line 1 column 7"
        );
        assert_eq!(
            said(r#"{"limitbreak": 3}"#),
            "no field `limitbreak`; the fields are `zone_m`, `range_m` at line 1 column 13"
        );
        let e = serde_json::from_str::<Nothing>(r#"{"x": 1}"#).expect_err("refused");
        assert_eq!(
            json_unknown_field(&e.to_string()).as_deref(),
            Some("no field `x`: it takes no fields at line 1 column 4")
        );
        assert_eq!(
            json_unknown_field("expected value at line 1 column 1"),
            None
        );
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Sample {
        name: String,
        dice: Vec<u32>,
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let text = "(\n  name: \"x\",\n  dice: [4, six],\n)";
        let err = parse_ron::<Sample>("scenes/bad.ron", text).expect_err("must fail");
        assert_eq!(err.file, "scenes/bad.ron");
        assert_eq!(err.line, 3);
        assert!(err.column >= 13, "column {}", err.column);
        assert!(err.to_string().starts_with("scenes/bad.ron:3:"), "{err}");
        let unknown = parse_ron::<Sample>("a.ron", "(name: \"x\", dice: [], colour: 1)")
            .expect_err("must fail");
        assert_eq!(
            unknown.message,
            "no field `colour` in `Sample`; the fields are `name`, `dice`"
        );
        let typo = parse_ron::<Sample>("a.ron", "(name: \"x\", dcie: [])").expect_err("must fail");
        assert_eq!(
            typo.message,
            "no field `dcie` in `Sample`; did you mean `dice`?"
        );
    }

    #[test]
    fn an_error_quotes_at_most_a_line_of_what_it_refuses() {
        let long = "x".repeat(50_000);
        let texts = [
            // A long string where numbers go.
            format!("(name: \"x\", dice: [\"{long}\"])"),
            // A long unknown field.
            format!("(name: \"x\", dice: [], {long}: 1)"),
            // Lines of text where a name goes.
            format!("(name: [\"{}\"], dice: [])", "line\\n".repeat(5_000)),
        ];
        for text in texts {
            let err = parse_ron::<Sample>("upload", &text).expect_err("refused");
            let shown = err.to_string();
            assert!(shown.chars().count() <= 300, "{} characters", shown.len());
            assert_eq!(shown.lines().count(), 1, "{shown}");
        }
        assert_eq!(crate::text::one_line("a\nb"), "a…");
        assert_eq!(crate::text::one_line("short"), "short");
    }

    #[test]
    fn missing_file_is_an_error_not_a_panic() {
        let err = load_ron::<Sample>(Path::new("/nonexistent/x.ron")).expect_err("must fail");
        assert!(err.message.contains("cannot read"));
    }
}
