//! The real window driven as a player drives it: under an Xvfb server of the test's own, the
//! test moves the mouse and types with `xdotool` (installed by `./check`), finds the controls
//! by name from `play --print-ui`, and checks what each step must print: the scene's move
//! thrown by its button, a free roll typed into the box, dice picked up, shaken and flicked,
//! a history entry bringing the same faces back, another scene seated, a screenshot not blank.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

pub fn available(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether `tools` a window test needs are all here. Where one is not, the test is skipped
/// (it says so), except in CI, whose `./check` installs them.
pub fn window_tools(tools: &[&str]) -> bool {
    if tools.iter().all(|t| available(t)) {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must have {}: ./check installs them",
        tools.join(" and ")
    );
    eprintln!(
        "skipped: {} missing (./check installs them)",
        tools.join(" or ")
    );
    false
}

/// A process killed when the test ends, however it ends.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// An X server of this test's own, on a display no one else uses. Xvfb picks the display
/// itself (`-displayfd`: it takes the first free one, stale locks of killed runs included, and
/// writes its number once it is ready): tests choosing a number each raced, two took the same
/// display at once, and one drove the other's window.
pub fn start_xvfb() -> (Killed, String) {
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x800x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("Xvfb does not start: {e}"));
    let out = child.stdout.take().expect("Xvfb's stdout");
    let server = Killed(child);
    let (send, told) = channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(out).read_line(&mut line);
        let _ = send.send(line);
    });
    // A bound, not a wait: Xvfb names its display once ready, which took over 15 s once while
    // a browser test drew 20 dice at 1080p on both cores.
    let line = told
        .recv_timeout(Duration::from_secs(90))
        .unwrap_or_else(|_| panic!("Xvfb named no display in 90 s"));
    let number: u32 = line
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("Xvfb named no display: {line:?}"));
    (server, format!(":{number}"))
}

