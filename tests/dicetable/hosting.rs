//! Hosting a table: the binary alone, copied into an empty folder with the checkout hidden from
//! it, serves a room over TLS to a real browser, shows the key that signs its exports, and picks
//! up a renewed certificate by itself.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use sha2::Digest;

use super::online::Server;
use super::stream::{browser_half, browser_ready};

/// Runs `sh -c SCRIPT` in `dir`: its standard output, or the test fails saying what it wrote.
fn sh(dir: &Path, script: &str) -> Vec<u8> {
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .stderr(Stdio::piped())
        .output()
        .expect("sh");
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A self-signed certificate for 127.0.0.1 (`NAME.pem`, `NAME.key`, a fresh P-256 key), and
/// the base64 SHA-256 of its public key, as chromium's `--ignore-certificate-errors-spki-list`
/// takes it.
pub(crate) fn certificate(dir: &Path, name: &str) -> String {
    sh(
        dir,
        &format!(
            "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
             -keyout {name}.key -out {name}.pem -days 2 -subj /CN=127.0.0.1 \
             -addext subjectAltName=IP:127.0.0.1 -addext basicConstraints=critical,CA:FALSE \
             2>/dev/null"
        ),
    );
    let der = sh(
        dir,
        &format!("openssl x509 -pubkey -noout -in {name}.pem | openssl pkey -pubin -outform der"),
    );
    base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(&der))
}

/// The SHA-256 fingerprint of the certificate the server at `addr` presents now.
fn served_fingerprint(dir: &Path, addr: &str) -> String {
    let out = sh(
        dir,
        &format!(
            "openssl s_client -connect {addr} </dev/null 2>/dev/null \
             | openssl x509 -noout -fingerprint -sha256"
        ),
    );
    String::from_utf8_lossy(&out).trim().to_string()
}

