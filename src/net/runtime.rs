//! The async runtime and the listening socket, set up one way for every server and client: the
//! table server (`serve`), the window's stream server and its client of a room, the load tool.

use std::net::SocketAddr;

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

/// Serves `router` on a bound listener until the process ends. Small messages go at once (no
/// Nagle delay on a room's frames).
pub async fn serve(listener: std::net::TcpListener, router: Router) -> Result<(), NetError> {
    let addr = listener.local_addr().map_err(NetError::Serve)?;
    let listener = tokio::net::TcpListener::from_std(listener)
        .map_err(|error| NetError::Listen { addr, error })?;
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router).await.map_err(NetError::Serve)
}
