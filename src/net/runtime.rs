//! The async runtime and the listening socket, set up one way for every server and client: the
//! table server (`serve`), the window's stream server and its client of a room, the load tool.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::response::IntoResponse;

use super::error::HttpError;
use super::proxy::{Client, TrustedProxies};
use super::tls::Tls;
use crate::errors::ErrorCode;

/// How many threads a runtime drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// The calling thread only (a client beside the window's loop).
    Current,
    /// This many worker threads.
    Workers(usize),
    /// One worker per core (a server on its own).
    PerCore,
}

/// The network could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The runtime or its thread did not start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        error: std::io::Error,
    },
    /// The server stopped serving.
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
    /// TLS could not be set up from its files.
    #[error(transparent)]
    Tls(#[from] super::tls::TlsError),
}

/// A tokio runtime with timers and sockets, its threads named `name`.
pub fn runtime(name: &str, threads: Threads) -> Result<tokio::runtime::Runtime, NetError> {
    let mut builder = match threads {
        Threads::Current => tokio::runtime::Builder::new_current_thread(),
        Threads::Workers(_) | Threads::PerCore => tokio::runtime::Builder::new_multi_thread(),
    };
    if let Threads::Workers(n) = threads {
        builder.worker_threads(n.max(1));
    }
    builder
        .thread_name(name)
        .enable_all()
        .build()
        .map_err(NetError::Runtime)
}

/// Runs `task` on a runtime of its own, in a thread of its own (the window's server and client
/// run beside Bevy's loop).
pub fn in_own_thread<F, Fut>(name: &str, threads: Threads, task: F) -> Result<(), NetError>
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = ()>,
{
    let runtime = runtime(name, threads)?;
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || runtime.block_on(task()))
        .map(|_| ())
        .map_err(NetError::Runtime)
}

/// Binds `addr` (port 0: any free port): the listener and the address it got.
pub fn listen(addr: SocketAddr) -> Result<(std::net::TcpListener, SocketAddr), NetError> {
    let listener =
        std::net::TcpListener::bind(addr).map_err(|error| NetError::Listen { addr, error })?;
    let local = listener
        .local_addr()
        .map_err(|error| NetError::Listen { addr, error })?;
    listener
        .set_nonblocking(true)
        .map_err(|error| NetError::Listen { addr, error })?;
    Ok((listener, local))
}

/// Connections one address may hold open at once, by default: plenty for a household or a
/// streamer's tools behind one address, far below the process's file limit.
pub const PER_ADDRESS: usize = 128;
/// How long a new connection has to send its first request's headers: a socket opened and
/// left silent (or fed a byte at a time) is closed after this.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a connection may send nothing at all, by default. WebSocket pages and clients
/// answer the server's pings ([`crate::net::socket::ping_every`]), so only a dead or
/// abandoned socket stays silent this long.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(90);

/// What one connection and one address may hold, and who may say where a connection comes
/// from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections one address may hold open at once (behind a trusted proxy: one client).
    pub per_address: usize,
    /// How long a connection may send nothing before it is closed.
    pub idle: Duration,
    /// The reverse proxies that name their clients (`serve --trusted-proxy`).
    pub proxies: Arc<TrustedProxies>,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            per_address: PER_ADDRESS,
            idle: IDLE_TIMEOUT,
            proxies: Arc::new(TrustedProxies::default()),
        }
    }
}

