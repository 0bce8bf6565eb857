//! A scene's `setup`: options some rulesets read (each lists those it reads in
//! [`super::ruleset::Ruleset::SETUP`]; a scene setting one its ruleset does not read is refused).

use serde::{Deserialize, Serialize};

/// Scene options of some rulesets.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// `open-d6`: simplified initiative (one action each per round, highest Reflexes first).
    #[serde(default)]
    pub simplified_initiative: bool,
    /// `d20-check`: tasks that take several checks (Extended).
    #[serde(default)]
    pub tasks: Vec<Task>,
}

impl Setup {
    /// The fields set to other than their default, by name (a ruleset reads those it lists in
    /// [`super::ruleset::Ruleset::SETUP`]).
    pub(crate) fn set_fields(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.simplified_initiative {
            out.push("simplified_initiative");
        }
        if !self.tasks.is_empty() {
            out.push("tasks");
        }
        out
    }
}

/// A task that takes several checks (Extended): successes before failures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Its name.
    pub name: String,
    /// Successes needed.
    #[serde(default = "three")]
    pub successes: u32,
    /// Failures that end it.
    #[serde(default = "three")]
    pub failures: u32,
}

fn three() -> u32 {
    3
}
