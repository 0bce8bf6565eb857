//! A room's task: the only writer of its log on this server. Connections send it commands
//! (join, throw, reveal, leave); it checks, throws, stores, and only then sends each new line to
//! everyone in the room, in log order. Another server's appends (NATS) are read and sent on.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::{broadcast, mpsc, oneshot};

use super::error::ServerError;
use super::limits::{CATCH_UP_PAGE, FANOUT, Pace};
use super::store::{LogStore, StoreError};
use super::{Hub, throws};
use crate::online::log::{
    Entry, Event, MAX_LINE, Proposal, Role, RollMode, SealedRoll, SecretMode, now_ms,
};
use crate::online::protocol::ServerMsg;
use crate::online::room::{CastSeat, Checks, Claim, Drafted, RoomError, RoomState};
use crate::online::seal::{self, SECRET_BYTES};
use crate::record::Gesture;
use crate::rules::play::Move;
use crate::rules::table::TableState;

/// A new line of a room, as its task sends it to every connection: the line, and the room
/// protocol's `entry` message of it, made once for all the room's members rather than by each.
#[derive(Clone, Debug)]
pub struct NewLine {
    /// Its `seq`.
    pub seq: u64,
    /// The line.
    pub line: Arc<str>,
    /// The `entry` message's text.
    pub entry: Arc<str>,
}

impl NewLine {
    fn of(seq: u64, line: String) -> NewLine {
        NewLine {
            seq,
            entry: entry_text(&line).into(),
            line: line.into(),
        }
    }
}

/// The text of a log line's `entry` message (the room protocol's), with a free roll's dice
/// written out.
pub fn entry_text(line: &str) -> String {
    ServerMsg::Entry {
        line: line.to_string(),
        shown: shown_roll(line),
    }
    .to_text()
}

/// A thrown free roll's dice as shown, read from its line (None for anything else).
fn shown_roll(line: &str) -> Option<String> {
    let entry = Entry::parse(line).ok()?;
    let Event::Thrown { record, .. } = entry.event else {
        return None;
    };
    crate::roll::read_record(&record).map(|read| read.shown)
}

/// A running room: its command queue and the feed of its new lines.
#[derive(Clone)]
pub struct RoomHandle {
    /// Commands to the room's task.
    pub commands: mpsc::Sender<Command>,
    /// Each new line, with its `seq`.
    pub lines: broadcast::Sender<NewLine>,
    /// The room as its pages last saw it (a page opening again sees only what is new).
    pub view: Arc<std::sync::Mutex<Option<super::view::SharedView>>>,
}

/// A hidden roll's content for a tray that may draw it: who rolled it, its sealed content and
/// the table it was thrown at (a hidden move's dice are coloured by its acting character).
pub struct Unsealed {
    /// Who rolled.
    pub by: String,
    /// The sealed content.
    pub content: SealedRoll,
    /// The room's table (a hidden move holds it until its reveal).
    pub table: TableState,
    /// How the roller's dice look in the room now.
    pub painter: crate::dice::looks::DicePainter,
}