/// Serves `router` on a bound listener until the process ends, each address holding at most
/// `limits.per_address` connections (one more is closed at once, so no one address can take
/// every socket) and each connection closed once it sent nothing for `limits.idle`, not
/// counting the time the server takes to answer it (a roll waiting its turn in a queue is not
/// an idle client). Handlers may ask who connected ([`Peer`]). Small messages go at once (no
/// Nagle delay on a room's frames).
///
/// With `tls`, every connection is TLS (its handshake within [`HEADER_TIMEOUT`], done beside
/// the accepting loop so that a slow client holds up no one) and the certificate is kept fresh
/// from its files.
pub async fn serve(
    listener: std::net::TcpListener,
    router: Router,
    limits: ConnectionLimits,
    tls: Option<Tls>,
) -> Result<(), NetError> {
    let addr = listener.local_addr().map_err(NetError::Serve)?;
    let listener = tokio::net::TcpListener::from_std(listener)
        .map_err(|error| NetError::Listen { addr, error })?;
    let (shaken_tx, shaken) = tokio::sync::mpsc::channel(64);
    let acceptor = tls.map(|tls| {
        tokio::spawn(tls.certificate.keep_fresh());
        tls.acceptor
    });
    let listener = CappedListener {
        listener,
        door: Arc::new(Door {
            open: Arc::new(Mutex::new(HashMap::new())),
            per_address: limits.per_address.max(1),
            capacity: connection_capacity(),
            proxies: limits.proxies,
        }),
        idle: limits.idle.max(Duration::from_millis(100)),
        acceptor,
        shaken_tx,
        shaken,
    };
    let router = router.layer(axum::middleware::from_fn(admit));
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<Connection>(),
    )
    .await
    .map_err(NetError::Serve)
}

/// Who is connected, the count of their requests the server is still answering, and, from a
/// trusted proxy, the slot of the client it carries now.
#[derive(Clone, Debug)]
struct Connection {
    addr: SocketAddr,
    answering: Arc<Answering>,
    door: Arc<Door>,
    proxied: Option<Arc<ProxiedClient>>,
}

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, CappedListener>>
    for Connection
{
    fn connect_info(stream: axum::serve::IncomingStream<'_, CappedListener>) -> Connection {
        Connection {
            addr: *stream.remote_addr(),
            answering: stream.io().answering.clone(),
            door: stream.io().door.clone(),
            proxied: stream.io().proxied.clone(),
        }
    }
}

/// A connection's requests being answered, and when the last answer was given: its idle time
/// runs only while it owes the server something.
#[derive(Debug, Default)]
struct Answering(Mutex<AnsweringState>);

#[derive(Debug, Default)]
struct AnsweringState {
    open: usize,
    last_answered: Option<tokio::time::Instant>,
    /// Requests answered so far: a read after an answer begins the next request.
    answered: u64,
    /// The connection became a WebSocket: no more requests, no header deadline.
    upgraded: bool,
}

impl Answering {
    fn begin(&self) {
        if let Ok(mut state) = self.0.lock() {
            state.open += 1;
        }
    }

    fn end(&self) {
        if let Ok(mut state) = self.0.lock() {
            state.open = state.open.saturating_sub(1);
            state.last_answered = Some(tokio::time::Instant::now());
            state.answered += 1;
        }
    }

    fn upgraded(&self) {
        if let Ok(mut state) = self.0.lock() {
            state.upgraded = true;
        }
    }

    /// Whether bytes read now begin a new request (one was answered since `seen` and the
    /// connection is still HTTP), and the count of answers to remember.
    fn next_request(&self, seen: u64) -> Option<u64> {
        let state = self.0.lock().ok()?;
        (!state.upgraded && state.answered > seen).then_some(state.answered)
    }

    /// When a connection last heard from at `last_read` becomes idle: never while an answer
    /// is being made (None), else `idle` after the later of its last read and last answer.
    fn idle_from(&self, last_read: tokio::time::Instant) -> Option<tokio::time::Instant> {
        let state = self.0.lock().ok()?;
        if state.open > 0 {
            return None;
        }
        Some(state.last_answered.map_or(last_read, |a| a.max(last_read)))
    }
}

/// Counts a request as being answered until its handler has its response.
struct AnsweringGuard(Arc<Answering>);

