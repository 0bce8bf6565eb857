//! The history database: every roll record of every session, in SQLite (WAL) under the user's
//! data directory. A roll is written when its result is shown, in the same frame, so a crash or a
//! kill right after loses nothing that was shown. A file that is not a usable database (corrupt,
//! not SQLite, locked by another program) is moved aside and a new one started: the caller gets
//! a notice to show, never a panic.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::luck::RollLuck;
use crate::record::RollRecord;

/// The database file's name in the data directory.
pub const FILE: &str = "history.sqlite";

/// The schema's version (`PRAGMA user_version`).
const SCHEMA_VERSION: i64 = 1;

/// How long a write waits for another dicetable window writing the same file.
const BUSY_WAIT: Duration = Duration::from_millis(1500);

/// One session: a window opened and closed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SessionInfo {
    /// Its number (1: the first ever).
    pub id: i64,
    /// When it began (seconds since 1970, UTC).
    pub started: i64,
    /// When it began, local time ("2026-11-21 20:14").
    pub when: String,
    /// Where it was played ("window", "window, room crypt", ...).
    pub place: String,
    /// Rolls stored in it.
    pub rolls: i64,
}

/// One stored roll.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StoredRoll {
    /// Its session.
    pub session: i64,
    /// Its number within the session (1: the first).
    pub n: i64,
    /// When its result was shown (milliseconds since 1970, UTC).
    pub at_ms: i64,
    /// The same, local time ("2026-11-21 20:14:05").
    pub when: String,
    /// Who rolled (a character, the roll API's caller), when named.
    pub who: Option<String>,
    /// What was thrown, in words.
    pub what: String,
    /// What it came to, in words.
    pub result: String,
    /// Its luck (percentile within its exact distribution), once known.
    pub luck: Option<RollLuck>,
    /// A replay of an earlier roll (shown again, not a new roll: no one's luck).
    pub replay: bool,
    /// The full record: re-simulates exactly (`dicetable replay`).
    pub record: RollRecord,
}

impl StoredRoll {
    /// "Ash: " to put before what was thrown, unless it already says so (a move's title
    /// starts with its character).
    pub fn byline(&self) -> String {
        match &self.who {
            Some(w) if !self.what.starts_with(&format!("{w}: ")) => format!("{w}: "),
            _ => String::new(),
        }
    }
}

/// A roll to store.
#[derive(Clone, Debug, PartialEq)]
pub struct NewRoll<'a> {
    /// Who rolled, when named.
    pub who: Option<&'a str>,
    /// What was thrown, in words.
    pub what: &'a str,
    /// What it came to, in words.
    pub result: &'a str,
    /// Its luck, when already known (a move's odds were computed before the throw).
    pub luck: Option<&'a RollLuck>,
    /// The record.
    pub record: &'a RollRecord,
    /// A replay of an earlier roll.
    pub replay: bool,
}

/// Why the history could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    /// The database said no (in words a user can act on: locked, damaged, not a database).
    #[error("the database {0}")]
    Database(String),
    /// A roll or its luck could not be written as JSON.
    #[error("a roll could not be written: {0}")]
    Record(String),
}

impl From<rusqlite::Error> for HistoryError {
    fn from(e: rusqlite::Error) -> Self {
        HistoryError::Database(describe(&e))
    }
}

impl From<serde_json::Error> for HistoryError {
    fn from(e: serde_json::Error) -> Self {
        HistoryError::Record(e.to_string())
    }
}

/// The history database, open.
pub struct HistoryStore {
    db: Connection,
    path: PathBuf,
}

/// An opened store and what the opening had to say (a file moved aside).
pub struct Opened {
    /// The store (None: not even a new file could be made; the history stays in memory).
    pub store: Option<HistoryStore>,
    /// What went wrong and what was done about it, for the user.
    pub notice: Option<String>,
}

