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

/// Parses RON text; `file` names it in errors.
pub fn parse_ron<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, DataError> {
    options().from_str(text).map_err(|e| DataError {
        file: file.to_string(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: crate::text::one_line(&e.code.to_string()),
    })
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
        assert!(unknown.message.contains("colour"), "{unknown}");
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
