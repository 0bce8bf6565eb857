//! `serve`, `verify` and `loadtest`: the online table from the command line.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use crate::online::loadtest::{self, Load};
use crate::online::log::SecretMode;
use crate::online::verify::{Verdict, verify_signed};
use crate::server::nats::NatsStore;
use crate::server::store::{LogStore, SqliteStore};

/// Arguments of `serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Where to listen (port 0: any free port, printed).
    #[arg(long, default_value = "127.0.0.1:7480")]
    pub listen: SocketAddr,
    /// The folder of the room logs (SQLite).
    #[arg(long, default_value = "dicetable-data")]
    pub data: PathBuf,
    /// Keep the room logs in NATS JetStream at this URL instead (several servers, one room);
    /// several servers of a NATS cluster: comma-separated.
    #[arg(long, value_name = "URL[,URL...]")]
    pub nats: Option<String>,
    /// Copies of the room logs the NATS cluster keeps, 1 to 5 (default: as many as the cluster
    /// allows, up to 3); an append is acknowledged once a majority of them hold it.
    #[arg(long, value_name = "N", requires = "nats", value_parser = clap::value_parser!(u8).range(1..=5))]
    pub nats_replicas: Option<u8>,
    /// Print a room's log (JSON lines), then its head signed by the server's key, and exit.
    #[arg(long, value_name = "ROOM")]
    pub export: Option<String>,
    /// Print the server's public key (the one that signs exports; made in --data if there is
    /// none yet) and exit.
    #[arg(long)]
    pub print_key: bool,
    /// Let anyone open rooms (by default only this machine, or whoever has --room-passcode).
    #[arg(long)]
    pub open_rooms: bool,
    /// The passcode that opens rooms from other machines.
    #[arg(long, value_name = "PASSCODE")]
    pub room_passcode: Option<String>,
    /// Connections one address may hold open at once.
    #[arg(long, value_name = "N", default_value_t = crate::net::runtime::PER_ADDRESS)]
    pub per_address: usize,
    /// A reverse proxy in front of this server (repeat for several): only connections from
    /// these addresses may name their client, in --proxy-header; every per-address limit then
    /// applies to that client, and none of them counts as this machine.
    #[arg(long, value_name = "ADDR")]
    pub trusted_proxy: Vec<std::net::IpAddr>,
    /// The header the trusted proxies name their clients in (only that one is read).
    #[arg(
        long,
        value_name = "HEADER",
        value_enum,
        default_value_t,
        requires = "trusted_proxy"
    )]
    pub proxy_header: crate::net::proxy::ForwardedHeader,
    /// The scenes the front page offers for new rooms (default: `scenes/` here, or the
    /// repository's, as for `play`).
    #[arg(long, value_name = "DIR")]
    pub scenes: Option<PathBuf>,
    /// Seconds a connection may send nothing before it is closed (pages and clients answer
    /// the server's pings, sent three times as often).
    #[arg(long, value_name = "SECONDS", default_value_t = crate::net::runtime::IDLE_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub idle_timeout: u64,
    /// Serve over TLS (https and wss) with this certificate chain, PEM (as `fullchain.pem`);
    /// read again when it changes or on SIGHUP.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The certificate's private key, PEM (as `privkey.pem`).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// A name this server is reached by (repeat for several; its addresses and `localhost`
    /// always work): a request naming any other host is refused (DNS rebinding).
    #[arg(long = "host", value_name = "NAME")]
    pub hosts: Vec<String>,
    /// Who may frame the pages (Content-Security-Policy `frame-ancestors`): `'self'` (a room's
    /// own tray), `'none'`, or sites such as `https://example.org` that embed the table.
    #[arg(long, value_name = "SOURCES", default_value = crate::net::headers::FRAME_ANCESTORS, value_parser = frame_ancestors)]
    pub frame_ancestors: crate::net::headers::Policy,
    /// Seconds a room with nobody in it and no page on it stays in memory (its log stays).
    #[arg(long, value_name = "SECONDS", default_value_t = crate::server::limits::IDLE_UNLOAD.as_secs(), value_parser = clap::value_parser!(u64).range(1..=604_800))]
    pub unload_after: u64,
    /// Seconds the server works out one exact odds before it answers `timeout` and stops the
    /// work (a page's odds, a drafted move's).
    #[arg(long, value_name = "SECONDS", default_value_t = crate::server::limits::ODDS_TIME.as_secs(), value_parser = clap::value_parser!(u64).range(1..=600))]
    pub odds_time: u64,
    /// How much log a room may hold (`512K`, `64M`, `2G`); past it its moves and throws are
    /// refused (`room_full`) and its owner is told to export it and open a new one.
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = byte_size)]
    pub room_quota: u64,
}

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// A room's log, as `serve --export ROOM` printed it.
    pub file: PathBuf,
    /// The server's public key (`ed25519:…`, from its front page or `serve --print-key`): the
    /// export's head must be there and signed by it.
    #[arg(long, value_name = "KEY")]
    pub key: Option<String>,
}