/// What a connection asks of its room's task.
pub enum Command {
    /// Seat a member (or welcome one back).
    Join {
        /// The connection.
        conn: u64,
        /// Who.
        name: String,
        /// As what.
        role: Role,
        /// The characters a player plays.
        seats: Vec<String>,
        /// The key to the name, as the member showed it.
        key: Option<String>,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<Joined, ServerError>>,
    },
    /// Throw a proposal.
    Throw {
        /// The connection (its secret seeds the throw).
        conn: u64,
        /// Who.
        name: String,
        /// What.
        proposal: Box<Proposed>,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<Done, ServerError>>,
    },
    /// Reveal a hidden roll, or every one not yet revealed.
    Reveal {
        /// The connection.
        conn: u64,
        /// Who.
        name: String,
        /// The hidden roll's `seq` (None: every one not yet revealed, oldest first).
        of: Option<u64>,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<Done, ServerError>>,
    },
    /// The content of the hidden rolls a member may see: every one not yet revealed (`of`
    /// None), or roll `of`.
    Sealed {
        /// Who asks.
        name: String,
        /// One roll, or all.
        of: Option<u64>,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<Vec<(u64, SealedRoll)>, ServerError>>,
    },
    /// The content of hidden roll `of`, not yet revealed, and who rolled it, for a page that
    /// holds the roll's salt (a tray whose member may see it, drawing its dice).
    Unseal {
        /// The roll.
        of: u64,
        /// The salt the page holds.
        salt: String,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<Unsealed, ServerError>>,
    },
    /// The game master seats a member.
    Seat {
        /// The connection.
        conn: u64,
        /// Who asks (the game master).
        by: String,
        /// The member.
        name: String,
        /// Its role from now on.
        role: Role,
        /// Its characters.
        seats: Vec<String>,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<Done, ServerError>>,
    },
    /// A member chooses dice.
    Dice {
        /// The connection.
        conn: u64,
        /// Who asks.
        by: String,
        /// The character whose dice these are (None: the member's own).
        character: Option<String>,
        /// The look (None: the room's own dice).
        look: Option<crate::dice::style::DiceLook>,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<Done, ServerError>>,
    },
    /// The game master sets the room's roll modes.
    Modes {
        /// The connection.
        conn: u64,
        /// Who asks (the game master).
        by: String,
        /// The default mode.
        default: RollMode,
        /// The modes players may use.
        players: Vec<RollMode>,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<Done, ServerError>>,
    },
    /// What a member may do now, and the verdict on its draft.
    Draft {
        /// Who.
        name: String,
        /// The draft (None: the first move the member may make).
        what: Option<Move>,
        /// The table moved on: a draft it no longer allows gives way.
        fresh: bool,
        /// Where the answer goes: the catalogue, and the table the odds are worked out at
        /// when the room would throw the draft.
        reply: oneshot::Sender<Result<(Drafted, Option<TableState>), ServerError>>,
    },
    /// The characters players may take, and who plays each (a join form's list).
    Cast {
        /// Where the answer goes.
        reply: oneshot::Sender<Vec<CastSeat>>,
    },
    /// The connection closed: its secret goes.
    Leave {
        /// The connection.
        conn: u64,
    },
}

/// A throw as proposed.
pub struct Proposed {
    /// What to throw.
    pub what: Proposal,
    /// The commitment the thrower was given.
    pub commitment: String,
    /// The thrower's nonce, hex.
    pub nonce: String,
    /// The hand's swing.
    pub gesture: Option<Gesture>,
    /// A hidden roll, and who sees it before the reveal (None: everyone, at once).
    pub mode: Option<SecretMode>,
    /// What for.
    pub label: Option<String>,
    /// The thrower's address (None in-process): one throw at a time per address.
    pub from: Option<std::net::IpAddr>,
}

/// A join's answer.
pub struct Joined {
    /// The seats taken.
    pub seats: Vec<String>,
    /// The commitment for the member's first throw.
    pub commitment: String,
    /// The log's last `seq`.
    pub head: u64,
    /// The key to the name, when this join took it.
    pub key: Option<String>,
    /// The room's new lines from now on.
    pub lines: broadcast::Receiver<NewLine>,
}

/// A stored proposal's answer.
pub struct Done {
    /// Its entry.
    pub seq: u64,
    /// The commitment for the next throw.
    pub commitment: String,
    /// A hidden roll's content, for its thrower only.
    pub sealed: Option<SealedRoll>,
}

/// The room's task, started from its log if it is not running.
pub async fn running_room<S: LogStore>(
    hub: &Arc<Hub<S>>,
    room: &str,
) -> Result<RoomHandle, ServerError> {
    if let Some(h) = hub.rooms.lock().ok().and_then(|r| r.get(room).cloned())
        && !h.commands.is_closed()
    {
        return Ok(h);
    }
    let lines = hub.store.read(room, 0).await?;
    if lines.is_empty() {
        return Err(ServerError::NoRoom(room.to_string()));
    }
    let pace = Pace::of_lines(&lines);
    let stored_bytes = lines.iter().map(|l| l.len() as u64 + 1).sum();
    let state = tokio::task::spawn_blocking(move || {
        RoomState::replay(lines.iter().map(String::as_str), Checks::default())
    })
    .await
    .map_err(|e| ServerError::Internal(e.to_string()))?
    .map_err(ServerError::BrokenLog)?;
    let watch = hub.store.watch(room).await?;
    let mut rooms = hub
        .rooms
        .lock()
        .map_err(|_| ServerError::Internal("the server's rooms are poisoned".into()))?;
    if let Some(h) = rooms.get(room)
        && !h.commands.is_closed()
    {
        return Ok(h.clone());
    }
    // Rooms unloaded while idle leave their handles behind: swept here.
    rooms.retain(|_, h| !h.commands.is_closed());
    let (commands, queue) = mpsc::channel(64);
    let (lines, _) = broadcast::channel(FANOUT);
    let handle = RoomHandle {
        commands,
        lines,
        view: Arc::default(),
    };
    tokio::spawn(room_task(
        hub.store.clone(),
        (hub.tuning.unload_after, hub.tuning.room_quota),
        Loaded {
            state,
            pace,
            stored_bytes,
        },
        queue,
        handle.lines.clone(),
        watch,
    ));
    rooms.insert(room.to_string(), handle.clone());
    Ok(handle)
}

