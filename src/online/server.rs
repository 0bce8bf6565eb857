//! `dicetable serve`: rooms over WebSockets (axum), one task per room owning its state, the log
//! in a [`LogStore`]. A proposal is checked (role, rules), thrown with a seed nobody chose,
//! stored, and only then acknowledged and sent to everyone in the room, in log order.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::log::{Entry, Event, HiddenRoll, LOG_FORMAT, Proposal, Role, SeedProof, now_ms};
use super::protocol::{ClientMsg, MAX_MESSAGE, PROTOCOL, ServerMsg, decode};
use super::room::{Checks, RoomState, Simulated, check_gesture, table_digest};
use super::seal::{self, NONCE_BYTES, SALT_BYTES, SECRET_BYTES};
use super::store::{LogStore, RoomKeys, SealedRoll, StoreError};
use super::watch;
use crate::record::Gesture;
use crate::record::build_id;
use crate::rules::scene::Scene;
use crate::stream::feed::FeedEvent;
use crate::stream::pages::{self, Pages};
use crate::stream::server::default_web_dir;

/// How long a new connection may take to say `create` or `join`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// Messages a connection may send per second, and in a burst.
const CONN_RATE: f64 = 20.0;
const CONN_BURST: f64 = 40.0;
/// Throws a room takes per second, and in a burst.
const ROOM_RATE: f64 = 20.0;
const ROOM_BURST: f64 = 40.0;
/// What `append` says when another server stored that place first.
const RACED: &str = "another table server wrote to the room first: propose again";
/// Entries a slow client may fall behind before it is caught up from the store.
const FANOUT: usize = 256;

/// A token bucket: `rate` per second, up to `burst`.
struct Bucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new(rate: f64, burst: f64) -> Bucket {
        Bucket {
            rate,
            burst,
            tokens: burst,
            at: Instant::now(),
        }
    }

    /// Takes a token, or says the limit is reached.
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The server's shared state.
pub struct Hub<S: LogStore> {
    store: Arc<S>,
    rooms: Mutex<HashMap<String, RoomHandle>>,
    next_conn: AtomicU64,
}

/// Throws simulated at once: one per core (more only queue threads and their memory).
fn physics_slots() -> &'static tokio::sync::Semaphore {
    static SLOTS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    SLOTS.get_or_init(|| {
        tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    })
}

/// A running room: its command queue and the feed of its new lines.
#[derive(Clone)]
struct RoomHandle {
    commands: mpsc::Sender<Command>,
    lines: broadcast::Sender<(u64, Arc<str>)>,
}

/// What a connection asks of its room's task.
enum Command {
    Join {
        conn: u64,
        name: String,
        role: Role,
        seats: Vec<String>,
        reply: oneshot::Sender<Result<Joined, String>>,
    },
    Throw {
        conn: u64,
        name: String,
        proposal: Box<Proposed>,
        reply: oneshot::Sender<Result<Done, String>>,
    },
    Reveal {
        conn: u64,
        name: String,
        of: u64,
        reply: oneshot::Sender<Result<Done, String>>,
    },
    Leave {
        conn: u64,
    },
}

/// A throw as proposed.
struct Proposed {
    what: Proposal,
    commitment: String,
    nonce: String,
    gesture: Option<Gesture>,
    hidden: bool,
    label: Option<String>,
}

/// A join's answer.
struct Joined {
    seats: Vec<String>,
    commitment: String,
    head: u64,
    lines: broadcast::Receiver<(u64, Arc<str>)>,
}

/// A stored proposal's answer.
struct Done {
    seq: u64,
    commitment: String,
    sealed: Option<SealedRoll>,
}

/// The router: `GET /{room}` upgrades to the room's WebSocket.
pub fn router<S: LogStore>(store: Arc<S>) -> Router {
    let hub = Arc::new(Hub {
        store,
        rooms: Mutex::new(HashMap::new()),
        next_conn: AtomicU64::new(1),
    });
    let pages = Pages::new(&default_web_dir());
    Router::new()
        .route("/", get(index))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/{room}", get(connect::<S>))
        .route("/{room}/watch", get(watch_page))
        .route("/{room}/feed", get(watch_feed::<S>))
        .with_state(hub)
        .merge(pages::router(pages))
}

