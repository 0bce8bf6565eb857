//! Secret rolls: a free roll hidden in each mode (`self`: its roller alone; `gamemaster`: its
//! roller and the game master; `blind`: the game master alone) reaches whoever its mode shows
//! and no one else, byte for byte, on a real `dicetable serve`; then the reveals, and `verify`
//! naming the roll still sealed.

use std::sync::{Arc, Mutex};

use dicetable::errors::ErrorCode;
use dicetable::online::client::{Client, JoinAs};
use dicetable::online::log::{HiddenRoll, Proposal, Role, SecretMode};
use dicetable::online::room::Checks;
use futures_util::StreamExt;
use serde_json::Value;

use super::online::{Server, as_, data_dir, gm_opens, refused, runtime};
use super::{dicetable, stdout};

/// One secret roll: its mode, its label and what only its viewers may receive.
struct Secret {
    mode: SecretMode,
    seq: u64,
    label: String,
    /// The seed's secret (hex), the seal's salt and the sealed text's record.
    secret: String,
    salt: String,
    record: String,
}

impl Secret {
    /// The first of its strings found in `texts`, if any.
    fn leaked_in<'a>(&self, texts: impl IntoIterator<Item = &'a String>) -> Option<String> {
        let strings = [&self.label, &self.secret, &self.salt, &self.record];
        texts.into_iter().find_map(|t| {
            strings
                .iter()
                .find(|s| t.contains(s.as_str()))
                .map(|s| format!("{s} in {t}"))
        })
    }
}

/// Joins keeping every text the server sends from the first.
async fn join(join: JoinAs) -> Client {
    let who = join.name.clone();
    Client::join_keeping_heard(join, Checks::default())
        .await
        .unwrap_or_else(|e| panic!("{who} joins: {e}"))
}

/// Pat throws `notation` hidden in each mode, labelled `label(mode's name)`, and waits until
/// each roll's content has reached whoever sees it first: Pat with the ack, the game master
/// on its own for a roll Pat does not keep to himself. The rolls, with what only their
/// viewers may receive.
async fn pat_rolls_each_mode(
    pat: &mut Client,
    gwen: &mut Client,
    notation: &str,
    label: impl Fn(&str) -> String,
) -> Vec<Secret> {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut secrets = Vec::new();
    for mode in [
        SecretMode::Roller,
        SecretMode::Gamemaster,
        SecretMode::Blind,
    ] {
        let label = label(mode.name());
        let seq = pat
            .throw_secret(
                Proposal::Notation(notation.into()),
                mode,
                Some(label.clone()),
            )
            .await
            .unwrap_or_else(|e| panic!("Pat's {mode:?} roll: {e}"));
        secrets.push(Secret {
            mode,
            seq,
            label,
            secret: String::new(),
            salt: String::new(),
            record: String::new(),
        });
    }
    for s in &mut secrets {
        let told = if s.mode == SecretMode::Roller {
            &*pat
        } else {
            while !gwen.sealed.contains_key(&s.seq) {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "the game master was told"
                );
                let _ = gwen
                    .wait_for_more(std::time::Duration::from_millis(200))
                    .await;
            }
            &*gwen
        };
        let seen = &told.sealed[&s.seq];
        let roll: HiddenRoll = serde_json::from_str(&seen.payload).expect("a hidden roll");
        assert_eq!(
            roll.record.label.as_deref(),
            Some(s.label.as_str()),
            "sealed"
        );
        s.secret = roll.proof.secret.clone();
        s.salt = seen.salt.clone();
        s.record = serde_json::to_string(&roll.record).expect("JSON");
    }
    secrets
}

/// What a watch page's feed (`/ROOM/feed`) is sent, kept as it comes.
pub(crate) fn follow(url: String, heard: Arc<Mutex<Vec<String>>>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let (mut page, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .expect("a page follows the room");
        while let Some(Ok(m)) = page.next().await {
            if let tungstenite::Message::Text(t) = m {
                heard.lock().expect("the feed's texts").push(t.to_string());
            }
        }
    })
}

