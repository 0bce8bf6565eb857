//! The client of the table server, in a thread of its own with a tokio runtime: it joins,
//! hands every checked log line to the window, sends the window's proposals, and reconnects
//! by itself.

use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Duration;

use tokio::sync::mpsc as tokio_mpsc;
use tokio::sync::oneshot;

use super::Connection;
use crate::net::bell::Bell;
use crate::net::runtime::{Threads, in_own_thread};
use crate::online::client::{Client, ClientError, JoinAs, ThrowError};
use crate::online::keys;
use crate::online::log::{Entry, Event, HiddenRoll, Proposal, Role, RollMode, SecretMode};
use crate::online::room::Checks;
use crate::record::{Gesture, RollRecord};
use crate::stream::api::ApiError;
use crate::stream::server::Logged;

/// `play --join`: where and as whom.
#[derive(Clone, Debug)]
pub struct JoinOptions {
    /// `ws://HOST:PORT/ROOM` or `wss://...`.
    pub url: String,
    /// Your name.
    pub name: String,
    /// The passcode (the game master's own for the game master).
    pub passcode: String,
    /// Your role.
    pub role: Role,
    /// The characters you play.
    pub seats: Vec<String>,
    /// Over `wss://`, a certificate to trust beside the system's.
    pub trust: Option<std::path::PathBuf>,
    /// The window's own dice: chosen for the member once it is in, where the room does not
    /// have them already.
    pub dice: Option<crate::dice::style::DiceLook>,
}

/// Why the client could not start.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// Not a room's address.
    #[error(transparent)]
    Address(#[from] ClientError),
    /// No thread or runtime for it.
    #[error("cannot start the client: {0}")]
    Start(#[from] crate::net::runtime::NetError),
}

/// From the window to the client.
#[derive(Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "a handful of messages wait at a time: boxing a proposal would save nothing"
)]
pub(super) enum ToServer {
    /// Propose a throw.
    Throw {
        what: Proposal,
        gesture: Option<Gesture>,
        label: Option<String>,
        /// Who sees it (None: everyone at once).
        mode: Option<SecretMode>,
        /// Where the API waits for what the room logged (None: the window's own throw).
        reply: Option<oneshot::Sender<Result<Logged, ApiError>>>,
    },
    /// Choose the member's own dice (None: the room's own).
    Dice(Option<crate::dice::style::DiceLook>),
}

/// From the client to the window.
#[derive(Debug)]
pub(super) enum FromServer {
    /// The connection changed.
    Connection(Connection),
    /// The next checked log line.
    Line(String),
    /// An own proposal logged.
    Logged,
    /// A proposal refused (or lost with the connection), with why.
    Refused(String),
    /// A hidden roll this member may see: its `seq` and its content.
    Sealed(u64, Box<HiddenRoll>),
}

/// Both ends, held by the window.
pub(super) struct Link {
    to_server: tokio_mpsc::UnboundedSender<ToServer>,
    from_server: Mutex<mpsc::Receiver<FromServer>>,
}

impl Link {
    /// Starts the client's thread; it rings `bell` whenever it hands the window something.
    pub(super) fn start(join: JoinOptions, bell: Bell) -> Result<Link, LinkError> {
        crate::online::client::room_of(&join.url)?;
        let (to_server, inbox) = tokio_mpsc::unbounded_channel();
        let (outbox, from_server) = mpsc::channel();
        in_own_thread("table-server-client", Threads::Current, move || {
            run(join, inbox, Outbox { to: outbox, bell })
        })?;
        Ok(Link {
            to_server,
            from_server: Mutex::new(from_server),
        })
    }

    /// Sends a proposal.
    pub(super) fn send(&self, msg: ToServer) {
        let _ = self.to_server.send(msg);
    }

    /// What came since the last frame.
    pub(super) fn drain(&self) -> Vec<FromServer> {
        self.from_server
            .lock()
            .map(|r| r.try_iter().collect())
            .unwrap_or_default()
    }
}

/// The client's end of what goes to the window, and the bell that wakes it (a window draws
/// no frames while its table is still).
struct Outbox {
    to: mpsc::Sender<FromServer>,
    bell: Bell,
}

impl Outbox {
    /// Hands `m` to the window and wakes it: false once the window is gone.
    fn send(&self, m: FromServer) -> bool {
        let sent = self.to.send(m).is_ok();
        self.bell.ring();
        sent
    }
}

