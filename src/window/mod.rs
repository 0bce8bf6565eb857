//! The window app (Bevy): the tray and its dice (`table`), the overlays (`ui`), the window's
//! side of streaming (`stream`), joining a table server's room (`join`), the set-up of
//! third-party plugins, its pacing: frames drawn while the table moves (`pacing`), and the bell
//! that wakes it (`wake`). Every throw it makes goes through the one roll path (`crate::roll`).

mod join;
mod pacing;
mod stream;
mod table;
#[cfg(test)]
mod tests;
mod third_party;
mod ui;
mod wake;

use std::path::PathBuf;

use bevy::prelude::*;

pub use join::JoinOptions;
pub use stream::parse_chroma;

/// Adds the window app's features (the caller adds Bevy's own plugins).
pub(super) fn plugin(app: &mut App) {
    configure_sets(app);
    app.add_plugins((
        third_party::plugin,
        table::plugin,
        ui::plugin,
        stream::plugin,
        join::plugin,
        pacing::plugin,
    ));
}

/// The window app's logic without a window: moves and free rolls through the roll path, the
/// felt's physics, the history, demos, the draft and its odds. What the app-level tests run on
/// Bevy's `MinimalPlugins`.
pub fn headless_plugin(app: &mut App) {
    configure_sets(app);
    app.add_plugins((table::logic_plugin, ui::logic_plugin, stream::logic_plugin));
}

/// The one ordering of the app's per-frame work.
fn configure_sets(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::ReadInput,
            AppSystems::Throw,
            AppSystems::Settle,
            AppSystems::ReadFaces,
            AppSystems::ApplyOutcome,
            AppSystems::Present,
        )
            .chain(),
    );
}

/// What `dicetable play` was asked to do beyond opening the table.
#[derive(Resource, Clone, Debug, Default)]
pub struct PlayOptions {
    /// Save a PNG of the window to this path...
    pub screenshot: Option<PathBuf>,
    /// ...after this many frames, then exit (also without a screenshot).
    pub exit_after_frames: Option<u32>,
    /// Window size in logical pixels.
    pub window_size: (u32, u32),
    /// Dice notation to throw when the table opens.
    pub roll: Option<String>,
    /// Seed of that throw (default: random).
    pub seed: Option<u64>,
    /// The scene to seat (default: the first in `scenes/`).
    pub scene: Option<PathBuf>,
    /// Play this many default moves of the scene when the table opens.
    pub throw: u32,
    /// No sound (also without an audio device, and for headless checks).
    pub mute: bool,
    /// Print mean frame times (dice in the air, dice at rest) on exit.
    pub frame_times: bool,
    /// Start with the camera framing settled dice in close-up.
    pub closeup: bool,
    /// Print the overlays' control places as they change (`ui_map`).
    pub print_ui: bool,
    /// A guided demo to seat.
    pub demo: DemoOptions,
    /// Serve the overlay, the feed and the roll API here (None: no server).
    pub listen: Option<std::net::SocketAddr>,
    /// The token the server requires (needed off loopback).
    pub token: Option<String>,
    /// Its certificate and key, for https and wss (None: plain http).
    pub tls: Option<crate::net::tls::TlsFiles>,
    /// Its pages' security headers.
    pub headers: crate::net::headers::Policy,
    /// With a token, the names it is reached by (`play --host`).
    pub hosts: Vec<String>,
    /// Stream mode: no panels, no table, this chroma-key colour behind the dice (sRGB).
    pub stream: Option<[u8; 3]>,
    /// A table server's room to join (the room drives the table).
    pub join: Option<JoinOptions>,
    /// Where the lasting history is kept (None: this session's rolls stay in memory), and the
    /// window's own dice beside it.
    pub history_dir: Option<PathBuf>,
    /// The window's own dice for this run (`--dice`), whatever it keeps.
    pub dice: Option<crate::dice::style::DiceLook>,
}

/// `dicetable demo`: which demo the window opens with.
#[derive(Clone, Debug, Default)]
pub struct DemoOptions {
    /// The demo file (None: no demo).
    pub path: Option<PathBuf>,
    /// Steps to play at once when the table opens.
    pub steps: u32,
}

/// The one ordering of the app's per-frame work: input, throws, physics bookkeeping, reading
/// faces, applying outcomes, drawing overlays.
#[derive(SystemSet, Debug, Clone, Copy, Eq, PartialEq, Hash, PartialOrd, Ord)]
pub enum AppSystems {
    /// Keyboard, mouse and UI requests.
    ReadInput,
    /// Turning requests into throws.
    Throw,
    /// Watching the dice settle.
    Settle,
    /// Reading settled faces into results.
    ReadFaces,
    /// Applying results to the table state.
    ApplyOutcome,
    /// Updating what is shown.
    Present,
}
