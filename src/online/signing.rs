//! The table server's own key, Ed25519 (ring, as TLS uses): it signs the head of every export,
//! so that whoever holds an export and the server's public key can tell the log is the server's
//! whole log up to its head: cut short, extended or given a new head, it fails `verify --key`.
//! The key lives in the server's data folder, made the first time it is needed; its public half
//! is shown on the front page and by `serve --print-key`.

use std::path::{Path, PathBuf};

use base64::Engine;
use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};

/// The file in a data folder that holds the server's private key (PKCS#8).
pub const KEY_FILE: &str = "server-key.pk8";
/// How a public key is written: `ed25519:` and its 32 bytes in base64url, no padding.
const PREFIX: &str = "ed25519:";
/// What a head's signature covers, before the head's own fields.
const DOMAIN: &str = "dicetable export head v1";

/// The server's key could not be read or made.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The file could not be read or written.
    #[error("the server key {path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The file is not an Ed25519 key.
    #[error("the server key {path} is not an Ed25519 PKCS#8 key: {reason}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What ring said.
        reason: String,
    },
    /// The system's random numbers were not available.
    #[error("no system randomness to make the server key")]
    Random,
}

/// The server's signing key.
pub struct ServerKey {
    pair: Ed25519KeyPair,
}

impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerKey")
            .field("public", &self.public())
            .finish()
    }
}

impl ServerKey {
    /// The key in `dir` (its [`KEY_FILE`]), made and written (owner-only, whole or not at all)
    /// when there is none; always the key the file holds.
    pub fn load_or_create(dir: &Path) -> Result<ServerKey, KeyError> {
        let path = dir.join(KEY_FILE);
        let io = |error| KeyError::Io {
            path: path.clone(),
            error,
        };
        if !path.exists() {
            let rng = ring::rand::SystemRandom::new();
            let doc = Ed25519KeyPair::generate_pkcs8(&rng).map_err(|_| KeyError::Random)?;
            std::fs::create_dir_all(dir).map_err(io)?;
            super::keys::write_private(&path, doc.as_ref()).map_err(io)?;
        }
        let bytes = std::fs::read(&path).map_err(io)?;
        Ed25519KeyPair::from_pkcs8(&bytes)
            .map(|pair| ServerKey { pair })
            .map_err(|e| KeyError::Invalid {
                path: path.clone(),
                reason: e.to_string(),
            })
    }

    /// The public key as shown and as `verify --key` takes it: `ed25519:` and base64url.
    pub fn public(&self) -> String {
        format!(
            "{PREFIX}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(self.pair.public_key())
        )
    }

    /// Signs a head (room, last entry, its line's hash): base64url of the signature.
    pub fn sign_head(&self, room: &str, seq: u64, hash: &str) -> String {
        let signature = self.pair.sign(head_message(room, seq, hash).as_bytes());
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(signature.as_ref())
    }
}

/// The bytes a head's signature covers.
fn head_message(room: &str, seq: u64, hash: &str) -> String {
    format!("{DOMAIN}\n{room}\n{seq}\n{hash}")
}

/// A public key written as [`ServerKey::public`] does, or why it is not one.
pub fn parse_public(key: &str) -> Result<Vec<u8>, String> {
    let body = key.trim().strip_prefix(PREFIX).ok_or_else(|| {
        format!("'{key}' is not a server key: it starts with {PREFIX} (serve --print-key)")
    })?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|e| format!("'{key}' is not a server key: {e}"))?;
    if bytes.len() != 32 {
        return Err(format!(
            "'{key}' is not a server key: {} bytes, not 32",
            bytes.len()
        ));
    }
    Ok(bytes)
}

/// Whether `signature` (base64url) is `key`'s signature of the head.
pub fn head_signed_by(key: &str, signature: &str, room: &str, seq: u64, hash: &str) -> bool {
    let (Ok(public), Ok(signature)) = (
        parse_public(key),
        base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(signature),
    ) else {
        return false;
    };
    UnparsedPublicKey::new(&ED25519, public)
        .verify(head_message(room, seq, hash).as_bytes(), &signature)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_kept_and_signs_what_it_says() {
        let dir = std::env::temp_dir().join(format!("dicetable-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let key = ServerKey::load_or_create(&dir).expect("made");
        let again = ServerKey::load_or_create(&dir).expect("read");
        assert_eq!(key.public(), again.public(), "the same key the second time");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join(KEY_FILE))
                .expect("file")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let public = key.public();
        assert!(
            public.starts_with("ed25519:") && public.len() == 8 + 43,
            "{public}"
        );
        let sig = key.sign_head("crypt", 7, "abc");
        assert!(head_signed_by(&public, &sig, "crypt", 7, "abc"));
        assert!(!head_signed_by(&public, &sig, "crypt", 6, "abc"));
        assert!(!head_signed_by(&public, &sig, "den", 7, "abc"));
        assert!(!head_signed_by(&public, &sig, "crypt", 7, "abd"));
        assert!(!head_signed_by(&public, "not base64!", "crypt", 7, "abc"));
        assert!(parse_public("ed25519:short").is_err());
        assert!(parse_public("rsa:AAAA").is_err());

        std::fs::write(dir.join(KEY_FILE), b"garbage").expect("written");
        assert!(matches!(
            ServerKey::load_or_create(&dir),
            Err(KeyError::Invalid { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
