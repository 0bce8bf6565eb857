//! The NATS JetStream store: room logs in a key-value bucket (`dicetable-rooms`), so several
//! table servers serve the same rooms. A room is opened in one write, `open.<room>` (its
//! passcodes' hashes and its first entry), made with `create`: it is there whole or not at all.
//! Entry `seq` > 1 is key `room.<room>.<seq>`, also written with `create` (it fails when the key
//! exists: two nodes cannot both append entry `seq`); a hidden roll's content is
//! `sealed.<room>.<seq>`. A watch on `room.<room>.*` tells a node what the others appended.
//! Rooms opened before the one-write form (`keys.<room>` and `room.<room>.1`) read as before.
//!
//! The bucket keeps each key on up to three nodes of a cluster (`serve --nats-replicas`): an
//! append is acknowledged once JetStream has it on a majority of them. While the server's
//! connection to NATS is down every call fails at once with [`StoreError::Unavailable`]; a call
//! whose answer was lost (a leader changing) is asked again for a few seconds, and an append
//! whose first try did land is then known by its own line being there.

use std::time::{Duration, Instant};

use async_nats::connection::State;
use async_nats::jetstream::kv::{CreateErrorKind, Store};
use async_nats::jetstream::stream;
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::store::{LogStore, RoomKeys, StoreError};
use crate::online::log::SealedRoll;

/// The bucket's name.
pub const BUCKET: &str = "dicetable-rooms";
/// The most copies of the bucket kept, by default (JetStream's own advice for a cluster).
pub const MAX_REPLICAS: usize = 3;
/// How long one request to JetStream may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a call keeps asking while JetStream does not answer (a new leader is being
/// chosen) before it says the store is unavailable.
const RIDE_OUT: Duration = Duration::from_secs(10);
/// Entries read one key at a time before a read asks for the rest in one batch.
const SINGLE_READS: u64 = 8;
/// How long a read waits for its batch before it reads one key at a time instead.
const BATCH_WAIT: Duration = Duration::from_secs(3);
/// The longest pause between tries to start a room's watch again.
const WATCH_RETRY_MOST: Duration = Duration::from_secs(2);

fn failed(e: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(format!("NATS: {e}"))
}

/// Room logs in NATS JetStream.
#[derive(Clone)]
pub struct NatsStore {
    client: async_nats::Client,
    kv: Store,
    replicas: usize,
}

/// The copies wanted of the bucket: a number, or as many as the cluster allows, up to
/// [`MAX_REPLICAS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replicas {
    /// Exactly this many (the server refuses to start when the cluster cannot keep them).
    Exactly(usize),
    /// As many as the cluster allows, up to three.
    AsManyAsAllowed,
}

impl Replicas {
    /// The counts to try, most first.
    fn to_try(self) -> Vec<usize> {
        match self {
            Replicas::Exactly(n) => vec![n.clamp(1, 5)],
            Replicas::AsManyAsAllowed => (1..=MAX_REPLICAS).rev().collect(),
        }
    }
}

