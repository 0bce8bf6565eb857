//! `dicetable serve`: the table server. Rooms over WebSockets (axum, on the shared network
//! layer `crate::net`), one task per room owning its state and the only writer of its log, the
//! log in a [`store::LogStore`] (SQLite, or NATS JetStream for several servers). A proposal is
//! checked (role, rules), thrown with a seed nobody chose, stored, and only then acknowledged
//! and sent to everyone in the room, in log order.
//!
//! By concern: `session` (the handshake and one connection), `guard` (who may open rooms, wrong
//! passcodes backing off), `limits` (rates, the hello's time, physics at once), `room_task` (the
//! room's task and its log), `throws` (throws and reveals), `watch` (the room's page and feed),
//! `cast` (the characters a join form lists), `error` (every refusal's code), and `serve` here.

mod cast;
pub mod contract;
mod error;
mod front;
pub mod guard;
pub mod limits;
pub mod nats;
mod room_task;
mod session;
pub mod store;
mod throws;
mod view;
pub mod watch;

pub use error::ServerError;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::errors::ErrorCode;
use crate::net::auth::passcode_matches_async;
use crate::net::pages::{self, Pages};
use crate::net::runtime::{NetError, Peer, listen};
use room_task::RoomHandle;
use store::LogStore;

/// The server's shared state: the store, the running rooms, the connection counter.
pub struct Hub<S: LogStore> {
    store: Arc<S>,
    rooms: Mutex<HashMap<String, RoomHandle>>,
    next_conn: AtomicU64,
    guard: guard::Guard,
    tuning: limits::Tuning,
    /// The scenes the front page offers (`serve --scenes`).
    scenes: std::path::PathBuf,
    /// The public key that signs this server's exports, shown on the front page.
    server_key: Option<String>,
}

impl<S: LogStore> Hub<S> {
    /// A room's passcodes' hashes, or that there is no such room.
    async fn keys(&self, room: &str) -> Result<store::RoomKeys, ServerError> {
        self.store
            .keys(room)
            .await?
            .ok_or_else(|| ServerError::NoRoom(room.to_string()))
    }

    /// Whether `passcode` is the one `kept` hashes, checked in `peer`'s turn on the passcode
    /// pool (before strangers' when the room knows the address). When its turn comes the
    /// back-off is asked again, so a guess queued behind a wrong one is refused unhashed.
    async fn passcode_is(
        self: &Arc<Self>,
        peer: Peer,
        room: &str,
        passcode: String,
        kept: String,
    ) -> Result<bool, ServerError> {
        let known = self.guard.is_known(peer, room);
        let may_still = {
            let (hub, room) = (self.clone(), room.to_string());
            move || hub.guard.may_try(peer, &room)
        };
        passcode_matches_async(peer.client(), known, passcode, kept, may_still).await?
    }
}

/// The router: `GET /{room}` upgrades to the room's WebSocket; `/{room}/watch` is its page,
/// `/{room}/feed` that page's feed and `/{room}/cast` the characters a join form lists; the
/// overlay's pages and dice are public.
pub fn router<S: LogStore>(store: Arc<S>, setup: Setup) -> Router {
    let hub = Arc::new(Hub {
        store,
        rooms: Mutex::new(HashMap::new()),
        next_conn: AtomicU64::new(1),
        guard: guard::Guard::new(setup.policy),
        tuning: setup.tuning,
        scenes: setup.scenes,
        server_key: setup.server_key,
    });
    let pages = Pages::new();
    let headers = Arc::new(setup.headers);
    let hosts = Arc::new(setup.hosts);
    Router::new()
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/{room}", get(session::connect::<S>))
        .route("/{room}/watch", get(watch::page))
        .route("/{room}/feed", get(watch::feed::<S>))
        .route("/{room}/cast", axum::routing::post(cast::cast::<S>))
        .with_state(hub.clone())
        .merge(front::router(hub))
        .merge(pages::router(pages))
        .layer(axum::middleware::from_fn_with_state(hosts, host_served))
        .layer(axum::middleware::from_fn_with_state(
            headers,
            crate::net::headers::secure,
        ))
}

