//! The lasting history: a roll survives the window being killed (SIGKILL) right after its
//! result is shown, and replays exactly from what was stored; a damaged, foreign or locked
//! database file is reported, moved aside and replaced while the app keeps running.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use crate::driven::{Table, spawn_window, start_xvfb};
use crate::{stderr, stdout};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dicetable-history-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// `dicetable ARGS` with the history in `data`.
fn dicetable_in(data: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dicetable"))
        .args(args)
        .env("DICETABLE_DATA_DIR", data)
        .output()
        .expect("run dicetable")
}

/// Waits for the first line that `wanted` accepts (all lines so far are returned with it).
fn wait_for(lines: &Receiver<String>, what: &str, wanted: impl Fn(&str) -> bool) -> Vec<String> {
    let start = Instant::now();
    let mut seen = Vec::new();
    while start.elapsed() < Duration::from_secs(240) {
        match lines.recv_timeout(Duration::from_secs(1)) {
            Ok(line) => {
                let done = wanted(&line);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(_) => break,
        }
    }
    panic!(
        "no {what} within 240 s; the window printed:\n{}",
        seen.join("\n")
    );
}

/// The files moved aside in `data`.
fn moved_aside(data: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(data)
        .expect("data folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("history.sqlite.bad-")
                    && !n.contains("-wal")
                    && !n.contains("-shm")
                    && !n.contains("-journal")
            })
        })
        .collect();
    found.sort();
    found
}

