//! One connection to a room: the handshake (`create` or `join`, with the passcode, within the
//! time), then proposals sent to the room's task while the room's lines are forwarded in order.
//! Every refusal carries its code.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::stream::SplitStream;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot};

use super::error::ServerError;
use super::limits::{Bucket, CONN_BURST, CONN_RATE, HELLO_TIMEOUT, OUTBOX};
use super::room_task::{
    Command, Done, Joined, NewLine, Proposed, RoomHandle, entry_text, forward_lines, running_room,
};
use super::store::{LogStore, RoomKeys};
use super::{Hub, check_room_name};
use crate::net::auth::hash_passcode_async;
use crate::net::runtime::{Owing, Peer};
use crate::online::log::{Entry, Event, LOG_FORMAT, Role, now_ms};
use crate::online::protocol::{
    ClientMsg, DecodeError, MAX_MESSAGE, PROTOCOL, Refusal, ServerMsg, decode,
};
use crate::online::room::{Drafted, RoomState, normalise_name};
use crate::online::seal;
use crate::record::build_id;
use crate::rules::play::Move;
use crate::rules::scene::Scene;
use crate::rules::table::TableState;

/// `GET /{room}`: the room's WebSocket (a page of another origin is refused); a plain request
/// (a browser following the room's link) gets the room's page.
pub async fn connect<S: LogStore>(
    State(hub): State<Arc<Hub<S>>>,
    Path(room): Path<String>,
    headers: HeaderMap,
    peer: Peer,
    owing: Owing,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    if ws.is_err() {
        return match check_room_name(&room) {
            Ok(()) => crate::net::pages::file("room.html", &headers),
            Err(e) => crate::net::error::HttpError::new(
                axum::http::StatusCode::BAD_REQUEST,
                e.code(),
                e.to_string(),
            )
            .into_response(),
        };
    }
    let how = || {
        format!(
            "'{room}' is a room: connect with a WebSocket (dicetable play --join ws://HOST:PORT/{room})"
        )
    };
    let ws = match crate::net::socket::websocket_only(&headers, ws, how) {
        Ok(ws) => ws,
        Err(refused) => return refused.into_response(),
    };
    let conn = hub.next_conn.fetch_add(1, Ordering::Relaxed);
    // Past this, a frame is refused from its header, before its bytes are read (and answered
    // with `too_large`); up to it, a message over MAX_MESSAGE is read and answered the same.
    ws.max_message_size(4 * MAX_MESSAGE)
        .max_frame_size(4 * MAX_MESSAGE)
        .on_upgrade(move |socket| session(hub, room, conn, peer, owing, socket))
}

/// Sends a message to the connection's writer (false once it is gone).
async fn say(out: &mpsc::Sender<Message>, msg: ServerMsg) -> bool {
    out.send(Message::Text(msg.to_text().into())).await.is_ok()
}

/// Tells the connection what went wrong, with the error's code.
async fn say_error(out: &mpsc::Sender<Message>, e: &ServerError) -> bool {
    say(out, error_msg(e)).await
}

/// A text frame's text, or what to do with another frame.
enum Frame {
    Text(String),
    Skip,
    Binary,
    /// A message too large to read, of this many bytes: answered, then the connection closes.
    TooLarge(usize),
    Closed,
}

fn frame(m: Option<Result<Message, axum::Error>>) -> Frame {
    use tokio_tungstenite::tungstenite::Error as WsError;
    use tokio_tungstenite::tungstenite::error::CapacityError;
    match m {
        Some(Ok(Message::Text(t))) => Frame::Text(t.to_string()),
        Some(Ok(Message::Binary(_))) => Frame::Binary,
        Some(Err(e)) => match e.into_inner().downcast_ref::<WsError>() {
            Some(WsError::Capacity(CapacityError::MessageTooLong { size, .. })) => {
                Frame::TooLarge(*size)
            }
            _ => Frame::Closed,
        },
        Some(Ok(Message::Close(_))) | None => Frame::Closed,
        Some(Ok(_)) => Frame::Skip,
    }
}