/// Arguments of `loadtest`.
#[derive(clap::Args, Debug)]
pub struct LoadtestArgs {
    /// The server, ws://HOST:PORT (this machine only).
    #[arg(long)]
    pub url: String,
    /// Rooms.
    #[arg(long, default_value_t = 10)]
    pub rooms: usize,
    /// Clients per room.
    #[arg(long, default_value_t = 6)]
    pub clients: usize,
    /// Each client throws every this many milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub interval_ms: u64,
    /// For this many seconds (at most 600).
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// What each throw throws.
    #[arg(long, default_value = "1d20")]
    pub notation: String,
    /// Where the clients connect from: each from an address of its own (127.1.0.x), each
    /// room's from one (a household), or all from 127.0.0.1.
    #[arg(long, value_enum, default_value_t = loadtest::Addresses::Each)]
    pub from: loadtest::Addresses,
    /// Throw every roll hidden: `self` (its roller sees it), `gamemaster` (and the game
    /// master) or `blind` (the game master alone). Public if not given.
    #[arg(long, value_parser = secret_mode)]
    pub mode: Option<SecretMode>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

fn runtime() -> Result<tokio::runtime::Runtime, crate::net::runtime::NetError> {
    use crate::net::runtime::{Threads, runtime};
    runtime("dicetable", Threads::PerCore)
}

fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// A hidden roll's mode as `loadtest --mode` names it: `self`, `gamemaster` or `blind`.
fn secret_mode(text: &str) -> Result<SecretMode, String> {
    serde_json::from_value(serde_json::Value::String(text.to_string()))
        .map_err(|_| format!("'{text}' is not a mode: self, gamemaster or blind"))
}

/// A `--frame-ancestors` list as the pages' security headers.
pub fn frame_ancestors(text: &str) -> Result<crate::net::headers::Policy, String> {
    crate::net::headers::Policy::new(text).map_err(|e| e.to_string())
}

/// The copies of the NATS bucket `serve` asks for.
fn nats_replicas(args: &ServeArgs) -> crate::server::nats::Replicas {
    use crate::server::nats::Replicas;
    match args.nats_replicas {
        Some(n) => Replicas::Exactly(usize::from(n)),
        None => Replicas::AsManyAsAllowed,
    }
}

/// Runs `serve`: SQLite in `--data`, or NATS JetStream with `--nats`.
pub fn serve(args: &ServeArgs) -> ExitCode {
    if args.print_key {
        return match crate::online::signing::ServerKey::load_or_create(&args.data) {
            Ok(key) => {
                println!("{}", key.public());
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e.to_string()),
        };
    }
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => return fail(&e.to_string()),
    };
    match &args.nats {
        Some(url) => match rt.block_on(NatsStore::connect(url, nats_replicas(args))) {
            Ok(store) => {
                let at = format!(
                    "room logs in NATS JetStream at {url} (bucket {}, {} replicas)",
                    crate::server::nats::BUCKET,
                    store.replicas()
                );
                serve_with(&rt, Arc::new(store), args, &at)
            }
            Err(e) => fail(&e.to_string()),
        },
        None => match SqliteStore::open(&args.data) {
            Ok(store) => {
                let at = format!("room logs in {}", store.path().display());
                serve_with(&rt, Arc::new(store), args, &at)
            }
            Err(e) => fail(&e.to_string()),
        },
    }
}

