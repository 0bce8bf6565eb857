//! The history that lasts: every roll record of every session in an SQLite file under the
//! user's data directory (`store`), and how lucky each character was (`luck`). Plain Rust, no
//! Bevy: the window writes to it (`table::history`), `dicetable history` reads it.

pub mod luck;
pub mod store;

pub use luck::{RollLuck, SessionLuck, percent, roll_luck, session_luck};
pub use store::{HistoryStore, NewRoll, SessionInfo, StoredRoll};
