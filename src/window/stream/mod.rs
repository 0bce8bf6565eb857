//! The window's side of streaming: the roll API's jobs thrown at the table and the table's
//! throws sent to the feed (`glue`, the only code that knows both the table and the stream
//! server), and stream mode (`play --stream`: the dice over a chroma-key colour).

mod glue;
mod stream_mode;

pub use stream_mode::parse_chroma;

use bevy::prelude::*;

#[cfg(test)]
pub use glue::Listening;

/// The roll API and the feed, which need no window (the app-level tests run them).
pub(super) fn logic_plugin(app: &mut App) {
    app.add_plugins(glue::plugin);
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((logic_plugin, stream_mode::plugin));
}
