//! The roll API's requests and errors: what `POST /api/roll` and `POST /api/move` accept, how a
//! bad request is told what is wrong (a 4xx with `{"code": "...", "error": "..."}`), and nothing
//! that panics.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::errors::ErrorCode;
use crate::net::error::HttpError;
use crate::odds::notation::Notation;
use crate::online::log::RollMode;
use crate::roll::RollError;
use crate::rules::RulesError;

/// The largest request body, bytes.
pub const MAX_BODY: usize = 16 * 1024;
/// The longest name.
const MAX_WHO: usize = 64;

/// The body of `POST /api/roll`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct RollBody {
    /// Dice notation ("2d6+3", "{d20+5}>=15", "8d10>7").
    pub notation: String,
    /// What the roll is for.
    #[serde(default)]
    pub label: Option<String>,
    /// Who rolls.
    #[serde(default)]
    pub who: Option<String>,
    /// Their colour, "#rrggbb" (default: one for the name).
    #[serde(default)]
    pub colour: Option<String>,
    /// The seed (default: a random one). Set it to throw a known roll again.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Who sees it, at a room (`play --join`): `public`, `gamemaster`, `blind` or `self`
    /// (default: the room's, as its game master set it).
    #[serde(default)]
    pub mode: Option<RollMode>,
}

/// The body of `POST /api/move` (all optional; an empty body is fine).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// What the move is for (default: the move in words).
    #[serde(default)]
    pub label: Option<String>,
    /// Who makes it.
    #[serde(default)]
    pub who: Option<String>,
    /// Their colour.
    #[serde(default)]
    pub colour: Option<String>,
    /// The seed (default: the table's next).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Who sees it, at a room: as `POST /api/roll`'s.
    #[serde(default)]
    pub mode: Option<RollMode>,
}

/// Who asked and what for, checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Asker {
    /// Who rolls.
    pub who: Option<String>,
    /// What for.
    pub label: Option<String>,
    /// Their colour, "#rrggbb".
    pub colour: Option<String>,
}

/// A checked roll request.
#[derive(Clone, Debug)]
pub struct RollOrder {
    /// The notation.
    pub notation: Notation,
    /// Who and what for.
    pub asker: Asker,
    /// The seed, if given.
    pub seed: Option<u64>,
    /// Who sees it at a room, if given.
    pub mode: Option<RollMode>,
}

