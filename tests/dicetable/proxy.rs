//! Behind a real reverse proxy (Debian's nginx, started here on loopback, connecting to the
//! server from 127.0.0.9): `serve --trusted-proxy 127.0.0.9` takes each client from the
//! proxy's `X-Forwarded-For`, so clients at different addresses get limits of their own, a
//! client's own `X-Forwarded-For` fools no one, and nobody through the proxy is "this machine".

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use dicetable::online::room::Checks;

use super::online::{Server, crypt, data_dir, gm_opens, runtime};
use super::security::{hello_with, http, join_msg, open_from};

/// The address nginx connects to the server from: the one trusted proxy.
const PROXY: &str = "127.0.0.9";
/// Two players' machines, reaching the server only through the proxy.
const ALEX: [u8; 4] = [127, 0, 0, 2];
const BLAIR: [u8; 4] = [127, 0, 0, 3];
/// Connections one client may hold.
const SHARE: usize = 3;

/// nginx in front of `upstream`, on a free loopback port, stopped when dropped.
struct Nginx {
    child: Child,
    addr: SocketAddr,
    dir: PathBuf,
}

impl Nginx {
    fn start(upstream: &str) -> Nginx {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir = data_dir("nginx");
        std::fs::create_dir_all(&dir).expect("nginx's folder");
        let d = dir.display();
        // The configuration docs/hosting.md gives, with the test's paths and ports.
        let config = format!(
            r#"daemon off;
master_process off;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://{upstream};
            proxy_bind {PROXY};
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 120s;
        }}
    }}
}}
"#
        );
        let conf = dir.join("nginx.conf");
        std::fs::write(&conf, config).expect("writes nginx.conf");
        let bin = ["/usr/sbin/nginx", "/usr/bin/nginx"]
            .into_iter()
            .find(|p| Path::new(p).exists())
            .unwrap_or("nginx");
        let child = Command::new(bin)
            .arg("-e")
            .arg(dir.join("error.log"))
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(&conf)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx is installed (./check installs it)");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let mut nginx = Nginx { child, addr, dir };
        let start = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(
                matches!(nginx.child.try_wait(), Ok(None)),
                "nginx stopped: {}",
                std::fs::read_to_string(nginx.dir.join("error.log")).unwrap_or_default()
            );
            assert!(start.elapsed() < Duration::from_secs(10), "nginx listens");
            std::thread::sleep(Duration::from_millis(20));
        }
        nginx
    }

    fn url(&self, room: &str) -> String {
        format!("ws://{}/{room}", self.addr)
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `hello` on a socket from `source` with `headers`: the first `welcome` or `error`.
async fn say_from(
    source: [u8; 4],
    url: &str,
    headers: &[(&'static str, &str)],
    hello: &Value,
) -> Value {
    hello_with(source, url, headers, hello).await.0
}

fn create(room: &str, room_passcode: Option<&str>) -> Value {
    let mut msg = json!({"type": "create", "v": 3, "room": room, "name": "Mal",
        "scene": crypt(), "passcode": "p", "gm_passcode": "g"});
    if let Some(p) = room_passcode {
        msg["room_passcode"] = json!(p);
    }
    msg
}

#[test]
fn behind_nginx_each_client_has_its_own_limits_and_none_is_this_machine() {
    let _lane = crate::beside_real_time();
    let data = data_dir("proxied");
    let share = SHARE.to_string();
    let more = [
        "--trusted-proxy",
        PROXY,
        "--room-passcode",
        "owner",
        "--per-address",
        &share,
    ];
    let server = Server::start_with(&data, "127.0.0.1:0", &more);
    let nginx = Nginx::start(&server.addr);
    let direct = |room: &str| server.url(room);
    let proxied = |room: &str| nginx.url(room);
    runtime().block_on(async {
        // The owner, at this machine's own address and straight to the server, opens rooms as
        // before; the front page through the proxy asks even this machine for the passcode.
        let _gm = gm_opens(&direct("crypt"), Checks::default()).await;
        let host = format!("GET /api/scenes HTTP/1.1\r\nHost: {}", nginx.addr);
        let (status, scenes) = http(nginx.addr, &host, "");
        assert_eq!((status, &scenes["opening"]), (200, &json!("passcode")));

        // Nobody through the proxy opens a room without the server's room passcode: not a
        // player's machine, not one claiming to be this machine, not this machine itself.
        let spoof = [("x-forwarded-for", "127.0.0.1")];
        for (who, source, headers) in [
            ("a player's machine", ALEX, &[][..]),
            ("a player claiming 127.0.0.1", ALEX, &spoof[..]),
            ("this machine through the proxy", [127, 0, 0, 1], &[][..]),
        ] {
            let answer = say_from(source, &proxied("den"), headers, &create("den", None)).await;
            assert_eq!(answer["code"], "rooms_closed", "{who}: {answer}");
        }
        // Nor does a player's own header count when it connects straight to the server.
        let answer = say_from(ALEX, &direct("den"), &spoof, &create("den", None)).await;
        assert_eq!(
            answer["code"], "rooms_closed",
            "straight, claiming 127.0.0.1: {answer}"
        );
        let answer = say_from(ALEX, &proxied("den"), &[], &create("den", Some("owner"))).await;
        assert_eq!(
            answer["type"], "welcome",
            "with the room passcode: {answer}"
        );

        // Alex guesses the crypt's passcode until told to wait; a made-up forwarded address
        // does not get Alex out of it, and Blair, another client of the same proxy, walks in.
        for i in 0..3 {
            let guess = join_msg("crypt", "Alex", &format!("guess{i}"));
            let answer = say_from(ALEX, &proxied("crypt"), &[], &guess).await;
            assert_eq!(answer["code"], "wrong_passcode", "{answer}");
        }
        let right = join_msg("crypt", "Alex", "friends");
        let answer = say_from(ALEX, &proxied("crypt"), &[], &right).await;
        assert_eq!(answer["code"], "backing_off", "{answer}");
        let other = [("x-forwarded-for", "198.51.100.7")];
        let answer = say_from(ALEX, &proxied("crypt"), &other, &right).await;
        assert_eq!(
            answer["code"], "backing_off",
            "behind a made-up address: {answer}"
        );
        let answer = say_from(
            BLAIR,
            &proxied("crypt"),
            &[],
            &join_msg("crypt", "Blair", "friends"),
        )
        .await;
        assert_eq!(
            answer["type"], "welcome",
            "Blair, through the same proxy: {answer}"
        );

        // Alex holds its share of connections: one more is refused by name, while Blair
        // still connects; once Alex closes one, Alex connects again.
        let mut held = Vec::new();
        for _ in 0..SHARE {
            held.push(
                open_from(ALEX, &proxied("crypt"), &[])
                    .await
                    .expect("within the share"),
            );
        }
        let refused = open_from(ALEX, &proxied("crypt"), &[]).await.err();
        assert_eq!(refused, Some((429, "too_many_connections".into())));
        let blair = open_from(BLAIR, &proxied("crypt"), &[]).await;
        assert!(blair.is_ok(), "Blair has a share of its own");
        drop(held.pop());
        let start = Instant::now();
        loop {
            match open_from(ALEX, &proxied("crypt"), &[]).await {
                Ok(ws) => break held.push(ws),
                Err(refused) => assert!(
                    start.elapsed() < Duration::from_secs(5),
                    "a closed connection gives its slot back: {refused:?}"
                ),
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    let _ = std::fs::remove_dir_all(&data);
}
