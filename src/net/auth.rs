//! Who may: the one constant-time compare, the token of the stream server, the Origin check
//! that keeps other sites' pages off a socket, and passcodes (argon2, never kept in clear,
//! hashed on one thread of their own).

use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};
use axum::http::{HeaderMap, header};

/// Bytes of a passcode's salt.
const SALT_BYTES: usize = 16;

/// Constant-time equality of two strings (a token, a commitment, a seal): no early exit for a
/// timer to find.
pub fn same(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// Whether a request carries the token: `Authorization: Bearer TOKEN`, or `?token=TOKEN` in
/// its query (for pages and OBS, which cannot set headers).
pub fn has_token(headers: &HeaderMap, query_token: Option<&str>, token: &str) -> bool {
    let from_header = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    from_header
        .or(query_token)
        .is_some_and(|given| same(given, token))
}

/// Whether a browser page may open a socket here: no Origin (not a browser), or an Origin whose
/// host is this server's (a WebSocket has no same-origin rule of its own).
pub fn origin_allowed(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin
        .split_once("://")
        .map(|(_, rest)| rest)
        .unwrap_or(origin);
    !host.is_empty() && origin_host == host
}

/// A passcode could not be hashed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasscodeError {
    /// argon2 refused.
    #[error("could not hash the passcode: {0}")]
    Hash(String),
    /// The hashing thread is gone.
    #[error("the passcode thread stopped")]
    Stopped,
}

/// Argon2id with 8 MiB and one pass: a guess costs a few milliseconds, a join too.
fn argon2() -> Argon2<'static> {
    let params = Params::new(8 * 1024, 1, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A passcode's salted hash (PHC string) to keep instead of the passcode.
pub fn hash_passcode(passcode: &str) -> Result<String, PasscodeError> {
    let salt: [u8; SALT_BYTES] = rand::random();
    argon2()
        .hash_password_with_salt(passcode.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| PasscodeError::Hash(e.to_string()))
}

/// Whether a passcode matches a kept hash (argon2 compares in constant time).
pub fn passcode_matches(passcode: &str, kept: &str) -> bool {
    argon2().verify_password(passcode.as_bytes(), kept).is_ok()
}

/// A passcode job for the hashing thread.
enum HashJob {
    Hash(
        String,
        tokio::sync::oneshot::Sender<Result<String, PasscodeError>>,
    ),
    Check(String, String, tokio::sync::oneshot::Sender<bool>),
}

/// The one thread that hashes passcodes: argon2 takes 8 MiB a hash, and that memory stays
/// with the thread that used it, so one thread keeps it once (a crowd joining at once waits
/// its turn instead of taking the server's memory).
fn hasher() -> &'static std::sync::Mutex<std::sync::mpsc::Sender<HashJob>> {
    static HASHER: std::sync::OnceLock<std::sync::Mutex<std::sync::mpsc::Sender<HashJob>>> =
        std::sync::OnceLock::new();
    HASHER.get_or_init(|| {
        let (jobs, queue) = std::sync::mpsc::channel::<HashJob>();
        let _ = std::thread::Builder::new()
            .name("passcodes".into())
            .spawn(move || {
                for job in queue {
                    match job {
                        HashJob::Hash(p, done) => {
                            let _ = done.send(hash_passcode(&p));
                        }
                        HashJob::Check(p, kept, done) => {
                            let _ = done.send(passcode_matches(&p, &kept));
                        }
                    }
                }
            });
        std::sync::Mutex::new(jobs)
    })
}

/// [`hash_passcode`] on the hashing thread.
pub async fn hash_passcode_async(passcode: String) -> Result<String, PasscodeError> {
    let (done, answer) = tokio::sync::oneshot::channel();
    hasher()
        .lock()
        .map_err(|_| PasscodeError::Stopped)?
        .send(HashJob::Hash(passcode, done))
        .map_err(|_| PasscodeError::Stopped)?;
    answer.await.map_err(|_| PasscodeError::Stopped)?
}

/// [`passcode_matches`] on the hashing thread.
pub async fn passcode_matches_async(passcode: String, kept: String) -> bool {
    let (done, answer) = tokio::sync::oneshot::channel();
    let sent = hasher()
        .lock()
        .map(|jobs| jobs.send(HashJob::Check(passcode, kept, done)).is_ok())
        .unwrap_or(false);
    sent && answer.await.unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn passcodes_are_kept_hashed_and_checked() {
        let kept = hash_passcode("open sesame").expect("hashes");
        assert!(kept.starts_with("$argon2id$"), "{kept}");
        assert!(!kept.contains("open sesame"));
        assert!(passcode_matches("open sesame", &kept));
        assert!(!passcode_matches("open sesame!", &kept));
        assert!(!passcode_matches("open sesame", "not a hash"));
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
    }

    #[test]
    fn tokens_come_in_a_header_or_the_query_and_origins_must_be_this_host() {
        let mut h = HeaderMap::new();
        assert!(!has_token(&h, None, "s3cret"));
        assert!(has_token(&h, Some("s3cret"), "s3cret"));
        assert!(!has_token(&h, Some("s3cre"), "s3cret"));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer s3cret"),
        );
        assert!(has_token(&h, None, "s3cret"));
        let mut h = HeaderMap::new();
        assert!(origin_allowed(&h), "not a browser");
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:7480"));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:7480"),
        );
        assert!(origin_allowed(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert!(!origin_allowed(&h));
    }
}