/// Middleware: refuses a request naming a host the server does not answer to (a page of another
/// site re-pointed at this server by its DNS), on every route, before anything else.
async fn host_served(
    axum::extract::State(names): axum::extract::State<Arc<Vec<String>>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if crate::net::auth::host_is_served(request.headers(), &names) {
        return next.run(request).await;
    }
    let host = request
        .headers()
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default()
        .chars()
        .take(255)
        .collect::<String>();
    crate::net::error::HttpError::new(
        StatusCode::FORBIDDEN,
        ErrorCode::ForeignHost,
        format!(
            "this server answers to its addresses, localhost and the names given with --host, not '{host}'"
        ),
    )
    .into_response()
}

/// How a table server is set up: who opens rooms, its limits, the scenes its front page offers.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Who may open rooms.
    pub policy: guard::Policy,
    /// Connections, idle times.
    pub tuning: limits::Tuning,
    /// The folder of scenes the front page offers (`serve --scenes`).
    pub scenes: std::path::PathBuf,
    /// TLS: the certificate and key files (`serve --tls-cert --tls-key`); none: plain HTTP.
    pub tls: Option<crate::net::tls::TlsFiles>,
    /// The public key that signs the server's exports (`ed25519:…`), shown on the front page.
    pub server_key: Option<String>,
    /// The pages' security headers (`serve --frame-ancestors`).
    pub headers: crate::net::headers::Policy,
    /// The names the server answers to besides its addresses and `localhost` (`serve --host`).
    pub hosts: Vec<String>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            policy: guard::Policy::default(),
            tuning: limits::Tuning::default(),
            scenes: crate::rules::scene::default_dir(),
            tls: None,
            server_key: None,
            headers: crate::net::headers::Policy::default(),
            hosts: Vec::new(),
        }
    }
}

/// Checks a room name: what a URL path segment holds without escaping, with a letter or digit
/// (no `.` or `..`), and no page's name.
fn check_room_name(room: &str) -> Result<(), ServerError> {
    let ok = room.len() <= crate::online::protocol::ROOM_NAME_BYTES
        && room.chars().any(|c| c.is_ascii_alphanumeric())
        && room
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if pages::RESERVED.contains(&room) || front::reserved(room) {
        Err(ServerError::ReservedRoomName(room.to_string()))
    } else if ok {
        Ok(())
    } else {
        Err(ServerError::BadRoomName(room.to_string()))
    }
}