/// Why a request was refused (or could not be answered).
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ApiError {
    /// The body is not JSON.
    #[error("malformed JSON: {0}")]
    Malformed(String),
    /// JSON, but not a request: unknown or missing fields, a name or colour out of range.
    #[error("{0}")]
    Invalid(String),
    /// The notation does not read, or cannot be thrown (a die no physical die makes, too many
    /// dice, none): the roll path's own words.
    #[error("{0}")]
    BadNotation(RollError),
    /// Over [`MAX_BODY`].
    #[error("the request body is over {} KiB", MAX_BODY / 1024)]
    TooLarge,
    /// The queue of rolls waiting for the table is full.
    #[error("{0} rolls are already waiting for the table: try again once they have settled")]
    QueueFull(usize),
    /// No or a wrong token, where one is needed.
    #[error(
        "this table needs its token: send it as 'Authorization: Bearer TOKEN' or '?token=TOKEN'"
    )]
    Unauthorized,
    /// No scene is seated in the window: no move to throw.
    #[error("no scene is seated: pick one in the window")]
    NoScene,
    /// A seed asked of a window at a table server's room: the room's server seeds its throws.
    #[error(
        "this window is at a table server's room (play --join), whose server seeds every throw: leave 'seed' out"
    )]
    AtARoom,
    /// A roll mode asked of a window alone: who sees a roll is a room's to say.
    #[error(
        "a roll mode ('mode') is a room's: this window is at no table server's room (play --join), so every roll is shown"
    )]
    NotAtARoom,
    /// The room's server refused the throw: its code and words.
    #[error("the room refused the throw: {reason}")]
    RoomRefused {
        /// The server's code.
        code: ErrorCode,
        /// Its words.
        reason: String,
    },
    /// The drafted move throws no dice (ending a turn): the roll API throws dice.
    #[error("the drafted move throws no dice ({0}): make it in the window")]
    NoDice(String),
    /// The window's table changed between the move's roll and its showing (a move made in
    /// the window meanwhile): nothing was applied.
    #[error("the table changed while the move was rolled: nothing was applied; ask again")]
    TableChanged,
    /// The rules do not allow the drafted move now.
    #[error("the rules do not allow the drafted move: {0}")]
    Refused(RulesError),
    /// The window closed.
    #[error("the table has closed")]
    Closed,
    /// The throw could not be made.
    #[error("the throw failed: {0}")]
    Failed(String),
    /// The roll path stopped the roll (more throws than a roll may take, the physics giving
    /// up): its own error and code.
    #[error("the roll stopped: {0}")]
    Roll(RollError),
    /// The dice did not settle in time.
    #[error("the dice did not settle within {0} s")]
    Timeout(u64),
    /// No such page.
    #[error("nothing here: {0}")]
    NotFound(String),
    /// A page of another site.
    #[error("a page of another site ({0}) may not use this table's API or feed")]
    ForeignOrigin(String),
    /// Another host name than this machine's (a page of another site, re-pointed here).
    #[error(
        "this table answers only to 127.0.0.1, localhost or [::1] at its port, not '{0}' (start it with --token to open it to other machines)"
    )]
    ForeignHost(String),
    /// A body not declared JSON.
    #[error("send the body as JSON, with 'Content-Type: application/json'")]
    NotJson,
    /// A label over a room's limit ([`crate::text::LABEL_BYTES`]): the same rule
    /// as a room's, so a roll the window's API takes is one a room would take.
    #[error("a label is at most {} bytes", crate::text::LABEL_BYTES)]
    LabelTooLong,
    /// A label with a character that cannot be shown as it is (the rooms' rule).
    #[error(
        "'label' may not hold control, format or line-break characters (escape codes, direction overrides, newlines)"
    )]
    BadLabel,
    /// A name (`who`) with a character that cannot be shown as it is (the rooms' rule).
    #[error(
        "'who' may not hold control, format or line-break characters (escape codes, direction overrides, newlines)"
    )]
    BadWho,
}

impl ApiError {
    /// The HTTP status of the error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Malformed(_) => StatusCode::BAD_REQUEST,
            ApiError::Invalid(_)
            | ApiError::LabelTooLong
            | ApiError::BadLabel
            | ApiError::BadWho
            | ApiError::BadNotation(_)
            | ApiError::Refused(RulesError::OutOfRange(_) | RulesError::TooManyDice { .. }) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::QueueFull(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::NoScene
            | ApiError::AtARoom
            | ApiError::NotAtARoom
            | ApiError::RoomRefused { .. }
            | ApiError::NoDice(_)
            | ApiError::TableChanged
            | ApiError::Refused(_) => StatusCode::CONFLICT,
            ApiError::Closed => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
            // A roll that keeps asking for throws is the notation's doing; the physics giving
            // up is the table's.
            ApiError::Roll(RollError::Physics(_)) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Roll(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Timeout(_) => StatusCode::GATEWAY_TIMEOUT,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::ForeignOrigin(_) | ApiError::ForeignHost(_) => StatusCode::FORBIDDEN,
            ApiError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }

    /// The stable code of the error.
    pub fn code(&self) -> ErrorCode {
        match self {
            ApiError::Malformed(_) => ErrorCode::Malformed,
            ApiError::Invalid(_) => ErrorCode::Invalid,
            ApiError::BadNotation(e) => e.code(),
            ApiError::TooLarge => ErrorCode::TooLarge,
            ApiError::QueueFull(_) => ErrorCode::QueueFull,
            ApiError::Unauthorized => ErrorCode::Unauthorized,
            ApiError::NoScene => ErrorCode::NoScene,
            ApiError::AtARoom => ErrorCode::AtARoom,
            ApiError::NotAtARoom => ErrorCode::NotAtARoom,
            ApiError::RoomRefused { code, .. } => *code,
            ApiError::NoDice(_) => ErrorCode::NoDice,
            ApiError::TableChanged => ErrorCode::TableChanged,
            ApiError::Refused(e) => e.code(),
            ApiError::Closed => ErrorCode::TableClosed,
            ApiError::Failed(_) => ErrorCode::ThrowFailed,
            ApiError::Roll(e) => e.code(),
            ApiError::Timeout(_) => ErrorCode::Timeout,
            ApiError::NotFound(_) => ErrorCode::NotFound,
            ApiError::ForeignOrigin(_) => ErrorCode::ForeignOrigin,
            ApiError::ForeignHost(_) => ErrorCode::ForeignHost,
            ApiError::NotJson => ErrorCode::NotJson,
            ApiError::LabelTooLong => ErrorCode::LabelTooLong,
            ApiError::BadLabel => ErrorCode::BadLabel,
            ApiError::BadWho => ErrorCode::Invalid,
        }
    }

    /// The kind of a rules' refusal, where the rules refused (`refusal_kind` in the body).
    pub fn refusal_kind(&self) -> Option<crate::rules::RefusalKind> {
        match self {
            ApiError::Refused(e) => e.kind(),
            ApiError::Roll(e) => e.refusal_kind(),
            _ => None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let kind = self.refusal_kind().map(crate::rules::RefusalKind::as_str);
        HttpError::new(self.status(), self.code(), self.to_string())
            .with_refusal_kind(kind)
            .into_response()
    }
}

/// Reads a JSON body: not JSON is a 400, the wrong fields a 422.
pub fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => ApiError::Invalid(crate::rules::data::json_error(&e)),
        _ => ApiError::Malformed(e.to_string()),
    })
}

