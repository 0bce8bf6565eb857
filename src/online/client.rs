//! A client of a table server, headless (tokio): joins, catches up, proposes throws, and checks
//! every entry it receives as the server should have made it (chain, rights, seed proof, rules,
//! and re-simulated physics when asked). A dropped connection reconnects by itself and asks for
//! what it missed. The window, the load tool and the tests use it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{
    Connector, MaybeTlsStream, WebSocketStream, connect_async_tls_with_config,
};

use super::log::{Entry, Event, Proposal, Role, RollMode, SealedRoll, SecretMode};
use super::protocol::{ClientMsg, DecodeError, PROTOCOL, ServerMsg, decode_server};
use super::room::{Checks, RoomError, RoomState};
use super::seal::{self, NONCE_BYTES};
use crate::errors::ErrorCode;
use crate::record::Gesture;

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How to come in: the room's URL, who, as what, with which passcode.
#[derive(Clone, Debug)]
pub struct JoinAs {
    /// `ws://HOST:PORT/ROOM`, or `wss://` for a server with TLS.
    pub url: String,
    /// Your name.
    pub name: String,
    /// Your role.
    pub role: Role,
    /// The characters you play.
    pub seats: Vec<String>,
    /// The passcode (the game master's own for the game master).
    pub passcode: String,
    /// The key to the name, given by the server when the name was first taken (None: take
    /// the name now). A client that took it keeps it here for every later join.
    pub key: Option<String>,
    /// Over `wss://`, a certificate (PEM) to trust beside the system's: a server whose
    /// certificate is its own (`play --join wss://... --trust-cert FILE`).
    pub trust: Option<PathBuf>,
    /// The local address to connect from (None: the system's choice). The load tool and the
    /// tests speak as many clients (127.0.0.2, 127.0.0.3, …) or as one household.
    pub from: Option<std::net::IpAddr>,
}

/// How long a client keeps asking again when the server answers its join `busy` (its share of
/// the passcode checks taken: a whole classroom joining from one address at once). Each time
/// it waits the retry time the server gave.
pub const BUSY_PATIENCE: Duration = Duration::from_secs(60);
/// The wait before asking again when a `busy` answer names none.
const BUSY_RETRY: Duration = Duration::from_millis(250);

/// A room to open instead of joining: the scene's text and the players' passcode (the
/// [`JoinAs`] passcode is then the game master's).
#[derive(Clone, Debug)]
pub struct Create {
    /// The scene file's text.
    pub scene: String,
    /// The passcode players and spectators join with.
    pub passcode: String,
    /// The server's passcode for opening rooms, where its owner set one.
    pub room_passcode: Option<String>,
}

/// Why a client could not come in, or lost the room.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ClientError {
    /// Not a `ws://` or `wss://` address.
    #[error("'{0}' is not a room's address: ws://HOST:PORT/ROOM")]
    NotAnAddress(String),
    /// An address without a room.
    #[error("'{0}' names no room: ws://HOST:PORT/ROOM")]
    NoRoomNamed(String),
    /// The server could not be reached, or the connection failed.
    #[error("{0}")]
    Connection(String),
    /// The server said no, with its code.
    #[error("{message}")]
    Server {
        /// The server's code.
        code: ErrorCode,
        /// Its words.
        message: String,
        /// Where waiting helps, how long the server asked the client to wait.
        retry_after: Option<Duration>,
    },
    /// The server sent something that does not read.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// An entry of the room's log did not check here.
    #[error("the room's log did not check: {0}")]
    Log(RoomError),
}

impl ClientError {
    /// The server's code, when the server said no.
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            ClientError::Server { code, .. } => Some(*code),
            ClientError::Decode(e) => Some(e.code()),
            ClientError::Log(e) => Some(e.code()),
            _ => None,
        }
    }

    /// True when trying again cannot help: the server refused who asked (a wrong passcode, no
    /// such room or character, a seat taken, a name or role not theirs), or the room's log does
    /// not check. A connection that failed may come back.
    pub fn is_final(&self) -> bool {
        match self {
            ClientError::Connection(_) => false,
            ClientError::Server { code, .. } => !matches!(
                code,
                ErrorCode::RateLimited
                    | ErrorCode::BackingOff
                    | ErrorCode::Busy
                    | ErrorCode::RoomStopped
                    | ErrorCode::StoreFailed
                    | ErrorCode::StoreUnavailable
                    | ErrorCode::HelloTimeout
                    | ErrorCode::Raced
                    | ErrorCode::Internal
            ),
            _ => true,
        }
    }
}

