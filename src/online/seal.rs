//! The cryptography of a room's log, in one place: commitments to the server's secrets
//! (commit-reveal seeds nobody chooses), the seed of a throw, the seal of a hidden roll, the
//! hash chain of the log and the digest of the table's state. Passcodes and the constant-time
//! compare are the network layer's (`crate::net::auth`).

use sha2::{Digest, Sha256};

pub use crate::net::auth::same;
use crate::record::Gesture;

/// Hex that is not what it should be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HexError {
    /// Not the right number of digits.
    #[error("{what} must be {} hex digits ({bytes} bytes), not {found} characters", 2 * bytes)]
    Length {
        /// What the hex is of ("the nonce").
        what: &'static str,
        /// The bytes it should hold.
        bytes: usize,
        /// The characters given.
        found: usize,
    },
    /// Not hex digits.
    #[error("{what} is not hex: '{text}'")]
    NotHex {
        /// What the hex is of.
        what: &'static str,
        /// The text given.
        text: String,
    },
}

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
pub fn unhex(text: &str, len: usize, what: &'static str) -> Result<Vec<u8>, HexError> {
    if text.len() != 2 * len || !text.is_ascii() {
        return Err(HexError::Length {
            what,
            bytes: len,
            found: text.chars().count(),
        });
    }
    (0..len)
        .map(|i| {
            u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| HexError::NotHex {
                what,
                text: text.to_string(),
            })
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

/// The digest of a table's state after an entry: a hash of the rules' own serialisation of it
/// (`TableState::canonical_state`, version 1), never of what a command prints.
pub fn state_digest(canonical_state: &str) -> String {
    hex(&tagged_hash(
        "dicetable state v1",
        &[canonical_state.as_bytes()],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vectors web/check.js's node tests check too (tests/fixtures/seal-vectors.json):
    /// the page and the server hash alike.
    #[test]
    fn the_shared_vectors_hash_here_as_written() {
        let vectors: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/fixtures/seal-vectors.json"))
                .expect("JSON");
        let bytes = |v: &serde_json::Value| {
            let text = v.as_str().expect("hex");
            unhex(text, text.len() / 2, "bytes").expect("hex")
        };
        let text = |v: &serde_json::Value| v.as_str().expect("text").to_string();
        let list = |key: &str| vectors[key].as_array().expect("a list").clone();
        for v in list("line_hash") {
            assert_eq!(line_hash(&text(&v["line"])), text(&v["hash"]), "{v}");
        }
        for v in list("commitment") {
            assert_eq!(
                commitment(&bytes(&v["secret"])),
                text(&v["commitment"]),
                "{v}"
            );
        }
        for v in list("seal") {
            assert_eq!(
                seal(&bytes(&v["salt"]), &text(&v["payload"])),
                text(&v["sealed"]),
                "{v}"
            );
        }
        let seeds = list("throw_seed");
        assert_eq!(seeds.len(), 4);
        for v in seeds {
            let gesture: Option<Gesture> =
                serde_json::from_value(v["gesture"].clone()).expect("a gesture or null");
            let seq: u64 = text(&v["seq"]).parse().expect("a u64");
            let seed = throw_seed(
                &bytes(&v["secret"]),
                &bytes(&v["nonce"]),
                gesture.as_ref(),
                &text(&v["room"]),
                seq,
            );
            assert_eq!(seed.to_string(), text(&v["seed"]), "{v}");
        }
    }

    #[test]
    fn hex_reads_back_and_says_what_is_wrong() {
        assert_eq!(hex(&[0, 171, 255]), "00abff");
        assert_eq!(unhex("00abff", 3, "x"), Ok(vec![0, 171, 255]));
        assert_eq!(
            unhex("00ab", 3, "the nonce").map_err(|e| e.to_string()),
            Err("the nonce must be 6 hex digits (3 bytes), not 4 characters".into())
        );
        assert_eq!(
            unhex("00abzz", 3, "the nonce").map_err(|e| e.to_string()),
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
}
