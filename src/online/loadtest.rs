//! `dicetable loadtest`: rooms of headless clients on a table server, each throwing every few
//! milliseconds for a bounded time; measures the time from a throw sent to its entry received
//! by every client of the room. Loopback only: it refuses any other address.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::client::{Client, ClientError, Create, JoinAs, ThrowError};
use super::log::{Entry, Event, Proposal, Role, SecretMode};
use super::room::Checks;

/// What to load.
#[derive(Clone, Debug)]
pub struct Load {
    /// `ws://HOST:PORT` of the server.
    pub url: String,
    /// Rooms.
    pub rooms: usize,
    /// Clients per room (the first is the game master who opens it).
    pub clients: usize,
    /// Each client throws every this many ms.
    pub interval_ms: u64,
    /// For this long.
    pub seconds: u64,
    /// The scene the rooms open with.
    pub scene: String,
    /// What each throw throws.
    pub notation: String,
    /// Each throw hidden, seen before its reveal as this says (None: public).
    pub mode: Option<SecretMode>,
    /// Which addresses the clients speak from.
    pub from: Addresses,
}

/// Which local addresses a load's clients connect from: a server shares its work by address,
/// so a load from one address measures one household, not a thousand rooms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Addresses {
    /// Every client from an address of its own (127.1.0.1, 127.1.0.2, …), as players across
    /// the internet; the game masters open the rooms from 127.0.0.1, the server's owner.
    #[default]
    Each,
    /// Each room's players from one address of the room's own (127.1.0.1 for the first room's,
    /// …), as a household on one home network; the game masters open the rooms from 127.0.0.1.
    Household,
    /// Everyone from 127.0.0.1.
    One,
}

impl Addresses {
    /// The address client `client` of room `room` (of `per_room`) connects from. The game
    /// master (client 0) opens the room from this machine's own address, as the server's owner
    /// may without its room passcode.
    fn of(self, room: usize, client: usize, per_room: usize) -> Option<std::net::IpAddr> {
        let n = match self {
            Addresses::One => return None,
            _ if client == 0 => return None,
            Addresses::Each => room * per_room + client,
            Addresses::Household => room + 1,
        };
        // 127.1.0.1 onwards: 16 million clients, none of them 127.0.0.1.
        let n = u32::try_from(n).ok()?.min(0x00FF_FFFE);
        Some(std::net::IpAddr::V4(std::net::Ipv4Addr::from(
            0x7F01_0000 + n,
        )))
    }
}

/// One room's figures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RoomFigures {
    /// The room.
    pub room: String,
    /// Throws sent.
    pub sent: u64,
    /// Throws acknowledged (stored).
    pub acknowledged: u64,
    /// Errors (refusals, lost connections).
    pub errors: u64,
}

/// The run's figures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Figures {
    /// Per room.
    pub rooms: Vec<RoomFigures>,
    /// Clients connected.
    pub clients: usize,
    /// Throws sent, all rooms.
    pub sent: u64,
    /// Throws acknowledged, all rooms.
    pub acknowledged: u64,
    /// Throws every client of the room received.
    pub delivered: u64,
    /// Sent to received by every client of the room, ms.
    pub latency_p50_ms: f64,
    /// The 99th percentile.
    pub latency_p99_ms: f64,
    /// The slowest.
    pub latency_max_ms: f64,
    /// Errors, all rooms.
    pub errors: u64,
    /// The first few errors in words.
    pub error_samples: Vec<String>,
    /// Seconds spent connecting everyone.
    pub connect_seconds: f64,
    /// Which addresses the clients spoke from.
    pub from: Addresses,
    /// Clients that did not get in (refused, or no answer): the load goes on without them.
    pub joins_refused: u64,
    /// Joins answered `busy` and sent again (each waited the time the server gave).
    pub busy_answers: u64,
    /// Connections lost during the load and made again (each a join and a catch-up).
    pub reconnects: u64,
    /// The CPU the load tool itself used, seconds (where the system says: Linux), for a load
    /// that shares its machine with the server.
    pub load_cpu_seconds: Option<f64>,
    /// What the server sent each client, on average, bytes (its messages' text): what a
    /// throw's mode costs every member of its room.
    pub bytes_per_client: u64,
    /// Whether the throws were hidden, and in which mode (public: none). A hidden roll's
    /// nonce is sealed, so `delivered` and the latencies count public throws only.
    pub mode: Option<SecretMode>,
}

/// This process's CPU time so far, seconds, from `/proc/self/stat` (user and system; Linux
/// counts them in hundredths of a second). None elsewhere.
fn own_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((ticks(11)? + ticks(12)?) / 100.0)
}