#[test]
fn a_roll_shown_is_in_the_history_after_a_sigkill() {
    let _real_time = crate::real_time();
    let dir = scratch("sigkill");
    let data = dir.join("data");
    let data_arg = data.to_str().expect("a path");
    let (_x, display) = start_xvfb();
    let (mut app, lines) = spawn_window(
        &display,
        &dir,
        &[
            "play",
            "--roll",
            "2d6+1",
            "--seed",
            "41",
            "--no-listen",
            "--mute",
            "--history-dir",
            data_arg,
        ],
    );
    let seen = wait_for(&lines, "result", |l| {
        l.starts_with("rolled 2d6+1 seed 41: faces")
    });
    // Killed the moment the result is printed: no chance to close anything.
    app.0.kill().expect("SIGKILL");
    let status = app.0.wait().expect("reaped");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(9), "killed by SIGKILL");
    let result = seen.last().expect("the result line").clone();
    // "rolled 2d6+1 seed 41: faces [[a], [b]] total T"
    let (faces, total) = result
        .split_once(": faces ")
        .and_then(|(_, rest)| rest.split_once(" total "))
        .expect("faces and total");
    assert!(
        seen.iter()
            .any(|l| l.starts_with("history: stored session 1 roll 1 in ")),
        "{seen:?}"
    );

    // The window again, on the same history: it sees the earlier session, and its roll,
    // clicked on the panel's page of session 1, is thrown again exactly.
    let mut again = Table::open_with(
        &display,
        &dir,
        &[
            "play",
            "--print-ui",
            "--mute",
            "--no-listen",
            "--history-dir",
            data_arg,
        ],
    );
    assert!(
        again.seen().iter().any(|l| {
            l.ends_with("history.sqlite session 2 begins; earlier: 1 roll in 1 session")
        }),
        "{:?}",
        again.seen()
    );
    again.click_until("history-older", "the page of session 1", |l| {
        l.starts_with("ui history-earlier-0 ")
    });
    let verdict = again.click_until("history-earlier-0", "the replay", |l| {
        l.starts_with("replay of session 1 roll 1 (2d6+1): faces ")
    });
    // One throw of both dice: [[a, b]] (the result line has each die's chain: [[a], [b]]).
    assert_eq!(
        verdict,
        format!(
            "replay of session 1 roll 1 (2d6+1): faces {}, every face and final pose as recorded",
            faces.replace("], [", ", ")
        )
    );
    drop(again);

    // The stored roll is the one shown.
    let out = dicetable_in(&data, &["history", "--session", "1", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(rows.len(), 1, "{text}");
    let row = &rows[0];
    assert_eq!(row["session"], 1);
    assert_eq!(row["n"], 1);
    assert_eq!(row["what"], "2d6+1");
    assert_eq!(row["result"], total);
    assert_eq!(row["record"]["seed"], 41);
    assert_eq!(row["record"]["total"].to_string(), total);
    let stored_faces: Vec<Vec<u32>> =
        serde_json::from_value(row["record"]["faces"].clone()).expect("faces");
    assert_eq!(format!("{stored_faces:?}"), faces);
    // 2d6+1: percentile of the total within the 36 outcomes, worked out or filled in.
    assert!(row["percentile"].as_f64().is_some(), "{row}");

    // And it replays exactly from what was stored.
    let file = dir.join("session-1.jsonl");
    std::fs::write(&file, &text).expect("export written");
    let out = dicetable_in(&data, &["replay", file.to_str().expect("a path")]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("identical: every face and final pose matches"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A real history database with rows enough for several pages, then one page overwritten.
fn damaged_database(path: &Path) {
    let db = rusqlite::Connection::open(path).expect("a database");
    db.execute_batch(
        "CREATE TABLE filler (x TEXT);
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
         INSERT INTO filler SELECT printf('%0100d', i) FROM n;",
    )
    .expect("filled");
    drop(db);
    let mut bytes = std::fs::read(path).expect("read back");
    assert!(bytes.len() >= 4 * 4096, "{} bytes", bytes.len());
    // Page 3 (of 4096 bytes): a b-tree page's header and cells, scribbled over.
    for b in &mut bytes[2 * 4096..2 * 4096 + 600] {
        *b = 0xA5;
    }
    std::fs::write(path, bytes).expect("damaged");
}

#[test]
fn a_damaged_history_is_moved_aside_and_the_window_keeps_rolling() {
    // A window that rolls once and exits (no clicks): beside the real-time tests, as
    // window.rs's windows are.
    let _lane = crate::beside_real_time();
    let dir = scratch("damaged");
    let data = dir.join("data");
    std::fs::create_dir_all(&data).expect("data folder");
    let db = data.join("history.sqlite");
    damaged_database(&db);
    let damaged = std::fs::read(&db).expect("the damaged file");
    let (_x, display) = start_xvfb();
    let (_app, lines) = spawn_window(
        &display,
        &dir,
        &[
            "play",
            "--roll",
            "1d20",
            "--seed",
            "5",
            "--no-listen",
            "--history-dir",
            data.to_str().expect("a path"),
            "--exit-after-frames",
            "3",
        ],
    );
    let seen = wait_for(&lines, "the result", |l| {
        l.starts_with("rolled 1d20 seed 5: faces")
    });
    let notice = seen
        .iter()
        .find(|l| l.starts_with("history: the history database "))
        .unwrap_or_else(|| panic!("a notice: {seen:?}"));
    assert!(notice.contains("is damaged"), "{notice}");
    assert!(notice.contains("moved aside to"), "{notice}");
    assert!(notice.ends_with("and a new one started"), "{notice}");
    assert!(
        seen.iter()
            .any(|l| l.starts_with("history: stored session 1 roll 1 in ")),
        "{seen:?}"
    );
    let aside = moved_aside(&data);
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(
        std::fs::read(&aside[0]).expect("kept"),
        damaged,
        "kept as it was"
    );
    // The new file holds the roll.
    let out = dicetable_in(&data, &["history", "--session", "1", "--csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let csv = stdout(&out);
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(
        csv.lines().nth(1).is_some_and(|l| l.starts_with("1,1,")),
        "{csv}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_locked_or_foreign_history_is_reported_and_replaced() {
    let _lane = crate::beside_real_time();
    let dir = scratch("locked");
    // Locked: another program holds an exclusive lock on it (a transaction with its journal
    // in memory: no side file of the holder's at the database's name).
    let locked = dir.join("locked");
    std::fs::create_dir_all(&locked).expect("folder");
    let holder = rusqlite::Connection::open(locked.join("history.sqlite")).expect("a database");
    holder
        .execute_batch("PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE; CREATE TABLE mine (x);")
        .expect("locked");
    let out = dicetable_in(&locked, &["history"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("is locked by another program"), "{err}");
    assert!(err.contains("moved aside to"), "{err}");
    assert!(
        stdout(&out).starts_with("no rolls yet ("),
        "{}",
        stdout(&out)
    );
    assert_eq!(moved_aside(&locked).len(), 1);
    // The holder's own work is untouched (its file was moved, not opened for writing).
    holder.execute_batch("COMMIT;").expect("the holder commits");
    drop(holder);

    // Foreign: a file that is not SQLite at all.
    let foreign = dir.join("foreign");
    std::fs::create_dir_all(&foreign).expect("folder");
    std::fs::write(
        foreign.join("history.sqlite"),
        "roll,faces\n1,[4]\n".repeat(300),
    )
    .expect("written");
    let out = dicetable_in(&foreign, &["history", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is not an SQLite database"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");
    assert_eq!(moved_aside(&foreign).len(), 1);
    // The second opening finds the new file fine: no notice.
    let out = dicetable_in(&foreign, &["history"]);
    assert_eq!(stderr(&out), "");
    // A session that does not exist.
    let out = dicetable_in(&foreign, &["history", "--session", "7"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("there is no session 7 in "),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