/// Serves until the process ends: prints `listening on ws://ADDR` (`wss://` with TLS) once
/// bound. Connections are bounded as `setup.tuning` says.
pub async fn serve<S: LogStore>(
    addr: SocketAddr,
    store: Arc<S>,
    mut setup: Setup,
) -> Result<(), NetError> {
    let tls = match setup.tls.take() {
        Some(files) => Some(crate::net::tls::Tls::new(files).map_err(NetError::Tls)?),
        None => None,
    };
    let (listener, local) = listen(addr)?;
    let scheme = if tls.is_some() { "wss" } else { "ws" };
    println!("listening on {scheme}://{local}");
    let connections = setup.tuning.connections.clone();
    crate::net::runtime::serve(listener, router(store, setup), connections, tls).await
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
        router(Arc::new(store), Setup::default())
    }

    /// The body of a plain GET as text, with its status.
    async fn page(path: &str) -> (StatusCode, String) {
        let request = Request::get(path).body(Body::empty()).expect("request");
        let response = test_router()
            .oneshot(request)
            .await
            .unwrap_or_else(|e| match e {});
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("a body");
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    #[tokio::test]
    async fn a_room_is_a_page_to_browsers_and_refuses_other_origins_with_a_code() {
        // A browser following the room's link gets the room's page.
        let (status, body) = page("/crypt").await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.contains("<h2>Join the table</h2>"), "{body}");
        for not_a_room in ["/..", "/-_."] {
            let request = Request::get(not_a_room)
                .body(Body::empty())
                .expect("request");
            let (status, body) = answer(test_router(), request).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{not_a_room}");
            assert_eq!(body["code"], ErrorCode::BadRoomName.as_str());
        }
        // The feed is a socket only.
        let request = Request::get("/crypt/feed")
            .body(Body::empty())
            .expect("request");
        let (status, body) = answer(test_router(), request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["code"], ErrorCode::NotASocket.as_str());
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
    async fn odds_are_worked_out_for_what_can_be_thrown() {
        let ask = |path: &str| Request::get(path).body(Body::empty()).expect("request");
        let (status, body) = answer(
            test_router(),
            ask("/api/odds?notation=%7B2d6%2C0d0%7D%3E%3D7"),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["title"], "{2d6,0d0}>=7");
        assert_eq!(body["mean"], 7.0);
        assert_eq!(body["exact_success"], "7/12");
        assert_eq!(
            body["distribution"][0],
            serde_json::json!({"value": 2, "p": 1.0 / 36.0, "exact": "1/36"})
        );
        // An estimate comes at once, within its stated error of the exact 7/12.
        let (status, body) = answer(
            test_router(),
            ask("/api/odds?notation=%7B2d6%2C0d0%7D%3E%3D7&estimate=1"),
        )
        .await;
        assert_eq!(
            (status, body["estimate"].as_bool()),
            (StatusCode::OK, Some(true))
        );
        let error = body["error"].as_f64().unwrap_or(1.0);
        let at_least_seven: f64 = body["distribution"]
            .as_array()
            .map(|d| {
                d.iter()
                    .filter(|x| x["value"].as_i64().unwrap_or(0) >= 7)
                    .map(|x| x["p"].as_f64().unwrap_or(0.0))
                    .sum()
            })
            .unwrap_or(0.0);
        assert!((at_least_seven - 7.0 / 12.0).abs() <= error, "{body}");
        // A count of successes: 8d10>7 measures successes.
        let (_, body) = answer(test_router(), ask("/api/odds?notation=8d10%3E7")).await;
        assert_eq!(body["measure"], "successes");
        for (path, code) in [
            ("/api/odds?notation=2d31", ErrorCode::NoSuchDie),
            // Refused at once (6,130,576 pairs of values to multiply), so no clock decides
            // the answer on a busy machine.
            ("/api/odds?notation=25d100*25d100", ErrorCode::OddsTooLarge),
            // 200 dice: more than a throw holds, so no odds either.
            ("/api/odds?notation=100d100", ErrorCode::TooManyDice),
            ("/api/odds?notation=2x", ErrorCode::BadNotation),
            ("/api/odds", ErrorCode::Invalid),
        ] {
            let (status, body) = answer(test_router(), ask(path)).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{path}");
            assert_eq!(body["code"], code.as_str(), "{path}");
        }
    }

    #[tokio::test]
    async fn the_front_page_offers_the_scenes_and_no_other_file() {
        let (status, body) = page("/").await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.contains("Open the room"), "{body}");
        let request = Request::get("/api/scenes")
            .body(Body::empty())
            .expect("request");
        let (status, body) = answer(test_router(), request).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["opening"], "open", "in-process counts as this machine");
        assert_eq!(body["scenes"][1]["id"], "d20-check-crypt");
        let (status, text) = page("/api/scenes/d20-check-crypt").await;
        assert_eq!(status, StatusCode::OK);
        assert!(text.contains("Into the crypt"));
        for outside in [
            "/api/scenes/..%2FCargo",
            "/api/scenes/demos",
            "/api/scenes/nope",
        ] {
            let request = Request::get(outside).body(Body::empty()).expect("request");
            let (status, body) = answer(test_router(), request).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{outside}");
            assert_eq!(body["code"], ErrorCode::NotFound.as_str());
        }
    }

    #[tokio::test]
    async fn a_scene_is_previewed_as_a_room_would_open_it() {
        let preview = |text: &str| {
            Request::post("/api/scene-preview")
                .body(Body::from(text.to_string()))
                .expect("request")
        };
        let text = std::fs::read_to_string("scenes/system-moves-2d6.ron").expect("a scene");
        let (status, body) = answer(test_router(), preview(&text)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["title"], "The dust market");
        assert_eq!(body["ruleset"], "system-file");
        assert_eq!(body["game"]["name"], "Moves: 2d6 + stat");
        let seated: Vec<(&str, bool)> = body["characters"]
            .as_array()
            .expect("characters")
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or(""),
                    c["players_play"].as_bool().unwrap_or(true),
                )
            })
            .collect();
        assert_eq!(
            seated,
            [
                ("Rook", true),
                ("Vesna", true),
                ("Ash", true),
                ("Market boss", false)
            ]
        );
        // A shipped ruleset names no game of its own.
        let text = std::fs::read_to_string("scenes/d20-check-crypt.ron").expect("a scene");
        let (status, body) = answer(test_router(), preview(&text)).await;
        assert_eq!(
            (status, &body["game"]),
            (StatusCode::OK, &serde_json::Value::Null)
        );
        assert_eq!(body["title"], "Into the crypt");
        // A broken file: why, where, with the code opening a room would give.
        let (status, body) = answer(
            test_router(),
            preview("(\n  name: \"x\",\n  cast: Nope,\n)"),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["code"], ErrorCode::BadScene.as_str());
        assert!(
            body["error"]
                .as_str()
                .unwrap_or("")
                .starts_with("the scene:3:9: "),
            "{body}"
        );
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
        let request = Request::get("/dice/atlas/d31?body=ffffff&ink=000000")
            .body(Body::empty())
            .expect("request");
        let (status, body) = answer(test_router(), request).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["code"], ErrorCode::NotFound.as_str());
    }

    /// A game's own die's atlas is drawn with its marks (a skull and pips here, the bone die's),
    /// unlike the numbered one; marks that are no marks, or do not fit the die, are refused.
    #[tokio::test]
    async fn a_games_own_die_has_an_atlas_of_its_marks() {
        let get = |query: &str| {
            Request::get(format!("/dice/atlas/d6?body=f0e8d8&ink=201810{query}"))
                .body(Body::empty())
                .expect("request")
        };
        let bytes = |response: axum::response::Response| async move {
            axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .expect("a body")
        };
        let numbered = test_router()
            .oneshot(get(""))
            .await
            .unwrap_or_else(|e| match e {});
        assert_eq!(numbered.status(), StatusCode::OK);
        // ☠|:2|:3|:4|:5|:6|
        let bone = "&marks=%E2%98%A0%7C%3A2%7C%3A3%7C%3A4%7C%3A5%7C%3A6%7C";
        let marked = test_router()
            .oneshot(get(bone))
            .await
            .unwrap_or_else(|e| match e {});
        assert_eq!(marked.status(), StatusCode::OK);
        let (numbered, marked) = (bytes(numbered).await, bytes(marked).await);
        assert!(marked.starts_with(b"\x89PNG"), "a PNG");
        assert_ne!(numbered, marked);
        // Five marks for six faces; pips on a d8; a glyph the typeface lacks.
        for (kind, marks) in [
            ("d6", "%3A2%7C%3A3%7C%3A4%7C%3A5%7C%3A6%7C"),
            (
                "d8",
                "%3A1%7C%3A2%7C%3A3%7C%3A4%7C%3A5%7C%3A6%7C%3A7%7C%3A8%7C",
            ),
            ("d6", "%F0%9F%90%89%7C%7C%7C%7C%7C%7C"),
        ] {
            let request = Request::get(format!(
                "/dice/atlas/{kind}?body=ffffff&ink=000000&marks={marks}"
            ))
            .body(Body::empty())
            .expect("request");
            let (status, body) = answer(test_router(), request).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{marks}");
            assert_eq!(body["code"], ErrorCode::Invalid.as_str());
        }
    }

    /// Stone's grain and a serif typeface are in the atlas (metal's surface is not: it shares
    /// plastic's); a typeface or material there is none of is refused. `/dice/look` says how a
    /// picker's look will be drawn: the numerals' colour moved to read, pips on the d6, the
    /// look in the log's words.
    #[tokio::test]
    async fn an_atlas_carries_grain_and_typeface_and_a_look_is_told_as_drawn() {
        let atlas = |query: &'static str| async move {
            let request = Request::get(format!("/dice/atlas/d20?body=8a8580&ink=101010{query}"))
                .body(Body::empty())
                .expect("request");
            let response = test_router()
                .oneshot(request)
                .await
                .unwrap_or_else(|e| match e {});
            let status = response.status();
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .expect("a body");
            (status, bytes)
        };
        let (plain, stone, metal, serif) = (
            atlas("").await,
            atlas("&material=stone").await,
            atlas("&material=metal").await,
            atlas("&typeface=serif").await,
        );
        assert_eq!(
            [plain.0, stone.0, metal.0, serif.0],
            [StatusCode::OK; 4],
            "every atlas drawn"
        );
        assert_eq!(metal.1, plain.1, "metal's surface is the client's");
        assert_ne!(stone.1, plain.1, "stone is speckled");
        assert_ne!(serif.1, plain.1, "serif numerals");
        for bad in ["&typeface=comic", "&material=jelly"] {
            let request = Request::get(format!("/dice/atlas/d6?body=ffffff&ink=000000{bad}"))
                .body(Body::empty())
                .expect("request");
            let (status, body) = answer(test_router(), request).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
            assert_eq!(body["code"], ErrorCode::Invalid.as_str());
        }
        let request =
            Request::get("/dice/look?body=ffffff&ink=ffff00&material=wood&pips=true&typeface=mono")
                .body(Body::empty())
                .expect("request");
        let (status, body) = answer(test_router(), request).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            body["words"],
            "wood dice: #ffffff with #ffff00 mono numerals, pips on the d6"
        );
        let dice = body["dice"].as_array().expect("dice");
        let kinds: Vec<_> = dice.iter().map(|d| d["kind"].clone()).collect();
        assert_eq!(kinds, [serde_json::json!("d20"), serde_json::json!("d6")]);
        for die in dice {
            // Yellow on white does not read: drawn darker, still yellow.
            assert_eq!(die["ink"], "#7a7a00", "{die}");
            assert_eq!(
                (die["material"].clone(), die["typeface"].clone()),
                (serde_json::json!("wood"), serde_json::json!("mono"))
            );
        }
        assert_eq!(dice[0]["marks"], serde_json::Value::Null);
        assert_eq!(dice[1]["marks"], ":1|:2|:3|:4|:5|:6|");
        let request = Request::get("/dice/look?body=ffffff&ink=000000&typeface=comic")
            .body(Body::empty())
            .expect("request");
        let (status, _) = answer(test_router(), request).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
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
        for page in [
            "overlay",
            "check.js",
            "room.js",
            "contract.js",
            "protocol",
            "vendor",
        ] {
            assert!(
                matches!(check_room_name(page), Err(ServerError::ReservedRoomName(_))),
                "{page}"
            );
        }
    }

    #[tokio::test]
    async fn the_pages_scripts_are_served() {
        for (script, holds) in [
            ("/room.js", "new DraftAsker"),
            ("/draft-asker.js", "export class DraftAsker"),
            ("/notation-odds.js", "export class NotationOdds"),
            ("/check.js", "dicetable seed v1"),
            ("/common.js", "socketUrl"),
            (
                "/contract.js",
                &format!(
                    "export const PROTOCOL = {};",
                    crate::online::protocol::PROTOCOL
                ),
            ),
            ("/vendor/sha256.min.js", "sha256"),
            (
                "/protocol/client.schema.json",
                "\"title\": \"dicetable room protocol",
            ),
            ("/protocol/server.schema.json", "\"$defs\""),
        ] {
            let (status, text) = page(script).await;
            assert_eq!(status, StatusCode::OK, "{script}");
            assert!(text.contains(holds), "{script}");
        }
    }
}