/// Whether this machine lets a process hide a folder from its children (a mount namespace of
/// an unprivileged user namespace).
fn can_hide_folders() -> bool {
    Command::new("unshare")
        .args(["--mount", "--map-root-user", "--fork", "true"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn the_binary_alone_serves_a_room_over_tls_to_a_browser_and_renews_its_certificate() {
    if !browser_ready() {
        return;
    }
    let _turn = super::real_time();
    let folder: PathBuf =
        std::env::temp_dir().join(format!("dicetable-hosting-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a folder");
    std::fs::copy(env!("CARGO_BIN_EXE_dicetable"), folder.join("dicetable")).expect("copied");
    let spki = certificate(&folder, "first");

    // The binary runs from the folder; the checkout (its web folder, node_modules, scenes) is
    // covered by an empty file system where the machine allows it.
    let checkout = env!("CARGO_MANIFEST_DIR");
    let serve = "exec ./dicetable serve --listen 127.0.0.1:0 --data rooms --idle-timeout 2 \
                 --tls-cert live.pem --tls-key live.key";
    std::fs::copy(folder.join("first.pem"), folder.join("live.pem")).expect("copied");
    std::fs::copy(folder.join("first.key"), folder.join("live.key")).expect("copied");
    let hidden = can_hide_folders();
    let mut command = if hidden {
        let mut c = Command::new("unshare");
        c.args(["--mount", "--map-root-user", "--kill-child", "sh", "-c"])
            .arg(format!("mount -t tmpfs none \"$0\" && {serve}"))
            .arg(checkout);
        c
    } else {
        eprintln!("note: this machine cannot hide the checkout; the binary runs beside it");
        let mut c = Command::new("sh");
        c.arg("-c").arg(serve);
        c
    };
    command
        .current_dir(&folder)
        .env_remove("DICETABLE_WEB_DIR")
        .env("DICETABLE_DATA_DIR", folder.join("home"));
    let server = Server::run(command);
    let base = format!("https://{}/", server.addr);

    let page = browser_half("hosted.mjs", &[&base, &spki]);
    eprintln!("{page:#}");
    assert_eq!(page["errors"], serde_json::json!([]), "no script errors");
    // The front page shows the key that signs the exports, made in the data folder.
    let printed = sh(&folder, "./dicetable serve --data rooms --print-key");
    let key = String::from_utf8_lossy(&printed).trim().to_string();
    assert!(key.starts_with("ed25519:"), "{key}");
    assert_eq!(page["front_key"], key.as_str());
    assert_eq!(page["secure"], true, "https is a secure context");
    assert_eq!(page["subtle"], true, "crypto.subtle is there");
    let sockets = page["sockets"].as_array().expect("sockets");
    assert!(!sockets.is_empty());
    for url in sockets {
        let url = url.as_str().expect("a URL");
        assert!(url.starts_with(&format!("wss://{}/", server.addr)), "{url}");
    }
    let three = page["three"].as_array().expect("three.js");
    assert_eq!(three.len(), 1, "{three:?}");
    assert_eq!(three[0]["status"], 200);
    let three_url = three[0]["url"].as_str().expect("a URL");
    assert!(three_url.contains("/three/three."), "{three_url}");
    assert!(three_url.ends_with(".min.js"), "{three_url}");
    let drawn = &page["drawn"];
    assert_eq!(drawn["played"], 1, "{drawn}");
    assert!(drawn["rendered"].as_u64().is_some_and(|n| n > 0), "{drawn}");
    assert_eq!(drawn["error"], serde_json::Value::Null, "{drawn}");
    let values = drawn["values"].as_array().expect("values");
    assert_eq!(values.len(), 1, "one die: {values:?}");
    let face: u32 = values[0].as_str().expect("text").parse().expect("a number");
    assert!((1..=6).contains(&face), "{face}");
    let status = page["status"].as_str().expect("status");
    assert_eq!(status, format!("Pat: 1d6 → {face}"));
    // The scenes came from the binary: written into its data folder, not read from the
    // checkout.
    assert!(folder.join("home/scenes/d20-check-crypt.ron").is_file());

    // Idle sockets: a silent TLS connection is closed after the 2 s timeout (well before the
    // 10 s allowed for a first request), while the OBS overlay, open all that time, answers
    // the pings and keeps its socket.
    let silent = page["silent_closed_after_ms"].as_u64().expect("ms");
    assert!((1500..9000).contains(&silent), "{silent} ms");
    assert_eq!(page["overlay_closed"], 0, "the overlay kept its socket");
    assert_eq!(page["overlay_connected"], true);

    // A renewed certificate replaces the files: the server presents it within seconds, without
    // a restart.
    let before = served_fingerprint(&folder, &server.addr);
    certificate(&folder, "second");
    let second = String::from_utf8_lossy(&sh(
        &folder,
        "openssl x509 -noout -fingerprint -sha256 -in second.pem",
    ))
    .trim()
    .to_string();
    assert_ne!(before, second);
    std::fs::copy(folder.join("second.key"), folder.join("live.key")).expect("copied");
    std::fs::copy(folder.join("second.pem"), folder.join("live.pem")).expect("copied");
    let since = Instant::now();
    while served_fingerprint(&folder, &server.addr) != second {
        assert!(
            since.elapsed() < Duration::from_secs(30),
            "the renewed certificate is served within 30 s"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    eprintln!(
        "renewed certificate served after {:?} (checkout hidden: {hidden})",
        since.elapsed()
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&folder);
}

/// A request over TLS to `addr` trusting `trust` (None: the system's roots only): the status
/// line, or why the handshake failed.
async fn tls_get(
    addr: std::net::SocketAddr,
    trust: Option<&Path>,
    path: &str,
) -> Result<String, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let config = dicetable::net::tls::client_config(trust).map_err(|e| e.to_string())?;
    let connector = tokio_rustls::TlsConnector::from(config);
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| e.to_string())?;
    let name = rustls::pki_types::ServerName::IpAddress(addr.ip().into());
    let mut tls = connector
        .connect(name, tcp)
        .await
        .map_err(|e| e.to_string())?;
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        addr.port()
    );
    tls.write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    let _ = tls.read_to_end(&mut answer).await;
    let text = String::from_utf8_lossy(&answer);
    Ok(text.lines().next().unwrap_or_default().to_string())
}

#[test]
fn the_windows_server_serves_its_overlay_and_feed_over_tls() {
    let _lane = crate::beside_real_time();
    let dir = std::env::temp_dir().join(format!("dicetable-stream-tls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    certificate(&dir, "overlay");
    let files = dicetable::net::tls::TlsFiles {
        cert: dir.join("overlay.pem"),
        key: dir.join("overlay.key"),
    };
    // TLS files that cannot serve stop `play` before its window opens, saying which.
    let out = super::dicetable(&[
        "play",
        "--listen",
        "127.0.0.1:0",
        "--tls-cert",
        "no-such-cert.pem",
        "--tls-key",
        "no-such-key.pem",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        super::stderr(&out).contains("cannot read no-such-cert.pem"),
        "{}",
        super::stderr(&out)
    );
    let (addr, mut link) =
        dicetable::stream::server::start(&dicetable::stream::server::ServerOptions {
            addr: "127.0.0.1:0".parse().expect("address"),
            token: None,
            tls: Some(files.clone()),
            headers: Default::default(),
            hosts: Vec::new(),
        })
        .expect("the server starts with TLS");
    let rt = super::online::runtime();
    rt.block_on(async {
        // Trusting the server's own certificate: the overlay page and the history.
        let cert = Some(files.cert.as_path());
        assert_eq!(
            tls_get(addr, cert, "/overlay").await,
            Ok("HTTP/1.1 200 OK".into())
        );
        assert_eq!(
            tls_get(addr, cert, "/api/history").await,
            Ok("HTTP/1.1 200 OK".into())
        );
        // Not trusting it: no page.
        let refused = tls_get(addr, None, "/overlay").await;
        assert!(
            refused.as_ref().is_err_and(|e| e.contains("UnknownIssuer")),
            "{refused:?}"
        );
        // The feed over wss: the socket opens and carries the table's events.
        let config = dicetable::net::tls::client_config(cert).expect("a client config");
        let (mut feed, _) = tokio_tungstenite::connect_async_tls_with_config(
            format!("wss://{addr}/feed"),
            None,
            true,
            Some(tokio_tungstenite::Connector::Rustls(config)),
        )
        .await
        .expect("the feed opens over wss");
        use futures_util::StreamExt;
        let first = tokio::time::timeout(Duration::from_secs(10), feed.next()).await;
        assert!(
            matches!(first, Ok(Some(Ok(tungstenite::Message::Text(_))))),
            "{first:?}"
        );
    });
    let _ = link.next_job();
    let _ = std::fs::remove_dir_all(&dir);
}
