//! Set-up of third-party plugins, one file each.

use bevy::prelude::*;

pub(super) fn plugin(_app: &mut App) {}
