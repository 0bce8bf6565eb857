//! NATS as a real cluster store: three `nats-server` nodes (Debian's) on loopback, two table
//! servers on them. The node leading the bucket's stream is killed while two players throw
//! through both servers: no acknowledged throw is lost, and the stall is printed. Then the whole
//! cluster goes away: opening a room fails at once with `store_unavailable`, and once NATS is
//! back each such room is there whole or not at all (never a name that is both taken and
//! missing). `./check cluster -- --nocapture` prints the figures.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dicetable::errors::ErrorCode;
use dicetable::online::client::{Client, ThrowError};
use dicetable::online::log::{Entry, Event, Proposal, Role};
use dicetable::online::room::Checks;

use super::online::{Server, as_, data_dir, gm_opens, gm_tries_to_open, pat_plays_ash, runtime};

/// A free loopback port.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// One node of the cluster: its ports and folder, and its process while it runs.
struct Node {
    name: String,
    client: u16,
    route: u16,
    monitor: u16,
    dir: PathBuf,
    child: Option<Child>,
}

/// Three nodes routed to each other, JetStream on.
struct Cluster {
    nodes: Vec<Node>,
}

impl Cluster {
    fn start() -> Cluster {
        let nodes = (1..=3)
            .map(|i| Node {
                name: format!("n{i}"),
                client: free_port(),
                route: free_port(),
                monitor: free_port(),
                dir: data_dir(&format!("cluster-n{i}")),
                child: None,
            })
            .collect();
        let mut cluster = Cluster { nodes };
        for i in 0..3 {
            cluster.run(i);
        }
        cluster.until_healthy();
        cluster
    }

