//! Guided demos: a scene and a script whose steps each say, in plain words, what the rule text
//! says, what is being rolled and why. Every step is thrown physically with a recorded seed;
//! where a text gives the faces or the total of its example, the seed is one for which the honest
//! throw comes up that way (found with `dicetable demo <RULESET> --seek STEP`, nothing forced or
//! remapped), and the step's `expect` says so, so `demo --check` proves it still does.
//! Demos are RON files under `scenes/demos/`, one per ruleset, named by its id.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::rules::RulesetId;
use crate::rules::data::{DataError, load_ron};
use crate::rules::engine::Rulebook;
use crate::rules::scene::{Scene, default_dir};
use crate::rules::table::TableState;
use crate::script::{self, Faces, Script, ScriptStep, StepReport};

/// A demo file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Demo {
    /// Its title.
    pub title: String,
    /// The scene, relative to the demo file.
    pub scene: String,
    /// What the demo shows, before the first step.
    #[serde(default)]
    pub intro: String,
    /// The base seed (a step without its own seed uses this + its index).
    #[serde(default)]
    pub seed: u64,
    /// The steps: each says something, then its move is thrown.
    pub steps: Vec<ScriptStep>,
}

/// A demo with its scene, ready to play.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedDemo {
    /// The demo file.
    pub path: PathBuf,
    /// Its content.
    pub demo: Demo,
    /// Its scene.
    pub scene: Scene,
}

impl LoadedDemo {
    /// Reads a demo file and its scene; checks that every step says something and is thrown
    /// physically.
    pub fn load(path: &Path) -> Result<LoadedDemo, DataError> {
        let demo: Demo = load_ron(path)?;
        let file = path.display().to_string();
        if demo.steps.is_empty() {
            return Err(DataError::whole(&file, "a demo needs at least one step"));
        }
        for (i, step) in demo.steps.iter().enumerate() {
            if step.say.as_deref().is_none_or(|s| s.trim().is_empty()) {
                return Err(DataError::whole(
                    &file,
                    format!(
                        "step {}: a demo step says what it shows (say: \"...\")",
                        i + 1
                    ),
                ));
            }
            if step.faces.is_some() {
                return Err(DataError::whole(
                    &file,
                    format!(
                        "step {}: a demo throws physically; give a seed, not faces",
                        i + 1
                    ),
                ));
            }
        }
        let scene_path = path
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join(&demo.scene);
        let scene = Scene::load(&scene_path)?;
        Ok(LoadedDemo {
            path: path.to_path_buf(),
            demo,
            scene,
        })
    }

    /// The steps as a script.
    pub fn script(&self) -> Script {
        Script {
            seed: self.demo.seed,
            steps: self.demo.steps.clone(),
        }
    }

    /// The seed step `i` is thrown with.
    pub fn step_seed(&self, i: usize) -> u64 {
        self.demo
            .steps
            .get(i)
            .and_then(|s| s.seed)
            .unwrap_or(self.demo.seed.wrapping_add(i as u64))
    }

    /// A fresh table for the demo's scene.
    pub fn table(&self, book: &Rulebook) -> TableState {
        TableState::new(&self.scene, book, self.demo.seed)
    }

    /// The ruleset it demonstrates.
    pub fn ruleset(&self) -> RulesetId {
        self.scene.ruleset()
    }
}

/// The demo file `name` stands for: a ruleset's or another demo's name (`scenes/demos/<name>.ron`),
/// or the path of a demo file.
pub fn demo_path(name: &str) -> PathBuf {
    let named = demos_dir().join(format!("{name}.ron"));
    if named.is_file() || !Path::new(name).is_file() {
        named
    } else {
        PathBuf::from(name)
    }
}

/// Where the shipped demos are.
fn demos_dir() -> PathBuf {
    default_dir().join("demos")
}

/// Every demo of `scenes/demos`: the rulesets' own first (in the order of `RulesetId::ALL`),
/// then the others by name.
pub fn demo_files() -> Vec<PathBuf> {
    let own: Vec<PathBuf> = RulesetId::ALL
        .into_iter()
        .map(|id| demo_path(id.as_str()))
        .filter(|p| p.is_file())
        .collect();
    let others: Vec<PathBuf> = crate::rules::scene::scene_files(&demos_dir())
        .into_iter()
        .filter(|p| !own.contains(p))
        .collect();
    own.into_iter().chain(others).collect()
}

/// Plays the demo headless, each step thrown physically with its seed, and checks each step's
/// expectations.
pub fn check(demo: &LoadedDemo, book: &Rulebook) -> Vec<StepReport> {
    let mut table = demo.table(book);
    script::run(&mut table, &demo.script())
}

/// Searches seeds for step `step` (0-based): the steps before it are played with their own
/// seeds, then seeds `from..from + tries` are tried until the step's expectations hold.
/// Returns the first seed found and what it threw.
pub fn seek(
    demo: &LoadedDemo,
    book: &Rulebook,
    step: usize,
    from: u64,
    tries: u64,
) -> Result<Option<(u64, StepReport)>, String> {
    let target = demo
        .demo
        .steps
        .get(step)
        .ok_or_else(|| format!("the demo has {} steps", demo.demo.steps.len()))?;
    let expect = target
        .expect
        .as_ref()
        .ok_or("that step expects nothing: give it an expect to seek")?;
    let mut table = demo.table(book);
    for i in 0..step {
        let r = script::play_move(
            &mut table,
            &demo.demo.steps[i].mv,
            Faces::Physical(demo.step_seed(i)),
        );
        if let Some(e) = r.error {
            return Err(format!("step {}: {e}", i + 1));
        }
    }
    for seed in from..from.saturating_add(tries) {
        let mut t = table.clone();
        let mut r = script::play_move(&mut t, &target.mv, Faces::Physical(seed));
        r.step = step + 1;
        if script::unmet(expect, &r).is_empty() {
            return Ok(Some((seed, r)));
        }
    }
    Ok(None)
}