/// Starts `dicetable` with arguments in a window on `display`, in `dir`: the process (killed
/// when dropped) and its output lines as they come.
pub fn spawn_window(display: &str, dir: &Path, args: &[&str]) -> (Killed, Receiver<String>) {
    let mut app = Command::new(env!("CARGO_BIN_EXE_dicetable"))
        .args(args)
        .env("DICETABLE_DATA_DIR", crate::test_data_dir())
        .env("DISPLAY", display)
        .env_remove("WAYLAND_DISPLAY")
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start dicetable");
    let out = app.stdout.take().expect("stdout");
    let (send, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    (Killed(app), lines)
}

/// The app under test: its output lines as they come, and where its controls are.
pub struct Table {
    _app: Killed,
    display: String,
    lines: Receiver<String>,
    seen: Vec<String>,
    places: HashMap<String, (f64, f64, f64, f64)>,
    window: String,
}

/// How long one step may take (a throw settles in a few seconds; software rendering is slow).
const STEP: Duration = Duration::from_secs(120);

impl Table {
    fn open(display: &str, dir: &Path) -> Table {
        Table::open_with(
            display,
            dir,
            &["play", "--print-ui", "--mute", "--seed", "7"],
        )
    }

    /// Opens the window with these arguments (they must include `--print-ui`).
    pub fn open_with(display: &str, dir: &Path, args: &[&str]) -> Table {
        let (app, lines) = spawn_window(display, dir, args);
        let mut table = Table {
            _app: app,
            display: display.to_string(),
            lines,
            seen: Vec::new(),
            places: HashMap::new(),
            window: String::new(),
        };
        table.wait_for("the throw button", |l| l.starts_with("ui throw "));
        table.window = table.xdotool(&["search", "--sync", "--name", "dicetable"]);
        table.window = table.window.lines().next().unwrap_or_default().to_string();
        assert!(!table.window.is_empty(), "the window is found");
        // No window manager on the test's server: give the window the keyboard.
        table.xdotool(&["windowfocus", "--sync", &table.window]);
        table
    }

    /// Every line the window printed so far.
    pub fn seen(&self) -> &[String] {
        &self.seen
    }

    /// Takes a line in: a control's place is remembered.
    fn note(&mut self, line: &str) {
        if let Some(rest) = line.strip_prefix("ui ") {
            let parts: Vec<&str> = rest.split_whitespace().collect();
            if let [name, x, y, w, h] = parts[..] {
                let n = |s: &str| s.parse::<f64>().unwrap_or(0.0);
                self.places
                    .insert(name.to_string(), (n(x), n(y), n(w), n(h)));
            }
        }
        self.seen.push(line.to_string());
    }

    /// Lets the overlays lay out what just happened, and reads where everything is now.
    fn settle_ui(&mut self) {
        std::thread::sleep(Duration::from_millis(1500));
        while let Ok(line) = self.lines.try_recv() {
            self.note(&line);
        }
    }

    /// Reads lines until one matches, for at most `patience`.
    fn look_for(&mut self, patience: Duration, matches: &impl Fn(&str) -> bool) -> Option<String> {
        let deadline = Instant::now() + patience;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            let Ok(line) = self.lines.recv_timeout(left) else {
                break;
            };
            self.note(&line);
            if matches(&line) {
                return Some(line);
            }
        }
        None
    }

    /// Clicks a control until what it does shows (a click can be lost while a slow frame
    /// takes the press and the release as a drag): for controls that are safe to click twice.
    pub fn click_until(
        &mut self,
        name: &str,
        what: &str,
        matches: impl Fn(&str) -> bool,
    ) -> String {
        for _ in 0..4 {
            self.click(name);
            if let Some(line) = self.look_for(Duration::from_secs(20), &matches) {
                return line;
            }
        }
        self.wait_for(what, matches)
    }

    /// Reads lines until one matches; panics with everything seen if none does in time.
    pub fn wait_for(&mut self, what: &str, matches: impl Fn(&str) -> bool) -> String {
        if let Some(line) = self.look_for(STEP, &matches) {
            return line;
        }
        let tail: Vec<&String> = self.seen.iter().rev().take(40).collect();
        panic!("waited in vain for {what}; last lines, newest first: {tail:#?}");
    }

    fn xdotool(&self, args: &[&str]) -> String {
        let out = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .expect("run xdotool");
        assert!(
            out.status.success(),
            "xdotool {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The centre of a named control, waiting for it to be shown.
    fn centre(&mut self, name: &str) -> (i64, i64) {
        if !self.places.contains_key(name) {
            let prefix = format!("ui {name} ");
            self.wait_for(name, |l| l.starts_with(&prefix));
        }
        let (x, y, w, h) = self.places[name];
        ((x + w / 2.0) as i64, (y + h / 2.0) as i64)
    }

    fn move_to(&self, (x, y): (i64, i64)) {
        self.xdotool(&[
            "mousemove",
            "--window",
            &self.window,
            &x.to_string(),
            &y.to_string(),
        ]);
    }

    fn click(&mut self, name: &str) {
        self.settle_ui();
        let at = self.centre(name);
        self.move_to(at);
        std::thread::sleep(Duration::from_millis(400));
        self.xdotool(&["click", "1"]);
    }
}

/// The text of a printed line between `after` and the next `before`.
fn between(line: &str, after: &str, before: &str) -> String {
    line.split(after)
        .nth(1)
        .and_then(|r| r.split(before).next())
        .unwrap_or_default()
        .to_string()
}

/// Faces from a printed roll: "rolled 3d6 seed 9: faces [[2], [5], [1]] total 8" -> "[[2], [5], [1]]".
fn faces(line: &str) -> String {
    between(line, "faces ", " total")
}

/// The seed of a printed roll: "rolled 3d6 seed 9: faces …" -> "9".
fn seed(line: &str) -> String {
    between(line, " seed ", ":")
}

#[test]
fn a_player_drives_the_real_window() {
    if !window_tools(&["Xvfb", "xdotool"]) {
        return;
    }
    let _alone = crate::real_time();
    let dir: PathBuf =
        std::env::temp_dir().join(format!("dicetable-driven-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (_server, display) = start_xvfb();
    let mut table = Table::open(&display, &dir);
    let seated = table
        .seen
        .iter()
        .find(|l| l.starts_with("seated "))
        .cloned()
        .unwrap_or_default();
    assert!(!seated.is_empty(), "a scene is seated at start");

    // 1. The scene's Throw button throws its move: the rules print what was played.
    table.click("throw");
    let played = table.wait_for("the move played", |l| l.starts_with("played "));
    assert!(
        played.contains(" seed ") && played.contains("throws [["),
        "{played}"
    );

    // 2. Notation typed into the free-roll box and Enter: a free roll of three d6.
    table.click_until("free-roll-tab", "the free-roll box", |l| {
        l.starts_with("ui notation ")
    });
    let mut typed_in = None;
    for _ in 0..3 {
        table.click("notation");
        table.xdotool(&["key", "End"]);
        table.xdotool(&["key", "--repeat", "30", "--delay", "20", "BackSpace"]);
        table.xdotool(&["type", "--delay", "80", "3d6"]);
        typed_in = table.look_for(Duration::from_secs(20), &|l: &str| {
            l == "ui-text notation 3d6"
        });
        if typed_in.is_some() {
            break;
        }
    }
    assert!(typed_in.is_some(), "3d6 typed into the box");
    table.settle_ui();
    table.xdotool(&["key", "Return"]);
    let typed = table.wait_for("the typed roll", |l| l.starts_with("rolled 3d6 "));
    assert_eq!(faces(&typed).matches('[').count(), 4, "three dice: {typed}");

    // 3. Press in the tray (the dice are picked up), shake, flick and let go: a throw.
    let (x, y, w, h) = table.places["table-view"];
    let middle = ((x + w / 2.0) as i64, (y + h * 0.7) as i64);
    table.move_to(middle);
    std::thread::sleep(Duration::from_millis(300));
    table.xdotool(&["mousedown", "1"]);
    let picked = table.wait_for("dice picked up", |l| l.starts_with("picked up "));
    assert_eq!(picked, "picked up 3 dice");
    for (dx, dy) in [(-40, 10), (40, -10), (-40, 10), (40, -10), (0, 0)] {
        table.move_to((middle.0 + dx, middle.1 + dy));
        std::thread::sleep(Duration::from_millis(120));
    }
    for step in 1..=4 {
        table.move_to((middle.0, middle.1 - step * 60));
        std::thread::sleep(Duration::from_millis(30));
    }
    table.xdotool(&["mouseup", "1"]);
    let flicked = table.wait_for("the flicked roll", |l| l.starts_with("rolled 3d6 "));
    assert_ne!(seed(&flicked), seed(&typed), "a new seed for a new throw");
    let code = table.wait_for("the flick's record", |l| l.starts_with("record dt1-"));
    let code = code.trim_start_matches("record ").to_string();

    // 4. The newest history entry (the flick) throws again: the same faces come up.
    table.click("history-0");
    let again = table.wait_for("the replay", |l| l.starts_with("rolled 3d6 "));
    assert_eq!(seed(&again), seed(&flicked), "{again} vs {flicked}");
    assert_eq!(faces(&again), faces(&flicked), "{again} vs {flicked}");

    // 4b. The flick's replay code pasted into the free-roll box: the same throw, gesture and all.
    let want = format!("ui-text notation {code}");
    let mut pasted = None;
    for _ in 0..3 {
        table.click("notation");
        table.xdotool(&["key", "End"]);
        table.xdotool(&["key", "--repeat", "80", "--delay", "10", "BackSpace"]);
        table.xdotool(&["type", "--delay", "30", &code]);
        pasted = table.look_for(Duration::from_secs(30), &|l: &str| l == want);
        if pasted.is_some() {
            break;
        }
    }
    assert!(pasted.is_some(), "the code typed into the box");
    table.settle_ui();
    table.xdotool(&["key", "Return"]);
    let by_code = table.wait_for("the code's roll", |l| l.starts_with("rolled 3d6 "));
    assert_eq!(seed(&by_code), seed(&flicked), "{by_code} vs {flicked}");
    assert_eq!(faces(&by_code), faces(&flicked), "{by_code} vs {flicked}");

    // 5. A screenshot (F12) of the window with the dice on the table: drawn, not blank.
    table.move_to(middle);
    table.xdotool(&["key", "F12"]);
    let saved = table.wait_for("the screenshot", |l| l.starts_with("saved screenshot "));
    let path = dir.join(saved.trim_start_matches("saved screenshot "));
    let (_, _, pixels) = crate::window::read_png(&path);
    let colours = crate::window::distinct_colours(&pixels);
    assert!(colours > 200, "only {colours} colours: blank?");

    // 5b. "Your dice" opened: its live d20 and d6 turn in the tray's corner, in the look the
    // picker has (the window's plain blue to begin with), and go when it closes.
    table.click("your-dice");
    let live = table.wait_for("the live dice", |l| l.starts_with("live dice: "));
    assert_eq!(
        live,
        "live dice: plastic dice: #1e40aa with #ffffff numerals"
    );
    table.move_to(middle);
    table.xdotool(&["key", "F12"]);
    let saved = table.wait_for("the live dice's picture", |l| {
        l.starts_with("saved screenshot ")
    });
    if let Some(keep) = std::env::var_os("DICETABLE_SHOTS") {
        let _ = std::fs::copy(
            dir.join(saved.trim_start_matches("saved screenshot ")),
            Path::new(&keep).join("window-live-dice.png"),
        );
    }
    table.click("your-dice");

    // 6. Another scene from the picker: it is seated.
    let mut other = None;
    for _ in 0..5 {
        table.click_until("scene-picker", "the scene list", |l| {
            l.starts_with("ui scene-option-1 ")
        });
        table.click("scene-option-1");
        other = table.look_for(Duration::from_secs(45), &|l: &str| l.starts_with("seated "));
        if other.is_some() {
            break;
        }
    }
    let other =
        other.unwrap_or_else(|| table.wait_for("another scene", |l| l.starts_with("seated ")));
    assert_ne!(other, seated);
    let _ = std::fs::remove_dir_all(&dir);
}
