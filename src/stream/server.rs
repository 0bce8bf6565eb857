//! The table's HTTP server (axum on its own tokio runtime, in its own thread): the overlay page
//! and what it loads, the feed (WebSocket), and the roll API, on the shared network layer
//! (`crate::net`: token, errors, runtime, pages, the feed's socket loop). It knows records and
//! feed events, not physics or rules. A free roll is rolled here, off the window's frames,
//! through the roll path as `roll` rolls it (headless); its record then goes to the app to be
//! shown on the felt, and is answered once shown. The app takes its jobs through a
//! [`TableLink`] and publishes events.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Query, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::api::{self, ApiError, Asker, MAX_BODY, MoveBody, RollOrder};
use crate::net::auth;
use crate::net::bell::Bell;
use crate::net::feed::{FeedEvent, TableInfo};
use crate::net::pages::{self, Pages};
use crate::net::runtime::{ConnectionLimits, NetError, Threads, in_own_thread, listen, serve};
use crate::net::socket::{FEED_MESSAGE_MAX, Next as FeedNext, hello_then_forward, ping_every};
use crate::online::log::RollMode;
use crate::record::{Cocked, RollRecord};
use crate::rules::play::Move;
use crate::rules::table::TableState;

/// Rolls that may wait for the table; one more makes a 429.
pub const QUEUE: usize = 8;
/// Outcomes a new feed connection is sent.
const RECENT: usize = 20;
/// How long an API roll waits for its dice.
const ROLL_TIMEOUT: Duration = Duration::from_secs(300);

/// Where and how to serve.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// The address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// The token requests must carry (required off loopback).
    pub token: Option<String>,
    /// Serve https and wss with this certificate (None: plain http).
    pub tls: Option<crate::net::tls::TlsFiles>,
    /// The pages' security headers (`play --frame-ancestors`).
    pub headers: crate::net::headers::Policy,
    /// The names it is reached by besides its addresses and `localhost` (`play --host`).
    pub hosts: Vec<String>,
}

/// Why the stream server does not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Off loopback without a token.
    #[error("listening on {0} (not this machine only) needs a token: add --token SECRET")]
    NeedsToken(SocketAddr),
    /// The address or the runtime.
    #[error(transparent)]
    Net(#[from] NetError),
}

impl ServerOptions {
    /// Refuses a non-loopback address without a token, and TLS files that do not serve.
    pub fn check(&self) -> Result<(), StartError> {
        if !self.addr.ip().is_loopback() && self.token.as_deref().is_none_or(str::is_empty) {
            return Err(StartError::NeedsToken(self.addr));
        }
        if let Some(files) = &self.tls {
            crate::net::tls::load(files).map_err(NetError::Tls)?;
        }
        Ok(())
    }

    /// How its pages are reached: `https` with TLS, else `http`.
    pub fn scheme(&self) -> &'static str {
        if self.tls.is_some() { "https" } else { "http" }
    }
}

/// A job for the table: a free roll to show, or a move, and where its answer goes.
pub enum Job {
    /// Show a roll already rolled (its record, the truth: a free roll, or a move rolled on the
    /// table the window gave), and say when it has been shown.
    Show {
        /// The roll, rolled through the roll path.
        record: Box<RollRecord>,
        /// Who rolled it and what for.
        asker: Asker,
        /// For a move: the move and the table it was rolled on; the window shows it only on
        /// that table, and applies it there.
        on: Option<Box<OnTable>>,
        /// Ok once its dice have settled on the felt (the API answers then).
        shown: oneshot::Sender<Result<(), ApiError>>,
    },
    /// Propose a throw to the window's room (`play --join`), in a roll mode (None: the room's
    /// default), and say what the room logged.
    Propose {
        /// What to throw.
        what: RoomThrow,
        /// What for.
        label: Option<String>,
        /// Who sees it.
        mode: Option<RollMode>,
        /// The room's entry, or why it refused.
        reply: oneshot::Sender<Result<Logged, ApiError>>,
    },
    /// Say what the window's table is and which move is drafted there, for the API to roll.
    Draft {
        /// The seed asked for (None: the window's next).
        seed: Option<u64>,
        /// The table and the move, or why there is none.
        reply: oneshot::Sender<Result<Drafted, ApiError>>,
    },
}

