//! A seat at the table in the browser: the front page opens a room, players join from its
//! link on a phone and a desktop and throw, the game master rolls hidden and reveals; every page
//! holds the log the server stored, and `verify` passes it.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use super::online::{Server, data_dir};
use super::stream::{browser_ready, web_dir};
use super::{dicetable, stdout};

#[test]
fn a_room_is_opened_and_played_from_the_browser() {
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let data = data_dir("seat");
    std::fs::create_dir_all(&data).expect("dir");
    let data_path = data.to_str().expect("a path");
    let mut server = Server::start(&data, "127.0.0.1:0");
    let addr = server.addr.clone();
    let base = format!("http://{addr}/");
    let shots = data.join("shots");
    std::fs::create_dir_all(&shots).expect("dir");
    let mut node = Command::new("node")
        .arg(web_dir().join("tests/seat.mjs"))
        .arg(&base)
        .arg(&shots)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node");
    let mut lines = BufReader::new(node.stdout.take().expect("stdout")).lines();
    let mut said = Vec::new();
    for line in lines.by_ref().map_while(Result::ok) {
        if line == "kill" {
            // SIGKILL mid-game, and the same server again on the same data and address.
            server.kill();
            server = Server::start(&data, &addr);
            std::fs::write(shots.join("back"), "").expect("tells node");
        } else {
            said.push(line);
        }
    }
    let status = node.wait().expect("node ends");
    let mut err = String::new();
    if let Some(mut e) = node.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut err);
    }
    assert!(status.success(), "the browser half failed: {err}\n{said:?}");
    let page: serde_json::Value =
        serde_json::from_str(said.last().expect("a JSON line")).expect("JSON");
    eprintln!("{page:#}");
    assert_eq!(page["errors"], serde_json::json!([]), "no script errors");
    // The server's scenes, and a file from the player's disk.
    assert_eq!(
        page["scenes"],
        serde_json::json!([
            "Night on the bridge (action-dice)",
            "Into the crypt (d20-check)",
            "Goblin ambush at the trapped door (d4-pool)",
            "Fred tags Peter (open-d6)",
            "The vault under the exchange (step-dice)",
            "A file from this computer…"
        ])
    );
    assert_eq!(
        page["badScene"],
        "the scene:3:9: Unexpected variant named `Nothing` in enum `Cast`, expected one of \
         `D4Pool`, `ActionDice`, `StepDice`, `OpenD6`, or `D20Check` instead"
    );
    assert_eq!(
        page["opened"],
        "The room keep is open. Give its link and passcode to your players."
    );
    assert_eq!(page["link"], format!("{base}keep"));
    // The exact odds of what is drafted, worked out by the server before the throw.
    assert_eq!(
        page["odds"],
        serde_json::json!([
            "2d6+1: 3 to 13, average 8.00, most often 8 (16.7%)",
            "1d20+5>=15: 6 to 25, average 15.50, most often 6 (5.0%); success 55.0%"
        ])
    );
    // Each throw announced as the log stored it.
    let pat = page["patSaw"].as_str().expect("text");
    assert!(pat.starts_with("Pat: 2d6+1 → "), "{pat}");
    assert_eq!(
        page["samRefused"],
        "Refused: a d7 has no physical die: dicetable throws d4, d6, d8, d10, d12, d20 and d100"
    );
    assert_eq!(page["patSawHidden"], "Gwen: 1d6, hidden");
    assert!(
        page["gmSawHidden"]
            .as_str()
            .expect("text")
            .contains("(only you see it)"),
        "{}",
        page["gmSawHidden"]
    );
    assert_eq!(page["sameLogs"], true, "every page holds the same log");
    // Opened by Gwen (1; her coming back logs nothing), Pat (2) and Sam (3) joined, Pat's
    // throw (4), Sam's (5), the hidden roll (6), revealed (7); the server killed and started
    // again, every page came back by itself and Pat's next throw is 8: nothing lost.
    assert_eq!(page["beforeKill"], 7, "{page}");
    assert_eq!(page["afterRestart"], 8, "{page}");
    assert_eq!(page["entries"], 8, "{page}");
    assert_eq!(page["reconnected"], serde_json::json!([1, 1, 1]), "{page}");
    let hidden = page["gmSawHidden"].as_str().expect("text");
    let shown = hidden
        .split(" → ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .expect("the game master sees the total");
    assert_eq!(
        page["patSawReveal"],
        format!("Gwen revealed #6: 1d6 → {shown}"),
        "the reveal shows what the game master saw"
    );
    for shot in ["seat-phone.png", "seat-desktop.png"] {
        assert!(shots.join(shot).exists(), "{shot} taken");
    }
    if let Some(keep) = std::env::var_os("DICETABLE_SHOTS") {
        for shot in ["seat-phone.png", "seat-desktop.png"] {
            let _ = std::fs::copy(shots.join(shot), std::path::Path::new(&keep).join(shot));
        }
    }
    // The log the pages played verifies.
    let export = dicetable(&["serve", "--export", "keep", "--data", data_path]);
    assert!(export.status.success(), "{export:?}");
    let log = data.join("keep.jsonl");
    std::fs::write(&log, stdout(&export)).expect("writes");
    let verify = dicetable(&["verify", log.to_str().expect("a path")]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