impl Drop for AnsweringGuard {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// Middleware: names the request's client ([`Client`], read by [`Peer`]); through a trusted
/// proxy, counts the connection against that client (refused with `too_many_connections` when
/// it holds its share already); marks the connection as owed an answer while the handler works.
async fn admit(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let Some(axum::extract::ConnectInfo(connection)) = request
        .extensions()
        .get::<axum::extract::ConnectInfo<Connection>>()
        .cloned()
    else {
        return next.run(request).await;
    };
    let door = &connection.door;
    let client = door.proxies.client(connection.addr.ip(), request.headers());
    if let Some(proxied) = &connection.proxied
        && !proxied.hold(client.ip, door)
    {
        return HttpError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooManyConnections,
            format!(
                "this address holds {} connections already: close one first",
                door.per_address
            ),
        )
        .into_response();
    }
    request.extensions_mut().insert(client);
    connection.answering.begin();
    let _guard = AnsweringGuard(connection.answering.clone());
    let request = match body_in_time(request).await {
        Ok(request) => request,
        Err(refused) => return refused.into_response(),
    };
    let response = next.run(request).await;
    if response.status() == axum::http::StatusCode::SWITCHING_PROTOCOLS {
        connection.answering.upgraded();
    }
    response
}

/// How long a request's body may take to arrive whole: at 16 KiB (the largest any route
/// takes) a client sending slower than about 1.6 KiB a second is cut off.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest body read ahead of its handler (each route's own limit still applies).
const BODY_READ_MOST: usize = 64 * 1024;

/// Reads a request's body within [`BODY_TIMEOUT`] (a body sent a byte every few seconds
/// would hold its connection for ever): the request with its body in memory, or the refusal,
/// `timeout` (408) or `too_large` (413).
async fn body_in_time(
    request: axum::extract::Request,
) -> Result<axum::extract::Request, HttpError> {
    use axum::http::header;
    let has_body = request.headers().contains_key(header::TRANSFER_ENCODING)
        || request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0");
    if !has_body {
        return Ok(request);
    }
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, BODY_READ_MOST)).await {
        Ok(Ok(bytes)) => Ok(axum::extract::Request::from_parts(
            parts,
            axum::body::Body::from(bytes),
        )),
        Ok(Err(_)) => Err(HttpError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::TooLarge,
            format!("a body over {BODY_READ_MOST} bytes"),
        )),
        Err(_) => Err(HttpError::new(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            ErrorCode::Timeout,
            format!(
                "the request's body did not arrive within {} s",
                BODY_TIMEOUT.as_secs()
            ),
        )),
    }
}

/// Open connections by address.
type OpenByAddress = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// What one server's connections share: the connections open by address, how many one address
/// may hold, how many the process can hold, and the proxies trusted to say whose a connection
/// is.
#[derive(Debug)]
struct Door {
    open: OpenByAddress,
    per_address: usize,
    capacity: Capacity,
    proxies: Arc<TrustedProxies>,
}

/// Open files the server keeps for itself (its store, NATS, TLS files, logs) besides sockets.
pub const FILES_RESERVED: u64 = 64;
/// Connections an address may still open once the server is three quarters full: the last
/// quarter is kept for visitors with a few, so addresses holding many cannot fill it.
pub const FEW_CONNECTIONS: usize = 8;

/// How many connections the process can hold at once, and from when only addresses with a few
/// get in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacity {
    /// Connections at most: the open-file limit less [`FILES_RESERVED`].
    pub most: usize,
    /// Past this many, an address holding [`FEW_CONNECTIONS`] or more gets no more.
    pub crowded: usize,
}

impl Capacity {
    /// The capacity of an open-file limit.
    pub fn of_files(files: u64) -> Capacity {
        let most = usize::try_from(files.saturating_sub(FILES_RESERVED))
            .unwrap_or(usize::MAX)
            .max(16);
        Capacity {
            most,
            crowded: most / 4 * 3,
        }
    }

    /// Whether an address holding `held` may open one more while `total` are open.
    fn admits(&self, held: usize, total: usize) -> bool {
        total < self.most && (total < self.crowded || held < FEW_CONNECTIONS)
    }
}

/// The process's open-file limit, raised to the most the system allows it (a default soft
/// limit of 1,024 is 9 addresses of 120 connections), as connections.
fn connection_capacity() -> Capacity {
    let files = rlimit::increase_nofile_limit(u64::MAX)
        .or_else(|_| rlimit::getrlimit(rlimit::Resource::NOFILE).map(|(soft, _)| soft))
        .unwrap_or(1024);
    Capacity::of_files(files)
}

