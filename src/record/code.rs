//! Replay codes: a roll's inputs in a short string to paste anywhere ("dt1-" and base64url).
//! The bytes: format, flags (notation or throws, gesture, nudge), the seed, the gesture's six
//! floats if any, the first 4 bytes of the record's digest (so a code alone can be checked),
//! then the notation's text, or each throw's count of dice and their kinds.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::{Cocked, Gesture, RollDice, RollInputs};
use crate::dice::DieKind;

/// What every replay code starts with.
pub const PREFIX: &str = "dt1-";
/// Bytes of the digest a code carries.
pub const CHECK_BYTES: usize = 4;
/// The longest notation a code carries (a code is meant to be short).
const MAX_NOTATION: usize = 200;

const NOTATION: u8 = 1;
const HAS_GESTURE: u8 = 2;
const NUDGE: u8 = 4;

/// Why a string is not a replay code.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum CodeError {
    /// No "dt1-" at the start.
    #[error("a replay code starts with \"{PREFIX}\"")]
    Prefix,
    /// Not base64url.
    #[error("the replay code is damaged: {0}")]
    Base64(String),
    /// Too short for what it says it holds.
    #[error("the replay code is cut short")]
    Short,
    /// Made by another format.
    #[error("replay code format {0} is not known to this build (it reads format 1)")]
    Format(u8),
    /// A die kind byte out of range.
    #[error("the replay code names an unknown die ({0})")]
    Die(u8),
    /// The notation is not text.
    #[error("the replay code's notation is not UTF-8 text")]
    Text,
    /// Something left over.
    #[error("the replay code has {0} bytes too many")]
    Trailing(usize),
    /// A notation too long to carry.
    #[error("a notation over {MAX_NOTATION} bytes does not fit a replay code")]
    TooLong,
}

/// A decoded replay code: the inputs, and the digest's first bytes as hex.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayCode {
    /// What to throw, and how.
    pub inputs: RollInputs,
    /// The first [`CHECK_BYTES`] bytes of the record's digest, hex.
    pub check: String,
}