/// Checks a name, a label and a colour.
pub fn asker(
    who: Option<String>,
    label: Option<String>,
    colour: Option<String>,
) -> Result<Asker, ApiError> {
    let trimmed = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    let (who, label) = (trimmed(who), trimmed(label));
    if who.as_ref().is_some_and(|w| w.chars().count() > MAX_WHO) {
        return Err(ApiError::Invalid(format!(
            "'who' is longer than {MAX_WHO} characters"
        )));
    }
    if label
        .as_ref()
        .is_some_and(|l| l.len() > crate::text::LABEL_BYTES)
    {
        return Err(ApiError::LabelTooLong);
    }
    let unshowable = |text: &Option<String>| {
        text.as_deref()
            .is_some_and(|t| !crate::text::shows_as_is(t))
    };
    if unshowable(&who) {
        return Err(ApiError::BadWho);
    }
    if unshowable(&label) {
        return Err(ApiError::BadLabel);
    }
    if let Some(c) = &colour
        && (!c.starts_with('#') || crate::net::feed::parse_hex(c).is_none())
    {
        return Err(ApiError::Invalid(format!(
            "'colour' must be #rrggbb, not '{c}'"
        )));
    }
    Ok(Asker {
        who,
        label,
        colour: colour.map(|c| c.to_ascii_lowercase()),
    })
}