/// The client a trusted proxy's connection carries now, holding one of that client's slots
/// (a proxy may carry several clients' requests, one after another, on one connection).
#[derive(Debug, Default)]
struct ProxiedClient(Mutex<Option<Slot>>);

impl ProxiedClient {
    /// Holds a slot of `ip`'s (giving back another client's first): whether one was free.
    fn hold(&self, ip: IpAddr, door: &Door) -> bool {
        let Ok(mut held) = self.0.lock() else {
            return false;
        };
        if held.as_ref().is_some_and(|slot| slot.ip == ip) {
            return true;
        }
        *held = None;
        *held = Slot::take(door, ip);
        held.is_some()
    }
}

/// A listener that closes a connection from an address already holding its share (a trusted
/// proxy's connections are counted by the client they carry instead), and with TLS, hands on
/// each connection once its handshake is done.
struct CappedListener {
    listener: tokio::net::TcpListener,
    door: Arc<Door>,
    idle: Duration,
    acceptor: Option<tokio_rustls::TlsAcceptor>,
    /// TLS connections whose handshake is done.
    shaken_tx: tokio::sync::mpsc::Sender<(Counted, SocketAddr)>,
    shaken: tokio::sync::mpsc::Receiver<(Counted, SocketAddr)>,
}

/// A connection's bytes: as they come (left), or through TLS (right).
type Wire = tokio_util::either::Either<
    tokio::net::TcpStream,
    Box<tokio_rustls::server::TlsStream<tokio::net::TcpStream>>,
>;

/// One of an address's connections, given back when dropped.
#[derive(Debug)]
struct Slot {
    ip: IpAddr,
    open: OpenByAddress,
}