/// How a connection makes its messages: of a line read from the store, of a new line.
pub type Wrap<T> = (fn(String) -> T, fn(&NewLine) -> T);

/// Sends a connection the lines after `since` from the store (each made a message with
/// `stored`), then the room's new lines in order (each with `new`; from the store again if it
/// fell behind).
pub async fn forward_lines<S: LogStore, T>(
    store: Arc<S>,
    room: String,
    since: u64,
    mut lines: broadcast::Receiver<NewLine>,
    out: mpsc::Sender<T>,
    (stored, new): Wrap<T>,
) -> Result<(), StoreError> {
    let mut last = since;
    let mut catch_up = true;
    loop {
        if catch_up {
            // A page at a time: a client that does not read holds one page and its outbox.
            loop {
                let page = store.read_page(&room, last, CATCH_UP_PAGE).await?;
                let full = page.len() == CATCH_UP_PAGE;
                for line in page {
                    last += 1;
                    if out.send(stored(line)).await.is_err() {
                        return Ok(());
                    }
                }
                if !full {
                    break;
                }
            }
            catch_up = false;
        }
        match lines.recv().await {
            Ok(line) if line.seq > last => {
                if line.seq != last + 1 {
                    catch_up = true;
                    continue;
                }
                last = line.seq;
                if out.send(new(&line)).await.is_err() {
                    return Ok(());
                }
            }
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(_)) => catch_up = true,
            Err(broadcast::error::RecvError::Closed) => return Ok(()),
        }
    }
}

/// What the room's task holds besides the room: the store, the feed of new lines, and each
/// connection's secret for its next throw.
pub struct Task<S: LogStore> {
    /// The room's log store.
    pub store: Arc<S>,
    /// The room as its log makes it.
    pub state: RoomState,
    /// The feed of new lines.
    pub lines: broadcast::Sender<NewLine>,
    /// Each connection's secret for its next throw.
    pub secrets: HashMap<u64, [u8; SECRET_BYTES]>,
    /// The room's throws as its log dates them.
    pub pace: Pace,
    /// The bytes of the room's log (its lines and their line ends).
    pub stored_bytes: u64,
    /// The most it may hold ([`super::limits::Tuning::room_quota`]).
    pub quota: u64,
}

/// A room as its log loaded it.
struct Loaded {
    state: RoomState,
    pace: Pace,
    stored_bytes: u64,
}