/// The connection's next message: a text frame within the rate, decoded. A binary frame and a
/// message over the rate are answered here and passed over. None once the connection closed.
async fn next_message(
    stream: &mut SplitStream<WebSocket>,
    bucket: &mut Bucket,
    out: &mpsc::Sender<Message>,
) -> Option<Result<ClientMsg, ServerError>> {
    loop {
        match frame(stream.next().await) {
            Frame::Text(text) if bucket.take() => return Some(decode(&text).map_err(Into::into)),
            Frame::Text(_) => {
                say_error(out, &ServerError::TooManyMessages).await;
            }
            Frame::Binary => {
                say_error(out, &ServerError::NotText).await;
            }
            Frame::TooLarge(size) => {
                say_error(out, &ServerError::Decode(DecodeError::TooLarge(size))).await;
                return None;
            }
            Frame::Skip => {}
            Frame::Closed => return None,
        }
    }
}

/// One connection: hello, then proposals, while its room's lines are forwarded in order. While
/// a message is being answered (a join in the passcode check's queue, a throw in the
/// physics'), the connection is not idle.
async fn session<S: LogStore>(
    hub: Arc<Hub<S>>,
    room: String,
    conn: u64,
    peer: Peer,
    owing: Owing,
    socket: WebSocket,
) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = mpsc::channel::<Message>(OUTBOX);
    // The writer pings the client now and then, so a live one (which answers) is never idle.
    let mut pings = crate::net::socket::pings(hub.tuning.ping_every());
    let writer = tokio::spawn(async move {
        loop {
            let m = tokio::select! {
                m = outbox.recv() => match m {
                    Some(m) => m,
                    None => break,
                },
                _ = pings.tick() => Message::Ping(Default::default()),
            };
            // A client that stops reading is dropped, and what waited for it with it.
            if !crate::net::socket::send_in_time(&mut sink, m).await {
                return;
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
        let next = tokio::select! {
            _ = &mut deadline => {
                say_error(&out, &ServerError::HelloTimeout).await;
                break;
            }
            m = next_message(&mut stream, &mut bucket, &out) => m,
        };
        let Some(msg) = next else { break };
        let _owed = owing.answering();
        let answer = match msg {
            Err(e) => Err(e),
            Ok(msg) => hello(&hub, &room, conn, peer, msg).await,
        };
        match answer {
            Ok(j) => joined = Some(j),
            Err(e) => {
                say_error(&out, &e).await;
            }
        }
    }
    let Some(Hello {
        handle,
        name,
        role,
        joined,
        since,
    }) = joined
    else {
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
            seats: joined.seats,
            commitment: joined.commitment,
            head: joined.head,
            key: joined.key,
        },
    )
    .await;
    let forward = {
        let (store, room, out) = (hub.store.clone(), room.clone(), out.clone());
        tokio::spawn(async move {
            if let Err(e) = forward_lines(
                store,
                room,
                since,
                joined.lines,
                out.clone(),
                (entry_message, new_entry_message),
            )
            .await
            {
                say_error(&out, &ServerError::from(e)).await;
            }
        })
    };
    // The hidden rolls this member may see, as each is thrown and all of them now (a game
    // master's view of a player's roll, a roller's own after coming back). A spectator sees none.
    let secrets = (role != Role::Spectator).then(|| {
        let (commands, name, out) = (handle.commands.clone(), name.clone(), out.clone());
        let lines = handle.lines.subscribe();
        let gamemaster = role == Role::Gamemaster;
        tokio::spawn(tell_secrets(commands, (name, gamemaster), lines, out))
    });
    let mut odds_work: Option<tokio::task::JoinHandle<()>> = None;
    while let Some(msg) = next_message(&mut stream, &mut bucket, &out).await {
        let _owed = owing.answering();
        let reply = match msg {
            Err(e) => error_msg(&e),
            Ok(ClientMsg::Ping { id }) => ServerMsg::Pong { id },
            Ok(ClientMsg::Draft { id, what, fresh }) => {
                let (reply, answer) = oneshot::channel();
                let command = Command::Draft {
                    name: name.clone(),
                    what,
                    fresh,
                    reply,
                };
                let sent = handle.commands.send(command).await.is_ok();
                match answer.await {
                    Ok(Ok((drafted, table))) if sent => {
                        // The latest draft's odds only: an earlier one's are not wanted now.
                        if let Some(previous) = odds_work.take() {
                            previous.abort();
                        }
                        let draft = drafted.draft.clone();
                        let moves = moves_message(id, drafted);
                        if !say(&out, moves).await {
                            break;
                        }
                        odds_work = table.map(|t| {
                            tokio::spawn(draft_odds(
                                hub.tuning.odds_time,
                                peer.client(),
                                id,
                                t,
                                draft,
                                out.clone(),
                            ))
                        });
                        continue;
                    }
                    Ok(Err(e)) => error_msg(&e),
                    _ => error_msg(&ServerError::RoomStopped),
                }
            }
            Ok(ClientMsg::Create { .. } | ClientMsg::Join { .. }) => {
                error_msg(&ServerError::AlreadyJoined)
            }
            Ok(ClientMsg::Throw {
                id,
                what,
                commitment,
                nonce,
                gesture,
                hidden,
                mode,
                label,
            }) => {
                let (reply, answer) = oneshot::channel();
                let proposal = Box::new(Proposed {
                    what,
                    commitment,
                    nonce,
                    gesture,
                    mode: if hidden {
                        Some(mode.unwrap_or_default())
                    } else {
                        mode
                    },
                    label,
                    from: peer.ip,
                });
                let command = Command::Throw {
                    conn,
                    name: name.clone(),
                    proposal,
                    reply,
                };
                let sent = handle.commands.send(command).await;
                done_reply(id, sent.is_ok(), answer, &out).await
            }
            Ok(ClientMsg::Seat {
                id,
                name: member,
                role,
                seats,
            }) => {
                let (reply, answer) = oneshot::channel();
                let command = Command::Seat {
                    conn,
                    by: name.clone(),
                    name: member,
                    role,
                    seats,
                    reply,
                };
                let sent = handle.commands.send(command).await;
                done_reply(id, sent.is_ok(), answer, &out).await
            }
            Ok(ClientMsg::Modes {
                id,
                default,
                players,
            }) => {
                let (reply, answer) = oneshot::channel();
                let command = Command::Modes {
                    conn,
                    by: name.clone(),
                    default,
                    players,
                    reply,
                };
                let sent = handle.commands.send(command).await;
                done_reply(id, sent.is_ok(), answer, &out).await
            }
            Ok(ClientMsg::Dice {
                id,
                character,
                look,
            }) => {
                let (reply, answer) = oneshot::channel();
                let command = Command::Dice {
                    conn,
                    by: name.clone(),
                    character,
                    look,
                    reply,
                };
                let sent = handle.commands.send(command).await;
                done_reply(id, sent.is_ok(), answer, &out).await
            }
            Ok(ClientMsg::Reveal { id, of }) => {
                let (reply, answer) = oneshot::channel();
                let command = Command::Reveal {
                    conn,
                    name: name.clone(),
                    of: Some(of),
                    reply,
                };
                let sent = handle.commands.send(command).await;
                done_reply(id, sent.is_ok(), answer, &out).await
            }
            Ok(ClientMsg::RevealAll { id }) => {
                let (reply, answer) = oneshot::channel();
                let command = Command::Reveal {
                    conn,
                    name: name.clone(),
                    of: None,
                    reply,
                };
                let sent = handle.commands.send(command).await;
                done_reply(id, sent.is_ok(), answer, &out).await
            }
        };
        if !say(&out, reply).await {
            break;
        }
    }
    let _ = handle.commands.send(Command::Leave { conn }).await;
    forward.abort();
    if let Some(secrets) = secrets {
        secrets.abort();
    }
    if let Some(work) = odds_work {
        work.abort();
    }
    drop(out);
    let _ = writer.await;
}

/// A draft's catalogue and verdict as the `moves` message.
fn moves_message(id: u64, d: Drafted) -> ServerMsg {
    ServerMsg::Moves {
        id,
        describe: d.describe,
        tracker: d.tracker,
        kinds: d.kinds,
        kind: d.kind,
        fields: d.fields,
        refused: d.refused.map(|e| Refusal {
            code: e.code(),
            reason: e.to_string(),
            refusal_kind: e.refusal_kind(),
        }),
        draft: Box::new(d.draft),
    }
}

/// Works out a drafted move's exact odds in the client's turn on the odds pool and sends them
/// as `draft_odds`.
async fn draft_odds(
    deadline: std::time::Duration,
    client: crate::work::Client,
    id: u64,
    table: TableState,
    draft: Move,
    out: mpsc::Sender<Message>,
) {
    let work = crate::work::odds().run(client, move |_| {
        let title = table.describe(&draft);
        table.odds(&draft).map(|o| o.map(|o| o.to_json(&title)))
    });
    let msg = match tokio::time::timeout(deadline, work).await {
        Ok(Ok(Ok(odds))) => ServerMsg::DraftOdds {
            id,
            odds,
            error: None,
        },
        Ok(Ok(Err(e))) => ServerMsg::DraftOdds {
            id,
            odds: None,
            error: Some(e.to_string()),
        },
        Ok(Err(e)) => ServerMsg::DraftOdds {
            id,
            odds: None,
            error: Some(e.to_string()),
        },
        Err(_) => ServerMsg::DraftOdds {
            id,
            odds: None,
            error: Some(format!(
                "the exact odds take longer than {} s to work out here",
                deadline.as_secs()
            )),
        },
    };
    say(&out, msg).await;
}

/// A refusal as the `error` message, with its code and, where waiting helps, how long.
fn error_msg(e: &ServerError) -> ServerMsg {
    ServerMsg::Error {
        code: e.code(),
        message: e.to_string(),
        retry_after_ms: e.retry_after_ms(),
    }
}

/// A log line as the room's `entry` message, with a free roll's dice written out.
fn entry_message(line: String) -> Message {
    Message::Text(entry_text(&line).into())
}

/// A new line's `entry` message, made once by its room for every member.
fn new_entry_message(line: &NewLine) -> Message {
    Message::Text(line.entry.as_ref().into())
}

/// Sends `name` the content of every hidden roll it may see, then, to the game master, of each
/// one another member throws from now on (all again if it fell behind the room's lines): until
/// the connection or the room ends.
async fn tell_secrets(
    commands: mpsc::Sender<Command>,
    (name, gamemaster): (String, bool),
    mut lines: tokio::sync::broadcast::Receiver<NewLine>,
    out: mpsc::Sender<Message>,
) {
    use tokio::sync::broadcast::error::RecvError;
    let mut of = None;
    loop {
        let (reply, answer) = oneshot::channel();
        let asked = Command::Sealed {
            name: name.clone(),
            of,
            reply,
        };
        if commands.send(asked).await.is_err() {
            return;
        }
        if let Ok(Ok(found)) = answer.await {
            for (seq, content) in found {
                let told = ServerMsg::Sealed {
                    seq,
                    salt: content.salt,
                    payload: content.payload,
                };
                if !say(&out, told).await {
                    return;
                }
            }
        }
        // The next hidden roll this member may see and was not given with its ack: another's
        // roll, to the game master (the room's task decides by its mode). A player sees only
        // its own, which came with the ack of its throw.
        of = loop {
            match lines.recv().await {
                Ok(line)
                    if gamemaster
                        && line.line.contains(r#""kind":"hidden""#)
                        && !rolled_by(&line.line, &name) =>
                {
                    break Some(line.seq);
                }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => break None,
                Err(RecvError::Closed) => return,
            }
        };
    }
}

/// Whether a hidden roll's line was thrown by `name`.
fn rolled_by(line: &str, name: &str) -> bool {
    matches!(Entry::parse(line), Ok(Entry { event: Event::Hidden { by, .. }, .. }) if by == name)
}

/// The answer to a throw or reveal: the ack (and a hidden roll's content), or the refusal.
async fn done_reply(
    id: u64,
    sent: bool,
    answer: oneshot::Receiver<Result<Done, ServerError>>,
    out: &mpsc::Sender<Message>,
) -> ServerMsg {
    let refused = |e: ServerError| ServerMsg::Refused {
        id,
        code: e.code(),
        reason: e.to_string(),
        refusal_kind: e.refusal_kind(),
    };
    if !sent {
        return refused(ServerError::RoomStopped);
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
        Ok(Err(e)) => refused(e),
        Err(_) => refused(ServerError::RoomStopped),
    }
}

/// A connection in its room: the room, who, as what, the join's answer, and the last entry the
/// client had.
struct Hello {
    handle: RoomHandle,
    name: String,
    role: Role,
    joined: Joined,
    since: u64,
}

/// Creates or joins: the passcode checked, the room running, the member seated.
async fn hello<S: LogStore>(
    hub: &Arc<Hub<S>>,
    room: &str,
    conn: u64,
    peer: Peer,
    msg: ClientMsg,
) -> Result<Hello, ServerError> {
    check_room_name(room)?;
    let same_room = |named: String| {
        if named == room {
            Ok(())
        } else {
            Err(ServerError::RoomMismatch {
                socket: room.to_string(),
                named,
            })
        }
    };
    let (name, role, seats, since, key) = match msg {
        ClientMsg::Create {
            room: named,
            name,
            scene,
            passcode,
            gm_passcode,
            room_passcode,
            ..
        } => {
            same_room(named)?;
            let name = normalise_name(&name)?;
            hub.guard.may_open(peer, room_passcode.as_deref())?;
            create(hub, room, &name, &scene, &passcode, &gm_passcode).await?;
            hub.guard.got_in(peer, room);
            (name, Role::Gamemaster, Vec::new(), 0, None)
        }
        ClientMsg::Join {
            room: named,
            name,
            role,
            seats,
            passcode,
            since,
            key,
            ..
        } => {
            same_room(named)?;
            let name = normalise_name(&name)?;
            let keys = hub.keys(room).await?;
            let kept = if role == Role::Gamemaster {
                keys.gm_passcode
            } else {
                keys.passcode
            };
            hub.guard.may_try(peer, room)?;
            if !hub.passcode_is(peer, room, passcode, kept).await? {
                hub.guard.missed(peer, room);
                return Err(ServerError::WrongPasscode);
            }
            hub.guard.got_in(peer, room);
            (name, role, seats, since, key)
        }
        _ => return Err(ServerError::NotJoined),
    };
    let handle = running_room(hub, room).await?;
    let (reply, answer) = oneshot::channel();
    let command = Command::Join {
        conn,
        name: name.clone(),
        role,
        seats,
        key,
        reply,
    };
    handle
        .commands
        .send(command)
        .await
        .map_err(|_| ServerError::RoomStopped)?;
    let joined = answer.await.map_err(|_| ServerError::RoomStopped)??;
    // A client cannot have more than the log holds: what it claims past the head is clamped.
    let since = since.min(joined.head);
    Ok(Hello {
        handle,
        name,
        role,
        joined,
        since,
    })
}

/// A scene given as text, read as a room's `create` reads it: it parses, makes sense and is
/// within the upload limits (the error names its line and column). The front page's preview
/// reads it the same way, so what it previews is what opens.
pub(super) fn uploaded_scene(text: &str) -> Result<Scene, ServerError> {
    let parsed = Scene::parse("the scene", text).map_err(|e| ServerError::Scene(e.to_string()))?;
    parsed.validate().map_err(|e| ServerError::Scene(e.text))?;
    parsed
        .check_upload("the scene", text)
        .map_err(|e| ServerError::Scene(e.to_string()))?;
    Ok(parsed)
}

/// Opens a room: the scene read, the passcodes hashed, the first line stored.
async fn create<S: LogStore>(
    hub: &Arc<Hub<S>>,
    room: &str,
    name: &str,
    scene: &str,
    passcode: &str,
    gm_passcode: &str,
) -> Result<(), ServerError> {
    if passcode.is_empty() || gm_passcode.is_empty() {
        return Err(ServerError::MissingPasscodes);
    }
    if passcode == gm_passcode {
        return Err(ServerError::SamePasscodes);
    }
    uploaded_scene(scene)?;
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
    let keys = RoomKeys {
        passcode: hash_passcode_async(crate::work::SERVER, passcode.to_string()).await?,
        gm_passcode: hash_passcode_async(crate::work::SERVER, gm_passcode.to_string()).await?,
    };
    hub.store.create_room(room, keys, first).await?;
    Ok(())
}
