//! `dicetable verify FILE`: checks a room's log offline, as `serve --export` printed it: the
//! chain of lines, every seed against its commitment, every throw re-simulated (faces and final
//! poses bit for bit), every rules outcome and table state, every hidden roll's reveal; and,
//! where the export ends with its head line, that no entry is missing at the end; and with the
//! server's public key (`verify --key`), that the server itself signed that head.

use serde::{Deserialize, Serialize};

use super::log::{Entry, LogError, SecretMode, read_log};
use super::room::{Checks, RoomState};
use super::seal;
use super::signing::{ServerKey, head_signed_by};

/// Where a room's log ended when it was exported: the last entry and its line's hash (the tip
/// of the chain). `serve --export` prints it last, so a copy cut short is told from a whole one.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Head {
    /// The room.
    pub room: String,
    /// The last entry's `seq`.
    pub seq: u64,
    /// The hash of its line.
    pub hash: String,
    /// The exporting server's signature of the head (none in exports from before signing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signed: Option<HeadSignature>,
}

/// A head's signature: the server's public key and its Ed25519 signature of the room, the last
/// entry and its hash ([`super::signing`]).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HeadSignature {
    /// The server's public key, `ed25519:` and base64url.
    pub key: String,
    /// The signature, base64url.
    pub signature: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeadLine {
    head: Head,
}

/// The head line of a room's log (its lines as stored, oldest first), signed by `key` if given.
pub fn head_line(room: &str, lines: &[String], key: Option<&ServerKey>) -> String {
    let seq = lines.len() as u64;
    let hash = lines.last().map(|l| seal::line_hash(l)).unwrap_or_default();
    let signed = key.map(|k| HeadSignature {
        key: k.public(),
        signature: k.sign_head(room, seq, &hash),
    });
    let head = Head {
        room: room.to_string(),
        seq,
        hash,
        signed,
    };
    serde_json::to_string(&HeadLine { head }).unwrap_or_default()
}

/// The export's head, if its last line is one, and the text before it.
fn split_head(text: &str) -> (&str, Option<Head>) {
    let trimmed = text.trim_end();
    let (before, last) = match trimmed.rfind('\n') {
        Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
        None => ("", trimmed),
    };
    match serde_json::from_str::<HeadLine>(last.trim_end_matches('\r')) {
        Ok(line) => (before, Some(line.head)),
        Err(_) => (text, None),
    }
}

/// What `verify` found.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Every entry checks: how many, and how many throws were re-simulated.
    Verified {
        /// Entries.
        entries: usize,
        /// Rolls re-simulated (throws and reveals).
        rolls: usize,
        /// Hidden rolls never revealed (their seal cannot be checked): each one's `seq` and who
        /// saw it, oldest first.
        unrevealed: Vec<(u64, SecretMode)>,
        /// Whether the export's head line vouches that the log ends here (false: no head line,
        /// an export from before heads or one cut short).
        whole: bool,
        /// The key whose signature of the head checks (none: an unsigned head, or no head). With
        /// `verify --key` it is that key; without, nothing says it is the server's.
        signer: Option<String>,
    },
    /// The first entry that does not check.
    Failed(String),
    /// The file is not a log.
    Unreadable(String),
}

/// Checks a whole log (a signed head's signature too, against the key it names).
pub fn verify_text(text: &str) -> Verdict {
    verify_signed(text, None)
}

