//! The servers under attack, on loopback only: a page of another site (headless chromium), a
//! hostile player, a stranger with no passcode (from 127.0.0.2, another address of this
//! machine). Each is refused or bounded, the servers stay up, and an honest player's throws
//! are still answered; their latency under each abuse is printed
//! (`./check security -- --nocapture`).

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use dicetable::errors::ErrorCode;
use dicetable::online::client::{Client, JoinAs};
use dicetable::online::log::{Proposal, Role};
use dicetable::online::room::Checks;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use super::online::{
    Server, as_, crypt, data_dir, gm_opens, pat_plays_ash, refused, runtime, turned_away,
};
use super::stream::{browser_half, browser_ready, server_alone};
use super::{dicetable, stderr, stdout};

/// Other addresses of this machine: the strangers' (one per abuse, so none is counted
/// against another's limits).
const HOARDER: [u8; 4] = [127, 0, 0, 2];
const OPENER: [u8; 4] = [127, 0, 0, 3];
const GUESSER: [u8; 4] = [127, 0, 0, 4];
const FLOODER: [u8; 4] = [127, 0, 0, 6];

/// The first event a room's page gets, opened from `source`.
pub(crate) async fn page_from(source: [u8; 4], url: &str) -> Value {
    let mut ws = socket_from(source, url).await;
    let Some(Ok(Message::Text(text))) = ws.next().await else {
        panic!("no first event");
    };
    serde_json::from_str(&text).expect("JSON")
}

