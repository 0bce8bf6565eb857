//! The online table: a real `dicetable serve` on a free loopback port, headless clients of the
//! library joining it, `serve --export` and `verify` on what they played.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use dicetable::errors::ErrorCode;
use dicetable::online::client::{Client, ClientError, Create, JoinAs, ThrowError};
use dicetable::online::log::{Proposal, Role};
use dicetable::online::room::Checks;
use dicetable::rules::play::Move;
use dicetable::script::snapshot;

use super::{dicetable, stdout};

/// A table server process, killed (SIGKILL) when dropped.
pub(crate) struct Server {
    child: Child,
    pub(crate) addr: String,
    /// What it printed before its address (where its logs are).
    pub(crate) preamble: Vec<String>,
    /// What it wrote to its standard error so far (also passed on to the test's).
    said: std::sync::Arc<(std::sync::Mutex<Vec<String>>, std::sync::Condvar)>,
}

impl Server {
    /// `serve --listen ADDR --data DIR`.
    pub(crate) fn start(data: &Path, listen: &str) -> Server {
        Server::start_with(data, listen, &[])
    }

    /// `serve --listen ADDR --data DIR` and `more` of its options.
    pub(crate) fn start_with(data: &Path, listen: &str, more: &[&str]) -> Server {
        let data = data.to_str().expect("a path");
        let mut args = vec!["serve", "--listen", listen, "--data", data];
        args.extend_from_slice(more);
        Server::spawn(&args)
    }

    /// `dicetable ARGS` (a `serve`), once it printed its address.
    pub(crate) fn spawn(args: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_dicetable"));
        command.args(args);
        Server::run(command)
    }

    /// A `serve` started by `command`, once it printed its address (`ws://` or, with TLS,
    /// `wss://`).
    pub(crate) fn run(mut command: Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts serve");
        let said =
            std::sync::Arc::new((std::sync::Mutex::new(Vec::new()), std::sync::Condvar::new()));
        let errors = child.stderr.take().expect("stderr");
        let kept = said.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(errors).lines().map_while(Result::ok) {
                eprintln!("serve: {line}");
                let (lines, changed) = &*kept;
                lines.lock().expect("lines").push(line);
                changed.notify_all();
            }
        });
        let out = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(out).lines();
        let mut preamble = Vec::new();
        let addr = loop {
            let line = lines
                .next()
                .expect("serve printed its address")
                .expect("reads");
            let said = line.strip_prefix("listening on ");
            if let Some(a) = said.and_then(|a| a.split_once("://")).map(|(_, a)| a) {
                break a.to_string();
            }
            preamble.push(line);
        };
        // Keep draining its output.
        std::thread::spawn(move || for _ in lines {});
        Server {
            child,
            addr,
            preamble,
            said,
        }
    }

    /// Waits up to `within` for the server to write a line to its standard error holding
    /// `text`: whether it did.
    pub(crate) fn says(&self, text: &str, within: Duration) -> bool {
        let (lines, changed) = &*self.said;
        let lines = lines.lock().expect("lines");
        let (lines, _) = changed
            .wait_timeout_while(lines, within, |lines| {
                !lines.iter().any(|l| l.contains(text))
            })
            .expect("lines");
        lines.iter().any(|l| l.contains(text))
    }

    pub(crate) fn url(&self, room: &str) -> String {
        format!("ws://{}/{room}", self.addr)
    }

    /// The process's CPU time so far (user and system, all threads) and its resident memory
    /// in bytes, from /proc.
    pub(crate) fn usage(&self) -> (Duration, u64) {
        let pid = self.child.id();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Past the command's name: state is field 3, utime 14 and stime 15, in clock ticks
        // of 1/100 s (USER_HZ).
        let fields: Vec<u64> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest)
            .unwrap_or_default()
            .split_whitespace()
            .map(|f| f.parse().unwrap_or(0))
            .collect();
        let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let rss_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0);
        (Duration::from_millis(ticks * 10), rss_kb * 1024)
    }

    /// Whether the process still runs.
    pub(crate) fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

pub(crate) fn data_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dicetable-online-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub(crate) fn crypt() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenes/d20-check-crypt.ron"
    ))
    .expect("scene")
}

pub(crate) fn as_(url: &str, name: &str, role: Role, seats: &[&str], passcode: &str) -> JoinAs {
    JoinAs {
        url: url.into(),
        name: name.into(),
        role,
        seats: seats.iter().map(|s| s.to_string()).collect(),
        passcode: passcode.into(),
        key: None,
        trust: None,
        from: None,
    }
}

/// Gwen, the game master, tries to open the room at `url` with the crypt scene (players'
/// passcode `passcode`, her own "gm-secret").
pub(crate) async fn gm_tries_to_open(
    url: &str,
    passcode: &str,
    checks: Checks,
) -> Result<Client, ClientError> {
    Client::connect(
        as_(url, "Gwen", Role::Gamemaster, &[], "gm-secret"),
        Some(Create {
            scene: crypt(),
            passcode: passcode.into(),
            room_passcode: None,
        }),
        checks,
    )
    .await
}

/// Gwen, the game master, opens the room at `url` with the crypt scene (players' passcode
/// "friends", her own "gm-secret").
pub(crate) async fn gm_opens(url: &str, checks: Checks) -> Client {
    gm_tries_to_open(url, "friends", checks)
        .await
        .unwrap_or_else(|e| panic!("the game master opens {url}: {e}"))
}

/// Pat joins the crypt as Ash's player (the game master opened it).
pub(crate) async fn pat_plays_ash(url: &str) -> Client {
    Client::connect(
        as_(url, "Pat", Role::Player, &["Ash"], "friends"),
        None,
        Checks::default(),
    )
    .await
    .unwrap_or_else(|e| panic!("Pat joins {url} as Ash: {e}"))
}

fn mv(json: serde_json::Value) -> Proposal {
    Proposal::Move(serde_json::from_value::<Move>(json).expect("a move"))
}