impl Slot {
    /// Takes one of `ip`'s slots, if it holds fewer than the door's per-address share and the
    /// server has room for it ([`Capacity::admits`]).
    fn take(door: &Door, ip: IpAddr) -> Option<Slot> {
        let open = &door.open;
        let admitted = open.lock().is_ok_and(|mut open| {
            let total: usize = open.values().sum();
            let n = open.entry(ip).or_insert(0);
            if *n >= door.per_address || !door.capacity.admits(*n, total) {
                if *n == 0 {
                    open.remove(&ip);
                }
                false
            } else {
                *n += 1;
                true
            }
        });
        admitted.then(|| Slot {
            ip,
            open: open.clone(),
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.open.lock()
            && let Some(n) = open.get_mut(&self.ip)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// How a connection was let in: counted against its address, or from a trusted proxy.
enum Admitted {
    Direct(Slot),
    Proxy,
}

/// An accepted connection, counted against its address until it is dropped, with a deadline
/// for its first request's headers and one for sending anything at all.
pub struct Counted {
    /// Its bytes (None once handed to the lingering close).
    stream: Option<Wire>,
    /// Whether the client ended its side (nothing more will come: no need to linger).
    ended: bool,
    /// Its address's slot (None from a trusted proxy, whose clients hold their own).
    slot: Option<Slot>,
    /// From a trusted proxy: the client it carries now.
    proxied: Option<Arc<ProxiedClient>>,
    /// The server's connections by address.
    door: Arc<Door>,
    /// Until a request's headers are in (the first's, and each next one's from its first
    /// byte): when they must be.
    first_headers: Option<Pin<Box<tokio::time::Sleep>>>,
    /// The answers given when the latest request began.
    seen_answered: u64,
    /// The last three bytes read, to find the headers' end across reads.
    tail: Vec<u8>,
    /// When the connection is closed unless it sends something first.
    idle_until: Pin<Box<tokio::time::Sleep>>,
    /// When it last sent something.
    last_read: tokio::time::Instant,
    /// How long it may send nothing.
    idle: Duration,
    /// Its requests being answered (idle time does not run meanwhile).
    answering: Arc<Answering>,
}

impl Counted {
    fn new(stream: Wire, admitted: Admitted, door: Arc<Door>, idle: Duration) -> Counted {
        let (slot, proxied) = match admitted {
            Admitted::Direct(slot) => (Some(slot), None),
            Admitted::Proxy => (None, Some(Arc::new(ProxiedClient::default()))),
        };
        Counted {
            stream: Some(stream),
            ended: false,
            slot,
            proxied,
            door,
            first_headers: Some(Box::pin(tokio::time::sleep(HEADER_TIMEOUT))),
            seen_answered: 0,
            tail: Vec::new(),
            idle_until: Box::pin(tokio::time::sleep(idle)),
            last_read: tokio::time::Instant::now(),
            idle,
            answering: Arc::new(Answering::default()),
        }
    }
}

/// The error of a connection already closed.
fn gone() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::NotConnected, "the connection is closed")
}

/// How long a closed connection still takes (and drops) what its client sends, and how much:
/// a client in the middle of a message too large for the server gets to read the server's
/// answer instead of a reset (the "lingering close" of web servers).
const LINGER: Duration = Duration::from_secs(5);
/// The most a lingering connection takes before it is reset anyway.
const LINGER_BYTES: usize = 16 << 20;

impl Drop for Counted {
    fn drop(&mut self) {
        let Some(stream) = self.stream.take() else {
            return;
        };
        // The client closed first: nothing more comes, closing now sends no reset.
        if self.ended {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        // The slot stays taken while the connection lingers.
        let slot = self.slot.take();
        runtime.spawn(async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let mut tcp = match stream {
                tokio_util::either::Either::Left(mut tcp) => {
                    let _ = tcp.shutdown().await;
                    tcp
                }
                tokio_util::either::Either::Right(mut tls) => {
                    let _ = tls.shutdown().await;
                    tls.into_inner().0
                }
            };
            let drain = async {
                let mut buf = vec![0u8; 64 * 1024];
                let mut taken = 0;
                while taken < LINGER_BYTES {
                    match tcp.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => taken += n,
                    }
                }
            };
            let _ = tokio::time::timeout(LINGER, drain).await;
            drop(slot);
        });
    }
}

/// Notes bytes read after `tail` (the last three before them); true once they hold the blank
/// line that ends a request's headers.
fn headers_end_in(tail: &mut Vec<u8>, read: &[u8]) -> bool {
    let mut window = std::mem::take(tail);
    window.extend_from_slice(read);
    if window.windows(4).any(|w| w == b"\r\n\r\n") {
        return true;
    }
    let keep = window.len().saturating_sub(3);
    *tail = window.split_off(keep);
    false
}

impl axum::serve::Listener for CappedListener {
    type Io = Counted;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Counted, SocketAddr) {
        loop {
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                Some(shaken) = self.shaken.recv() => return shaken,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of sockets or a connection reset before it was taken: wait a little.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let door = &self.door;
            let admitted = if door.proxies.trusts(peer.ip()) {
                Admitted::Proxy
            } else {
                match Slot::take(door, peer.ip()) {
                    Some(slot) => Admitted::Direct(slot),
                    None => continue,
                }
            };
            let _ = stream.set_nodelay(true);
            let Some(acceptor) = self.acceptor.clone() else {
                let counted = Counted::new(Wire::Left(stream), admitted, door.clone(), self.idle);
                return (counted, peer);
            };
            let (idle, shaken, door) = (self.idle, self.shaken_tx.clone(), door.clone());
            tokio::spawn(async move {
                // A handshake that fails or stalls closes the connection and frees its slot.
                if let Ok(Ok(tls)) =
                    tokio::time::timeout(HEADER_TIMEOUT, acceptor.accept(stream)).await
                {
                    let counted = Counted::new(Wire::Right(Box::new(tls)), admitted, door, idle);
                    let _ = shaken.send((counted, peer)).await;
                }
            });
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

impl tokio::io::AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let Some(stream) = this.stream.as_mut() else {
            return Poll::Ready(Err(gone()));
        };
        match Pin::new(stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let got = &buf.filled()[before..];
                if got.is_empty() && buf.remaining() > 0 {
                    this.ended = true;
                }
                if !got.is_empty() {
                    this.last_read = tokio::time::Instant::now();
                    let idle = this.idle;
                    this.idle_until.as_mut().reset(this.last_read + idle);
                    // A kept-alive connection's next request has its own header deadline.
                    if this.first_headers.is_none()
                        && let Some(answered) = this.answering.next_request(this.seen_answered)
                    {
                        this.seen_answered = answered;
                        this.first_headers = Some(Box::pin(tokio::time::sleep(HEADER_TIMEOUT)));
                        this.tail = Vec::new();
                    }
                }
                if this.first_headers.is_some() && headers_end_in(&mut this.tail, got) {
                    this.first_headers = None;
                    this.tail = Vec::new();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending => {
                let late_headers = this
                    .first_headers
                    .as_mut()
                    .is_some_and(|deadline| deadline.as_mut().poll(cx).is_ready());
                if late_headers {
                    return Poll::Ready(Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "no request within the header timeout",
                    )));
                }
                while this.idle_until.as_mut().poll(cx).is_ready() {
                    // Idle time runs from the last read or the last answer given, and not at
                    // all while an answer is being made.
                    let now = tokio::time::Instant::now();
                    let deadline = match this.answering.idle_from(this.last_read) {
                        None => now + this.idle,
                        Some(from) if from + this.idle > now => from + this.idle,
                        Some(_) => {
                            return Poll::Ready(Err(std::io::Error::new(
                                std::io::ErrorKind::TimedOut,
                                "nothing sent within the idle timeout",
                            )));
                        }
                    };
                    this.idle_until.as_mut().reset(deadline);
                }
                Poll::Pending
            }
            other => other,
        }
    }
}