/// Checks a roll request: JSON with known fields, a notation the table throws (the roll path's
/// one check: at most [`crate::dice::MOST_IN_A_THROW`] physical dice).
pub fn roll_order(body: &[u8]) -> Result<RollOrder, ApiError> {
    let body: RollBody = parse(body)?;
    let notation = Notation::parse(&body.notation).map_err(|e| ApiError::BadNotation(e.into()))?;
    crate::roll::notation_dice(&notation).map_err(ApiError::BadNotation)?;
    Ok(RollOrder {
        notation,
        asker: asker(body.who, body.label, body.colour)?,
        seed: body.seed,
        mode: body.mode,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(body: &str) -> (StatusCode, String) {
        let e = roll_order(body.as_bytes()).expect_err("refused");
        (e.status(), e.to_string())
    }

    fn code(body: &str) -> ErrorCode {
        roll_order(body.as_bytes()).expect_err("refused").code()
    }

    #[test]
    fn a_rules_refusal_answers_its_kind_beside_its_code() {
        let e = ApiError::Refused(RulesError::from(crate::rules::refusal::refuse!(
            Spent,
            "{} has no Fortune left this session",
            "Fred"
        )));
        let response = e.into_response();
        assert_eq!(response.status(), StatusCode::CONFLICT);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let body = runtime
            .block_on(axum::body::to_bytes(response.into_body(), 1 << 16))
            .expect("a body");
        let body: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
        assert_eq!(
            body,
            serde_json::json!({
                "code": "rules_refused",
                "error": "the rules do not allow the drafted move: Fred has no Fortune left this session",
                "refusal_kind": "spent"
            })
        );
    }

    #[test]
    fn a_good_request_is_read() {
        let order = roll_order(
            br##"{"notation":"2d6+3","who":" Vex ","label":"attack","colour":"#FFAA00"}"##,
        )
        .expect("reads");
        assert_eq!(order.notation.source(), "2d6+3");
        assert_eq!(order.asker.who.as_deref(), Some("Vex"));
        assert_eq!(order.asker.colour.as_deref(), Some("#ffaa00"));
    }

    #[test]
    fn a_label_follows_the_rooms_rule() {
        // A right-to-left override would turn the overlay's text around: refused, as a room
        // refuses it, with the same code.
        let body = format!(r#"{{"notation":"d20","label":"a{}b"}}"#, '\u{202E}');
        let e = roll_order(body.as_bytes()).expect_err("refused");
        assert_eq!(e.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(e.code(), ErrorCode::BadLabel);
        let e = roll_order(br#"{"notation":"d20","who":"Vex\nGM"}"#).expect_err("refused");
        assert_eq!(e.code(), ErrorCode::Invalid);
        assert_eq!(
            e.to_string(),
            "'who' may not hold control, format or line-break characters (escape codes, direction overrides, newlines)"
        );
        // The rooms' length: 200 bytes (100 two-byte letters pass, 101 do not).
        let label = |n| format!(r#"{{"notation":"d20","label":"{}"}}"#, "é".repeat(n));
        assert!(roll_order(label(100).as_bytes()).is_ok());
        let e = roll_order(label(101).as_bytes()).expect_err("refused");
        assert_eq!(e.code(), ErrorCode::LabelTooLong);
        assert_eq!(e.to_string(), "a label is at most 200 bytes");
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let (s, m) = refused("{\"notation\": ");
        assert_eq!(s, StatusCode::BAD_REQUEST);
        assert_eq!(
            m,
            "malformed JSON: EOF while parsing a value at line 1 column 13"
        );
        let (s, m) = refused(r#"{"notation":"3d6","cheat":true}"#);
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            m,
            "no field `cheat`; the fields are `notation`, `label`, `who`, `colour`, `seed`, `mode` at line 1 \
             column 25"
        );
        let (s, m) = refused(r#"{"notaton":"3d6"}"#);
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            m,
            "no field `notaton`; did you mean `notation`? at line 1 column 10"
        );
        let e = roll_order(br#"{"notation":"3q6"}"#).expect_err("refused");
        assert_eq!(e.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            matches!(&e, ApiError::BadNotation(RollError::Notation(n)) if n.position == 1),
            "{e:?}"
        );
        let (s, m) = refused(r#"{"notation":"60d6+41d8"}"#);
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            m,
            "a throw holds at most 100 dice in all (a d% is two: its tens and its units; a larger die of another size, d9, d11, d13, d15, d17, d18 or d21 to d30, counts two); this one has 101"
        );
        let (_, m) = refused(r#"{"notation":"51d100"}"#);
        assert_eq!(
            m,
            "a throw holds at most 100 dice in all (a d% is two: its tens and its units; a larger die of another size, d9, d11, d13, d15, d17, d18 or d21 to d30, counts two); this one has 102"
        );
        let (s, m) = refused(r#"{"label":"x"}"#);
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(m, "missing field `notation` at line 1 column 13");
        let (_, m) = refused(r#"{"notation":"d6","colour":"red"}"#);
        assert_eq!(m, "'colour' must be #rrggbb, not 'red'");
        assert_eq!(code("{\"notation\": "), ErrorCode::Malformed);
        assert_eq!(
            code(r#"{"notation":"3d6","cheat":true}"#),
            ErrorCode::Invalid
        );
        assert_eq!(code(r#"{"notation":"3q6"}"#), ErrorCode::BadNotation);
        assert_eq!(code(r#"{"notation":"2d31"}"#), ErrorCode::NoSuchDie);
        assert_eq!(code(r#"{"notation":"60d6+41d8"}"#), ErrorCode::TooManyDice);
        assert_eq!(
            code(r#"{"notation":"d6","colour":"red"}"#),
            ErrorCode::Invalid
        );
    }
}