impl NatsStore {
    /// Connects to `urls` (one or more servers of a cluster, comma-separated) and opens (or
    /// makes) the bucket with `replicas` copies; a bucket with fewer is given more.
    pub async fn connect(urls: &str, replicas: Replicas) -> Result<NatsStore, StoreError> {
        let servers: Vec<async_nats::ServerAddr> = urls
            .split(',')
            .map(|u| u.trim().parse())
            .collect::<Result<_, _>>()
            .map_err(|e| StoreError::Failed(format!("'{urls}' is not a NATS address: {e}")))?;
        let client = async_nats::ConnectOptions::new()
            .connection_timeout(REQUEST_TIMEOUT)
            .connect(servers)
            .await
            .map_err(|e| StoreError::Failed(format!("cannot reach NATS at {urls}: {e}")))?;
        let mut js = async_nats::jetstream::new(client.clone());
        js.set_timeout(REQUEST_TIMEOUT);
        let stream_name = format!("KV_{BUCKET}");
        let mut last_refusal = String::new();
        let mut kept = None;
        for n in replicas.to_try() {
            match js.get_stream(&stream_name).await {
                Ok(mut existing) => {
                    let info = existing.info().await.map_err(failed)?;
                    let has = info.config.num_replicas;
                    if has >= n && !(has > 1 && info.config.allow_direct) {
                        kept = Some(has);
                        break;
                    }
                    let mut config = info.config.clone();
                    config.num_replicas = has.max(n);
                    config.allow_direct = config.num_replicas == 1;
                    match js.update_stream(&config).await {
                        Ok(_) => {
                            kept = Some(config.num_replicas);
                            break;
                        }
                        Err(e) => last_refusal = e.to_string(),
                    }
                }
                Err(_) => match js.create_stream(bucket_config(n)).await {
                    Ok(_) => {
                        kept = Some(n);
                        break;
                    }
                    Err(e) => last_refusal = e.to_string(),
                },
            }
        }
        let Some(replicas) = kept else {
            return Err(StoreError::Failed(format!(
                "NATS at {urls} cannot keep the bucket {BUCKET} with {replicas:?} (is JetStream on? nats-server -js; a cluster for more than one replica): {last_refusal}"
            )));
        };
        let kv = js.get_key_value(BUCKET).await.map_err(failed)?;
        Ok(NatsStore {
            client,
            kv,
            replicas,
        })
    }

    /// How many copies of the bucket the cluster keeps.
    pub fn replicas(&self) -> usize {
        self.replicas
    }

    /// Fails at once while the connection to NATS is down (it comes back by itself).
    fn connected(&self) -> Result<(), StoreError> {
        match self.client.connection_state() {
            State::Connected => Ok(()),
            state => Err(StoreError::Unavailable(format!(
                "NATS is not reachable ({state:?}): try again shortly"
            ))),
        }
    }

    /// Runs `ask` until it answers, for up to [`RIDE_OUT`] while the connection is up and
    /// JetStream does not answer (a leader being chosen): its answer, or unavailable.
    async fn asking<T, E, F, Fut>(&self, what: &str, ask: F) -> Result<T, StoreError>
    where
        E: std::fmt::Display,
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Asked<E>>>,
    {
        self.asking_for(RIDE_OUT, what, ask).await
    }