impl tokio::io::AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        match self.stream.as_mut() {
            Some(stream) => Pin::new(stream).poll_write(cx, buf),
            None => Poll::Ready(Err(gone())),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.stream.as_mut() {
            Some(stream) => Pin::new(stream).poll_flush(cx),
            None => Poll::Ready(Err(gone())),
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.stream.as_mut() {
            Some(stream) => Pin::new(stream).poll_shutdown(cx),
            None => Poll::Ready(Ok(())),
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        match self.stream.as_mut() {
            Some(stream) => Pin::new(stream).poll_write_vectored(cx, bufs),
            None => Poll::Ready(Err(gone())),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.as_ref().is_some_and(|s| s.is_write_vectored())
    }
}

/// Who sent a request: the client's address (None in a test that calls the router
/// in-process), the one a trusted proxy named when it came through one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer {
    /// The client's address.
    pub ip: Option<IpAddr>,
    /// Whether a trusted proxy carried it.
    pub via_proxy: bool,
}

impl Peer {
    /// Whom its work is counted to in the server's pools (`crate::work`): its address, or the
    /// server's own share for a request with none (a test calling the router in-process).
    pub fn client(&self) -> crate::work::Client {
        self.ip.unwrap_or(crate::work::SERVER)
    }

    /// A client that connected itself, from `ip`.
    pub fn direct(ip: Option<IpAddr>) -> Peer {
        Peer {
            ip,
            via_proxy: false,
        }
    }