async fn index() -> &'static str {
    "dicetable table server: join a room with `dicetable play --join ws://HOST:PORT/ROOM`; \
     follow it in a browser at http://HOST:PORT/ROOM/watch?passcode=P\n"
}

/// Refuses a browser page of another site (a WebSocket has no same-origin rule of its own).
fn origin_allowed(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true; // not a browser
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin
        .split_once("://")
        .map(|(_, rest)| rest)
        .unwrap_or(origin);
    !host.is_empty() && origin_host == host
}

/// The upgrade of a WebSocket route, or its refusal: a page of another origin (403, `foreign`),
/// a plain HTTP request (400, `not_a_socket`).
fn websocket_only(
    headers: &HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    foreign: &'static str,
    not_a_socket: impl FnOnce() -> String,
) -> Result<WebSocketUpgrade, (StatusCode, String)> {
    if !origin_allowed(headers) {
        return Err((StatusCode::FORBIDDEN, foreign.to_string()));
    }
    ws.map_err(|_| (StatusCode::BAD_REQUEST, not_a_socket()))
}

async fn connect<S: LogStore>(
    State(hub): State<Arc<Hub<S>>>,
    Path(room): Path<String>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let ws = match websocket_only(
        &headers,
        ws,
        "this page's origin may not open the room's socket\n",
        || {
            format!(
                "'{room}' is a room: connect with a WebSocket (dicetable play --join ws://HOST:PORT/{room})\n"
            )
        },
    ) {
        Ok(ws) => ws,
        Err(refused) => return refused.into_response(),
    };
    let conn = hub.next_conn.fetch_add(1, Ordering::Relaxed);
    ws.max_message_size(4 * MAX_MESSAGE)
        .on_upgrade(move |socket| session(hub, room, conn, socket))
}

/// Sends a message to the connection's writer (false once it is gone).
async fn say(out: &mpsc::Sender<Message>, msg: ServerMsg) -> bool {
    out.send(Message::Text(msg.to_text().into())).await.is_ok()
}

/// Checks a room name: what a URL path segment holds without escaping.
fn check_room_name(room: &str) -> Result<(), String> {
    let ok = !room.is_empty()
        && room.len() <= 64
        && room
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if pages::RESERVED.contains(&room) {
        Err(format!(
            "'{room}' is a name the room pages use: choose another room name"
        ))
    } else if ok {
        Ok(())
    } else {
        Err(format!(
            "'{room}' is not a room name: 1 to 64 letters, digits, '-', '_' or '.'"
        ))
    }
}

