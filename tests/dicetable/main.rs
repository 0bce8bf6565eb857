//! Integration tests: one binary (Bevy test binaries are large and slow to link), one module
//! per area. They drive the real `dicetable` executable as a user would.

mod architecture;
mod cli;
mod cluster;
mod digest;
mod docs;
mod driven;
mod growth;
mod history;
mod hosting;
mod notation;
mod online;
mod pinned;
mod proxy;
mod seat;
mod secrets;
mod security;
mod session;
mod shares;
mod spread;
mod stream;
mod typos;
mod web;
mod window;

use std::process::{Command, Output};

/// Held by the tests that run in real time: those that drive a window (xdotool, a browser), two
/// of which at once on a 2-core machine with software rendering make each other's clicks and
/// frames time out, and the abuse tests that time an honest throw against a bound (a window
/// rendering beside one took an honest throw past it).
pub static REAL_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Held by every other test: one of them runs beside the real-time one. The two locks are two
/// lanes, so a machine runs two tests at a time however many test threads there are, and
/// `./check` gives it enough threads that a test waiting in one lane never holds up the other
/// (with two, a real-time test waiting for its turn left a core idle for minutes).
pub static BESIDE_REAL_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Takes [`REAL_TIME`] (a test that panicked while holding it leaves it usable).
pub fn real_time() -> std::sync::MutexGuard<'static, ()> {
    REAL_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Takes [`BESIDE_REAL_TIME`] (a test that panicked while holding it leaves it usable).
pub fn beside_real_time() -> std::sync::MutexGuard<'static, ()> {
    BESIDE_REAL_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The lasting history of the tests' windows: a folder of this test run's own, never the
/// user's data directory.
pub fn test_data_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("dicetable-tests-{}", std::process::id()))
}

/// Runs the `dicetable` binary with arguments.
pub fn dicetable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dicetable"))
        .args(args)
        .env("DICETABLE_DATA_DIR", test_data_dir())
        .output()
        .unwrap_or_else(|e| panic!("cannot run dicetable: {e}"))
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every test of this binary takes one of the two lanes ([`real_time`] or [`beside_real_time`]):
/// one that takes neither runs beside both, a third test on two cores.
#[test]
fn every_test_takes_a_lane() {
    let _lane = beside_real_time();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dicetable");
    let mut laneless = Vec::new();
    let mut tests = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/dicetable") {
        let path = entry.expect("an entry").path();
        let code = std::fs::read_to_string(&path).expect("a test file");
        for (_, after) in code
            .match_indices("#[test]\n")
            .map(|(at, _)| code.split_at(at))
        {
            let Some(start) = after.find("fn ") else {
                continue;
            };
            let head = &after[start + 3..];
            let name = head.split('(').next().unwrap_or_default();
            let body = head.split("\n}\n").next().unwrap_or_default();
            tests += 1;
            if !body.contains("real_time()") {
                laneless.push(format!("{}: {name}", path.display()));
            }
        }
    }
    assert!(tests > 70, "only {tests} tests found");
    assert_eq!(laneless, Vec::<String>::new(), "tests that take no lane");
}