/// The replay code of these inputs, with the start of the record's `digest` (hex).
pub fn encode(inputs: &RollInputs, digest: &str) -> String {
    let mut bytes = vec![super::FORMAT as u8, 0];
    let mut flags = 0;
    bytes.extend(inputs.seed.to_le_bytes());
    if let Some(g) = inputs.gesture {
        flags |= HAS_GESTURE;
        for x in g.release.iter().chain(&g.velocity) {
            bytes.extend(x.to_le_bytes());
        }
    }
    if inputs.cocked == Cocked::Nudge {
        flags |= NUDGE;
    }
    for i in 0..CHECK_BYTES {
        let byte = digest
            .get(2 * i..2 * i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0);
        bytes.push(byte);
    }
    match &inputs.dice {
        RollDice::Notation(text) => {
            flags |= NOTATION;
            let mut end = text.len().min(MAX_NOTATION);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            bytes.extend(&text.as_bytes()[..end]);
        }
        RollDice::Throws(throws) => {
            for throw in throws {
                bytes.push(throw.len().min(255) as u8);
                bytes.extend(throw.iter().take(255).map(|k| kind_byte(*k)));
            }
        }
    }
    bytes[1] = flags;
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// Whether the inputs fit a code exactly (a notation up to 200 bytes, throws of up to 255 dice).
pub fn fits(inputs: &RollInputs) -> bool {
    match &inputs.dice {
        RollDice::Notation(text) => text.len() <= MAX_NOTATION,
        RollDice::Throws(throws) => throws.iter().all(|t| t.len() <= 255),
    }
}

fn kind_byte(kind: DieKind) -> u8 {
    DieKind::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u8
}

/// Reads a replay code (surrounding spaces are ignored).
pub fn decode(code: &str) -> Result<ReplayCode, CodeError> {
    let body = code.trim().strip_prefix(PREFIX).ok_or(CodeError::Prefix)?;
    let bytes = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|e| CodeError::Base64(e.to_string()))?;
    let mut reader = Reader(&bytes);
    let format = reader.take(1)?[0];
    if u32::from(format) != super::FORMAT {
        return Err(CodeError::Format(format));
    }
    let flags = reader.take(1)?[0];
    let seed = u64::from_le_bytes(reader.array()?);
    let gesture = if flags & HAS_GESTURE != 0 {
        let mut xs = [0f32; 6];
        for x in &mut xs {
            *x = f32::from_le_bytes(reader.array()?);
        }
        Some(Gesture {
            release: [xs[0], xs[1], xs[2]],
            velocity: [xs[3], xs[4], xs[5]],
        })
    } else {
        None
    };
    let check: String = reader
        .take(CHECK_BYTES)?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let dice = if flags & NOTATION != 0 {
        let rest = reader.rest();
        if rest.len() > MAX_NOTATION {
            return Err(CodeError::TooLong);
        }
        RollDice::Notation(String::from_utf8(rest.to_vec()).map_err(|_| CodeError::Text)?)
    } else {
        let mut throws = Vec::new();
        while !reader.0.is_empty() {
            let n = reader.take(1)?[0] as usize;
            let kinds = reader.take(n)?;
            throws.push(
                kinds
                    .iter()
                    .map(|&b| {
                        DieKind::ALL
                            .get(b as usize)
                            .copied()
                            .ok_or(CodeError::Die(b))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            );
        }
        RollDice::Throws(throws)
    };
    if !reader.0.is_empty() {
        return Err(CodeError::Trailing(reader.0.len()));
    }
    Ok(ReplayCode {
        inputs: RollInputs {
            dice,
            seed,
            gesture,
            cocked: if flags & NUDGE != 0 {
                Cocked::Nudge
            } else {
                Cocked::Rethrow
            },
        },
        check,
    })
}

/// A free roll's code read back: its notation and the inputs that throw it again (seed,
/// gesture, cocked-dice policy). A move's code is refused (the window replays a move from its
/// history entry, against the table as it was).
pub fn decode_notation(code: &str) -> Result<(String, RollInputs), String> {
    let c = decode(code).map_err(|e| e.to_string())?;
    match &c.inputs.dice {
        RollDice::Notation(n) => Ok((n.clone(), c.inputs)),
        RollDice::Throws(_) => Err(
            "this is a move's replay code: replay the move from its history \
                                    entry, or check it with `dicetable replay CODE`"
                .into(),
        ),
    }
}

/// Reads bytes off the front of a slice.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], CodeError> {
        if self.0.len() < n {
            return Err(CodeError::Short);
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], CodeError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.0)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const DIGEST: &str = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";

    fn notation(text: &str, seed: u64) -> RollInputs {
        RollInputs {
            dice: RollDice::Notation(text.into()),
            seed,
            gesture: None,
            cocked: Cocked::Rethrow,
        }
    }

    #[test]
    fn a_notation_code_is_short_and_reads_back() {
        let inputs = notation("3d6+2", 42);
        let code = encode(&inputs, DIGEST);
        // 1 + 1 + 8 + 4 + 5 bytes: 26 base64 characters after the prefix.
        assert_eq!(code, "dt1-AQEqAAAAAAAAAAobLD0zZDYrMg");
        let back = decode(&code).expect("reads");
        assert_eq!(back.inputs, inputs);
        assert_eq!(back.check, "0a1b2c3d");
    }

    #[test]
    fn a_code_with_a_gesture_and_throws_reads_back() {
        let inputs = RollInputs {
            dice: RollDice::Throws(vec![
                vec![DieKind::D10Tens, DieKind::D10, DieKind::D6],
                vec![DieKind::D6],
            ]),
            seed: u64::MAX,
            gesture: Some(Gesture {
                release: [1.5, 12.0, -8.25],
                velocity: [-20.0, 3.0, 160.125],
            }),
            cocked: Cocked::Nudge,
        };
        let code = encode(&inputs, DIGEST);
        assert!(code.len() < 80, "{code}");
        assert_eq!(
            decode(&format!("  {code}\n")).expect("reads").inputs,
            inputs
        );
    }

    #[test]
    fn damaged_codes_say_what_is_wrong() {
        let good = encode(&notation("d20", 7), DIGEST);
        assert_eq!(decode("3d6"), Err(CodeError::Prefix));
        assert!(matches!(decode("dt1-***"), Err(CodeError::Base64(_))));
        assert_eq!(decode(&good[..12]), Err(CodeError::Short));
        let mut bytes = URL_SAFE_NO_PAD.decode(&good[4..]).expect("base64");
        bytes[0] = 9;
        let other = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(&bytes));
        assert_eq!(decode(&other), Err(CodeError::Format(9)));
        let throws = RollInputs {
            dice: RollDice::Throws(vec![vec![DieKind::D4]]),
            ..notation("", 1)
        };
        let mut bytes = URL_SAFE_NO_PAD
            .decode(&encode(&throws, DIGEST)[4..])
            .expect("base64");
        let last = bytes.len() - 1;
        bytes[last] = 40;
        let bad_die = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(&bytes));
        assert_eq!(decode(&bad_die), Err(CodeError::Die(40)));
    }

    proptest! {
        #[test]
        fn any_text_decodes_or_says_why(text in ".{0,80}") {
            let _ = decode(&text);
            let _ = decode(&format!("{PREFIX}{text}"));
        }

        #[test]
        fn any_inputs_read_back(seed in any::<u64>(), kinds in proptest::collection::vec(0usize..7, 0..30), text in "[0-9d+!<>= -]{0,40}") {
            let throws = RollInputs {
                dice: RollDice::Throws(vec![kinds.iter().map(|&i| DieKind::ALL[i]).collect()]),
                ..notation("", seed)
            };
            prop_assert_eq!(decode(&encode(&throws, DIGEST)).map(|c| c.inputs), Ok(throws));
            let n = notation(&text, seed);
            prop_assert_eq!(decode(&encode(&n, DIGEST)).map(|c| c.inputs), Ok(n));
        }
    }
}