/// The client's loop: join (trying again until it works), then proposals and news.
async fn run(
    join: JoinOptions,
    mut inbox: tokio_mpsc::UnboundedReceiver<ToServer>,
    outbox: Outbox,
) {
    // The keys to names taken in rooms live beside the history.
    let keys_dir = crate::folders::data_dir();
    let as_ = JoinAs {
        url: join.url.clone(),
        name: join.name.clone(),
        role: join.role,
        seats: join.seats.clone(),
        passcode: join.passcode.clone(),
        key: keys_dir
            .as_deref()
            .and_then(|dir| keys::load(dir, &join.url, &join.name)),
        trust: join.trust.clone(),
        from: None,
    };
    let say = |m: FromServer| outbox.send(m);
    let mut client = loop {
        match Client::connect(as_.clone(), None, Checks::default()).await {
            Ok(c) => break c,
            // Refused for who asked (a wrong passcode, no such room, a seat taken...): trying
            // again cannot help. A server that cannot be reached may come back.
            Err(e) if e.is_final() => {
                say(FromServer::Connection(Connection::Failed(e.to_string())));
                return;
            }
            Err(e) => {
                if !say(FromServer::Connection(Connection::Connecting(format!(
                    "cannot reach the server ({e}); trying again"
                )))) {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        }
    };
    say(FromServer::Connection(Connection::Connected));
    keep_key(keys_dir.as_deref(), &join, &client);
    // The window's own dice, where the room does not have them for this member yet.
    let in_room = client
        .room
        .as_ref()
        .and_then(|r| r.dice.members.get(&join.name).copied());
    if join.dice.is_some()
        && join.dice != in_room
        && let Err(e) = client.choose_dice(None, join.dice).await
    {
        say(FromServer::Refused(e.to_string()));
    }
    let mut sent = 0;
    let mut logged = 0;
    let mut told_sealed = std::collections::HashSet::new();
    loop {
        // The lines first, then that a proposal was logged: the window never sees a gap.
        for line in &client.lines[sent..] {
            if !say(FromServer::Line(line.clone())) {
                return;
            }
        }
        sent = client.lines.len();
        // The hidden rolls this member may see, each once.
        for (seq, content) in &client.sealed {
            if told_sealed.insert(*seq)
                && let Ok(hidden) = serde_json::from_str::<HiddenRoll>(&content.payload)
                && !say(FromServer::Sealed(*seq, Box::new(hidden)))
            {
                return;
            }
        }
        for _ in 0..std::mem::take(&mut logged) {
            say(FromServer::Logged);
        }
        let reconnects = client.reconnects;
        tokio::select! {
            msg = inbox.recv() => match msg {
                None => return,
                Some(ToServer::Throw { what, gesture, label, mode, reply }) => {
                    let answer = match client.throw_in_mode(what, gesture, mode, label).await {
                        Ok(seq) => {
                            logged += 1;
                            let record = logged_roll(&client, seq);
                            Ok(Logged { seq, mode: RollMode::of(mode), record })
                        }
                        Err(ThrowError::Refused { code, reason, .. }) => {
                            say(FromServer::Refused(reason.clone()));
                            Err(ApiError::RoomRefused { code, reason })
                        }
                        Err(e) => {
                            say(FromServer::Refused(e.to_string()));
                            Err(ApiError::Failed(e.to_string()))
                        }
                    };
                    if let Some(reply) = reply {
                        let _ = reply.send(answer);
                    }
                }
                Some(ToServer::Dice(look)) => {
                    if let Err(e) = client.choose_dice(None, look).await {
                        say(FromServer::Refused(e.to_string()));
                    }
                }
            },
            more = client.wait_for_more(Duration::from_millis(500)) => {
                if let Err(e) = more {
                    say(FromServer::Connection(Connection::Failed(e.to_string())));
                    return;
                }
            }
        }
        if client.reconnects != reconnects {
            say(FromServer::Connection(Connection::Connected));
        }
    }
}

/// The roll of entry `seq`, as this member may see it: a public throw's from its line, a
/// hidden one's from its content (None for a blind roll, and for a move without dice).
fn logged_roll(client: &Client, seq: u64) -> Option<RollRecord> {
    if let Some(content) = client.sealed.get(&seq) {
        return serde_json::from_str::<HiddenRoll>(&content.payload)
            .ok()
            .map(|h| h.record);
    }
    client
        .lines
        .iter()
        .rev()
        .filter_map(|line| Entry::parse(line).ok())
        .find(|e| e.seq == seq)
        .and_then(|e| match e.event {
            Event::Thrown { record, .. } => Some(*record),
            _ => None,
        })
}

/// Keeps the key to the name the room gave (a key lost is the name lost).
fn keep_key(dir: Option<&std::path::Path>, join: &JoinOptions, client: &Client) {
    if let (Some(dir), Some(key)) = (dir, client.key())
        && let Err(e) = keys::save(dir, &join.url, &join.name, key)
    {
        eprintln!("warning: the key to your name in the room could not be kept: {e}");
    }
}
