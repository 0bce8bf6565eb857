//! The stream server of the window (`play --listen`): the overlay page for OBS, the feed of the
//! table's throws, and the roll API for Stream Deck buttons and chat bots. Plain tokio and axum
//! on the shared network layer (`crate::net`); the window hands it records and feed events
//! through a [`server::TableLink`] and takes its jobs.

pub mod api;
pub mod server;
