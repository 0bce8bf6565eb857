//! The online table: a server that keeps rooms (`serve`), clients that join them, the log that
//! is the room, its stores, and the offline checker (`verify`) and load tool (`loadtest`). Plain
//! Rust with tokio: no Bevy here; the rules and the physics are called, never changed.

pub mod client;
pub mod loadtest;
pub mod log;
pub mod nats;
pub mod protocol;
pub mod room;
pub mod seal;
pub mod server;
pub mod store;
pub mod verify;
pub mod watch;