/// What the API throws at a room: a free roll, or the move drafted in the window.
#[derive(Clone, Debug)]
pub enum RoomThrow {
    /// A free roll.
    Notation(String),
    /// The window's drafted move.
    DraftedMove,
}

/// A throw the room logged, as the API answers it: its entry, who sees it, and its roll where
/// the window's member may see it (not a blind roll, whose roller sees only that it was
/// thrown).
#[derive(Clone, Debug)]
pub struct Logged {
    /// The entry's `seq`.
    pub seq: u64,
    /// Who sees it.
    pub mode: RollMode,
    /// The roll, where the member sees it (None for a move without dice).
    pub record: Option<RollRecord>,
}

/// A move rolled on the window's table: the move, and the table's state it was rolled on
/// ([`TableState::canonical_state`]).
#[derive(Clone, Debug)]
pub struct OnTable {
    /// The move.
    pub mv: Move,
    /// The table's state when it was drafted.
    pub state: String,
}

/// The window's table and its drafted move, for `POST /api/move` to roll headless through the
/// roll path (as `POST /api/roll` rolls a notation).
#[derive(Clone, Debug)]
pub struct Drafted {
    /// The table as it is.
    pub table: TableState,
    /// The scene's name (a record names it).
    pub scene: String,
    /// The drafted move.
    pub mv: Move,
    /// Its seed.
    pub seed: u64,
}

/// What the server remembers: the history, the table, the latest outcomes.
#[derive(Default)]
struct Memory {
    history: Vec<RollRecord>,
    recent: VecDeque<FeedEvent>,
    table: TableInfo,
}

struct Shared {
    feed: broadcast::Sender<Arc<str>>,
    jobs: mpsc::Sender<Job>,
    /// Places of free rolls from their roll to their answer ([`QUEUE`] at most).
    rolling: Arc<tokio::sync::Semaphore>,
    /// Held by the free roll being rolled: one at a time, in the order asked.
    one_roll: tokio::sync::Mutex<()>,
    memory: Mutex<Memory>,
    token: Option<String>,
    pages: Arc<Pages>,
    /// The port served: without a token, requests must name this machine at it.
    port: u16,
    /// With a token, the names requests may use besides addresses and `localhost`.
    hosts: Vec<String>,
    /// Rung when a job is queued: the app may be asleep (a window whose table is still).
    bell: Mutex<Bell>,
    /// Whether the window is at a table server's room: its throws are proposed there.
    at_a_room: std::sync::atomic::AtomicBool,
}

/// The app's end of the server: jobs to take, events to publish.
pub struct TableLink {
    jobs: mpsc::Receiver<Job>,
    shared: Arc<Shared>,
}

impl TableLink {
    /// The next job waiting, if any.
    pub fn next_job(&mut self) -> Option<Job> {
        self.jobs.try_recv().ok()
    }

    /// How to wake the app when a job comes for it (a window draws no frames while its table
    /// is still).
    pub fn ring_on_jobs(&self, bell: Bell) {
        if let Ok(mut ours) = self.shared.bell.lock() {
            *ours = bell;
        }
    }

