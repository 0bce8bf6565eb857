//! The security headers of every answer, both servers alike: a Content-Security-Policy on every
//! page that lets it run only the server's own scripts and styles and talk only to its own
//! server, and be framed only where the owner allows (`frame-ancestors`: a room's tray is the
//! room page's own frame; Throw and Reveal cannot be clickjacked by another site); `nosniff` on
//! everything, and no `Referer` sent onward.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

/// The policy up to its `frame-ancestors` sources, written once (a macro, so that the default
/// policy is one literal).
macro_rules! csp_before_frame_ancestors {
    () => {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors "
    };
}

/// Who may frame the pages, by default: their own server only.
pub const FRAME_ANCESTORS: &str = "'self'";

/// The policy the pages are served under.
#[derive(Clone, Debug)]
pub struct Policy {
    csp: HeaderValue,
}

/// A `frame-ancestors` list that cannot be a header (a control character, a `;` that would
/// add directives of its own).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "'{0}' is not a frame-ancestors list: sources separated by spaces, such as 'self' or https://example.org"
)]
pub struct BadFrameAncestors(pub String);

impl Policy {
    /// The policy with `frame_ancestors` (`'self'`, `'none'`, `https://example.org`, ...).
    pub fn new(frame_ancestors: &str) -> Result<Policy, BadFrameAncestors> {
        let bad = || BadFrameAncestors(frame_ancestors.to_string());
        let sources = frame_ancestors.trim();
        if sources.is_empty() || sources.contains([';', ',']) {
            return Err(bad());
        }
        let csp = format!("{}{sources}", csp_before_frame_ancestors!());
        let csp = HeaderValue::from_str(&csp).map_err(|_| bad())?;
        Ok(Policy { csp })
    }
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            csp: HeaderValue::from_static(concat!(csp_before_frame_ancestors!(), "'self'")),
        }
    }
}

/// Middleware: the headers on every answer (the policy on HTML pages).
pub async fn secure(State(policy): State<Arc<Policy>>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let is_page = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if is_page {
        headers.insert(header::CONTENT_SECURITY_POLICY, policy.csp.clone());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_ancestors_are_sources_and_nothing_more() {
        let policy = Policy::new("'self' https://obs.example.org").expect("a list");
        let csp = policy.csp.to_str().expect("text");
        assert!(
            csp.ends_with("frame-ancestors 'self' https://obs.example.org"),
            "{csp}"
        );
        assert_eq!(
            Policy::default().csp,
            Policy::new(FRAME_ANCESTORS).expect("the default").csp
        );
        for bad in ["", "'self'; script-src *", "a,b", "'self' \u{7}"] {
            assert!(Policy::new(bad).is_err(), "{bad:?}");
        }
    }
}
