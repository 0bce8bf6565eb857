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
use tokio::sync::mpsc;

use super::error::ServerError;
use super::limits::FANOUT;
use super::room_task::{RoomHandle, forward_lines, running_room};
use super::store::LogStore;
use super::{Hub, check_room_name};
use crate::dice::looks::{Tint, character_style};
use crate::dice::mesh::DieStyle;
use crate::errors::ErrorCode;
use crate::net::auth::passcode_matches_async;
use crate::net::feed::{
    Byline, FeedDie, FeedEvent, TableInfo, colour_of, flat, hex, readings, rounded,
};
use crate::net::pages;
use crate::net::runtime::Peer;
use crate::net::socket::{Next, hello_then_forward};
use crate::online::log::{Entry, Event, HiddenRoll, Proposal};
use crate::online::room::{Checks, RoomError, RoomState};
use crate::record::{Cocked, Gesture, Pose, RollRecord, ThrowRecord, Thrown};
use crate::roll::headless::{Motion, trace};
use crate::roll::{MoveRoll, NotationRoll, RollError, ThrowOrder, drive};

/// Physics steps between two samples of a throw's motion (30 a second, as the window's feed).
pub const SAMPLE_STEPS: u32 = 8;
/// Outcomes a page is sent when it connects.
pub const RECENT: usize = 20;

/// A page's view of a room: the room as its log makes it, and what the page was last told.
#[derive(Clone)]
pub struct Watch {
    room: RoomState,
    table: TableInfo,
}

impl Watch {
    /// A view of the room from its first line.
    pub fn open(first: &str) -> Result<Watch, RoomError> {
        let room = RoomState::open(first)?;
        let table = table_info(&room);
        Ok(Watch { room, table })
    }

    /// The scene and whose turn it is.
    pub fn table(&self) -> TableInfo {
        self.table.clone()
    }

    /// The room's next line, and what the page shows of it: a throw's motion (when `motion`;
    /// lines from before the page connected only give their outcomes), its outcome, a hidden
    /// roll's notice, the table when the turn moved on.
    pub fn see(&mut self, line: &str, motion: bool) -> Result<Vec<FeedEvent>, RoomError> {
        let entry = Entry::parse(line)?;
        // The acting character and the dice's colours come from the table before the move.
        let (actor, looks) = match &entry.event {
            Event::Thrown { what, record, .. } => {
                let actor = match what {
                    Proposal::Move(mv) => self.room.table.actor_of(mv),
                    Proposal::Notation(_) => None,
                };
                (actor, Some(self.looks(what, record)?))
            }
            _ => (None, None),
        };
        self.room.apply_line(line, Checks::default())?;
        let seq = entry.seq;
        let mut events = Vec::new();
        match entry.event {
            Event::Thrown { by, record, .. } => {
                let byline = byline(&by, actor, &record);
                if motion {
                    events.extend(motions(seq, &byline, &record, &looks.unwrap_or_default()));
                }
                events.push(outcome(seq, byline, record, entry.at_ms));
            }
            Event::Revealed { of, payload, .. } => {
                let hidden: HiddenRoll = serde_json::from_str(&payload).map_err(|e| {
                    RoomError::Mismatch(format!("entry {seq}: the revealed roll: {e}"))
                })?;
                let what = Proposal::Notation(hidden.notation.clone());
                let looks = self.looks(&what, &hidden.record)?;
                let by = self.room.gamemaster.clone();
                let mut byline = byline(&by, None, &hidden.record);
                byline.label = Some(format!(
                    "revealed roll {of}{}",
                    hidden
                        .record
                        .label
                        .as_ref()
                        .map(|l| format!(": {l}"))
                        .unwrap_or_default()
                ));
                if motion {
                    events.extend(motions(seq, &byline, &hidden.record, &looks));
                }
                events.push(outcome(seq, byline, Box::new(hidden.record), entry.at_ms));
            }
            Event::Hidden {
                by,
                notation,
                label,
                ..
            } => events.push(FeedEvent::Hidden {
                roll: seq,
                by: Byline {
                    colour: colour_of(Some(&by)),
                    who: Some(by),
                    label: Some(label.unwrap_or_else(|| "a hidden roll".into())),
                    what: notation,
                },
            }),
            Event::Created { .. } | Event::Joined { .. } | Event::Played { .. } => {}
        }
        let table = table_info(&self.room);
        if table != self.table {
            self.table = table.clone();
            events.push(FeedEvent::Table(table));
        }
        Ok(events)
    }

