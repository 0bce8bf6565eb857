//! dicetable: a 3D tabletop dice simulator. Physically thrown dice, the face they settle on
//! read as the result, five action-resolution systems and any game written as a system file
//! applied in full, with exact odds.
//!
//! The shape of the program is in `ARCHITECTURE.md`: a roll goes one way, from a client (the
//! window, the command line, the roll API, the table server) through the one roll path
//! ([`roll`]) to the rules ([`rules`], [`odds`]) and the physics ([`physics`]), and comes out
//! as a [`record::RollRecord`]. This file holds the window app's plugin; the app is in
//! [`window`].

pub mod cli;
pub mod demo;
pub mod dice;
pub mod errors;
pub mod folders;
pub mod history;
pub mod net;
pub mod odds;
pub mod online;
pub mod physics;
pub mod record;
pub mod roll;
pub mod rules;
pub mod script;
pub mod seed;
pub mod server;
pub mod stream;
pub mod text;
#[cfg(feature = "window")]
pub mod window;
pub mod work;

#[cfg(feature = "window")]
use bevy::prelude::*;

#[cfg(feature = "window")]
use window::PlayOptions;

#[cfg(feature = "window")]
/// The window app: the table, its camera and lights, the dice (each throw simulated by the
/// same headless physics as `roll`), and the capture hooks.
pub struct AppPlugin {
    /// Options from the command line.
    pub options: PlayOptions,
}

#[cfg(feature = "window")]
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
            app.init_asset::<AudioSource>();
        } else {
            app.add_plugins(DefaultPlugins.set(window));
        }
        app.insert_resource(self.options.clone());
        app.add_plugins(window::plugin);
    }
}