    /// Says the window is at a table server's room (`play --join`): the API's throws are
    /// proposed to the room ([`Job::Propose`]), whose server seeds them.
    pub fn at_a_room(&self) {
        self.shared
            .at_a_room
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Sends an event to every feed connection (and remembers outcomes and the table).
    pub fn publish(&self, event: FeedEvent) {
        if let Ok(mut memory) = self.shared.memory.lock() {
            match &event {
                FeedEvent::Outcome { record, .. } => {
                    memory.history.push((**record).clone());
                    memory.recent.push_back(event.clone());
                    while memory.recent.len() > RECENT {
                        memory.recent.pop_front();
                    }
                }
                FeedEvent::Table(info) => memory.table = info.clone(),
                _ => {}
            }
        }
        // No one listening is fine.
        let _ = self.shared.feed.send(event.to_json().into());
    }
}

/// Binds the address and serves in a thread of its own. Returns the bound address (the port
/// chosen when 0 was asked) and the app's link.
pub fn start(options: &ServerOptions) -> Result<(SocketAddr, TableLink), StartError> {
    options.check()?;
    let tls = match &options.tls {
        Some(files) => Some(crate::net::tls::Tls::new(files.clone()).map_err(NetError::Tls)?),
        None => None,
    };
    let (listener, addr) = listen(options.addr)?;
    let (jobs_tx, jobs_rx) = mpsc::channel(QUEUE);
    let (feed, _) = broadcast::channel(1024);
    let shared = Arc::new(Shared {
        feed,
        jobs: jobs_tx,
        rolling: Arc::new(tokio::sync::Semaphore::new(QUEUE)),
        one_roll: tokio::sync::Mutex::new(()),
        memory: Mutex::new(Memory::default()),
        token: options.token.clone().filter(|t| !t.is_empty()),
        pages: Pages::new(),
        port: addr.port(),
        hosts: options.hosts.clone(),
        bell: Mutex::new(Bell::default()),
        at_a_room: std::sync::atomic::AtomicBool::new(false),
    });
    let app = router(shared.clone()).layer(middleware::from_fn_with_state(
        Arc::new(options.headers.clone()),
        crate::net::headers::secure,
    ));
    in_own_thread(
        "dicetable-server",
        Threads::Workers(2),
        move || async move {
            if let Err(e) = serve(listener, app, ConnectionLimits::default(), tls).await {
                eprintln!("error: {e}");
            }
        },
    )?;
    Ok((
        addr,
        TableLink {
            jobs: jobs_rx,
            shared,
        },
    ))
}

fn router(shared: Arc<Shared>) -> Router {
    // The page and the dice it draws are public; the feed and the API need the token (where
    // one is set) and a page of this server.
    let guarded = api_routes()
        .route("/feed", get(feed))
        .layer(middleware::from_fn_with_state(
            shared.clone(),
            require_token,
        ));
    Router::new()
        .route("/", get(|| async { Redirect::to("/overlay") }))
        .merge(pages::router(shared.pages.clone()))
        .merge(guarded)
        .fallback(|uri: axum::http::Uri| async move { ApiError::NotFound(uri.path().to_string()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(
            shared.clone(),
            this_machine_only,
        ))
        .with_state(shared)
}

/// Without a token, every request names this machine (`127.0.0.1`, `localhost`, `[::1]`) at
/// the port served: a page of another site re-pointed here by its DNS is refused. With a
/// token (other machines reach it), a request names an address, `localhost` or a name given
/// with `play --host`: the token guards, and no page of another site gets the table by its own
/// name either.
async fn this_machine_only(
    State(shared): State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    let served = match shared.token {
        None => auth::host_is_this_machine(request.headers(), shared.port),
        Some(_) => auth::host_is_served(request.headers(), &shared.hosts),
    };
    if !served {
        let host = header_text(request.headers(), axum::http::header::HOST);
        return ApiError::ForeignHost(host).into_response();
    }
    next.run(request).await
}

/// The roll API.
fn api_routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/roll", post(roll))
        .route("/api/move", post(play_move))
        .route("/api/history", get(history))
}

/// A feed or API request comes from no page or one of this server's (the overlay), and, with a
/// token set, carries it: `Authorization: Bearer T`, or `?token=T`.
async fn require_token(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
    request: Request,
    next: Next,
) -> Response {
    if !auth::origin_allowed(request.headers()) {
        let origin = header_text(request.headers(), axum::http::header::ORIGIN);
        return ApiError::ForeignOrigin(origin).into_response();
    }
    let Some(token) = &shared.token else {
        return next.run(request).await;
    };
    let given = query.get("token").map(String::as_str);
    if auth::has_token(request.headers(), given, token) {
        next.run(request).await
    } else {
        ApiError::Unauthorized.into_response()
    }
}

/// A header's value as text, for an error that quotes it (empty when absent).
fn header_text(headers: &HeaderMap, name: axum::http::header::HeaderName) -> String {
    headers
        .get(name)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .unwrap_or_default()
}

/// A `POST` body must be declared JSON: what a page of another site can send without asking
/// (`text/plain`, a form) is refused.
fn json_only(headers: &HeaderMap) -> Result<(), ApiError> {
    if auth::is_json(headers) {
        Ok(())
    } else {
        Err(ApiError::NotJson)
    }
}

/// The body, or why it could not be read (too large: 413).
fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge
        } else {
            ApiError::Malformed(e.body_text())
        }
    })
}

