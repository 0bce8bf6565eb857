//! Streaming: the table's server (the overlay page, the feed, the roll API) tested for real.
//! The server alone (in this process, on a free loopback port) answers every bad request as
//! specified; the table under an Xvfb of the test's own serves the overlay to headless
//! chromium (Debian's, driven by playwright-core from web/), throws API rolls physically, and
//! its records replay identically; a tampered one does not.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use dicetable::stream::server::{self, Job, ServerOptions};
use serde_json::{Value, json};

use crate::driven::{Killed, available, spawn_window, start_xvfb};

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(300)))
        .build()
        .into()
}

/// Sends a request; its status and JSON body (Null when not JSON).
pub(crate) fn send(
    method: &str,
    url: &str,
    body: Option<&[u8]>,
    token: Option<&str>,
) -> (u16, Value) {
    let agent = agent();
    let result = match (method, body) {
        ("GET", _) => {
            let mut r = agent.get(url);
            if let Some(t) = token {
                r = r.header("authorization", &format!("Bearer {t}"));
            }
            r.call()
        }
        (_, body) => {
            let mut r = agent.post(url).header("content-type", "application/json");
            if let Some(t) = token {
                r = r.header("authorization", &format!("Bearer {t}"));
            }
            r.send(body.unwrap_or_default())
        }
    };
    let mut response = result.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(64 * 1024 * 1024)
        .read_to_string()
        .unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Runs a test's browser half (`node web/tests/SCRIPT ARGS...`) and reads the JSON line it
/// prints last.
pub(crate) fn browser_half(script: &str, args: &[&str]) -> Value {
    let out = Command::new("node")
        .arg(web_dir().join("tests").join(script))
        .args(args)
        .output()
        .expect("node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the browser half failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("JSON")
}

/// The checkout's web folder (the pages, node_modules).
pub(crate) fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

pub(crate) fn server_alone(token: Option<&str>) -> (SocketAddr, server::TableLink) {
    server::start(&ServerOptions {
        addr: "127.0.0.1:0".parse().expect("address"),
        token: token.map(str::to_string),
        tls: None,
        headers: Default::default(),
        hosts: Vec::new(),
    })
    .expect("the server starts")
}

#[test]
fn bad_requests_get_a_4xx_that_says_what_is_wrong() {
    let _lane = crate::beside_real_time();
    let (addr, _link) = server_alone(None);
    let url = format!("http://{addr}/api/roll");
    // Each answer: the status, the stable code a program matches, and the words.
    let cases: [(&[u8], u16, &str, &str); 7] = [
        (b"{\"notation\": ", 400, "malformed", "malformed JSON"),
        (
            br#"{"notation":"3q6"}"#,
            422,
            "bad_notation",
            "bad dice notation",
        ),
        (
            br#"{"notation":"2d31"}"#,
            422,
            "no_such_die",
            "a d31 has no physical die",
        ),
        (
            br#"{"notation":"60d6+41d8"}"#,
            422,
            "too_many_dice",
            "a throw holds at most 100 dice in all (a d% is two: its tens and its units; a larger die of another size, d9, d11, d13, d15, d17, d18 or d21 to d30, counts two); this one has 101",
        ),
        (
            br#"{"notation":"3d6","cheat":1}"#,
            422,
            "invalid",
            "no field `cheat`; the fields are `notation`, `label`",
        ),
        (
            br#"{"label":"no dice"}"#,
            422,
            "invalid",
            "missing field `notation`",
        ),
        (
            br#"{"notation":"d6","colour":"red"}"#,
            422,
            "invalid",
            "'colour' must be #rrggbb",
        ),
    ];
    for (body, status, code, says) in cases {
        let (got, answer) = send("POST", &url, Some(body), None);
        let error = answer["error"].as_str().unwrap_or_default();
        assert_eq!(got, status, "{}: {answer}", String::from_utf8_lossy(body));
        assert_eq!(answer["code"], code, "{answer}");
        assert!(error.contains(says), "{error:?} should say {says:?}");
    }
    let big = format!(r#"{{"notation":"d6","label":"{}"}}"#, "x".repeat(17 * 1024));
    let (got, answer) = send("POST", &url, Some(big.as_bytes()), None);
    assert_eq!(got, 413, "{answer}");
    assert_eq!(answer["code"], "too_large");
    assert_eq!(answer["error"], "the request body is over 16 KiB");
    let (got, answer) = send("GET", &format!("http://{addr}/api/nothing"), None, None);
    assert_eq!(
        (got, answer["code"].as_str(), answer["error"].as_str()),
        (404, Some("not_found"), Some("nothing here: /api/nothing"))
    );
    let (got, answer) = send("GET", &format!("http://{addr}/api/history"), None, None);
    assert_eq!((got, &answer["count"]), (200, &json!(0)));
}

#[test]
fn a_full_queue_answers_429_and_the_waiting_rolls_are_answered() {
    let _lane = crate::beside_real_time();
    let (addr, mut link) = server_alone(None);
    let url = format!("http://{addr}/api/roll");
    // Nobody takes jobs: the queue fills.
    let waiting: Vec<_> = (0..server::QUEUE)
        .map(|i| {
            let url = url.clone();
            let body = format!(r#"{{"notation":"d6","seed":{i}}}"#);
            std::thread::spawn(move || send("POST", &url, Some(body.as_bytes()), None))
        })
        .collect();
    // Let the eight requests arrive (each waits for its answer).
    std::thread::sleep(Duration::from_millis(1500));
    let mut jobs = Vec::new();
    let (got, answer) = send("POST", &url, Some(br#"{"notation":"d6"}"#), None);
    assert_eq!(got, 429, "{answer}");
    assert_eq!(answer["code"], "queue_full");
    assert_eq!(
        answer["error"],
        format!(
            "{} rolls are already waiting for the table: try again once they have settled",
            server::QUEUE
        )
    );
    while let Some(job) = link.next_job() {
        jobs.push(job);
    }
    assert_eq!(jobs.len(), server::QUEUE);
    for job in jobs {
        // Each roll was rolled before it waited: the table only shows it.
        if let Job::Show { record, shown, .. } = job {
            assert_eq!(record.faces.len(), 1);
            let _ = shown.send(Err(dicetable::stream::api::ApiError::Failed(
                "not shown: d6".into(),
            )));
        }
    }
    for w in waiting {
        let (got, answer) = w.join().expect("answered");
        assert_eq!(got, 500, "{answer}");
        assert_eq!(answer["code"], "throw_failed");
        assert_eq!(answer["error"], "the throw failed: not shown: d6");
    }
}

#[test]
fn a_token_guards_the_api_and_the_feed_but_not_the_page() {
    let _lane = crate::beside_real_time();
    let (addr, _link) = server_alone(Some("s3cret"));
    let history = format!("http://{addr}/api/history");
    assert_eq!(send("GET", &history, None, None).0, 401);
    assert_eq!(send("GET", &history, None, Some("wrong")).0, 401);
    assert_eq!(send("GET", &history, None, Some("s3cret")).0, 200);
    assert_eq!(
        send("GET", &format!("{history}?token=s3cret"), None, None).0,
        200
    );
    let feed = tungstenite::connect(format!("ws://{addr}/feed"));
    assert!(feed.is_err(), "the feed needs the token");
    let (mut feed, _) =
        tungstenite::connect(format!("ws://{addr}/feed?token=s3cret")).expect("feed with token");
    let hello = feed.read().expect("hello");
    let hello: Value = serde_json::from_str(hello.to_text().expect("text")).expect("JSON");
    assert_eq!((&hello["v"], &hello["type"]), (&json!(1), &json!("hello")));
    let page = agent()
        .get(&format!("http://{addr}/overlay"))
        .call()
        .expect("page");
    assert_eq!(page.status().as_u16(), 200);
    // Off this machine, a token is required.
    let open = ServerOptions {
        addr: "0.0.0.0:0".parse().expect("address"),
        token: None,
        tls: None,
        headers: Default::default(),
        hosts: Vec::new(),
    };
    assert!(server::start(&open).is_err());
    let out = crate::dicetable(&["play", "--listen", "0.0.0.0:7999"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        crate::stderr(&out).contains("needs a token: add --token SECRET"),
        "{}",
        crate::stderr(&out)
    );
}

#[test]
fn the_dice_the_page_draws_are_the_tables_own() {
    let _lane = crate::beside_real_time();
    let (addr, _link) = server_alone(None);
    let (got, geometry) = send(
        "GET",
        &format!("http://{addr}/dice/geometry.json"),
        None,
        None,
    );
    assert_eq!(got, 200);
    for kind in dicetable::dice::DieKind::ALL {
        let mesh = dicetable::dice::mesh::die_mesh_arrays(kind);
        // A die of an earlier die's solid names it ("d17": "d18").
        let served = match &geometry[kind.id()] {
            Value::String(same) => &geometry[same.as_str()],
            mesh => mesh,
        };
        // Read back as f32: the very vertex list of the window's mesh.
        let positions: Vec<[f32; 3]> =
            serde_json::from_value(served["positions"].clone()).expect("positions");
        assert_eq!(positions, mesh.positions, "{}", kind.id());
        assert_eq!(
            served["indices"].as_array().map(Vec::len),
            Some(mesh.indices.len())
        );
    }
    let mut png = agent()
        .get(&format!(
            "http://{addr}/dice/atlas/d20?body=961824&ink=faf4ec"
        ))
        .call()
        .expect("atlas");
    assert_eq!(png.status().as_u16(), 200);
    let bytes = png
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_vec()
        .expect("bytes");
    assert_eq!(&bytes[1..4], b"PNG");
    let (got, _) = send(
        "GET",
        &format!("http://{addr}/dice/atlas/d31?body=000000&ink=ffffff"),
        None,
        None,
    );
    assert_eq!(got, 404);
    let (got, _) = send(
        "GET",
        &format!("http://{addr}/dice/atlas/d6?body=blue"),
        None,
        None,
    );
    assert_eq!(got, 422);
}

/// The table in a window of its own, serving on a free port.
pub(crate) struct Served {
    _app: Killed,
    _x: Killed,
    /// Where it serves: `http://127.0.0.1:PORT`.
    pub(crate) base: String,
    lines: Receiver<String>,
    /// Its X display.
    display: String,
}

impl Served {
    /// `play --listen 127.0.0.1:0` (and `args`; 640×400 unless they say `--width`) under an Xvfb
    /// of its own, once it listens.
    pub(crate) fn start(args: &[&str]) -> Served {
        let (x, display) = start_xvfb();
        let mut all = vec!["play", "--listen", "127.0.0.1:0", "--mute"];
        if !args.contains(&"--width") {
            all.extend_from_slice(&["--width", "640", "--height", "400"]);
        }
        all.extend_from_slice(args);
        let (app, lines) = spawn_window(&display, &std::env::temp_dir(), &all);
        let mut served = Served {
            _app: app,
            _x: x,
            base: String::new(),
            lines,
            display,
        };
        let line = served.wait_for(|l| l.starts_with("listening on http://"));
        served.base = line
            .trim_start_matches("listening on ")
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string();
        served
    }

    /// Presses F12 in the window, which saves its screenshot to the `--screenshot` path it was
    /// started with, once saved.
    pub(crate) fn screenshot(&mut self) {
        let xdotool = |args: &[&str]| {
            let out = Command::new("xdotool")
                .args(args)
                .env("DISPLAY", &self.display)
                .output()
                .expect("run xdotool");
            assert!(out.status.success(), "xdotool {args:?}");
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        let found = xdotool(&["search", "--sync", "--name", "dicetable"]);
        let window = found.lines().next().unwrap_or_default().to_string();
        // No window manager on the test's server: the window is given the keyboard.
        xdotool(&["windowfocus", "--sync", &window]);
        xdotool(&["key", "--window", &window, "F12"]);
        self.wait_for(|l| l.starts_with("saved screenshot "));
    }

    /// The first line the window prints that `matches` (within three minutes).
    pub(crate) fn wait_for(&mut self, matches: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(180) {
            if let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200))
                && matches(&line)
            {
                return line;
            }
        }
        panic!("the table did not print what was awaited");
    }
}

#[test]
fn the_shipped_three_bundle_is_what_esbuild_makes_from_the_lockfile() {
    let _lane = crate::beside_real_time();
    if !web_dir().join("node_modules/esbuild").exists() || !available("node") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have node and web/node_modules: ./check installs them"
        );
        eprintln!("skipped: no esbuild");
        return;
    }
    let out = Command::new("node")
        .arg(web_dir().join("bundle.mjs"))
        .arg("--check")
        .output()
        .expect("node");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Whether node, chromium, Xvfb and web/node_modules are here (CI must have them).
pub(crate) fn browser_ready() -> bool {
    let ready = available("node")
        && Path::new("/usr/bin/chromium").exists()
        && web_dir().join("node_modules/playwright-core").exists()
        && web_dir().join("node_modules/axe-core").exists()
        && available("Xvfb");
    if !ready {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have node, chromium, Xvfb and web/node_modules: ./check installs them"
        );
        eprintln!(
            "skipped: node, chromium, Xvfb or web/node_modules missing (./check installs them)"
        );
    }
    ready
}

/// Reads an RGBA PNG.
pub(crate) fn read_rgba(path: &Path) -> (u32, u32, Vec<[u8; 4]>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(path).expect("png"),
    ));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    assert_eq!(
        info.color_type,
        png::ColorType::Rgba,
        "a screenshot with alpha"
    );
    let pixels = buf[..info.buffer_size()]
        .chunks(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect();
    (info.width, info.height, pixels)
}

/// The numbers of a JSON array.
pub(crate) fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default()
}

#[test]
fn the_overlay_draws_the_api_roll_and_every_record_replays() {
    if !browser_ready() {
        return;
    }
    let _alone = crate::real_time();
    let mut table = Served::start(&["--seed", "3"]);
    let base = table.base.clone();
    let dir = std::env::temp_dir().join(format!("dicetable-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");

    // The feed, read by a thread of the test's own.
    let (mut feed, _) =
        tungstenite::connect(format!("{}/feed", base.replace("http", "ws"))).expect("the feed");
    let (events_tx, events) = channel::<Value>();
    std::thread::spawn(move || {
        while let Ok(m) = feed.read() {
            if let Ok(text) = m.to_text()
                && let Ok(v) = serde_json::from_str(text)
                && events_tx.send(v).is_err()
            {
                break;
            }
        }
    });

    // A bad request first: the table goes on.
    let (got, _) = send("POST", &format!("{base}/api/roll"), Some(b"{oops"), None);
    assert_eq!(got, 400);

    // The page in chromium, a roll through the API.
    let page = browser_half("overlay.mjs", &[&base, dir.to_str().expect("utf-8")]);
    let api = &page["api"];
    assert_eq!(page["errors"], json!([]), "no script errors");
    assert_eq!(page["notice"], Value::Null, "three.js loaded");
    let total = api["total"].as_i64().expect("a total");
    assert_eq!(page["shown"]["total"].as_i64(), Some(total));
    assert!(
        page["result"]
            .as_str()
            .unwrap_or_default()
            .starts_with(&total.to_string()),
        "{}",
        page["result"]
    );
    assert_eq!(page["who"], "Vex");
    assert_eq!(page["label"], "attack with dagger against the Goblin");
    // 3d6/2 through the API: the exact total, shown on the overlay as the window writes it.
    let half: dicetable::odds::Total = page["half"]["api"]["total_exact"]
        .as_str()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("an exact total: {}", page["half"]));
    let sum: i64 = page["half"]["api"]["faces"]
        .as_array()
        .expect("faces")
        .iter()
        .filter_map(|f| f[0].as_i64())
        .sum();
    assert_eq!(
        half,
        dicetable::odds::Total::fraction(sum.into(), 2).expect("a half")
    );
    assert_eq!(page["half"]["api"]["total"].as_f64(), Some(half.to_f64()));
    assert_eq!(page["half"]["result"], half.to_string(), "{}", page["half"]);
    assert_eq!(api["record"]["who"], "Vex");
    let faces: i64 = api["faces"]
        .as_array()
        .expect("faces")
        .iter()
        .filter_map(|f| f[0].as_i64())
        .sum();
    assert_eq!(total, faces + 2, "3d6+2 from the faces {}", api["faces"]);
    // The poses the page drew last are the table's final transforms.
    let last = api["record"]["throws"]
        .as_array()
        .and_then(|t| t.last())
        .expect("a throw");
    let poses = last["poses"].as_array().expect("poses");
    let drawn = page["drawn"].as_array().expect("drawn");
    assert_eq!(drawn.len(), poses.len(), "every die drawn");
    for (d, p) in drawn.iter().zip(poses) {
        let want: Vec<f64> = floats(&p["t"]).into_iter().chain(floats(&p["r"])).collect();
        let got = floats(d);
        assert_eq!(got.len(), 7);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-6, "drawn {got:?}, simulated {want:?}");
        }
    }
    // Transparent where there are no dice, opaque where there are.
    let (w, h, pixels) = read_rgba(&dir.join("overlay.png"));
    assert_eq!((w, h), (1280, 720));
    let at = |x: u32, y: u32| pixels[(y * w + x) as usize];
    for (x, y) in [(w - 1, h - 1), (w - 1, 0), (0, h - 1), (w / 2, h - 2)] {
        assert_eq!(at(x, y)[3], 0, "background pixel ({x}, {y}) is transparent");
    }
    let opaque = pixels.iter().filter(|p| p[3] == 255).count();
    let translucent = pixels.iter().filter(|p| (1..255).contains(&p[3])).count();
    assert!(opaque > 2_000, "the dice drawn: {opaque} opaque pixels");
    assert!(
        translucent > 20_000,
        "the result card drawn: {translucent} translucent pixels"
    );

    // The feed told the roll in order: drafted, throw, poses, settled, outcome.
    let mut kinds = Vec::new();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        let Ok(e) = events.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        assert_eq!(e["v"], 1, "{e}");
        let kind = e["type"].as_str().unwrap_or_default().to_string();
        if kind == "outcome" {
            assert_eq!(e["code"], api["code"]);
            assert_eq!(e["by"]["who"], "Vex");
            kinds.push(kind);
            break;
        }
        if kinds.last() != Some(&kind) {
            kinds.push(kind);
        }
    }
    let order: Vec<&str> = kinds
        .iter()
        .map(String::as_str)
        .filter(|k| !matches!(*k, "hello" | "table"))
        .collect();
    assert_eq!(order.first(), Some(&"drafted"), "{order:?}");
    assert!(
        order.contains(&"throw") && order.contains(&"settled"),
        "{order:?}"
    );
    assert_eq!(order.last(), Some(&"outcome"), "{order:?}");

    // A burst of rolls: eight wait their turn, the rest are told to come back.
    let url = format!("{base}/api/roll");
    let notations = [
        "{d20+5}>=15",
        "2d10",
        "d100",
        "4d6!",
        "2d8+d4",
        "d12",
        "3d4",
        "d6",
        "d8",
        "d10",
        "2d6",
    ];
    let burst: Vec<_> = notations
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let url = url.clone();
            let body = json!({"notation": n, "who": "Ana", "seed": 100 + i}).to_string();
            std::thread::spawn(move || send("POST", &url, Some(body.as_bytes()), None))
        })
        .collect();
    let answers: Vec<(u16, Value)> = burst
        .into_iter()
        .map(|t| t.join().expect("answer"))
        .collect();
    let refused = answers.iter().filter(|(s, _)| *s == 429).count();
    assert!((1..=3).contains(&refused), "{refused} refused");
    let mut records: Vec<Value> =
        vec![api["record"].clone(), page["half"]["api"]["record"].clone()];
    for (status, answer) in &answers {
        if *status != 429 {
            assert_eq!(*status, 200, "{answer}");
            records.push(answer["record"].clone());
        }
    }
    // Roll20's forms through the API: every die shown, the successes counted.
    for (i, notation) in crate::notation::SERVED_FORMS.iter().enumerate() {
        let body = json!({"notation": notation, "who": "Ana", "seed": 200 + i}).to_string();
        let (status, answer) = send("POST", &url, Some(body.as_bytes()), None);
        assert_eq!(status, 200, "{notation}: {answer}");
        let roll = crate::notation::Answered::read(notation, &answer);
        crate::notation::holds_by_roll20(&roll);
        let counted = (roll.measure == "successes")
            .then(|| roll.total.as_whole())
            .flatten();
        assert_eq!(answer["successes"].as_i64(), counted, "{answer}");
        records.push(answer["record"].clone());
    }
    // The scene's drafted move, through the API.
    let (got, mv) = send(
        "POST",
        &format!("{base}/api/move"),
        Some(br#"{"who":"GM"}"#),
        None,
    );
    assert_eq!(got, 200, "{mv}");
    assert_eq!(mv["record"]["what"]["kind"], "move");
    // The feed gives the move's outcome in full, as the window's Outcome panel shows it.
    let seed = &mv["record"]["seed"];
    let told = std::iter::from_fn(|| events.recv_timeout(Duration::from_secs(60)).ok())
        .find(|e| e["type"] == "outcome" && &e["record"]["seed"] == seed)
        .expect("the move's outcome on the feed");
    let lines = told["explained"]["lines"]
        .as_array()
        .expect("the arithmetic");
    assert!(!lines.is_empty(), "{told}");
    records.push(mv["record"].clone());
    let (got, history) = send("GET", &format!("{base}/api/history"), None, None);
    assert_eq!(got, 200);
    assert_eq!(history["count"].as_u64(), Some(records.len() as u64));
    table.wait_for(|l| l.starts_with("record dt1-"));

    // Records from `roll` up to 50, then all replayed.
    let mut seed = 500;
    while records.len() < 50 {
        let notation = ["2d6", "d20", "d100", "3d6!", "d4+d8"][records.len() % 5];
        let out = crate::dicetable(&["roll", notation, "--seed", &seed.to_string(), "--json"]);
        assert!(out.status.success());
        let v: Value = serde_json::from_str(&crate::stdout(&out)).expect("roll --json");
        assert!(
            v["code"].as_str().is_some_and(|c| c.starts_with("dt1-")),
            "{v}"
        );
        records.push(v["record"].clone());
        seed += 1;
    }
    let file = dir.join("records.jsonl");
    let lines: Vec<String> = records.iter().map(Value::to_string).collect();
    std::fs::write(&file, lines.join("\n")).expect("write");
    let out = crate::dicetable(&["replay", file.to_str().expect("utf-8")]);
    let text = crate::stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(
        text.matches("identical: every face and final pose matches")
            .count(),
        50
    );
    // One face changed in a window record: found.
    let mut tampered = api["record"].clone();
    let face = tampered["throws"][0]["faces"][1].as_u64().expect("a face");
    let other = face % 6 + 1;
    tampered["throws"][0]["faces"][1] = json!(other);
    let bad = dir.join("tampered.json");
    std::fs::write(&bad, tampered.to_string()).expect("write");
    let out = crate::dicetable(&["replay", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1), "{}", crate::stdout(&out));
    assert!(
        crate::stdout(&out).contains(&format!(
            "throw 1, die 2 (d6): face {other} recorded, {face} re-simulated"
        )),
        "{}",
        crate::stdout(&out)
    );
    // And by its code.
    let code = api["code"].as_str().expect("code");
    let out = crate::dicetable(&["replay", code]);
    assert_eq!(out.status.code(), Some(0), "{}", crate::stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