fn serve_with<S: LogStore>(
    rt: &tokio::runtime::Runtime,
    store: Arc<S>,
    args: &ServeArgs,
    at: &str,
) -> ExitCode {
    let key = match crate::online::signing::ServerKey::load_or_create(&args.data) {
        Ok(key) => key,
        Err(e) => return fail(&e.to_string()),
    };
    if let Some(room) = &args.export {
        return match rt.block_on(store.read(room, 0)) {
            Ok(lines) if lines.is_empty() => {
                fail(&format!("there is no room '{room}' in this store"))
            }
            Ok(lines) => {
                for l in &lines {
                    println!("{l}");
                }
                // Last, where the log ends: `verify` tells a copy cut short from a whole one.
                println!(
                    "{}",
                    crate::online::verify::head_line(room, &lines, Some(&key))
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e.to_string()),
        };
    }
    println!("{at}");
    let policy = crate::server::guard::Policy {
        open_rooms: args.open_rooms,
        room_passcode: args.room_passcode.clone().filter(|p| !p.is_empty()),
    };
    let tuning = crate::server::limits::Tuning {
        connections: crate::net::runtime::ConnectionLimits {
            per_address: args.per_address,
            idle: std::time::Duration::from_secs(args.idle_timeout),
            proxies: Arc::new(crate::net::proxy::TrustedProxies::new(
                args.trusted_proxy.clone(),
                args.proxy_header,
            )),
        },
        unload_after: std::time::Duration::from_secs(args.unload_after),
        odds_time: std::time::Duration::from_secs(args.odds_time),
        room_quota: args.room_quota,
    };
    let setup = crate::server::Setup {
        policy,
        tuning,
        scenes: args
            .scenes
            .clone()
            .unwrap_or_else(crate::rules::scene::default_dir),
        server_key: Some(key.public()),
        headers: args.frame_ancestors.clone(),
        hosts: args.hosts.clone(),
        tls: match (&args.tls_cert, &args.tls_key) {
            (Some(cert), Some(key)) => Some(crate::net::tls::TlsFiles {
                cert: cert.clone(),
                key: key.clone(),
            }),
            _ => None,
        },
    };
    match rt.block_on(crate::server::serve(args.listen, store, setup)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e.to_string()),
    }
}

/// Runs `verify`: 0 every entry checks, 1 the first failure named, 2 unreadable.
pub fn verify(args: &VerifyArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => return fail(&format!("cannot read {}: {e}", args.file.display())),
    };
    match verify_signed(&text, args.key.as_deref()) {
        Verdict::Verified {
            entries,
            rolls,
            unrevealed,
            whole,
            signer,
        } => {
            let hidden = if unrevealed.is_empty() {
                String::new()
            } else {
                let each: Vec<String> = unrevealed
                    .iter()
                    .map(|(seq, mode)| format!("#{seq} ({})", mode.name()))
                    .collect();
                let rolls = if each.len() == 1 { "roll" } else { "rolls" };
                format!(
                    "; {} hidden {rolls} never revealed, still sealed: {}",
                    each.len(),
                    each.join(", ")
                )
            };
            let head = match (whole, &signer, &args.key) {
                (false, _, _) => "; no head line: nothing says the log ends here (an export from before heads, or one cut short)".to_string(),
                (true, Some(by), Some(_)) => format!("; whole: its head is its last entry, signed by the server key {by}"),
                (true, Some(by), None) => format!("; whole: its head is its last entry, signed by {by} (no --key given: compare that key with the server's front page or `serve --print-key`)"),
                (true, None, _) => "; whole: the export's head is its last entry (not signed: an export from before signed heads)".to_string(),
            };
            println!(
                "verified: {entries} entries, {rolls} rolls re-simulated identically, every seed from its commitment, every outcome and table state by the rules{hidden}{head}"
            );
            ExitCode::SUCCESS
        }
        Verdict::Failed(e) => {
            println!("FAILED: {e}");
            ExitCode::from(1)
        }
        Verdict::Unreadable(e) => fail(&format!("{} is not a room log: {e}", args.file.display())),
    }
}