    /// [`NatsStore::asking`] for up to `ride_out`.
    async fn asking_for<T, E, F, Fut>(
        &self,
        ride_out: Duration,
        what: &str,
        mut ask: F,
    ) -> Result<T, StoreError>
    where
        E: std::fmt::Display,
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Asked<E>>>,
    {
        let start = Instant::now();
        loop {
            self.connected()?;
            match ask().await {
                Ok(answer) => return Ok(answer),
                Err(Asked::Final(e)) => return Err(e),
                Err(Asked::NoAnswer(e)) if start.elapsed() >= ride_out => {
                    return Err(StoreError::Unavailable(format!(
                        "NATS JetStream did not answer {what} for {} s: {e}",
                        ride_out.as_secs()
                    )));
                }
                Err(Asked::NoAnswer(_)) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    async fn get_text(&self, key: String) -> Result<Option<String>, StoreError> {
        let value = self
            .asking("a read", || async {
                self.kv.get(key.clone()).await.map_err(Asked::NoAnswer)
            })
            .await?;
        value
            .map(|b| String::from_utf8(b.to_vec()).map_err(failed))
            .transpose()
    }

    /// Writes `value` at `key` unless the key exists: Ok(true) written (by this call, or by
    /// an earlier try of it whose answer was lost), Ok(false) another value holds it.
    async fn create_once(&self, key: String, value: String) -> Result<bool, StoreError> {
        let mut tried = false;
        let written = self
            .asking("a write", || {
                let (key, value) = (key.clone(), value.clone());
                let again = std::mem::replace(&mut tried, true);
                async move {
                    match self.kv.create(&key, Bytes::from(value.clone())).await {
                        Ok(_) => Ok(true),
                        Err(e) if e.kind() == CreateErrorKind::AlreadyExists => {
                            if !again {
                                return Ok(false);
                            }
                            // A try before may have landed: it did if the value is ours.
                            match self.kv.get(&key).await {
                                Ok(held) => Ok(held.is_some_and(|h| h == value.as_bytes())),
                                Err(e) => Err(Asked::NoAnswer(e.to_string())),
                            }
                        }
                        Err(e) if e.kind() == CreateErrorKind::InvalidKey => {
                            Err(Asked::Final(failed(e)))
                        }
                        Err(e) => Err(Asked::NoAnswer(e.to_string())),
                    }
                }
            })
            .await?;
        Ok(written)
    }

    /// A room opened in one write: its keys and first entry (None: no such room, or one
    /// opened before that form).
    async fn opened(&self, room: &str) -> Result<Option<Opened>, StoreError> {
        let Some(text) = self.get_text(format!("open.{room}")).await? else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| failed(format!("open.{room} does not read: {e}")))
    }

    /// Where a read after `after` starts: the room's first entry when it starts at the top (a
    /// room opened in one write keeps it in its `open.` key; older rooms keep it as the
    /// others), and the `seq` of the next entry's key. None: no such room.
    async fn read_start(
        &self,
        room: &str,
        after: u64,
    ) -> Result<Option<(Vec<String>, u64)>, StoreError> {
        let mut lines = Vec::new();
        let mut seq = after + 1;
        if seq == 1 {
            match self.opened(room).await? {
                Some(opened) => {
                    lines.push(opened.first);
                    seq += 1;
                }
                None if self.get_text(format!("keys.{room}")).await?.is_none() => {
                    return Ok(None);
                }
                None => {}
            }
        }
        Ok(Some((lines, seq)))
    }

    /// Reads entries from `seq` one key at a time into `lines` until they hold `most`: whether
    /// the log ended first.
    async fn read_keys(
        &self,
        room: &str,
        seq: &mut u64,
        lines: &mut Vec<String>,
        most: usize,
    ) -> Result<bool, StoreError> {
        while lines.len() < most {
            match self.get_text(format!("room.{room}.{seq}")).await? {
                Some(line) => lines.push(line),
                None => return Ok(true),
            }
            *seq += 1;
        }
        Ok(false)
    }

    /// The room's entries from `from` on: in one batch where it can, else one key at a time.
    ///
    /// A batch is a consumer, which the cluster's metadata leader places; a read of one key
    /// needs only the bucket's leader, as an append does. So while the cluster cannot place
    /// a consumer (its metadata leader lost, a new one not yet chosen), the rest is read one
    /// key at a time: a server that can append can load a room.
    async fn read_rest(&self, room: &str, from: u64) -> Result<Vec<String>, StoreError> {
        match self.read_batch(room, from).await {
            Ok(lines) => Ok(lines),
            Err(StoreError::Unavailable(why)) => {
                eprintln!("room {room}: {why}; reading its log one entry at a time");
                let (mut seq, mut lines) = (from, Vec::new());
                self.read_keys(room, &mut seq, &mut lines, usize::MAX)
                    .await?;
                Ok(lines)
            }
            Err(e) => Err(e),
        }
    }

    /// The room's entries from `from` on, in one batch: every `room.<room>.*` key the bucket
    /// holds, delivered together, kept from `from` while they follow on. Unavailable when no
    /// consumer can be had within [`BATCH_WAIT`].
    async fn read_batch(&self, room: &str, from: u64) -> Result<Vec<String>, StoreError> {
        let mut by_seq = std::collections::BTreeMap::new();
        let prefix = format!("room.{room}.");
        let mut watch = self
            .asking_for(BATCH_WAIT, "a batch read", || async {
                self.kv
                    .watch_with_history(format!("{prefix}*"))
                    .await
                    .map_err(Asked::NoAnswer)
            })
            .await?;
        loop {
            let next = tokio::time::timeout(REQUEST_TIMEOUT * 2, watch.next()).await;
            let entry = match next {
                Ok(Some(Ok(entry))) => entry,
                Ok(Some(Err(e))) => return Err(StoreError::Unavailable(format!("NATS: {e}"))),
                Ok(None) => break,
                Err(_) => {
                    return Err(StoreError::Unavailable(
                        "NATS JetStream stopped sending a room's log".into(),
                    ));
                }
            };
            if let Some(seq) = entry
                .key
                .strip_prefix(&prefix)
                .and_then(|s| s.parse::<u64>().ok())
                && seq >= from
            {
                by_seq.insert(seq, entry.value);
            }
            if entry.delta == 0 {
                break;
            }
        }
        let mut lines = Vec::new();
        for (seq, value) in by_seq {
            if seq != from + lines.len() as u64 {
                break;
            }
            lines.push(String::from_utf8(value.to_vec()).map_err(failed)?);
        }
        Ok(lines)
    }
}

/// How a request to JetStream ended without an answer to use.
enum Asked<E> {
    /// No answer (a timeout, no responders, a leader being chosen): ask again.
    NoAnswer(E),
    /// A refusal that asking again cannot change.
    Final(StoreError),
}

/// A room's one-write opening.
#[derive(serde::Serialize, serde::Deserialize)]
struct Opened {
    passcode: String,
    gm_passcode: String,
    first: String,
}

/// The bucket's stream with `replicas` copies, made as `create_key_value` makes it, without
/// the account query that Debian's nats-server 2.9 answers in a form this client cannot read.
fn bucket_config(replicas: usize) -> stream::Config {
    stream::Config {
        name: format!("KV_{BUCKET}"),
        description: Some("dicetable room logs".into()),
        subjects: vec![format!("$KV.{BUCKET}.>")],
        max_messages_per_subject: 1,
        max_message_size: 1 << 20,
        storage: stream::StorageType::File,
        allow_rollup: true,
        deny_delete: true,
        // A replica may lag its leader: with copies, reads go to the leader, so a server reads
        // what it has just written (a room it opened, an entry it appended).
        allow_direct: replicas == 1,
        discard: stream::DiscardPolicy::New,
        num_replicas: replicas,
        ..stream::Config::default()
    }
}

impl LogStore for NatsStore {
    async fn create_room(
        &self,
        room: &str,
        keys: RoomKeys,
        first: String,
    ) -> Result<(), StoreError> {
        // A room of the older, two-write form holds its name too.
        if self.get_text(format!("keys.{room}")).await?.is_some() {
            return Err(StoreError::Exists(room.into()));
        }
        // Room names are one room whatever their case: the folded name is claimed first, in a
        // write that only one server can make (rooms opened before this are compared exactly).
        let folded = room.to_ascii_lowercase();
        if !self
            .create_once(format!("name.{folded}"), room.to_string())
            .await?
        {
            let taken = self.get_text(format!("name.{folded}")).await?;
            // Claimed by this very name, its open write lost: open it now.
            if taken.as_deref() != Some(room) {
                return Err(StoreError::Exists(taken.unwrap_or_else(|| room.into())));
            }
        }
        let opened = Opened {
            passcode: keys.passcode,
            gm_passcode: keys.gm_passcode,
            first,
        };
        let value = serde_json::to_string(&opened).map_err(failed)?;
        match self.create_once(format!("open.{room}"), value).await? {
            true => Ok(()),
            false => Err(StoreError::Exists(room.into())),
        }
    }

    async fn keys(&self, room: &str) -> Result<Option<RoomKeys>, StoreError> {
        if let Some(opened) = self.opened(room).await? {
            return Ok(Some(RoomKeys {
                passcode: opened.passcode,
                gm_passcode: opened.gm_passcode,
            }));
        }
        let Some(text) = self.get_text(format!("keys.{room}")).await? else {
            return Ok(None);
        };
        let v: serde_json::Value = serde_json::from_str(&text).map_err(failed)?;
        let field = |k: &str| {
            v[k].as_str()
                .map(str::to_string)
                .ok_or_else(|| failed(format!("keys.{room} lacks {k}")))
        };
        Ok(Some(RoomKeys {
            passcode: field("passcode")?,
            gm_passcode: field("gm_passcode")?,
        }))
    }

    async fn append(
        &self,
        room: &str,
        seq: u64,
        line: String,
        sealed: Option<SealedRoll>,
    ) -> Result<(), StoreError> {
        if !self.create_once(format!("room.{room}.{seq}"), line).await? {
            return Err(StoreError::Conflict(seq));
        }
        // Only the node that stored entry `seq` writes its hidden roll's content.
        if let Some(s) = sealed {
            let value = serde_json::json!({"salt": s.salt, "payload": s.payload}).to_string();
            let key = format!("sealed.{room}.{seq}");
            self.asking("a write", || async {
                self.kv
                    .put(&key, Bytes::from(value.clone()))
                    .await
                    .map_err(Asked::NoAnswer)
            })
            .await?;
        }
        Ok(())
    }

    async fn read(&self, room: &str, after: u64) -> Result<Vec<String>, StoreError> {
        let Some((mut lines, mut seq)) = self.read_start(room, after).await? else {
            return Ok(Vec::new());
        };
        // A few entries one by one (a room catching up on what another server appended);
        // past that, the rest in one batch (a room loaded, a long absence).
        let singles = lines.len() + SINGLE_READS as usize;
        if self.read_keys(room, &mut seq, &mut lines, singles).await? {
            return Ok(lines);
        }
        lines.extend(self.read_rest(room, seq).await?);
        Ok(lines)
    }

    async fn read_page(
        &self,
        room: &str,
        after: u64,
        most: usize,
    ) -> Result<Vec<String>, StoreError> {
        // One key at a time: a page is a few dozen entries.
        let Some((mut lines, mut seq)) = self.read_start(room, after).await? else {
            return Ok(Vec::new());
        };
        self.read_keys(room, &mut seq, &mut lines, most).await?;
        lines.truncate(most);
        Ok(lines)
    }

    async fn sealed(&self, room: &str, seq: u64) -> Result<Option<SealedRoll>, StoreError> {
        let Some(text) = self.get_text(format!("sealed.{room}.{seq}")).await? else {
            return Ok(None);
        };
        let v: serde_json::Value = serde_json::from_str(&text).map_err(failed)?;
        Ok(Some(SealedRoll {
            salt: v["salt"].as_str().unwrap_or_default().to_string(),
            payload: v["payload"].as_str().unwrap_or_default().to_string(),
        }))
    }

    async fn watch(&self, room: &str) -> Result<Option<mpsc::Receiver<()>>, StoreError> {
        self.connected()?;
        let (tx, rx) = mpsc::channel(1);
        tokio::spawn(keep_watching(self.kv.clone(), format!("room.{room}.*"), tx));
        Ok(Some(rx))
    }
}

/// Signals `tx` whenever a key under `subject` is written, for as long as `tx` has a receiver
/// (the room is loaded). A watch is a consumer, which a cluster may be unable to place for a
/// while (its metadata leader lost): it is tried again, with a growing pause. Each time it
/// starts it signals at once, so the room reads what was appended before it started.
async fn keep_watching(kv: Store, subject: String, tx: mpsc::Sender<()>) {
    let mut pause = Duration::from_millis(100);
    let mut failing_since: Option<Instant> = None;
    loop {
        let started = tokio::select! {
            () = tx.closed() => return,
            started = kv.watch(&subject) => started,
        };
        let mut watch = match started {
            Ok(watch) => watch,
            Err(e) => {
                let since = *failing_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= RIDE_OUT {
                    eprintln!("{subject}: no watch for {} s yet: {e}", RIDE_OUT.as_secs());
                    failing_since = Some(Instant::now());
                }
                tokio::select! {
                    () = tx.closed() => return,
                    () = tokio::time::sleep(pause) => {}
                }
                pause = (pause * 2).min(WATCH_RETRY_MOST);
                continue;
            }
        };
        (failing_since, pause) = (None, Duration::from_millis(100));
        if signal(&tx).is_err() {
            return;
        }
        loop {
            let item = tokio::select! {
                () = tx.closed() => return,
                item = watch.next() => item,
            };
            match item {
                // The watch ended: start another.
                None => break,
                Some(Err(_)) => {}
                Some(Ok(_)) => {
                    if signal(&tx).is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// One pending signal is enough (the room reads everything new): Err when nobody listens.
fn signal(tx: &mpsc::Sender<()>) -> Result<(), ()> {
    match tx.try_send(()) {
        Ok(()) | Err(mpsc::error::TrySendError::Full(())) => Ok(()),
        Err(mpsc::error::TrySendError::Closed(())) => Err(()),
    }
}
