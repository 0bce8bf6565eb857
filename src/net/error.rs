//! Errors into responses, one way for both servers: a status, and a JSON body with the stable
//! `code` beside the text (`{"code": "queue_full", "error": "8 rolls are already waiting…"}`).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::errors::ErrorCode;

/// An error as an HTTP answer.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpError {
    /// The status.
    pub status: StatusCode,
    /// The stable code.
    pub code: ErrorCode,
    /// What is wrong, for people.
    pub message: String,
    /// The kind of a rules' refusal (`spent`, `not_their_turn`...), beside `rules_refused`.
    pub refusal_kind: Option<&'static str>,
    /// Where asking again later helps (`busy`): how long to wait, sent as `Retry-After` (whole
    /// seconds, as HTTP has it) and `retry_after_ms` in the body.
    pub retry_after: Option<std::time::Duration>,
}

impl HttpError {
    /// An answer of `status` with a code and a text.
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> HttpError {
        HttpError {
            status,
            code,
            message: message.into(),
            refusal_kind: None,
            retry_after: None,
        }
    }

    /// The same answer with the time to wait before asking again.
    pub fn with_retry_after(self, wait: Option<std::time::Duration>) -> HttpError {
        HttpError {
            retry_after: wait,
            ..self
        }
    }

    /// The same answer with the kind of the rules' refusal, where there is one.
    pub fn with_refusal_kind(self, kind: Option<&'static str>) -> HttpError {
        HttpError {
            refusal_kind: kind,
            ..self
        }
    }

    /// Nothing at `path` (404).
    pub fn not_found(what: impl std::fmt::Display) -> HttpError {
        HttpError::new(
            StatusCode::NOT_FOUND,
            ErrorCode::NotFound,
            format!("nothing here: {what}"),
        )
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "code": self.code, "error": self.message });
        if let Some(kind) = self.refusal_kind {
            body["refusal_kind"] = kind.into();
        }
        let Some(wait) = self.retry_after else {
            return (self.status, Json(body)).into_response();
        };
        body["retry_after_ms"] = (wait.as_millis() as u64).into();
        let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        let header = [(axum::http::header::RETRY_AFTER, seconds.to_string())];
        (self.status, header, Json(body)).into_response()
    }
}

impl From<crate::work::WorkError> for HttpError {
    /// A client with as many requests under way as its share allows is told so (429, `busy`);
    /// a job that broke is the server's fault (500).
    fn from(e: crate::work::WorkError) -> HttpError {
        let status = match e {
            crate::work::WorkError::Busy { .. } => StatusCode::TOO_MANY_REQUESTS,
            crate::work::WorkError::Lost { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        };
        HttpError::new(status, e.code(), e.to_string()).with_retry_after(e.retry_after())
    }
}
