//! dicetable: a 3D tabletop dice simulator. Physically thrown dice, the face they settle on
//! read as the result, and five action-resolution systems applied in full, with exact odds.
//!
//! The shape of the program is in `DESIGN.md`: `rules` is plain Rust (no Bevy), `physics`
//! throws and settles, `table` and its overlays glue them into the window app.

pub mod cli;
pub mod demo;
pub mod dice;
pub mod history;
pub mod join;
pub mod online;
pub mod physics;
pub mod record;
pub mod rules;
pub mod script;
pub mod stream;
mod table;
pub mod text;
mod third_party;
mod ui;

use std::path::PathBuf;

use bevy::prelude::*;

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
    /// Stream mode: no panels, no table, this chroma-key colour behind the dice (sRGB).
    pub stream: Option<[u8; 3]>,
    /// A table server's room to join (the room drives the table).
    pub join: Option<join::JoinOptions>,
    /// Where the lasting history is kept (None: this session's rolls stay in memory).
    pub history_dir: Option<PathBuf>,
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

/// The window app: the table, its camera and lights, the dice (each throw simulated by the
/// same headless physics as `roll`), and the capture hooks.
pub struct AppPlugin {
    /// Options from the command line.
    pub options: PlayOptions,
}

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        let (width, height) = self.options.window_size;
        let window = WindowPlugin {
            primary_window: Some(Window {
                title: "dicetable".into(),
                resolution: (width, height).into(),
                ..default()
            }),
            ..default()
        };
        // Muted, the audio output is not even opened: on machines without a sound card it only
        // prints ALSA errors.
        if self.options.mute {
            app.add_plugins(
                DefaultPlugins
                    .set(window)
                    .disable::<bevy::audio::AudioPlugin>(),
            );
            app.init_asset::<bevy::audio::AudioSource>();
        } else {
            app.add_plugins(DefaultPlugins.set(window));
        }
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
        app.insert_resource(self.options.clone());
        app.add_plugins((
            third_party::plugin,
            table::plugin,
            ui::plugin,
            stream::plugin,
            join::plugin,
        ));
    }
}