/// Seconds since 1970.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn open_checked(path: &Path) -> Result<Connection, rusqlite::Error> {
    let db = Connection::open(path)?;
    db.busy_timeout(BUSY_WAIT)?;
    // Reading the header and every page's structure finds a file that is not a database or
    // is damaged, before anything is written to it.
    let check: String = db.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
    if check != "ok" {
        // One line for the notice: the first problems found, not SQLite's whole report.
        let found: Vec<&str> = check
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("***"))
            .take(2)
            .collect();
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
            Some(format!("the integrity check says: {}", found.join("; "))),
        ));
    }
    let mode: String = db.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
    if mode != "wal" {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
            Some(format!("it stays in journal mode {mode}")),
        ));
    }
    // WAL + NORMAL: a commit is in the operating system's hands before it returns, so a killed
    // process loses nothing; only a power cut can lose the last rolls.
    db.pragma_update(None, "synchronous", "NORMAL")?;
    let version: i64 = db.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_MISMATCH),
            Some(format!(
                "it was written by a newer dicetable (schema {version}, this one reads {SCHEMA_VERSION})"
            )),
        ));
    }
    db.execute_batch(
        "BEGIN;
         CREATE TABLE IF NOT EXISTS sessions (
             id INTEGER PRIMARY KEY,
             started INTEGER NOT NULL,
             place TEXT NOT NULL
         );
         CREATE TABLE IF NOT EXISTS rolls (
             session INTEGER NOT NULL REFERENCES sessions(id),
             n INTEGER NOT NULL,
             at_ms INTEGER NOT NULL,
             who TEXT,
             what TEXT NOT NULL,
             result TEXT NOT NULL,
             luck TEXT,
             replay INTEGER NOT NULL DEFAULT 0,
             record TEXT NOT NULL,
             PRIMARY KEY (session, n)
         );
         PRAGMA user_version = 1;
         COMMIT;",
    )?;
    Ok(db)
}

/// Where a bad file goes: beside it, named with the time, never over an earlier one.
fn aside_path(path: &Path) -> PathBuf {
    let stamp = now_ms() / 1000;
    let mut n = 0;
    loop {
        let name = match n {
            0 => format!("{FILE}.bad-{stamp}"),
            n => format!("{FILE}.bad-{stamp}-{n}"),
        };
        let candidate = path.with_file_name(name);
        if !candidate.exists() {
            return candidate;
        }
        n += 1;
    }
}

/// Moves a database and its side files (WAL, shared memory, rollback journal) aside: a
/// journal left at the old name would otherwise be rolled into the new file.
fn move_aside(path: &Path) -> std::io::Result<PathBuf> {
    let aside = aside_path(path);
    std::fs::rename(path, &aside)?;
    for suffix in ["-wal", "-shm", "-journal"] {
        let side = PathBuf::from(format!("{}{suffix}", path.display()));
        if side.exists() {
            let to = PathBuf::from(format!("{}{suffix}", aside.display()));
            let _ = std::fs::rename(side, to);
        }
    }
    Ok(aside)
}

