//! Scenes: who sits at the table, in RON (`scenes/*.ron`). The ruleset comes from the cast:
//! `cast: OpenD6([...])` seats open-d6 characters. Loading checks the RON (file, line, column,
//! what was expected) and then what RON cannot: names, numbers, dice.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::bounds::{self, Bounded, MOST_COUNT};
use super::data::{DataError, load_ron, parse_ron};
use super::{RulesetId, action_dice, d4_pool, d20_check, open_d6, step_dice};

/// The characters of a scene, by ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Cast {
    /// `d4-pool` characters.
    D4Pool(Vec<d4_pool::Character>),
    /// `action-dice` characters.
    ActionDice(Vec<action_dice::Character>),
    /// `step-dice` characters.
    StepDice(Vec<step_dice::Character>),
    /// `open-d6` characters.
    OpenD6(Vec<open_d6::Character>),
    /// `d20-check` characters.
    D20Check(Vec<d20_check::Character>),
}

/// A scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Its title.
    pub name: String,
    /// What is going on, for the overlay.
    #[serde(default)]
    pub description: String,
    /// Who sits at the table (and so which ruleset).
    pub cast: Cast,
    /// How the scene is played, where its ruleset offers a choice.
    #[serde(default)]
    pub setup: Setup,
}

/// Scene options of some rulesets.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// `open-d6`: simplified initiative (one action each per round, highest Reflexes first).
    #[serde(default)]
    pub simplified_initiative: bool,
    /// `d20-check`: tasks that take several checks (Extended).
    #[serde(default)]
    pub tasks: Vec<d20_check::Task>,
}

impl Scene {
    /// The ruleset of the scene.
    pub fn ruleset(&self) -> RulesetId {
        match self.cast {
            Cast::D4Pool(_) => RulesetId::D4Pool,
            Cast::ActionDice(_) => RulesetId::ActionDice,
            Cast::StepDice(_) => RulesetId::StepDice,
            Cast::OpenD6(_) => RulesetId::OpenD6,
            Cast::D20Check(_) => RulesetId::D20Check,
        }
    }

    /// The characters' names, in seat order.
    pub fn names(&self) -> Vec<&str> {
        match &self.cast {
            Cast::D4Pool(c) => c.iter().map(|c| c.name.as_str()).collect(),
            Cast::ActionDice(c) => c.iter().map(|c| c.name.as_str()).collect(),
            Cast::StepDice(c) => c.iter().map(|c| c.name.as_str()).collect(),
            Cast::OpenD6(c) => c.iter().map(|c| c.name.as_str()).collect(),
            Cast::D20Check(c) => c.iter().map(|c| c.name.as_str()).collect(),
        }
    }

    /// Whether the players may take seat `index` (false: the game master plays it, or there
    /// is no such seat). A non-player character is `npc: true`; in open-d6 a villain unless
    /// it says otherwise; in d20-check the game master's side.
    pub fn players_play(&self, index: usize) -> bool {
        match &self.cast {
            Cast::D4Pool(c) => c.get(index).is_some_and(|c| !c.npc),
            Cast::ActionDice(c) => c.get(index).is_some_and(|c| !c.npc),
            Cast::StepDice(c) => c.get(index).is_some_and(|c| !c.npc),
            Cast::OpenD6(c) => c.get(index).is_some_and(|c| !c.is_npc()),
            Cast::D20Check(c) => c
                .get(index)
                .is_some_and(|c| c.side == d20_check::Side::Players),
        }
    }