/// One connection: hello, then proposals, while its room's lines are forwarded in order.
async fn session<S: LogStore>(hub: Arc<Hub<S>>, room: String, conn: u64, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = mpsc::channel::<Message>(FANOUT);
    let writer = tokio::spawn(async move {
        while let Some(m) = outbox.recv().await {
            if sink.send(m).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut bucket = Bucket::new(CONN_RATE, CONN_BURST);
    // Hello: create or join, within the time.
    let mut joined = None;
    let deadline = tokio::time::sleep(HELLO_TIMEOUT);
    tokio::pin!(deadline);
    while joined.is_none() {
        let text = tokio::select! {
            _ = &mut deadline => {
                say(&out, ServerMsg::Error { message: "say create or join first (10 s)".into() }).await;
                break;
            }
            m = stream.next() => match m {
                Some(Ok(Message::Text(t))) => t.to_string(),
                Some(Ok(Message::Binary(_))) => {
                    say(&out, ServerMsg::Error { message: "messages are JSON text".into() }).await;
                    continue;
                }
                Some(Ok(_)) => continue,
                _ => break,
            }
        };
        if !bucket.take() {
            say(
                &out,
                ServerMsg::Error {
                    message: "too many messages: at most 20 a second".into(),
                },
            )
            .await;
            continue;
        }
        match decode(&text) {
            Err(message) => {
                say(&out, ServerMsg::Error { message }).await;
            }
            Ok(msg) => match hello(&hub, &room, conn, msg).await {
                Ok(j) => joined = Some(j),
                Err(message) => {
                    say(&out, ServerMsg::Error { message }).await;
                }
            },
        }
    }
    let Some((handle, name, role, j)) = joined else {
        drop(out);
        let _ = writer.await;
        return;
    };
    say(
        &out,
        ServerMsg::Welcome {
            v: PROTOCOL,
            room: room.clone(),
            name: name.clone(),
            role,
            seats: j.0.seats,
            commitment: j.0.commitment,
            head: j.0.head,
        },
    )
    .await;
    let forward = {
        let (store, room, out) = (hub.store.clone(), room.clone(), out.clone());
        tokio::spawn(async move {
            if forward_lines(store, room, j.1, j.0.lines, out.clone(), entry_message)
                .await
                .is_err()
            {
                let message = "the log store failed; connect again".into();
                say(&out, ServerMsg::Error { message }).await;
            }
        })
    };
    while let Some(m) = stream.next().await {
        let text = match m {
            Ok(Message::Text(t)) => t.to_string(),
            Ok(Message::Binary(_)) => {
                say(
                    &out,
                    ServerMsg::Error {
                        message: "messages are JSON text".into(),
                    },
                )
                .await;
                continue;
            }
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => continue,
        };
        if !bucket.take() {
            say(
                &out,
                ServerMsg::Error {
                    message: "too many messages: at most 20 a second".into(),
                },
            )
            .await;
            continue;
        }
        let reply = match decode(&text) {
            Err(message) => ServerMsg::Error { message },
            Ok(ClientMsg::Ping { id }) => ServerMsg::Pong { id },
            Ok(ClientMsg::Create { .. } | ClientMsg::Join { .. }) => ServerMsg::Error {
                message: "already in the room: open another connection to join again".into(),
            },
            Ok(ClientMsg::Throw {
                id,
                what,
                commitment,
                nonce,
                gesture,
                hidden,
                label,
            }) => {
                let (reply, answer) = oneshot::channel();
                let proposal = Box::new(Proposed {
                    what,
                    commitment,
                    nonce,
                    gesture,
                    hidden,
                    label,
                });
                let sent = handle
                    .commands
                    .send(Command::Throw {
                        conn,
                        name: name.clone(),
                        proposal,
                        reply,
                    })
                    .await;
                done_reply(id, sent.is_ok(), answer, &out).await
            }
            Ok(ClientMsg::Reveal { id, of }) => {
                let (reply, answer) = oneshot::channel();
                let sent = handle
                    .commands
                    .send(Command::Reveal {
                        conn,
                        name: name.clone(),
                        of,
                        reply,
                    })
                    .await;
                done_reply(id, sent.is_ok(), answer, &out).await
            }
        };
        if !say(&out, reply).await {
            break;
        }
    }
    let _ = handle.commands.send(Command::Leave { conn }).await;
    forward.abort();
    drop(out);
    let _ = writer.await;
}

/// The answer to a throw or reveal: the ack (and a hidden roll's content), or the refusal.
async fn done_reply(
    id: u64,
    sent: bool,
    answer: oneshot::Receiver<Result<Done, String>>,
    out: &mpsc::Sender<Message>,
) -> ServerMsg {
    if !sent {
        return ServerMsg::Refused {
            id,
            reason: "the room stopped; connect again".into(),
        };
    }
    match answer.await {
        Ok(Ok(done)) => {
            if let Some(s) = done.sealed {
                say(
                    out,
                    ServerMsg::Sealed {
                        seq: done.seq,
                        salt: s.salt,
                        payload: s.payload,
                    },
                )
                .await;
            }
            ServerMsg::Ack {
                id,
                seq: done.seq,
                commitment: done.commitment,
            }
        }
        Ok(Err(reason)) => ServerMsg::Refused { id, reason },
        Err(_) => ServerMsg::Refused {
            id,
            reason: "the room stopped; connect again".into(),
        },
    }
}

type Hello = (RoomHandle, String, Role, (Joined, u64));

/// Creates or joins: the passcode checked, the room running, the member seated.
async fn hello<S: LogStore>(
    hub: &Arc<Hub<S>>,
    room: &str,
    conn: u64,
    msg: ClientMsg,
) -> Result<Hello, String> {
    check_room_name(room)?;
    let (name, role, seats, since) = match msg {
        ClientMsg::Create {
            room: named,
            name,
            scene,
            passcode,
            gm_passcode,
            ..
        } => {
            if named != room {
                return Err(format!(
                    "this socket is room '{room}', the message names '{named}'"
                ));
            }
            create(hub, room, &name, &scene, &passcode, &gm_passcode).await?;
            (name, Role::Gamemaster, Vec::new(), 0)
        }
        ClientMsg::Join {
            room: named,
            name,
            role,
            seats,
            passcode,
            since,
            ..
        } => {
            if named != room {
                return Err(format!(
                    "this socket is room '{room}', the message names '{named}'"
                ));
            }
            let keys = hub
                .store
                .keys(room)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("there is no room '{room}' on this server"))?;
            let kept = if role == Role::Gamemaster {
                keys.gm_passcode
            } else {
                keys.passcode
            };
            let matches = seal::passcode_matches_async(passcode, kept).await;
            if !matches {
                return Err("wrong passcode".into());
            }
            (name, role, seats, since)
        }
        _ => return Err("say create or join first".into()),
    };
    let handle = running_room(hub, room).await?;
    let (reply, answer) = oneshot::channel();
    handle
        .commands
        .send(Command::Join {
            conn,
            name: name.clone(),
            role,
            seats,
            reply,
        })
        .await
        .map_err(|_| "the room stopped; connect again".to_string())?;
    let joined = answer
        .await
        .map_err(|_| "the room stopped; connect again".to_string())??;
    Ok((handle, name, role, (joined, since)))
}

/// Opens a room: the scene read, the passcodes hashed, the first line stored.
async fn create<S: LogStore>(
    hub: &Arc<Hub<S>>,
    room: &str,
    name: &str,
    scene: &str,
    passcode: &str,
    gm_passcode: &str,
) -> Result<(), String> {
    if passcode.is_empty() || gm_passcode.is_empty() {
        return Err("a room needs a passcode and a game master's passcode".into());
    }
    if passcode == gm_passcode {
        return Err("the game master's passcode must differ from the players'".into());
    }
    let parsed = Scene::parse("the scene", scene).map_err(|e| e.to_string())?;
    parsed.validate()?;
    let first = Entry {
        seq: 1,
        prev: seal::GENESIS.into(),
        at_ms: now_ms(),
        event: Event::Created {
            format: LOG_FORMAT,
            room: room.into(),
            gamemaster: name.into(),
            scene: scene.into(),
            table_seed: u64::from_le_bytes(seal::random_bytes()),
            build: build_id(),
        },
    }
    .to_line();
    // The room must open as every client will open it.
    RoomState::open(&first)?;
    let (p, g) = (passcode.to_string(), gm_passcode.to_string());
    let keys = RoomKeys {
        passcode: seal::hash_passcode_async(p).await?,
        gm_passcode: seal::hash_passcode_async(g).await?,
    };
    hub.store
        .create_room(room, keys, first)
        .await
        .map_err(|e| e.to_string())
}

/// The room's task, started from its log if it is not running.
async fn running_room<S: LogStore>(hub: &Arc<Hub<S>>, room: &str) -> Result<RoomHandle, String> {
    if let Some(h) = hub.rooms.lock().ok().and_then(|r| r.get(room).cloned())
        && !h.commands.is_closed()
    {
        return Ok(h);
    }
    let lines = hub.store.read(room, 0).await.map_err(|e| e.to_string())?;
    if lines.is_empty() {
        return Err(format!("there is no room '{room}' on this server"));
    }
    let state = tokio::task::spawn_blocking(move || {
        RoomState::replay(lines.iter().map(String::as_str), Checks::default())
    })
    .await
    .map_err(|e| e.to_string())?
    .map_err(|e| format!("the room's log does not replay: {e}"))?;
    let watch = hub.store.watch(room).await.map_err(|e| e.to_string())?;
    let mut rooms = hub
        .rooms
        .lock()
        .map_err(|_| "the server's rooms are poisoned")?;
    if let Some(h) = rooms.get(room)
        && !h.commands.is_closed()
    {
        return Ok(h.clone());
    }
    let (commands, queue) = mpsc::channel(64);
    let (lines, _) = broadcast::channel(FANOUT);
    let handle = RoomHandle { commands, lines };
    tokio::spawn(room_task(
        hub.store.clone(),
        state,
        queue,
        handle.lines.clone(),
        watch,
    ));
    rooms.insert(room.to_string(), handle.clone());
    Ok(handle)
}

/// Sends a connection the lines after `since` from the store, then the room's new lines in
/// order (from the store again if it fell behind).
async fn forward_lines<S: LogStore, T>(
    store: Arc<S>,
    room: String,
    since: u64,
    mut lines: broadcast::Receiver<(u64, Arc<str>)>,
    out: mpsc::Sender<T>,
    wrap: fn(String) -> T,
) -> Result<(), StoreError> {
    let mut last = since;
    let mut catch_up = true;
    loop {
        if catch_up {
            for line in store.read(&room, last).await? {
                last += 1;
                if out.send(wrap(line)).await.is_err() {
                    return Ok(());
                }
            }
            catch_up = false;
        }
        match lines.recv().await {
            Ok((seq, line)) if seq > last => {
                if seq != last + 1 {
                    catch_up = true;
                    continue;
                }
                last = seq;
                if out.send(wrap(line.to_string())).await.is_err() {
                    return Ok(());
                }
            }
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(_)) => catch_up = true,
            Err(broadcast::error::RecvError::Closed) => return Ok(()),
        }
    }
}

/// A log line as the room's `entry` message.
fn entry_message(line: String) -> Message {
    Message::Text(ServerMsg::Entry { line }.to_text().into())
}

/// A room's task: the only writer of its log on this server.
async fn room_task<S: LogStore>(
    store: Arc<S>,
    mut state: RoomState,
    mut queue: mpsc::Receiver<Command>,
    lines: broadcast::Sender<(u64, Arc<str>)>,
    mut watch: Option<mpsc::Receiver<()>>,
) {
    let mut secrets: HashMap<u64, [u8; SECRET_BYTES]> = HashMap::new();
    let mut bucket = Bucket::new(ROOM_RATE, ROOM_BURST);
    loop {
        let cmd = tokio::select! {
            cmd = queue.recv() => match cmd {
                Some(cmd) => cmd,
                None => break,
            },
            Some(()) = async { match watch.as_mut() { Some(w) => w.recv().await, None => std::future::pending().await } } => {
                // Another server appended: read it, send it on.
                if let Err(e) = catch_up(&store, &mut state, &lines).await {
                    eprintln!("room {}: {e}", state.room);
                }
                continue;
            }
        };
        match cmd {
            Command::Leave { conn } => {
                secrets.remove(&conn);
            }
            Command::Join {
                conn,
                name,
                role,
                seats,
                reply,
            } => {
                let result = join(&store, &mut state, &lines, &name, role, &seats).await;
                let answer = result.map(|head| {
                    let secret = seal::random_bytes();
                    let commitment = seal::commitment(&secret);
                    secrets.insert(conn, secret);
                    Joined {
                        seats,
                        commitment,
                        head,
                        lines: lines.subscribe(),
                    }
                });
                let _ = reply.send(answer);
            }
            Command::Throw {
                conn,
                name,
                proposal,
                reply,
            } => {
                let result = if bucket.take() {
                    throw(
                        &store,
                        &mut state,
                        &lines,
                        &mut secrets,
                        conn,
                        &name,
                        *proposal,
                    )
                    .await
                } else {
                    Err("the room is busy: at most 20 throws a second".into())
                };
                let _ = reply.send(result);
            }
            Command::Reveal {
                conn,
                name,
                of,
                reply,
            } => {
                let result = reveal(&store, &mut state, &lines, &name, of)
                    .await
                    .map(|seq| Done {
                        seq,
                        commitment: secrets
                            .get(&conn)
                            .map(|s| seal::commitment(s))
                            .unwrap_or_default(),
                        sealed: None,
                    });
                let _ = reply.send(result);
            }
        }
    }
}

/// Stores an event as the room's next line, applies it, sends it out. A conflict (another
/// node appended first) reloads the room from the store.
async fn append<S: LogStore>(
    store: &Arc<S>,
    state: &mut RoomState,
    lines: &broadcast::Sender<(u64, Arc<str>)>,
    event: Event,
    sealed: Option<SealedRoll>,
) -> Result<u64, String> {
    let seq = state.seq + 1;
    let line = Entry {
        seq,
        prev: state.head.clone(),
        at_ms: now_ms(),
        event,
    }
    .to_line();
    let mut next = state.clone();
    next.apply_line(&line, Checks::default())
        .map_err(|e| format!("the server made an entry it cannot apply: {e}"))?;
    match store.append(&state.room, seq, line.clone(), sealed).await {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => {
            catch_up(store, state, lines).await?;
            return Err(RACED.into());
        }
        Err(e) => return Err(e.to_string()),
    }
    *state = next;
    let _ = lines.send((seq, line.into()));
    Ok(seq)
}

/// Reads what other servers appended, applies it and sends it on.
async fn catch_up<S: LogStore>(
    store: &Arc<S>,
    state: &mut RoomState,
    lines: &broadcast::Sender<(u64, Arc<str>)>,
) -> Result<(), String> {
    let more = store
        .read(&state.room, state.seq)
        .await
        .map_err(|e| e.to_string())?;
    for line in more {
        let entry = state.apply_line(&line, Checks::default())?;
        let _ = lines.send((entry.seq, line.into()));
    }
    Ok(())
}

async fn join<S: LogStore>(
    store: &Arc<S>,
    state: &mut RoomState,
    lines: &broadcast::Sender<(u64, Arc<str>)>,
    name: &str,
    role: Role,
    seats: &[String],
) -> Result<u64, String> {
    catch_up(store, state, lines).await?;
    let wanted = state.may_join(name, role, seats)?;
    let same = state
        .members
        .get(name)
        .is_some_and(|m| m.role == role && m.seats == wanted);
    if !same {
        append(
            store,
            state,
            lines,
            Event::Joined {
                name: name.into(),
                role,
                seats: seats.to_vec(),
            },
            None,
        )
        .await?;
    }
    Ok(state.seq)
}

async fn throw<S: LogStore>(
    store: &Arc<S>,
    state: &mut RoomState,
    lines: &broadcast::Sender<(u64, Arc<str>)>,
    secrets: &mut HashMap<u64, [u8; SECRET_BYTES]>,
    conn: u64,
    name: &str,
    p: Proposed,
) -> Result<Done, String> {
    catch_up(store, state, lines).await?;
    let secret = *secrets.get(&conn).ok_or("join first")?;
    let commitment = seal::commitment(&secret);
    if !seal::same(&p.commitment, &commitment) {
        return Err(format!(
            "that is not the commitment you were given; use {commitment}"
        ));
    }
    let nonce = seal::unhex(&p.nonce, NONCE_BYTES, "the nonce")?;
    if let Some(g) = &p.gesture {
        check_gesture(g)?;
    }
    if let Some(label) = &p.label
        && label.len() > 200
    {
        return Err("a label is at most 200 bytes".into());
    }
    // Another server may take the place first: then read its entry and throw again.
    let mut tries = 0;
    let (seq, sealed) = loop {
        state.may(name, &p.what, p.hidden)?;
        match throw_next(store, state, lines, name, &p, &secret, &nonce).await {
            Err(e) if e == RACED && tries < 8 => tries += 1,
            other => break other?,
        }
    };
    // A fresh secret for the thrower's next throw (the old one is revealed now).
    let next = seal::random_bytes();
    secrets.insert(conn, next);
    Ok(Done {
        seq,
        commitment: seal::commitment(&next),
        sealed,
    })
}

/// Throws a proposal as the room's next entry and stores it: its `seq` and hidden content.
#[allow(clippy::too_many_arguments)]
async fn throw_next<S: LogStore>(
    store: &Arc<S>,
    state: &mut RoomState,
    lines: &broadcast::Sender<(u64, Arc<str>)>,
    name: &str,
    p: &Proposed,
    secret: &[u8; SECRET_BYTES],
    nonce: &[u8],
) -> Result<(u64, Option<SealedRoll>), String> {
    let commitment = seal::commitment(secret);
    let (secret, nonce) = (*secret, nonce.to_vec());
    let seq = state.seq + 1;
    let proof = SeedProof {
        commitment,
        secret: seal::hex(&secret),
        nonce: p.nonce.clone(),
        gesture: p.gesture,
    };
    let simulated = {
        let (state, name, what, label, proof) = (
            state.clone(),
            name.to_string(),
            p.what.clone(),
            p.label.clone(),
            proof.clone(),
        );
        let _slot = physics_slots().acquire().await.map_err(|e| e.to_string())?;
        tokio::task::spawn_blocking(move || {
            state.simulate(&name, &what, label, proof, seq, &secret, &nonce)
        })
        .await
        .map_err(|e| e.to_string())??
    };
    let (event, sealed) = match simulated {
        Simulated::Played { said, table } => (
            Event::Played {
                by: name.into(),
                mv: match &p.what {
                    Proposal::Move(mv) => mv.clone(),
                    Proposal::Notation(_) => return Err("a free roll throws dice".into()),
                },
                said,
                state: table_digest(&table),
            },
            None,
        ),
        Simulated::Throw {
            record,
            said,
            table,
        } if !p.hidden => (
            Event::Thrown {
                by: name.into(),
                what: p.what.clone(),
                proof,
                record,
                said,
                state: table_digest(&table),
            },
            None,
        ),
        Simulated::Throw { record, .. } => {
            let Proposal::Notation(notation) = &p.what else {
                return Err("a hidden roll is a free roll".into());
            };
            let payload = serde_json::to_string(&HiddenRoll {
                notation: notation.clone(),
                proof: proof.clone(),
                record: *record,
            })
            .map_err(|e| e.to_string())?;
            let salt: [u8; SALT_BYTES] = seal::random_bytes();
            let sealed = seal::seal(&salt, &payload);
            (
                Event::Hidden {
                    by: name.into(),
                    notation: notation.clone(),
                    label: p.label.clone(),
                    commitment: proof.commitment.clone(),
                    sealed,
                },
                Some(SealedRoll {
                    salt: seal::hex(&salt),
                    payload,
                }),
            )
        }
    };
    let seq = append(store, state, lines, event, sealed.clone()).await?;
    Ok((seq, sealed))
}

async fn reveal<S: LogStore>(
    store: &Arc<S>,
    state: &mut RoomState,
    lines: &broadcast::Sender<(u64, Arc<str>)>,
    name: &str,
    of: u64,
) -> Result<u64, String> {
    catch_up(store, state, lines).await?;
    let note = state
        .hidden
        .get(&of)
        .ok_or_else(|| format!("entry {of} is not a hidden roll"))?;
    if note.by != name {
        return Err(format!("only {} can reveal that roll", note.by));
    }
    if note.revealed.is_some() {
        return Err(format!("the hidden roll {of} is revealed already"));
    }
    let sealed = store
        .sealed(&state.room, of)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("the content of hidden roll {of} is not in the store"))?;
    append(
        store,
        state,
        lines,
        Event::Revealed {
            of,
            salt: sealed.salt,
            payload: sealed.payload,
        },
        None,
    )
    .await
}

