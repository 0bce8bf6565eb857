//! A room's page (`/{room}/watch`, for a browser or OBS) and its feed (`/{room}/feed`): the
//! room's log turned into the overlay's feed events. Each throw is thrown again from its record
//! (seed, gesture, dice) to get its motion, and its dice must come to rest where the record
//! says; the page plays the motion, then shows the outcome the record holds. Nothing here
//! decides a face.

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot};

use super::error::ServerError;
use super::limits::FANOUT;
use super::room_task::{Command, RoomHandle, forward_lines, running_room};
use super::store::LogStore;
use super::view::{Watch, brought_up_to_date};
use super::{Hub, check_room_name};
use crate::errors::ErrorCode;
use crate::net::feed::FeedEvent;
use crate::net::pages;
use crate::net::runtime::{Owing, Peer};
use crate::net::socket::{Next, hello_then_forward, hello_then_forward_hearing};

pub use super::view::SAMPLE_STEPS;

/// `GET /{room}/watch`: the room's page for a browser or OBS (the overlay page, following the
/// room's feed). `?passcode=` the players' passcode; the overlay's options apply.
pub async fn page(headers: HeaderMap) -> Response {
    pages::file("overlay.html", &headers)
}

/// What a room's page sends along.
#[derive(serde::Deserialize)]
pub struct WatchQuery {
    #[serde(default)]
    passcode: String,
}

/// `GET /{room}/feed`: the room as the overlay's feed events (WebSocket). Read-only: a page
/// is not a member and writes nothing to the log; it may ask for the dice of a hidden roll its
/// member may see, showing the roll's salt (`unseal`).
pub async fn feed<S: LogStore>(
    State(hub): State<Arc<Hub<S>>>,
    Path(room): Path<String>,
    query: Result<Query<WatchQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
    peer: Peer,
    owing: Owing,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let how = || format!("the feed of '{room}' is a WebSocket: open http://HOST:PORT/{room}/watch");
    let ws = match crate::net::socket::websocket_only(&headers, ws, how) {
        Ok(ws) => ws,
        Err(refused) => return refused.into_response(),
    };
    let passcode = query.map(|Query(q)| q.passcode).unwrap_or_default();
    ws.max_message_size(crate::net::socket::FEED_MESSAGE_MAX)
        .max_frame_size(crate::net::socket::FEED_MESSAGE_MAX)
        .on_upgrade(move |socket| watch_session(hub, room, passcode, peer, owing, socket))
}

/// Checks a page's passcode (the players' or the game master's) and finds the running room.
pub(super) async fn watch_room<S: LogStore>(
    hub: &Arc<Hub<S>>,
    room: &str,
    passcode: String,
    peer: Peer,
) -> Result<RoomHandle, ServerError> {
    check_room_name(room)?;
    let keys = hub.keys(room).await?;
    if passcode.is_empty() {
        return Err(ServerError::PasscodeRequired);
    }
    hub.guard.may_try(peer, room)?;
    let players = hub
        .passcode_is(peer, room, passcode.clone(), keys.passcode)
        .await?;
    if !players
        && !hub
            .passcode_is(peer, room, passcode, keys.gm_passcode)
            .await?
    {
        hub.guard.missed(peer, room);
        return Err(ServerError::WrongPasscode);
    }
    hub.guard.got_in(peer, room);
    running_room(hub, room).await
}

/// A feed event as a text frame.
fn frame(event: &FeedEvent) -> Message {
    Message::Text(event.to_json().into())
}

/// What a page is told when it cannot follow.
fn failure(code: ErrorCode, error: String) -> Message {
    frame(&FeedEvent::Error {
        code,
        error,
        retry_after_ms: None,
    })
}

/// What a page is told when the server refuses it, with how long to wait where waiting helps.
fn refusal(e: &ServerError) -> Message {
    frame(&FeedEvent::Error {
        code: e.code(),
        error: e.to_string(),
        retry_after_ms: e.retry_after_ms(),
    })
}

/// The first view of a page: the room from its stored lines (from the view its pages share,
/// brought up to date in the client's turn on the physics pool), the latest outcomes, and how
/// many lines that was.
async fn first_view<S: LogStore>(
    hub: &Arc<Hub<S>>,
    room: &str,
    handle: &RoomHandle,
    client: crate::work::Client,
) -> Result<(Watch, Vec<FeedEvent>, u64), ServerError> {
    let cached = handle.view.lock().ok().and_then(|v| v.clone());
    let since = cached.as_ref().map_or(0, |c| c.since);
    let stored = hub.store.read(room, since).await?;
    let view = crate::work::physics()
        .run(client, move |_| brought_up_to_date(cached, &stored))
        .await??;
    if let Ok(mut shared) = handle.view.lock()
        && shared.as_ref().is_none_or(|s| s.since < view.since)
    {
        *shared = Some(view.clone());
    }
    Ok((view.watch, view.recent, view.since))
}