/// Checks a whole log and, given the server's public key (`ed25519:…`), that its head is there
/// and signed by that key: an export cut short, extended or given a new head then fails.
pub fn verify_signed(text: &str, server_key: Option<&str>) -> Verdict {
    if let Some(key) = server_key
        && let Err(e) = super::signing::parse_public(key)
    {
        return Verdict::Unreadable(e);
    }
    let (text, head) = split_head(text);
    // Unreadable: a line that is not an entry at all.
    for (n, line) in text.lines().enumerate() {
        if !line.trim().is_empty()
            && let Err(e) = Entry::parse(line.trim_end_matches('\r'))
        {
            return Verdict::Unreadable(format!("line {}: {e}", n + 1));
        }
    }
    let lines = match read_log(text) {
        Ok(l) => l,
        Err(e @ LogError::Empty) => return Verdict::Unreadable(e.to_string()),
        Err(e) => return Verdict::Failed(e.to_string()),
    };
    let checks = Checks { physics: true };
    let mut room = match RoomState::open(&lines[0].0) {
        Ok(r) => r,
        Err(e) => return Verdict::Failed(format!("entry 1: {e}")),
    };
    for (line, _) in &lines[1..] {
        if let Err(e) = room.apply_line(line, checks) {
            return Verdict::Failed(e.to_string());
        }
        if let Some(m) = room.mismatches.first() {
            return Verdict::Failed(m.clone());
        }
    }
    if let Some(head) = &head {
        let last = lines
            .last()
            .map(|(l, _)| seal::line_hash(l))
            .unwrap_or_default();
        if head.room != room.room {
            return Verdict::Failed(format!(
                "the head line is room '{}', the log room '{}'",
                head.room, room.room
            ));
        }
        if head.seq != lines.len() as u64 || !seal::same(&head.hash, &last) {
            return Verdict::Failed(format!(
                "cut short or extended: the export's head is entry {}, the file ends at entry {}",
                head.seq,
                lines.len()
            ));
        }
    }
    let signer = match head
        .as_ref()
        .and_then(|h| h.signed.as_ref().map(|s| (h, s)))
    {
        Some((h, s)) if head_signed_by(&s.key, &s.signature, &h.room, h.seq, &h.hash) => {
            Some(s.key.clone())
        }
        Some(_) => {
            return Verdict::Failed(
                "the head's signature does not check: the head was changed after the server \
                 signed it, or written by someone else"
                    .into(),
            );
        }
        None => None,
    };
    if let Some(key) = server_key {
        let key = key.trim();
        match (&head, &signer) {
            (None, _) => {
                return Verdict::Failed(format!(
                    "no head line: nothing signed by {key} says where this log ends"
                ));
            }
            (Some(_), None) => {
                return Verdict::Failed(format!(
                    "the head is not signed: nothing signed by {key} vouches for this export"
                ));
            }
            (Some(_), Some(by)) if by != key => {
                return Verdict::Failed(format!(
                    "the head is signed by {by}, not by the server key {key}"
                ));
            }
            _ => {}
        }
    }
    Verdict::Verified {
        whole: head.is_some(),
        signer,
        entries: lines.len(),
        rolls: room.history.iter().filter(|h| h.record.is_some()).count(),
        unrevealed: room
            .hidden
            .iter()
            .filter(|(_, h)| h.revealed.is_none())
            .map(|(seq, h)| (*seq, h.mode))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::log::LOG_FORMAT;
    use crate::online::room::{Checks, RoomError, RoomState};

    /// A room's log written by the build before the table's state digest moved into the rules
    /// (a d4-pool table: moves with dice, ends of turn, a free roll, a hidden roll revealed).
    const STORED: &str = include_str!("../../tests/fixtures/room-d4-pool.jsonl");

    #[test]
    fn a_stored_log_still_replays_and_says_its_physics_is_older() {
        // By the rules alone: every state digest is the rules' own serialisation, so what a
        // command prints (`session --json`) can change without breaking it.
        let room =
            RoomState::replay(STORED.lines(), Checks::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((room.seq, room.history.len()), (11, 11));
        // Its throws were made by physics generation 1: this build re-simulates them elsewhere,
        // and says so at the first, naming both builds (never passed off as verified).
        let Verdict::Failed(why) = verify_text(STORED) else {
            panic!("an older physics' log verified bit for bit");
        };
        assert!(
            why.starts_with("entry 4: re-simulated differently: "),
            "{why}"
        );
        assert!(
            why.ends_with(&format!(
                "recorded by dicetable 0.1.0 x86_64-linux, re-simulated by {}: physics is exact \
                 within one build",
                crate::record::build_id()
            )),
            "{why}"
        );
    }

    /// The stored log made format 2, as a build of format 2 would have written it: the same
    /// entries (throws, proofs, seals, what changed), each state digest of the typed state, the
    /// chain linked again.
    const STORED_V2: &str = include_str!("../../tests/fixtures/room-d4-pool.v2.jsonl");

    fn in_format_2(log: &str) -> String {
        use crate::online::log::{Entry, Event};
        use crate::online::room::table_digest;
        let mut lines = log.lines();
        let first = lines.next().expect("a first line");
        let mut room = RoomState::open(first).unwrap_or_else(|e| panic!("{e}"));
        let mut created = Entry::parse(first).unwrap_or_else(|e| panic!("{e}"));
        if let Event::Created { format, .. } = &mut created.event {
            *format = 2;
        }
        let mut out = vec![created.to_line()];
        for line in lines {
            let mut entry = room
                .apply_line(line, Checks::default())
                .unwrap_or_else(|e| panic!("{e}"));
            entry.prev = seal::line_hash(out.last().expect("a line before"));
            if let Event::Played { state, .. } | Event::Thrown { state, .. } = &mut entry.event {
                *state = table_digest(&room.table, 2);
            }
            out.push(entry.to_line());
        }
        out.join("\n") + "\n"
    }

    /// Words are for people: a log of format 2 verifies with every sentence of the rules
    /// reworded (a test-only wording), since its digests are of the typed state and what an
    /// entry says changed is not compared. A log of format 1 hashed the tracker's words, so it
    /// verifies with the words of its time, which this build keeps.
    #[test]
    fn a_log_verifies_whatever_the_rules_words() {
        let converted = in_format_2(STORED);
        if std::env::var_os("DICETABLE_WRITE_FIXTURES").is_some() {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/room-d4-pool.v2.jsonl");
            std::fs::write(path, &converted).expect("the fixture is written");
        }
        assert_eq!(
            converted, STORED_V2,
            "the stored format-2 log is the format-1 log made format 2: \
             DICETABLE_WRITE_FIXTURES=1 cargo test --lib a_log_verifies_whatever"
        );
        let room = RoomState::replay(STORED_V2.lines(), Checks::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((room.format, room.seq, room.history.len()), (2, 11, 11));
        let reworded = crate::rules::play::reworded(|| {
            RoomState::replay(STORED_V2.lines(), Checks::default())
        })
        .unwrap_or_else(|e| panic!("reworded: {e}"));
        // The rewording reached the rules' words (the history writes each move in them).
        assert!(
            reworded.history.iter().any(|h| h.text.contains('«')),
            "{:?}",
            reworded.history
        );
        assert_eq!(reworded.table.state_json(), room.table.state_json());
        // Format 1 hashed the words: reworded, its first move with a digest is refused.
        let old =
            crate::rules::play::reworded(|| RoomState::replay(STORED.lines(), Checks::default()));
        assert!(
            matches!(old, Err(RoomError::AtEntry { seq: 4, .. })),
            "{old:?}"
        );
        assert!(RoomState::replay(STORED.lines(), Checks::default()).is_ok());
    }

    /// The pinned logs of one folder: each verified under the fixtures' signed head, plain and
    /// under `reworded` (throws re-simulated bit for bit), with the log format of each; the
    /// rulesets and scenes they cover.
    fn pinned_logs_verify(
        folder: &str,
        reworded: impl Fn(&dyn Fn() -> Verdict) -> Verdict,
    ) -> (
        std::collections::BTreeSet<u32>,
        Vec<crate::rules::RulesetId>,
        std::collections::BTreeSet<String>,
    ) {
        use std::collections::BTreeSet;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/logs");
        let key = std::fs::read_to_string(root.join("server.pub")).expect("the fixtures' key");
        let key = key.trim();
        let mut files: Vec<_> = std::fs::read_dir(root.join(folder))
            .expect("tests/fixtures/logs")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        files.sort();
        let (mut formats, mut rulesets, mut scenes) =
            (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
        for file in &files {
            let name = file.display().to_string();
            let text = std::fs::read_to_string(file).expect("a log");
            let verified = |v: Verdict| match v {
                Verdict::Verified {
                    whole: true,
                    signer: Some(by),
                    rolls,
                    unrevealed,
                    ..
                } if by == key && rolls >= 3 && unrevealed.is_empty() => {}
                other => panic!("{name}: {other:?}"),
            };
            verified(verify_signed(&text, Some(key)));
            verified(reworded(&|| verify_signed(&text, Some(key))));
            let first = text.lines().next().expect("a first line");
            let room = RoomState::open(first).unwrap_or_else(|e| panic!("{name}: {e}"));
            formats.insert(room.format);
            rulesets.insert(room.table.ruleset());
            scenes.insert(room.scene.name.clone());
        }
        (formats, rulesets.into_iter().collect(), scenes)
    }

    /// Every pinned log (one per ruleset and per shipped system file, each made by a real room:
    /// `tests/dicetable/pinned.rs`) verifies under its signed head, throws re-simulated bit for
    /// bit, and again with every sentence of the rules and every outcome's words reworded: what a
    /// log of format 3 hashes and compares is the rulesets' digests ([`crate::rules::digest`])
    /// and outcome class ids, never their words or their structs' names. The logs pinned in
    /// format 2 (`v2/`) verify too, with the sentences reworded: they compare a class by its
    /// words, which this build keeps.
    #[test]
    fn every_pinned_log_verifies_signed_and_reworded() {
        let all = crate::rules::RulesetId::ALL.to_vec();
        // Every shipped scene with a system file of its own, and the shipped moves game.
        let shipped: std::collections::BTreeSet<String> = crate::demo::demo_files()
            .iter()
            .map(|p| {
                crate::demo::LoadedDemo::load(p)
                    .unwrap_or_else(|e| panic!("{e}"))
                    .scene
                    .name
            })
            .collect();
        let (formats, rulesets, scenes) =
            pinned_logs_verify(".", |f| crate::rules::play::reworded_with_classes(f));
        assert_eq!(formats.into_iter().collect::<Vec<_>>(), [LOG_FORMAT]);
        assert_eq!(rulesets, all, "a pinned log of every ruleset");
        assert_eq!(scenes, shipped, "a pinned log of every demo's scene");
        let (formats, rulesets, scenes) =
            pinned_logs_verify("v2", |f| crate::rules::play::reworded(f));
        assert_eq!(formats.into_iter().collect::<Vec<_>>(), [2]);
        assert_eq!(rulesets, all, "a format-2 log of every ruleset");
        // Every scene shipped while logs were written in format 2 (the games' own dice came
        // with format 3).
        let since_format_3 = ["The smugglers' moon", "Under the barrow"];
        let of_format_2: std::collections::BTreeSet<String> = shipped
            .iter()
            .filter(|s| !since_format_3.contains(&s.as_str()))
            .cloned()
            .collect();
        assert_eq!(scenes, of_format_2, "a format-2 log of every demo's scene");
    }

    #[test]
    fn the_head_line_tells_a_whole_export_from_one_cut_short() {
        // The log before its first throw (entries 1-3), which any build verifies.
        let lines: Vec<String> = STORED.lines().take(3).map(str::to_string).collect();
        let head = head_line("ambush", &lines, None);
        let whole = format!("{}\n{head}\n", lines.join("\n"));
        assert!(matches!(
            verify_text(&whole),
            Verdict::Verified {
                entries: 3,
                whole: true,
                ..
            }
        ));
        let cut = format!("{}\n{head}\n", lines[..2].join("\n"));
        assert_eq!(
            verify_text(&cut),
            Verdict::Failed(
                "cut short or extended: the export's head is entry 3, the file ends at entry 2"
                    .into()
            )
        );
        let elsewhere = format!("{}\n{}", lines.join("\n"), head_line("den", &lines, None));
        assert_eq!(
            verify_text(&elsewhere),
            Verdict::Failed("the head line is room 'den', the log room 'ambush'".into())
        );
    }

    #[test]
    fn a_signed_head_fails_cut_extended_reheaded_or_under_another_key() {
        let dir = std::env::temp_dir().join(format!("dicetable-signed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let server = ServerKey::load_or_create(&dir.join("server")).expect("a key");
        let forger = ServerKey::load_or_create(&dir.join("forger")).expect("a key");
        let key = server.public();
        let lines: Vec<String> = STORED.lines().take(3).map(str::to_string).collect();
        let export = |lines: &[String], head: String| format!("{}\n{head}\n", lines.join("\n"));
        let signed = export(&lines, head_line("ambush", &lines, Some(&server)));

        let Verdict::Verified { signer, whole, .. } = verify_signed(&signed, Some(&key)) else {
            panic!("a whole signed export verifies");
        };
        assert_eq!((signer, whole), (Some(key.clone()), true));
        // Without the key the signature is still checked, and named, not vouched for.
        assert!(matches!(
            verify_text(&signed),
            Verdict::Verified { signer: Some(ref k), .. } if *k == key
        ));

        // Cut short, with the server's head left on.
        let head = head_line("ambush", &lines, Some(&server));
        assert_eq!(
            verify_signed(&export(&lines[..2], head.clone()), Some(&key)),
            Verdict::Failed(
                "cut short or extended: the export's head is entry 3, the file ends at entry 2"
                    .into()
            )
        );
        // Cut short and re-headed: the old signature moved onto a new head does not check.
        let mut moved: serde_json::Value = serde_json::from_str(&head).expect("JSON");
        let new_head = head_line("ambush", &lines[..2], None);
        let mut forged: serde_json::Value = serde_json::from_str(&new_head).expect("JSON");
        forged["head"]["signed"] = moved["head"]["signed"].take();
        let reheaded = export(&lines[..2], forged.to_string());
        assert!(matches!(
            verify_signed(&reheaded, Some(&key)),
            Verdict::Failed(ref why) if why.starts_with("the head's signature does not check")
        ));
        // Re-headed and signed by another key: fine on its own, refused under the server's.
        let other = export(&lines[..2], head_line("ambush", &lines[..2], Some(&forger)));
        assert!(matches!(verify_text(&other), Verdict::Verified { .. }));
        assert_eq!(
            verify_signed(&other, Some(&key)),
            Verdict::Failed(format!(
                "the head is signed by {}, not by the server key {key}",
                forger.public()
            ))
        );
        // Re-headed without a signature, or with no head at all.
        let unsigned = export(&lines[..2], head_line("ambush", &lines[..2], None));
        assert_eq!(
            verify_signed(&unsigned, Some(&key)),
            Verdict::Failed(format!(
                "the head is not signed: nothing signed by {key} vouches for this export"
            ))
        );
        assert_eq!(
            verify_signed(&lines.join("\n"), Some(&key)),
            Verdict::Failed(format!(
                "no head line: nothing signed by {key} says where this log ends"
            ))
        );
        // Extended past the signed head: an entry added after the server signed entry 2.
        let extended = export(&lines, head_line("ambush", &lines[..2], Some(&server)));
        assert!(matches!(
            verify_signed(&extended, Some(&key)),
            Verdict::Failed(ref why) if why.starts_with("cut short or extended")
        ));
        // A key that is not one.
        assert!(matches!(
            verify_signed(&signed, Some("nope")),
            Verdict::Unreadable(_)
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_changed_digest_fails_at_its_entry() {
        let lines: Vec<String> = STORED.lines().map(str::to_string).collect();
        let mut changed: serde_json::Value = serde_json::from_str(&lines[6]).expect("JSON");
        changed["event"]["state"] = serde_json::json!("00".repeat(32));
        let mut forged = lines.clone();
        forged[6] = changed.to_string();
        // Re-chained as a forger would: only the digest is wrong.
        for i in 7..forged.len() {
            let mut e: serde_json::Value = serde_json::from_str(&forged[i]).expect("JSON");
            e["prev"] = serde_json::json!(seal::line_hash(&forged[i - 1]));
            forged[i] = e.to_string();
        }
        let err = RoomState::replay(forged.iter().map(String::as_str), Checks::default())
            .expect_err("a forged state digest");
        assert_eq!(err.code(), crate::errors::ErrorCode::EntryMismatch);
        assert!(matches!(err, RoomError::AtEntry { seq: 7, .. }));
    }
}
