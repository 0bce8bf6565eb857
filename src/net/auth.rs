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

/// Whether a request names this machine at the port served: `127.0.0.1:PORT`, `localhost:PORT`
/// or `[::1]:PORT` (no port where it is 80). A page of another site that re-points its own
/// name at 127.0.0.1 (DNS rebinding) still sends its own name, and is told apart here. No
/// `Host` at all is allowed: every browser sends one.
pub fn host_is_this_machine(headers: &HeaderMap, port: u16) -> bool {
    let Some(host) = headers.get(header::HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    let host = host.to_ascii_lowercase();
    let (name, given_port) = match host.rsplit_once(':') {
        Some((name, p)) if !name.ends_with(':') && !p.ends_with(']') => (name, p.parse().ok()),
        _ => (host.as_str(), Some(80)),
    };
    let loopback = name == "localhost"
        || name == "[::1]"
        || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback());
    loopback && given_port == Some(port)
}

/// Whether a request names a host this server answers to: an IP address as such (a page of
/// another site re-pointed here by its DNS sends its own name, never an address), `localhost`,
/// or a name the owner listed (`serve --host`, `play --host`), any port. No `Host` at all is
/// allowed: every browser sends one.
pub fn host_is_served(headers: &HeaderMap, names: &[String]) -> bool {
    let Some(host) = headers.get(header::HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    let host = host.trim().to_ascii_lowercase();
    if let Some(rest) = host.strip_prefix('[') {
        // An IPv6 address, with or without a port.
        return rest
            .split_once(']')
            .is_some_and(|(ip, _)| ip.parse::<std::net::Ipv6Addr>().is_ok());
    }
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host.as_str(),
    };
    let name = name.strip_suffix('.').unwrap_or(name);
    name.parse::<std::net::Ipv4Addr>().is_ok()
        || name == "localhost"
        || names.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// Whether a request's body is declared JSON (`Content-Type: application/json`, with any
/// parameters). A page of another site can send `text/plain` without asking first; JSON it
/// cannot.
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
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
    /// The address has as many passcode checks waiting as it may
    /// (`crate::work::PASSCODES_PER_ADDRESS`): asked again after `retry_after`, it is queued.
    #[error("the server is busy checking passcodes: try again in a moment")]
    Busy {
        /// How long to wait before asking again.
        retry_after: std::time::Duration,
    },
}

impl PasscodeError {
    /// How long to wait before asking again, where asking again can help.
    pub fn retry_after(&self) -> Option<std::time::Duration> {
        match self {
            PasscodeError::Busy { retry_after } => Some(*retry_after),
            _ => None,
        }
    }
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

/// What became of a passcode job on the pool.
fn worked<T>(done: Result<T, crate::work::WorkError>) -> Result<T, PasscodeError> {
    done.map_err(|e| match e {
        crate::work::WorkError::Busy { retry_after, .. } => PasscodeError::Busy { retry_after },
        crate::work::WorkError::Lost { .. } => PasscodeError::Stopped,
    })
}

/// [`hash_passcode`] on the passcode pool (`crate::work::passcodes`), in `client`'s turn.
pub async fn hash_passcode_async(
    client: crate::work::Client,
    passcode: String,
) -> Result<String, PasscodeError> {
    worked(
        crate::work::passcodes()
            .run(client, move |_| hash_passcode(&passcode))
            .await,
    )?
}

/// [`passcode_matches`] on the passcode pool, in `client`'s turn, or before every turn for
/// a client the room already knows (`first`): guessers never hold up its members. When its
/// turn comes, `may_try` is asked again before anything is hashed: a check queued behind a
/// wrong guess from the same address is refused with `may_try`'s answer, unhashed, so a
/// queue of guesses costs no more hashes than the doorkeeper's back-off lets through.
pub async fn passcode_matches_async<E: Send + 'static>(
    client: crate::work::Client,
    first: bool,
    passcode: String,
    kept: String,
    may_try: impl FnOnce() -> Result<(), E> + Send + 'static,
) -> Result<Result<bool, E>, PasscodeError> {
    let check =
        move |_: &crate::odds::stop::Cancel| may_try().map(|()| passcode_matches(&passcode, &kept));
    let pool = crate::work::passcodes();
    worked(if first {
        pool.run_first(client, check).await
    } else {
        pool.run(client, check).await
    })
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
    fn a_server_answers_to_addresses_localhost_and_the_names_listed() {
        let with = |host: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(header::HOST, HeaderValue::from_static(host));
            h
        };
        let names = ["dice.example.org".to_string()];
        for served in [
            "127.0.0.1:7480",
            "192.168.1.20",
            "[::1]:7480",
            "[2001:db8::1]",
            "localhost:7480",
            "LOCALHOST",
            "dice.example.org",
            "Dice.Example.Org.:443",
        ] {
            assert!(host_is_served(&with(served), &names), "{served}");
        }
        for foreign in [
            "evil.example:7480",
            "127.0.0.1.evil.example",
            "dice.example.org.evil.example",
            "[::1",
            "",
        ] {
            assert!(!host_is_served(&with(foreign), &names), "{foreign}");
        }
        assert!(host_is_served(&HeaderMap::new(), &names), "no Host");
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
        // Exactly the token: no space or case folded away (a trailing space after a header's
        // value is HTTP's own optional whitespace, removed before any handler sees it).
        let empty = HeaderMap::new();
        for near in ["s3cret ", " s3cret", "S3cret", "s3cret\0", ""] {
            assert!(!has_token(&empty, Some(near), "s3cret"), "{near:?}");
        }
        for near in [
            "Bearer  s3cret",
            "bearer s3cret",
            "Bearer s3cret\t",
            "Bearer\ts3cret",
        ] {
            let mut h = HeaderMap::new();
            h.insert(
                header::AUTHORIZATION,
                HeaderValue::from_str(near).expect("a header value"),
            );
            assert!(!has_token(&h, None, "s3cret"), "{near:?}");
        }
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
        h.insert(header::ORIGIN, HeaderValue::from_static("null"));
        assert!(!origin_allowed(&h));
    }

    #[test]
    fn only_this_machines_names_at_the_port_served_are_its_host() {
        let host = |value: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(header::HOST, HeaderValue::from_static(value));
            host_is_this_machine(&h, 7470)
        };
        for ok in [
            "127.0.0.1:7470",
            "localhost:7470",
            "LOCALHOST:7470",
            "[::1]:7470",
            "127.9.9.9:7470",
        ] {
            assert!(host(ok), "{ok}");
        }
        for bad in [
            "evil.example:7470",
            "127.0.0.1:7471",
            "127.0.0.1",
            "localhost",
            "192.168.1.2:7470",
            "[::2]:7470",
            "127.0.0.1.evil.example:7470",
        ] {
            assert!(!host(bad), "{bad}");
        }
        assert!(
            host_is_this_machine(&HeaderMap::new(), 7470),
            "no Host: not a browser"
        );
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("localhost"));
        assert!(host_is_this_machine(&h, 80));
        let json = |value: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(value));
            is_json(&h)
        };
        assert!(json("application/json") && json("Application/JSON; charset=utf-8"));
        assert!(!json("text/plain") && !json("application/x-www-form-urlencoded"));
        assert!(!is_json(&HeaderMap::new()));
    }
}