/// Queues a job and waits for its answer.
async fn queue_and_wait<T>(
    shared: &Shared,
    job: impl FnOnce(oneshot::Sender<Result<T, ApiError>>) -> Job,
) -> Result<T, ApiError> {
    let (tx, rx) = oneshot::channel();
    shared.jobs.try_send(job(tx)).map_err(|e| match e {
        mpsc::error::TrySendError::Full(_) => ApiError::QueueFull(QUEUE),
        mpsc::error::TrySendError::Closed(_) => ApiError::Closed,
    })?;
    if let Ok(bell) = shared.bell.lock() {
        bell.ring();
    }
    match tokio::time::timeout(ROLL_TIMEOUT, rx).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(_)) => Err(ApiError::Closed),
        Err(_) => Err(ApiError::Timeout(ROLL_TIMEOUT.as_secs())),
    }
}

/// Rolls a checked notation through the roll path, headless, one roll at a time (in the order
/// asked): the record, or the roll path's own error.
async fn roll_headless(shared: &Shared, order: &RollOrder) -> Result<RollRecord, ApiError> {
    let _one_at_a_time = shared.one_roll.lock().await;
    let notation = order.notation.clone();
    let seed = order.seed.unwrap_or_else(rand::random);
    let rolled = tokio::task::spawn_blocking(move || {
        crate::roll::headless::record_notation(&notation, seed, None, Cocked::default())
    })
    .await
    .map_err(|e| ApiError::Failed(e.to_string()))?;
    let (_, mut record) = rolled.map_err(ApiError::Roll)?;
    record.who = order.asker.who.clone();
    record.label = order.asker.label.clone();
    Ok(record)
}

fn answer(record: RollRecord) -> Response {
    axum::Json(answer_json(record)).into_response()
}

/// A roll as the API answers it: its total (and exactly), outcome, faces, replay code and
/// record; a free roll's dice as shown.
fn answer_json(record: RollRecord) -> serde_json::Value {
    let code = record.code();
    let read = crate::roll::read_record(&record);
    // A fraction's total (`3d6/2`) is a number for a bot to use, and exact beside it.
    let mut out = serde_json::json!({
        "total": record.total.map(crate::odds::Total::to_json_number),
        "total_exact": record.total.map(crate::odds::Total::exact),
        "outcome": record.outcome,
        "faces": record.faces,
        "code": code,
        "record": record,
    });
    // A free roll's dice as shown (kept, dropped, rerolled, exploded, successes) and its
    // successes where it counts them.
    if let Some(read) = read {
        out["shown"] = serde_json::json!(read.dice);
        out["text"] = serde_json::json!(read.shown);
        out["measure"] = serde_json::json!(read.measure.word());
        if read.measure == crate::odds::notation::Measure::Successes {
            out["successes"] = serde_json::json!(read.total);
        }
    }
    out
}

/// `POST /api/roll`: throws a notation on the table and answers with its record once the
/// dice settle.
async fn roll(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    json_only(&headers)?;
    let order = api::roll_order(&body_bytes(body)?)?;
    // A free roll holds its place from its roll to its answer: [`QUEUE`] at most, together.
    let _place = shared
        .rolling
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError::QueueFull(QUEUE))?;
    if let Some(room) = at_a_room(&shared, order.seed, order.mode)? {
        let what = RoomThrow::Notation(order.notation.source().to_string());
        return room.propose(what, order.asker.label, order.mode).await;
    }
    let record = roll_headless(&shared, &order).await?;
    queue_and_wait(&shared, |shown| Job::Show {
        record: Box::new(record.clone()),
        asker: order.asker,
        on: None,
        shown,
    })
    .await?;
    Ok(answer(record))
}

