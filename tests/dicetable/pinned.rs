//! The pinned room logs (`tests/fixtures/logs/`): one per ruleset and per shipped system file,
//! each made by a real room. A real server (with the fixtures' own signing key) opens a room
//! per guided demo, a player sits at the first seat players play, and every move of the demo
//! is proposed in order (the player's by the player, the rest by the game master), each thrown
//! with the seed nobody chose; then a free roll, a hidden roll and its reveal. The export is
//! verified here with the key; pinned where a demo has no pinned log yet with
//! `DICETABLE_WRITE_FIXTURES=1` (every pinned log made anew with `DICETABLE_WRITE_FIXTURES=all`).
//! The pinned copies themselves are verified by the library's tests, plain and with every
//! sentence of the rules reworded (`online::verify`).

use std::path::{Path, PathBuf};

use dicetable::demo::{LoadedDemo, demo_files};
use dicetable::errors::ErrorCode;
use dicetable::online::client::{Client, Create, ThrowError};
use dicetable::online::log::{Proposal, Role};
use dicetable::online::room::Checks;
use dicetable::rules::data::load_ron;
use dicetable::rules::play::{MadeBy, Move};
use dicetable::rules::scene::Scene;
use dicetable::script::Script;

use super::online::{Server, as_, data_dir, runtime};
use super::{dicetable, stderr, stdout};

fn pinned_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/logs")
}

/// How one room went: moves logged, moves the rules refused (a demo step that needs another
/// outcome than the one thrown here), and the log's kinds of entry.
#[derive(Debug, Default)]
struct Played {
    logged: usize,
    refused: usize,
}

/// The moves a room of `demo` is offered, in order: the demo's, then those of the rules'
/// session scripts for the same scene (`tests/scripts/`), which between them make every kind
/// of move of their ruleset. A move whose conditions the honest throws before it did not
/// bring about is refused and left out.
fn offered(path: &Path, demo: &LoadedDemo) -> Vec<Move> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts");
    let mut script_files: Vec<PathBuf> = std::fs::read_dir(&scripts)
        .expect("tests/scripts")
        .map(|e| e.expect("an entry").path())
        .filter(|p| {
            let name = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            name == stem || (name.starts_with(stem) && name[stem.len()..].starts_with("-last"))
        })
        .collect();
    script_files.sort();
    let mut moves: Vec<Move> = demo.demo.steps.iter().map(|s| s.mv.clone()).collect();
    for file in script_files {
        let script: Script = load_ron(&file).unwrap_or_else(|e| panic!("{e}"));
        moves.extend(script.steps.into_iter().map(|s| s.mv));
    }
    moves
}

/// A request (a throw, a reveal), sent again after a pause where it came faster than a member
/// may send: a test that throws as fast as it can is answered, not rate-limited.
pub(crate) async fn paced(
    mut send: impl AsyncFnMut() -> Result<u64, ThrowError>,
) -> Result<u64, ThrowError> {
    loop {
        match send().await {
            Err(ThrowError::Refused {
                code: ErrorCode::RateLimited,
                ..
            }) => tokio::time::sleep(std::time::Duration::from_millis(250)).await,
            other => return other,
        }
    }
}

/// A throw, [`paced`].
pub(crate) async fn throw(
    who: &mut Client,
    what: Proposal,
    hidden: bool,
    label: Option<String>,
) -> Result<u64, ThrowError> {
    paced(async || who.throw(what.clone(), None, hidden, label.clone()).await).await
}

async fn play_demo(url: &str, demo: &LoadedDemo, moves: &[Move], scene_text: String) -> Played {
    let mut gm = Client::connect(
        as_(url, "Gwen", Role::Gamemaster, &[], "gm-secret"),
        Some(Create {
            scene: scene_text,
            passcode: "friends".into(),
            room_passcode: None,
        }),
        Checks::default(),
    )
    .await
    .unwrap_or_else(|e| panic!("the game master opens {url}: {e}"));
    let names = demo.scene.names();
    let seat = (0..names.len())
        .find(|i| demo.scene.players_play(*i))
        .expect("a seat players play");
    let mut pat = Client::connect(
        as_(url, "Pat", Role::Player, &[names[seat]], "friends"),
        None,
        Checks::default(),
    )
    .await
    .unwrap_or_else(|e| panic!("Pat joins {url} as {}: {e}", names[seat]));
    let mut played = Played::default();
    // The moves in order; then, twice more, those refused of a kind not logged yet (a move
    // whose moment came later than the script's honest throws brought it).
    let mut offer: Vec<&Move> = moves.iter().collect();
    let mut kinds = std::collections::BTreeSet::new();
    for _pass in 0..3 {
        let mut refused = Vec::new();
        for mv in offer {
            let seq = gm.seq();
            pat.sync_to(seq).await.expect("Pat is up to date");
            let room = pat.room.as_ref().expect("in the room");
            let by_pat = room.made_by(mv) == MadeBy::PlayerOf(seat);
            let who = if by_pat { &mut pat } else { &mut gm };
            let label = Some(format!("move {}", played.logged + 1));
            match throw(who, Proposal::Move(mv.clone()), false, label).await {
                Ok(seq) => {
                    played.logged += 1;
                    kinds.insert(kind_of(mv));
                    gm.sync_to(seq).await.expect("the game master sees it");
                }
                Err(ThrowError::Refused { .. }) => {
                    played.refused += 1;
                    refused.push(mv);
                }
                Err(e) => panic!("{url}: {mv:?}: {e}"),
            }
        }
        offer = refused
            .into_iter()
            .filter(|mv| !kinds.contains(&kind_of(mv)))
            .collect();
    }
    let free = throw(
        &mut pat,
        Proposal::Notation("2d6+1".into()),
        false,
        Some("a free roll".into()),
    )
    .await
    .expect("a free roll");
    gm.sync_to(free).await.expect("synced");
    let hidden = throw(
        &mut gm,
        Proposal::Notation("1d20".into()),
        true,
        Some("the GM's secret".into()),
    )
    .await
    .expect("a hidden roll");
    let revealed = paced(async || gm.reveal(hidden).await)
        .await
        .expect("revealed");
    gm.sync_to(revealed).await.expect("synced");
    played
}