/// `GET /{room}/watch`: the room's page for a browser or OBS (the overlay page, following the
/// room's feed). `?passcode=` the players' passcode; the overlay's options apply.
async fn watch_page() -> Response {
    pages::html(pages::OVERLAY_HTML)
}

/// What a room's page sends along.
#[derive(serde::Deserialize)]
struct WatchQuery {
    #[serde(default)]
    passcode: String,
}

/// `GET /{room}/feed`: the room as the overlay's feed events (WebSocket). Read-only: a page
/// is not a member and writes nothing to the log.
async fn watch_feed<S: LogStore>(
    State(hub): State<Arc<Hub<S>>>,
    Path(room): Path<String>,
    query: Result<Query<WatchQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let ws = match websocket_only(
        &headers,
        ws,
        "this page's origin may not open the room's feed\n",
        || format!("the feed of '{room}' is a WebSocket: open http://HOST:PORT/{room}/watch\n"),
    ) {
        Ok(ws) => ws,
        Err(refused) => return refused.into_response(),
    };
    let passcode = query.map(|Query(q)| q.passcode).unwrap_or_default();
    ws.on_upgrade(move |socket| watch_session(hub, room, passcode, socket))
}

/// Checks a page's passcode (the players' or the game master's) and finds the running room.
async fn watch_room<S: LogStore>(
    hub: &Arc<Hub<S>>,
    room: &str,
    passcode: String,
) -> Result<RoomHandle, String> {
    check_room_name(room)?;
    let keys = hub
        .store
        .keys(room)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("there is no room '{room}' on this server"))?;
    if passcode.is_empty() {
        return Err("this room's page needs the passcode: add ?passcode=… to its address".into());
    }
    let players = seal::passcode_matches_async(passcode.clone(), keys.passcode).await;
    if !players && !seal::passcode_matches_async(passcode, keys.gm_passcode).await {
        return Err("wrong passcode".into());
    }
    running_room(hub, room).await
}