/// Runs `loadtest`.
pub fn loadtest(args: &LoadtestArgs) -> ExitCode {
    if args.seconds > 600 {
        return fail("--seconds: at most 600");
    }
    let scene = match std::fs::read_to_string(
        crate::rules::scene::default_dir().join("d20-check-crypt.ron"),
    ) {
        Ok(s) => s,
        Err(e) => return fail(&format!("cannot read the load's scene: {e}")),
    };
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => return fail(&e.to_string()),
    };
    let load = Load {
        url: args.url.clone(),
        rooms: args.rooms,
        clients: args.clients,
        interval_ms: args.interval_ms,
        seconds: args.seconds,
        scene,
        notation: args.notation.clone(),
        mode: args.mode,
        from: args.from,
    };
    let figures = match rt.block_on(loadtest::run(load)) {
        Ok(f) => f,
        Err(e) => return fail(&e.to_string()),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&figures).unwrap_or_default()
        );
    } else {
        for r in &figures.rooms {
            println!(
                "{}: sent {} acknowledged {} errors {}",
                r.room, r.sent, r.acknowledged, r.errors
            );
        }
        println!(
            "{} clients in {} rooms (connected in {:.1} s; joins refused {}, answered busy and sent again {}; reconnected during the load {}): sent {}, acknowledged {}, received by every client {}; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; errors {}",
            figures.clients,
            figures.rooms.len(),
            figures.connect_seconds,
            figures.joins_refused,
            figures.busy_answers,
            figures.reconnects,
            figures.sent,
            figures.acknowledged,
            figures.delivered,
            figures.latency_p50_ms,
            figures.latency_p99_ms,
            figures.latency_max_ms,
            figures.errors
        );
        let mode = figures.mode.map_or("public", SecretMode::name);
        println!(
            "each client was sent {} bytes on average (throws {mode})",
            figures.bytes_per_client
        );
        if let Some(cpu) = figures.load_cpu_seconds {
            println!("load tool: {cpu:.2} s of CPU (its clients, on this machine)");
        }
        for e in &figures.error_samples {
            println!("  error: {e}");
        }
    }
    ExitCode::SUCCESS
}

/// A size in bytes as `--room-quota` takes it: a whole number of `K`, `M` or `G` (KiB, MiB,
/// GiB), at least 64K and at most 1024G.
fn byte_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, unit) = text.split_at(text.trim_end_matches(char::is_alphabetic).len());
    let shift = match unit.to_ascii_uppercase().as_str() {
        "K" | "KIB" => 10,
        "M" | "MIB" => 20,
        "G" | "GIB" => 30,
        _ => return Err(format!("'{text}' is not a size: write 512K, 64M or 2G")),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("'{text}' is not a size: write 512K, 64M or 2G"))?;
    let bytes = n.checked_shl(shift).filter(|b| b >> shift == n);
    match bytes {
        Some(b) if ((64 << 10)..=(1 << 40)).contains(&b) => Ok(b),
        _ => Err(format!("'{text}' is outside 64K to 1024G")),
    }
}

#[cfg(test)]
mod tests {
    use super::byte_size;

    #[test]
    fn a_room_quota_is_a_size_with_its_unit() {
        assert_eq!(byte_size("64M"), Ok(64 << 20));
        assert_eq!(byte_size("256k"), Ok(256 << 10));
        assert_eq!(byte_size("2G"), Ok(2 << 30));
        assert!(byte_size("64").is_err(), "a unit");
        assert!(byte_size("1K").is_err(), "at least 64K");
        assert!(byte_size("99999999999999G").is_err(), "no overflow");
        assert!(byte_size("-1M").is_err());
    }
}
