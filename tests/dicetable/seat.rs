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
            "The vault, dangerous (step-dice, own rules)",
            "The vault under the exchange (step-dice)",
            "Under the barrow (system-file, own rules)",
            "The iron vow (system-file, own rules)",
            "The derelict (system-file, own rules)",
            "The toll bridge (system-file, own rules)",
            "The canal job (system-file, own rules)",
            "The dust market (system-file)",
            "The smugglers' moon (system-file, own rules)",
            "A file from this computer…"
        ])
    );
    assert_eq!(
        page["ownRules"],
        "step-dice (its own rules: dangerous_encounters): The same heist with Dangerous \
         Encounters: a tie between ability and difficulty is a failure."
    );
    assert_eq!(
        page["badScene"],
        "the scene:3:9: Unexpected variant named `Nothing` in enum `Cast`, expected one of \
         `D4Pool`, `ActionDice`, `StepDice`, `OpenD6`, `D20Check`, or `SystemFile` instead"
    );
    // The same, previewed as soon as the file is chosen, before anything is opened.
    assert_eq!(
        page["badPreview"],
        format!(
            "This scene would not open: {}",
            page["badScene"].as_str().unwrap_or("")
        )
    );
    // A scene previewed: its game, its characters and who plays them, as the room opens.
    assert_eq!(
        page["preview"],
        serde_json::json!({
            "game": "Playing d20-check (shipped rules).",
            "heading": "As the room opens: No initiative: any character may check.",
            "cast": [
                "Ash, played by a player: Players; torches d6; rations d8; fatigue d4 (steps up)",
                "Bea, played by a player: Players; arrows d10",
                "Crypt guardian, played by the game master: Gamemaster; Defense Class 14",
                "Ghoul, played by the game master: Gamemaster; Defense Class 12"
            ]
        })
    );
    // A system file in a scene: its RON broken, a number out of bounds; each named where.
    assert_eq!(
        page["badSystems"],
        serde_json::json!([
            "the scene:7:74: Unexpected variant named `AtLest` in enum `Condition`, expected one \
             of `AtLeast`, `AtMost`, `Faces`, `Match`, `WithDice`, `Count`, or `CountAtMost` instead",
            "the scene:7:60: 99999 is out of bounds: a system file's numbers are within ±1000"
        ])
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
            "{1d20+5}>=15: 6 to 25, average 15.50, each equally likely (5.0%); success 55.0%"
        ])
    );
    // Each throw announced as the log stored it.
    let pat = page["patSaw"].as_str().expect("text");
    assert!(pat.starts_with("Pat: 2d6+1 → "), "{pat}");
    // A free roll's dice written out in the history: Sam's Fate dice, each −, blank or +.
    let sam = page["patHistory"]
        .as_array()
        .expect("history")
        .iter()
        .filter_map(|h| h.as_str())
        .find(|h| h.contains("Sam: 4dF → "))
        .expect("Sam's 4dF in Pat's history");
    let total = sam
        .split("Sam: 4dF → ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .expect("a total");
    let written = sam.split(" rolled ").nth(1).expect("the dice written out");
    let (dice, after) = written.split_once(") = ").expect("(dice) = total");
    assert!(after.starts_with(&format!("{total} ")), "{sam}");
    let marks: Vec<&str> = dice.trim_start_matches('(').split(", ").collect();
    assert_eq!(marks.len(), 4, "{sam}");
    assert!(marks.iter().all(|m| ["−", "+", "0"].contains(m)), "{sam}");
    assert_eq!(
        page["samRefused"],
        "Refused: a d31 has no physical die: dicetable throws d2 to d30, d100 and dF"
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
    // Each page checked every line itself: the chain, each throw's seed, the reveal's seal.
    let every = serde_json::json!({"checked": 8, "unchecked": []});
    assert_eq!(
        page["checks"],
        serde_json::json!([every, every, every]),
        "{page}"
    );
    let marks = page["patMarks"].as_array().expect("marks");
    assert_eq!(marks.len(), 8, "{page}");
    for (seq, mark) in [
        (4, "the chain, the seed, your nonce"),
        (5, "the chain, the seed"),
        (7, "the chain, the seal, the seed"),
    ] {
        assert_eq!(
            marks[8 - seq],
            format!(" ✓ checked here: {mark}"),
            "#{seq}: {page}"
        );
    }
    let hidden = page["gmSawHidden"].as_str().expect("text");
    let shown = hidden
        .split(" → ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .expect("the game master sees the total");
    assert_eq!(
        page["patSawReveal"],
        format!("Gwen's roll #6 revealed: 1d6 → {shown}"),
        "the reveal shows what the game master saw"
    );
    for shot in ["seat-phone.png", "seat-desktop.png", "front-preview.png"] {
        assert!(shots.join(shot).exists(), "{shot} taken");
    }
    if let Some(keep) = std::env::var_os("DICETABLE_SHOTS") {
        for shot in ["seat-phone.png", "seat-desktop.png", "front-preview.png"] {
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

/// The floats of a JSON value that is a number (0 otherwise).
fn num(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

/// What a settled die reads over it, from the log's face: as printed on the die (a d10's 10 is
/// its 0, a tens die's 4 its 40).
fn reading(kind: &str, face: i64) -> String {
    match kind {
        "d10" => (face % 10).to_string(),
        "d10t" => format!("{face}0"),
        _ => face.to_string(),
    }
}

/// Checks one throw as the phone showed it: told only after its dice stopped on the tray, each
/// value over its die as logged, every die and value in the tray and clear of the card.
fn shown_as_logged(what: &str, shown: &serde_json::Value) {
    let motions = shown["motions"].as_array().expect("motions");
    assert!(!motions.is_empty(), "{what}: played on the tray: {shown}");
    let started = motions
        .iter()
        .map(|m| num(&m["started"]))
        .fold(f64::MAX, f64::min);
    let ended = motions.iter().map(|m| num(&m["ended"])).fold(0.0, f64::max);
    let lasted: f64 = motions.iter().map(|m| num(&m["ms"])).sum();
    let told = num(&shown["told"]);
    let status = &shown["status"];
    // The outcome reaches role="status" once the last die stopped moving, never before: at
    // least the motion's own duration after the dice left the hand.
    assert!(
        told >= ended,
        "{what}: told at {told}, the dice stopped at {ended}"
    );
    assert!(
        num(&status["t"]) >= ended,
        "{what}: the status changed at {}, the dice stopped at {ended}",
        status["t"]
    );
    assert!(
        told - started >= lasted - 1.0,
        "{what}: told {} ms after the dice left the hand; the motion lasts {lasted} ms",
        told - started
    );
    let record = &shown["entry"]["event"]["record"];
    assert!(
        status["text"]
            .as_str()
            .is_some_and(|t| t.ends_with(&format!("→ {}", record["total"]))
                || t.contains(&format!("→ {} (", record["total"]))),
        "{what}: {status}"
    );
    // Each settled die's value over it is the log's face.
    let last = record["throws"]
        .as_array()
        .and_then(|t| t.last())
        .expect("a throw");
    let want: Vec<String> = last["dice"]
        .as_array()
        .expect("dice")
        .iter()
        .zip(last["faces"].as_array().expect("faces"))
        .map(|(d, f)| reading(d.as_str().unwrap_or(""), f.as_i64().unwrap_or(-1)))
        .collect();
    let labels = shown["labels"].as_array().expect("labels");
    let got: Vec<&str> = labels.iter().filter_map(|l| l["text"].as_str()).collect();
    assert_eq!(got, want, "{what}: the values over the dice");
    // Each value stands beside its die (touching neither it nor another), inside the tray and
    // clear of the outcome card.
    let (w, h) = (num(&shown["size"][0]), num(&shown["size"][1]));
    let card = &shown["card"];
    let card = Rect {
        x: num(&card["l"]),
        y: num(&card["t"]),
        w: num(&card["r"]) - num(&card["l"]),
        h: num(&card["b"]) - num(&card["t"]),
    };
    for l in labels {
        let b = Rect::of(&l["box"]);
        let die = Disc {
            x: num(&l["die"][0]),
            y: num(&l["die"][1]),
            r: num(&l["r"]),
        };
        assert!(!b.meets_disc(&die), "{what}: {l} over its die");
        assert!(
            b.distance_to(die.x, die.y) <= die.r + 4.0,
            "{what}: {l} by its die"
        );
        assert!(
            b.x >= -0.5 && b.y >= -0.5 && b.x + b.w <= w + 0.5 && b.y + b.h <= h + 0.5,
            "{what}: {l} in the tray {w} x {h}"
        );
        assert!(
            (0.0..=w).contains(&die.x) && (0.0..=h).contains(&die.y),
            "{what}: {l}"
        );
        assert!(!b.meets(&card), "{what}: {l} behind the card {card:?}");
    }
}

/// A box on the page (CSS px).
#[derive(Debug)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// A die as the camera shows it: its centre and radius (CSS px).
#[derive(Debug)]
struct Disc {
    x: f64,
    y: f64,
    r: f64,
}

impl Rect {
    /// A box as a page reports it (`x`, `y`, `w`, `h`).
    fn of(v: &serde_json::Value) -> Rect {
        Rect {
            x: num(&v["x"]),
            y: num(&v["y"]),
            w: num(&v["w"]),
            h: num(&v["h"]),
        }
    }

    /// Whether the two boxes overlap (a shared edge, or less than half a pixel, is not).
    fn meets(&self, o: &Rect) -> bool {
        const SLACK: f64 = 0.5;
        self.x + SLACK < o.x + o.w
            && o.x + SLACK < self.x + self.w
            && self.y + SLACK < o.y + o.h
            && o.y + SLACK < self.y + self.h
    }

    /// How far the point (x, y) is from the box (0 inside it).
    fn distance_to(&self, x: f64, y: f64) -> f64 {
        let nx = x.clamp(self.x, self.x + self.w);
        let ny = y.clamp(self.y, self.y + self.h);
        (x - nx).hypot(y - ny)
    }

    /// Whether the box covers any of the disc (half a pixel of slack).
    fn meets_disc(&self, d: &Disc) -> bool {
        self.distance_to(d.x, d.y) + 0.5 < d.r
    }
}

/// Large pools on a phone and on the OBS page at 1080p with its scale set: 8d10, 20d6 and 7d4,
/// each die's value beside its die, touching no die and no other value, as the page laid them
/// out; or, a pool too crowded for that, every value listed in the card. The card says the
/// total once, covers no die, and its type is 12 px and up.
#[test]
fn large_pools_read_at_a_glance_on_a_phone_and_the_obs_page() {
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("pools");
    let seen = table.browse("pools.mjs");
    assert_eq!(seen["errors"], serde_json::json!([]), "no script errors");
    assert_eq!(
        seen["violations"],
        serde_json::json!({"obs": [], "phone": []}),
        "axe-core on the OBS page and the phone's"
    );
    let pools = seen["pools"].as_array().expect("pools");
    assert_eq!(pools.len(), 3);
    let mut shown = Vec::new();
    for pool in pools {
        let notation = pool["notation"].as_str().expect("text");
        let record = &pool["record"];
        let last = record["throws"]
            .as_array()
            .and_then(|t| t.last())
            .expect("a throw");
        let mut want: Vec<String> = last["dice"]
            .as_array()
            .expect("dice")
            .iter()
            .zip(last["faces"].as_array().expect("faces"))
            .map(|(d, f)| reading(d.as_str().unwrap_or(""), f.as_i64().unwrap_or(-1)))
            .collect();
        want.sort();
        for page in ["phone", "obs"] {
            let at = &pool[page];
            let what = format!("{notation} on the {page}");
            let boxes: Vec<Rect> = at["boxes"]
                .as_array()
                .expect("boxes")
                .iter()
                .map(Rect::of)
                .collect();
            let listed = at["listed"].as_array().expect("listed");
            let mut texts: Vec<String> = if boxes.is_empty() {
                listed
                    .iter()
                    .filter_map(|t| t.as_str())
                    .map(String::from)
                    .collect()
            } else {
                assert!(listed.is_empty(), "{what}: {at}");
                at["boxes"]
                    .as_array()
                    .expect("boxes")
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .map(String::from)
                    .collect()
            };
            texts.sort();
            assert_eq!(texts, want, "{what}: every die's value, once: {at}");
            let discs: Vec<Disc> = at["discs"]
                .as_array()
                .expect("discs")
                .iter()
                .map(|d| Disc {
                    x: num(&d["x"]),
                    y: num(&d["y"]),
                    r: num(&d["r"]),
                })
                .collect();
            assert_eq!(discs.len(), boxes.len(), "{what}");
            // The dice's size on screen, for docs/online.md (a pool listed in the card has none).
            if let Some(widest) = discs.iter().map(|d| d.r).reduce(f64::max) {
                let least = discs.iter().map(|d| d.r).fold(widest, f64::min);
                eprintln!(
                    "{what}: dice {:.0}-{:.0} px across",
                    2.0 * least,
                    2.0 * widest
                );
            }
            for (i, b) in boxes.iter().enumerate() {
                for (k, d) in discs.iter().enumerate() {
                    assert!(
                        !b.meets_disc(d),
                        "{what}: value {i} {b:?} over die {k} {d:?}"
                    );
                }
                for (j, o) in boxes.iter().enumerate() {
                    assert!(
                        i == j || !b.meets(o),
                        "{what}: value {i} {b:?} over value {j} {o:?}"
                    );
                }
            }
            // The card covers no die: every die drawn, labelled or listed.
            let card = Rect::of(&at["card"]);
            let drawn: Vec<Disc> = at["dice"]
                .as_array()
                .expect("dice")
                .iter()
                .map(|d| Disc {
                    x: num(&d["x"]),
                    y: num(&d["y"]),
                    r: num(&d["r"]),
                })
                .collect();
            assert_eq!(drawn.len(), want.len(), "{what}: every die drawn");
            for (k, d) in drawn.iter().enumerate() {
                assert!(
                    !card.meets_disc(d),
                    "{what}: the card {card:?} over die {k} {d:?}"
                );
            }
            // Its type reads on a phone (the working at 12 px) and at 1080p.
            let least_font = num(&at["card"]["least_font"]);
            assert!(
                least_font >= 12.0,
                "{what}: the card's type {least_font} px"
            );
            // The card says the total once (a free roll's words are its total).
            assert_eq!(at["result"], record["total"].to_string(), "{what}");
            shown.push(format!(
                "{what}: card {:.0} px high, type {least_font} px and up; {}",
                card.h,
                if boxes.is_empty() {
                    format!("listed ({} values)", listed.len())
                } else {
                    let fonts: Vec<f64> = at["boxes"]
                        .as_array()
                        .expect("boxes")
                        .iter()
                        .map(|b| num(&b["font"]))
                        .collect();
                    format!(
                        "beside the dice, type {}-{} px",
                        fonts.iter().copied().fold(f64::MAX, f64::min),
                        fonts.iter().copied().fold(0.0, f64::max)
                    )
                }
            ));
        }
    }
    eprintln!("{}", shown.join("\n"));
    let pictures: Vec<String> = ["8d10", "20d6", "7d4"]
        .iter()
        .flat_map(|pool| ["phone", "obs"].map(|page| format!("pool-{page}-{pool}.png")))
        .collect();
    table.keep(&pictures);
    table.close();
}

/// A move in full on a page, as the window shows it: the tray's card lists the rules' steps,
/// what they trigger and what changed (the log's words, `said`); the history line (`working`)
/// holds the steps and the triggers, and the announcement (`announced`) the last step, the
/// triggers and the changes. Returns the card's steps.
fn outcome_in_full<'a>(
    room: &str,
    card: &'a serde_json::Value,
    said: &serde_json::Value,
    working: &serde_json::Value,
    announced: &serde_json::Value,
) -> Vec<&'a str> {
    let card = card.as_array().expect("the card");
    let of = |kind: &str| -> Vec<&'a str> {
        card.iter()
            .filter(|c| c["kind"] == kind)
            .filter_map(|c| c["text"].as_str())
            .collect()
    };
    let steps = of("step");
    assert!(!steps.is_empty(), "{room}: {card:?}");
    assert_eq!(said, &serde_json::json!(of("changed")), "{room}: {card:?}");
    let working = working.as_str().expect("a move's working");
    let moved = announced.as_str().expect("text");
    for step in &steps {
        assert!(working.contains(step), "{room}: {working} lacks {step}");
    }
    assert!(
        steps.last().is_some_and(|last| moved.contains(last)),
        "{room}: {moved}"
    );
    for tag in of("tag") {
        assert!(
            working.contains(tag) && moved.contains(tag),
            "{room}: {tag}"
        );
    }
    for changed in of("changed") {
        assert!(moved.contains(changed), "{room}: {moved} lacks {changed}");
    }
    steps
}

/// A move's outcome in full on a phone at action dice, open-d6 and a d20 check (the round test
/// plays the other rulesets): the game master's drafted move, its card's working with the fact
/// that matters in each ruleset (the target, the shot, the total against the DC), the same on its history
/// line and in the announcement; the card over no die; axe-core finds nothing.
#[test]
fn a_moves_outcome_reads_in_full_on_a_phone_at_every_ruleset() {
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("outcomes");
    let seen = table.browse("outcomes.mjs");
    assert_eq!(seen["errors"], serde_json::json!([]), "no script errors");
    assert_eq!(seen["violations"], serde_json::json!([]), "axe-core");
    let rooms = seen["rooms"].as_array().expect("rooms");
    let facts = [
        ("knights", "against"),
        ("shootout", "-> shot"),
        // Every d20 check's working sets the total against the DC (a natural 1 names no
        // performance).
        ("crypt", "against DC"),
    ];
    assert_eq!(rooms.len(), facts.len());
    let mut pictures = Vec::new();
    for (seen, (room, fact)) in rooms.iter().zip(facts) {
        assert_eq!(seen["room"], room);
        let entry = &seen["entry"]["event"];
        assert_eq!(
            (entry["kind"].as_str(), entry["by"].as_str()),
            (Some("thrown"), Some("Gwen")),
            "{room}"
        );
        let steps = outcome_in_full(
            room,
            &seen["card"],
            &entry["said"],
            &seen["working"],
            &seen["announced"],
        );
        assert!(
            steps.iter().any(|s| s.contains(fact)),
            "{room}: the card names {fact}: {steps:?}"
        );
        let card = Rect::of(&seen["cardBox"]);
        let dice = seen["dice"].as_array().expect("dice");
        assert!(!dice.is_empty(), "{room}");
        for d in dice {
            let disc = Disc {
                x: num(&d["x"]),
                y: num(&d["y"]),
                r: num(&d["r"]),
            };
            assert!(!card.meets_disc(&disc), "{room}: the card over {disc:?}");
        }
        eprintln!("{room}: {} | {steps:?}", seen["move"]);
        pictures.push(format!("outcome-{room}-phone.png"));
    }
    table.keep(&pictures);
    table.close();
}

/// Secret rolls from three phones: Pat's roll for the game master, blind and for Pat alone, each
/// told in full (label, result) on the pages its mode shows it to and as thrown, no label, no
/// result, on the others; its dice thrown on the trays it shows to and no other; the game
/// master may reveal each, Pat only the roll Pat alone saw; the blind roll revealed reaches
/// Sam; axe-core finds nothing on any page in any mode.
#[test]
fn a_secret_roll_reads_in_full_only_on_the_pages_it_shows_to() {
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("secrets");
    let seen = table.browse("secrets.mjs");
    assert_eq!(seen["errors"], serde_json::json!([]), "no script errors");
    let mut clean = serde_json::Map::new();
    for mode in ["gamemaster", "blind", "self"] {
        for who in ["pat", "sam", "gwen"] {
            clean.insert(format!("{mode}-{who}"), serde_json::json!([]));
        }
    }
    assert_eq!(
        seen["violations"],
        serde_json::Value::Object(clean),
        "axe-core"
    );
    // The game master's own hidden roll has one choice: the game master alone.
    assert_eq!(
        seen["gmModes"],
        serde_json::json!(["Everyone, at once", "You alone"])
    );
    let mut pictures = Vec::new();
    for roll in seen["rolls"].as_array().expect("rolls") {
        let mode = roll["mode"].as_str().expect("a mode");
        let label = roll["label"].as_str().expect("a label");
        let how = match mode {
            "gamemaster" => "for the game master",
            "blind" => "blind",
            _ => "hidden",
        };
        for who in ["pat", "sam", "gwen"] {
            let text = roll["seen"][who]["text"].as_str().expect("a line");
            let shows = match mode {
                "gamemaster" => who != "sam",
                "blind" => who == "gwen",
                _ => who == "pat",
            };
            if shows {
                assert!(
                    text.contains(&format!("Pat: {label}, {how} → ")),
                    "{mode}, {who}: {text}"
                );
            } else {
                assert!(
                    text.contains(&format!("Pat: 1d20, {how}")),
                    "{mode}, {who}: {text}"
                );
                assert!(
                    !text.contains(label) && !text.contains('→'),
                    "{mode}, {who}: {text}"
                );
            }
            // The tray's card: the roll's label, result and who sees it where it shows; only
            // the dice and the mode elsewhere.
            let card = &roll["seen"][who]["card"];
            let [card_label, card_result, card_sees] =
                [0, 1, 2].map(|i| card[i].as_str().unwrap_or_default());
            if shows {
                assert_eq!(card_label, format!("{label} ({how})"), "{mode}, {who}");
                assert!(
                    card_result.starts_with(|c: char| c.is_ascii_digit()),
                    "{mode}, {who}: {card}"
                );
                assert!(card_sees.starts_with("only you"), "{mode}, {who}: {card}");
            } else {
                assert_eq!(card_result, "1d20, hidden", "{mode}, {who}: {card}");
                assert!(!card_label.contains(label), "{mode}, {who}: {card}");
            }
            // Its dice: thrown on the trays it shows to (asked for with its salt), never asked
            // for elsewhere.
            let thrown = &roll["seen"][who]["thrown"];
            if shows {
                assert!(
                    thrown["motions"].as_u64() > Some(0),
                    "{mode}, {who}: {thrown}"
                );
                assert_eq!(
                    thrown["unsealed"],
                    serde_json::json!([{"roll": roll["seq"], "refused": null}]),
                    "{mode}, {who}"
                );
                assert_eq!(thrown["onTray"], 1, "1d20: {mode}, {who}");
                assert_eq!(thrown["values"], 1, "its value beside it: {mode}, {who}");
            } else {
                // An empty tray: no die, not even an earlier roll's.
                assert_eq!(
                    thrown,
                    &serde_json::json!({"motions": 0, "unsealed": [], "onTray": 0, "values": 0}),
                    "{mode}, {who}"
                );
            }
            let may_reveal = who == "gwen" || (who == "pat" && mode == "self");
            assert_eq!(
                roll["seen"][who]["reveal"], may_reveal,
                "{mode}, {who}: a Reveal button"
            );
            pictures.push(format!("secret-{mode}-{who}-phone.png"));
        }
    }
    let revealed = seen["samSawReveal"].as_str().expect("text");
    assert!(
        revealed.starts_with("Pat's roll #") && revealed.contains(" revealed: zq-perception → "),
        "{revealed}"
    );
    // Sam's own copy of the log, saved from his page before any reveal: it verifies, holds no
    // label of a roll he could not see, and names the three rolls still sealed.
    assert_eq!(seen["savedAs"], "whispers.jsonl");
    let saved = table.shots.join("sam-saved.jsonl");
    let text = std::fs::read_to_string(&saved).expect("Sam's saved log");
    for label in ["zq-lie-detected", "zq-perception", "zq-my-fate"] {
        assert!(!text.contains(label), "{label} in Sam's log");
    }
    let verify = dicetable(&["verify", saved.to_str().expect("utf-8")]);
    let said = stdout(&verify);
    assert!(verify.status.success(), "{said}");
    let sealed: Vec<String> = seen["rolls"]
        .as_array()
        .expect("rolls")
        .iter()
        .map(|r| format!("#{} ({})", r["seq"], r["mode"].as_str().unwrap_or_default()))
        .collect();
    let listed = format!(
        "3 hidden rolls never revealed, still sealed: {}",
        sealed.join(", ")
    );
    assert!(said.contains(&listed), "{said}");

    // The session's end: the two rolls left, revealed at once, told on every page in full.
    assert_eq!(seen["revealAllLabel"], "Reveal all 2 hidden rolls");
    for who in ["pat", "sam", "gwen"] {
        let lines = seen["afterAll"][who].as_array().expect("reveals");
        let [blind, for_gm, own] = [0, 1, 2].map(|i| lines[i].as_str().unwrap_or_default());
        assert!(
            blind.contains(" revealed: zq-perception → "),
            "{who}: {blind}"
        );
        assert!(
            for_gm.contains(" revealed: zq-lie-detected → "),
            "{who}: {for_gm}"
        );
        assert!(own.contains(" revealed: zq-my-fate → "), "{who}: {own}");
    }
    for check in seen["checks"].as_array().expect("checks") {
        assert_eq!(check["unchecked"], serde_json::json!([]), "{check}");
    }
    pictures.push("secret-reveal-all-gwen-phone.png".into());
    table.keep(&pictures);
    table.close();
}

/// Dice of one's own (#67): three members pick three looks on the room page (Pat stone, Sam
/// metal with yellow numerals on white, Gwen translucent for Bea); every tray, the OBS page and a
/// window that joins afterwards draw each roll in its thrower's dice (a move's die in its
/// character's), numerals drawn readable; the history tells each choice; axe-core finds
/// nothing on the picker; every line checks.
#[test]
fn each_members_dice_are_drawn_on_every_page_and_in_a_joined_window() {
    use dicetable::dice::style::{MIN_CONTRAST, Rgb};
    if !browser_ready() || !super::driven::window_tools(&["Xvfb"]) {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("own-dice");
    let seen = table.browse("own-dice.mjs");
    assert_eq!(seen["errors"], serde_json::json!([]), "no script errors");
    assert_eq!(
        seen["violations"]["picker"],
        serde_json::json!([]),
        "axe-core"
    );
    let line = |who: &str| seen["lines"][who].as_str().unwrap_or_default().to_string();
    assert!(
        line("pat").contains("Pat chose stone dice: #1e40aa with #ffffff serif numerals"),
        "{}",
        line("pat")
    );
    assert!(
        line("sam").contains("Sam chose metal dice: #ffffff with #ffff00 numerals"),
        "{}",
        line("sam")
    );
    assert!(
        line("gwen").contains("Gwen chose translucent dice for Bea: #2e8b57 with #ffffff numerals"),
        "{}",
        line("gwen")
    );
    for check in seen["checks"].as_array().expect("checks") {
        assert_eq!(check["unchecked"], serde_json::json!([]), "{check}");
    }
    // The picker's live die: a d20 and a d6 in Pat's look, as the server draws it.
    let preview = &seen["preview"];
    let previewed: Vec<_> = preview["dice"]
        .as_array()
        .expect("the live dice")
        .iter()
        .map(|d| {
            (
                d["kind"].clone(),
                d["material"].clone(),
                d["typeface"].clone(),
            )
        })
        .collect();
    assert_eq!(
        previewed,
        [
            (
                serde_json::json!("d20"),
                serde_json::json!("stone"),
                serde_json::json!("serif")
            ),
            (
                serde_json::json!("d6"),
                serde_json::json!("stone"),
                serde_json::json!("serif")
            )
        ]
    );
    assert_eq!(
        preview["label"],
        "A d20 and a d6 as they will be drawn: stone dice: #1e40aa with #ffffff serif numerals",
        "{preview}"
    );
    // What each die must look like: (body, material), and its numerals readable.
    let stone = ("#1e40aa", "stone");
    let metal = ("#ffffff", "metal");
    let glass = ("#2e8b57", "translucent");
    let readable = |die: &serde_json::Value| {
        let colour = |k: &str| Rgb::parse(die[k].as_str().unwrap_or_default()).expect("a colour");
        colour("body").contrast(colour("ink")) >= MIN_CONTRAST
    };
    let expect = |what: &str, who: &str, look: Option<(&str, &str)>| {
        let roll = &seen[what][who];
        for (page, dice) in roll["seen"].as_object().expect("pages") {
            let dice = dice.as_array().expect("dice");
            assert!(!dice.is_empty(), "{what} {who} on {page}");
            for die in dice {
                match look {
                    Some((body, material)) => {
                        assert_eq!(
                            (die["body"].as_str(), die["material"].as_str()),
                            (Some(body), Some(material)),
                            "{what} {who} on {page}: {die}"
                        );
                        // Pat's numerals are serif on every page; the others' sans.
                        let face = if body == stone.0 { "serif" } else { "sans" };
                        assert_eq!(die["typeface"], face, "{what} {who} on {page}: {die}");
                        assert_ne!(die["opacity"], serde_json::Value::Null, "{die}");
                    }
                    None => assert_eq!(die["material"], "plastic", "{what} {who} on {page}: {die}"),
                }
                assert!(readable(die), "{what} {who} on {page}: {die}");
            }
        }
    };
    expect("rolls", "pat", Some(stone));
    expect("rolls", "sam", Some(metal));
    expect("rolls", "gwen", None);
    expect("moves", "pat", Some(stone));
    expect("moves", "sam", Some(glass));
    // Sam's yellow numerals did not read on white: drawn darker, still yellow.
    let sams = &seen["rolls"]["sam"]["seen"]["obs"][0];
    assert_ne!(sams["ink"], "#ffff00", "{sams}");
    // Metal is drawn as metal where a page draws at full quality; a page on a slow GPU (these
    // run on SwiftShader) draws every die matte. Translucent dice let light through on both.
    let metal_drawn = (sams["drawnAs"].as_str(), &sams["metalness"]);
    assert!(
        metal_drawn == (Some("MeshStandardMaterial"), &serde_json::json!(1.0))
            || metal_drawn.0 == Some("MeshLambertMaterial"),
        "{sams}"
    );
    let beas = &seen["moves"]["sam"]["seen"]["obs"][0];
    assert_eq!(beas["opacity"], 0.78, "{beas}");

    // A window that joins afterwards throws the room's log again on its felt: its OBS feed
    // carries each throw's dice as the felt drew them. It joins with dice of its own (`--dice`,
    // as its picker keeps them), which the room logs for its member.
    let url = table.server.url("colours");
    let mut window = super::stream::Served::start(&[
        "--join",
        &url,
        "--name",
        "Vic",
        "--role",
        "player",
        "--passcode",
        "friends",
        "--dice",
        "#6b3e1f,#f0e0c0,wood,pips,mono",
    ]);
    let feed = format!("{}/feed", window.base.replacen("http://", "ws://", 1));
    let fed = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let rt = super::online::runtime();
    let following = {
        let _in = rt.enter();
        super::secrets::follow(feed, fed.clone())
    };
    let last = seen["moves"]["sam"]["seq"].as_u64().expect("the last roll");
    window.wait_for(|l| l.starts_with(&format!("online entry {last}: faces ")));
    following.abort();
    let throws: Vec<serde_json::Value> = fed
        .lock()
        .expect("the feed")
        .iter()
        .filter_map(|t| serde_json::from_str::<serde_json::Value>(t).ok())
        .filter(|e| e["type"] == "throw" && e["throw"] == 0)
        .collect();
    let looks: Vec<(String, Option<String>, Option<String>)> = throws
        .iter()
        .map(|t| {
            let die = &t["dice"][0];
            (
                t["by"]["who"].as_str().unwrap_or_default().to_string(),
                die["body"].as_str().map(str::to_string),
                die["material"].as_str().map(str::to_string),
            )
        })
        .collect();
    let own = |who: &str, (body, material): (&str, &str)| {
        (
            who.to_string(),
            Some(body.to_string()),
            Some(material.to_string()),
        )
    };
    assert_eq!(looks.len(), 5, "{looks:?}");
    // In the log's order: Gwen's, Pat's and Sam's free rolls, then Ash's and Bea's checks.
    assert_eq!((looks[0].0.as_str(), looks[0].2.as_deref()), ("Gwen", None));
    assert_eq!(looks[1], own("Pat", stone), "{looks:?}");
    assert_eq!(looks[2], own("Sam", metal), "{looks:?}");
    assert_eq!(looks[3], own("Pat", stone), "{looks:?}");
    assert_eq!(looks[4], own("Sam", glass), "{looks:?}");
    // Vic's own dice, logged by the room as the window joined.
    let vics = || {
        table
            .entries("colours")
            .into_iter()
            .find_map(|e| match e.event {
                dicetable::online::log::Event::Dice { by, look, .. } if by == "Vic" => look,
                _ => None,
            })
    };
    let chosen = (0..600).find_map(|_| {
        vics().or_else(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            None
        })
    });
    assert_eq!(
        chosen.map(|l| (l.colours(), l.material.name())),
        Some((
            "#6b3e1f with #f0e0c0 mono numerals, pips on the d6".to_string(),
            "wood"
        ))
    );
    table.keep(&[
        "own-dice-picker-pat-phone.png",
        "own-dice-live-die.png",
        "own-dice-pat-phone.png",
        "own-dice-sam-phone.png",
    ]);
}

/// A hidden move and the room's roll modes from three phones (`web/tests/secret-moves.mjs`):
/// the game master's modes reach Pat's form (it starts at "You and the game master", and "You
/// alone" is not offered); Pat's move for the game master reads in full on Pat's and Gwen's
/// phones and as "a move" on Sam's, whose tray stays empty; the game master's move form says the
/// table waits; the reveal tells it everywhere. Then a public roll on every phone. axe-core 0
/// on every state; every line checked on every page.
#[test]
fn a_hidden_move_and_the_room_modes_from_three_phones() {
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("secret-moves");
    let seen = table.browse("secret-moves.mjs");
    assert_eq!(seen["errors"], serde_json::json!([]), "no script errors");
    for (state, found) in seen["violations"].as_object().expect("axe runs") {
        assert_eq!(found, &serde_json::json!([]), "axe-core: {state}");
    }
    assert!(
        seen["modesLine"]
            .as_str()
            .is_some_and(|l| l.contains("Gwen set the roll modes: for the game master by default; players may roll everyone at once, for the game master, blind")),
        "{}",
        seen["modesLine"]
    );
    assert_eq!(
        seen["patModes"],
        serde_json::json!({
            "value": "gamemaster",
            "offered": ["Everyone, at once", "You and the game master", "The game master alone (blind: not you)"],
        })
    );
    let mv = seen["move"].as_str().expect("the move");
    for who in ["pat", "sam", "gwen"] {
        let hidden = &seen["hidden"][who];
        let text = hidden["text"].as_str().unwrap_or_default();
        if who == "sam" {
            assert!(
                text.contains("Pat: a move, for the game master"),
                "{who}: {text}"
            );
            assert!(!text.contains(mv) && !text.contains('→'), "{who}: {text}");
            assert_eq!(hidden["onTray"], 0, "{who}: an empty tray");
            assert_eq!(hidden["card"][1], "a move, hidden", "{who}");
        } else {
            assert!(
                text.contains(&format!("Pat: {mv}, for the game master → ")),
                "{who}: {text}"
            );
            assert!(hidden["onTray"].as_u64() > Some(0), "{who}: its dice");
            assert_eq!(
                hidden["card"][0],
                format!("{mv} (for the game master)"),
                "{who}"
            );
        }
        assert_eq!(hidden["reveal"], who == "gwen", "{who}: a Reveal button");
        let revealed = seen["revealed"][who].as_str().unwrap_or_default();
        assert!(
            revealed.contains(&format!("Pat's roll #{} revealed: {mv} → ", seen["seq"])),
            "{who}: {revealed}"
        );
        let public = seen["pub"][who]["text"].as_str().unwrap_or_default();
        assert!(public.contains("Pat: zq-in-the-open → "), "{who}: {public}");
    }
    let held = seen["held"]["reason"].as_str().unwrap_or_default();
    assert!(
        held.starts_with(&format!("the table waits for hidden move {}", seen["seq"])),
        "{}",
        seen["held"]
    );
    assert_eq!(seen["held"]["code"], "table_held");
    for check in seen["checks"].as_array().expect("checks") {
        assert_eq!(check["unchecked"], serde_json::json!([]), "{check}");
    }
    let mut pictures = vec!["secret-modes-gwen-phone.png".to_string()];
    for who in ["pat", "sam", "gwen"] {
        pictures.push(format!("secret-move-{who}-phone.png"));
        pictures.push(format!("secret-public-{who}-phone.png"));
    }
    table.keep(&pictures);
    table.close();
}

/// A table server for one browser test, on a data folder of its own: the address its pages
/// open and the folder their screenshots go to.
struct BrowserTable {
    data: std::path::PathBuf,
    server: Server,
    base: String,
    shots: std::path::PathBuf,
}

impl BrowserTable {
    /// A server on a fresh data folder named `name`.
    fn start(name: &str) -> BrowserTable {
        let data = data_dir(name);
        let shots = data.join("shots");
        std::fs::create_dir_all(&shots).expect("dir");
        let server = Server::start(&data, "127.0.0.1:0");
        let base = format!("http://{}/", server.addr);
        BrowserTable {
            data,
            server,
            base,
            shots,
        }
    }

    /// What `script` (under web/tests/) printed of this table's pages: its JSON line.
    fn browse(&self, script: &str) -> serde_json::Value {
        super::stream::browser_half(script, &[&self.base, self.shots.to_str().expect("utf-8")])
    }

    /// The entries of `room`'s log as the server exports it now.
    fn entries(&self, room: &str) -> Vec<dicetable::online::log::Entry> {
        let export = dicetable(&[
            "serve",
            "--data",
            self.data.to_str().expect("a path"),
            "--export",
            room,
        ]);
        stdout(&export)
            .lines()
            .filter_map(|l| dicetable::online::log::Entry::parse(l).ok())
            .collect()
    }

    /// Copies the screenshots named to `DICETABLE_SHOTS`, where it is set (for the docs).
    fn keep<S: AsRef<str>>(&self, pictures: &[S]) {
        if let Some(keep) = std::env::var_os("DICETABLE_SHOTS") {
            for shot in pictures {
                let shot = shot.as_ref();
                let _ = std::fs::copy(
                    self.shots.join(shot),
                    std::path::Path::new(&keep).join(shot),
                );
            }
        }
    }

    /// Stops the server and removes its data, the test having passed.
    fn close(self) {
        drop(self.server);
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// A game's own dice from a phone (`web/tests/game-dice.mjs`): Pat makes the first move of the
/// narrative-dice scene and of the bone-dice scene; Pat's tray and an OBS page draw every die
/// with its marks (the narrative dice in their own colours), and the value over each die is
/// the mark of the face the room's log says it settled on. axe-core finds nothing.
#[test]
fn a_games_own_dice_are_drawn_with_their_marks_and_read_as_the_log_says() {
    use dicetable::online::log::Event;
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("game-dice");
    let seen = table.browse("game-dice.mjs");
    assert_eq!(seen["errors"], serde_json::json!([]), "no script errors");
    for (room, written, first_body) in [
        (
            "smugglers",
            "2d{Ability}+1d{Proficiency}+2d{Difficulty}",
            "#1f7a3a",
        ),
        ("barrow", "3d{Bone}", "#961824"),
    ] {
        let game = &seen["games"][room];
        assert_eq!(
            game["violations"],
            serde_json::json!([]),
            "axe-core: {room}"
        );
        assert!(
            game["history"]
                .as_str()
                .is_some_and(|l| l.contains(written)),
            "{room}: {}",
            game["history"]
        );
        // The faces the room's log holds for the move.
        let seq = game["seq"].as_u64().expect("a seq");
        let faces: Vec<u32> = table
            .entries(room)
            .into_iter()
            .find_map(|e| match e.event {
                Event::Thrown { record, .. } if e.seq == seq => record.faces.first().cloned(),
                _ => None,
            })
            .expect("the move's faces in the log");
        for page in ["tray", "obs"] {
            let dice = game[page]["dice"].as_array().expect("dice");
            let values = game[page]["values"].as_array().expect("values");
            assert_eq!(dice.len(), faces.len(), "{room} {page}");
            assert_eq!(values.len(), faces.len(), "{room} {page}: {values:?}");
            assert_eq!(dice[0]["body"], first_body, "{room} {page}");
            for ((die, value), face) in dice.iter().zip(values).zip(&faces) {
                assert!(die["marks"].is_string(), "{room} {page}: {die}");
                let reads = die["reads"].as_array().expect("marks read in words");
                assert_eq!(&reads[*face as usize - 1], value, "{room} {page}: {die}");
            }
        }
        assert_eq!(
            game["tray"], game["obs"],
            "{room}: the OBS page draws what the tray does"
        );
    }
    table.keep(&[
        "game-dice-smugglers-phone.png",
        "game-dice-barrow-phone.png",
    ]);
    table.close();
}

/// Every material in a light and a dark colour from a phone (`web/tests/own-dice-gallery.mjs`):
/// Pat picks each look and throws one die of every kind; the tray draws every die numbered, in
/// the look picked, its numerals readable; a screenshot of each (the docs' gallery).
#[test]
fn every_material_in_light_and_dark_on_a_phone() {
    use dicetable::dice::style::{MIN_CONTRAST, Rgb};
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("gallery");
    let seen = table.browse("own-dice-gallery.mjs");
    assert_eq!(seen["errors"], serde_json::json!([]), "no script errors");
    let shots = seen["shots"].as_object().expect("shots");
    assert_eq!(shots.len(), 10, "five materials, light and dark");
    for (name, dice) in shots {
        let dice = dice.as_array().expect("dice");
        // d4, d6, d8, d10, d12, d20 and the d100's two.
        assert_eq!(dice.len(), 8, "{name}");
        for die in dice {
            assert_eq!(die["numbered"], true, "{name}: {die}");
            assert!(
                name.contains(die["material"].as_str().unwrap_or("?")),
                "{name}: {die}"
            );
            let colour =
                |k: &str| Rgb::parse(die[k].as_str().unwrap_or_default()).expect("a colour");
            assert!(
                colour("body").contrast(colour("ink")) >= MIN_CONTRAST,
                "{name}: {die}"
            );
        }
    }
    let names: Vec<String> = shots.keys().cloned().collect();
    table.keep(&names);
    table.close();
}

/// Issue #68: the dice of other sizes from a phone (`web/tests/other-sizes-gallery.mjs`): Pat
/// throws every size from d5 to d30 but the d6 to d20's own, three at a time; the tray draws each
/// die numbered, writes its value over it, and the page announces the roll to screen readers
/// with each die's size and value; a screenshot of each (the docs' gallery).
#[test]
fn the_dice_of_other_sizes_are_drawn_numbered_and_announced_on_a_phone() {
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("sizes");
    let seen = table.browse("other-sizes-gallery.mjs");
    assert_eq!(seen["errors"], serde_json::json!([]), "no script errors");
    let shots = seen["shots"].as_object().expect("shots");
    assert_eq!(shots.len(), 7, "21 dice, three a throw");
    let mut sizes = Vec::new();
    for (name, shot) in shots {
        let dice = shot["dice"].as_array().expect("dice");
        assert_eq!(dice.len(), 3, "{name}");
        let announced = shot["announced"].as_str().unwrap_or_default();
        for die in dice {
            assert_eq!(die["numbered"], true, "{name}: {die}");
            let kind = die["kind"].as_str().expect("a kind");
            assert!(announced.contains(kind), "{name}: {kind} in {announced:?}");
            sizes.push(kind.trim_start_matches('d').parse::<u32>().expect("a size"));
        }
        let written = shot["labels"].as_array().map_or(0, Vec::len)
            + shot["listed"].as_array().map_or(0, Vec::len);
        assert_eq!(
            written, 3,
            "{name}: a value over or beside each die: {shot}"
        );
    }
    sizes.sort_unstable();
    let expected: Vec<u32> = dicetable::dice::OTHER_SIZES
        .iter()
        .map(|(_, n)| *n)
        .collect::<std::collections::BTreeSet<u32>>()
        .into_iter()
        .collect();
    assert_eq!(sizes, expected);
    let names: Vec<String> = shots.keys().cloned().collect();
    table.keep(&names);
    table.close();
}

#[test]
fn every_page_from_one_address_draws_every_die_with_its_numerals() {
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("household");
    let seen = table.browse("household.mjs");
    eprintln!("{seen:#}");
    assert_eq!(seen["errors"], serde_json::json!([]), "no script errors");
    let pages = seen["pages"].as_object().expect("pages");
    assert_eq!(pages.len(), 4, "the OBS page, the desktop and two phones");
    for (name, page) in pages {
        // The last roll's dice: 2d10 + a d100 (two dice) + a d8, each with its numerals.
        let dice = page["dice"].as_array().expect("dice");
        assert_eq!(dice.len(), 5, "{name}: {page}");
        for die in dice {
            assert_eq!(
                die["numbered"], true,
                "{name}: {die} drawn without its numerals"
            );
        }
        // Its first atlas was refused as busy, asked again after the wait, and came.
        assert_eq!(page["asked"]["refused"], 1, "{name}: {page}");
        assert!(
            page["atlases"]["retried"].as_u64() >= Some(1),
            "{name}: {page}"
        );
        assert_eq!(
            page["atlases"]["failed"],
            serde_json::json!([]),
            "{name}: {page}"
        );
        assert_eq!(
            page["atlases"]["loaded"], page["atlases"]["asked"],
            "{name}: every atlas asked came: {page}"
        );
        assert_eq!(page["error"], serde_json::Value::Null, "{name}: {page}");
    }
    // The phone whose first join was answered busy joined by itself, saying so, no error.
    let lee = &seen["leeJoined"];
    assert_eq!(lee["busy"], 1, "{lee}");
    assert_eq!(lee["refused"], serde_json::json!([]), "{lee}");
    let said: Vec<&str> = lee["said"]
        .as_array()
        .expect("said")
        .iter()
        .filter_map(|s| s.as_str())
        .filter(|s| !s.is_empty())
        .collect();
    assert_eq!(
        said,
        [
            "Joining…",
            "Joining… the table is letting everyone in.",
            "You are at the table in house."
        ]
    );
    // Its screenshots stay in its data folder for whoever asked for them.
    if std::env::var_os("DICETABLE_SHOTS").is_none() {
        table.close();
    }
}

#[test]
fn a_phone_player_sees_the_dice_land_and_throws_only_when_meant() {
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let table = BrowserTable::start("phone");
    let page = table.browse("phone.mjs");
    eprintln!("{page:#}");
    assert_eq!(page["errors"], serde_json::json!([]), "no script errors");
    // Every room message each way fits the protocol's published schema.
    let protocol = &page["protocol"];
    assert_eq!(protocol["errors"], serde_json::json!([]), "{protocol}");
    assert!(
        protocol["client"].as_u64() >= Some(10) && protocol["server"].as_u64() >= Some(30),
        "{protocol}"
    );
    // axe-core: nothing on the front page or the room page, in every state visited.
    let violations = page["violations"].as_object().expect("states");
    assert_eq!(violations.len(), 10, "{violations:?}");
    for (state, found) in violations {
        assert_eq!(found, &serde_json::json!([]), "{state}");
    }
    // The join form lists the characters players may take, every one free.
    assert_eq!(
        page["listed"],
        serde_json::json!([
            {"name": "Ana", "free": true},
            {"name": "Bo", "free": true},
            {"name": "Cass", "free": true}
        ])
    );
    // The first load after Join, over the wire, by the browser's own count.
    let bytes = page["firstLoad"]["bytes"].as_u64().expect("bytes");
    assert!(
        bytes <= 300_000,
        "{bytes} bytes: {}",
        page["firstLoad"]["files"]
    );
    // After joining: the tray in view at the top, the move's button on the first screen.
    let after = &page["afterJoin"];
    assert_eq!(num(&after["scrollY"]), 0.0, "{after}");
    assert_eq!(num(&after["tray"][0]), 0.0, "{after}");
    assert!(
        num(&after["makeMove"][1]) <= num(&after["height"]),
        "{after}"
    );
    // The first Space throws the move on screen.
    let space = &page["spaceThrow"];
    assert_eq!(space["entry"]["event"]["kind"], "thrown");
    assert_eq!(
        space["entry"]["event"]["what"]["move"], page["onScreen"]["draft"],
        "the move on screen ({})",
        page["onScreen"]["shown"]
    );
    shown_as_logged("Space", space);
    // A tap and a vertical swipe throw nothing; the swipe scrolls the page.
    let g = &page["gestures"];
    assert_eq!(g["afterGestures"]["seq"], g["before"]["seq"], "{g}");
    assert_eq!(g["afterGestures"]["sent"], g["before"]["sent"], "{g}");
    assert_eq!(
        num(&g["afterGestures"]["misses"]["tap"]),
        num(&g["before"]["taps"]) + 1.0,
        "{g}"
    );
    assert!(
        num(&g["swiped"]["scrollY"]) > num(&g["scrollBeforeSwipe"]),
        "the swipe scrolled: {g}"
    );
    // The game master's form after End turn is not End turn.
    assert_ne!(page["gmAfterEnd"], "End turn");
    assert!(page["gmAfterEnd"].is_string(), "{}", page["gmAfterEnd"]);
    // A flick throws the drafted move (Bo's, the turn having come to him), with its swing.
    let flicked = &page["flickThrow"]["entry"]["event"];
    assert_eq!(flicked["what"]["move"], page["flickDraft"]);
    assert_eq!(flicked["proof"]["gesture"], page["flick"]["swing"]);
    assert!(
        flicked["record"]["what"]["action"]
            .as_str()
            .is_some_and(|a| a.starts_with("Bo: ")),
        "{flicked}"
    );
    shown_as_logged("flick", &page["flickThrow"]);
    // No throw moves the page.
    assert_eq!(page["flick"]["scrollY"], page["scrollBefore"]);
    assert_eq!(page["flick"]["scrolls"], serde_json::json!([]));
    assert!(
        num(&page["scrollBeforeRoll"]) > 0.0,
        "scrolled down before the roll"
    );
    assert_eq!(
        page["scrollAfterRoll"], page["scrollBeforeRoll"],
        "the page's heights meanwhile: {}",
        page["rollHeights"]
    );
    // Four dice: every value over its die.
    shown_as_logged("1d20+1d10+1d6+1d4", &page["fourDice"]);
    assert_eq!(page["fourDice"]["labels"].as_array().map(Vec::len), Some(4));
    let pictures = [
        "room-phone-four-dice.png",
        "room-desktop-four-dice.png",
        "room-phone-after-throw.png",
    ];
    for shot in pictures {
        assert!(table.shots.join(shot).exists(), "{shot} taken");
    }
    table.keep(&pictures);
    table.close();
}

/// A window client in a room (`play --join` under Xvfb): its output so far, and the lines
/// still coming.
struct WindowClient {
    _app: super::driven::Killed,
    lines: std::sync::mpsc::Receiver<String>,
    out: Vec<String>,
}

impl WindowClient {
    /// Joins `url` as Win, playing `first`: it throws 1d8 and its character's move, then shows
    /// the room's throws as they are logged.
    fn join(display: &str, data: &std::path::Path, url: &str, first: &str) -> WindowClient {
        let (app, lines) = super::driven::spawn_window(
            display,
            data,
            &[
                "play",
                "--join",
                url,
                "--name",
                "Win",
                "--passcode",
                "friends",
                "--seat",
                first,
                "--roll",
                "1d8",
                "--throw",
                "--no-listen",
                "--mute",
                "--width",
                "640",
                "--height",
                "400",
            ],
        );
        WindowClient {
            _app: app,
            lines,
            out: Vec::new(),
        }
    }

    /// Reads the window's output until a line holds `text`; false if none did in time.
    fn until(&mut self, text: &str, within: std::time::Duration) -> bool {
        if self.out.iter().any(|l| l.contains(text)) {
            return true;
        }
        let deadline = std::time::Instant::now() + within;
        while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(text);
                    self.out.push(line);
                    if found {
                        return true;
                    }
                }
                Err(_) => return false,
            }
        }
        false
    }

    fn text(&self) -> String {
        self.out.join("\n")
    }
}

#[test]
fn a_round_is_played_at_three_rulesets_by_pages_and_a_window() {
    if !browser_ready() {
        return;
    }
    if !super::driven::window_tools(&["Xvfb"]) {
        return;
    }
    let _turn = super::real_time();
    let data = data_dir("round");
    std::fs::create_dir_all(&data).expect("dir");
    let data_path = data.to_str().expect("a path");
    let server = Server::start(&data, "127.0.0.1:0");
    let base = format!("http://{}/", server.addr);
    let shots = data.join("shots");
    std::fs::create_dir_all(&shots).expect("dir");
    let (_x, display) = super::driven::start_xvfb();
    let mut node = Command::new("node")
        .arg(web_dir().join("tests/round.mjs"))
        .arg(&base)
        .arg(&shots)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node");
    let mut lines = BufReader::new(node.stdout.take().expect("stdout")).lines();
    let mut said = Vec::new();
    let mut windows = std::collections::BTreeMap::new();
    for line in lines.by_ref().map_while(Result::ok) {
        let asked: Vec<&str> = line.splitn(3, ' ').collect();
        if let ["window", room, first] = asked[..] {
            let mut window = WindowClient::join(&display, &data, &server.url(room), first);
            // Its notation (5) and its move (6), shown on its felt as logged.
            let shown = window.until("online entry 6: ", std::time::Duration::from_secs(300));
            assert!(shown, "the window threw:\n{}", window.text());
            windows.insert(room.to_string(), window);
            std::fs::write(shots.join(format!("window-{room}")), "").expect("tells node");
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
    let rooms = page["rooms"].as_array().expect("rooms");
    assert_eq!(rooms.len(), 3);
    for (seen, (room, first, pat_char, sam_char)) in rooms.iter().zip([
        ("vault", "Ana", "Bo", "Cass"),
        ("ambush", "Vex the Rogue", "Pim", "Bram"),
        // A system file's game: the count-sixes scene, its turns in the scene's order.
        ("derelict", "Okoye", "Lind", "Tam"),
    ]) {
        let window = windows.get_mut(room).expect("a window in the room");
        let entries = seen["entries"].as_array().expect("entries");
        let by = |seq: usize| entries[seq - 1]["event"]["by"].as_str().unwrap_or("");
        let kind = |seq: usize| entries[seq - 1]["event"]["kind"].as_str().unwrap_or("");
        let action = |seq: usize| {
            entries[seq - 1]["event"]["record"]["what"]["action"]
                .as_str()
                .unwrap_or("")
                .to_string()
        };
        // Opened by Gwen (1; her sitting down logs nothing), Pat and Sam joined (2, 3), the
        // window joined (4): its notation (5) and its character's move (6).
        assert_eq!(entries[3]["event"]["name"], "Win", "{room}");
        assert_eq!((kind(5), by(5)), ("thrown", "Win"), "{room}");
        assert_eq!(entries[4]["event"]["what"]["notation"], "1d8", "{room}");
        assert_eq!((kind(6), by(6)), ("thrown", "Win"), "{room}");
        assert!(
            action(6).starts_with(&format!("{first}: ")),
            "{room}: the window's move is its character's: {}",
            action(6)
        );
        // The window stayed in the room: it showed every throw of the log (its own and the
        // pages'), each with the faces logged.
        for (seq, e) in entries.iter().enumerate().map(|(i, e)| (i + 1, e)) {
            if e["event"]["kind"] != "thrown" {
                continue;
            }
            let faces = &e["event"]["record"]["faces"];
            let shown = format!(
                "online entry {seq}: faces {} as logged",
                faces.to_string().replace(',', ", ")
            );
            assert!(
                window.until(&shown, std::time::Duration::from_secs(180)),
                "{room}: the window showed entry {seq} as logged ({shown}):\n{}",
                window.text()
            );
        }
        let window = window.text();
        assert!(!window.contains("DIFFER"), "{window}");
        assert!(!window.contains("refused"), "{window}");
        // The game master ended the turn from the form (7); Pat's move (8) and notation (9).
        assert_eq!((kind(7), by(7)), ("played", "Gwen"), "{room}");
        assert_eq!((kind(8), by(8)), ("thrown", "Pat"), "{room}");
        assert!(
            entries[7]["event"]["what"]["move"].is_object(),
            "{room}: {}",
            entries[7]
        );
        assert_eq!(entries[8]["event"]["what"]["notation"], "2d6+1", "{room}");
        // Pat's form: the ruleset's moves, a choice followed, the rules' yes and the odds.
        // Only the moves the rules give a player: never the game master's own.
        let kinds = seen["patKinds"].as_array().expect("kinds");
        assert!(kinds.len() >= 2, "{room}: {kinds:?}");
        for gm_only in ["GM calls a roll", "Easy action", "Change a resource"] {
            assert!(
                !kinds
                    .iter()
                    .any(|k| k.as_str().is_some_and(|k| k.starts_with(gm_only))),
                "{room}: {kinds:?}"
            );
        }
        let describe = seen["patDescribe"].as_str().expect("text");
        assert!(
            describe.starts_with(&format!("{pat_char}: ")),
            "{room}: {describe}"
        );
        assert_eq!(action(8), describe, "{room}");
        assert_eq!(seen["patVerdict"], format!("Allowed: {describe}"), "{room}");
        // The odds sentence is led by the chance that matters (success, or each outcome's),
        // then the move and its range.
        let odds = seen["patOdds"].as_str().expect("text");
        let (lead, range) = odds
            .split_once(&format!("{describe}: "))
            .unwrap_or_else(|| panic!("{room}: {odds}"));
        assert!(
            lead.ends_with("%. ") || lead.ends_with("). "),
            "{room}: {odds}"
        );
        assert!(range.contains("average"), "{room}: {odds}");
        // Its outcomes in colours, each colour named with the chance the sentence gives.
        let legend = seen["patLegend"].as_array().expect("legend");
        assert!(!legend.is_empty(), "{room}: {odds}");
        for item in legend {
            let item = item.as_str().expect("text");
            assert!(odds.contains(item), "{room}: {item} not in {odds}");
        }
        // The tracker: whose turn, and the turn economy, a row per character.
        let rows = seen["patTracker"].as_array().expect("rows");
        assert!(rows.len() >= 3, "{room}: {rows:?}");
        let acting: Vec<&str> = rows
            .iter()
            .filter_map(|r| r.as_str())
            .filter(|r| r.starts_with('▶'))
            .collect();
        assert_eq!(acting.len(), 1, "{room}: {rows:?}");
        assert!(
            acting[0].starts_with(&format!("▶ {pat_char} ")),
            "{room}: {rows:?}"
        );
        assert!(
            seen["patTurn"]
                .as_str()
                .is_some_and(|t| t.contains(&format!("{pat_char}'s turn"))),
            "{room}: {}",
            seen["patTurn"]
        );
        // Sam: why not now, and a move for the window's character refused with its reason.
        let why = seen["samVerdict"].as_str().expect("text");
        assert!(
            why.starts_with(&format!("Not now: it is {pat_char}'s turn")),
            "{room}: {why}"
        );
        assert_eq!(seen["samRefusedCode"], "not_your_seat", "{room}");
        // The turn came to Sam's page on the free roll: said, the move on screen, the tray ready.
        assert_eq!(
            seen["samTurn"],
            format!(
                "Your turn: {sam_char}. Flick across the felt or press Space to throw the move."
            ),
            "{room}"
        );
        assert_eq!(seen["samFocus"], "hand", "{room}");
        assert_eq!(
            seen["samRefused"],
            format!("Refused: Sam does not play {first}"),
            "{room}"
        );
        // The turn ended again (10); Sam's move from the keyboard (11), a flicked notation (12).
        assert_eq!((kind(10), by(10)), ("played", "Gwen"), "{room}");
        assert_eq!((kind(11), by(11)), ("thrown", "Sam"), "{room}");
        assert!(
            action(11).starts_with(&format!("{sam_char}: ")),
            "{room}: {}",
            action(11)
        );
        assert_eq!(entries[11]["event"]["what"]["notation"], "3d6", "{room}");
        assert_eq!(
            entries[11]["event"]["proof"]["gesture"], seen["samSwing"],
            "{room}: the flick went with the throw"
        );
        assert!(seen["samSwing"].is_object(), "{room}");
        // The move the turn brought: by a flick in the ambush, its swing gone with the throw.
        if room == "ambush" {
            assert_eq!(seen["samMoveBy"], "flick", "{room}");
            assert!(seen["samMoveSwing"].is_object(), "{room}");
            assert_eq!(
                entries[10]["event"]["proof"]["gesture"], seen["samMoveSwing"],
                "{room}: the flick threw the move"
            );
        }
        // In the system file's turn order, Sam ended Tam's turn from Sam's own page (13).
        if room == "derelict" {
            assert_eq!((kind(13), by(13)), ("played", "Sam"), "{room}");
            assert!(
                seen["samEnded"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("Sam: ")),
                "{room}: {}",
                seen["samEnded"]
            );
        }
        // Pat's move in full, as the window shows it.
        outcome_in_full(
            room,
            &seen["patCard"],
            &entries[7]["event"]["said"],
            &seen["patWorking"],
            &seen["patMoved"],
        );
        // The scene and the game played: a system file by its own name, with its paragraph.
        let scene_line = seen["sceneLine"].as_str().expect("text");
        assert!(
            scene_line.starts_with(&format!("Room {room}: ")),
            "{room}: {scene_line}"
        );
        if room == "derelict" {
            assert!(scene_line.ends_with("(a system file)"), "{scene_line}");
            assert!(
                seen["sceneAbout"]
                    .as_str()
                    .is_some_and(|a| a.starts_with("A salvage crew boards a dead freighter.")),
                "{}",
                seen["sceneAbout"]
            );
        } else {
            assert!(scene_line.ends_with(" rules"), "{room}: {scene_line}");
        }
        assert_eq!(
            seen["sameLogs"], true,
            "{room}: every page holds the same log"
        );
        let n = entries.len();
        let every = serde_json::json!({"checked": n, "unchecked": []});
        assert_eq!(
            seen["checks"],
            serde_json::json!([every, every, every]),
            "{room}"
        );
        // The log verifies.
        let export = dicetable(&["serve", "--export", room, "--data", data_path]);
        assert!(export.status.success(), "{export:?}");
        let log = data.join(format!("{room}.jsonl"));
        std::fs::write(&log, stdout(&export)).expect("writes");
        let verify = dicetable(&["verify", log.to_str().expect("a path")]);
        assert!(verify.status.success(), "{room}: {}", stdout(&verify));
    }
    let hidden = rooms[0]["patSawReveal"].as_str().expect("text");
    assert!(
        hidden.starts_with("Gwen's roll #13 revealed: 1d20 → "),
        "{hidden}"
    );
    if let Some(keep) = std::env::var_os("DICETABLE_SHOTS") {
        let mut kept = vec![
            "round-phone.png".to_string(),
            "round-desktop.png".to_string(),
        ];
        for room in ["vault", "ambush", "derelict"] {
            kept.push(format!("outcome-{room}-phone.png"));
            kept.push(format!("turn-{room}-desktop.png"));
        }
        for shot in kept {
            let _ = std::fs::copy(shots.join(&shot), std::path::Path::new(&keep).join(&shot));
        }
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}