/// Rolls the window's drafted move through the roll path, headless: the rules' verdict, then
/// the throws; the record, or the roll path's own error by its code.
async fn roll_move_headless(drafted: Drafted, asker: &Asker) -> Result<RollRecord, ApiError> {
    let Drafted {
        table,
        scene,
        mv,
        seed,
    } = drafted;
    let rolled = tokio::task::spawn_blocking(move || {
        table.allowed(&mv).map_err(ApiError::Refused)?;
        let (roll, throws) =
            crate::roll::headless::play_move(&table, &mv, seed, None, Cocked::default())
                .and_then(|driving| driving.finished())
                .map_err(ApiError::Roll)?;
        let title = table.describe(&mv);
        if throws.is_empty() {
            return Err(ApiError::NoDice(title));
        }
        Ok((roll.record(&scene, throws, None, Cocked::default()), title))
    })
    .await
    .map_err(|e| ApiError::Failed(e.to_string()))?;
    let (mut record, title) = rolled?;
    record.who = asker.who.clone();
    record.label = asker.label.clone().or(Some(title));
    Ok(record)
}

/// `POST /api/move`: throws the scene's drafted move: rolled headless on the window's table,
/// then shown there and applied to it.
async fn play_move(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    json_only(&headers)?;
    let bytes = body_bytes(body)?;
    let body: MoveBody = if bytes.iter().all(u8::is_ascii_whitespace) {
        MoveBody::default()
    } else {
        api::parse(&bytes)?
    };
    let asker = api::asker(body.who, body.label, body.colour)?;
    // A move holds its place as a free roll does, from its roll to its answer.
    let _place = shared
        .rolling
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError::QueueFull(QUEUE))?;
    if let Some(room) = at_a_room(&shared, body.seed, body.mode)? {
        return room
            .propose(RoomThrow::DraftedMove, asker.label, body.mode)
            .await;
    }
    let drafted = queue_and_wait(&shared, |reply| Job::Draft {
        seed: body.seed,
        reply,
    })
    .await?;
    let on = OnTable {
        mv: drafted.mv.clone(),
        state: drafted.table.canonical_state(),
    };
    let record = {
        let _one_at_a_time = shared.one_roll.lock().await;
        roll_move_headless(drafted, &asker).await?
    };
    queue_and_wait(&shared, |shown| Job::Show {
        record: Box::new(record.clone()),
        asker,
        on: Some(Box::new(on)),
        shown,
    })
    .await?;
    Ok(answer(record))
}

/// The window's room, where it is at one: its server seeds every throw (so no `seed`); a
/// window alone shows every roll (so no `mode` but `public`).
fn at_a_room<'a>(
    shared: &'a Shared,
    seed: Option<u64>,
    mode: Option<RollMode>,
) -> Result<Option<AtRoom<'a>>, ApiError> {
    if shared.at_a_room.load(std::sync::atomic::Ordering::Relaxed) {
        if seed.is_some() {
            return Err(ApiError::AtARoom);
        }
        return Ok(Some(AtRoom(shared)));
    }
    if mode.is_some_and(|m| m != RollMode::Public) {
        return Err(ApiError::NotAtARoom);
    }
    Ok(None)
}

/// The API of a window at a room.
struct AtRoom<'a>(&'a Shared);

impl AtRoom<'_> {
    /// Proposes `what` to the room through the window and answers with what the room logged:
    /// a roll its member may see as `answer` gives any roll, with its entry and mode; a blind
    /// one as its entry, its mode and `sealed`.
    async fn propose(
        &self,
        what: RoomThrow,
        label: Option<String>,
        mode: Option<RollMode>,
    ) -> Result<Response, ApiError> {
        let logged = queue_and_wait(self.0, |reply| Job::Propose {
            what,
            label,
            mode,
            reply,
        })
        .await?;
        let mut out = match logged.record {
            Some(record) => answer_json(record),
            None => serde_json::json!({}),
        };
        out["seq"] = serde_json::json!(logged.seq);
        out["mode"] = serde_json::json!(logged.mode);
        out["sealed"] = serde_json::json!(logged.mode != RollMode::Public);
        Ok(axum::Json(out).into_response())
    }
}

/// `GET /api/history`: every record of the session, oldest first (`?since=N` skips the first N).
async fn history(
    State(shared): State<Arc<Shared>>,
    query: Result<Query<HashMap<String, String>>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let since = match query.ok().and_then(|Query(q)| q.get("since").cloned()) {
        None => 0,
        Some(s) => s
            .parse::<usize>()
            .map_err(|_| ApiError::Invalid(format!("'since' must be a count, not '{s}'")))?,
    };
    let memory = shared.memory.lock().map_err(|_| ApiError::Closed)?;
    let records: Vec<&RollRecord> = memory.history.iter().skip(since).collect();
    Ok(axum::Json(serde_json::json!({
        "count": memory.history.len(),
        "records": records,
    }))
    .into_response())
}