pub(crate) fn check(actor: usize, modifier: &str, dc: i64) -> Proposal {
    mv(serde_json::json!({"D20Check": {"Check": {
        "actor": actor, "modifier": modifier, "dc": {"Number": dc}
    }}}))
}

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// A refusal's code and reason.
pub(crate) fn refused(r: Result<u64, ThrowError>) -> (ErrorCode, String) {
    match r {
        Err(ThrowError::Refused { code, reason, .. }) => (code, reason),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Why a client could not come in: the server's code and words.
pub(crate) fn turned_away(r: Result<Client, ClientError>) -> (Option<ErrorCode>, String) {
    match r {
        Err(e) => (e.code(), e.to_string()),
        Ok(c) => panic!("{} came in", c.name()),
    }
}

/// The room as a client sees it: the log and the table.
fn seen(c: &Client) -> (Vec<String>, serde_json::Value) {
    let room = c.room.as_ref().expect("in a room");
    (c.lines.clone(), snapshot(&room.table))
}

#[test]
fn three_clients_play_one_table_and_the_log_verifies() {
    let _lane = crate::beside_real_time();
    let data = data_dir("three");
    let server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    let rt = runtime();
    let log = rt.block_on(async {
        let physics = Checks { physics: true };
        let mut gm = gm_opens(&url, physics).await;
        let mut pat = Client::connect(
            as_(&url, "Pat", Role::Player, &["Ash"], "friends"),
            None,
            physics,
        )
        .await
        .expect("Pat joins as Ash");
        let mut sam = Client::connect(
            as_(&url, "Sam", Role::Player, &["Bea"], "friends"),
            None,
            Checks::default(),
        )
        .await
        .expect("Sam joins as Bea");
        // Wrong passcode, a taken seat, the GM's name: refused with the reason.
        let err = Client::connect(
            as_(&url, "Eve", Role::Player, &[], "guess"),
            None,
            Checks::default(),
        )
        .await;
        assert_eq!(
            turned_away(err),
            (Some(ErrorCode::WrongPasscode), "wrong passcode".into())
        );
        let err = Client::connect(
            as_(&url, "Eve", Role::Player, &["Ash"], "friends"),
            None,
            Checks::default(),
        )
        .await;
        assert_eq!(
            turned_away(err),
            (
                Some(ErrorCode::SeatTaken),
                "Ash is already played by Pat".into()
            )
        );
        let err = Client::connect(
            as_(&url, "Eve", Role::Gamemaster, &[], "friends"),
            None,
            Checks::default(),
        )
        .await;
        assert_eq!(
            turned_away(err),
            (Some(ErrorCode::WrongPasscode), "wrong passcode".into())
        );

        // Moves in order: Pat checks for Ash, Sam for Bea, the GM for the Ghoul, a free roll.
        let a = pat
            .throw(
                check(0, "STR", 12),
                None,
                false,
                Some("force the gate".into()),
            )
            .await
            .expect("Ash's check");
        let gesture = dicetable::record::Gesture {
            release: [0.0, 12.0, -2.0],
            velocity: [20.0, 5.0, 80.0],
        };
        let b = sam
            .throw(check(1, "DEX", 14), Some(gesture), false, None)
            .await
            .expect("Bea's check");
        let c = gm
            .throw(check(3, "DEX", 10), None, false, None)
            .await
            .expect("the Ghoul's check");
        let d = pat
            .throw(Proposal::Notation("2d6+1".into()), None, false, None)
            .await
            .expect("a free roll");
        assert_eq!(
            (a, b, c, d),
            (4, 5, 6, 7),
            "joins are entries 2 to 3... then the throws in order"
        );

        // Refused: another's character, the GM's move, a spectator, the rules.
        assert_eq!(
            refused(sam.throw(check(0, "STR", 12), None, false, None).await),
            (ErrorCode::NotYourSeat, "Sam does not play Ash".into())
        );
        assert_eq!(
            refused(
                pat.throw(
                    mv(serde_json::json!({"D20Check": "DeclareInitiative"})),
                    None,
                    false,
                    None
                )
                .await
            ),
            (
                ErrorCode::GamemasterMove,
                format!(
                    "only the game master makes this move ({})",
                    pat.room.as_ref().expect("in the room").table.describe(
                        &serde_json::from_value::<Move>(
                            serde_json::json!({"D20Check": "DeclareInitiative"})
                        )
                        .expect("a move")
                    )
                )
            )
        );
        let rules_says = gm
            .room
            .as_ref()
            .unwrap()
            .table
            .allowed(
                &serde_json::from_value::<Move>(serde_json::json!({"D20Check": "EndInitiative"}))
                    .unwrap(),
            )
            .expect_err("no initiative to end");
        // The rules' words, and their kind for programs: nothing to end yet.
        match gm
            .throw(
                mv(serde_json::json!({"D20Check": "EndInitiative"})),
                None,
                false,
                None,
            )
            .await
        {
            Err(ThrowError::Refused {
                code,
                reason,
                refusal_kind,
            }) => assert_eq!(
                (code, reason, refusal_kind),
                (
                    ErrorCode::RulesRefused,
                    rules_says.to_string(),
                    Some(dicetable::rules::RefusalKind::NotNow)
                )
            ),
            other => panic!("expected a refusal, got {other:?}"),
        }
        // A d31 is notation, but no die on the table.
        let no_d31 = dicetable::dice::physical_dice(31).expect_err("no d31");
        assert_eq!(
            refused(
                pat.throw(Proposal::Notation("2d31".into()), None, false, None)
                    .await
            ),
            (ErrorCode::NoSuchDie, no_d31.to_string())
        );

        // A hidden roll: players see who rolled what and its seal; the reveal verifies.
        let h = gm
            .throw(
                Proposal::Notation("1d20".into()),
                None,
                true,
                Some("the ghoul listens".into()),
            )
            .await
            .expect("hidden");
        pat.sync_to(h).await.expect("sees the hidden roll");
        let note = pat
            .room
            .as_ref()
            .unwrap()
            .hidden
            .get(&h)
            .cloned()
            .expect("a hidden note");
        assert_eq!(
            (note.notation.as_deref(), note.revealed.is_none()),
            (Some("1d20"), true)
        );
        assert!(
            gm.sealed.contains_key(&h),
            "the game master sees its own hidden roll"
        );
        let r = gm.reveal(h).await.expect("revealed");
        pat.sync_to(r).await.expect("sees the reveal");
        sam.sync_to(r).await.expect("sees the reveal");
        let shown = pat.room.as_ref().unwrap().hidden[&h]
            .revealed
            .clone()
            .expect("revealed to Pat");
        assert_eq!(
            shown.what,
            dicetable::record::Thrown::Notation {
                notation: "1d20".into()
            }
        );
        assert_eq!(
            refused(gm.reveal(h).await),
            (
                ErrorCode::AlreadyRevealed,
                format!("the hidden roll {h} is revealed already")
            )
        );

        // Everyone has the same log and table; the physics re-simulated identically.
        for c in [&pat, &sam] {
            assert_eq!(
                seen(c),
                seen(&gm),
                "{} sees the game master's table",
                c.name()
            );
            assert!(c.failures.is_empty(), "{:?}", c.failures);
        }
        assert_eq!(gm.room.as_ref().unwrap().mismatches, Vec::<String>::new());
        assert_eq!(pat.room.as_ref().unwrap().mismatches, Vec::<String>::new());

        // A late joiner rebuilds the same table; one that had half comes back for the rest.
        let late = Client::connect(
            as_(&url, "Lee", Role::Spectator, &[], "friends"),
            None,
            Checks::default(),
        )
        .await
        .expect("a spectator joins late");
        assert_eq!(
            late.room.as_ref().map(|r| snapshot(&r.table)),
            Some(seen(&gm).1)
        );
        let half = gm.lines[..5].to_vec();
        // Lee took the name: coming back under it needs its key.
        let lee = |key: Option<&str>| JoinAs {
            key: key.map(str::to_string),
            ..as_(&url, "Lee", Role::Spectator, &[], "friends")
        };
        let back = Client::resume(lee(late.key()), half, Checks::default())
            .await
            .expect("comes back");
        pat.sync_to(back.seq()).await.expect("sync");
        assert_eq!(back.lines, pat.lines);
        assert_eq!(
            refused(
                Client::connect(lee(late.key()), None, Checks::default())
                    .await
                    .expect("joins")
                    .throw(Proposal::Notation("1d6".into()), None, false, None)
                    .await
            ),
            (
                ErrorCode::Spectator,
                "a spectator watches; it does not throw".into()
            )
        );
        gm.sync_to(back.seq())
            .await
            .expect("the game master sees the joins");
        gm.lines.clone()
    });
    // The export is the log the clients checked; verify passes it.
    let export = dicetable(&[
        "serve",
        "--data",
        data.to_str().expect("path"),
        "--export",
        "crypt",
    ]);
    assert!(export.status.success(), "{export:?}");
    let exported: Vec<String> = stdout(&export).lines().map(str::to_string).collect();
    assert_eq!(exported.len(), log.len() + 1, "the log, then its head");
    assert!(
        exported[..log.len()] == log[..],
        "the export is the log the clients checked"
    );
    // The head is signed by the server's key, the one `serve --print-key` prints.
    let printed = dicetable(&[
        "serve",
        "--data",
        data.to_str().expect("path"),
        "--print-key",
    ]);
    assert!(printed.status.success(), "{printed:?}");
    let key = stdout(&printed).trim().to_string();
    assert!(key.starts_with("ed25519:"), "{key}");
    let mut head: serde_json::Value = serde_json::from_str(&exported[log.len()]).expect("JSON");
    assert_eq!(head["head"]["signed"]["key"], key.as_str());
    assert!(head["head"]["signed"]["signature"].is_string());
    head["head"]
        .as_object_mut()
        .expect("an object")
        .remove("signed");
    assert_eq!(
        head,
        serde_json::json!({"head": {"room": "crypt", "seq": log.len(),
            "hash": dicetable::online::seal::line_hash(&log[log.len() - 1])}})
    );
    let file = data.join("crypt.jsonl");
    std::fs::write(&file, stdout(&export)).expect("writes");
    let signed = dicetable(&["verify", "--key", &key, file.to_str().expect("path")]);
    assert_eq!(signed.status.code(), Some(0), "{signed:?}");
    assert!(
        stdout(&signed).contains(&format!(
            "; whole: its head is its last entry, signed by the server key {key}"
        )),
        "{}",
        stdout(&signed)
    );
    let ok = dicetable(&["verify", file.to_str().expect("path")]);
    assert_eq!(ok.status.code(), Some(0), "{ok:?}");
    assert!(
        stdout(&ok).starts_with(&format!(
            "verified: {} entries, 5 rolls re-simulated identically",
            log.len()
        )),
        "{}",
        stdout(&ok)
    );
    assert!(
        stdout(&ok).contains(&format!(
            "; whole: its head is its last entry, signed by {key} (no --key given"
        )),
        "{}",
        stdout(&ok)
    );
    // Cut short, its head kept: caught.
    let mut cut = exported.clone();
    cut.remove(log.len() - 1);
    std::fs::write(&file, cut.join("\n")).expect("writes");
    let short = dicetable(&["verify", file.to_str().expect("path")]);
    assert_eq!(short.status.code(), Some(1), "{short:?}");
    assert!(
        stdout(&short).starts_with("FAILED: cut short or extended"),
        "{}",
        stdout(&short)
    );
    // Cut short and given a new, unsigned head: fine without the key, refused with it.
    let mut reheaded = exported[..log.len() - 1].to_vec();
    reheaded.push(dicetable::online::verify::head_line(
        "crypt",
        &log[..log.len() - 1],
        None,
    ));
    std::fs::write(&file, reheaded.join("\n")).expect("writes");
    let unsigned = dicetable(&["verify", "--key", &key, file.to_str().expect("path")]);
    assert_eq!(unsigned.status.code(), Some(1), "{unsigned:?}");
    assert_eq!(
        stdout(&unsigned).trim(),
        format!("FAILED: the head is not signed: nothing signed by {key} vouches for this export")
    );
    drop(server);
    verify_catches_tampering(&data, &log);
    let _ = std::fs::remove_dir_all(&data);
}

/// Re-links a log after an edit (as a forger would): each `prev` the hash of the line before.
pub(crate) fn rechain(lines: &mut [String]) {
    for i in 1..lines.len() {
        let mut e: serde_json::Value = serde_json::from_str(&lines[i]).expect("json");
        e["prev"] = serde_json::json!(dicetable::online::seal::line_hash(&lines[i - 1]));
        lines[i] = e.to_string();
    }
}

/// `verify` fails a log with a changed face, a changed seed or reordered moves, naming where,
/// even when the forger re-links the chain.
fn verify_catches_tampering(dir: &Path, log: &[String]) {
    let run = |name: &str, lines: Vec<String>| {
        let file = dir.join(name);
        std::fs::write(&file, lines.join("\n")).expect("writes");
        let out = dicetable(&["verify", file.to_str().expect("path")]);
        (out.status.code(), stdout(&out))
    };
    let edit = |seq: usize, f: &dyn Fn(&mut serde_json::Value)| {
        let mut lines = log.to_vec();
        let mut e: serde_json::Value = serde_json::from_str(&lines[seq - 1]).expect("json");
        f(&mut e);
        lines[seq - 1] = e.to_string();
        lines
    };
    // Entry 4 is Ash's check: one face changed. Without re-linking, the chain breaks at 5.
    let face = edit(4, &|e| {
        let f = &mut e["event"]["record"]["throws"][0]["faces"][0];
        *f = serde_json::json!(if f.as_u64() == Some(20) {
            19
        } else {
            f.as_u64().unwrap_or(1) + 1
        });
    });
    let (code, said) = run("face.jsonl", face.clone());
    assert_eq!(
        (code, said.trim()),
        (
            Some(1),
            "FAILED: line 5: entry 5 does not follow the line before it (its prev hash differs)"
        )
    );
    let mut relinked = face;
    rechain(&mut relinked);
    let (code, said) = run("face2.jsonl", relinked);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.starts_with("FAILED: entry 4: the record's faces"),
        "{said}"
    );
    // Faces changed together (throw and rules' faces): the re-simulation disagrees.
    let both = edit(7, &|e| {
        let r = &mut e["event"]["record"];
        let f = r["throws"][0]["faces"][0].as_u64().unwrap_or(1);
        let g = if f == 6 { 5 } else { f + 1 };
        r["throws"][0]["faces"][0] = serde_json::json!(g);
        r["faces"][0][0] = serde_json::json!(g);
        let t = r["total"].as_i64().unwrap_or(0);
        r["total"] = serde_json::json!(t + g as i64 - f as i64);
    });
    let mut both = both;
    rechain(&mut both);
    let (code, said) = run("both.jsonl", both);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.starts_with("FAILED: entry 7: re-simulated differently: "),
        "{said}"
    );
    // The seed changed.
    let mut seed = edit(5, &|e| {
        e["event"]["record"]["seed"] = serde_json::json!(12345)
    });
    rechain(&mut seed);
    let (code, said) = run("seed.jsonl", seed);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.starts_with("FAILED: entry 5: the roll's seed 12345 is not the one its proof makes"),
        "{said}"
    );
    // Two moves swapped, then renumbered and re-linked: the seeds name their places.
    let mut order = log.to_vec();
    order.swap(4, 5);
    let (code, said) = run("order.jsonl", order.clone());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("entry 6 where entry 5 was due"), "{said}");
    for (i, line) in order.iter_mut().enumerate() {
        let mut e: serde_json::Value = serde_json::from_str(line).expect("json");
        e["seq"] = serde_json::json!(i + 1);
        *line = e.to_string();
    }
    rechain(&mut order);
    let (code, said) = run("order2.jsonl", order);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.starts_with("FAILED: entry 5: the roll's seed"),
        "{said}"
    );
    let (code, _) = run("junk.jsonl", vec!["not json".into()]);
    assert_eq!(code, Some(2));
}

