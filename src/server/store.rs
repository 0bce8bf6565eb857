//! Where room logs live: one interface ([`LogStore`]), an embedded SQLite implementation (WAL,
//! one writer thread committing appends in batches) here, and NATS JetStream in `nats`. An
//! append returns only once the line is stored: the server acknowledges nothing before.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

use crate::online::log::SealedRoll;

/// The passcodes' hashes of a room (never the passcodes).
#[derive(Clone, Debug, PartialEq)]
pub struct RoomKeys {
    /// The players' and spectators' passcode hash.
    pub passcode: String,
    /// The game master's passcode hash.
    pub gm_passcode: String,
}

/// What a store could not do.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum StoreError {
    /// Another entry holds that place (another server node appended first).
    #[error("entry {0} of the room is stored already")]
    Conflict(u64),
    /// A room of that name exists.
    #[error("a room named '{0}' exists already")]
    Exists(String),
    /// The storage itself failed.
    #[error("the log store failed: {0}")]
    Failed(String),
    /// The storage cannot be reached now (NATS away, a new leader being chosen): nothing was
    /// stored by this call that the server knows of; try again shortly.
    #[error("the log store is unavailable: {0}")]
    Unavailable(String),
}

/// A room log store: rooms, their keys, their append-only logs and sealed rolls.
pub trait LogStore: Send + Sync + 'static {
    /// Opens a room with its first line; fails if the name is taken.
    fn create_room(
        &self,
        room: &str,
        keys: RoomKeys,
        first: String,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// A room's keys (None: no such room).
    fn keys(&self, room: &str)
    -> impl Future<Output = Result<Option<RoomKeys>, StoreError>> + Send;
    /// Stores line `seq` (with a hidden roll's content); a taken `seq` is a conflict.
    fn append(
        &self,
        room: &str,
        seq: u64,
        line: String,
        sealed: Option<SealedRoll>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// The lines after `after`, in order.
    fn read(
        &self,
        room: &str,
        after: u64,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
    /// At most `most` lines after `after`, in order: a client catching up on a long log is
    /// sent it a page at a time, so one that does not read holds a page, not the log.
    fn read_page(
        &self,
        room: &str,
        after: u64,
        most: usize,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;
    /// A hidden roll's content.
    fn sealed(
        &self,
        room: &str,
        seq: u64,
    ) -> impl Future<Output = Result<Option<SealedRoll>, StoreError>> + Send;
    /// A signal whenever another server appends to the room (None: this server is the only
    /// writer, as with SQLite).
    fn watch(
        &self,
        _room: &str,
    ) -> impl Future<Output = Result<Option<tokio::sync::mpsc::Receiver<()>>, StoreError>> + Send
    {
        async { Ok(None) }
    }
}

fn failed(e: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(e.to_string())
}

/// One write for the writer thread.
enum Write {
    Create {
        room: String,
        keys: RoomKeys,
        first: String,
        done: oneshot::Sender<Result<(), StoreError>>,
    },
    Append {
        room: String,
        seq: u64,
        line: String,
        sealed: Option<SealedRoll>,
        done: oneshot::Sender<Result<(), StoreError>>,
    },
}

/// The SQLite store: `rooms.sqlite` in the data folder, WAL, synchronous FULL. The write-ahead
/// log is copied into the database by a thread of its own (`checkpoint_loop`), not by the
/// commit that happens to fill it: a throw never waits for a checkpoint.
#[derive(Clone)]
pub struct SqliteStore {
    writes: mpsc::Sender<Write>,
    reader: Arc<Mutex<Connection>>,
    path: PathBuf,
    /// Held while any copy of the store lives; the checkpoint thread stops when it is gone.
    _checkpoints: mpsc::Sender<()>,
}

/// Most writes committed in one transaction.
const BATCH: usize = 512;
/// How often the write-ahead log is copied into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);
/// Pages of write-ahead log (4 KiB each) past which a checkpoint makes the writer wait until the
/// log starts over, so that it cannot outgrow its disk while readers hold it: 64 MiB.
const WAL_MOST_PAGES: i64 = 16_384;

fn open(path: &Path) -> Result<Connection, StoreError> {
    let db = Connection::open(path)
        .map_err(|e| StoreError::Failed(format!("cannot open {}: {e}", path.display())))?;
    db.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(failed)?;
    db.pragma_update(None, "journal_mode", "WAL")
        .map_err(failed)?;
    db.pragma_update(None, "synchronous", "FULL")
        .map_err(failed)?;
    Ok(db)
}

impl SqliteStore {
    /// Opens (or makes) the store in `dir`.
    pub fn open(dir: &Path) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::Failed(format!("cannot make {}: {e}", dir.display())))?;
        let path = dir.join("rooms.sqlite");
        let db = open(&path)?;
        db.execute_batch(
            "CREATE TABLE IF NOT EXISTS rooms (
                 room TEXT PRIMARY KEY, passcode TEXT NOT NULL, gm_passcode TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS entries (
                 room TEXT NOT NULL, seq INTEGER NOT NULL, line TEXT NOT NULL,
                 PRIMARY KEY (room, seq)) WITHOUT ROWID;
             CREATE TABLE IF NOT EXISTS sealed (
                 room TEXT NOT NULL, seq INTEGER NOT NULL, salt TEXT NOT NULL,
                 payload TEXT NOT NULL, PRIMARY KEY (room, seq)) WITHOUT ROWID;",
        )
        .map_err(|e| StoreError::Failed(format!("{}: {e}", path.display())))?;
        // A store that reads but cannot be written fails now, not at the first throw.
        db.execute_batch("CREATE TABLE IF NOT EXISTS write_check (x); DROP TABLE write_check;")
            .map_err(|e| {
                StoreError::Failed(format!("{} cannot be written: {e}", path.display()))
            })?;
        // The writer's commits never copy the log into the database themselves.
        db.pragma_update(None, "wal_autocheckpoint", 0)
            .map_err(failed)?;
        let reader = open(&path)?;
        let checkpointer = open(&path)?;
        let (writes, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("room-log-writer".into())
            .spawn(move || write_loop(db, queue))
            .map_err(failed)?;
        let (checkpoints, stop) = mpsc::channel();
        std::thread::Builder::new()
            .name("room-log-checkpoint".into())
            .spawn(move || checkpoint_loop(checkpointer, stop))
            .map_err(failed)?;
        Ok(SqliteStore {
            writes,
            reader: Arc::new(Mutex::new(reader)),
            path,
            _checkpoints: checkpoints,
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    async fn write(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<(), StoreError>>) -> Write,
    ) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        self.writes
            .send(make(done))
            .map_err(|_| StoreError::Failed("the writer stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Failed("the writer stopped".into()))?
    }

    async fn query<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let db = reader
                .lock()
                .map_err(|_| StoreError::Failed("reader poisoned".into()))?;
            f(&db).map_err(failed)
        })
        .await
        .map_err(failed)?
    }
}

/// The checkpointer: every [`CHECKPOINT_EVERY`], copies what the write-ahead log holds into the
/// database without holding up the writer (PASSIVE); should the log still hold more than
/// [`WAL_MOST_PAGES`] after that, it waits for the writer and readers and starts the log over
/// (RESTART). Stops when the store is dropped.
fn checkpoint_loop(db: Connection, stop: mpsc::Receiver<()>) {
    let checkpoint = |mode: &str| -> rusqlite::Result<i64> {
        db.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |row| {
            row.get::<_, i64>(1)
        })
    };
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT_EVERY) {
        match checkpoint("PASSIVE") {
            Ok(pages) if pages > WAL_MOST_PAGES => {
                if let Err(e) = checkpoint("RESTART") {
                    eprintln!("the room log's checkpoint failed: {e}");
                }
            }
            Ok(_) => {}
            Err(e) => eprintln!("the room log's checkpoint failed: {e}"),
        }
    }
}