    /// Each throw's dice colours, as the window draws them: the roll path's orders read back
    /// from the record (a move's from its plans and the acting character, a free roll's light
    /// and dark in turn).
    fn looks(&self, what: &Proposal, record: &RollRecord) -> Result<Vec<Vec<DieStyle>>, RoomError> {
        let mut looks = Vec::new();
        let recorded = |order: &ThrowOrder| -> Result<ThrowRecord, RollError> {
            looks.push(order.tints.iter().map(|t| Tint::style(*t)).collect());
            record
                .throws
                .get(order.n as usize)
                .cloned()
                .ok_or(RollError::Missing { n: order.n })
        };
        match what {
            Proposal::Notation(text) => {
                let notation = crate::roll::recorded_notation(text, record)?;
                let roll = NotationRoll::start(&notation, record.seed)?;
                drive(roll, recorded).finished()?;
            }
            Proposal::Move(mv) => {
                let roll = MoveRoll::start(&self.room.table, mv, record.seed)?;
                drive(roll, recorded).finished()?;
            }
        }
        Ok(looks)
    }
}

/// Who threw and what for: the acting character's colour for a move, the thrower's own for a
/// free roll.
fn byline(by: &str, actor: Option<usize>, record: &RollRecord) -> Byline {
    Byline {
        who: Some(by.to_string()),
        colour: actor
            .map(|a| hex(character_style(a).body))
            .unwrap_or_else(|| colour_of(Some(by))),
        label: record.label.clone(),
        what: match &record.what {
            Thrown::Notation { notation } => notation.clone(),
            Thrown::Move { action, .. } => action.clone(),
        },
    }
}

/// Motions worked out lately, kept for every page of every room: thirty pages of a room
/// simulate each throw once between them.
const MOTIONS_KEPT: usize = 64;

/// A throw's motion, worked out once: the first page to ask simulates it, the others wait for
/// that one and share it.
type SharedMotion = Arc<std::sync::OnceLock<Result<Motion, RollError>>>;

/// The place of `throw`'s motion, shared with every page that asks for the same throw (a
/// place of its own when the throw cannot be told apart); the first to fill it simulates.
fn shared_trace(throw: &ThrowRecord, gesture: Option<Gesture>, cocked: Cocked) -> SharedMotion {
    static RECENT: std::sync::Mutex<Vec<(String, SharedMotion)>> =
        std::sync::Mutex::new(Vec::new());
    let (Ok(key), Ok(mut recent)) = (
        serde_json::to_string(&(throw, gesture, cocked)),
        RECENT.lock(),
    ) else {
        return SharedMotion::default();
    };
    match recent.iter().find(|(k, _)| *k == key) {
        Some((_, cell)) => cell.clone(),
        None => {
            if recent.len() >= MOTIONS_KEPT {
                recent.remove(0);
            }
            let cell = SharedMotion::default();
            recent.push((key, cell.clone()));
            cell
        }
    }
}

/// Every throw of a roll with its motion. A throw that does not re-simulate to its record here
/// (another platform or build) is shown at rest where the record says, and the server says so.
fn motions(seq: u64, by: &Byline, record: &RollRecord, looks: &[Vec<DieStyle>]) -> Vec<FeedEvent> {
    record
        .throws
        .iter()
        .enumerate()
        .map(|(n, throw)| {
            let shared = shared_trace(throw, record.gesture, record.cocked);
            let traced =
                shared.get_or_init(|| trace(throw, record.gesture, record.cocked, SAMPLE_STEPS));
            let frames = match traced {
                Ok(motion) => {
                    let last = motion.frames.len().saturating_sub(1);
                    motion
                        .frames
                        .iter()
                        .enumerate()
                        .map(|(i, f)| sample(f, i == last))
                        .collect()
                }
                Err(e) => {
                    eprintln!("entry {seq}: {e}; the page shows where the record's dice lie");
                    vec![sample(&throw.poses, true)]
                }
            };
            let style = |i: usize| {
                looks
                    .get(n)
                    .and_then(|l| l.get(i))
                    .copied()
                    .unwrap_or(DieStyle::IVORY)
            };
            FeedEvent::Motion {
                roll: seq,
                throw: throw.tag,
                by: by.clone(),
                dice: throw
                    .dice
                    .iter()
                    .enumerate()
                    .map(|(i, kind)| FeedDie {
                        kind: kind.id(),
                        body: hex(style(i).body),
                        ink: hex(style(i).ink),
                    })
                    .collect(),
                hz: crate::roll::headless::samples_per_second(SAMPLE_STEPS),
                frames,
            }
        })
        .collect()
}

