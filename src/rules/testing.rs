//! Test helpers: a shipped scene seated at a table, and a move played with given faces.

use std::path::Path;

use super::Outcome;
use super::engine::Rulebook;
use super::play::Move;
use super::scene::Scene;
use super::table::TableState;
use crate::roll::{MoveRoll, RollError};

/// The shipped rule files.
pub fn book() -> Rulebook {
    Rulebook::builtin().unwrap_or_else(|e| panic!("{e}"))
}

/// A scene of `scenes/`.
pub fn scene(file: &str) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(file);
    Scene::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// A scene of `scenes/` seated at a fresh table (seed 1).
pub fn table(file: &str) -> TableState {
    TableState::new(&scene(file), &book(), 1)
}

/// The docs pages with RON examples: a scene (the five systems) and a script (the command line).
const DOCS_WITH_RON: [&str; 2] = [
    include_str!("../../docs/systems.md"),
    include_str!("../../docs/command-line.md"),
];

/// The first RON block of the docs that contains `marker` (their examples are tested).
pub fn docs_ron_block(marker: &str) -> &'static str {
    DOCS_WITH_RON
        .iter()
        .flat_map(|page| page.split("```ron\n").skip(1))
        .filter_map(|rest| rest.split("```").next())
        .find(|block| block.contains(marker))
        .unwrap_or_else(|| panic!("no RON block of the docs holds {marker:?}"))
}

/// Plays a move with the given throws (the first plan's faces, then each follow-up's) through
/// the roll path, which checks each throw against the plan the rules asked for; returns the
/// outcome and what changed.
pub fn play(t: &mut TableState, m: &Move, throws: &[&[u32]]) -> (Outcome, Vec<String>) {
    let mut roll = MoveRoll::start(t, m, 0).unwrap_or_else(|e| panic!("{m:?}: {e}"));
    for faces in throws {
        let purpose = roll.next_order().map(|o| o.purpose);
        roll.feed_faces(faces.to_vec())
            .unwrap_or_else(|e| panic!("{purpose:?}: {e}"));
    }
    if let Ok(order) = roll.next_order() {
        panic!("more dice wanted: {}", order.purpose);
    }
    let said = roll.apply_to(t).unwrap_or_else(|e| panic!("{e}"));
    let outcome = roll.outcome().cloned().unwrap_or_default();
    (outcome, said)
}

/// Ends the turn or round through the roll path (a move without dice).
pub fn end_turn(t: &mut TableState) -> Result<String, RollError> {
    crate::roll::end_turn(t)
}