/// The writer: takes every write waiting, commits them in one transaction, then answers each.
fn write_loop(mut db: Connection, queue: mpsc::Receiver<Write>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match queue.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        let mut answers = Vec::with_capacity(batch.len());
        let mut tx = match db.transaction() {
            Ok(tx) => tx,
            Err(e) => {
                for w in batch {
                    answer(w, Err(failed(&e)));
                }
                continue;
            }
        };
        for w in batch {
            let result = match &w {
                Write::Create {
                    room, keys, first, ..
                } => create(&tx, room, keys, first),
                Write::Append {
                    room,
                    seq,
                    line,
                    sealed,
                    ..
                } => append(&mut tx, room, *seq, line, sealed.as_ref()),
            };
            answers.push((w, result));
        }
        let committed = tx.commit().map_err(failed);
        for (w, result) in answers {
            answer(w, committed.clone().and(result));
        }
    }
}

fn answer(w: Write, result: Result<(), StoreError>) {
    let done = match w {
        Write::Create { done, .. } | Write::Append { done, .. } => done,
    };
    let _ = done.send(result);
}

fn is_constraint(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation)
}

fn create(
    tx: &rusqlite::Transaction<'_>,
    room: &str,
    keys: &RoomKeys,
    first: &str,
) -> Result<(), StoreError> {
    // Room names are one room whatever their case ("CaseRoom" is "caseroom"): the one writer
    // checks before it inserts, so two at once cannot both pass.
    let taken: Option<String> = tx
        .query_row(
            "SELECT room FROM rooms WHERE room = ?1 COLLATE NOCASE LIMIT 1",
            params![room],
            |r| r.get(0),
        )
        .optional()
        .map_err(failed)?;
    if let Some(taken) = taken {
        return Err(StoreError::Exists(taken));
    }
    tx.execute(
        "INSERT INTO rooms (room, passcode, gm_passcode) VALUES (?1, ?2, ?3)",
        params![room, keys.passcode, keys.gm_passcode],
    )
    .map_err(|e| {
        if is_constraint(&e) {
            StoreError::Exists(room.into())
        } else {
            failed(e)
        }
    })?;
    tx.execute(
        "INSERT INTO entries (room, seq, line) VALUES (?1, 1, ?2)",
        params![room, first],
    )
    .map_err(failed)?;
    Ok(())
}