fn sample(poses: &[Pose], exact: bool) -> Vec<[f32; 7]> {
    poses
        .iter()
        .map(|p| if exact { flat(p) } else { rounded(p) })
        .collect()
}

fn outcome(seq: u64, by: Byline, record: Box<RollRecord>, at_ms: u64) -> FeedEvent {
    FeedEvent::Outcome {
        roll: seq,
        by,
        total: record.total,
        outcome: record.outcome.clone(),
        faces: record.faces.clone(),
        shown: crate::roll::read_record(&record).map(|r| r.shown),
        code: record.code(),
        readings: readings(&record),
        record,
        settled_at_ms: at_ms,
    }
}

fn table_info(room: &RoomState) -> TableInfo {
    let acting: Vec<String> = room
        .table
        .tracker()
        .into_iter()
        .filter(|r| r.acting)
        .map(|r| r.name)
        .collect();
    TableInfo {
        scene: Some(room.scene.name.clone()),
        ruleset: Some(room.table.ruleset().to_string()),
        turn: Some(acting.join(", ")),
    }
}

/// A page's first view: the room from its stored lines, and the latest outcomes (oldest first).
pub fn catch_up(lines: &[String]) -> Result<(Watch, Vec<FeedEvent>), RoomError> {
    let first = lines.first().ok_or(crate::online::log::LogError::Empty)?;
    let mut watch = Watch::open(first)?;
    let mut recent = Vec::new();
    for line in &lines[1..] {
        for event in watch.see(line, false)? {
            if matches!(event, FeedEvent::Outcome { .. }) {
                recent.push(event);
            }
        }
    }
    let keep = recent.len().saturating_sub(RECENT);
    Ok((watch, recent.split_off(keep)))
}

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
/// is not a member and writes nothing to the log.
pub async fn feed<S: LogStore>(
    State(hub): State<Arc<Hub<S>>>,
    Path(room): Path<String>,
    query: Result<Query<WatchQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
    peer: Peer,
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
        .on_upgrade(move |socket| watch_session(hub, room, passcode, peer, socket))
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
    let (client, known) = (peer.client(), hub.guard.is_known(peer, room));
    let players = passcode_matches_async(client, known, passcode.clone(), keys.passcode).await?;
    if !players && !passcode_matches_async(client, known, passcode, keys.gm_passcode).await? {
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
    frame(&FeedEvent::Error { code, error })
}

/// A room's view as its pages last saw it, kept with the room: a page opening again reads and
/// sees only the lines stored since, not the whole log.
#[derive(Clone)]
pub struct SharedView {
    /// The lines seen.
    since: u64,
    watch: Watch,
    recent: Vec<FeedEvent>,
}

/// `cached` brought up to date with `lines` (the lines after it), or the view of a whole log.
fn brought_up_to_date(
    cached: Option<SharedView>,
    lines: &[String],
) -> Result<SharedView, RoomError> {
    let Some(mut view) = cached else {
        let (watch, recent) = catch_up(lines)?;
        return Ok(SharedView {
            since: lines.len() as u64,
            watch,
            recent,
        });
    };
    for line in lines {
        for event in view.watch.see(line, false)? {
            if matches!(event, FeedEvent::Outcome { .. }) {
                view.recent.push(event);
            }
        }
    }
    let keep = view.recent.len().saturating_sub(RECENT);
    view.recent.drain(..keep);
    view.since += lines.len() as u64;
    Ok(view)
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
    socket: WebSocket,
) {
    let ping = hub.tuning.ping_every();
    let refuse = |socket: WebSocket, e: ServerError| async move {
        let nothing = futures_util::stream::empty();
        hello_then_forward(socket, failure(e.code(), e.to_string()), nothing, ping).await;
    };
    // The passcode in the socket's query (older pages), else its first message.
    let mut socket = socket;
    let passcode = if passcode.is_empty() {
        first_passcode(&mut socket).await
    } else {
        passcode
    };
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
        |line| line,
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
    hello_then_forward(socket, hello, feed, ping).await;
    forward.abort();
}