impl HistoryStore {
    /// Opens (or creates) `dir/history.sqlite`. A file that cannot be used is moved aside
    /// (`history.sqlite.bad-TIME`) and a new one started; the notice says so.
    pub fn open(dir: &Path) -> Opened {
        let path = dir.join(FILE);
        if let Err(e) = std::fs::create_dir_all(dir) {
            return Opened {
                store: None,
                notice: Some(format!(
                    "the history cannot be kept: the folder {} cannot be made ({e}); this session's rolls stay in memory",
                    dir.display()
                )),
            };
        }
        let first = match open_checked(&path) {
            Ok(db) => {
                return Opened {
                    store: Some(HistoryStore { db, path }),
                    notice: None,
                };
            }
            Err(e) => e,
        };
        let why = describe(&first);
        let aside = match move_aside(&path) {
            Ok(aside) => aside,
            Err(e) => {
                return Opened {
                    store: None,
                    notice: Some(format!(
                        "the history database {} {why}, and it cannot be moved aside ({e}); this session's rolls stay in memory",
                        path.display()
                    )),
                };
            }
        };
        match open_checked(&path) {
            Ok(db) => Opened {
                store: Some(HistoryStore {
                    db,
                    path: path.clone(),
                }),
                notice: Some(format!(
                    "the history database {} {why}: it was moved aside to {} and a new one started",
                    path.display(),
                    aside.display()
                )),
            },
            Err(e) => Opened {
                store: None,
                notice: Some(format!(
                    "the history database {} {why} (moved aside to {}), and a new one cannot be made ({}); this session's rolls stay in memory",
                    path.display(),
                    aside.display(),
                    describe(&e)
                )),
            },
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts a session; returns its number.
    pub fn begin_session(&self, place: &str) -> Result<i64, HistoryError> {
        self.db
            .execute(
                "INSERT INTO sessions (started, place) VALUES (?1, ?2)",
                params![now_ms() / 1000, place],
            )
            .map_err(HistoryError::from)?;
        Ok(self.db.last_insert_rowid())
    }

    /// Stores roll `n` of `session` (committed when this returns).
    pub fn add_roll(&self, session: i64, n: i64, roll: &NewRoll) -> Result<(), HistoryError> {
        let record = serde_json::to_string(roll.record).map_err(HistoryError::from)?;
        let luck = roll
            .luck
            .map(serde_json::to_string)
            .transpose()
            .map_err(HistoryError::from)?;
        self.db
            .execute(
                "INSERT INTO rolls (session, n, at_ms, who, what, result, luck, replay, record)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    session,
                    n,
                    now_ms(),
                    roll.who,
                    roll.what,
                    roll.result,
                    luck,
                    roll.replay,
                    record
                ],
            )
            .map_err(HistoryError::from)?;
        Ok(())
    }

    /// Fills in a roll's luck once computed.
    pub fn set_luck(&self, session: i64, n: i64, luck: &RollLuck) -> Result<(), HistoryError> {
        let luck = serde_json::to_string(luck).map_err(HistoryError::from)?;
        self.db
            .execute(
                "UPDATE rolls SET luck = ?3 WHERE session = ?1 AND n = ?2",
                params![session, n, luck],
            )
            .map_err(HistoryError::from)?;
        Ok(())
    }

    /// Every session with at least one roll, newest first.
    pub fn sessions(&self) -> Result<Vec<SessionInfo>, HistoryError> {
        let mut query = self
            .db
            .prepare(&format!(
                "{SESSION_COLUMNS} JOIN rolls r ON r.session = s.id GROUP BY s.id ORDER BY s.id DESC"
            ))
            .map_err(HistoryError::from)?;
        let rows = query
            .query_map([], session_info)
            .map_err(HistoryError::from)?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(HistoryError::from)
    }

    /// One session.
    pub fn session(&self, id: i64) -> Result<Option<SessionInfo>, HistoryError> {
        self.db
            .query_row(
                &format!(
                    "{SESSION_COLUMNS} LEFT JOIN rolls r ON r.session = s.id WHERE s.id = ?1 GROUP BY s.id"
                ),
                [id],
                session_info,
            )
            .optional()
            .map_err(HistoryError::from)
    }

    /// A session's rolls, oldest first. A row whose record does not read (written by hand, or
    /// by another build) is skipped and named in the second list.
    pub fn rolls(&self, session: i64) -> Result<(Vec<StoredRoll>, Vec<String>), HistoryError> {
        let mut query = self
            .db
            .prepare(
                "SELECT session, n, at_ms, who, what, result, luck, record, replay,
                 strftime('%Y-%m-%d %H:%M:%S', at_ms / 1000, 'unixepoch', 'localtime') FROM rolls
                 WHERE session = ?1 ORDER BY n",
            )
            .map_err(HistoryError::from)?;
        type Row = (
            i64,
            i64,
            i64,
            Option<String>,
            String,
            String,
            Option<String>,
            String,
            bool,
            String,
        );
        let rows = query
            .query_map([session], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                ))
            })
            .map_err(HistoryError::from)?
            .collect::<Result<Vec<Row>, _>>()
            .map_err(HistoryError::from)?;
        let mut rolls = Vec::new();
        let mut skipped = Vec::new();
        for (session, n, at_ms, who, what, result, luck, record, replay, when) in rows {
            let record = match serde_json::from_str::<RollRecord>(&record) {
                Ok(r) => r,
                Err(e) => {
                    skipped.push(format!(
                        "session {session} roll {n}: its record does not read ({e})"
                    ));
                    continue;
                }
            };
            let luck = luck.and_then(|l| serde_json::from_str::<RollLuck>(&l).ok());
            rolls.push(StoredRoll {
                session,
                n,
                at_ms,
                when,
                who,
                what,
                result,
                luck,
                replay,
                record,
            });
        }
        Ok((rolls, skipped))
    }
}

/// What [`session_info`] reads, from `sessions s` joined with `rolls r`.
const SESSION_COLUMNS: &str = "SELECT s.id, s.started, s.place, COUNT(r.n),
     strftime('%Y-%m-%d %H:%M', s.started, 'unixepoch', 'localtime') FROM sessions s";

