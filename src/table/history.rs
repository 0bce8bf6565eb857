//! The session's history: every finished roll, free rolls and moves alike, with what is needed
//! to throw it again (the seed, the gesture, and for a move the table as it was).

use bevy::prelude::*;

use crate::physics::throw::Swing;
use crate::record::RollRecord;
use crate::rules::notation::Notation;
use crate::rules::play::Move;
use crate::rules::table::TableState;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RollHistory>();
}

/// How to throw a roll of the history again.
#[derive(Clone, Debug, PartialEq)]
pub enum Replay {
    /// A free roll.
    Notation(Notation, Option<Swing>),
    /// A move, against the table as it was before it (a replay changes nothing at the table).
    Move {
        /// The move.
        mv: Move,
        /// The table before it.
        before: Box<TableState>,
        /// The gesture of its first throw.
        swing: Option<Swing>,
    },
}

/// One finished roll of the session.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    /// What was thrown, in words.
    pub what: String,
    /// Its seed.
    pub seed: u64,
    /// The faces of each throw (a free roll: each die's chain of faces).
    pub faces: Vec<Vec<u32>>,
    /// What it came to.
    pub result: String,
    /// How to throw it again.
    pub replay: Replay,
    /// The roll's record (its replay code: `record.code()`).
    pub record: RollRecord,
}

/// Who asked for a roll from outside the window (the roll API), named in its record and on the
/// overlay.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Caller {
    /// Who rolls ("Vex").
    pub who: Option<String>,
    /// What for ("attack with dagger against the Goblin").
    pub label: Option<String>,
    /// Only shown, not a new throw: an entry of a table server's log thrown again with its
    /// seed, or a replay from the history. A table driven by a server throws only these; the
    /// others become proposals to the server.
    pub shown_only: bool,
}

/// Every roll of the session, oldest first. It only grows.
#[derive(Resource, Default)]
pub struct RollHistory(pub Vec<HistoryEntry>);
