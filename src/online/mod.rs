//! The online table's model, shared by the table server (`crate::server`), its clients and the
//! offline checker: the log that is the room, the room rebuilt from it, the protocol's
//! messages, the cryptography of seeds, seals and passcodes, the headless client, `verify` and
//! the load tool. Plain Rust with tokio: no Bevy here.

pub mod client;
pub mod keys;
pub mod loadtest;
pub mod log;
pub mod protocol;
pub mod room;
pub mod seal;
pub mod signing;
pub mod verify;