fn append(
    tx: &mut rusqlite::Transaction<'_>,
    room: &str,
    seq: u64,
    line: &str,
    sealed: Option<&SealedRoll>,
) -> Result<(), StoreError> {
    let sp = tx.savepoint_with_name("entry").map_err(failed)?;
    // Prepared once for the connection: a throw's insert is not parsed again each time.
    sp.prepare_cached("INSERT INTO entries (room, seq, line) VALUES (?1, ?2, ?3)")
        .and_then(|mut insert| insert.execute(params![room, seq as i64, line]))
        .map_err(|e| {
            if is_constraint(&e) {
                StoreError::Conflict(seq)
            } else {
                failed(e)
            }
        })?;
    if let Some(s) = sealed {
        sp.prepare_cached("INSERT INTO sealed (room, seq, salt, payload) VALUES (?1, ?2, ?3, ?4)")
            .and_then(|mut insert| insert.execute(params![room, seq as i64, s.salt, s.payload]))
            .map_err(failed)?;
    }
    sp.commit().map_err(failed)
}

impl LogStore for SqliteStore {
    async fn create_room(
        &self,
        room: &str,
        keys: RoomKeys,
        first: String,
    ) -> Result<(), StoreError> {
        let room = room.to_string();
        self.write(|done| Write::Create {
            room,
            keys,
            first,
            done,
        })
        .await
    }

    async fn keys(&self, room: &str) -> Result<Option<RoomKeys>, StoreError> {
        let room = room.to_string();
        self.query(move |db| {
            db.query_row(
                "SELECT passcode, gm_passcode FROM rooms WHERE room = ?1",
                params![room],
                |r| {
                    Ok(RoomKeys {
                        passcode: r.get(0)?,
                        gm_passcode: r.get(1)?,
                    })
                },
            )
            .optional()
        })
        .await
    }

    async fn append(
        &self,
        room: &str,
        seq: u64,
        line: String,
        sealed: Option<SealedRoll>,
    ) -> Result<(), StoreError> {
        let room = room.to_string();
        self.write(|done| Write::Append {
            room,
            seq,
            line,
            sealed,
            done,
        })
        .await
    }