/// Why a proposal did not make it into the log.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ThrowError {
    /// The server refused it, with its code and reason.
    #[error("refused: {reason}")]
    Refused {
        /// The server's code.
        code: ErrorCode,
        /// Its words.
        reason: String,
        /// The kind of the rules' refusal, where the rules refused.
        refusal_kind: Option<crate::rules::RefusalKind>,
    },
    /// The connection failed before the proposal went out; it came back, nothing was sent.
    #[error("{0}; reconnected, the proposal was not sent")]
    NotSent(ClientError),
    /// The connection failed after the proposal went out, and it is not in the log that came
    /// back: throw again.
    #[error("{0}; reconnected, the throw was not stored: throw again")]
    NotStored(ClientError),
    /// The connection failed and did not come back.
    #[error(transparent)]
    Connection(#[from] ClientError),
}

/// The room name of a `ws://HOST:PORT/ROOM` URL.
pub fn room_of(url: &str) -> Result<String, ClientError> {
    let rest = url
        .strip_prefix("ws://")
        .or_else(|| url.strip_prefix("wss://"))
        .ok_or_else(|| ClientError::NotAnAddress(url.to_string()))?;
    let (_, room) = rest
        .split_once('/')
        .ok_or_else(|| ClientError::NoRoomNamed(url.to_string()))?;
    let room = room.split(['?', '#']).next().unwrap_or("");
    if room.is_empty() || room.contains('/') {
        return Err(ClientError::NoRoomNamed(url.to_string()));
    }
    Ok(room.to_string())
}

/// A connected client and the room as it has checked it.
pub struct Client {
    join: JoinAs,
    room_name: String,
    socket: Option<Socket>,
    /// The log lines received, in order.
    pub lines: Vec<String>,
    /// The room (None until its first entry).
    pub room: Option<RoomState>,
    /// The commitment for the next throw.
    commitment: String,
    next_id: u64,
    checks: Checks,
    /// The content of the hidden rolls you may see, by `seq`.
    pub sealed: HashMap<u64, SealedRoll>,
    /// Every text the server sent, kept once [`Client::keep_heard`] asks (a test of what a
    /// member may not see reads it; nothing else keeps it).
    heard: Option<Vec<String>>,
    /// The bytes of every text the server sent (the load tool's figure).
    bytes_heard: u64,
    /// Entries that did not apply (a forged or broken log): shown, and the client stops there.
    pub failures: Vec<RoomError>,
    /// How often the connection was made again.
    pub reconnects: u32,
    /// How often a join was answered `busy` and sent again.
    pub busy_answers: u32,
    /// The server's head when it welcomed us.
    head: u64,
}

async fn open_socket(
    url: &str,
    trust: Option<&std::path::Path>,
    from: Option<std::net::IpAddr>,
) -> Result<Socket, ClientError> {
    let connector = match url.starts_with("wss://") {
        true => Some(Connector::Rustls(
            crate::net::tls::client_config(trust)
                .map_err(|e| ClientError::Connection(format!("{url}: {e}")))?,
        )),
        false => None,
    };
    let connect = async {
        let Some(from) = from else {
            return connect_async_tls_with_config(url, None, true, connector).await;
        };
        let tcp = tcp_from(url, from).await?;
        tokio_tungstenite::client_async_tls_with_config(url, tcp, None, connector).await
    };
    let (socket, _) = tokio::time::timeout(Duration::from_secs(10), connect)
        .await
        .map_err(|_| ClientError::Connection(format!("{url}: no answer in 10 s")))?
        .map_err(|e| ClientError::Connection(format!("{url}: {e}")))?;
    Ok(socket)
}