async fn room_task<S: LogStore>(
    store: Arc<S>,
    (unload_after, quota): (std::time::Duration, u64),
    loaded: Loaded,
    mut queue: mpsc::Receiver<Command>,
    lines: broadcast::Sender<NewLine>,
    mut watch: Option<mpsc::Receiver<()>>,
) {
    let mut task = Task {
        store,
        state: loaded.state,
        lines,
        secrets: HashMap::new(),
        pace: loaded.pace,
        stored_bytes: loaded.stored_bytes,
        quota,
    };
    let idle = tokio::time::sleep(unload_after);
    tokio::pin!(idle);
    loop {
        let cmd = tokio::select! {
            cmd = queue.recv() => match cmd {
                Some(cmd) => cmd,
                None => break,
            },
            () = &mut idle => {
                // Nobody in the room and no page on it: its memory goes; the next join
                // loads it again from its log.
                if task.secrets.is_empty() && task.lines.receiver_count() == 0 {
                    eprintln!("room {}: unloaded (idle)", task.state.room);
                    break;
                }
                idle.as_mut().reset(tokio::time::Instant::now() + unload_after);
                continue;
            }
            Some(()) = async { match watch.as_mut() { Some(w) => w.recv().await, None => std::future::pending().await } } => {
                // Another server appended: read it, send it on.
                if let Err(e) = task.catch_up().await {
                    eprintln!("room {}: {e}", task.state.room);
                }
                continue;
            }
        };
        idle.as_mut()
            .reset(tokio::time::Instant::now() + unload_after);
        match cmd {
            Command::Leave { conn } => {
                task.secrets.remove(&conn);
            }
            Command::Cast { reply } => {
                let _ = reply.send(task.state.players_cast());
            }
            Command::Draft {
                name,
                what,
                fresh,
                reply,
            } => {
                let answer = task.state.draft(&name, what, fresh).map(|d| {
                    let table = d.refused.is_none().then(|| task.state.table.clone());
                    (d, table)
                });
                let _ = reply.send(answer.map_err(ServerError::from));
            }
            Command::Join {
                conn,
                name,
                role,
                seats,
                key,
                reply,
            } => {
                let answer = task.join(&name, role, &seats, key.as_deref()).await;
                let answer = answer.map(|(head, key)| {
                    let secret = seal::random_bytes();
                    let commitment = seal::commitment(&secret);
                    task.secrets.insert(conn, secret);
                    Joined {
                        seats,
                        commitment,
                        head,
                        key,
                        lines: task.lines.subscribe(),
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
                let result = if task.pace.may_throw(now_ms()) {
                    throws::throw(&mut task, conn, &name, *proposal).await
                } else {
                    Err(ServerError::RoomBusy)
                };
                let _ = reply.send(result);
            }
            Command::Seat {
                conn,
                by,
                name,
                role,
                seats,
                reply,
            } => {
                let stored = task.seat(&by, &name, role, &seats).await;
                let result = stored.map(|seq| task.stored(conn, seq));
                let _ = reply.send(result);
            }
            Command::Modes {
                conn,
                by,
                default,
                players,
                reply,
            } => {
                let stored = task.set_modes(&by, default, players).await;
                let result = stored.map(|seq| task.stored(conn, seq));
                let _ = reply.send(result);
            }
            Command::Dice {
                conn,
                by,
                character,
                look,
                reply,
            } => {
                let stored = task.choose_dice(&by, character, look).await;
                let result = stored.map(|seq| task.stored(conn, seq));
                let _ = reply.send(result);
            }
            Command::Sealed { name, of, reply } => {
                let _ = reply.send(task.sealed_for(&name, of).await);
            }
            Command::Unseal { of, salt, reply } => {
                let _ = reply.send(task.unsealed(of, &salt).await);
            }
            Command::Reveal {
                conn,
                name,
                of,
                reply,
            } => {
                let stored = match of {
                    Some(of) => throws::reveal(&mut task, &name, of).await,
                    None => throws::reveal_all(&mut task, &name).await,
                };
                let result = stored.map(|seq| task.stored(conn, seq));
                let _ = reply.send(result);
            }
        }
    }
}

impl<S: LogStore> Task<S> {
    /// The content of the hidden rolls, not yet revealed, that `name` may see (all, or `of`).
    async fn sealed_for(
        &mut self,
        name: &str,
        of: Option<u64>,
    ) -> Result<Vec<(u64, SealedRoll)>, ServerError> {
        self.catch_up().await?;
        let seqs = match of {
            Some(seq) => {
                let unrevealed = self.state.still_sealed(seq).is_ok();
                (unrevealed && self.state.may_see(name, seq))
                    .then_some(seq)
                    .into_iter()
                    .collect()
            }
            None => self.state.sealed_for(name),
        };
        let mut found = Vec::with_capacity(seqs.len());
        for seq in seqs {
            if let Some(content) = self.store.sealed(&self.state.room, seq).await? {
                found.push((seq, content));
            }
        }
        Ok(found)
    }

    /// Hidden roll `of`'s content and who rolled it, when `salt` is its seal's: only those the
    /// roll's mode shows it to were given the salt.
    async fn unsealed(&mut self, of: u64, salt: &str) -> Result<Unsealed, ServerError> {
        self.catch_up().await?;
        let by = self.state.still_sealed(of)?.by.clone();
        match self.store.sealed(&self.state.room, of).await? {
            // The table now is the one it was thrown at: a hidden move holds it until revealed.
            Some(content) if crate::net::auth::same(&content.salt, salt) => Ok(Unsealed {
                painter: self.state.painter(&by),
                by,
                content,
                table: self.state.table.clone(),
            }),
            _ => Err(RoomError::NotShown(of).into()),
        }
    }

    /// The answer to a stored entry that throws nothing: its `seq` and the connection's
    /// commitment, unchanged.
    fn stored(&self, conn: u64, seq: u64) -> Done {
        Done {
            seq,
            commitment: self
                .secrets
                .get(&conn)
                .map(|s| seal::commitment(s))
                .unwrap_or_default(),
            sealed: None,
        }
    }

    /// Stores an event as the room's next line, applies it, sends it out. A conflict (another
    /// node appended first) reloads the room from the store and says [`ServerError::Raced`].
    /// A line no reader would take (over [`MAX_LINE`]) is refused, never stored, and a room
    /// whose log holds its quota takes nothing more but reveals (a hidden roll already in the
    /// log is always shown): [`ServerError::RoomFull`].
    pub async fn append(
        &mut self,
        event: Event,
        sealed: Option<SealedRoll>,
    ) -> Result<u64, ServerError> {
        let seq = self.state.seq + 1;
        let entry = Entry {
            seq,
            prev: self.state.head.clone(),
            at_ms: now_ms(),
            event,
        };
        let line = entry.to_line();
        if line.len() > MAX_LINE {
            return Err(ServerError::EntryTooLarge(line.len()));
        }
        let reveal = matches!(entry.event, Event::Revealed { .. });
        if !reveal && self.stored_bytes + line.len() as u64 + 1 > self.quota {
            return Err(ServerError::RoomFull(self.quota));
        }
        let mut next = self.state.clone();
        next.apply_line(&line, Checks::default())
            .map_err(ServerError::BadEntry)?;
        match self
            .store
            .append(&self.state.room, seq, line.clone(), sealed)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => {
                self.catch_up().await?;
                return Err(ServerError::Raced);
            }
            Err(e) => return Err(e.into()),
        }
        self.state = next;
        self.stored_bytes += line.len() as u64 + 1;
        self.pace.note(&entry);
        let _ = self.lines.send(NewLine::of(seq, line));
        Ok(seq)
    }

    /// Reads what other servers appended, applies it and sends it on.
    pub async fn catch_up(&mut self) -> Result<(), ServerError> {
        let more = self.store.read(&self.state.room, self.state.seq).await?;
        for line in more {
            let entry = self.state.apply_line(&line, Checks::default())?;
            self.stored_bytes += line.len() as u64 + 1;
            self.pace.note(&entry);
            let _ = self.lines.send(NewLine::of(entry.seq, line));
        }
        Ok(())
    }

    /// The game master seats `name` as `role` with `seats`: a `joined` entry (the member keeps
    /// its key), its `seq`.
    async fn seat(
        &mut self,
        by: &str,
        name: &str,
        role: Role,
        seats: &[String],
    ) -> Result<u64, ServerError> {
        self.catch_up().await?;
        self.state.may_seat(by, name, role, seats)?;
        self.append(
            Event::Joined {
                name: name.into(),
                role,
                seats: seats.to_vec(),
                key: None,
            },
            None,
        )
        .await
    }

    /// A member's choice of dice: a `dice` entry's `seq`.
    async fn choose_dice(
        &mut self,
        by: &str,
        character: Option<String>,
        look: Option<crate::dice::style::DiceLook>,
    ) -> Result<u64, ServerError> {
        self.catch_up().await?;
        self.state.may_choose_dice(by, character.as_deref())?;
        self.append(
            Event::Dice {
                by: by.into(),
                character,
                look,
            },
            None,
        )
        .await
    }

    /// Sets the room's roll modes (the game master's): a `modes` entry's `seq`.
    async fn set_modes(
        &mut self,
        by: &str,
        default: RollMode,
        players: Vec<RollMode>,
    ) -> Result<u64, ServerError> {
        self.catch_up().await?;
        self.state.may_set_modes(by, default, &players)?;
        self.append(
            Event::Modes {
                by: by.into(),
                default,
                players,
            },
            None,
        )
        .await
    }

    /// Seats a member (a `joined` entry, unless it comes back as it was): the log's head, and
    /// the key to the name when this join took it.
    async fn join(
        &mut self,
        name: &str,
        role: Role,
        seats: &[String],
        key: Option<&str>,
    ) -> Result<(u64, Option<String>), ServerError> {
        self.catch_up().await?;
        let (wanted, claim) = self.state.may_claim(name, role, seats, key)?;
        let (commitment, key) = match claim {
            Claim::Known => (None, None),
            Claim::New { key, commitment } => (Some(commitment), Some(key)),
        };
        let same = commitment.is_none()
            && self
                .state
                .members
                .get(name)
                .is_some_and(|m| m.role == role && m.seats == wanted);
        if !same {
            self.append(
                Event::Joined {
                    name: name.into(),
                    role,
                    seats: seats.to_vec(),
                    key: commitment,
                },
                None,
            )
            .await?;
        }
        Ok((self.state.seq, key))
    }
}
