//! Why the rules refuse: a kind for programs ([`RefusalKind`]) beside a sentence for people. Every
//! rule that can say no says it as a [`Refusal`]; a client greys out a button, asks for
//! initiative or names the spent resource by the kind, never by reading the sentence.

use serde::{Deserialize, Serialize};

/// The kind of a refusal: stable, `snake_case` on the wire (`kind` beside the code `rules_refused`
/// and the sentence), listed in `docs/errors.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// Another acts first, or the character has acted (their turn, their action, their side).
    NotTheirTurn,
    /// Not at this point of the scene: before initiative, after the scene, outside a round.
    NotNow,
    /// What the move spends is spent: action dice, shots, Fortune, Action Load, a round's
    /// action.
    Spent,
    /// The character cannot make this move: a skill or ability they lack, knocked out, not
    /// focused, unnamed.
    Unable,
    /// The move's target or partners do not fit: the character themself, the other side, one
    /// listed twice, one knocked out.
    Target,
    /// Done already, and once is the most: adopted, pushed, focused, declared.
    Already,
    /// The move's own choices do not fit together or the table's options.
    Choice,
    /// No such character, skill, task, row or stance.
    Unknown,
    /// A scene or rules file that does not fit its ruleset (read when a scene is loaded).
    Scene,
    /// Faces that do not fit the dice asked for: a face off its die, a throw of the wrong
    /// size, a throw nobody asked for.
    Faces,
}

impl RefusalKind {
    /// The kind as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            RefusalKind::NotTheirTurn => "not_their_turn",
            RefusalKind::NotNow => "not_now",
            RefusalKind::Spent => "spent",
            RefusalKind::Unable => "unable",
            RefusalKind::Target => "target",
            RefusalKind::Already => "already",
            RefusalKind::Choice => "choice",
            RefusalKind::Unknown => "unknown",
            RefusalKind::Scene => "scene",
            RefusalKind::Faces => "faces",
        }
    }

    /// Every kind, in the order `docs/errors.md` lists them.
    pub const ALL: [RefusalKind; 10] = [
        RefusalKind::NotTheirTurn,
        RefusalKind::NotNow,
        RefusalKind::Spent,
        RefusalKind::Unable,
        RefusalKind::Target,
        RefusalKind::Already,
        RefusalKind::Choice,
        RefusalKind::Unknown,
        RefusalKind::Scene,
        RefusalKind::Faces,
    ];
}

/// A rule's no: its [`RefusalKind`] and its sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text}")]
pub struct Refusal {
    /// The kind, for programs.
    pub kind: RefusalKind,
    /// The rules' own words, for people (they may change; the kind does not).
    pub text: String,
}

impl Refusal {
    /// A refusal of `kind` in `text`.
    pub fn new(kind: RefusalKind, text: impl Into<String>) -> Refusal {
        Refusal {
            kind,
            text: text.into(),
        }
    }

    /// The same refusal with `context` before its sentence ("Ash's check: ...").
    pub fn within(self, context: impl std::fmt::Display) -> Refusal {
        Refusal {
            text: format!("{context}: {}", self.text),
            ..self
        }
    }
}

/// `refuse!(Kind, "format", args...)`: a [`Refusal`] of that [`RefusalKind`] with the formatted
/// text.
macro_rules! refuse {
    ($kind:ident, $($text:tt)+) => {
        $crate::rules::refusal::Refusal::new(
            $crate::rules::refusal::RefusalKind::$kind,
            format!($($text)+),
        )
    };
}
pub(crate) use refuse;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_written_as_serde_writes_it() {
        for kind in RefusalKind::ALL {
            assert_eq!(
                serde_json::to_string(&kind).expect("json"),
                format!("\"{}\"", kind.as_str())
            );
        }
        let r = refuse!(Spent, "{} has no Fortune left", "Ash");
        assert_eq!(
            r,
            Refusal::new(RefusalKind::Spent, "Ash has no Fortune left")
        );
        assert_eq!(r.to_string(), "Ash has no Fortune left");
    }
}
