//! Integration tests: one binary (Bevy test binaries are large and slow to link), one module
//! per area. They drive the real `dicetable` executable as a user would.

mod architecture;
mod cli;
mod cluster;
mod docs;
mod driven;
mod history;
mod hosting;
mod notation;
mod online;
mod proxy;
mod seat;
mod security;
mod session;
mod shares;
mod stream;
mod web;
mod window;

use std::process::{Command, Output};

/// Held by the tests that run in real time: those that drive a window (xdotool, a browser), two
/// of which at once on a 2-core machine with software rendering make each other's clicks and
/// frames time out, and the abuse tests that time an honest throw against a bound (a window
/// rendering beside one took an honest throw past it).
pub static REAL_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Takes [`REAL_TIME`] (a test that panicked while holding it leaves it usable).
pub fn real_time() -> std::sync::MutexGuard<'static, ()> {
    REAL_TIME
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
