//! `dicetable serve`: the table server. Rooms over WebSockets (axum, on the shared network
//! layer `crate::net`), one task per room owning its state and the only writer of its log, the
//! log in a [`store::LogStore`] (SQLite, or NATS JetStream for several servers). A proposal is
//! checked (role, rules), thrown with a seed nobody chose, stored, and only then acknowledged
//! and sent to everyone in the room, in log order.
//!
//! By concern: `session` (the handshake and one connection), `guard` (who may open rooms, wrong
//! passcodes backing off), `limits` (rates, the hello's time, physics at once), `room_task` (the room's task and its log), `throws` (throws and reveals),
//! `watch` (the room's page and feed), `error` (every refusal's code), and `serve` here.

mod error;
pub mod guard;
pub mod limits;
pub mod nats;
mod room_task;
mod session;
pub mod store;
mod throws;
pub mod watch;

pub use error::ServerError;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::StatusCode;
use axum::routing::get;

use crate::net::pages::{self, Pages};
use crate::net::runtime::{NetError, listen};
use room_task::RoomHandle;
use store::LogStore;

/// The server's shared state: the store, the running rooms, the connection counter.
pub struct Hub<S: LogStore> {
    store: Arc<S>,
    rooms: Mutex<HashMap<String, RoomHandle>>,
    next_conn: AtomicU64,
    guard: guard::Guard,
    tuning: limits::Tuning,
}

impl<S: LogStore> Hub<S> {
    /// A room's passcodes' hashes, or that there is no such room.
    async fn keys(&self, room: &str) -> Result<store::RoomKeys, ServerError> {
        self.store
            .keys(room)
            .await?
            .ok_or_else(|| ServerError::NoRoom(room.to_string()))
    }
}

/// The router: `GET /{room}` upgrades to the room's WebSocket; `/{room}/watch` is its page and
/// `/{room}/feed` that page's feed; the overlay's pages and dice are public.
pub fn router<S: LogStore>(store: Arc<S>, policy: guard::Policy, tuning: limits::Tuning) -> Router {
    let hub = Arc::new(Hub {
        store,
        rooms: Mutex::new(HashMap::new()),
        next_conn: AtomicU64::new(1),
        guard: guard::Guard::new(policy),
        tuning,
    });
    let pages = Pages::new(&pages::default_web_dir());
    Router::new()
        .route("/", get(index))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/{room}", get(session::connect::<S>))
        .route("/{room}/watch", get(watch::page))
        .route("/{room}/feed", get(watch::feed::<S>))
        .with_state(hub)
        .merge(pages::router(pages))
}

async fn index() -> &'static str {
    "dicetable table server: join a room with `dicetable play --join ws://HOST:PORT/ROOM`; \
     follow it in a browser at http://HOST:PORT/ROOM/watch?passcode=P\n"
}

/// Checks a room name: what a URL path segment holds without escaping, with a letter or digit
/// (no `.` or `..`), and no page's name.
fn check_room_name(room: &str) -> Result<(), ServerError> {
    let ok = room.len() <= 64
        && room.chars().any(|c| c.is_ascii_alphanumeric())
        && room
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if pages::RESERVED.contains(&room) {
        Err(ServerError::ReservedRoomName(room.to_string()))
    } else if ok {
        Ok(())
    } else {
        Err(ServerError::BadRoomName(room.to_string()))
    }
}

/// Serves until the process ends: prints `listening on ws://ADDR` once bound. Connections are
/// bounded as `tuning` says.
pub async fn serve<S: LogStore>(
    addr: SocketAddr,
    store: Arc<S>,
    policy: guard::Policy,
    tuning: limits::Tuning,
) -> Result<(), NetError> {
    let (listener, local) = listen(addr)?;
    println!("listening on ws://{local}");
    let app = router(store, policy, tuning);
    crate::net::runtime::serve(listener, app, tuning.connections).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::ErrorCode;
    use crate::net::testing::answer;
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    fn test_router() -> Router {
        let dir = std::env::temp_dir().join(format!(
            "dicetable-router-{}-{}",
            std::process::id(),
            rand::random::<u32>()
        ));
        let store = store::SqliteStore::open(&dir).unwrap_or_else(|e| panic!("{e}"));
        router(
            Arc::new(store),
            guard::Policy::default(),
            limits::Tuning::default(),
        )
    }

    #[tokio::test]
    async fn a_room_refuses_plain_http_and_other_origins_with_a_code() {
        let request = Request::get("/crypt").body(Body::empty()).expect("request");
        let (status, body) = answer(test_router(), request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["code"], ErrorCode::NotASocket.as_str());
        assert_eq!(
            body["error"],
            "'crypt' is a room: connect with a WebSocket (dicetable play --join ws://HOST:PORT/crypt)"
        );
        let request = Request::get("/crypt/feed")
            .header("host", "127.0.0.1:7480")
            .header("origin", "https://evil.example")
            .body(Body::empty())
            .expect("request");
        let (status, body) = answer(test_router(), request).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(body["code"], ErrorCode::ForeignOrigin.as_str());
    }

    #[tokio::test]
    async fn pages_are_served_and_unknown_dice_are_not_found() {
        let request = Request::get("/crypt/watch")
            .body(Body::empty())
            .expect("request");
        let response = test_router()
            .oneshot(request)
            .await
            .unwrap_or_else(|e| match e {});
        assert_eq!(response.status(), StatusCode::OK);
        let request = Request::get("/dice/atlas/d7?body=ffffff&ink=000000")
            .body(Body::empty())
            .expect("request");
        let (status, body) = answer(test_router(), request).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["code"], ErrorCode::NotFound.as_str());
    }

    #[test]
    fn room_names_are_path_segments_and_not_the_pages_names() {
        assert!(check_room_name("crypt-2.b_c").is_ok());
        for bad in ["", "a/b", "a b", "é", ".", "..", "-_."] {
            assert_eq!(
                check_room_name(bad).map_err(|e| e.code()),
                Err(ErrorCode::BadRoomName),
                "{bad:?}"
            );
        }
        assert!(matches!(
            check_room_name("overlay"),
            Err(ServerError::ReservedRoomName(_))
        ));
    }
}