/// One page: the latest outcomes, then every new entry as it is stored, each throw with its
/// motion (re-simulated from its record, one per core at a time).
async fn watch_session<S: LogStore>(
    hub: Arc<Hub<S>>,
    room: String,
    passcode: String,
    socket: WebSocket,
) {
    let (mut sink, mut stream) = socket.split();
    let send = |event: FeedEvent| Message::Text(event.to_json().into());
    let handle = match watch_room(&hub, &room, passcode).await {
        Ok(h) => h,
        Err(error) => {
            let _ = sink.send(send(FeedEvent::Error { error })).await;
            let _ = sink.close().await;
            return;
        }
    };
    // Subscribe first, then read: nothing falls between the stored lines and the new ones.
    let lines = handle.lines.subscribe();
    let caught = match hub.store.read(&room, 0).await {
        Ok(stored) => {
            let since = stored.len() as u64;
            tokio::task::spawn_blocking(move || watch::catch_up(&stored))
                .await
                .map_err(|e| e.to_string())
                .and_then(|r| r)
                .map(|(w, recent)| (w, recent, since))
        }
        Err(e) => Err(e.to_string()),
    };
    let (mut view, recent, since) = match caught {
        Ok(c) => c,
        Err(error) => {
            let _ = sink.send(send(FeedEvent::Error { error })).await;
            return;
        }
    };
    let hello = FeedEvent::Hello {
        table: view.table(),
        recent,
    };
    if sink.send(send(hello)).await.is_err() {
        return;
    }
    let (tx, mut new_lines) = mpsc::channel::<String>(FANOUT);
    let forward = tokio::spawn(forward_lines(
        hub.store.clone(),
        room.clone(),
        since,
        lines,
        tx,
        |line| line,
    ));
    loop {
        let line = tokio::select! {
            line = new_lines.recv() => match line {
                Some(line) => line,
                None => break,
            },
            m = stream.next() => match m {
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => continue,
            },
        };
        let Ok(_slot) = physics_slots().acquire().await else {
            break;
        };
        let seen = tokio::task::spawn_blocking(move || {
            let events = view.see(&line, true);
            (view, events)
        })
        .await;
        let Ok((v, events)) = seen else {
            let error = "the room's page stopped: open it again".to_string();
            let _ = sink.send(send(FeedEvent::Error { error })).await;
            break;
        };
        view = v;
        let events = match events {
            Ok(events) => events,
            Err(error) => vec![FeedEvent::Error { error }],
        };
        for event in events {
            let stop = matches!(event, FeedEvent::Error { .. });
            if sink.send(send(event)).await.is_err() || stop {
                forward.abort();
                return;
            }
        }
    }
    forward.abort();
}

/// Serves until the process ends: prints `listening on ws://ADDR` once bound.
pub async fn serve<S: LogStore>(addr: SocketAddr, store: Arc<S>) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!("listening on ws://{local}");
    // Small messages, sent at once: no Nagle delay on the room's frames.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router(store))
        .await
        .map_err(|e| e.to_string())
}
