//! Who may knock, and how often: wrong passcodes back off per address and per room (before any
//! hashing, so a flood of guesses queues no work), and rooms open only with the server owner's
//! leave (from this machine, with the server's room passcode, or anyone under `--open-rooms`),
//! a few an hour per address. Guessing never locks out who already got in: an address that
//! joined a room or opened its page (with the right passcode) is known to that room for a day,
//! the room's back-off does not apply to it, and its passcode is checked before any stranger's.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::error::ServerError;
use crate::net::auth;
use crate::net::runtime::Peer;

/// Wrong passcodes an address may send before it waits (1 s, then doubling).
pub const FREE_MISSES_PER_ADDRESS: u32 = 3;
/// The longest an address waits.
pub const LONGEST_WAIT_PER_ADDRESS: Duration = Duration::from_secs(300);
/// Wrong passcodes a room takes from everyone before every guess at it waits.
pub const FREE_MISSES_PER_ROOM: u32 = 30;
/// The longest a room's guessers wait (short: its players wait too).
pub const LONGEST_WAIT_PER_ROOM: Duration = Duration::from_secs(10);
/// Rooms one address may open an hour (this machine's owner: no limit).
pub const ROOMS_PER_ADDRESS_PER_HOUR: usize = 10;
/// How long an address that got into a room stays known to it.
const KNOWN_FOR: Duration = Duration::from_secs(24 * 3600);
/// How long misses are remembered after the last one.
const FORGET_AFTER: Duration = Duration::from_secs(3600);
/// Entries the tables keep before the forgotten ones are swept.
const SWEEP_AT: usize = 4096;

/// Who may open rooms on this server.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// Anyone may open rooms (`serve --open-rooms`).
    pub open_rooms: bool,
    /// The passcode that opens rooms from another machine (`serve --room-passcode`).
    pub room_passcode: Option<String>,
}

/// Whether an address may open rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Opening {
    /// It may.
    Open,
    /// With the server's room passcode.
    Passcode,
    /// It may not.
    Closed,
}

/// The wrong passcodes of one address or one room.
#[derive(Clone, Copy, Debug)]
struct Misses {
    count: u32,
    until: Instant,
    last: Instant,
}

/// The server's doorkeeper.
#[derive(Debug, Default)]
pub struct Guard {
    policy: Policy,
    by_address: Mutex<HashMap<IpAddr, Misses>>,
    by_room: Mutex<HashMap<String, Misses>>,
    opened: Mutex<HashMap<IpAddr, Vec<Instant>>>,
    /// The addresses that got into each room, and when last.
    known: Mutex<HashMap<(String, IpAddr), Instant>>,
}

/// How long to wait after `count` misses, `free` of them free: 1 s, 2 s, 4 s... up to `longest`.
fn wait_after(count: u32, free: u32, longest: Duration) -> Duration {
    if count < free {
        return Duration::ZERO;
    }
    let doublings = (count - free).min(20);
    Duration::from_secs(1u64 << doublings).min(longest)
}

fn still_waiting<K: std::hash::Hash + Eq>(
    table: &Mutex<HashMap<K, Misses>>,
    key: &K,
    now: Instant,
) -> Option<Duration> {
    let table = table.lock().ok()?;
    let m = table.get(key)?;
    (m.until > now).then(|| m.until - now)
}

fn note_miss<K: std::hash::Hash + Eq>(
    table: &Mutex<HashMap<K, Misses>>,
    key: K,
    free: u32,
    longest: Duration,
    now: Instant,
) {
    let Ok(mut table) = table.lock() else { return };
    if table.len() >= SWEEP_AT {
        table.retain(|_, m| now.duration_since(m.last) < FORGET_AFTER);
    }
    let m = table.entry(key).or_insert(Misses {
        count: 0,
        until: now,
        last: now,
    });
    if now.duration_since(m.last) >= FORGET_AFTER {
        m.count = 0;
    }
    m.count += 1;
    m.last = now;
    m.until = now + wait_after(m.count, free, longest);
}

impl Guard {
    /// A doorkeeper by `policy`.
    pub fn new(policy: Policy) -> Guard {
        Guard {
            policy,
            ..Guard::default()
        }
    }

    /// Whether `peer` got into `room` (a member or its page) within the last day: guesses at
    /// the room do not make it wait, and its passcode is checked first.
    pub fn is_known(&self, peer: Peer, room: &str) -> bool {
        let (Some(ip), Ok(known)) = (peer.ip, self.known.lock()) else {
            return false;
        };
        known
            .get(&(room.to_string(), ip))
            .is_some_and(|at| at.elapsed() < KNOWN_FOR)
    }