/// Sends one raw HTTP/1.1 request (`head`: the request line and headers, Host included) and
/// reads the status and the JSON body.
pub(crate) fn http(addr: SocketAddr, head: &str, body: &str) -> (u16, Value) {
    let mut socket = TcpStream::connect(addr).expect("connects");
    socket
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let request = format!("{head}\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    socket.write_all(request.as_bytes()).expect("sends");
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&got).into_owned();
        if let Some((headers, body)) = text.split_once("\r\n\r\n") {
            let length = headers
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if body.len() >= length {
                let status = headers
                    .split(' ')
                    .nth(1)
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0);
                return (status, serde_json::from_str(body).unwrap_or(Value::Null));
            }
        }
        match socket.read(&mut buf) {
            Ok(0) | Err(_) => panic!("the answer ended early: {text:?}"),
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Whether the window's server answers a plain request (`GET /api/history`) with 200.
fn answers(addr: SocketAddr) -> bool {
    let head = format!(
        "GET /api/history HTTP/1.1\r\nHost: 127.0.0.1:{}",
        addr.port()
    );
    http(addr, &head, "").0 == 200
}

/// The status and code of an answer.
fn code((status, body): (u16, Value)) -> (u16, String) {
    (
        status,
        body["code"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn a_page_of_another_site_cannot_use_the_windows_server() {
    let _lane = crate::beside_real_time();
    let (addr, mut link) = server_alone(None);
    let port = addr.port();
    let roll = r#"{"notation":"1d20","who":"Mallory"}"#;
    let me = format!("Host: 127.0.0.1:{port}");
    // A page of another site: a text/plain POST needs no leave from the browser.
    assert_eq!(
        code(http(
            addr,
            &format!(
                "POST /api/roll HTTP/1.1\r\n{me}\r\nOrigin: http://attacker.test\r\nContent-Type: text/plain"
            ),
            roll
        )),
        (403, "foreign_origin".into())
    );
    // No page, but not JSON.
    assert_eq!(
        code(http(
            addr,
            &format!("POST /api/move HTTP/1.1\r\n{me}\r\nContent-Type: text/plain"),
            ""
        )),
        (415, "not_json".into())
    );
    // Its name re-pointed at 127.0.0.1 (DNS rebinding): the page and the API.
    let rebound = format!("Host: rebind.test:{port}");
    assert_eq!(
        code(http(
            addr,
            &format!("GET /overlay HTTP/1.1\r\n{rebound}"),
            ""
        )),
        (403, "foreign_host".into())
    );
    assert_eq!(
        code(http(
            addr,
            &format!(
                "POST /api/roll HTTP/1.1\r\n{rebound}\r\nOrigin: http://rebind.test:{port}\r\nContent-Type: application/json"
            ),
            roll
        )),
        (403, "foreign_host".into())
    );
    // The feed's socket, from another site.
    assert_eq!(
        code(http(
            addr,
            &format!(
                "GET /feed HTTP/1.1\r\n{me}\r\nOrigin: http://attacker.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="
            ),
            ""
        )),
        (403, "foreign_origin".into())
    );
    // Its own names and tools still go: the overlay by any loopback name, the API from curl.
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let (status, _) = http(
            addr,
            &format!("GET /api/history HTTP/1.1\r\nHost: {host}"),
            "",
        );
        assert_eq!(status, 200, "{host}");
    }
    if browser_ready() {
        let seen = browser_half("foreign.mjs", &[&format!("http://127.0.0.1:{port}")]);
        assert_eq!(
            seen["foreign"]["feed"],
            json!({"opened": false, "messages": 0}),
            "{seen}"
        );
        assert!(
            seen["foreign"]["preflighted"]["error"].is_string(),
            "{seen}"
        );
        assert_eq!(seen["rebound"]["page_status"], 403, "{seen}");
        assert_eq!(seen["rebound"]["page_code"], "foreign_host", "{seen}");
        assert_eq!(
            seen["rebound"]["api"],
            json!({"status": 403, "code": "foreign_host"}),
            "{seen}"
        );
    }
    // Nothing of it reached the table.
    assert!(link.next_job().is_none(), "a roll reached the table");
}

/// `{{…1d6,1}kh1…,1}kh1`, `depth` groups deep.
fn nested(depth: usize) -> String {
    format!("{}1d6{}", "{".repeat(depth), ",1}kh1".repeat(depth))
}

#[test]
fn a_notation_nested_thousands_deep_is_refused_and_no_server_falls() {
    let _lane = crate::beside_real_time();
    // The window's server: what aborted the window.
    let (addr, _link) = server_alone(None);
    let post = |notation: String| {
        let body = json!({ "notation": notation }).to_string();
        http(
            addr,
            &format!(
                "POST /api/roll HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json",
                addr.port()
            ),
            &body,
        )
    };
    // Each refused as bad notation, its cap named.
    for (depth, says) in [
        (
            2_200,
            "a notation has at most 256 characters (this one has 15403)",
        ),
        (9, "groups, brackets and functions nest at most 8 deep"),
    ] {
        let (status, answer) = post(nested(depth));
        let error = answer["error"].as_str().unwrap_or_default();
        assert_eq!(
            (status, answer["code"].as_str()),
            (422, Some("bad_notation"))
        );
        assert!(error.contains(says), "{depth} deep: {answer}");
    }
    assert!(answers(addr), "the window's server is up");

    // The table server: what aborted it, and every window joining the room after.
    let data = data_dir("deep");
    let mut server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    runtime().block_on(async {
        let mut gm = gm_opens(&url, Checks::default()).await;
        let (code, reason) = refused(
            gm.throw(Proposal::Notation(nested(5_300)), None, false, None)
                .await,
        );
        assert_eq!(code, ErrorCode::BadNotation);
        assert!(reason.contains("at most 256 characters"), "{reason}");
        assert_eq!(
            refused(
                gm.throw(Proposal::Notation(nested(9)), None, false, None)
                    .await
            )
            .0,
            ErrorCode::BadNotation
        );
        gm.throw(Proposal::Notation(nested(8)), None, false, None)
            .await
            .expect("eight deep is a notation");
        // Nothing unreadable was stored: a newcomer replays the room.
        let late = Client::connect(
            as_(&url, "Lee", Role::Spectator, &[], "friends"),
            None,
            Checks { physics: true },
        )
        .await
        .expect("joins and replays the room");
        assert!(late.failures.is_empty(), "{:?}", late.failures);
    });
    assert!(server.alive(), "the table server is up");
    server.kill();
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn seats_belong_to_who_took_them() {
    let _lane = crate::beside_real_time();
    let data = data_dir("seats");
    let mut server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    runtime().block_on(async {
        let mut gm = gm_opens(&url, Checks::default()).await;
        let mut pat = pat_plays_ash(&url).await;
        let key = pat.key().expect("a key to the name").to_string();
        assert_eq!(key.len(), 32, "{key}");
        let join = |name: &str, role: Role, seats: &[&str], key: Option<&str>| {
            let join = JoinAs {
                key: key.map(str::to_string),
                ..as_(&url, name, role, seats, "friends")
            };
            Client::connect(join, None, Checks::default())
        };
        let in_use = |name: &str| {
            (
                Some(ErrorCode::NameInUse),
                format!(
                    "'{name}' is taken in this room: join under it with its key (the window that took it keeps it), or choose another name"
                ),
            )
        };
        // Another client under the name: no key, a wrong key, as a spectator (no demotion).
        assert_eq!(turned_away(join("Pat", Role::Player, &["Ash"], None).await), in_use("Pat"));
        let wrong = "00".repeat(16);
        assert_eq!(
            turned_away(join("Pat", Role::Player, &["Ash"], Some(&wrong)).await),
            in_use("Pat")
        );
        assert_eq!(turned_away(join("Pat", Role::Spectator, &[], None).await), in_use("Pat"));
        // Look-alikes: full-width letters (NFKC), another case; hidden characters refused.
        assert_eq!(turned_away(join("Ｐａｔ", Role::Spectator, &[], None).await), in_use("Pat"));
        assert_eq!(turned_away(join("pat", Role::Spectator, &[], None).await), in_use("Pat"));
        // Letters of another script that look the same (UTS #39 skeletons): a Cyrillic "а",
        // a Cyrillic "Р" with a Greek "α".
        for alike in ["P\u{430}t", "\u{420}\u{3b1}t"] {
            assert_eq!(
                turned_away(join(alike, Role::Spectator, &[], None).await),
                in_use("Pat"),
                "{alike:?}"
            );
        }
        // Labels by the names' rule: no direction override, escape code or newline.
        for label in ["fire\u{202e}erif", "\u{1b}[31mred", "one\ntwo"] {
            let thrown = pat
                .throw(Proposal::Notation("1d6".into()), None, false, Some(label.into()))
                .await;
            assert_eq!(refused(thrown).0, ErrorCode::BadLabel, "{label:?}");
        }
        for hidden in ["Pa\u{202e}t", "Pa\u{200b}t", "\u{2066}Pat"] {
            assert_eq!(
                turned_away(join(hidden, Role::Spectator, &[], None).await).0,
                Some(ErrorCode::BadName),
                "{hidden:?}"
            );
        }
        // A spectator does not come back as a player, even with its key.
        let lee = join("Lee", Role::Spectator, &[], None).await.expect("Lee watches");
        assert_eq!(
            turned_away(join("Lee", Role::Player, &[], lee.key()).await),
            (
                Some(ErrorCode::RoleChange),
                "Lee is in this room as a spectator: only the game master can change that".into()
            )
        );
        // A player does not seat the game master's characters.
        assert_eq!(
            turned_away(join("Sam", Role::Player, &["Ghoul"], None).await),
            (
                Some(ErrorCode::GamemasterCharacter),
                "Ghoul is played by the game master".into()
            )
        );
        // The game master changes roles and seats; nobody else does.
        assert_eq!(
            refused(pat.seat("Lee", Role::Player, &["Bea".into()]).await),
            (
                ErrorCode::NotGamemaster,
                "only the game master seats members".into()
            )
        );
        assert_eq!(
            refused(gm.seat("Lee", Role::Player, &["Ghoul".into()]).await).0,
            ErrorCode::GamemasterCharacter
        );
        gm.seat("Lee", Role::Player, &["Bea".into()])
            .await
            .expect("the game master seats Lee as Bea");
        let lee_back = join("Lee", Role::Player, &["Bea"], lee.key())
            .await
            .expect("Lee comes back as Bea's player, with the key");
        assert_eq!(lee_back.key(), lee.key());
        // Pat, with the key, comes back and throws for Ash.
        let mut back = join("Pat", Role::Player, &["Ash"], Some(&key))
            .await
            .expect("Pat comes back with the key");
        assert_eq!(back.key(), Some(key.as_str()), "the same key");
        back.throw(
            super::online::check(0, "STR", 12),
            None,
            false,
            None,
        )
        .await
        .expect("Pat throws for Ash");
    });
    assert!(server.alive(), "the table server is up");
    let _ = std::fs::remove_dir_all(&data);
}

/// A WebSocket to `url` from `source`, its first message `hello`: the first answer that is a
/// `welcome` or an `error`, and the socket.
/// A TCP connection to `addr` from `source` (another address of this machine).
pub(crate) async fn tcp_from(source: [u8; 4], addr: SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(SocketAddr::new(IpAddr::from(source), 0))
        .expect("binds");
    socket.connect(addr).await.expect("connects")
}

/// A WebSocket to `url` (`ws://ADDR/...`) from `source`.
pub(crate) async fn socket_from(
    source: [u8; 4],
    url: &str,
) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    open_from(source, url, &[])
        .await
        .unwrap_or_else(|refused| panic!("handshake to {url} refused: {refused:?}"))
}

/// A WebSocket handshake from `source` to `url` (`ws://ADDR/...`) with `headers` added: the
/// socket, or the refusal's HTTP status and `code`.
pub(crate) async fn open_from(
    source: [u8; 4],
    url: &str,
    headers: &[(&'static str, &str)],
) -> Result<tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>, (u16, String)> {
    use tokio_tungstenite::tungstenite::Error as WsError;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let addr: SocketAddr = url
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .and_then(|a| a.parse().ok())
        .expect("an address");
    let mut request = url.into_client_request().expect("a request");
    for (name, value) in headers {
        request
            .headers_mut()
            .insert(*name, value.parse().expect("a header value"));
    }
    let stream = tcp_from(source, addr).await;
    match tokio_tungstenite::client_async(request, stream).await {
        Ok((ws, _)) => Ok(ws),
        Err(WsError::Http(answer)) => {
            let body: Value = answer
                .body()
                .as_deref()
                .and_then(|b| serde_json::from_slice(b).ok())
                .unwrap_or(Value::Null);
            let code = body["code"].as_str().unwrap_or_default().to_string();
            Err((answer.status().as_u16(), code))
        }
        Err(e) => panic!("the handshake to {url} failed: {e}"),
    }
}

/// A WebSocket to `url` from `source`, its first message `hello`: the first answer that is a
/// `welcome` or an `error`, and the socket.
pub(crate) async fn hello_from(
    source: [u8; 4],
    url: &str,
    hello: &Value,
) -> (
    Value,
    tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
) {
    hello_with(source, url, &[], hello).await
}

/// As [`hello_from`], the handshake carrying `headers` too.
pub(crate) async fn hello_with(
    source: [u8; 4],
    url: &str,
    headers: &[(&'static str, &str)],
    hello: &Value,
) -> (
    Value,
    tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
) {
    let mut ws = open_from(source, url, headers)
        .await
        .unwrap_or_else(|refused| panic!("{url} refused the socket: {refused:?}"));
    ws.send(Message::text(hello.to_string()))
        .await
        .expect("sends");
    loop {
        let Some(Ok(Message::Text(text))) = ws.next().await else {
            panic!("no answer to {hello}");
        };
        let answer: Value = serde_json::from_str(&text).expect("JSON");
        if matches!(answer["type"].as_str(), Some("welcome" | "error")) {
            return (answer, ws);
        }
    }
}

pub(crate) fn join_msg(room: &str, name: &str, passcode: &str) -> Value {
    json!({"type": "join", "v": 3, "room": room, "name": name, "role": "spectator",
        "passcode": passcode})
}

/// Throws a 1d20 twenty times, at most ten a second (a player's pace, well within a
/// connection's 20 messages a second); prints the median and returns the slowest (the p99 of
/// twenty).
pub(crate) async fn honest_throws(pat: &mut Client, during: &str) -> Duration {
    let mut times = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        pat.throw(Proposal::Notation("1d20".into()), None, false, None)
            .await
            .unwrap_or_else(|e| panic!("the honest throw during {during}: {e}"));
        times.push(start.elapsed());
        tokio::time::sleep(Duration::from_millis(100).saturating_sub(start.elapsed())).await;
    }
    times.sort();
    let p99 = times[times.len() - 1];
    let median = times[times.len() / 2];
    eprintln!("honest 1d20 during {during}: median {median:?}, p99 {p99:?} (20 throws)");
    p99
}

#[test]
fn strangers_are_bounded_and_an_honest_table_is_still_answered() {
    let _lane = crate::beside_real_time();
    let data = data_dir("strangers");
    let more = ["--room-passcode", "owner", "--per-address", "16"];
    let mut server = Server::start_with(&data, "127.0.0.1:0", &more);
    let url = |room: &str| server.url(room);
    runtime().block_on(async {
        // The honest table, opened from this machine.
        let _gm = gm_opens(&url("crypt"), Checks::default()).await;
        let mut pat = pat_plays_ash(&url("crypt")).await;
        honest_throws(&mut pat, "nothing (the baseline)").await;

        // A stranger opens rooms: not without the owner's room passcode.
        let create = |room: &str, room_passcode: Option<&str>| {
            let mut msg = json!({"type": "create", "v": 3, "room": room, "name": "Mal",
                "scene": crypt(), "passcode": "p", "gm_passcode": "g"});
            if let Some(p) = room_passcode {
                msg["room_passcode"] = json!(p);
            }
            msg
        };
        let (answer, _) = hello_from(OPENER, &url("den"), &create("den", None)).await;
        assert_eq!(answer["code"], "rooms_closed", "{answer}");
        let (answer, _) = hello_from(OPENER, &url("den"), &create("den", Some("guess"))).await;
        assert_eq!(answer["code"], "rooms_closed", "{answer}");
        let (answer, _) = hello_from(OPENER, &url("den"), &create("den", Some("owner"))).await;
        assert_eq!(answer["type"], "welcome", "{answer}");

        // The stranger guesses the crypt's passcode: three wrong, then even the right one waits.
        for i in 0..3 {
            let (answer, _) = hello_from(
                GUESSER,
                &url("crypt"),
                &join_msg("crypt", "Mal", &format!("guess{i}")),
            )
            .await;
            assert_eq!(answer["code"], "wrong_passcode", "{answer}");
        }
        let (answer, _) =
            hello_from(GUESSER, &url("crypt"), &join_msg("crypt", "Mal", "friends")).await;
        assert_eq!(answer["code"], "backing_off", "{answer}");
        // ...and keeps guessing while the honest table plays; its players still come in.
        let guessing = tokio::spawn({
            let url = url("crypt");
            async move {
                // (waiting, tried): most guesses are not even checked.
                let (mut waiting, mut tried) = (0, 0);
                for i in 0..200 {
                    let (answer, _) =
                        hello_from(GUESSER, &url, &join_msg("crypt", "Mal", &format!("g{i}")))
                            .await;
                    match answer["code"].as_str() {
                        Some("backing_off") => waiting += 1,
                        Some("wrong_passcode") => tried += 1,
                        _ => panic!("{answer}"),
                    }
                }
                (waiting, tried)
            }
        });
        let sam = Client::connect(
            as_(&url("crypt"), "Sam", Role::Player, &["Bea"], "friends"),
            None,
            Checks::default(),
        )
        .await;
        assert!(sam.is_ok(), "an honest player comes in during the guessing");
        honest_throws(&mut pat, "passcode guessing from another address").await;
        let (waiting, tried) = guessing.await.expect("the guesser");
        eprintln!("200 guesses: {tried} checked, {waiting} told to wait");
        assert_eq!(waiting + tried, 200);
        assert!(tried <= 8, "{tried} of 200 guesses were checked");

        // A flood of room pages with wrong passcodes (each once queued an argon2 hash): after
        // three, the address is told to wait before anything is hashed.
        let flood = format!("{}/feed?passcode=guess", url("crypt"));
        let (mut hashed, mut waiting) = (0, 0);
        for _ in 0..100 {
            let event = page_from(FLOODER, &flood).await;
            match event["code"].as_str() {
                Some("wrong_passcode") => hashed += 1,
                Some("backing_off") => waiting += 1,
                _ => panic!("{event}"),
            }
        }
        eprintln!("100 pages with a wrong passcode: {hashed} hashed, {waiting} told to wait");
        assert_eq!(
            (hashed + waiting, hashed <= 4),
            (100, true),
            "{hashed} hashed"
        );
        let start = Instant::now();
        let viv = Client::connect(
            as_(&url("crypt"), "Viv", Role::Spectator, &[], "friends"),
            None,
            Checks::default(),
        )
        .await;
        assert!(viv.is_ok(), "an honest spectator comes in after the flood");
        eprintln!("an honest join after the flood took {:?}", start.elapsed());

        // The stranger holds idle sockets: 16 are kept, the rest closed at once.
        let mut idle = Vec::new();
        for _ in 0..40 {
            let addr: SocketAddr = server.addr.parse().expect("address");
            idle.push(tcp_from(HOARDER, addr).await);
        }
        let mut closed = 0;
        for socket in &mut idle {
            let mut byte = [0u8; 1];
            let read = tokio::time::timeout(
                Duration::from_millis(200),
                tokio::io::AsyncReadExt::read(socket, &mut byte),
            )
            .await;
            if matches!(read, Ok(Ok(0)) | Ok(Err(_))) {
                closed += 1;
            }
        }
        assert_eq!(closed, 40 - 16, "all but 16 closed");
        honest_throws(&mut pat, "40 idle sockets from another address").await;
        drop(idle);

        // A join claiming entries past the end is sent none: `since` is clamped to the head.
        let mut far = join_msg("crypt", "Zed", "friends");
        far["since"] = json!(1u64 << 63);
        let (answer, mut ws) = hello_from([127, 0, 0, 1], &url("crypt"), &far).await;
        assert_eq!(answer["type"], "welcome", "{answer}");
        ws.send(Message::text(r#"{"type":"ping","id":7}"#))
            .await
            .expect("sends");
        let Some(Ok(Message::Text(text))) = ws.next().await else {
            panic!("no pong");
        };
        let next: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(
            next,
            json!({"type": "pong", "id": 7}),
            "no entry came first"
        );
    });
    assert!(server.alive(), "the table server is up");
    let _ = std::fs::remove_dir_all(&data);
}

/// Another address of this machine: a player throwing too much.
const THROWER: [u8; 4] = [127, 0, 0, 5];

/// Sends a throw on a joined socket; returns at once (the answer comes later).
pub(crate) async fn propose(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
    commitment: &Value,
    what: Value,
    gesture: Value,
) {
    let msg = json!({"type": "throw", "id": 1, "what": what, "commitment": commitment,
        "nonce": "0123456789abcdef0123456789abcdef", "gesture": gesture});
    ws.send(Message::text(msg.to_string()))
        .await
        .expect("sends");
}

/// The next `ack` or `refused` on a socket.
pub(crate) async fn answer_of(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>,
) -> Value {
    loop {
        let Some(Ok(Message::Text(text))) = ws.next().await else {
            panic!("no answer");
        };
        let v: Value = serde_json::from_str(&text).expect("JSON");
        if matches!(v["type"].as_str(), Some("ack" | "refused")) {
            return v;
        }
    }
}

#[test]
fn no_player_holds_the_physics_and_pages_share_each_motion() {
    let _lane = crate::beside_real_time();
    let data = data_dir("physics");
    let mut server = Server::start(&data, "127.0.0.1:0");
    let url = |room: &str| server.url(room);
    runtime().block_on(async {
        let _gms = (
            gm_opens(&url("crypt"), Checks::default()).await,
            gm_opens(&url("den"), Checks::default()).await,
            gm_opens(&url("lair"), Checks::default()).await,
            gm_opens(&url("keep"), Checks::default()).await,
        );
        let mut pat = pat_plays_ash(&url("crypt")).await;
        honest_throws(&mut pat, "nothing (the baseline)").await;

        // A player of two other rooms, from one address.
        let player = |room: &str| {
            json!({"type": "join", "v": 3, "room": room, "name": "Mal",
            "role": "player", "passcode": "friends"})
        };
        let (den_hello, mut den) = hello_from(THROWER, &url("den"), &player("den")).await;
        let (lair_hello, mut lair) = hello_from(THROWER, &url("lair"), &player("lair")).await;
        assert_eq!(
            (&den_hello["type"], &lair_hello["type"]),
            (&json!("welcome"), &json!("welcome"))
        );
        // At the old limit of a gesture (100 m/s): refused at once.
        let hurled = json!({"release": [0.0, 12.0, 0.0], "velocity": [10000.0, 0.0, 10000.0]});
        propose(
            &mut den,
            &den_hello["commitment"],
            json!({"notation": "100d6"}),
            hurled,
        )
        .await;
        let refused = answer_of(&mut den).await;
        assert_eq!(refused["code"], "bad_gesture", "{refused}");
        // Outside the tray (the dice escape and are thrown again for ever): refused.
        let outside = json!({"release": [0.0, 12.0, -10.0], "velocity": [20.0, 5.0, 80.0]});
        propose(
            &mut den,
            &den_hello["commitment"],
            json!({"notation": "7d4"}),
            outside,
        )
        .await;
        assert_eq!(answer_of(&mut den).await["code"], "bad_gesture");
        // The most a hand may do, in both rooms at once: one runs, the other waits for it,
        // and the honest room keeps a slot.
        let fastest = json!({"release": [7.5, 24.0, 2.0], "velocity": [-300.0, 0.0, 0.0]});
        let thrown = Instant::now();
        propose(
            &mut den,
            &den_hello["commitment"],
            json!({"notation": "100d6"}),
            fastest.clone(),
        )
        .await;
        propose(
            &mut lair,
            &lair_hello["commitment"],
            json!({"notation": "100d6"}),
            fastest,
        )
        .await;
        honest_throws(
            &mut pat,
            "two 100d6 at the fastest hand from another address",
        )
        .await;
        let acks = (answer_of(&mut den).await, answer_of(&mut lair).await);
        eprintln!(
            "two 100d6 at the fastest hand, one address: both stored after {:?}",
            thrown.elapsed()
        );
        assert_eq!(
            (&acks.0["type"], &acks.1["type"]),
            (&json!("ack"), &json!("ack")),
            "{acks:?}"
        );

        // Three addresses, each a player in a room of its own, throw the largest throw at the
        // fastest hand back to back: with two cores, more throwers than physics slots. The
        // slots are taken in turn, so the honest 1d6 waits for a throw or two at most.
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut throwers = Vec::new();
        for (source, room, name) in [
            ([127, 0, 0, 7], "den", "Ike"),
            ([127, 0, 0, 8], "lair", "Jo"),
            ([127, 0, 0, 9], "keep", "Kit"),
        ] {
            let hello = json!({"type": "join", "v": 3, "room": room, "name": name,
                "role": "player", "passcode": "friends"});
            let (welcome, mut ws) = hello_from(source, &url(room), &hello).await;
            assert_eq!(welcome["type"], "welcome", "{welcome}");
            let stop = stop.clone();
            let fastest = json!({"release": [7.5, 24.0, 2.0], "velocity": [-300.0, 0.0, 0.0]});
            throwers.push(tokio::spawn(async move {
                let mut commitment = welcome["commitment"].clone();
                let mut thrown = 0u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let what = json!({"notation": "100d6"});
                    propose(&mut ws, &commitment, what, fastest.clone()).await;
                    let answer = answer_of(&mut ws).await;
                    assert_eq!(answer["type"], "ack", "{answer}");
                    commitment = answer["commitment"].clone();
                    thrown += 1;
                }
                thrown
            }));
        }
        honest_throws(
            &mut pat,
            "three addresses throwing 100d6 at the fastest hand back to back",
        )
        .await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut thrown = 0;
        for t in throwers {
            thrown += t.await.expect("a thrower");
        }
        eprintln!("meanwhile the three threw {thrown} throws of 100d6");
        assert!(thrown >= 3, "every thrower threw");

        // Thirty pages follow the crypt: each throw is simulated once for all of them.
        let feed = format!("{}/feed?passcode=friends", url("crypt"));
        let mut pages = Vec::new();
        for _ in 0..30 {
            let (page, _) = tokio_tungstenite::connect_async(feed.as_str())
                .await
                .expect("a page follows the room");
            pages.push(page);
        }
        honest_throws(&mut pat, "30 pages following the room").await;
        // A page's message over 4 KiB (a page only listens) closes that page, not the room.
        let mut loud = pages.pop().expect("a page");
        let _ = loud.send(Message::text("x".repeat(64 * 1024))).await;
        let closed = loop {
            match loud.next().await {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break true,
                Some(Ok(_)) => {}
            }
        };
        assert!(closed);
        pat.throw(Proposal::Notation("1d6".into()), None, false, None)
            .await
            .expect("the room goes on");
    });
    assert!(server.alive(), "the table server is up");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_silent_or_dripping_connection_is_closed_after_the_header_timeout() {
    let _lane = crate::beside_real_time();
    let (addr, _link) = server_alone(None);
    let silent = TcpStream::connect(addr).expect("connects");
    let mut dripping = TcpStream::connect(addr).expect("connects");
    dripping
        .write_all(b"GET /overlay HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .expect("sends half a request");
    let start = Instant::now();
    for mut socket in [silent, dripping] {
        socket
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        let mut buf = [0u8; 1024];
        loop {
            match socket.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(e) => panic!("not closed by the server: {e}"),
            }
        }
    }
    let waited = start.elapsed();
    eprintln!("silent and half-sent connections closed after {waited:?}");
    assert!(waited >= Duration::from_secs(9), "{waited:?}");
    // A prompt request is answered as ever.
    assert!(answers(addr));
}

/// Reads a socket until the server closes it: how long after `since` that was. (`since` is
/// taken before the client last sent anything, so the time is at least the server's timeout
/// however late this test's thread runs.)
async fn until_closed(socket: &mut tokio::net::TcpStream, since: Instant) -> Duration {
    let mut buf = [0u8; 4096];
    loop {
        let read = tokio::time::timeout(
            Duration::from_secs(30),
            tokio::io::AsyncReadExt::read(socket, &mut buf),
        )
        .await
        .expect("closed by the server within 30 s");
        if matches!(read, Ok(0) | Err(_)) {
            return since.elapsed();
        }
    }
}

#[test]
fn idle_connections_are_closed_live_ones_kept_and_idle_rooms_unloaded() {
    let _lane = crate::beside_real_time();
    let data = data_dir("idle");
    let more = ["--idle-timeout", "1", "--unload-after", "1"];
    let mut server = Server::start_with(&data, "127.0.0.1:0", &more);
    let url = |room: &str| server.url(room);
    let addr: SocketAddr = server.addr.parse().expect("address");
    runtime().block_on(async {
        let mut gm = gm_opens(&url("crypt"), Checks::default()).await;
        let mut pat = pat_plays_ash(&url("crypt")).await;
        let first = pat
            .throw(Proposal::Notation("1d6".into()), None, false, None)
            .await
            .expect("a throw");

        // Meanwhile: a keep-alive connection that asks once and then says nothing, and a
        // member whose socket never answers the server's pings, are closed; Pat's client reads
        // (and so answers every ping) for four timeouts, and is kept.
        let quiet = async {
            let since = Instant::now();
            let mut quiet = tcp_from([127, 0, 0, 1], addr).await;
            tokio::io::AsyncWriteExt::write_all(
                &mut quiet,
                b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            )
            .await
            .expect("asks");
            until_closed(&mut quiet, since).await
        };
        let mute = async {
            let mo = join_msg("crypt", "Mo", "friends");
            let since = Instant::now();
            let (welcome, mut mute) = hello_from([127, 0, 0, 1], &url("crypt"), &mo).await;
            assert_eq!(welcome["type"], "welcome", "{welcome}");
            until_closed(mute.get_mut(), since).await
        };
        let reads = async {
            let until = Instant::now() + Duration::from_secs(4);
            while let Some(left) = until.checked_duration_since(Instant::now()) {
                pat.wait_for_more(left).await?;
            }
            Ok::<(), dicetable::online::client::ClientError>(())
        };
        let (quiet, mute, more) = tokio::join!(quiet, mute, reads);
        eprintln!("an idle keep-alive connection closed after {quiet:?} (timeout 1 s)");
        eprintln!("a member that never answers pings closed after {mute:?}");
        assert!(quiet >= Duration::from_millis(900), "{quiet:?}");
        assert!(mute >= Duration::from_millis(900), "{mute:?}");
        more.expect("reads");
        assert_eq!(pat.reconnects, 0, "Pat's connection was kept");
        let second = pat
            .throw(Proposal::Notation("1d6".into()), None, false, None)
            .await
            .expect("a throw on the same connection");
        assert!(second > first);
        assert_eq!(pat.reconnects, 0);

        // Gwen's client did not read meanwhile: the server closed her connection, and she
        // comes back by herself at her next request.
        gm.sync_to(second).await.expect("Gwen catches up");
        assert_eq!(gm.seq(), second);
        assert!(gm.reconnects >= 1, "Gwen's idle connection was closed");

        // Everybody leaves: the room leaves memory, and comes back from its log.
        let key = pat.key().map(str::to_string);
        drop((gm, pat));
        assert!(
            server.says("room crypt: unloaded", Duration::from_secs(30)),
            "the idle room is unloaded"
        );
        let mut back = as_(&url("crypt"), "Pat", Role::Player, &["Ash"], "friends");
        back.key = key;
        let mut pat = Client::connect(back, None, Checks::default())
            .await
            .expect("Pat comes back with the key");
        assert_eq!(pat.seq(), second, "the whole history is there");
        let third = pat
            .throw(Proposal::Notation("1d6".into()), None, false, None)
            .await
            .expect("a throw in the reloaded room");
        assert_eq!(third, second + 1);
        assert!(pat.room.as_ref().expect("room").mismatches.is_empty());
    });
    assert!(server.alive(), "the table server is up");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_store_that_cannot_be_written_stops_the_server_at_start() {
    let _lane = crate::beside_real_time();
    let data = data_dir("unwritable");
    std::fs::create_dir_all(&data).expect("a folder");
    // A data folder under a file cannot be made; a database that is a folder cannot be
    // opened. Both found before listening (exit 2, the reason), not at the first throw.
    let file = data.join("a-file");
    std::fs::write(&file, "not a folder").expect("writes");
    let under_file = file.join("rooms");
    let folder_db = data.join("store");
    std::fs::create_dir_all(folder_db.join("rooms.sqlite")).expect("a folder");
    for (store, why) in [(&under_file, "cannot make"), (&folder_db, "cannot open")] {
        let store = store.to_str().expect("a path");
        let out = dicetable(&["serve", "--listen", "127.0.0.1:0", "--data", store]);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(said.contains(why), "{said}");
        assert!(!stdout(&out).contains("listening"));
    }
    let _ = std::fs::remove_dir_all(&data);
}

/// The headers of a GET of `url`: (name, value) pairs, names in lower case.
fn headers_of(url: &str) -> Vec<(String, String)> {
    let response = ureq::get(url)
        .call()
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    response
        .headers()
        .iter()
        .map(|(name, value)| {
            (
                name.as_str().to_string(),
                value.to_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn every_page_carries_its_security_headers_and_frames_only_where_allowed() {
    let _lane = crate::beside_real_time();
    let data = data_dir("headers");
    let embed = "'self' https://embed.example";
    let server = Server::start_with(&data, "127.0.0.1:0", &["--frame-ancestors", embed]);
    let base = format!("http://{}", server.addr);
    runtime().block_on(async {
        let _gm = gm_opens(&server.url("crypt"), Checks::default()).await;
    });
    // Pages: a policy that runs only the server's own scripts and styles, framed only by the
    // server itself and the site the owner named; everything: nosniff, no Referer onward.
    for page in ["/", "/crypt", "/crypt/watch", "/overlay"] {
        let h = headers_of(&format!("{base}{page}"));
        let csp = header(&h, "content-security-policy").unwrap_or_else(|| panic!("{page}: {h:?}"));
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "frame-ancestors 'self' https://embed.example",
        ] {
            assert!(csp.contains(directive), "{page}: {csp}");
        }
        assert!(!csp.contains("unsafe"), "{page}: {csp}");
        assert_eq!(
            header(&h, "x-content-type-options"),
            Some("nosniff"),
            "{page}"
        );
        assert_eq!(header(&h, "referrer-policy"), Some("no-referrer"), "{page}");
    }
    for file in ["/room.js", "/table.css", "/overlay.css", "/api/scenes"] {
        let h = headers_of(&format!("{base}{file}"));
        assert_eq!(
            header(&h, "x-content-type-options"),
            Some("nosniff"),
            "{file}"
        );
        assert_eq!(
            header(&h, "content-security-policy"),
            None,
            "{file}: not a page"
        );
    }
    // The window's server: framed by itself only, by default.
    let (addr, _link) = server_alone(None);
    let h = headers_of(&format!("http://{addr}/overlay"));
    let csp = header(&h, "content-security-policy").expect("a policy");
    assert!(csp.ends_with("frame-ancestors 'self'"), "{csp}");
    // A list that would smuggle a directive in is refused before anything starts.
    let out = dicetable(&["serve", "--frame-ancestors", "'self'; script-src *"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not a frame-ancestors list"),
        "{}",
        stderr(&out)
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// Another address of this machine: a client sending messages far over the limit.
const UPLOADER: [u8; 4] = [127, 0, 0, 7];

#[test]
fn an_upload_over_the_limit_is_answered_too_large_with_the_limit() {
    let _lane = crate::beside_real_time();
    let data = data_dir("uploads");
    let mut server = Server::start(&data, "127.0.0.1:0");
    let url = |room: &str| server.url(room);
    runtime().block_on(async {
        let _gm = gm_opens(&url("crypt"), Checks::default()).await;
        let mut pat = pat_plays_ash(&url("crypt")).await;
        // A scene of 300 KB, then 5 MB, as a room's `create`: answered, not just cut off.
        for size in [300_000, 5_000_000] {
            let scene = "x".repeat(size);
            let create = json!({"type": "create", "v": 3, "room": "big", "name": "Mal",
                "scene": scene, "passcode": "p", "gm_passcode": "g"});
            let (answer, _) = hello_from(UPLOADER, &url("big"), &create).await;
            assert_eq!(answer["code"], "too_large", "{size} bytes: {answer}");
            let message = answer["message"].as_str().unwrap_or_default();
            assert!(message.contains("at most 65536"), "{message}");
        }
        honest_throws(&mut pat, "uploads over the limit").await;
    });
    assert!(server.alive());
    let _ = std::fs::remove_dir_all(&data);
}

/// Another address of this machine: a page of another site re-pointed at the server.
const REBOUND: [u8; 4] = [127, 0, 0, 8];

#[test]
fn a_page_rebound_to_the_table_server_by_its_name_is_refused_on_every_route() {
    let _lane = crate::beside_real_time();
    let data = data_dir("rebinding");
    let mut server = Server::start_with(&data, "127.0.0.1:0", &["--host", "dice.example.org"]);
    let addr: SocketAddr = server.addr.parse().expect("address");
    let port = addr.port();
    runtime().block_on(async {
        let _gm = gm_opens(&server.url("crypt"), Checks::default()).await;
        let mut pat = pat_plays_ash(&server.url("crypt")).await;
        // Every route, by a name the owner did not list: refused before anything is done.
        let evil = format!("evil.example:{port}");
        for path in [
            "/",
            "/api/scenes",
            "/api/odds?notation=1d20",
            "/crypt",
            "/overlay",
        ] {
            let head = format!("GET {path} HTTP/1.1\r\nHost: {evil}");
            assert_eq!(
                code(http(addr, &head, "")),
                (403, "foreign_host".into()),
                "{path}"
            );
        }
        // Not a room opened from this machine under another site's name, nor its socket.
        let url = server.url("den");
        let refused = open_from(REBOUND, &url, &[("host", &evil)]).await.err();
        assert_eq!(refused, Some((403, "foreign_host".into())));
        let refused = open_from([127, 0, 0, 1], &url, &[("host", &evil)])
            .await
            .err();
        assert_eq!(refused, Some((403, "foreign_host".into())));
        // Its addresses, localhost and the listed name are served.
        for host in [
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            "Dice.Example.Org".to_string(),
        ] {
            let head = format!("GET /api/scenes HTTP/1.1\r\nHost: {host}");
            assert_eq!(http(addr, &head, "").0, 200, "{host}");
        }
        // A rebound page hammering the server: an honest table plays on.
        let flood = tokio::task::spawn_blocking(move || {
            for _ in 0..300 {
                let head =
                    format!("GET /api/odds?notation=50d100 HTTP/1.1\r\nHost: evil.example:{port}");
                assert_eq!(code(http(addr, &head, "")).1, "foreign_host");
            }
        });
        honest_throws(&mut pat, "300 requests of a rebound page").await;
        flood.await.expect("the flood");
    });
    assert!(server.alive());
    let _ = std::fs::remove_dir_all(&data);
}
