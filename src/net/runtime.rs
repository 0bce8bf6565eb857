//! The async runtime and the listening socket, set up one way for every server and client: the
//! table server (`serve`), the window's stream server and its client of a room, the load tool.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::Router;

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

/// Serves `router` on a bound listener until the process ends, each address holding at most
/// `per_address` connections (one more is closed at once, so no one address can take every
/// socket). Handlers may ask who connected ([`Peer`]). Small messages go at once (no Nagle
/// delay on a room's frames).
pub async fn serve(
    listener: std::net::TcpListener,
    router: Router,
    per_address: usize,
) -> Result<(), NetError> {
    let addr = listener.local_addr().map_err(NetError::Serve)?;
    let listener = tokio::net::TcpListener::from_std(listener)
        .map_err(|error| NetError::Listen { addr, error })?;
    let listener = CappedListener {
        listener,
        per_address: per_address.max(1),
        open: Arc::new(Mutex::new(HashMap::new())),
    };
    let listener = axum::serve::ListenerExt::tap_io(listener, |io: &mut Counted| {
        let _ = io.stream.set_nodelay(true);
    });
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
    .map_err(NetError::Serve)
}

/// Open connections by address.
type OpenByAddress = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// A listener that closes a connection from an address already holding `per_address`.
struct CappedListener {
    listener: tokio::net::TcpListener,
    per_address: usize,
    open: OpenByAddress,
}

/// An accepted connection, counted against its address until it is dropped.
pub struct Counted {
    stream: tokio::net::TcpStream,
    ip: IpAddr,
    open: OpenByAddress,
}

impl Drop for Counted {
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

impl axum::serve::Listener for CappedListener {
    type Io = Counted;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Counted, SocketAddr) {
        loop {
            let (stream, peer) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of sockets or a connection reset before it was taken: wait a little.
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            };
            let ip = peer.ip();
            let admitted = self.open.lock().is_ok_and(|mut open| {
                let n = open.entry(ip).or_insert(0);
                if *n >= self.per_address {
                    false
                } else {
                    *n += 1;
                    true
                }
            });
            if admitted {
                let open = self.open.clone();
                return (Counted { stream, ip, open }, peer);
            }
            drop(stream);
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

impl tokio::io::AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// Who connected: the peer's address (None in a test that calls the router in-process).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer(pub Option<IpAddr>);

impl Peer {
    /// Whether it is this machine's own address, `127.0.0.1` or `::1` (in-process counts too).
    /// Other loopback addresses (`127.0.0.2`...) are not: containers and proxies use them.
    pub fn is_this_machine(self) -> bool {
        self.0.is_none_or(|ip| {
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
        Ok(Peer(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}