#[test]
fn the_join_form_lists_a_rooms_characters_to_whoever_has_its_passcode() {
    let _lane = crate::beside_real_time();
    let data = data_dir("cast");
    let server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    let rt = runtime();
    let (_gm, _pat) = rt.block_on(async {
        let gm = gm_opens(&url, Checks::default()).await;
        (gm, pat_plays_ash(&url).await)
    });
    let cast = |room: &str, body: &str| {
        super::stream::send(
            "POST",
            &format!("http://{}/{room}/cast", server.addr),
            Some(body.as_bytes()),
            None,
        )
    };
    // The players' characters, in seat order, each with who plays it; the game master's
    // (the guardian, the ghoul) are not offered.
    let want = serde_json::json!({"characters": [
        {"name": "Ash", "played_by": "Pat"},
        {"name": "Bea", "played_by": null}
    ]});
    assert_eq!(
        cast("crypt", r#"{"passcode": "friends"}"#),
        (200, want.clone())
    );
    assert_eq!(cast("crypt", r#"{"passcode": "gm-secret"}"#), (200, want));
    // Without the passcode, nothing: each refusal with its code.
    let (status, body) = cast("crypt", r#"{"passcode": "guess"}"#);
    assert_eq!(
        (status, &body["code"]),
        (403, &serde_json::json!("wrong_passcode"))
    );
    let (status, body) = cast("vault", r#"{"passcode": "friends"}"#);
    assert_eq!(
        (status, &body["code"]),
        (404, &serde_json::json!("no_room"))
    );
    let (status, body) = cast("crypt", r#"{"code": "friends"}"#);
    assert_eq!(
        (status, &body["code"]),
        (422, &serde_json::json!("invalid"))
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_killed_server_loses_no_acknowledged_throw() {
    let _lane = crate::beside_real_time();
    let data = data_dir("kill");
    let mut server = Server::start(&data, "127.0.0.1:0");
    let addr = server.addr.clone();
    let url = server.url("den");
    let rt = runtime();
    rt.block_on(async {
        let mut gm = gm_opens(&url, Checks::default()).await;
        let mut pat = pat_plays_ash(&url).await;
        let mut acked = Vec::new();
        for _ in 0..4 {
            acked.push(
                pat.throw(Proposal::Notation("3d6".into()), None, false, None)
                    .await
                    .expect("stored"),
            );
        }
        // kill -9, then a restart on the same port and data a moment later.
        server.kill();
        let restart = tokio::task::spawn_blocking({
            let data = data.clone();
            let addr = addr.clone();
            move || {
                std::thread::sleep(Duration::from_millis(700));
                Server::start(&data, &addr)
            }
        });
        // The throw in the gap waits for the server to come back (or says it was not stored).
        match pat
            .throw(Proposal::Notation("3d6".into()), None, false, None)
            .await
        {
            Ok(seq) => acked.push(seq),
            Err(ThrowError::NotSent(_) | ThrowError::NotStored(_)) => {}
            Err(e) => panic!("{e}"),
        }
        let server = restart.await.expect("restarted");
        assert!(pat.reconnects >= 1);
        for _ in 0..2 {
            acked.push(
                pat.throw(Proposal::Notation("3d6".into()), None, false, None)
                    .await
                    .expect("stored after the restart"),
            );
        }
        gm.sync_to(pat.seq())
            .await
            .expect("the game master reconnects and catches up");
        assert!(gm.reconnects >= 1);
        assert_eq!(gm.lines, pat.lines);
        // Every acknowledged throw is in the stored log.
        let stored = dicetable(&[
            "serve",
            "--data",
            data.to_str().expect("path"),
            "--export",
            "den",
        ]);
        let mut lines: Vec<String> = stdout(&stored).lines().map(str::to_string).collect();
        let head = lines.pop().expect("the export's head line");
        assert!(head.starts_with(r#"{"head":{"room":"den","#), "{head}");
        assert_eq!(lines, pat.lines);
        for seq in &acked {
            assert!(
                (*seq as usize) <= lines.len(),
                "acknowledged {seq} is stored"
            );
        }
        drop(server);
    });
    let _ = std::fs::remove_dir_all(&data);
}

/// Debian's `nats-server` (`./check` installs it).
pub(crate) fn nats_server() -> &'static str {
    ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .unwrap_or("nats-server")
}

/// A `nats-server -js` of the test's own on a free loopback port, killed when dropped.
struct Nats {
    child: Child,
    url: String,
    dir: PathBuf,
}

impl Nats {
    fn start() -> Nats {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir = data_dir("nats");
        let bin = nats_server();
        let child = Command::new(bin)
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server is installed (./check installs it)");
        let url = format!("nats://127.0.0.1:{port}");
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Nats { child, url, dir }
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A table server on NATS.
fn server_on_nats(nats: &Nats) -> Server {
    Server::spawn(&["serve", "--listen", "127.0.0.1:0", "--nats", &nats.url])
}

#[test]
fn two_servers_on_nats_serve_one_room_in_one_order() {
    let _lane = crate::beside_real_time();
    let nats = Nats::start();
    let (a, b) = (server_on_nats(&nats), server_on_nats(&nats));
    let rt = runtime();
    rt.block_on(async {
        let mut gm = gm_opens(&a.url("vault"), Checks::default()).await;
        // The room's name is taken on every node.
        let again = gm_tries_to_open(&b.url("vault"), "x", Checks::default()).await;
        assert_eq!(
            turned_away(again),
            (
                Some(ErrorCode::RoomExists),
                "a room named 'vault' exists already".into()
            )
        );
        let mut pat = Client::connect(
            as_(&b.url("vault"), "Pat", Role::Player, &["Ash"], "friends"),
            None,
            Checks { physics: true },
        )
        .await
        .expect("Pat joins on server B");
        let mut sam = Client::connect(
            as_(&a.url("vault"), "Sam", Role::Player, &["Bea"], "friends"),
            None,
            Checks::default(),
        )
        .await
        .expect("Sam joins on server A");
        // Throws from both nodes, some at the same moment: one order for everyone.
        for round in 0..3 {
            let (x, y) = tokio::join!(
                pat.throw(check(0, "STR", 10 + round), None, false, None),
                sam.throw(Proposal::Notation("2d6".into()), None, false, None),
            );
            let (x, y) = (x.expect("Pat's throw"), y.expect("Sam's throw"));
            assert_ne!(x, y);
        }
        let h = gm
            .throw(Proposal::Notation("1d20".into()), None, true, None)
            .await
            .expect("hidden on A");
        gm.reveal(h).await.expect("revealed on A");
        let last = gm.seq();
        for c in [&mut pat, &mut sam] {
            c.sync_to(last).await.expect("catches up");
        }
        assert_eq!(
            pat.lines, gm.lines,
            "a client of B has A's log, in the same order"
        );
        assert_eq!(sam.lines, gm.lines);
        assert_eq!(
            pat.lines.len(),
            1 + 2 + 6 + 2,
            "created, two joins, six throws, hidden and revealed"
        );
        assert!(pat.failures.is_empty() && pat.room.as_ref().unwrap().mismatches.is_empty());
        assert_eq!(seen(&pat).1, seen(&gm).1);
    });
}

#[test]
fn a_room_stored_on_nats_before_rooms_opened_in_one_write_still_plays_and_verifies() {
    let _lane = crate::beside_real_time();
    use dicetable::server::store::{LogStore, SqliteStore};
    // A room as the older NATS store kept it: `keys.ROOM` and every entry at `room.ROOM.SEQ`,
    // made here from a room played on SQLite (the same lines, the same passcode hashes).
    let data = data_dir("older-nats");
    let rt = runtime();
    {
        let server = Server::start(&data, "127.0.0.1:0");
        rt.block_on(async {
            let mut gm = gm_opens(&server.url("crypt"), Checks::default()).await;
            gm.throw(Proposal::Notation("2d6".into()), None, false, None)
                .await
                .expect("a throw");
        });
    }
    let nats = Nats::start();
    let (keys, old) = rt.block_on(async {
        let sqlite = SqliteStore::open(&data).expect("the SQLite store");
        let keys = sqlite.keys("crypt").await.expect("reads").expect("keys");
        let old = sqlite.read("crypt", 0).await.expect("reads");
        drop(sqlite);
        // The bucket as a server makes it, then the room written in the older form.
        let made = dicetable::server::nats::NatsStore::connect(
            &nats.url,
            dicetable::server::nats::Replicas::AsManyAsAllowed,
        )
        .await;
        assert!(made.is_ok(), "the bucket is made");
        let client = async_nats::connect(&nats.url).await.expect("NATS");
        let kv = async_nats::jetstream::new(client)
            .get_key_value(dicetable::server::nats::BUCKET)
            .await
            .expect("the bucket");
        let value = serde_json::json!({"passcode": keys.passcode, "gm_passcode": keys.gm_passcode});
        kv.put("keys.crypt", value.to_string().into())
            .await
            .expect("keys");
        for (i, line) in old.iter().enumerate() {
            kv.put(format!("room.crypt.{}", i + 1), line.clone().into())
                .await
                .expect("an entry");
        }
        (keys, old)
    });
    assert!(!keys.passcode.is_empty() && old.len() >= 2, "{old:?}");
    let server = server_on_nats(&nats);
    rt.block_on(async {
        // The room opens as it was: its name is taken, Pat joins with its passcode and plays on.
        let again = gm_tries_to_open(&server.url("crypt"), "x", Checks::default()).await;
        assert_eq!(turned_away(again).0, Some(ErrorCode::RoomExists));
        let mut pat = pat_plays_ash(&server.url("crypt")).await;
        assert_eq!(
            pat.lines[..old.len()],
            old[..],
            "the older entries, as stored"
        );
        pat.throw(check(0, "STR", 10), None, false, None)
            .await
            .expect("Pat throws");
    });
    // Its export, older entries and new, verifies.
    let dir = data.to_str().expect("path");
    let out = dicetable(&[
        "serve", "--nats", &nats.url, "--data", dir, "--export", "crypt",
    ]);
    assert!(out.status.success(), "{}", super::stderr(&out));
    let file = data.join("older.jsonl");
    std::fs::write(&file, &out.stdout).expect("written");
    let verified = dicetable(&["verify", file.to_str().expect("path")]);
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));
    let lines = stdout(&out).lines().count();
    assert_eq!(
        lines,
        old.len() + 3,
        "the older entries, a join, a throw, the head"
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// A raw WebSocket to a room, for what the library client never sends.
fn raw(server: &Server, room: &str) -> Raw {
    let (ws, _) = tungstenite::connect(server.url(room)).expect("connects");
    ws
}

type Raw = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

fn say(ws: &mut Raw, text: &str) -> serde_json::Value {
    ws.send(tungstenite::Message::text(text)).expect("sends");
    next_json(ws)
}

fn next_json(ws: &mut Raw) -> serde_json::Value {
    loop {
        match ws.read().expect("an answer") {
            tungstenite::Message::Text(t) => return serde_json::from_str(&t).expect("json"),
            _ => continue,
        }
    }
}

#[test]
fn bad_messages_are_answered_and_the_connection_stays_usable() {
    let _lane = crate::beside_real_time();
    let data = data_dir("bad");
    let server = Server::start(&data, "127.0.0.1:0");
    let mut ws = raw(&server, "den");
    // Every error carries its code beside the words.
    let error = |v: serde_json::Value| {
        assert_eq!(v["type"], "error", "{v}");
        let code: ErrorCode = serde_json::from_value(v["code"].clone()).expect("a code");
        (code, v["message"].as_str().expect("a message").to_string())
    };
    let (code, text) = error(say(&mut ws, "{not json"));
    assert_eq!(code, ErrorCode::Malformed);
    assert!(
        text.starts_with("malformed message: key must be a string"),
        "{text}"
    );
    let (code, text) = error(say(&mut ws, r#"{"type":"dance"}"#));
    assert_eq!(code, ErrorCode::UnknownType);
    assert!(
        text.starts_with("unknown message type: unknown variant `dance`"),
        "{text}"
    );
    let (code, text) = error(say(&mut ws, r#"{"type":"ping","id":1,"extra":true}"#));
    assert_eq!(code, ErrorCode::Malformed);
    assert!(
        text.starts_with("malformed message: no field `extra`; the fields are `id`"),
        "{text}"
    );
    assert_eq!(
        error(say(&mut ws, &format!("\"{}\"", "x".repeat(70_000)))),
        (
            ErrorCode::TooLarge,
            "a message of 70002 bytes (at most 65536)".into()
        )
    );
    assert_eq!(
        error(say(&mut ws, r#"{"type":"ping","id":1}"#)),
        (ErrorCode::NotJoined, "say create or join first".into())
    );
    assert_eq!(
        error(say(
            &mut ws,
            r#"{"type":"join","v":1,"room":"den","name":"Pat","role":"player","passcode":"p"}"#
        )),
        (
            ErrorCode::ProtocolVersion,
            "protocol version 1 is not spoken here (this server speaks 3)".into()
        )
    );
    assert_eq!(
        error(say(
            &mut ws,
            r#"{"type":"join","v":3,"room":"den","name":"Pat","role":"player","passcode":"p"}"#
        )),
        (
            ErrorCode::NoRoom,
            "there is no room 'den' on this server".into()
        )
    );
    // A room is made; the same socket joins after its mistakes.
    let create = serde_json::json!({"type": "create", "v": 3, "room": "den", "name": "Gwen",
        "scene": crypt(), "passcode": "friends", "gm_passcode": "gm-secret"});
    assert_eq!(say(&mut ws, &create.to_string())["type"], "welcome");
    // The room's first entry follows the welcome; then the socket answers as any other.
    assert_eq!(next_json(&mut ws)["type"], "entry");
    assert_eq!(
        say(&mut ws, r#"{"type":"ping","id":9}"#),
        serde_json::json!({"type": "pong", "id": 9})
    );
    // A throw with a stale commitment or a bad nonce is refused with the reason.
    let refusal = say(
        &mut ws,
        r#"{"type":"throw","id":3,"what":{"notation":"1d6"},"commitment":"00","nonce":"00"}"#,
    );
    assert_eq!(refusal["type"], "refused");
    assert_eq!(refusal["code"], "wrong_commitment", "{refusal}");
    assert!(
        refusal["reason"]
            .as_str()
            .unwrap_or("")
            .starts_with("that is not the commitment you were given; use "),
        "{refusal}"
    );
    // Too many messages: the rate limit answers, then lets the connection go on.
    let mut limited = 0;
    for i in 0..60 {
        ws.send(tungstenite::Message::text(format!(
            r#"{{"type":"ping","id":{i}}}"#
        )))
        .expect("sends");
    }
    let mut answers = 0;
    while answers < 60 {
        if let tungstenite::Message::Text(t) = ws.read().expect("answer") {
            let v: serde_json::Value = serde_json::from_str(&t).expect("json");
            match v["type"].as_str() {
                Some("pong") => answers += 1,
                Some("error") => {
                    assert_eq!(v["code"], "rate_limited");
                    assert_eq!(v["message"], "too many messages: at most 20 a second");
                    limited += 1;
                    answers += 1;
                }
                _ => {}
            }
        }
    }
    assert!(limited >= 15, "{limited} of 60 limited");
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(
        say(&mut ws, r#"{"type":"ping","id":99}"#),
        serde_json::json!({"type": "pong", "id": 99})
    );
    // A page of another site may not open the socket; a plain GET says what the path is.
    let mut req = tungstenite::client::IntoClientRequest::into_client_request(server.url("den"))
        .expect("request");
    req.headers_mut()
        .insert("Origin", "http://evil.example".parse().expect("header"));
    match tungstenite::connect(req) {
        Err(tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 403),
        other => panic!("expected 403, got {:?}", other.map(|_| ())),
    }
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn the_window_joins_a_room_over_wss_and_shows_its_throws() {
    if !super::driven::window_tools(&["Xvfb"]) {
        return;
    }
    // A window that only shows what it is sent (no clicks, no browser, a deadline of minutes):
    // beside the real-time tests, as window.rs's windows are.
    let _lane = crate::beside_real_time();
    let data = data_dir("window");
    // Over TLS, with a certificate of the server's own that Pat's window is told to trust.
    std::fs::create_dir_all(&data).expect("a folder");
    super::hosting::certificate(&data, "server");
    let (cert, key) = (data.join("server.pem"), data.join("server.key"));
    let tls = [
        "--tls-cert",
        cert.to_str().expect("path"),
        "--tls-key",
        key.to_str().expect("path"),
    ];
    let server = Server::start_with(&data, "127.0.0.1:0", &tls);
    let url = format!("wss://{}/crypt", server.addr);
    let rt = runtime();
    // The game master opens the room and throws twice before Pat's window joins; a client
    // that does not trust the certificate is not let in.
    let mut gm = rt.block_on(async {
        let untrusting = Client::connect(
            as_(&url, "Eve", Role::Spectator, &[], "friends"),
            None,
            Checks::default(),
        )
        .await;
        let (_, why) = turned_away(untrusting);
        assert!(why.contains("UnknownIssuer"), "{why}");
        let mut gm = Client::connect(
            JoinAs {
                trust: Some(cert.clone()),
                ..as_(&url, "Gwen", Role::Gamemaster, &[], "gm-secret")
            },
            Some(Create {
                scene: crypt(),
                passcode: "friends".into(),
                room_passcode: None,
            }),
            Checks::default(),
        )
        .await
        .expect("the game master opens the room over wss");
        gm.throw(check(3, "DEX", 10), None, false, None)
            .await
            .expect("the Ghoul's check");
        gm.throw(Proposal::Notation("2d6+1".into()), None, false, None)
            .await
            .expect("a free roll");
        gm
    });
    let (_x, display) = super::driven::start_xvfb();
    let shot = data.join("joined.png");
    let (_app, lines) = super::driven::spawn_window(
        &display,
        &data,
        &[
            "play",
            "--join",
            &url,
            "--trust-cert",
            cert.to_str().expect("path"),
            "--name",
            "Pat",
            "--passcode",
            "friends",
            "--seat",
            "Ash",
            "--throw",
            "--no-listen",
            "--width",
            "960",
            "--height",
            "600",
            "--exit-after-frames",
            "10",
            "--screenshot",
            shot.to_str().expect("path"),
        ],
    );
    let mut out = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(240);
    while std::time::Instant::now() < deadline {
        match lines.recv_timeout(Duration::from_secs(5)) {
            Ok(l) => out.push(l),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(_) => break,
        }
    }
    let text = out.join("\n");
    // Every logged throw was thrown again on the felt with the same faces: the two before the
    // join (entries 2 and 3), and Pat's own proposal (`--throw`: Ash's check, entry 5).
    for seq in [2, 3, 5] {
        assert!(
            text.contains(&format!("online entry {seq}: faces ")),
            "entry {seq} shown:\n{text}"
        );
    }
    assert!(!text.contains("DIFFER"), "{text}");
    assert!(!text.contains("refused"), "{text}");
    assert!(shot.exists(), "the screenshot was taken:\n{text}");
    // The room logged Pat's move for Ash, and Pat's window showed the same faces.
    rt.block_on(async {
        gm.sync_to(5).await.expect("sees Pat's move");
        let entry = dicetable::online::log::Entry::parse(&gm.lines[4]).expect("entry 5");
        match entry.event {
            dicetable::online::log::Event::Thrown { by, record, .. } => {
                assert_eq!(by, "Pat");
                assert!(
                    text.contains(&format!(
                        "online entry 5: faces {:?} as logged",
                        record.faces
                    )),
                    "{text}"
                );
            }
            other => panic!("entry 5 is {other:?}"),
        }
    });
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_browser_follows_a_room_on_its_page() {
    use super::stream::{browser_ready, floats, read_rgba, web_dir};
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let data = data_dir("page");
    std::fs::create_dir_all(&data).expect("dir");
    let server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    let base = format!("http://{}", server.addr);
    let rt = runtime();
    // Before the page: the room opened (1), a free roll (2), Pat joined (3).
    let (mut gm, mut pat) = rt.block_on(async {
        let mut gm = gm_opens(&url, Checks::default()).await;
        let two = gm
            .throw(Proposal::Notation("2d6+1".into()), None, false, None)
            .await
            .expect("a free roll");
        assert_eq!(two, 2);
        let pat = pat_plays_ash(&url).await;
        (gm, pat)
    });
    // The page (and one with a wrong passcode) in headless chromium.
    let mut node = Command::new("node")
        .arg(web_dir().join("tests/room.mjs"))
        .args([
            &base,
            "crypt",
            "friends",
            "2",
            data.to_str().expect("utf-8"),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node");
    let mut out = BufReader::new(node.stdout.take().expect("stdout")).lines();
    let ready = out.next().and_then(Result::ok);
    assert_eq!(ready.as_deref(), Some("ready"), "the page follows the room");
    // While it watches: Pat's check for Ash (4), a hidden roll (5) revealed (6).
    let (check_entry, revealed) = rt.block_on(async {
        let four = pat
            .throw(
                check(0, "STR", 12),
                None,
                false,
                Some("force the gate".into()),
            )
            .await
            .expect("Ash's check");
        let five = gm
            .throw(Proposal::Notation("1d20".into()), None, true, None)
            .await
            .expect("a hidden roll");
        let six = gm.reveal(five).await.expect("revealed");
        assert_eq!((four, five, six), (4, 5, 6));
        gm.sync_to(6).await.expect("sees all");
        let entry = |seq: usize| {
            serde_json::from_str::<serde_json::Value>(&gm.lines[seq - 1]).expect("JSON")
        };
        let four = entry(4)["event"]["record"].clone();
        let payload = entry(6)["event"]["payload"]
            .as_str()
            .expect("a payload")
            .to_string();
        let six =
            serde_json::from_str::<serde_json::Value>(&payload).expect("JSON")["record"].clone();
        (four, six)
    });
    let rest: Vec<String> = out.map_while(Result::ok).collect();
    let status = node.wait().expect("node ends");
    let mut err = String::new();
    if let Some(mut e) = node.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut err);
    }
    assert!(status.success(), "the browser half failed: {err}\n{rest:?}");
    let page: serde_json::Value =
        serde_json::from_str(rest.last().expect("a JSON line")).expect("JSON");
    // A wrong passcode is told, not retried.
    assert_eq!(page["refused"]["error"], "wrong passcode");
    assert_eq!(page["refused"]["notice"], "wrong passcode");
    assert_eq!(page["errors"], serde_json::json!([]), "no script errors");
    // The passcode went in the page's fragment and the feed's first message: no address the
    // page asked for carries it.
    assert_eq!(
        page["leaked"],
        serde_json::json!([]),
        "the passcode in a URL"
    );
    assert_eq!(page["notice"], serde_json::Value::Null, "three.js loaded");
    // The roll before the page came is in its history; the two after were played whole.
    let before = page["before"].as_array().expect("history");
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(
        before[0]
            .as_str()
            .unwrap_or_default()
            .starts_with("Gwen: 2d6+1 → "),
        "{before:?}"
    );
    eprintln!(
        "the room page: {} events, {} bytes, {} samples drawn",
        page["events"], page["bytes"], page["samples"]
    );
    assert_eq!(page["outcomes"], 2);
    assert_eq!(page["played"], 2, "both throws played through");
    // Every sample of both throws' motion reached the page (the server's re-simulation, thrown
    // again here from the records), and the page drew the dice between rest and rest (how many
    // frames depends on how busy the machine is).
    let samples: usize = [&check_entry, &revealed]
        .iter()
        .map(|r| {
            let record: dicetable::record::RollRecord =
                serde_json::from_value((*r).clone()).expect("a record");
            record
                .throws
                .iter()
                .map(|t| {
                    dicetable::roll::headless::trace(
                        t,
                        record.gesture,
                        record.cocked,
                        dicetable::server::watch::SAMPLE_STEPS,
                    )
                    .expect("re-simulates")
                    .frames
                    .len()
                })
                .sum::<usize>()
        })
        .sum();
    assert_eq!(page["received"], samples, "every motion sample sent");
    assert!(samples >= 20, "the throws took a while: {samples} samples");
    assert!(
        page["samples"].as_u64().unwrap_or(0) >= 2,
        "the dice were seen moving: {} frames drawn while playing",
        page["samples"]
    );
    assert_eq!(page["shown"]["roll"], 6);
    assert_eq!(page["shown"]["total"], revealed["total"]);
    assert_eq!(page["who"], "Gwen");
    assert_eq!(page["label"], "revealed roll 5");
    let history: Vec<&str> = page["history"]
        .as_array()
        .expect("history")
        .iter()
        .filter_map(|h| h.as_str())
        .collect();
    let total = |r: &serde_json::Value| r["total"].as_i64().expect("a total");
    assert_eq!(history.len(), 4, "{history:?}");
    assert!(
        history[0].starts_with(&format!("Gwen: revealed roll 5 → {}", total(&revealed))),
        "{history:?}"
    );
    assert_eq!(history[1], "Gwen: a hidden roll → hidden");
    assert!(
        history[2].starts_with(&format!("Pat: force the gate → {}", total(&check_entry))),
        "{history:?}"
    );
    // Where the page left the dice: exactly where the record says they came to rest.
    let poses = revealed["throws"][0]["poses"].as_array().expect("poses");
    let drawn = page["drawn"].as_array().expect("drawn");
    assert_eq!(drawn.len(), poses.len());
    for (d, p) in drawn.iter().zip(poses) {
        let want: Vec<f64> = floats(&p["t"]).into_iter().chain(floats(&p["r"])).collect();
        let got = floats(d);
        assert_eq!(got.len(), 7);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-5, "drawn {got:?}, the record's {want:?}");
        }
    }
    // The screenshot: the die on a transparent page.
    let (w, h, pixels) = read_rgba(&data.join("room.png"));
    assert_eq!((w, h), (1280, 720));
    let opaque = pixels.iter().filter(|p| p[3] == 255).count();
    let clear = pixels.iter().filter(|p| p[3] == 0).count();
    assert!(
        opaque > 2_000,
        "the dice and the card are drawn: {opaque} opaque pixels"
    );
    assert!(clear > pixels.len() / 2, "the rest is transparent");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