    async fn read(&self, room: &str, after: u64) -> Result<Vec<String>, StoreError> {
        self.read_page(room, after, usize::MAX).await
    }

    async fn read_page(
        &self,
        room: &str,
        after: u64,
        most: usize,
    ) -> Result<Vec<String>, StoreError> {
        let room = room.to_string();
        self.query(move |db| {
            let mut st = db.prepare_cached(
                "SELECT line FROM entries WHERE room = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
            )?;
            let rows = st.query_map(
                params![
                    room,
                    i64::try_from(after).unwrap_or(i64::MAX),
                    i64::try_from(most).unwrap_or(i64::MAX)
                ],
                |r| r.get::<_, String>(0),
            )?;
            rows.collect()
        })
        .await
    }

    async fn sealed(&self, room: &str, seq: u64) -> Result<Option<SealedRoll>, StoreError> {
        let room = room.to_string();
        self.query(move |db| {
            db.query_row(
                "SELECT salt, payload FROM sealed WHERE room = ?1 AND seq = ?2",
                params![room, seq as i64],
                |r| {
                    Ok(SealedRoll {
                        salt: r.get(0)?,
                        payload: r.get(1)?,
                    })
                },
            )
            .optional()
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> RoomKeys {
        RoomKeys {
            passcode: "p".into(),
            gm_passcode: "g".into(),
        }
    }

    #[tokio::test]
    async fn the_log_is_copied_into_the_database_by_its_own_thread() {
        let dir = std::env::temp_dir().join(format!("dicetable-wal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = SqliteStore::open(&dir).expect("opens");
        let size = || std::fs::metadata(dir.join("rooms.sqlite")).map_or(0, |m| m.len());
        let empty = size();
        store
            .create_room("r", keys(), "one".into())
            .await
            .expect("creates");
        let line = "x".repeat(2_000);
        for seq in 2..=200 {
            store
                .append("r", seq, line.clone(), None)
                .await
                .expect("appends");
        }
        // Nothing commits a checkpoint (the writer's are off): the thread copies the log in.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while size() < empty + 200 * 2_000 && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(size() >= empty + 200 * 2_000, "{} bytes", size());
        assert_eq!(store.read("r", 199).await.expect("reads"), [line]);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test]
    async fn appends_are_stored_in_order_and_a_taken_place_conflicts() {
        let dir = std::env::temp_dir().join(format!("dicetable-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = SqliteStore::open(&dir).expect("opens");
        store
            .create_room("r", keys(), "one".into())
            .await
            .expect("creates");
        assert_eq!(
            store.create_room("r", keys(), "again".into()).await,
            Err(StoreError::Exists("r".into()))
        );
        // A name in another case is the same room.
        store
            .create_room("CaseRoom", keys(), "one".into())
            .await
            .expect("creates");
        assert_eq!(
            store.create_room("caseroom", keys(), "again".into()).await,
            Err(StoreError::Exists("CaseRoom".into()))
        );
        store.append("r", 2, "two".into(), None).await.expect("2");
        let sealed = SealedRoll {
            salt: "00".into(),
            payload: "{}".into(),
        };
        store
            .append("r", 3, "three".into(), Some(sealed.clone()))
            .await
            .expect("3");
        assert_eq!(
            store.append("r", 3, "other".into(), None).await,
            Err(StoreError::Conflict(3))
        );
        assert_eq!(
            store.read("r", 0).await.expect("reads"),
            ["one", "two", "three"]
        );
        assert_eq!(store.read("r", 2).await.expect("reads"), ["three"]);
        assert_eq!(
            store.read_page("r", 0, 2).await.expect("reads"),
            ["one", "two"]
        );
        assert_eq!(
            store.read_page("r", 1, 5).await.expect("reads"),
            ["two", "three"]
        );
        assert_eq!(store.keys("r").await.expect("keys"), Some(keys()));
        assert_eq!(store.keys("nope").await.expect("keys"), None);
        assert_eq!(store.sealed("r", 3).await.expect("sealed"), Some(sealed));
        // A second store on the same folder (a restarted server) reads the same.
        drop(store);
        let again = SqliteStore::open(&dir).expect("reopens");
        assert_eq!(again.read("r", 0).await.expect("reads").len(), 3);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
