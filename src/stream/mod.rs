//! Streaming: the table's HTTP server (the overlay page for OBS, the feed, the roll API) and the
//! window's stream mode. The server knows records and feed events; `glue` alone ties it to the
//! table.

pub mod api;
pub mod feed;
mod glue;
pub mod pages;
pub mod server;
mod stream_mode;

pub use stream_mode::parse_chroma;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((glue::plugin, stream_mode::plugin));
}