/// A tray that asks its feed for the dice of each hidden roll in `asked` (its `seq` and the salt
/// shown), one after another: every event the feed sent from the first ask to the last answer.
async fn unseal(url: String, asked: &[(u64, String)]) -> Vec<Value> {
    use futures_util::SinkExt;
    let (mut page, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("a tray follows the room");
    loop {
        match page.next().await {
            Some(Ok(tungstenite::Message::Text(t))) if t.contains(r#""type":"hello""#) => break,
            Some(Ok(_)) => {}
            other => panic!("the tray was not greeted: {other:?}"),
        }
    }
    let mut events = Vec::new();
    for (roll, salt) in asked {
        let ask = serde_json::json!({"type": "unseal", "roll": roll, "salt": salt});
        page.send(tungstenite::Message::Text(ask.to_string().into()))
            .await
            .expect("asks");
        loop {
            let Some(Ok(m)) = page.next().await else {
                panic!("the feed ended before answering #{roll}: {events:?}");
            };
            let tungstenite::Message::Text(t) = m else {
                continue;
            };
            let event: Value = serde_json::from_str(&t).expect("a feed event");
            let answered = event["type"] == "unsealed";
            events.push(event);
            if answered {
                break;
            }
        }
    }
    events
}

#[test]
fn a_secret_roll_reaches_only_whom_its_mode_shows_and_verifies_after() {
    let _lane = crate::beside_real_time();
    let data = data_dir("secrets");
    let server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    let rt = runtime();
    let (still_sealed, mut gwen) = rt.block_on(async {
        let mut gwen = gm_opens(&url, Checks::default()).await;
        gwen.keep_heard();
        let mut pat = join(as_(&url, "Pat", Role::Player, &["Ash"], "friends")).await;
        let mut sam = join(as_(&url, "Sam", Role::Player, &["Bea"], "friends")).await;
        let mut vi = join(as_(&url, "Vi", Role::Spectator, &[], "friends")).await;
        let page = Arc::new(Mutex::new(Vec::new()));
        let following = follow(format!("{url}/feed?passcode=friends"), page.clone());
        // The page is following once its hello came.
        while page.lock().expect("the feed").is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }

        // Pat throws a roll in each mode, each with a label no other text holds; whoever may
        // see a roll receives its content (the game master's comes on its own).
        let secrets = pat_rolls_each_mode(&mut pat, &mut gwen, "3d20", |mode| {
            format!("zq-{mode}-perception")
        })
        .await;
        let last = secrets.last().map(|s| s.seq).expect("three rolls");
        for c in [&mut gwen, &mut sam, &mut vi] {
            c.sync_to(last)
                .await
                .expect("every member sees them thrown");
        }
        let shows = |name: &str, s: &Secret| s.mode.shows_to(name, "Pat", "Gwen");
        let check = |who: &str, c: &Client, when: &str| {
            for s in &secrets {
                let got = c.sealed.contains_key(&s.seq);
                assert_eq!(got, shows(who, s), "{who} {when}: the {:?} roll", s.mode);
                if !shows(who, s) {
                    assert_eq!(s.leaked_in(c.heard()), None, "{who} {when}: {:?}", s.mode);
                }
            }
        };
        check("Pat", &pat, "after the throws");
        check("Gwen", &gwen, "after the throws");
        check("Sam", &sam, "after the throws");
        check("Vi", &vi, "after the throws");

        // The game master's own blind roll (the API allows it; the page offers "You alone"):
        // hers alone, with its ack; then revealed.
        let own_blind = gwen
            .throw_secret(
                Proposal::Notation("2d20".into()),
                SecretMode::Blind,
                Some("zq-gm-own".into()),
            )
            .await
            .expect("Gwen's blind roll");
        assert!(gwen.sealed.contains_key(&own_blind), "Gwen sees her own");
        for c in [&mut pat, &mut sam] {
            c.sync_to(own_blind).await.expect("synced");
            assert!(!c.sealed.contains_key(&own_blind), "{}", c.name());
            assert!(
                !c.heard().iter().any(|t| t.contains("zq-gm-own")),
                "{}",
                c.name()
            );
        }
        gwen.reveal(own_blind).await.expect("Gwen reveals her own");

        // Back after a dropped connection, and a member who joins late: the same.
        for c in [&mut pat, &mut sam, &mut gwen] {
            c.drop_connection();
            c.reconnect(&dicetable::online::client::ClientError::Connection(
                "test".into(),
            ))
            .await
            .expect("back");
        }
        let mut lee = join(as_(&url, "Lee", Role::Player, &[], "friends")).await;
        lee.sync_to(last).await.expect("Lee sees the log");
        let mark = pat
            .throw(Proposal::Notation("1d4".into()), None, false, None)
            .await
            .expect("a public roll after");
        for c in [&mut gwen, &mut sam, &mut lee] {
            c.sync_to(mark).await.expect("synced");
        }
        check("Pat", &pat, "back");
        check("Gwen", &gwen, "back");
        check("Sam", &sam, "back");
        check("Lee", &lee, "joining late");

        // The watch page saw each thrown, never its content, and the roll's mode in words.
        let fed = page.lock().expect("the feed").clone();
        for s in &secrets {
            assert_eq!(s.leaked_in(&fed), None, "the watch page: {:?}", s.mode);
        }
        for words in [
            "a hidden roll",
            "a roll for the game master",
            "a blind roll",
        ] {
            assert!(fed.iter().any(|t| t.contains(words)), "{words}: {fed:?}");
        }

        // A tray draws a hidden roll's dice when it shows the roll's salt, which only the
        // members its mode shows it to were given; a guessed or another roll's salt draws
        // nothing; the first page was told none of it.
        let [for_gm_roll, blind_roll] = [&secrets[1], &secrets[2]];
        let asked = [
            (for_gm_roll.seq, for_gm_roll.salt.clone()),
            (blind_roll.seq, for_gm_roll.salt.clone()),
            (blind_roll.seq, "00".repeat(16)),
        ];
        let tray = unseal(format!("{url}/feed?passcode=friends"), &asked).await;
        let motions: Vec<&Value> = tray.iter().filter(|e| e["type"] == "motion").collect();
        assert!(!motions.is_empty(), "{tray:?}");
        for m in &motions {
            assert_eq!(m["roll"], for_gm_roll.seq, "{m}");
            assert_eq!(m["by"]["label"], for_gm_roll.label.as_str(), "{m}");
            assert_eq!(m["dice"].as_array().map(Vec::len), Some(3), "3d20: {m}");
            assert!(m["frames"].as_array().is_some_and(|f| f.len() > 1), "{m}");
        }
        let told = tray.iter().find(|e| e["type"] == "unsealed").expect("told");
        assert_eq!(
            told["readings"].as_array().map(Vec::len),
            Some(3),
            "each die's value: {told}"
        );
        let answers: Vec<(u64, Value)> = tray
            .iter()
            .filter(|e| e["type"] == "unsealed")
            .map(|e| (e["roll"].as_u64().unwrap_or_default(), e["refused"].clone()))
            .collect();
        assert_eq!(
            answers,
            vec![
                (for_gm_roll.seq, Value::Null),
                (blind_roll.seq, Value::from("not_yours")),
                (blind_roll.seq, Value::from("not_yours")),
            ]
        );
        let fed = page.lock().expect("the feed").clone();
        for s in &secrets {
            assert_eq!(s.leaked_in(&fed), None, "the first page: {:?}", s.mode);
        }

        // Reveals: the roller its own roll that only it saw; the game master a blind one; the
        // roller never a roll the game master saw.
        let [own, for_gm, blind] = [0, 1, 2].map(|i| secrets[i].seq);
        assert_eq!(
            refused(pat.reveal(for_gm).await),
            (
                ErrorCode::NotYours,
                "only the game master can reveal that roll".into()
            )
        );
        assert_eq!(
            refused(sam.reveal(own).await),
            (ErrorCode::NotYours, "only Pat can reveal that roll".into())
        );
        assert_eq!(
            refused(pat.reveal_all().await),
            (
                ErrorCode::NotYours,
                "only the game master can reveal that roll".into()
            )
        );
        pat.reveal(own)
            .await
            .expect("Pat reveals the roll only Pat saw");
        let shown = gwen
            .reveal(blind)
            .await
            .expect("Gwen reveals the blind roll");
        sam.sync_to(shown).await.expect("Sam sees the reveals");
        let sam_room = sam.room.as_ref().expect("the room");
        for (seq, revealed) in [(own, true), (for_gm, false), (blind, true)] {
            assert_eq!(sam_room.hidden[&seq].revealed.is_some(), revealed, "#{seq}");
        }
        assert!(sam.failures.is_empty(), "{:?}", sam.failures);
        following.abort();
        (for_gm, gwen)
    });

    // The export holds no sealed content, and `verify` names the roll still sealed.
    let data_path = data.to_str().expect("a path");
    let export = dicetable(&["serve", "--export", "crypt", "--data", data_path]);
    assert!(export.status.success(), "{export:?}");
    let log = data.join("crypt.jsonl");
    std::fs::write(&log, stdout(&export)).expect("writes");
    let text = stdout(&export);
    assert!(!text.contains("zq-gamemaster-perception"), "{text}");
    let verify = dicetable(&["verify", log.to_str().expect("a path")]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    let sealed =
        format!("; 1 hidden roll never revealed, still sealed: #{still_sealed} (gamemaster)");
    assert!(stdout(&verify).contains(&sealed), "{}", stdout(&verify));

    // The session's end: the game master reveals every roll left at once; then none is left,
    // and `verify` finds none sealed.
    rt.block_on(async {
        let last = gwen.reveal_all().await.expect("Gwen reveals the rest");
        let room = gwen.room.as_ref().expect("the room");
        assert!(room.hidden.values().all(|h| h.revealed.is_some()));
        assert!(room.hidden[&still_sealed].revealed.is_some());
        assert!(last > still_sealed, "the reveal comes after the roll");
        assert_eq!(
            refused(gwen.reveal_all().await),
            (
                ErrorCode::NotHidden,
                "no hidden roll is left to reveal".into()
            )
        );
    });
    let export = dicetable(&["serve", "--export", "crypt", "--data", data_path]);
    std::fs::write(&log, stdout(&export)).expect("writes");
    let verify = dicetable(&["verify", log.to_str().expect("a path")]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    assert!(
        !stdout(&verify).contains("still sealed"),
        "{}",
        stdout(&verify)
    );
    forged_reveals_are_refused(&data, &stdout(&export));
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// A forger's change to a revealed roll.
type Change = dyn Fn(&mut Value);

/// A forged reveal, in a log whose every hidden roll is revealed: the last reveal's roll with
/// another face, then with another seed, each with the chain re-linked, and the forger's best:
/// the hidden line's seal made to match the forged roll. `verify` and a client's room (what the
/// protocol client and the window apply each line with) refuse every one.
fn forged_reveals_are_refused(dir: &std::path::Path, export: &str) {
    // The entries, without the export's head (a forged log has no signed head to keep).
    let lines: Vec<String> = export
        .lines()
        .filter(|l| !l.starts_with(r#"{"head""#))
        .map(String::from)
        .collect();
    let parsed: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("an entry"))
        .collect();
    let at = parsed
        .iter()
        .rposition(|e| e["event"]["kind"] == "revealed")
        .expect("a reveal");
    let of = parsed[at]["event"]["of"].as_u64().expect("of");
    let hidden_at = parsed
        .iter()
        .position(|e| e["seq"] == of)
        .expect("its hidden line");
    let forge = |change: &Change, reseal: bool| -> Vec<String> {
        let mut lines = lines.clone();
        let mut reveal = parsed[at].clone();
        let mut roll: Value =
            serde_json::from_str(reveal["event"]["payload"].as_str().expect("a payload"))
                .expect("a hidden roll");
        change(&mut roll);
        let payload = roll.to_string();
        if reseal {
            let salt = reveal["event"]["salt"].as_str().expect("a salt");
            let salt = dicetable::online::seal::unhex(salt, salt.len() / 2, "salt").expect("hex");
            let mut hidden = parsed[hidden_at].clone();
            hidden["event"]["sealed"] = dicetable::online::seal::seal(&salt, &payload).into();
            lines[hidden_at] = hidden.to_string();
        }
        reveal["event"]["payload"] = payload.into();
        lines[at] = reveal.to_string();
        super::online::rechain(&mut lines);
        lines
    };
    let other_face = |roll: &mut Value| {
        let face = &mut roll["record"]["faces"][0][0];
        *face = Value::from(if face.as_u64() == Some(20) { 19 } else { 20 });
    };
    let other_seed = |roll: &mut Value| roll["record"]["seed"] = Value::from(12345);
    let seq = &parsed[at]["seq"];
    let unsealed =
        format!("entry {seq}: the reveal of {of} does not match its seal (the roll was changed)");
    let faces = format!("entry {seq}: the record's faces ");
    let seed = format!("entry {seq}: the roll's seed 12345 is not the one its proof makes");
    let changes: [(&str, &Change, bool, &str); 4] = [
        ("face", &other_face, false, &unsealed),
        ("seed", &other_seed, false, &unsealed),
        ("face-resealed", &other_face, true, &faces),
        ("seed-resealed", &other_seed, true, &seed),
    ];
    for (name, change, reseal, why) in changes {
        let forged = forge(change, reseal);
        let file = dir.join(format!("forged-{name}.jsonl"));
        std::fs::write(&file, forged.join("\n")).expect("writes");
        let out = dicetable(&["verify", file.to_str().expect("a path")]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stdout(&out));
        assert!(
            stdout(&out).starts_with(&format!("FAILED: {why}")),
            "{name}: {}",
            stdout(&out)
        );
        let mut room = dicetable::online::room::RoomState::open(&forged[0]).expect("opens");
        let applied: Result<(), String> = forged[1..].iter().try_for_each(|line| {
            room.apply_line(line, Checks::default())
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        let refused = applied.expect_err("a client takes no forged reveal");
        assert!(refused.starts_with(why), "{name}, the client: {refused}");
    }
}

/// A streaming game master's window at a room (`play --join … --role gamemaster --listen`):
/// Pat rolls hidden in every mode between two public rolls; the window throws on its felt the
/// two its game master may see (for the game master, blind), never Pat's own; its OBS overlay
/// feed carries both public rolls and nothing of a hidden one (no label, seed secret, salt or
/// record), byte for byte.
#[test]
fn a_windows_overlay_feed_never_carries_a_hidden_roll() {
    if !super::driven::window_tools(&["Xvfb"]) {
        return;
    }
    let _turn = crate::real_time();
    let data = data_dir("window-secrets");
    std::fs::create_dir_all(&data).expect("a folder");
    let server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    let rt = runtime();
    let (mut gwen, mut pat) = rt.block_on(async {
        let gwen = gm_opens(&url, Checks::default()).await;
        (gwen, super::online::pat_plays_ash(&url).await)
    });
    let shot = data.join("window-gm-hidden.png");
    let mut window = super::stream::Served::start(&[
        "--join",
        &url,
        "--name",
        "Gwen",
        "--role",
        "gamemaster",
        "--passcode",
        "gm-secret",
        "--width",
        "1280",
        "--height",
        "800",
        "--screenshot",
        shot.to_str().expect("utf-8"),
    ]);
    let minutes = std::time::Duration::from_secs(300);
    let feed = format!("{}/feed", window.base.replacen("http://", "ws://", 1));
    let fed = Arc::new(Mutex::new(Vec::new()));
    let (secrets, last_public, following) = rt.block_on(async {
        let following = follow(feed, fed.clone());
        while fed.lock().expect("the feed").is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let first = pat
            .throw(Proposal::Notation("1d4".into()), None, false, None)
            .await
            .expect("a public roll");
        let secrets = pat_rolls_each_mode(&mut pat, &mut gwen, "2d20", |mode| {
            format!("zq-window-{mode}")
        })
        .await;
        let last = pat
            .throw(Proposal::Notation("1d6".into()), None, false, None)
            .await
            .expect("a public roll after");
        assert!(first < last);
        (secrets, last, following)
    });
    // The felt throws the rolls its game master may see, after their entries: Pat's for the
    // game master and blind ones, not Pat's own.
    let seen_here: Vec<u64> = secrets
        .iter()
        .filter(|s| s.mode != SecretMode::Roller)
        .map(|s| s.seq)
        .collect();
    let mut thrown_here = Vec::new();
    let shown = format!("online entry {last_public}: ");
    loop {
        let line = window.wait_for(|l| l.starts_with("hidden entry ") || l.contains(&shown));
        if line.contains(&shown) {
            break;
        }
        assert!(line.ends_with(" as logged"), "{line}");
        thrown_here.push(
            line.trim_start_matches("hidden entry ")
                .split(':')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .expect("an entry's number"),
        );
    }
    assert_eq!(thrown_here, seen_here);
    // What the game master's window shows: the hidden rolls marked in its history, its choice
    // of who sees its throws (for the docs, where DICETABLE_SHOTS is set).
    window.screenshot();
    if let Some(keep) = std::env::var_os("DICETABLE_SHOTS") {
        std::fs::copy(
            &shot,
            std::path::Path::new(&keep).join("window-gm-hidden.png"),
        )
        .expect("the screenshot kept");
    }
    // Its outcome reaches the feed (the window plays it first): then nothing is left to come.
    let deadline = std::time::Instant::now() + minutes;
    while !fed
        .lock()
        .expect("the feed")
        .iter()
        .filter(|t| t.contains(r#""type":"outcome""#))
        .count()
        .ge(&2)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "both public rolls fed"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let fed = fed.lock().expect("the feed").clone();
    for s in &secrets {
        assert_eq!(s.leaked_in(&fed), None, "the window's feed: {:?}", s.mode);
    }
    following.abort();
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// A hidden move on a real server: Pat's check for the game master reaches Pat and Gwen, never
/// Sam (no move, label, seed secret or record in any byte Sam is sent); the table waits (Gwen's
/// move is refused `table_held`, a free roll is not) with every member's table unchanged;
/// Gwen's reveal makes every member's table the same new one, and the log re-simulates.
#[test]
fn a_hidden_move_holds_the_table_and_reaches_only_whom_its_mode_shows() {
    let _lane = crate::beside_real_time();
    at_the_crypt("secret-move", |url, mut gwen, mut pat| async move {
        let mut sam = join(as_(&url, "Sam", Role::Player, &["Bea"], "friends")).await;
        let mut vi = join(as_(&url, "Vi", Role::Spectator, &[], "friends")).await;
        let page = Arc::new(Mutex::new(Vec::new()));
        let following = follow(format!("{url}/feed?passcode=friends"), page.clone());
        while page.lock().expect("the feed").is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let room = pat.room.clone().expect("Pat holds the room");
        let before = room.table.clone();
        // Pat's first move that throws dice, as his page offers it.
        let mv = room
            .moves_with_dice("Pat")
            .expect("Pat drafts")
            .into_iter()
            .next()
            .expect("a move with dice");
        let seq = pat
            .throw_secret(
                Proposal::Move(mv.clone()),
                SecretMode::Gamemaster,
                Some("zq-move-sneak".into()),
            )
            .await
            .expect("Pat's hidden move");
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
        while !gwen.sealed.contains_key(&seq) {
            assert!(tokio::time::Instant::now() < deadline, "Gwen was told");
            let _ = gwen
                .wait_for_more(std::time::Duration::from_millis(200))
                .await;
        }
        // Sam back after a dropped connection, a spectator, a player who joins late and the
        // watch page: each is sent that it was thrown, nothing of it.
        sam.drop_connection();
        sam.reconnect(&dicetable::online::client::ClientError::Connection(
            "test".into(),
        ))
        .await
        .expect("Sam is back");
        let mut lee = join(as_(&url, "Lee", Role::Player, &[], "friends")).await;
        for c in [&mut sam, &mut vi, &mut lee] {
            c.sync_to(seq).await.expect("sees it thrown");
        }
        let content = &pat.sealed[&seq];
        let roll: HiddenRoll = serde_json::from_str(&content.payload).expect("a hidden roll");
        assert_eq!(roll.mv.as_ref(), Some(&mv));
        assert_eq!(roll.record.label.as_deref(), Some("zq-move-sneak"));
        let record = serde_json::to_string(&roll.record).expect("JSON");
        let described = room.table.describe(&mv);
        for leak in [
            "zq-move-sneak",
            roll.proof.secret.as_str(),
            content.salt.as_str(),
            record.as_str(),
        ] {
            for c in [&sam, &vi, &lee] {
                assert!(
                    !c.heard().iter().any(|t| t.contains(leak)),
                    "{} was sent {leak}",
                    c.name()
                );
                assert!(!c.sealed.contains_key(&seq), "{}", c.name());
            }
            assert!(
                !page
                    .lock()
                    .expect("the feed")
                    .iter()
                    .any(|t| t.contains(leak)),
                "the watch page was sent {leak}"
            );
        }
        following.abort();
        let line = sam
            .lines
            .iter()
            .find(|l| l.starts_with(&format!("{{\"seq\":{seq},")))
            .expect("the hidden line");
        assert!(!line.contains(&described), "{line}");
        for c in [&pat, &gwen, &sam] {
            let r = c.room.as_ref().expect("a room");
            assert_eq!(r.held_by(), Some(seq), "{}", c.name());
            assert_eq!(r.table, before, "{}: the table waits", c.name());
        }

        // While it waits: no move, not even the game master's; free rolls go on.
        let (code, reason) = refused(
            gwen.throw(Proposal::Move(mv.clone()), None, false, None)
                .await,
        );
        assert_eq!(code, ErrorCode::TableHeld, "{reason}");
        let free = pat
            .throw(Proposal::Notation("1d6".into()), None, false, None)
            .await
            .expect("a free roll goes on");

        // Revealed: one new table for everyone, the move's words in every history.
        let shown = gwen.reveal(seq).await.expect("Gwen reveals it");
        for c in [&mut pat, &mut sam] {
            c.sync_to(shown).await.expect("synced");
        }
        let after = gwen.room.as_ref().map(|r| r.table.clone()).expect("a room");
        for c in [&pat, &gwen, &sam] {
            let r = c.room.as_ref().expect("a room");
            assert_eq!(r.held_by(), None, "{}", c.name());
            assert_eq!(r.table, after, "{}", c.name());
            let told = r.history.last().map(|h| h.text.clone()).unwrap_or_default();
            assert!(
                told.starts_with(&format!("Pat revealed {described}: ")),
                "{}: {told}",
                c.name()
            );
        }
        assert!(free < shown);
        // Sam's own copy of the log re-simulates, the revealed move's throws included.
        let replayed = dicetable::online::room::RoomState::replay(
            sam.lines.iter().map(String::as_str),
            Checks { physics: true },
        )
        .expect("Sam's log replays");
        assert_eq!(replayed.mismatches, Vec::<String>::new());
        assert_eq!(replayed.table, after);
    });
}

/// The game master's roll modes on a real server: the default and the modes players may use
/// reach every member through the log (one who joins late included); a player's throw in
/// another mode is refused `mode_not_allowed`, the game master's is not; a player may not set
/// them.
#[test]
fn the_game_masters_roll_modes_bind_the_players() {
    let _lane = crate::beside_real_time();
    use dicetable::online::log::RollMode;
    at_the_crypt("roll-modes", |url, mut gwen, mut pat| async move {
        let players = [RollMode::Gamemaster, RollMode::Blind];
        let (code, reason) = refused(pat.set_modes(RollMode::Gamemaster, &players).await);
        assert_eq!(code, ErrorCode::NotGamemaster, "{reason}");
        let (code, reason) = refused(gwen.set_modes(RollMode::Public, &players).await);
        assert_eq!(code, ErrorCode::ModeNotAllowed, "{reason}");
        let set = gwen
            .set_modes(RollMode::Gamemaster, &players)
            .await
            .expect("Gwen sets the modes");
        pat.sync_to(set).await.expect("Pat sees them");
        let modes = |c: &Client| c.room.as_ref().map(|r| r.modes.clone()).expect("a room");
        assert_eq!(modes(&pat).default, RollMode::Gamemaster);
        assert_eq!(modes(&pat).players, players.to_vec());

        let d20 = || Proposal::Notation("1d20".into());
        let (code, reason) = refused(pat.throw(d20(), None, false, None).await);
        assert_eq!(code, ErrorCode::ModeNotAllowed, "{reason}");
        let (code, reason) = refused(pat.throw_secret(d20(), SecretMode::Roller, None).await);
        assert_eq!(code, ErrorCode::ModeNotAllowed, "{reason}");
        pat.throw_secret(d20(), SecretMode::Gamemaster, None)
            .await
            .expect("a roll for the game master");
        let last = gwen
            .throw(d20(), None, false, None)
            .await
            .expect("the game master is not bound");
        let mut lee = join(as_(&url, "Lee", Role::Player, &[], "friends")).await;
        lee.sync_to(last).await.expect("Lee catches up");
        assert_eq!(modes(&lee), modes(&gwen));
    });
}

/// Gwen's crypt on a server of its own (data folder `name`): `play` runs with the room's
/// address, Gwen at the table and Pat playing Ash; then the server and its data go.
fn at_the_crypt<F: Future<Output = ()>>(
    name: &str,
    play: impl FnOnce(String, Client, Client) -> F,
) {
    let data = data_dir(name);
    let server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    runtime().block_on(async {
        let gwen = gm_opens(&url, Checks::default()).await;
        let pat = join(as_(&url, "Pat", Role::Player, &["Ash"], "friends")).await;
        play(url.clone(), gwen, pat).await;
    });
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// A room where every mode is used by a member's client (Pat, as a page throws), by a joined
/// window's API (`POST /api/roll` and `/api/move` with `mode`) and by the game master: each
/// answer says what its roller may see (a blind roll: only its entry); the window throws on its
/// felt the hidden rolls its member may see; nothing of a hidden roll reaches Pat or the
/// window's OBS feed; then two of them revealed, and the exported log passes
/// `verify --key`, naming the rolls still sealed.
#[test]
fn a_joined_windows_api_throws_in_every_mode_and_the_room_verifies() {
    if !super::driven::window_tools(&["Xvfb"]) || !super::stream::browser_ready() {
        return;
    }
    let _turn = crate::real_time();
    let data = data_dir("window-api-modes");
    std::fs::create_dir_all(&data).expect("a folder");
    let server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    let rt = runtime();
    // The window plays Ash, the character its drafted move is for; the phone plays Bea; Pat,
    // a player of no character, throws free rolls.
    let (mut gwen, mut pat) = rt.block_on(async {
        let gwen = gm_opens(&url, Checks::default()).await;
        (
            gwen,
            join(as_(&url, "Pat", Role::Player, &[], "friends")).await,
        )
    });
    let mut window = super::stream::Served::start(&[
        "--join",
        &url,
        "--name",
        "Win",
        "--passcode",
        "friends",
        "--seat",
        "Ash",
    ]);
    let feed = format!("{}/feed", window.base.replacen("http://", "ws://", 1));
    let fed = Arc::new(Mutex::new(Vec::new()));
    let following = {
        let _in_the_runtime = rt.enter();
        follow(feed, fed.clone())
    };
    rt.block_on(async {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(300);
        while !pat
            .room
            .as_ref()
            .is_some_and(|r| r.members.contains_key("Win"))
        {
            assert!(tokio::time::Instant::now() < deadline, "the window joins");
            let _ = pat
                .wait_for_more(std::time::Duration::from_millis(200))
                .await;
        }
    });
    // The window's API, in each mode: its answer is what its roller may see.
    let base = window.base.clone();
    let post = |path: &str, body: Value| {
        super::stream::send(
            "POST",
            &format!("{base}{path}"),
            Some(body.to_string().as_bytes()),
            None,
        )
    };
    let mut by_api = Vec::new();
    for mode in ["public", "gamemaster", "blind", "self"] {
        let label = format!("zq-api-{mode}");
        let (status, answer) = post(
            "/api/roll",
            serde_json::json!({"notation": "1d20", "label": label, "mode": mode}),
        );
        assert_eq!(status, 200, "{mode}: {answer}");
        assert_eq!(answer["mode"], mode, "{answer}");
        assert_eq!(answer["sealed"], mode != "public", "{answer}");
        assert_eq!(
            answer["total"].is_number(),
            mode != "blind",
            "{mode}: {answer}"
        );
        by_api.push((mode, label, answer["seq"].as_u64().expect("its entry")));
    }
    let (status, answer) = post("/api/move", serde_json::json!({"mode": "gamemaster"}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["sealed"], true, "{answer}");
    assert!(answer["total"].is_number(), "{answer}");
    let hidden_move = answer["seq"].as_u64().expect("its entry");
    // The window throws on its felt, after their entries, the hidden rolls its member may see
    // (its game master's and its self roll, its hidden move), with the room's faces; never the
    // blind one (thrown between them).
    let thrown_hidden: Vec<u64> = (0..3)
        .map(|_| {
            let line = window.wait_for(|l| l.starts_with("hidden entry "));
            assert!(line.ends_with(" as logged"), "{line}");
            line.trim_start_matches("hidden entry ")
                .split(':')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("an entry's number")
        })
        .collect();
    assert_eq!(thrown_hidden, vec![by_api[1].2, by_api[3].2, hidden_move]);

    // A phone page in the same room: Ria, playing Bea, throws in each mode.
    let shots = data.join("shots");
    std::fs::create_dir_all(&shots).expect("a folder");
    let phone = super::stream::browser_half(
        "every-mode.mjs",
        &[
            &format!("http://{}/crypt", server.addr),
            shots.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(phone["errors"], serde_json::json!([]), "no script errors");
    assert_eq!(phone["violations"], serde_json::json!([]), "axe-core");
    let by_phone: Vec<(String, u64)> = phone["rolls"]
        .as_array()
        .expect("the phone's rolls")
        .iter()
        .map(|r| {
            assert_eq!(r["refused"], serde_json::json!([]), "{r}");
            (
                r["mode"].as_str().unwrap_or_default().to_string(),
                r["seq"].as_u64().expect("its entry"),
            )
        })
        .collect();
    assert_eq!(by_phone.len(), 4);
    let (status, answer) = post(
        "/api/roll",
        serde_json::json!({"notation": "1d4", "seed": 5}),
    );
    assert_eq!(
        (status, &answer["code"]),
        (409, &serde_json::json!("at_a_room"))
    );

    rt.block_on(async {
        // Pat (as a page throws) in each mode; the game master's own.
        let pats =
            pat_rolls_each_mode(&mut pat, &mut gwen, "2d20", |mode| format!("zq-pat-{mode}")).await;
        let own = gwen
            .throw_secret(
                Proposal::Notation("1d8".into()),
                SecretMode::Roller,
                Some("zq-gm-own".into()),
            )
            .await
            .expect("Gwen's own");
        pat.sync_to(own).await.expect("Pat sees every entry");
        for (mode, label, seq) in &by_api {
            let shown_to_gwen = *mode == "gamemaster" || *mode == "blind";
            assert_eq!(gwen.sealed.contains_key(seq), shown_to_gwen, "{mode}");
            assert!(!pat.sealed.contains_key(seq), "{mode}");
            if *mode != "public" {
                assert!(
                    !pat.heard().iter().any(|t| t.contains(label.as_str())),
                    "Pat was sent {label}"
                );
            }
        }
        assert!(gwen.sealed.contains_key(&hidden_move));
        for (mode, seq) in &by_phone {
            let shown_to_gwen = mode == "gamemaster" || mode == "blind";
            assert_eq!(gwen.sealed.contains_key(seq), shown_to_gwen, "Ria's {mode}");
            assert!(!pat.sealed.contains_key(seq), "Ria's {mode}");
            if mode != "public" {
                let label = format!("zq-phone-{mode}");
                assert!(
                    !pat.heard().iter().any(|t| t.contains(&label)),
                    "Pat was sent {label}"
                );
            }
        }
        for s in &pats {
            assert_eq!(
                s.leaked_in(&fed.lock().expect("the feed").clone()),
                None,
                "the window's feed: Pat's {:?}",
                s.mode
            );
        }
        // The hidden move holds the table until the game master reveals it; so is the API's
        // blind roll. The rest stay sealed.
        gwen.reveal(hidden_move).await.expect("the move revealed");
        let blind = by_api[2].2;
        gwen.reveal(blind).await.expect("the blind roll revealed");
    });
    let fed = fed.lock().expect("the feed").clone();
    let hidden_labels = by_api
        .iter()
        .filter(|(mode, _, _)| *mode != "public")
        .map(|(_, label, _)| label.clone())
        .chain(
            ["gamemaster", "blind", "self"]
                .iter()
                .map(|m| format!("zq-phone-{m}")),
        );
    for label in hidden_labels {
        assert!(
            !fed.iter().any(|t| t.contains(&label)),
            "the window's feed carried {label}"
        );
    }
    following.abort();

    // The log, exported and checked against the server's key.
    let export = dicetable(&[
        "serve",
        "--data",
        data.to_str().expect("path"),
        "--export",
        "crypt",
    ]);
    assert!(export.status.success(), "{export:?}");
    let file = data.join("crypt.jsonl");
    std::fs::write(&file, stdout(&export)).expect("writes");
    let printed = dicetable(&[
        "serve",
        "--data",
        data.to_str().expect("path"),
        "--print-key",
    ]);
    let key = stdout(&printed).trim().to_string();
    let verified = dicetable(&["verify", "--key", &key, file.to_str().expect("path")]);
    let said = stdout(&verified);
    assert_eq!(verified.status.code(), Some(0), "{said}");
    let (_, _, gm_roll) = by_api[1];
    let (_, _, self_roll) = by_api[3];
    let phone_sealed = |mode: &str| {
        let seq = by_phone.iter().find(|(m, _)| m == mode).map(|(_, s)| *s);
        format!("#{} ({mode})", seq.unwrap_or_default())
    };
    assert!(
        said.contains(&format!("#{gm_roll} (gamemaster)"))
            && said.contains(&format!("#{self_roll} (self)"))
            && said.contains(&phone_sealed("gamemaster"))
            && said.contains(&phone_sealed("blind"))
            && said.contains(&phone_sealed("self"))
            && !said.contains(&format!("#{hidden_move} ("))
            && said.contains("; whole: its head is its last entry, signed by the server key"),
        "{said}"
    );
    drop(window);
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
