//! Test helpers: a shipped scene seated at a table, and a move played with given faces.

use std::path::Path;

use super::engine::Rulebook;
use super::play::Move;
use super::scene::Scene;
use super::table::TableState;
use super::{Outcome, Step};

/// The shipped rule files.
pub fn book() -> Rulebook {
    Rulebook::builtin().unwrap_or_else(|e| panic!("{e}"))
}

/// A scene of `scenes/` seated at a fresh table (seed 1).
pub fn table(file: &str) -> TableState {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(file);
    let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    TableState::new(&scene, &book(), 1)
}

/// The first RON block of the README that contains `marker` (its examples are tested).
pub fn readme_ron_block(marker: &str) -> &'static str {
    include_str!("../../README.md")
        .split("```ron\n")
        .skip(1)
        .filter_map(|rest| rest.split("```").next())
        .find(|block| block.contains(marker))
        .unwrap_or_else(|| panic!("no RON block of the README holds {marker:?}"))
}

/// Plays a move with the given throws (the first plan's faces, then each follow-up's); checks
/// each throw fits the plan the rules asked for; returns the outcome and what changed.
pub fn play(t: &mut TableState, m: &Move, throws: &[&[u32]]) -> (Outcome, Vec<String>) {
    let mut plan = t.plan(m).unwrap_or_else(|e| panic!("{m:?}: {e}"));
    let mut so_far: Vec<Vec<u32>> = Vec::new();
    loop {
        if !plan.dice.is_empty() || !so_far.is_empty() {
            let Some(faces) = throws.get(so_far.len()) else {
                panic!("more dice wanted: {}", plan.purpose)
            };
            plan.check_faces(faces)
                .unwrap_or_else(|e| panic!("{}: {e}", plan.purpose));
            so_far.push(faces.to_vec());
        }
        match t.resolve(m, &so_far).unwrap_or_else(|e| panic!("{e}")) {
            Step::ThrowMore(next) => plan = next,
            Step::Done(outcome) => {
                assert_eq!(so_far.len(), throws.len(), "resolved before the last throw");
                let said = t
                    .apply(m, &so_far, &outcome)
                    .unwrap_or_else(|e| panic!("{e}"));
                return (outcome, said);
            }
        }
    }
}
