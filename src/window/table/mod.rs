//! The window app's own features: the tray scene, the camera, the dice and their throws, and
//! capture for headless checks. The table's logic (moves and free rolls through the roll path,
//! the felt's physics, the history, demos, replays) is [`logic_plugin`], which runs without a
//! window (the app-level tests); the rest draws and listens.

use bevy::prelude::*;

mod camera;
mod capture;
mod demo;
mod dice_view;
mod frame_times;
mod hand;
mod history;
mod live_dice;
mod motion;
mod notation_roll;
mod own_dice;
mod play;
mod record_replay;
mod scene;
mod sounds;
mod textures;
mod throwing;

pub use camera::{TableCamera, ViewSettings, outline_on_screen};
pub use demo::{DemoCommand, DemoRun};
pub use dice_view::DieOnTable;
pub use hand::Hand;
pub use scene::Scenery;

/// The table camera, to project the dice onto the screen.
pub type TableView<'w, 's> =
    Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<TableCamera>>;

/// The dice shown on the table, where they are.
pub type DiceShown<'w, 's> = Query<'w, 's, (&'static GlobalTransform, &'static DieOnTable)>;
pub use history::{Caller, HistoryEntry, LuckBoard, Replay, RollHistory};
pub use motion::TableMotion;
pub use notation_roll::{TableRoll, ThrowNotation};
pub use own_dice::{DiceChosen, OwnDice, OwnDiceLoaded};
/// Keeps a window's own dice in the data folder `dir` (a test's stand-in for the picker).
#[cfg(test)]
pub fn own_dice_file(
    dir: &std::path::Path,
    look: Option<crate::dice::style::DiceLook>,
) -> Result<(), String> {
    own_dice::keep(&dir.join(own_dice::FILE), look)
}
pub use play::{ActionRequest, TablePlay};
pub use record_replay::{ReplayStored, StoredReplay};
pub use throwing::{TableSimulator, ThrowEvent};
#[cfg(test)]
pub use throwing::{ThrowSettled, Thrower};

/// Present when a table server drives the table (`play --join`): the table throws only what
/// is shown (the server's log, replays); the window's own throws go to the server.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct RemoteDriven {
    /// The room is still arriving, or a logged throw or a proposal is on its way: a
    /// screenshot waits for it.
    pub catching_up: bool,
}

/// The API's throws for the window's room (`play --join`), waiting for the room's link to
/// propose them: the glue of the API puts them here, the room's link takes them.
#[derive(Resource, Default)]
pub struct RoomProposals(pub Vec<RoomProposal>);

/// A throw the API asks of the window's room.
pub struct RoomProposal {
    /// What to throw.
    pub what: crate::online::log::Proposal,
    /// What for.
    pub label: Option<String>,
    /// Who sees it (None: the room's default).
    pub mode: Option<crate::online::log::RollMode>,
    /// What the room logged, or why it refused.
    pub reply: tokio::sync::oneshot::Sender<
        Result<crate::stream::server::Logged, crate::stream::api::ApiError>,
    >,
}

/// The table's logic, which needs no window: the felt's physics, moves and free rolls through
/// the roll path, replays, demos, the history.
pub(super) fn logic_plugin(app: &mut App) {
    app.add_plugins((
        throwing::plugin,
        history::plugin,
        notation_roll::plugin,
        own_dice::plugin,
        play::plugin,
        record_replay::plugin,
        demo::plugin,
    ));
}

/// The table in the window: its logic, and the tray, camera, dice, hand, sounds and capture.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        logic_plugin,
        scene::plugin,
        camera::plugin,
        dice_view::plugin,
        live_dice::plugin,
        sounds::plugin,
        frame_times::plugin,
        hand::plugin,
        capture::plugin,
    ));
}
