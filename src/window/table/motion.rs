//! What moves on the table, or waits to: one reading for a screenshot that waits for the table
//! to be still (`capture`) and for the window's pacing, which draws while it moves.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::camera::CameraMotion;
use super::{DemoRun, RemoteDriven, TablePlay, TableRoll, TableSimulator};
use crate::window::PlayOptions;

/// Dice in the air, a roll waiting for its next throw, the camera gliding, a room still
/// arriving, a demo's opening steps still to play.
#[derive(SystemParam)]
pub struct TableMotion<'w> {
    roll: Res<'w, TableRoll>,
    play: Res<'w, TablePlay>,
    physics: NonSend<'w, TableSimulator>,
    demo: Res<'w, DemoRun>,
    camera: Res<'w, CameraMotion>,
    remote: Option<Res<'w, RemoteDriven>>,
    options: Res<'w, PlayOptions>,
}

impl TableMotion<'_> {
    /// True while something on the table still moves or waits to happen.
    pub fn moving(&self) -> bool {
        self.roll.in_flight()
            || self.play.in_flight()
            || self.physics.busy()
            || self.camera.gliding
            || self.remote.as_ref().is_some_and(|r| r.catching_up)
            || !self.demo.started_steps_played(self.options.demo.steps)
    }
}