    /// `peer` showed `room`'s passcode: known to the room from now on.
    pub fn got_in(&self, peer: Peer, room: &str) {
        let (Some(ip), Ok(mut known)) = (peer.ip, self.known.lock()) else {
            return;
        };
        let now = Instant::now();
        if known.len() >= SWEEP_AT {
            known.retain(|_, at| now.duration_since(*at) < KNOWN_FOR);
        }
        known.insert((room.to_string(), ip), now);
    }

    /// Whether a passcode may be tried now from `peer` at `room`; if not, how long to wait.
    /// The address's own misses count always; the room's only for an address the room does
    /// not know ([`Guard::is_known`]).
    pub fn may_try(&self, peer: Peer, room: &str) -> Result<(), ServerError> {
        let now = Instant::now();
        let address = peer
            .ip
            .and_then(|ip| still_waiting(&self.by_address, &ip, now));
        let room = if self.is_known(peer, room) {
            None
        } else {
            still_waiting(&self.by_room, &room.to_string(), now)
        };
        match address.into_iter().chain(room).max() {
            Some(wait) => Err(ServerError::BackingOff(wait.as_secs().max(1))),
            None => Ok(()),
        }
    }

    /// A wrong passcode from `peer` at `room`.
    pub fn missed(&self, peer: Peer, room: &str) {
        let now = Instant::now();
        if let Some(ip) = peer.ip {
            note_miss(
                &self.by_address,
                ip,
                FREE_MISSES_PER_ADDRESS,
                LONGEST_WAIT_PER_ADDRESS,
                now,
            );
        }
        note_miss(
            &self.by_room,
            room.to_string(),
            FREE_MISSES_PER_ROOM,
            LONGEST_WAIT_PER_ROOM,
            now,
        );
    }

    /// Who may open rooms from `peer`'s address: anyone, whoever has the room passcode, or
    /// nobody (the front page asks for the passcode, or says to ask the owner).
    pub fn opening_for(&self, peer: Peer) -> Opening {
        if peer.is_this_machine() || self.policy.open_rooms {
            Opening::Open
        } else if self.policy.room_passcode.is_some() {
            Opening::Passcode
        } else {
            Opening::Closed
        }
    }