/// A move's kind: its variant's name (`Act`, `EndTurn`).
fn kind_of(mv: &Move) -> String {
    variant(&serde_json::to_value(mv).expect("JSON")).unwrap_or_default()
}

/// The variant's name of a move as JSON writes it (`{"D4Pool": "EndTurn"}`, `{"D4Pool": {"Act":
/// {...}}}`), if it is one.
fn variant(mv: &serde_json::Value) -> Option<String> {
    let (_, inner) = mv.as_object()?.iter().next()?;
    match inner {
        serde_json::Value::String(s) => Some(s.clone()),
        other => other.as_object()?.keys().next().cloned(),
    }
}

/// The kinds of move a log holds (`Act`, `EndTurn`, ...), for the summary.
fn kinds_of_move(log: &str) -> std::collections::BTreeSet<String> {
    log.lines()
        .filter_map(|line| {
            let entry: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let event = &entry["event"];
            let mv = if event["move"].is_object() {
                &event["move"]
            } else {
                &event["what"]["move"]
            };
            variant(mv)
        })
        .collect()
}

#[test]
fn a_real_room_of_every_demo_makes_a_log_that_verifies_under_its_signed_head() {
    let _lane = crate::beside_real_time();
    let data = data_dir("pinned");
    std::fs::create_dir_all(&data).expect("a data folder");
    let key_file = pinned_dir().join("server-key.pk8");
    let write = std::env::var_os("DICETABLE_WRITE_FIXTURES").is_some();
    let anew = std::env::var_os("DICETABLE_WRITE_FIXTURES").is_some_and(|v| v == "all");
    if key_file.exists() {
        std::fs::copy(&key_file, data.join("server-key.pk8")).expect("the fixtures' key");
    } else {
        assert!(
            write,
            "no fixtures' key: DICETABLE_WRITE_FIXTURES=1 makes one"
        );
    }
    let server = Server::start(&data, "127.0.0.1:0");
    let rt = runtime();
    let key = dicetable(&[
        "serve",
        "--data",
        data.to_str().expect("a path"),
        "--print-key",
    ]);
    let key = stdout(&key).trim().to_string();
    assert!(key.starts_with("ed25519:"), "{key}");
    let mut summary = Vec::new();
    for path in demo_files() {
        let demo = LoadedDemo::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let room = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a name")
            .to_string();
        let scene_path = path.parent().expect("a folder").join(&demo.demo.scene);
        let (_, scene_text) = Scene::load_text(&scene_path).unwrap_or_else(|e| panic!("{e}"));
        let moves = offered(&path, &demo);
        let played = rt.block_on(play_demo(&server.url(&room), &demo, &moves, scene_text));
        assert!(played.logged >= 3, "{room}: {played:?}");
        let export = dicetable(&[
            "serve",
            "--data",
            data.to_str().expect("a path"),
            "--export",
            &room,
        ]);
        assert!(export.status.success(), "{}", stderr(&export));
        let file = data.join(format!("{room}.jsonl"));
        std::fs::write(&file, stdout(&export)).expect("written");
        let verified = dicetable(&["verify", "--key", &key, file.to_str().expect("a path")]);
        assert!(
            verified.status.success(),
            "{room}: {}{}",
            stdout(&verified),
            stderr(&verified)
        );
        summary.push(format!(
            "{room}: {played:?}, kinds of move {:?}",
            kinds_of_move(&stdout(&export))
        ));
        // A log pinned once stays as that build made it (later builds must verify it):
        // only a demo with none yet gets one, unless every one is asked for anew.
        let pinned = pinned_dir().join(format!("{room}.jsonl"));
        if write && (!pinned.exists() || anew) {
            std::fs::create_dir_all(pinned_dir()).expect("the fixtures' folder");
            std::fs::copy(&file, &pinned).expect("pinned");
        }
    }
    if write {
        std::fs::copy(data.join("server-key.pk8"), &key_file).expect("the key kept");
        std::fs::write(pinned_dir().join("server.pub"), format!("{key}\n")).expect("written");
    }
    eprintln!("{}", summary.join("\n"));
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