    /// Whether it is this machine's own address, `127.0.0.1` or `::1` (in-process counts too),
    /// connected directly. Other loopback addresses (`127.0.0.2`...) are not: containers and
    /// proxies use them; nor is anyone a proxy carried, wherever the proxy runs.
    pub fn is_this_machine(self) -> bool {
        !self.via_proxy
            && self.ip.is_none_or(|ip| {
                let ip = ip.to_canonical();
                ip == IpAddr::from(std::net::Ipv4Addr::LOCALHOST)
                    || ip == IpAddr::from(std::net::Ipv6Addr::LOCALHOST)
            })
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Peer, Self::Rejection> {
        if let Some(client) = parts.extensions.get::<Client>() {
            return Ok(Peer {
                ip: Some(client.ip),
                via_proxy: client.via_proxy,
            });
        }
        Ok(Peer::direct(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<Connection>>()
                .map(|c| c.0.addr.ip()),
        ))
    }
}

/// A connection's answers owed: a WebSocket's handler holds one and marks each message it is
/// still answering (a join waiting its turn at the passcode check, a throw in the physics'
/// queue), so the connection's idle time does not run while the server works for it. A
/// request with no connection (a router called in-process) owes nothing here.
#[derive(Clone, Debug, Default)]
pub struct Owing(Option<Arc<Answering>>);

/// An answer being made: while it lives, the connection is not idle.
#[must_use = "the answer is owed only while this is held"]
pub struct Owed {
    _held: Option<AnsweringGuard>,
}

impl Owing {
    /// Marks an answer as being made until the returned value is dropped.
    pub fn answering(&self) -> Owed {
        Owed {
            _held: self.0.clone().map(|answering| {
                answering.begin();
                AnsweringGuard(answering)
            }),
        }
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Owing {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Owing, Self::Rejection> {
        Ok(Owing(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<Connection>>()
                .map(|c| c.0.answering.clone()),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_quarter_of_the_servers_connections_is_for_addresses_with_a_few() {
        let capacity = Capacity::of_files(1024);
        assert_eq!((capacity.most, capacity.crowded), (960, 720));
        // Below three quarters anyone may open more; past it, only an address with a few.
        assert!(capacity.admits(100, 719));
        assert!(!capacity.admits(100, 720));
        assert!(capacity.admits(FEW_CONNECTIONS - 1, 959));
        assert!(!capacity.admits(0, 960));
        // A tiny limit still holds a few.
        assert_eq!(Capacity::of_files(10).most, 16);
    }

    #[test]
    fn the_end_of_the_headers_is_found_across_reads() {
        let mut tail = Vec::new();
        assert!(!headers_end_in(&mut tail, b"GET / HTTP/1.1\r\nHost: x\r"));
        assert!(!headers_end_in(&mut tail, b"\n"));
        assert!(!headers_end_in(&mut tail, b"\r"));
        assert!(headers_end_in(&mut tail, b"\n"));
        let mut tail = Vec::new();
        assert!(headers_end_in(&mut tail, b"GET / HTTP/1.1\r\n\r\n"));
        let mut tail = Vec::new();
        for byte in b"GET / HTTP/1.1\r\nHost: x\r\n" {
            assert!(!headers_end_in(&mut tail, &[*byte]));
        }
        assert!(tail.len() <= 3);
    }

    /// Sends one request on a fresh connection and reads until the server closes it: what it
    /// answered.
    async fn ask_and_read_all(addr: SocketAddr, path: &str) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut socket = tokio::net::TcpStream::connect(addr)
            .await
            .expect("connects");
        let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        socket.write_all(request.as_bytes()).await.expect("asks");
        let mut answer = Vec::new();
        let _ = socket.read_to_end(&mut answer).await;
        String::from_utf8_lossy(&answer).into_owned()
    }

    #[test]
    fn a_slow_answer_is_not_idle_time_but_silence_after_it_is() {
        let rt = runtime("runtime-test", Threads::Workers(2)).expect("runtime");
        rt.block_on(async {
            // The handler takes five idle timeouts to answer, as a queued roll may.
            let idle = Duration::from_millis(100);
            let router = Router::new().route(
                "/slow",
                axum::routing::get(|| async {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    "answered"
                }),
            );
            let (listener, addr) = listen(SocketAddr::from(([127, 0, 0, 1], 0))).expect("binds");
            tokio::spawn(serve(
                listener,
                router,
                ConnectionLimits {
                    per_address: 4,
                    idle,
                    ..ConnectionLimits::default()
                },
                None,
            ));
            // The answer comes, then the keep-alive connection, silent, is closed (read_to_end
            // returns only once it is).
            let answer = ask_and_read_all(addr, "/slow").await;
            assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
            assert!(answer.ends_with("answered"), "{answer}");
        });
    }
}