    /// Whether `peer` may open a room, showing `given` (the server's room passcode).
    pub fn may_open(&self, peer: Peer, given: Option<&str>) -> Result<(), ServerError> {
        if peer.is_this_machine() {
            return Ok(());
        }
        let room_passcode_given = given.is_some();
        if room_passcode_given
            && let Some(wait) = peer
                .ip
                .and_then(|ip| still_waiting(&self.by_address, &ip, Instant::now()))
        {
            return Err(ServerError::BackingOff(wait.as_secs().max(1)));
        }
        let allowed = match self.opening_for(peer) {
            Opening::Open => true,
            Opening::Passcode => self
                .policy
                .room_passcode
                .as_deref()
                .zip(given)
                .is_some_and(|(kept, given)| auth::same(kept, given)),
            Opening::Closed => false,
        };
        if !allowed {
            // A wrong room passcode is a guess like a room's: the address backs off.
            if room_passcode_given && let Some(ip) = peer.ip {
                note_miss(
                    &self.by_address,
                    ip,
                    FREE_MISSES_PER_ADDRESS,
                    LONGEST_WAIT_PER_ADDRESS,
                    Instant::now(),
                );
            }
            return Err(ServerError::RoomsClosed);
        }
        let (Some(ip), Ok(mut opened)) = (peer.ip, self.opened.lock()) else {
            return Ok(());
        };
        let now = Instant::now();
        let hour = Duration::from_secs(3600);
        if opened.len() >= SWEEP_AT {
            opened.retain(|_, times| times.iter().any(|t| now.duration_since(*t) < hour));
        }
        let times = opened.entry(ip).or_default();
        times.retain(|t| now.duration_since(*t) < hour);
        if times.len() >= ROOMS_PER_ADDRESS_PER_HOUR {
            return Err(ServerError::RoomQuota(ROOMS_PER_ADDRESS_PER_HOUR));
        }
        times.push(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(last: u8) -> Peer {
        Peer::direct(Some(IpAddr::from([192, 0, 2, last])))
    }

    #[test]
    fn wrong_passcodes_make_their_address_wait_longer_and_longer() {
        assert_eq!(wait_after(2, 3, LONGEST_WAIT_PER_ADDRESS), Duration::ZERO);
        assert_eq!(
            wait_after(3, 3, LONGEST_WAIT_PER_ADDRESS),
            Duration::from_secs(1)
        );
        assert_eq!(
            wait_after(5, 3, LONGEST_WAIT_PER_ADDRESS),
            Duration::from_secs(4)
        );
        assert_eq!(
            wait_after(40, 3, LONGEST_WAIT_PER_ADDRESS),
            LONGEST_WAIT_PER_ADDRESS
        );
        let guard = Guard::new(Policy::default());
        for _ in 0..FREE_MISSES_PER_ADDRESS - 1 {
            guard.missed(from(1), "crypt");
            assert_eq!(guard.may_try(from(1), "crypt"), Ok(()));
        }
        guard.missed(from(1), "crypt");
        assert_eq!(
            guard.may_try(from(1), "crypt"),
            Err(ServerError::BackingOff(1))
        );
        assert_eq!(guard.may_try(from(2), "crypt"), Ok(()), "another address");
        assert_eq!(
            guard.may_try(from(1), "den").map_err(|e| e.code()),
            Err(crate::errors::ErrorCode::BackingOff),
            "the address, anywhere"
        );
    }

    #[test]
    fn a_room_guessed_at_from_many_addresses_makes_every_guess_wait() {
        let guard = Guard::new(Policy::default());
        for i in 0..FREE_MISSES_PER_ROOM {
            guard.missed(from(i as u8), "crypt");
        }
        assert_eq!(
            guard.may_try(from(250), "crypt"),
            Err(ServerError::BackingOff(1))
        );
        assert_eq!(guard.may_try(from(250), "den"), Ok(()));
    }

    #[test]
    fn an_address_that_got_in_is_not_kept_out_by_a_rooms_guessers() {
        let guard = Guard::new(Policy::default());
        guard.got_in(from(7), "crypt");
        for i in 0..FREE_MISSES_PER_ROOM {
            guard.missed(from(i as u8 + 100), "crypt");
        }
        assert_eq!(
            guard.may_try(from(250), "crypt"),
            Err(ServerError::BackingOff(1))
        );
        assert!(guard.is_known(from(7), "crypt") && !guard.is_known(from(7), "den"));
        assert_eq!(guard.may_try(from(7), "crypt"), Ok(()));
        // Its own misses still count.
        for _ in 0..FREE_MISSES_PER_ADDRESS {
            guard.missed(from(7), "crypt");
        }
        assert_eq!(
            guard.may_try(from(7), "crypt"),
            Err(ServerError::BackingOff(1))
        );
    }

    #[test]
    fn the_servers_room_passcode_is_guessed_at_with_back_off() {
        let guard = Guard::new(Policy {
            open_rooms: false,
            room_passcode: Some("owner".into()),
        });
        for i in 0..FREE_MISSES_PER_ADDRESS {
            let guess = format!("guess{i}");
            assert_eq!(
                guard.may_open(from(1), Some(&guess)),
                Err(ServerError::RoomsClosed)
            );
        }
        assert_eq!(
            guard.may_open(from(1), Some("owner")),
            Err(ServerError::BackingOff(1))
        );
        assert_eq!(guard.may_open(from(2), Some("owner")), Ok(()));
    }

    #[test]
    fn rooms_open_by_the_owners_leave_within_a_quota() {
        let closed = Guard::new(Policy::default());
        assert_eq!(
            closed.may_open(Peer::direct(None), None),
            Ok(()),
            "in-process"
        );
        assert_eq!(
            closed.may_open(Peer::direct(Some(IpAddr::from([127, 0, 0, 1]))), None),
            Ok(())
        );
        assert_eq!(
            closed.may_open(from(1), None),
            Err(ServerError::RoomsClosed)
        );
        assert_eq!(
            closed.may_open(Peer::direct(Some(IpAddr::from([127, 0, 0, 3]))), None),
            Err(ServerError::RoomsClosed),
            "another loopback address is not this machine's own"
        );
        let carried = Peer {
            ip: Some(IpAddr::from([127, 0, 0, 1])),
            via_proxy: true,
        };
        assert_eq!(
            closed.may_open(carried, None),
            Err(ServerError::RoomsClosed),
            "a proxy's client is never this machine, wherever the proxy runs"
        );
        let with_passcode = Guard::new(Policy {
            open_rooms: false,
            room_passcode: Some("owner".into()),
        });
        assert_eq!(
            with_passcode.may_open(from(1), Some("guess")),
            Err(ServerError::RoomsClosed)
        );
        assert_eq!(with_passcode.may_open(from(1), Some("owner")), Ok(()));
        let open = Guard::new(Policy {
            open_rooms: true,
            room_passcode: None,
        });
        for _ in 0..ROOMS_PER_ADDRESS_PER_HOUR {
            assert_eq!(open.may_open(from(1), None), Ok(()));
        }
        assert_eq!(
            open.may_open(from(1), None),
            Err(ServerError::RoomQuota(ROOMS_PER_ADDRESS_PER_HOUR))
        );
        assert_eq!(open.may_open(from(2), None), Ok(()));
    }
}