/// Throws in flight: sent time and how many clients have received each (room, nonce).
#[derive(Default)]
struct Tracker {
    sent: HashMap<(usize, String), (Instant, usize)>,
    latencies: Vec<f64>,
    errors: Vec<String>,
}

/// Why the load could not run.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Not a `ws://` address.
    #[error("'{0}' is not ws://HOST:PORT")]
    NotAnAddress(String),
    /// An address off this machine.
    #[error("the load tool sends only to this machine (127.0.0.1, ::1 or localhost), not '{0}'")]
    NotLoopback(String),
    /// Nobody to load with.
    #[error("at least one room of one client")]
    Nobody,
    /// A client could not come in.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The tally was poisoned by a panicking task.
    #[error("the load's tally stopped")]
    Tally,
}

/// Refuses anything but loopback.
pub fn check_loopback(url: &str) -> Result<(), LoadError> {
    let rest = url
        .strip_prefix("ws://")
        .ok_or_else(|| LoadError::NotAnAddress(url.to_string()))?;
    let host = rest.split('/').next().unwrap_or("");
    let host = host.rsplit_once(':').map(|(h, _)| h).unwrap_or(host);
    let ok = host == "localhost"
        || host
            .trim_matches(['[', ']'])
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if ok {
        Ok(())
    } else {
        Err(LoadError::NotLoopback(host.to_string()))
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Runs the load and returns its figures.
pub async fn run(load: Load) -> Result<Figures, LoadError> {
    check_loopback(&load.url)?;
    if load.clients == 0 || load.rooms == 0 {
        return Err(LoadError::Nobody);
    }
    let base = load.url.trim_end_matches('/').to_string();
    let run_id = format!("{:x}", super::log::now_ms());
    let tracker = Arc::new(Mutex::new(Tracker::default()));
    let start = Instant::now();
    // Connect everyone first: the game master opens each room, then the players join.
    let mut clients: Vec<(usize, Client)> = Vec::new();
    let mut figures = Figures::default();
    for r in 0..load.rooms {
        let room = format!("load-{run_id}-{r}");
        figures.rooms.push(RoomFigures {
            room: room.clone(),
            ..RoomFigures::default()
        });
        let url = format!("{base}/{room}");
        let gm = Client::connect(
            JoinAs {
                url: url.clone(),
                name: "gm".into(),
                role: Role::Gamemaster,
                seats: vec![],
                passcode: "gm-pass".into(),
                key: None,
                trust: None,
                from: load.from.of(r, 0, load.clients),
            },
            Some(Create {
                scene: load.scene.clone(),
                passcode: "pass".into(),
                room_passcode: None,
            }),
            Checks::default(),
        )
        .await?;
        figures.busy_answers += u64::from(gm.busy_answers);
        clients.push((r, gm));
        let joins = (1..load.clients).map(|c| {
            Client::connect(
                JoinAs {
                    url: url.clone(),
                    name: format!("player{c}"),
                    role: Role::Player,
                    seats: vec![],
                    passcode: "pass".into(),
                    key: None,
                    trust: None,
                    from: load.from.of(r, c, load.clients),
                },
                None,
                Checks::default(),
            )
        });
        for c in futures_util::future::join_all(joins).await {
            match c {
                Ok(c) => {
                    figures.busy_answers += u64::from(c.busy_answers);
                    clients.push((r, c));
                }
                Err(e) => {
                    figures.joins_refused += 1;
                    if let Ok(mut t) = tracker.lock() {
                        t.errors.push(format!("a join: {e}"));
                    }
                }
            }
        }
    }
    figures.from = load.from;
    figures.clients = clients.len();
    figures.connect_seconds = start.elapsed().as_secs_f64();
    let until = Instant::now() + Duration::from_secs(load.seconds);
    let per_room = load.clients;
    let total = clients.len().max(1);
    let mut tasks = Vec::new();
    for (i, (room, client)) in clients.into_iter().enumerate() {
        let interval = Duration::from_millis(load.interval_ms.max(1));
        let plan = ClientPlan {
            room,
            tracker: tracker.clone(),
            notation: load.notation.clone(),
            mode: load.mode,
            interval,
            // Spread every client's first throw over the interval (a steady load, not bursts).
            offset: interval.mul_f64(i as f64 / total as f64),
            until,
            clients: per_room,
        };
        tasks.push(tokio::spawn(client_loop(client, plan)));
    }
    for t in tasks {
        if let Ok((room, sent, acked, errors, reconnects, bytes)) = t.await {
            figures.reconnects += u64::from(reconnects);
            figures.bytes_per_client += bytes;
            let f = &mut figures.rooms[room];
            f.sent += sent;
            f.acknowledged += acked;
            f.errors += errors;
        }
    }
    figures.load_cpu_seconds = own_cpu_seconds();
    figures.bytes_per_client /= figures.clients.max(1) as u64;
    figures.mode = load.mode;
    let mut t = tracker.lock().map_err(|_| LoadError::Tally)?;
    t.latencies.sort_by(f64::total_cmp);
    figures.sent = figures.rooms.iter().map(|r| r.sent).sum();
    figures.acknowledged = figures.rooms.iter().map(|r| r.acknowledged).sum();
    figures.errors = figures.rooms.iter().map(|r| r.errors).sum();
    figures.delivered = t.latencies.len() as u64;
    figures.latency_p50_ms = percentile(&t.latencies, 0.5);
    figures.latency_p99_ms = percentile(&t.latencies, 0.99);
    figures.latency_max_ms = t.latencies.last().copied().unwrap_or(0.0);
    figures.error_samples = t.errors.iter().take(5).cloned().collect();
    Ok(figures)
}

/// Counts an entry received by one client: the last of the room's clients ends its latency.
fn received(tracker: &Mutex<Tracker>, room: usize, line: &str, clients: usize) {
    let Ok(entry) = Entry::parse(line) else {
        return;
    };
    let Event::Thrown { proof, .. } = entry.event else {
        return;
    };
    let Ok(mut t) = tracker.lock() else {
        return;
    };
    let key = (room, proof.nonce);
    let done = match t.sent.get_mut(&key) {
        Some((at, seen)) => {
            *seen += 1;
            (*seen >= clients).then(|| at.elapsed().as_secs_f64() * 1000.0)
        }
        None => None,
    };
    if let Some(ms) = done {
        t.sent.remove(&key);
        t.latencies.push(ms);
    }
}

/// What one client of the load does: its room, what it throws, how often, until when.
struct ClientPlan {
    /// Its room's number.
    room: usize,
    /// The shared tally.
    tracker: Arc<Mutex<Tracker>>,
    /// What each throw throws.
    notation: String,
    /// Hidden, and who sees it (None: public).
    mode: Option<SecretMode>,
    /// Time between its throws.
    interval: Duration,
    /// Its first throw's delay.
    offset: Duration,
    /// When it stops throwing.
    until: Instant,
    /// Clients in its room (each line is received by all of them).
    clients: usize,
}

async fn client_loop(mut client: Client, plan: ClientPlan) -> (usize, u64, u64, u64, u32, u64) {
    let ClientPlan {
        room,
        tracker,
        notation,
        mode,
        interval,
        offset,
        until,
        clients,
    } = plan;
    let (mut sent, mut acked, mut errors) = (0, 0, 0);
    let mut next = tokio::time::Instant::now() + offset;
    let mut seen = client.seq();
    let stop = tokio::time::Instant::from_std(until);
    // Each client counts what it received; its own throws are registered before they are sent.
    while tokio::time::Instant::now() < stop {
        let now = tokio::time::Instant::now();
        if now >= next {
            next += interval;
            sent += 1;
            let nonce_hook = tracker.clone();
            match client
                .throw_tracked(Proposal::Notation(notation.clone()), mode, move |nonce| {
                    if let Ok(mut t) = nonce_hook.lock() {
                        t.sent
                            .insert((room, nonce.to_string()), (Instant::now(), 0));
                    }
                })
                .await
            {
                Ok(_) => acked += 1,
                Err(e) => {
                    errors += 1;
                    if let Ok(mut t) = tracker.lock() {
                        t.errors.push(e.to_string());
                    }
                    if !matches!(e, ThrowError::Refused { .. }) {
                        break;
                    }
                }
            }
        } else {
            let wait = (next.min(stop)).saturating_duration_since(now);
            if client.wait_for_more(wait).await.is_err() {
                errors += 1;
                break;
            }
        }
        for line in &client.lines[seen as usize..] {
            received(&tracker, room, line, clients);
        }
        seen = client.seq();
    }
    // Let the last throws arrive everywhere.
    let grace = tokio::time::Instant::now() + Duration::from_secs(2);
    while tokio::time::Instant::now() < grace {
        match client
            .wait_for_more(grace - tokio::time::Instant::now())
            .await
        {
            Ok(true) => {}
            _ => break,
        }
    }
    for line in &client.lines[seen as usize..] {
        received(&tracker, room, line, clients);
    }
    (
        room,
        sent,
        acked,
        errors,
        client.reconnects,
        client.bytes_heard(),
    )
}