    /// Starts node `i` (again).
    fn run(&mut self, i: usize) {
        let routes: Vec<String> = self
            .nodes
            .iter()
            .map(|n| format!("nats://127.0.0.1:{}", n.route))
            .collect();
        let bin = super::online::nats_server();
        let node = &mut self.nodes[i];
        let child = Command::new(bin)
            .args(["-js", "-a", "127.0.0.1", "-n", &node.name])
            .args(["-p", &node.client.to_string()])
            .args(["-m", &node.monitor.to_string()])
            .args(["--cluster_name", "dice"])
            .args(["--cluster", &format!("nats://127.0.0.1:{}", node.route)])
            .args(["--routes", &routes.join(",")])
            .arg("-sd")
            .arg(&node.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server is installed (./check installs it)");
        node.child = Some(child);
    }

    /// Kills node `i` (SIGKILL: no goodbye to the others).
    fn kill(&mut self, i: usize) {
        if let Some(mut child) = self.nodes[i].child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Waits until every running node says JetStream is current (`/healthz`).
    fn until_healthy(&self) {
        let start = Instant::now();
        for node in self.nodes.iter().filter(|n| n.child.is_some()) {
            let url = format!("http://127.0.0.1:{}/healthz", node.monitor);
            while ureq::get(&url).call().map(|r| r.status().as_u16()).ok() != Some(200) {
                assert!(
                    start.elapsed() < Duration::from_secs(60),
                    "the cluster is healthy"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }

    /// Every node's client URL, as `serve --nats` takes them.
    fn urls(&self) -> String {
        let urls: Vec<String> = self
            .nodes
            .iter()
            .map(|n| format!("nats://127.0.0.1:{}", n.client))
            .collect();
        urls.join(",")
    }

    /// The node that leads the bucket's stream now, by its monitoring page.
    fn stream_leader(&self) -> usize {
        for node in self.nodes.iter().filter(|n| n.child.is_some()) {
            let url = format!(
                "http://127.0.0.1:{}/jsz?accounts=true&streams=true",
                node.monitor
            );
            let Ok(mut answer) = ureq::get(&url).call() else {
                continue;
            };
            let Ok(jsz) = answer.body_mut().read_json::<serde_json::Value>() else {
                continue;
            };
            let streams = jsz["account_details"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|a| a["stream_detail"].as_array().into_iter().flatten());
            for stream in streams {
                if stream["name"] == "KV_dicetable-rooms"
                    && let Some(leader) = stream["cluster"]["leader"].as_str()
                    && let Some(i) = self.nodes.iter().position(|n| n.name == leader)
                {
                    return i;
                }
            }
        }
        panic!("no node leads the bucket's stream");
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for i in 0..self.nodes.len() {
            self.kill(i);
            let _ = std::fs::remove_dir_all(&self.nodes[i].dir);
        }
    }
}

/// The acknowledged throws: `seq`, who threw, when the answer came.
type Acks = Arc<Mutex<Vec<(u64, &'static str, Instant)>>>;

/// Throws a 1d6 again and again until `stop`, noting each acknowledged `seq` (and when) and
/// each refusal's code.
async fn keep_throwing(
    mut client: Client,
    who: &'static str,
    acked: Acks,
    refusals: Arc<Mutex<Vec<String>>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> Client {
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        match client
            .throw(Proposal::Notation("1d6".into()), None, false, None)
            .await
        {
            Ok(seq) => acked.lock().expect("acks").push((seq, who, Instant::now())),
            Err(ThrowError::Refused { code, .. }) => {
                refusals
                    .lock()
                    .expect("refusals")
                    .push(code.as_str().into());
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => {
                refusals.lock().expect("refusals").push(e.to_string());
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
    client
}

#[test]
fn a_nats_cluster_loses_its_leader_and_no_acknowledged_throw() {
    let _lane = crate::beside_real_time();
    let mut cluster = Cluster::start();
    let urls = cluster.urls();
    let serve = |name: &str| {
        let data = data_dir(name);
        let data = data.to_str().expect("a path");
        Server::spawn(&[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--nats",
            &urls,
            "--data",
            data,
        ])
    };
    let (a, b) = (serve("cluster-a"), serve("cluster-b"));
    assert!(
        a.preamble.iter().any(|l| l.contains("3 replicas")),
        "{:?}",
        a.preamble
    );
    let rt = runtime();
    let acked = Arc::new(Mutex::new(Vec::new()));
    let refusals = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (killed_at, leader, clients) = rt.block_on(async {
        let gm = gm_opens(&a.url("crypt"), Checks::default()).await;
        let pat = pat_plays_ash(&b.url("crypt")).await;
        let throwers = [(gm, "Gwen"), (pat, "Pat")].map(|(client, who)| {
            tokio::spawn(keep_throwing(
                client,
                who,
                acked.clone(),
                refusals.clone(),
                stop.clone(),
            ))
        });
        let acks = || acked.lock().expect("acks").len();
        while acks() < 20 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let leader = cluster.stream_leader();
        cluster.kill(leader);
        let killed_at = Instant::now();
        let before = acks();
        while acks() < before + 20 {
            assert!(
                killed_at.elapsed() < Duration::from_secs(60),
                "throws go on after the leader died: {:?}",
                refusals.lock().expect("refusals")
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut clients = Vec::new();
        for thrower in throwers {
            clients.push(thrower.await.expect("a thrower"));
        }
        (killed_at, leader, clients)
    });
    let acked = acked.lock().expect("acks").clone();
    let mut times: Vec<Instant> = acked.iter().map(|(_, _, at)| *at).collect();
    times.sort();
    let first_after = times
        .iter()
        .find(|t| **t > killed_at)
        .expect("an ack after");
    let longest_gap = times
        .windows(2)
        .map(|w| w[1] - w[0])
        .max()
        .unwrap_or_default();
    let refused = refusals.lock().expect("refusals").clone();
    eprintln!(
        "killed n{} (the stream's leader) after 20 acknowledged throws: the first throw after it \
         was acknowledged {:?} later; longest gap between acknowledgements {:?}; {} throws \
         acknowledged in all; refusals meanwhile: {refused:?}",
        leader + 1,
        *first_after - killed_at,
        longest_gap,
        acked.len()
    );

    // The whole log, read by a third server that has never loaded the room (one batch).
    let c = serve("cluster-c");
    let lines = rt.block_on(async {
        let start = Instant::now();
        let lee = Client::connect(
            as_(&c.url("crypt"), "Lee", Role::Spectator, &[], "friends"),
            None,
            Checks::default(),
        )
        .await
        .expect("Lee joins through a third server");
        eprintln!(
            "a third server loaded the room ({} entries) and let Lee in within {:?}",
            lee.lines.len(),
            start.elapsed()
        );
        lee.lines.clone()
    });
    let mut seqs: Vec<u64> = acked.iter().map(|(seq, _, _)| *seq).collect();
    seqs.sort_unstable();
    seqs.dedup();
    assert_eq!(seqs.len(), acked.len(), "no seq acknowledged twice");
    for (seq, who, _) in &acked {
        let line = lines
            .get(*seq as usize - 1)
            .unwrap_or_else(|| panic!("acknowledged entry {seq} is in the log"));
        let entry = Entry::parse(line).expect("an entry");
        match entry.event {
            Event::Thrown { by, .. } => assert_eq!(by, *who, "entry {seq}"),
            other => panic!("acknowledged entry {seq} is {other:?}"),
        }
    }

    // The room's pace holds across servers: three players throwing as fast as they are let,
    // through both servers, for three seconds.
    let paced = Arc::new(Mutex::new(Vec::new()));
    let refusals = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let span = Duration::from_secs(3);
    rt.block_on(async {
        let sam = Client::connect(
            as_(&b.url("crypt"), "Sam", Role::Player, &["Bea"], "friends"),
            None,
            Checks::default(),
        )
        .await
        .expect("Sam joins");
        let who = ["Gwen", "Pat", "Sam"];
        let throwers: Vec<_> = clients
            .into_iter()
            .chain([sam])
            .zip(who)
            .map(|(client, who)| {
                tokio::spawn(keep_throwing(
                    client,
                    who,
                    paced.clone(),
                    refusals.clone(),
                    stop.clone(),
                ))
            })
            .collect();
        tokio::time::sleep(span).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for thrower in throwers {
            thrower.await.expect("a thrower");
        }
    });
    let paced = paced.lock().expect("acks").len();
    let limited = refusals
        .lock()
        .expect("refusals")
        .iter()
        .filter(|r| *r == "rate_limited")
        .count();
    // 40 at once, then 20 a second: at most 100 in three seconds, whichever server counts.
    let most = 40 + 20 * span.as_secs() as usize;
    eprintln!(
        "three players through two servers for {span:?}: {paced} throws acknowledged (the \
         room's pace allows {most}), {limited} refused with rate_limited"
    );
    assert!(paced <= most + 2, "{paced} throws in {span:?}");

    // The whole cluster goes away: rooms opened meanwhile are refused at once.
    for i in 0..3 {
        cluster.kill(i);
    }
    let tries = 5;
    rt.block_on(async {
        for i in 0..tries {
            let start = Instant::now();
            let opened =
                gm_tries_to_open(&a.url(&format!("outage{i}")), "friends", Checks::default()).await;
            let code = opened.as_ref().err().and_then(|e| e.code());
            eprintln!(
                "opening outage{i} with NATS away: {:?} after {:?}",
                code,
                start.elapsed()
            );
            assert_eq!(code, Some(ErrorCode::StoreUnavailable));
            assert!(start.elapsed() < Duration::from_secs(5), "fails fast");
        }
    });
    // NATS comes back: each of those rooms is whole or absent, and its name is usable.
    for i in 0..3 {
        cluster.run(i);
    }
    cluster.until_healthy();
    rt.block_on(async {
        for i in 0..tries {
            let url = a.url(&format!("outage{i}"));
            let start = Instant::now();
            let joined = loop {
                let joined = Client::connect(
                    as_(&url, "Lee", Role::Spectator, &[], "friends"),
                    None,
                    Checks::default(),
                )
                .await;
                match joined.as_ref().err().and_then(|e| e.code()) {
                    Some(ErrorCode::StoreUnavailable) | None
                        if joined.is_err() && start.elapsed() < Duration::from_secs(30) =>
                    {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    _ => break joined,
                }
            };
            match joined {
                Ok(lee) => assert!(!lee.lines.is_empty(), "outage{i} is whole"),
                Err(e) => {
                    assert_eq!(e.code(), Some(ErrorCode::NoRoom), "outage{i}: {e}");
                    // Absent, and its name free: it opens now.
                    let gm = gm_opens(&url, Checks::default()).await;
                    assert!(!gm.lines.is_empty());
                }
            }
        }
        eprintln!(
            "after the outage every room opened during it is whole or absent ({tries} of {tries})"
        );
    });
    drop((a, b, c));
}