/// A TCP connection to `url`'s host from the local address `from`.
async fn tcp_from(url: &str, from: std::net::IpAddr) -> Result<TcpStream, tungstenite::Error> {
    use tungstenite::Error as WsError;
    use tungstenite::error::UrlError;
    let uri: tungstenite::http::Uri = url
        .parse()
        .map_err(|_| WsError::Url(UrlError::NoHostName))?;
    let host = uri.host().ok_or(WsError::Url(UrlError::NoHostName))?;
    let port = uri
        .port_u16()
        .unwrap_or(if url.starts_with("wss://") { 443 } else { 80 });
    let to = tokio::net::lookup_host((host.trim_matches(['[', ']']), port))
        .await?
        .find(|a| a.is_ipv4() == from.is_ipv4())
        .ok_or(WsError::Url(UrlError::UnableToConnect(url.to_string())))?;
    let socket = match from {
        std::net::IpAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        std::net::IpAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.bind(std::net::SocketAddr::new(from, 0))?;
    let tcp = socket.connect(to).await?;
    let _ = tcp.set_nodelay(true);
    Ok(tcp)
}

/// A connection that failed, in words.
fn failed(e: impl std::fmt::Display) -> ClientError {
    ClientError::Connection(format!("the connection failed: {e}"))
}

impl Client {
    /// A client not yet connected, with no lines.
    fn new(join: JoinAs, checks: Checks) -> Result<Client, ClientError> {
        Ok(Client {
            room_name: room_of(&join.url)?,
            socket: None,
            lines: Vec::new(),
            room: None,
            commitment: String::new(),
            next_id: 1,
            checks,
            sealed: HashMap::new(),
            heard: None,
            bytes_heard: 0,
            failures: Vec::new(),
            reconnects: 0,
            busy_answers: 0,
            head: 0,
            join,
        })
    }

    /// Connects and joins (or creates the room first), then catches up with the log.
    pub async fn connect(
        join: JoinAs,
        create: Option<Create>,
        checks: Checks,
    ) -> Result<Client, ClientError> {
        let mut client = Client::new(join, checks)?;
        let hello = match create {
            Some(c) => ClientMsg::Create {
                v: PROTOCOL,
                room: client.room_name.clone(),
                name: client.join.name.clone(),
                scene: c.scene,
                passcode: c.passcode,
                gm_passcode: client.join.passcode.clone(),
                room_passcode: c.room_passcode,
            },
            None => client.join_msg(),
        };
        client.hello(hello).await?;
        Ok(client)
    }

    /// Joins keeping every text the server sends from the first (see [`Client::heard`]).
    pub async fn join_keeping_heard(join: JoinAs, checks: Checks) -> Result<Client, ClientError> {
        let mut client = Client::new(join, checks)?;
        client.keep_heard();
        let hello = client.join_msg();
        client.hello(hello).await?;
        Ok(client)
    }

    /// Comes back with the lines already checked: only the rest is sent.
    pub async fn resume(
        join: JoinAs,
        lines: Vec<String>,
        checks: Checks,
    ) -> Result<Client, ClientError> {
        let mut client = Client::new(join, checks)?;
        for line in lines {
            client.take_line(line);
        }
        let hello = client.join_msg();
        client.hello(hello).await?;
        Ok(client)
    }

    fn join_msg(&self) -> ClientMsg {
        ClientMsg::Join {
            v: PROTOCOL,
            room: self.room_name.clone(),
            name: self.join.name.clone(),
            role: self.join.role,
            seats: self.join.seats.clone(),
            passcode: self.join.passcode.clone(),
            since: self.lines.len() as u64,
            key: self.join.key.clone(),
        }
    }

    /// Says hello and waits for the welcome, then for the log up to the head. A join the
    /// server answers `busy` is sent again after the wait it names, for [`BUSY_PATIENCE`].
    async fn hello(&mut self, hello: ClientMsg) -> Result<(), ClientError> {
        let until = tokio::time::Instant::now() + BUSY_PATIENCE;
        loop {
            match self.hello_once(&hello).await {
                Err(ClientError::Server {
                    code: ErrorCode::Busy,
                    retry_after,
                    ..
                }) if tokio::time::Instant::now() < until => {
                    self.busy_answers += 1;
                    tokio::time::sleep(retry_after.unwrap_or(BUSY_RETRY)).await;
                }
                done => return done,
            }
        }
    }

    /// One hello on a connection of its own.
    async fn hello_once(&mut self, hello: &ClientMsg) -> Result<(), ClientError> {
        let mut socket =
            open_socket(&self.join.url, self.join.trust.as_deref(), self.join.from).await?;
        let text = serde_json::to_string(hello).map_err(failed)?;
        socket
            .send(Message::Text(text.into()))
            .await
            .map_err(failed)?;
        self.socket = Some(socket);
        loop {
            match self.receive().await? {
                ServerMsg::Welcome {
                    commitment,
                    head,
                    name,
                    key,
                    ..
                } => {
                    self.commitment = commitment;
                    self.head = head;
                    // The name as the room keeps it, and its key when this join took it.
                    self.join.name = name;
                    if key.is_some() {
                        self.join.key = key;
                    }
                    break;
                }
                ServerMsg::Error {
                    code,
                    message,
                    retry_after_ms,
                } => {
                    self.socket = None;
                    return Err(ClientError::Server {
                        code,
                        message,
                        retry_after: retry_after_ms.map(Duration::from_millis),
                    });
                }
                _ => {}
            }
        }
        // Catch up to the head on this connection (a failure here makes the caller retry).
        while self.seq() < self.head {
            if let Some(f) = self.failures.first() {
                return Err(ClientError::Log(f.clone()));
            }
            self.receive().await?;
        }
        Ok(())
    }

    /// Your name.
    pub fn name(&self) -> &str {
        &self.join.name
    }

    /// The key to your name in the room (keep it to come back under the name).
    pub fn key(&self) -> Option<&str> {
        self.join.key.as_deref()
    }

    /// Keeps every text the server sends from now on (see [`Client::heard`]).
    pub fn keep_heard(&mut self) {
        self.heard.get_or_insert_with(Vec::new);
    }

    /// Every text the server sent since [`Client::keep_heard`], in order.
    pub fn heard(&self) -> &[String] {
        self.heard.as_deref().unwrap_or_default()
    }

    /// The bytes of every text the server sent this client so far.
    pub fn bytes_heard(&self) -> u64 {
        self.bytes_heard
    }

    /// The last entry checked.
    pub fn seq(&self) -> u64 {
        self.lines.len() as u64
    }

    /// Reads one message; an entry is checked and applied, a hidden roll's content kept.
    async fn receive(&mut self) -> Result<ServerMsg, ClientError> {
        let closed = || ClientError::Connection("the server closed the connection".into());
        loop {
            let socket = self
                .socket
                .as_mut()
                .ok_or_else(|| ClientError::Connection("not connected".into()))?;
            let m = socket.next().await.ok_or_else(closed)?.map_err(failed)?;
            let text = match m {
                Message::Text(t) => t.to_string(),
                Message::Close(_) => return Err(closed()),
                _ => continue,
            };
            self.bytes_heard += text.len() as u64;
            if let Some(heard) = &mut self.heard {
                heard.push(text.clone());
            }
            let msg = decode_server(&text)?;
            match &msg {
                ServerMsg::Entry { line, .. } => self.take_line(line.clone()),
                ServerMsg::Sealed { seq, salt, payload } => {
                    self.sealed.insert(
                        *seq,
                        SealedRoll {
                            salt: salt.clone(),
                            payload: payload.clone(),
                        },
                    );
                }
                _ => {}
            }
            return Ok(msg);
        }
    }

    /// Checks and applies one line (a line that fails is kept out and named in `failures`).
    fn take_line(&mut self, line: String) {
        let result = match &mut self.room {
            None => RoomState::open(&line).map(|r| self.room = Some(r)),
            Some(room) => room.apply_line(&line, self.checks).map(|_| ()),
        };
        match result {
            Ok(()) => self.lines.push(line),
            Err(e) => self.failures.push(e),
        }
    }

    /// Reads until the log reaches `seq` (or the connection fails: then reconnects).
    pub async fn sync_to(&mut self, seq: u64) -> Result<(), ClientError> {
        while self.seq() < seq {
            if let Some(f) = self.failures.first() {
                return Err(ClientError::Log(f.clone()));
            }
            if let Err(e) = self.receive().await {
                self.reconnect(&e).await?;
            }
        }
        Ok(())
    }

    /// Waits up to `wait` for more entries (another player's throw); false if none came.
    pub async fn wait_for_more(&mut self, wait: Duration) -> Result<bool, ClientError> {
        let before = self.seq();
        let deadline = tokio::time::Instant::now() + wait;
        while self.seq() == before {
            match tokio::time::timeout_at(deadline, self.receive()).await {
                Err(_) => return Ok(false),
                Ok(Err(e)) => self.reconnect(&e).await?,
                Ok(Ok(_)) => {}
            }
        }
        Ok(true)
    }

    /// Connects again (a few tries, backing off) and asks for what was missed.
    pub async fn reconnect(&mut self, why: &ClientError) -> Result<(), ClientError> {
        self.socket = None;
        let mut last = why.clone();
        for attempt in 0..40u64 {
            tokio::time::sleep(Duration::from_millis(100 + 100 * attempt.min(10))).await;
            let hello = self.join_msg();
            match self.hello(hello).await {
                Ok(()) => {
                    self.reconnects += 1;
                    return Ok(());
                }
                Err(e) if e.is_final() => return Err(e),
                Err(e) => last = e,
            }
        }
        Err(ClientError::Connection(format!(
            "lost the table server: {last}"
        )))
    }

    async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        let text = serde_json::to_string(msg).map_err(failed)?;
        let socket = self
            .socket
            .as_mut()
            .ok_or_else(|| ClientError::Connection("not connected".into()))?;
        socket
            .send(Message::Text(text.into()))
            .await
            .map_err(failed)
    }

    /// Proposes a throw and waits until it is stored and received back: its `seq`.
    pub async fn throw(
        &mut self,
        what: Proposal,
        gesture: Option<Gesture>,
        hidden: bool,
        label: Option<String>,
    ) -> Result<u64, ThrowError> {
        let mode = hidden.then_some(SecretMode::Roller);
        self.propose(what, gesture, mode, label, |_| {}).await
    }

    /// Proposes a hidden free roll that `mode` says who sees before the reveal: its `seq`.
    pub async fn throw_secret(
        &mut self,
        what: Proposal,
        mode: SecretMode,
        label: Option<String>,
    ) -> Result<u64, ThrowError> {
        self.propose(what, None, Some(mode), label, |_| {}).await
    }

    /// Proposes a throw in `mode` (None: everyone at once), with the hand's swing if any: its
    /// `seq` (what a window at a room and its API throw).
    pub async fn throw_in_mode(
        &mut self,
        what: Proposal,
        gesture: Option<Gesture>,
        mode: Option<SecretMode>,
        label: Option<String>,
    ) -> Result<u64, ThrowError> {
        self.propose(what, gesture, mode, label, |_| {}).await
    }

    /// A free roll for the load tool, hidden in `mode` if given: `sent(nonce)` is called just
    /// before it goes out.
    pub async fn throw_tracked(
        &mut self,
        what: Proposal,
        mode: Option<SecretMode>,
        sent: impl FnOnce(&str),
    ) -> Result<u64, ThrowError> {
        self.propose(what, None, mode, None, sent).await
    }

    /// Sends a throw with a fresh nonce (told to `sent` first) and waits for its entry.
    async fn propose(
        &mut self,
        what: Proposal,
        gesture: Option<Gesture>,
        mode: Option<SecretMode>,
        label: Option<String>,
        sent: impl FnOnce(&str),
    ) -> Result<u64, ThrowError> {
        let id = self.next_id;
        self.next_id += 1;
        let nonce = seal::hex(&seal::random_bytes::<NONCE_BYTES>());
        let msg = ClientMsg::Throw {
            id,
            what,
            commitment: self.commitment.clone(),
            nonce: nonce.clone(),
            gesture,
            hidden: mode.is_some(),
            mode,
            label,
        };
        sent(&nonce);
        self.request(id, &msg, Some(&nonce)).await
    }

    /// Seats a member as `role` with `seats` (the game master's): the `seq` of the entry.
    pub async fn seat(
        &mut self,
        name: &str,
        role: Role,
        seats: &[String],
    ) -> Result<u64, ThrowError> {
        let id = self.next_id;
        self.next_id += 1;
        let msg = ClientMsg::Seat {
            id,
            name: name.to_string(),
            role,
            seats: seats.to_vec(),
        };
        self.request(id, &msg, None).await
    }

    /// As the game master, sets the room's roll modes: the `seq` of the `modes` entry.
    pub async fn set_modes(
        &mut self,
        default: RollMode,
        players: &[RollMode],
    ) -> Result<u64, ThrowError> {
        let id = self.next_id;
        self.next_id += 1;
        let msg = ClientMsg::Modes {
            id,
            default,
            players: players.to_vec(),
        };
        self.request(id, &msg, None).await
    }

    /// Chooses your own dice (`character` None), or a character's you play (the game master any
    /// character's); `look` None goes back to the room's own: the `seq` of the `dice` entry.
    pub async fn choose_dice(
        &mut self,
        character: Option<&str>,
        look: Option<crate::dice::style::DiceLook>,
    ) -> Result<u64, ThrowError> {
        let id = self.next_id;
        self.next_id += 1;
        let msg = ClientMsg::Dice {
            id,
            character: character.map(str::to_string),
            look,
        };
        self.request(id, &msg, None).await
    }

    /// Reveals one of your hidden rolls: the `seq` of the reveal.
    pub async fn reveal(&mut self, of: u64) -> Result<u64, ThrowError> {
        let id = self.next_id;
        self.next_id += 1;
        self.request(id, &ClientMsg::Reveal { id, of }, None).await
    }

    /// As the game master, shows every hidden roll not yet revealed (a session's end): the
    /// last reveal's entry.
    pub async fn reveal_all(&mut self) -> Result<u64, ThrowError> {
        let id = self.next_id;
        self.next_id += 1;
        self.request(id, &ClientMsg::RevealAll { id }, None).await
    }

    async fn request(
        &mut self,
        id: u64,
        msg: &ClientMsg,
        nonce: Option<&str>,
    ) -> Result<u64, ThrowError> {
        if let Err(e) = self.send(msg).await {
            self.reconnect(&e).await?;
            return Err(ThrowError::NotSent(e));
        }
        loop {
            match self.receive().await {
                Ok(ServerMsg::Ack {
                    id: got,
                    seq,
                    commitment,
                }) if got == id => {
                    self.commitment = commitment;
                    self.sync_to(seq).await?;
                    return Ok(seq);
                }
                Ok(ServerMsg::Refused {
                    id: got,
                    code,
                    reason,
                    refusal_kind,
                }) if got == id => {
                    return Err(ThrowError::Refused {
                        code,
                        reason,
                        refusal_kind,
                    });
                }
                Ok(ServerMsg::Error { code, message, .. }) => {
                    return Err(ThrowError::Refused {
                        code,
                        reason: message,
                        refusal_kind: None,
                    });
                }
                Ok(_) => {}
                Err(e) => {
                    let start = self.seq();
                    self.reconnect(&e).await?;
                    // Stored before the connection dropped? Then it is in what came back.
                    if let Some(seq) = nonce.and_then(|n| self.stored_with_nonce(n, start)) {
                        return Ok(seq);
                    }
                    return Err(ThrowError::NotStored(e));
                }
            }
        }
    }

    /// The entry after `from` that carries this nonce, if any.
    fn stored_with_nonce(&self, nonce: &str, from: u64) -> Option<u64> {
        self.lines.iter().skip(from as usize).find_map(|l| {
            let e = Entry::parse(l).ok()?;
            match &e.event {
                Event::Thrown { proof, .. } if proof.nonce == nonce => Some(e.seq),
                _ => None,
            }
        })
    }

    /// Drops the connection without a goodbye (tests of reconnecting).
    pub fn drop_connection(&mut self) {
        self.socket = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_tries_again_only_where_waiting_can_help() {
        let refused = |code| ClientError::Server {
            code,
            message: String::new(),
            retry_after: None,
        };
        for code in [
            ErrorCode::BackingOff,
            ErrorCode::Busy,
            ErrorCode::RateLimited,
            ErrorCode::RoomStopped,
        ] {
            assert!(!refused(code).is_final(), "{code:?}");
        }
        for code in [
            ErrorCode::WrongPasscode,
            ErrorCode::NameInUse,
            ErrorCode::RoleChange,
            ErrorCode::RoomsClosed,
        ] {
            assert!(refused(code).is_final(), "{code:?}");
        }
    }
}