/// A page's first message, `{"type": "passcode", "passcode": "…"}`, within the hello's time:
/// the passcode (empty when none came, which the check refuses as `passcode_required`).
async fn first_passcode(socket: &mut WebSocket) -> String {
    #[derive(serde::Deserialize)]
    struct Shown {
        passcode: String,
    }
    let first = tokio::time::timeout(super::limits::HELLO_TIMEOUT, socket.recv()).await;
    match first {
        Ok(Some(Ok(Message::Text(text)))) => serde_json::from_str::<Shown>(&text)
            .map(|shown| shown.passcode)
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// One page: the latest outcomes, then every new entry as it is stored, each throw with its
/// motion (re-simulated from its record, one per core at a time).
async fn watch_session<S: LogStore>(
    hub: Arc<Hub<S>>,
    room: String,
    passcode: String,
    peer: Peer,
    owing: Owing,
    socket: WebSocket,
) {
    let ping = hub.tuning.ping_every();
    let refuse = |socket: WebSocket, e: ServerError| async move {
        let nothing = futures_util::stream::empty();
        hello_then_forward(socket, refusal(&e), nothing, ping).await;
    };
    // The passcode in the socket's query (older pages), else its first message.
    let mut socket = socket;
    let passcode = if passcode.is_empty() {
        first_passcode(&mut socket).await
    } else {
        passcode
    };
    // The passcode's check and the first view are answers owed: not idle time.
    let owed = owing.answering();
    let handle = match watch_room(&hub, &room, passcode, peer).await {
        Ok(h) => h,
        Err(e) => return refuse(socket, e).await,
    };
    // Subscribe first, then read: nothing falls between the stored lines and the new ones.
    let lines = handle.lines.subscribe();
    let (view, recent, since) = match first_view(&hub, &room, &handle, peer.client()).await {
        Ok(first) => first,
        Err(e) => return refuse(socket, e).await,
    };
    drop(owed);
    let hello = frame(&FeedEvent::Hello {
        table: view.table(),
        recent,
    });
    let (tx, new_lines) = mpsc::channel::<String>(FANOUT);
    let forward = tokio::spawn(forward_lines(
        hub.store.clone(),
        room.clone(),
        since,
        lines,
        tx,
        (|line| line, |new| new.line.to_string()),
    ));
    // Each new line seen by the view (the throw re-simulated for its motion, one per core at
    // a time); the view travels with the feed.
    let feed = futures_util::stream::unfold(Some((new_lines, view)), |state| async move {
        let (mut new_lines, view) = state?;
        let line = new_lines.recv().await?;
        let seen = crate::work::physics()
            .run(peer.client(), move |_| {
                let mut view = view;
                let events = view.see(&line, true);
                (view, events)
            })
            .await;
        let Ok((view, events)) = seen else {
            let error = "the room's page stopped: open it again".to_string();
            return Some((Next::Last(vec![failure(ErrorCode::Internal, error)]), None));
        };
        let next = match events {
            Ok(events) => Next::Send(events.iter().map(frame).collect()),
            Err(e) => Next::Last(vec![failure(e.code(), e.to_string())]),
        };
        Some((next, Some((new_lines, view))))
    });
    // The page's asks, answered in turn between the room's lines: the dice of a hidden roll
    // its member may see (the page holds the roll's salt).
    let (heard, asks) = mpsc::channel::<String>(ASKS_WAITING);
    let commands = handle.commands.clone();
    let answers = futures_util::stream::unfold(asks, move |mut asks| {
        let commands = commands.clone();
        async move {
            let text = asks.recv().await?;
            let answer = answer_unseal(&commands, peer.client(), &text).await;
            Some((Next::Send(answer), asks))
        }
    });
    // The room's lines end the page's feed; its asks never keep it open.
    let lines_then_done = feed.chain(futures_util::stream::once(async { Next::Done }));
    let both = futures_util::stream::select(lines_then_done, answers);
    hello_then_forward_hearing(socket, hello, both, ping, Some(heard)).await;
    forward.abort();
}

/// Asks a page may have waiting: more are dropped until these are answered.
const ASKS_WAITING: usize = 4;

/// A tray's `{"type": "unseal", "roll": N, "salt": "…"}`: the hidden roll's motions, when the
/// salt is its seal's (only those its mode shows it to were given it), then `unsealed`; else
/// `unsealed` with why not. Anything else a page sends goes unanswered.
async fn answer_unseal(
    commands: &mpsc::Sender<Command>,
    client: crate::work::Client,
    text: &str,
) -> Vec<Message> {
    #[derive(serde::Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    enum Ask {
        Unseal { roll: u64, salt: String },
    }
    let Ok(Ask::Unseal { roll, salt }) = serde_json::from_str(text) else {
        return Vec::new();
    };
    let refused = |e: ServerError| {
        vec![frame(&FeedEvent::Unsealed {
            roll,
            refused: Some(e.code()),
            readings: Vec::new(),
        })]
    };
    let (reply, answer) = oneshot::channel();
    let asked = Command::Unseal {
        of: roll,
        salt,
        reply,
    };
    if commands.send(asked).await.is_err() {
        return refused(ServerError::RoomStopped);
    }
    let found = match answer.await {
        Ok(Ok(found)) => found,
        Ok(Err(e)) => return refused(e),
        Err(_) => return refused(ServerError::RoomStopped),
    };
    let drawn = crate::work::physics()
        .run(client, move |_| {
            super::view::unsealed(
                roll,
                &found.by,
                &found.content,
                &found.table,
                &found.painter,
            )
        })
        .await;
    match drawn {
        Ok(Ok(events)) => events.iter().map(frame).collect(),
        Ok(Err(e)) => refused(e.into()),
        Err(e) => refused(e.into()),
    }
}