    /// Parses scene text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Scene, DataError> {
        let scene: Scene = parse_ron(file, text)?;
        scene.validate().map_err(|e| DataError::whole(file, e))?;
        Ok(scene)
    }

    /// Reads a scene file.
    pub fn load(path: &Path) -> Result<Scene, DataError> {
        let scene: Scene = load_ron(path)?;
        scene
            .validate()
            .map_err(|e| DataError::whole(&path.display().to_string(), e))?;
        Ok(scene)
    }

    /// Checks what RON cannot.
    pub fn validate(&self) -> Result<(), String> {
        if self.setup.simplified_initiative && self.ruleset() != RulesetId::OpenD6 {
            return Err("setup: simplified_initiative is an open-d6 option".into());
        }
        if !self.setup.tasks.is_empty() && self.ruleset() != RulesetId::D20Check {
            return Err("setup: tasks are a d20-check option".into());
        }
        if let Some(t) = self
            .setup
            .tasks
            .iter()
            .find(|t| t.successes == 0 || t.failures == 0)
        {
            return Err(format!(
                "task {} needs at least one success and one failure to end",
                t.name
            ));
        }
        let names = self.names();
        if names.is_empty() {
            return Err("the scene seats nobody: give the cast at least one character".into());
        }
        let mut seen = BTreeSet::new();
        for n in &names {
            if n.trim().is_empty() {
                return Err("a character has an empty name".into());
            }
            if !seen.insert(n.trim().to_lowercase()) {
                return Err(format!("two characters are called '{n}'"));
            }
        }
        bounds::check(self.numbers()).map_err(|e| e.to_string())?;
        match &self.cast {
            Cast::D4Pool(cs) => {
                for c in cs {
                    if c.aspects.is_empty() {
                        return Err(format!("{} has no Aspects", c.name));
                    }
                }
            }
            Cast::ActionDice(cs) => {
                for c in cs {
                    if c.action_dice == 0 {
                        return Err(format!(
                            "{} has no action dice; everyone has at least one",
                            c.name
                        ));
                    }
                    let known = |s: &String| c.skills.contains_key(s);
                    if let Some(s) = c.hand_to_hand.iter().chain(&c.ranged).find(|s| !known(s)) {
                        return Err(format!(
                            "{} lists combat skill '{s}' that is not among its skills",
                            c.name
                        ));
                    }
                }
            }
            Cast::StepDice(cs) => {
                for c in cs {
                    if let Some((s, d)) = c
                        .skills
                        .iter()
                        .find(|(_, d)| ![4, 6, 8, 10, 12].contains(&d.sides()))
                    {
                        return Err(format!(
                            "{}'s skill set {s} is a {d}; skill dice are d4 to d12",
                            c.name
                        ));
                    }
                }
            }
            Cast::OpenD6(_) => {}
            Cast::D20Check(cs) => {
                for side in [d20_check::Side::Players, d20_check::Side::Gamemaster] {
                    if !cs.iter().any(|c| c.side == side) {
                        return Err(format!(
                            "nobody sits on the {side:?} side; initiative needs both"
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

impl Scene {
    /// Every number the cast gives, with the range the rules accept for it.
    fn numbers(&self) -> Vec<Bounded> {
        let mut out = Vec::new();
        match &self.cast {
            Cast::D4Pool(cs) => {
                for c in cs {
                    let n = &c.name;
                    for (a, v) in &c.aspects {
                        out.push(Bounded::within(
                            format!("{n}'s Aspect {a}"),
                            i128::from(*v),
                            -MOST_COUNT,
                            MOST_COUNT,
                        ));
                    }
                    out.push(Bounded::number(
                        format!("{n}'s action_point_bonus"),
                        i64::from(c.action_point_bonus),
                    ));
                    out.push(Bounded::number(format!("{n}'s evasion"), c.evasion));
                    for (w, dice) in &c.weapons {
                        out.push(Bounded::count(
                            format!("{n}'s dice of weapon {w}"),
                            dice.len() as u64,
                        ));
                    }
                }
            }
            Cast::ActionDice(cs) => {
                for c in cs {
                    let n = &c.name;
                    out.push(Bounded::count(format!("{n}'s action_dice"), c.action_dice));
                    for r in c.limited.iter().chain(&c.specialized) {
                        out.push(Bounded::count(format!("{n}'s {} dice", r.name), r.count));
                    }
                    for (s, d) in c.skills.iter().chain(&c.abilities) {
                        out.push(Bounded::count(format!("{n}'s dice in {s}"), *d));
                    }
                }
            }
            Cast::StepDice(cs) => {
                for c in cs {
                    out.push(Bounded::count(format!("{}'s grit", c.name), c.grit));
                }
            }
            Cast::OpenD6(cs) => {
                for c in cs {
                    let n = &c.name;
                    out.push(Bounded::number(format!("{n}'s reflexes"), c.reflexes));
                    out.push(Bounded::count(format!("{n}'s stances"), c.stances));
                    out.push(Bounded::count(format!("{n}'s fortune"), c.fortune));
                    for (s, v) in &c.skills {
                        out.push(Bounded::number(format!("{n}'s skill {s}"), *v));
                    }
                }
            }
            Cast::D20Check(cs) => {
                for c in cs {
                    let n = &c.name;
                    out.push(Bounded::number(format!("{n}'s proficiency"), c.proficiency));
                    out.push(Bounded::number(
                        format!("{n}'s dex_modifier"),
                        c.dex_modifier,
                    ));
                    for (m, v) in &c.modifiers {
                        out.push(Bounded::number(format!("{n}'s modifier {m}"), *v));
                    }
                }
            }
        }
        out
    }
}

/// The folder of scene files: `scenes/` here, or the one the program was built from.
pub fn default_dir() -> std::path::PathBuf {
    let here = Path::new("scenes");
    if here.is_dir() {
        here.to_path_buf()
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
    }
}

/// The scene files of a folder, sorted by name.
pub fn scene_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> Vec<(std::path::PathBuf, Scene)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        scene_files(&dir)
            .into_iter()
            .map(|p| {
                let s = Scene::load(&p).unwrap_or_else(|e| panic!("{e}"));
                (p, s)
            })
            .collect()
    }

    #[test]
    fn numbers_out_of_range_in_a_scene_are_refused_with_the_field() {
        let mut scene = crate::rules::testing::scene("d4-pool-goblin-ambush.ron");
        if let Cast::D4Pool(cs) = &mut scene.cast {
            cs[0].aspects.insert("Finesse".into(), i32::MAX);
        }
        assert_eq!(
            scene.validate(),
            Err("Vex the Rogue's Aspect Finesse is 2147483647: it must be from -100 to 100".into())
        );
        let mut scene = crate::rules::testing::scene("open-d6-fred-and-peter.ron");
        if let Cast::OpenD6(cs) = &mut scene.cast {
            cs[0].reflexes = i64::MAX;
        }
        assert_eq!(
            scene.validate(),
            Err("Fred's reflexes is 9223372036854775807: it must be from -1000 to 1000".into())
        );
    }

    #[test]
    fn every_shipped_scene_loads_and_every_ruleset_has_one() {
        let scenes = shipped();
        let rulesets: BTreeSet<RulesetId> = scenes.iter().map(|(_, s)| s.ruleset()).collect();
        assert_eq!(rulesets.len(), 5, "{rulesets:?}");
    }

    #[test]
    fn the_rule_texts_examples_are_seated() {
        let names: Vec<String> = shipped()
            .iter()
            .flat_map(|(_, s)| s.names().into_iter().map(String::from).collect::<Vec<_>>())
            .collect();
        for who in [
            "Fred",
            "Peter",
            "Vex the Rogue",
            "Goblin",
            "Sir Aldric",
            "Mirelle the Magician",
        ] {
            assert!(
                names.iter().any(|n| n == who),
                "{who} is missing: {names:?}"
            );
        }
    }

    #[test]
    fn the_documented_example_is_a_valid_scene() {
        let block = crate::rules::testing::docs_ron_block("cast:");
        let scene = Scene::parse("docs/systems.md", block).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(scene.ruleset(), RulesetId::OpenD6);
        assert_eq!(scene.names(), vec!["Fred", "Peter", "Goons"]);
    }

    #[test]
    fn bad_scenes_are_reported_with_place_or_reason() {
        let err = Scene::parse(
            "scenes/bad.ron",
            "(name: \"x\", cast: OpenD6([(name: \"A\", reflexes: \"fast\")]))",
        )
        .expect_err("must fail");
        assert_eq!((err.file.as_str(), err.line), ("scenes/bad.ron", 1));
        assert!(err.column > 30, "{err}");
        let err = Scene::parse(
            "scenes/twice.ron",
            "(name: \"x\", cast: OpenD6([(name: \"A\", reflexes: 5), (name: \"a\", reflexes: 6)]))",
        )
        .expect_err("must fail");
        assert!(err.message.contains("two characters"), "{err}");
        let err = Scene::parse(
            "s.ron",
            "(name: \"x\", cast: D20Check([(name: \"A\", side: Players, proficiency: 2)]))",
        )
        .expect_err("must fail");
        assert!(err.message.contains("Gamemaster"), "{err}");
        let err = Scene::parse(
            "s.ron",
            "(name: \"x\", cast: StepDice([(name: \"A\", skills: [(\"Locks\", \"d20\")])]))",
        )
        .expect_err("must fail");
        assert!(err.message.contains("d4 to d12"), "{err}");
    }
}
