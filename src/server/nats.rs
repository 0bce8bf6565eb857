//! The NATS JetStream store: room logs in a key-value bucket (`dicetable-rooms`), so several
//! table servers serve the same rooms. Entry `seq` of a room is key `room.<room>.<seq>`, written
//! with `create` (it fails when the key exists: two nodes cannot both append entry `seq`); the
//! keys are `keys.<room>`, a hidden roll's content `sealed.<room>.<seq>`. A watch on
//! `room.<room>.*` tells a node what the others appended.

use async_nats::jetstream::kv::{CreateErrorKind, Store};
use async_nats::jetstream::stream;
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::store::{LogStore, RoomKeys, StoreError};
use crate::online::log::SealedRoll;

/// The bucket's name.
pub const BUCKET: &str = "dicetable-rooms";

fn failed(e: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(format!("NATS: {e}"))
}

/// Room logs in NATS JetStream.
#[derive(Clone)]
pub struct NatsStore {
    kv: Store,
}

impl NatsStore {
    /// Connects and opens (or makes) the bucket.
    pub async fn connect(url: &str) -> Result<NatsStore, StoreError> {
        let client = async_nats::connect(url)
            .await
            .map_err(|e| StoreError::Failed(format!("cannot reach NATS at {url}: {e}")))?;
        let js = async_nats::jetstream::new(client);
        if js.get_key_value(BUCKET).await.is_err() {
            // The bucket's stream, made as `create_key_value` makes it, without the account
            // query that Debian's nats-server 2.9 answers in a form this client cannot read.
            let made = js
                .create_stream(stream::Config {
                    name: format!("KV_{BUCKET}"),
                    description: Some("dicetable room logs".into()),
                    subjects: vec![format!("$KV.{BUCKET}.>")],
                    max_messages_per_subject: 1,
                    max_message_size: 1 << 20,
                    storage: stream::StorageType::File,
                    allow_rollup: true,
                    deny_delete: true,
                    allow_direct: true,
                    discard: stream::DiscardPolicy::New,
                    num_replicas: 1,
                    ..stream::Config::default()
                })
                .await;
            if let Err(e) = made {
                // Another server may have made it meanwhile.
                if js.get_key_value(BUCKET).await.is_err() {
                    return Err(StoreError::Failed(format!(
                        "NATS at {url} has no JetStream bucket {BUCKET} and cannot make one (is JetStream on? nats-server -js): {e}"
                    )));
                }
            }
        }
        let kv = js.get_key_value(BUCKET).await.map_err(failed)?;
        Ok(NatsStore { kv })
    }

    async fn get_text(&self, key: String) -> Result<Option<String>, StoreError> {
        let value = self.kv.get(key).await.map_err(failed)?;
        value
            .map(|b| String::from_utf8(b.to_vec()).map_err(failed))
            .transpose()
    }
}

impl LogStore for NatsStore {
    async fn create_room(
        &self,
        room: &str,
        keys: RoomKeys,
        first: String,
    ) -> Result<(), StoreError> {
        let value = serde_json::json!({"passcode": keys.passcode, "gm_passcode": keys.gm_passcode});
        match self
            .kv
            .create(format!("keys.{room}"), Bytes::from(value.to_string()))
            .await
        {
            Ok(_) => {}
            Err(e) if e.kind() == CreateErrorKind::AlreadyExists => {
                return Err(StoreError::Exists(room.into()));
            }
            Err(e) => return Err(failed(e)),
        }
        self.append(room, 1, first, None).await
    }

    async fn keys(&self, room: &str) -> Result<Option<RoomKeys>, StoreError> {
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
        match self
            .kv
            .create(format!("room.{room}.{seq}"), Bytes::from(line))
            .await
        {
            Ok(_) => {}
            Err(e) if e.kind() == CreateErrorKind::AlreadyExists => {
                return Err(StoreError::Conflict(seq));
            }
            Err(e) => return Err(failed(e)),
        }
        if let Some(s) = sealed {
            let value = serde_json::json!({"salt": s.salt, "payload": s.payload});
            self.kv
                .put(
                    format!("sealed.{room}.{seq}"),
                    Bytes::from(value.to_string()),
                )
                .await
                .map_err(failed)?;
        }
        Ok(())
    }

    async fn read(&self, room: &str, after: u64) -> Result<Vec<String>, StoreError> {
        let mut lines = Vec::new();
        let mut seq = after + 1;
        while let Some(line) = self.get_text(format!("room.{room}.{seq}")).await? {
            lines.push(line);
            seq += 1;
        }
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
        let mut watch = self
            .kv
            .watch(format!("room.{room}.*"))
            .await
            .map_err(failed)?;
        let (tx, rx) = mpsc::channel(1);
        tokio::spawn(async move {
            while let Some(item) = watch.next().await {
                if item.is_err() {
                    continue;
                }
                // One pending signal is enough: the room reads everything new.
                match tx.try_send(()) {
                    Ok(()) | Err(mpsc::error::TrySendError::Full(())) => {}
                    Err(mpsc::error::TrySendError::Closed(())) => break,
                }
            }
        });
        Ok(Some(rx))
    }
}
