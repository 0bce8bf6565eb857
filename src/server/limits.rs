//! What one connection, one room and the whole server may take: messages and throws a second,
//! the time to say hello, how far a slow reader may fall behind. The shares of the cores
//! (physics, odds, pictures) are `crate::work`'s.

use std::time::{Duration, Instant};

/// How long a new connection may take to say `create` or `join`.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// Messages a connection may send per second, and in a burst.
pub const CONN_RATE: f64 = 20.0;
/// The burst of [`CONN_RATE`].
pub const CONN_BURST: f64 = 40.0;
/// Throws a room takes per second, and in a burst.
pub const ROOM_RATE: f64 = 20.0;
/// The burst of [`ROOM_RATE`].
pub const ROOM_BURST: f64 = 40.0;
/// How long a room with nobody in it and no page on it stays loaded, by default.
pub const IDLE_UNLOAD: Duration = Duration::from_secs(600);
/// How long exact odds are worked out for a page or a drafted move, by default: every
/// notation within the caps takes far less, but a page must not hold a core for long.
pub const ODDS_TIME: Duration = Duration::from_secs(10);
/// The most bytes of log a room keeps, by default (`serve --room-quota`): a long campaign's
/// room of throws of a few dice (about 2 KB an entry) holds some 30,000 of them.
pub const ROOM_QUOTA: u64 = 64 << 20;
/// Entries a slow client may fall behind before it is caught up from the store.
pub const FANOUT: usize = 256;
/// Entries read from the store at a time to catch a client up.
pub const CATCH_UP_PAGE: usize = 16;
/// Messages waiting to be written to one client: past them, its entries wait in the store
/// (and one that stops reading is dropped after `crate::net::socket::SEND_TIMEOUT`).
pub const OUTBOX: usize = 16;

/// What a server's owner may change of its limits (`serve --per-address`, `--idle-timeout`,
/// `--unload-after`, `--trusted-proxy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Connections per address, and how long one may send nothing.
    pub connections: crate::net::runtime::ConnectionLimits,
    /// How long a room with nobody in it and no page on it stays in memory.
    pub unload_after: Duration,
    /// How long exact odds are worked out before the answer is `timeout` and the work stops.
    pub odds_time: Duration,
    /// The most bytes of log a room keeps: past it, moves and throws are `room_full`.
    pub room_quota: u64,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            connections: crate::net::runtime::ConnectionLimits::default(),
            unload_after: IDLE_UNLOAD,
            odds_time: ODDS_TIME,
            room_quota: ROOM_QUOTA,
        }
    }
}

impl Tuning {
    /// How often the server pings a room's or a page's socket.
    pub fn ping_every(&self) -> Duration {
        crate::net::socket::ping_every(self.connections.idle)
    }
}

/// A room's throws as its log dates them: a token bucket of [`ROOM_RATE`] a second, up to
/// [`ROOM_BURST`] at once, filled and drawn by the entries' own times, so every server of a room
/// on NATS counts the same throws: a server appends entry `n` only once it holds entry `n - 1`
/// (the store refuses it otherwise), so its count is whole.
#[derive(Clone, Debug, Default)]
pub struct Pace {
    /// The tokens left after the latest throw logged.
    tokens: f64,
    /// When that throw was logged (ms since the epoch); None: no throw yet, a full bucket.
    at_ms: Option<u64>,
}

impl Pace {
    /// The pace of a log's latest throws.
    pub fn of_lines(lines: &[String]) -> Pace {
        let mut pace = Pace::default();
        let from = lines.len().saturating_sub(4 * ROOM_BURST as usize);
        for line in &lines[from..] {
            if let Ok(entry) = crate::online::log::Entry::parse(line) {
                pace.note(&entry);
            }
        }
        pace
    }

    /// Counts an entry of the log, if it is a throw.
    pub fn note(&mut self, entry: &crate::online::log::Entry) {
        if matches!(entry.event, crate::online::log::Event::Thrown { .. }) {
            self.thrown_at(entry.at_ms);
        }
    }

    fn thrown_at(&mut self, at_ms: u64) {
        self.tokens = self.tokens_at(at_ms) - 1.0;
        self.at_ms = Some(self.at_ms.map_or(at_ms, |at| at.max(at_ms)));
    }

    /// The tokens in the bucket at `now_ms`.
    fn tokens_at(&self, now_ms: u64) -> f64 {
        match self.at_ms {
            None => ROOM_BURST,
            Some(at) => {
                let refilled = now_ms.saturating_sub(at) as f64 * ROOM_RATE / 1000.0;
                (self.tokens + refilled).min(ROOM_BURST)
            }
        }
    }

    /// Whether the room may throw again at `now_ms`.
    pub fn may_throw(&self, now_ms: u64) -> bool {
        self.tokens_at(now_ms) >= 1.0
    }
}

/// A token bucket: `rate` per second, up to `burst`.
pub struct Bucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket {
            rate,
            burst,
            tokens: burst,
            at: Instant::now(),
        }
    }

    /// Takes a token, or says the limit is reached.
    pub fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rooms_pace_is_forty_throws_at_once_then_twenty_a_second() {
        let mut pace = Pace::default();
        // 40 throws logged in the same instant (by any servers): the 41st waits.
        for _ in 0..40 {
            assert!(pace.may_throw(10_000));
            pace.thrown_at(10_000);
        }
        assert!(!pace.may_throw(10_000));
        assert!(!pace.may_throw(10_049));
        // One more every 50 ms after that: 20 a second.
        assert!(pace.may_throw(10_050));
        pace.thrown_at(10_050);
        assert!(!pace.may_throw(10_099));
        assert!(pace.may_throw(10_100));
        // Two seconds of quiet fill the bucket again, never past 40.
        let mut rested = pace.clone();
        rested.thrown_at(13_000);
        assert!((rested.tokens - 39.0).abs() < 1e-9, "{}", rested.tokens);
    }

    #[test]
    fn a_bucket_gives_its_burst_then_refuses() {
        let mut b = Bucket::new(0.001, 3.0);
        assert!(b.take() && b.take() && b.take());
        assert!(!b.take());
    }
}