/// `GET /feed`: the WebSocket of events. Starts with `hello`.
async fn feed(State(shared): State<Arc<Shared>>, ws: WebSocketUpgrade) -> Response {
    ws.max_message_size(FEED_MESSAGE_MAX)
        .max_frame_size(FEED_MESSAGE_MAX)
        .on_upgrade(move |socket| follow(socket, shared))
}

/// One page: the table and the latest outcomes, then every event as it happens. A reader too
/// slow for the feed misses events, not the connection.
async fn follow(socket: WebSocket, shared: Arc<Shared>) {
    let events = shared.feed.subscribe();
    let hello = match shared.memory.lock() {
        Ok(memory) => FeedEvent::Hello {
            table: memory.table.clone(),
            recent: memory.recent.iter().cloned().collect(),
        },
        Err(_) => return,
    };
    let hello = Message::Text(hello.to_json().into());
    let feed = futures_util::stream::unfold(events, |mut events| async move {
        loop {
            match events.recv().await {
                Ok(json) => {
                    return Some((FeedNext::Send(vec![Message::Text((*json).into())]), events));
                }
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    let ping = ping_every(ConnectionLimits::default().idle);
    hello_then_forward(socket, hello, feed, ping).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::testing::answer;
    use axum::body::Body;
    use axum::http::Request;

    /// The router with its own state, no socket: the jobs it queues come back here.
    fn test_router(token: Option<&str>) -> (Router, mpsc::Receiver<Job>) {
        test_router_at(token, false)
    }

    /// [`test_router`], of a window at a room (`play --join`) when `room`.
    fn test_router_at(token: Option<&str>, room: bool) -> (Router, mpsc::Receiver<Job>) {
        let (jobs, queue) = mpsc::channel(QUEUE);
        let (feed, _) = broadcast::channel(16);
        let shared = Arc::new(Shared {
            feed,
            jobs,
            rolling: Arc::new(tokio::sync::Semaphore::new(QUEUE)),
            one_roll: tokio::sync::Mutex::new(()),
            memory: Mutex::new(Memory::default()),
            token: token.map(str::to_string),
            pages: Pages::new(),
            port: 7470,
            // With a token, the table is reached by this name too (`play --host dicetable.lan`).
            hosts: vec!["dicetable.lan".into()],
            bell: Mutex::new(Bell::default()),
            at_a_room: std::sync::atomic::AtomicBool::new(room),
        });
        (router(shared), queue)
    }

    fn roll(body: &'static str) -> Request<Body> {
        Request::post("/api/roll")
            .header("host", "127.0.0.1:7470")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .expect("request")
    }

    #[tokio::test]
    async fn refusals_carry_their_status_and_code() {
        let cases = [
            (roll("{"), StatusCode::BAD_REQUEST, "malformed"),
            (
                roll(r#"{"notation":"2d31"}"#),
                StatusCode::UNPROCESSABLE_ENTITY,
                "no_such_die",
            ),
            (
                roll(r#"{"notation":"101d6"}"#),
                StatusCode::UNPROCESSABLE_ENTITY,
                "bad_notation",
            ),
            (
                Request::get("/api/nothing")
                    .body(Body::empty())
                    .expect("request"),
                StatusCode::NOT_FOUND,
                "not_found",
            ),
            // A page of another site: a simple request it needs no leave for...
            (
                Request::post("/api/roll")
                    .header("host", "127.0.0.1:7470")
                    .header("origin", "https://evil.example")
                    .header("content-type", "text/plain")
                    .body(Body::from(r#"{"notation":"d6"}"#))
                    .expect("request"),
                StatusCode::FORBIDDEN,
                "foreign_origin",
            ),
            // ...its name re-pointed at this machine...
            (
                Request::get("/overlay")
                    .header("host", "evil.example:7470")
                    .body(Body::empty())
                    .expect("request"),
                StatusCode::FORBIDDEN,
                "foreign_host",
            ),
            // ...and no page at all, but not JSON.
            (
                Request::post("/api/move")
                    .header("host", "localhost:7470")
                    .header("content-type", "text/plain")
                    .body(Body::empty())
                    .expect("request"),
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "not_json",
            ),
            (
                Request::get("/feed")
                    .header("host", "127.0.0.1:7470")
                    .header("origin", "http://127.0.0.1:7471")
                    .body(Body::empty())
                    .expect("request"),
                StatusCode::FORBIDDEN,
                "foreign_origin",
            ),
        ];
        for (request, status, code) in cases {
            let (router, _queue) = test_router(None);
            let (got, body) = answer(router, request).await;
            assert_eq!((got, body["code"].as_str()), (status, Some(code)), "{body}");
        }
    }

    #[tokio::test]
    async fn a_token_is_asked_for_and_a_roll_is_queued_for_the_table() {
        let (router, mut queue) = test_router(Some("s3cret"));
        let (got, body) = answer(router.clone(), roll(r#"{"notation":"d6"}"#)).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (StatusCode::UNAUTHORIZED, Some("unauthorized"))
        );
        // A name the owner did not give is refused, token or not (a page rebound by its DNS).
        let rebound = Request::post("/api/roll?token=s3cret")
            .header("host", "evil.example:7470")
            .header("content-type", "application/json")
            .body(Body::from(r#"{"notation":"3d6"}"#))
            .expect("request");
        let (got, body) = answer(router.clone(), rebound).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (StatusCode::FORBIDDEN, Some("foreign_host"))
        );
        let request = Request::post("/api/roll?token=s3cret")
            .header("host", "dicetable.lan:7470")
            .header("content-type", "application/json")
            .body(Body::from(r#"{"notation":"3d6","who":"Vex"}"#))
            .expect("request");
        let asked = tokio::spawn(answer(router, request));
        // The roll is rolled here, then goes to the table to be shown.
        let Some(Job::Show {
            record,
            asker,
            shown,
            ..
        }) = queue.recv().await
        else {
            panic!("no roll queued");
        };
        assert_eq!(
            (&record.what, record.faces.len(), asker.who.as_deref()),
            (
                &crate::record::Thrown::Notation {
                    notation: "3d6".into()
                },
                3,
                Some("Vex")
            )
        );
        assert_eq!(record.who.as_deref(), Some("Vex"));
        let _ = shown.send(Err(ApiError::Closed));
        let (got, body) = asked.await.expect("answered");
        assert_eq!(
            (got, body["code"].as_str()),
            (StatusCode::SERVICE_UNAVAILABLE, Some("table_closed"))
        );
    }

    /// A window's stand-in: answers the drafts with a table and a move, and each showing with
    /// `shown`.
    fn window(
        mut queue: mpsc::Receiver<Job>,
        table: TableState,
        mv: Move,
        shown: fn() -> Result<(), ApiError>,
    ) {
        tokio::spawn(async move {
            while let Some(job) = queue.recv().await {
                match job {
                    Job::Draft { seed, reply } => {
                        let _ = reply.send(Ok(Drafted {
                            table: table.clone(),
                            scene: "the vault".into(),
                            mv: mv.clone(),
                            seed: seed.unwrap_or(7),
                        }));
                    }
                    Job::Show { shown: tx, on, .. } => {
                        assert!(on.is_some_and(|on| on.state == table.canonical_state()));
                        let _ = tx.send(shown());
                    }
                    Job::Propose { .. } => panic!("a window alone proposes nothing"),
                }
            }
        });
    }

    /// At a room the API proposes to it through the window, in the mode asked (or the room's
    /// default), and answers what the room logged: a blind roll its entry alone. The room's
    /// server seeds its throws: a seed is refused. A window alone shows every roll: a mode is
    /// refused.
    #[tokio::test]
    async fn at_a_room_the_api_proposes_and_answers_what_the_room_logged() {
        let (router, mut queue) = test_router_at(None, true);
        tokio::spawn(async move {
            while let Some(job) = queue.recv().await {
                let Job::Propose {
                    what, mode, reply, ..
                } = job
                else {
                    panic!("at a room, the API proposes");
                };
                assert!(matches!(what, RoomThrow::Notation(ref n) if n == "1d20"));
                let _ = reply.send(Ok(Logged {
                    seq: 9,
                    mode: mode.unwrap_or(RollMode::Gamemaster),
                    record: None,
                }));
            }
        });
        let (got, body) = answer(
            router.clone(),
            roll(r#"{"notation":"1d20","mode":"blind"}"#),
        )
        .await;
        assert_eq!(got, StatusCode::OK, "{body}");
        assert_eq!(
            body,
            serde_json::json!({"seq": 9, "mode": "blind", "sealed": true})
        );
        // No mode: the room's default (the stand-in's is the game master's).
        let (_, body) = answer(router.clone(), roll(r#"{"notation":"1d20"}"#)).await;
        assert_eq!(body["mode"], "gamemaster", "{body}");
        let (got, body) = answer(router, roll(r#"{"notation":"1d20","seed":4}"#)).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (StatusCode::CONFLICT, Some("at_a_room"))
        );
        let (router, _queue) = test_router(None);
        let (got, body) = answer(router, roll(r#"{"notation":"1d20","mode":"self"}"#)).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (StatusCode::CONFLICT, Some("not_at_a_room"))
        );
    }

    fn move_request(body: &'static str) -> Request<Body> {
        Request::post("/api/move")
            .header("host", "127.0.0.1:7470")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .expect("request")
    }

    /// `POST /api/move` rolls the window's drafted move headless, through the roll path, and
    /// answers by the roll path's own codes, never a guess from the window's frames.
    #[tokio::test]
    async fn a_drafted_move_is_rolled_through_the_roll_path_and_answers_its_own_code() {
        use crate::rules::step_dice::seat::Move as StepMove;
        let book = crate::rules::Rulebook::builtin().expect("the rules");
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/step-dice-vault.ron");
        let scene = crate::rules::scene::Scene::load(&path).expect("the scene");
        let table = TableState::new(&scene, &book, 1);
        let act = Move::StepDice(StepMove::Act {
            actor: 0,
            skill: Some("Locks".into()),
            difficulty: "Hard".into(),
            position: crate::rules::step_dice::Position::default(),
            boosts: Vec::new(),
        });
        // Rolled here: the record is the roll path's for that table, move and seed.
        let (router, queue) = test_router(None);
        window(queue, table.clone(), act.clone(), || Ok(()));
        let (got, body) = answer(router, move_request(r#"{"who":"Ana","seed":11}"#)).await;
        assert_eq!(got, StatusCode::OK, "{body}");
        let (roll, throws) =
            crate::roll::headless::play_move(&table, &act, 11, None, Cocked::default())
                .and_then(|d| d.finished())
                .expect("rolled");
        let record = roll.record("the vault", throws, None, Cocked::default());
        assert_eq!(body["record"]["what"]["kind"], "move");
        assert_eq!(body["record"]["digest"], record.digest.as_str());
        assert_eq!(body["record"]["who"], "Ana");
        assert_eq!(body["outcome"], serde_json::json!(record.outcome));
        // Refused by the rules: their code and kind, nothing shown.
        let (router, queue) = test_router(None);
        let elsewhere = Move::StepDice(StepMove::Act {
            actor: 9,
            skill: Some("Locks".into()),
            difficulty: "Hard".into(),
            position: crate::rules::step_dice::Position::default(),
            boosts: Vec::new(),
        });
        window(queue, table.clone(), elsewhere, || {
            panic!("a refused move is not shown")
        });
        let (got, body) = answer(router, move_request("{}")).await;
        assert_eq!(
            (got, body["code"].as_str(), body["refusal_kind"].as_str()),
            (StatusCode::CONFLICT, Some("rules_refused"), Some("unknown")),
            "{body}"
        );
        // A move without dice is the window's to make.
        let (router, queue) = test_router(None);
        window(
            queue,
            table.clone(),
            Move::StepDice(StepMove::EndTurn),
            || panic!("nothing to show"),
        );
        let (got, body) = answer(router, move_request("{}")).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (StatusCode::CONFLICT, Some("no_dice")),
            "{body}"
        );
        // The window's table changed meanwhile: its own code, nothing applied.
        let (router, queue) = test_router(None);
        window(queue, table, act, || Err(ApiError::TableChanged));
        let (got, body) = answer(router, move_request("{}")).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (StatusCode::CONFLICT, Some("table_changed")),
            "{body}"
        );
    }
}