/// A session from a row of [`SESSION_COLUMNS`].
fn session_info(r: &rusqlite::Row) -> rusqlite::Result<SessionInfo> {
    Ok(SessionInfo {
        id: r.get(0)?,
        started: r.get(1)?,
        place: r.get(2)?,
        rolls: r.get(3)?,
        when: r.get(4)?,
    })
}

/// An SQLite error in words a user can act on.
fn describe(e: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode;
    let detail = match e {
        rusqlite::Error::SqliteFailure(_, Some(m)) => m.clone(),
        other => other.to_string(),
    };
    match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => format!("is not an SQLite database ({detail})"),
        Some(ErrorCode::DatabaseCorrupt) => format!("is damaged ({detail})"),
        Some(ErrorCode::DatabaseBusy) | Some(ErrorCode::DatabaseLocked) => {
            format!("is locked by another program ({detail})")
        }
        Some(ErrorCode::TypeMismatch) => format!("cannot be read: {detail}"),
        _ => format!("cannot be used ({detail})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{RollDice, RollInputs, Thrown};

    fn record(notation: &str, seed: u64) -> RollRecord {
        let inputs = RollInputs {
            dice: RollDice::Notation(notation.into()),
            seed,
            gesture: None,
            cocked: crate::record::Cocked::Rethrow,
        };
        let mut r = RollRecord::new(
            Thrown::Notation {
                notation: notation.into(),
            },
            &inputs,
            vec![],
        );
        r.faces = vec![vec![4], vec![2]];
        r.total = Some(crate::odds::Total::whole(6));
        r
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dicetable-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn roll<'a>(record: &'a RollRecord) -> NewRoll<'a> {
        NewRoll {
            who: Some("Ash"),
            what: "2d6",
            result: "6",
            luck: None,
            record,
            replay: false,
        }
    }

    #[test]
    fn rolls_are_kept_across_openings_and_sessions() {
        let d = dir("keep");
        let opened = HistoryStore::open(&d);
        assert_eq!(opened.notice, None);
        let store = opened.store.expect("a store");
        let s1 = store.begin_session("window").expect("session");
        let r1 = record("2d6", 7);
        store.add_roll(s1, 1, &roll(&r1)).expect("stored");
        store
            .add_roll(s1, 2, &roll(&record("2d6", 8)))
            .expect("stored");
        assert!(
            store.add_roll(s1, 2, &roll(&r1)).is_err(),
            "roll 2 is taken"
        );
        drop(store);
        let store = HistoryStore::open(&d).store.expect("reopened");
        let s2 = store.begin_session("window, room crypt").expect("session");
        assert_eq!(s2, s1 + 1);
        // A session without rolls is not listed.
        let sessions = store.sessions().expect("sessions");
        assert_eq!(sessions.len(), 1);
        assert_eq!((sessions[0].id, sessions[0].rolls), (s1, 2));
        let (rolls, skipped) = store.rolls(s1).expect("rolls");
        assert!(skipped.is_empty());
        assert_eq!(rolls.len(), 2);
        assert_eq!(rolls[0].record, r1);
        assert_eq!(rolls[0].who.as_deref(), Some("Ash"));
        assert_eq!(rolls[1].record.seed, 8);
        let luck = RollLuck {
            percentile: 62.5,
            exact: true,
            outcomes: vec![(12.5, 0.25), (62.5, 0.75)],
        };
        store.set_luck(s1, 1, &luck).expect("luck");
        let (rolls, _) = store.rolls(s1).expect("rolls");
        assert_eq!(rolls[0].luck.as_ref(), Some(&luck));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_moved_aside() {
        let d = dir("junk");
        std::fs::create_dir_all(&d).expect("dir");
        let junk = b"these are not the pages of an SQLite database, only words".repeat(200);
        std::fs::write(d.join(FILE), &junk).expect("junk");
        let opened = HistoryStore::open(&d);
        let notice = opened.notice.expect("a notice");
        assert!(notice.contains("is not an SQLite database"), "{notice}");
        assert!(notice.contains("moved aside to"), "{notice}");
        let store = opened.store.expect("a new store");
        assert_eq!(store.sessions().expect("sessions"), vec![]);
        let aside: Vec<_> = std::fs::read_dir(&d)
            .expect("read dir")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("history.sqlite.bad-"))
            .collect();
        assert_eq!(aside.len(), 1, "{aside:?}");
        assert_eq!(std::fs::read(d.join(&aside[0])).expect("kept"), junk);
        let _ = std::fs::remove_dir_all(&d);
    }
}
