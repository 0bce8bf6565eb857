//! Scenes: who sits at the table, in RON (`scenes/*.ron`). The ruleset comes from the cast:
//! `cast: OpenD6([...])` seats open-d6 characters. A scene may play by rules of its own (a
//! rules file beside it, or the settings inline); otherwise by the shipped ones. Loading checks
//! the RON (file, line, column, what was expected) and then what RON cannot: names, numbers,
//! dice, rules.

use crate::rules::Refusal;
use crate::rules::refusal::refuse;
use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Rulebook;
use super::RulesetId;
use super::bounds::{self, Bounded};
use super::data::{DataError, parse_ron};
use super::ruleset::{Oversized, Ruleset};

pub use super::setup::{Setup, Task};
pub use super::{Cast, SceneRules};

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
    /// The rules it plays by, where they are not the shipped `assets/rules/<ruleset>.ron`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<SceneRules>,
    /// Its characters' own dice, by name (a character not named keeps the room's look, or
    /// takes its player's); a room's members may choose others.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub dice: std::collections::BTreeMap<String, crate::dice::style::DiceLook>,
}

impl SceneRules {
    /// Rules of `id` read from RON text (`file` names it in errors).
    fn parse(id: RulesetId, file: &str, text: &str) -> Result<SceneRules, DataError> {
        Ok(for_ruleset!(id, |R| R::wrap_rules(parse_ron(file, text)?)))
    }

    /// The shipped rules of `id` from `book`.
    pub(crate) fn shipped(book: &Rulebook, id: RulesetId) -> SceneRules {
        for_ruleset!(id, |R| R::wrap_rules(R::rules_in(book).clone()))
    }

    /// The ruleset these rules are for (None: a file not read yet).
    fn ruleset(&self) -> Option<RulesetId> {
        each_of!(SceneRules, self, |_r, R, id| Some(id), else SceneRules::File(_) => None)
    }

    /// Checks what RON cannot (the same checks as the shipped files get, and every number
    /// within the range the rules take: a scene's rules may come from anyone's upload).
    pub(crate) fn validate(&self) -> Result<(), Refusal> {
        bounds::check(self.numbers()).map_err(|e| refuse!(Scene, "{e}"))?;
        each_of!(SceneRules, self, |r, R, _id| R::validate_rules(r), else SceneRules::File(f) => Err(refuse!(
            Scene,
            "File(\"{f}\") names a file, which a scene given as text cannot read: write \
             the rules in the scene (rules: <Ruleset>((...)))"
        )))
    }

    /// Every number of these rules, with the range the rules accept for it.
    fn numbers(&self) -> Vec<Bounded> {
        each_of!(SceneRules, self, |r, R, _id| R::rules_numbers(r), else SceneRules::File(_) => Vec::new())
    }

    /// These rules as JSON (to compare settings by name).
    fn settings(&self) -> serde_json::Value {
        let value = each_of!(SceneRules, self, |r, R, _id| serde_json::to_value(r),
            else SceneRules::File(_) => Ok(serde_json::Value::Null));
        value.unwrap_or(serde_json::Value::Null)
    }
}

impl Scene {
    /// The ruleset of the scene.
    pub fn ruleset(&self) -> RulesetId {
        each_of!(Cast, &self.cast, |_c, R, id| id)
    }

    /// The characters' names, in seat order.
    pub fn names(&self) -> Vec<&str> {
        each_of!(Cast, &self.cast, |cs, R, _id| cs
            .iter()
            .map(R::name)
            .collect())
    }

    /// Whether the players may take seat `index` (false: the game master plays it, or there
    /// is no such seat). A non-player character is `npc: true`; in open-d6 a villain unless
    /// it says otherwise; in d20-check the game master's side.
    pub fn players_play(&self, index: usize) -> bool {
        each_of!(Cast, &self.cast, |cs, R, _id| cs
            .get(index)
            .is_some_and(R::players_play))
    }

    /// Parses scene text; `file` names it in errors. Its rules, if it has its own, are written
    /// in it (a scene given as text cannot read a rules file).
    pub fn parse(file: &str, text: &str) -> Result<Scene, DataError> {
        Scene::parse_as_played(file, text, crate::record::RULES_GENERATION)
    }

    /// [`Scene::parse`] by the checks of rules generation `generation`: a room's scene is read
    /// as the build that opened the room read it, so the room still opens.
    pub fn parse_as_played(file: &str, text: &str, generation: u32) -> Result<Scene, DataError> {
        let scene: Scene = parse_ron(file, text)?;
        scene
            .validate_as_played(generation)
            .map_err(|e| DataError::whole(file, e.text))?;
        Ok(scene)
    }

    /// Reads a scene file, and the rules file it names (relative to its folder) into it.
    pub fn load(path: &Path) -> Result<Scene, DataError> {
        Scene::read(path).map(|(scene, _, _)| scene)
    }

    /// Reads a scene file: the scene, and its text as a room records it (the file's own text,
    /// or, when it names a rules file, the scene written out with those rules in it).
    pub fn load_text(path: &Path) -> Result<(Scene, String), DataError> {
        let (scene, text, named_a_file) = Scene::read(path)?;
        if named_a_file {
            let written = scene.to_text()?;
            Ok((scene, written))
        } else {
            Ok((scene, text))
        }
    }

    /// Reads a scene file once: the scene with its rules file read into it, the file's text,
    /// and whether it named a rules file.
    fn read(path: &Path) -> Result<(Scene, String, bool), DataError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| DataError::whole(&name, format!("cannot read: {e}")))?;
        let mut scene: Scene = parse_ron(&name, &text)?;
        let named_a_file = matches!(scene.rules, Some(SceneRules::File(_)));
        if let Some(SceneRules::File(file)) = &scene.rules {
            // A file named without a folder (`scene.ron`) is in the current one.
            let folder = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let rules_path = folder.join(file);
            let rules_name = rules_path.display().to_string();
            // Only a file inside the scene's own folder: a scene offered by a server (`serve
            // --scenes`) must not read whatever the server's user can.
            let inside = match (folder.canonicalize(), rules_path.canonicalize()) {
                (Ok(folder), Ok(rules)) => rules.starts_with(&folder),
                // A file that is not there is reported as such below.
                (_, Err(_)) => true,
                (Err(_), Ok(_)) => false,
            };
            if !inside {
                return Err(DataError::whole(
                    &name,
                    format!(
                        "its rules file {rules_name} is outside the scene's folder: a scene reads rules files beside it or below"
                    ),
                ));
            }
            let rules_text = std::fs::read_to_string(&rules_path).map_err(|e| {
                DataError::whole(
                    &name,
                    format!("cannot read its rules file {rules_name}: {e}"),
                )
            })?;
            let rules = SceneRules::parse(scene.ruleset(), &rules_name, &rules_text)?;
            rules
                .validate()
                .map_err(|e| DataError::whole(&rules_name, e.text))?;
            scene.rules = Some(rules);
        }
        scene
            .validate()
            .map_err(|e| DataError::whole(&name, e.text))?;
        Ok((scene, text, named_a_file))
    }

    /// The scene as RON text that stands on its own (its rules written in): what a room's log
    /// records.
    pub fn to_text(&self) -> Result<String, DataError> {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| DataError::whole(&self.name, format!("cannot be written: {e}")))
    }

    /// The rules this scene plays by: `shipped`, with its own in place of its ruleset's.
    pub fn rulebook(&self, shipped: &Rulebook) -> Rulebook {
        let mut book = shipped.clone();
        if let Some(rules) = &self.rules {
            each_of!(SceneRules, rules, |r, R, _id| *R::rules_in_mut(&mut book) = r.clone(),
                else SceneRules::File(_) => {});
        }
        book
    }

    /// Which rules the scene plays by, in words for the scene picker and the front page:
    /// "shipped rules", or its own and the settings that differ from the shipped ones.
    pub fn rules_in_words(&self) -> String {
        let Some(own) = &self.rules else {
            return "shipped rules".to_string();
        };
        let book = Rulebook::builtin().ok();
        let named = each_of!(SceneRules, own, |r, R, _id| book
            .as_ref()
            .and_then(|b| R::rules_in_words(r, R::rules_in(b))),
            else SceneRules::File(_) => None);
        if let Some(words) = named {
            return words;
        }
        let shipped = book.map(|book| SceneRules::shipped(&book, self.ruleset()).settings());
        let differ: Vec<String> = match (own.settings(), shipped) {
            (serde_json::Value::Object(own), Some(serde_json::Value::Object(shipped))) => own
                .iter()
                .filter(|(k, v)| shipped.get(*k) != Some(v))
                .map(|(k, _)| k.clone())
                .collect(),
            _ => Vec::new(),
        };
        if differ.is_empty() {
            "its own rules, as shipped".to_string()
        } else {
            format!("its own rules: {}", differ.join(", "))
        }
    }

    /// Checks what RON cannot.
    pub fn validate(&self) -> Result<(), Refusal> {
        self.validate_as_played(crate::record::RULES_GENERATION)
    }

    /// [`Scene::validate`] by the checks of rules generation `generation` (the first did not
    /// hold resource dice to the chain).
    pub fn validate_as_played(&self, generation: u32) -> Result<(), Refusal> {
        if let Some(rules) = &self.rules {
            rules.validate().map_err(|e| e.within("rules"))?;
            if let Some(id) = rules.ruleset()
                && id != self.ruleset()
            {
                return Err(refuse!(
                    Scene,
                    "rules: the scene's rules are {id} rules but its cast plays {}",
                    self.ruleset()
                ));
            }
        }
        let names = self.names();
        if let Some(stranger) = self.dice.keys().find(|n| !names.contains(&n.as_str())) {
            return Err(refuse!(
                Scene,
                "dice: {stranger} is not in the cast ({})",
                names.join(", ")
            ));
        }
        let reads = for_ruleset!(self.ruleset(), |R| R::SETUP);
        if let Some(field) = self
            .setup
            .set_fields()
            .into_iter()
            .find(|f| !reads.contains(f))
        {
            let readers: Vec<&str> = RulesetId::ALL
                .into_iter()
                .filter(|id| for_ruleset!(*id, |R| R::SETUP).contains(&field))
                .map(RulesetId::as_str)
                .collect();
            return Err(refuse!(
                Scene,
                "setup: {field} is an option of {} scenes only",
                readers.join(" and ")
            ));
        }
        if let Some(t) = self
            .setup
            .tasks
            .iter()
            .find(|t| t.successes == 0 || t.failures == 0)
        {
            return Err(refuse!(
                Scene,
                "task {} needs at least one success and one failure to end",
                t.name
            ));
        }
        let names = self.names();
        if names.is_empty() {
            return Err(refuse!(
                Scene,
                "the scene seats nobody: give the cast at least one character"
            ));
        }
        let mut seen = BTreeSet::new();
        for n in &names {
            if n.trim().is_empty() {
                return Err(refuse!(Scene, "a character has an empty name"));
            }
            if !seen.insert(n.trim().to_lowercase()) {
                return Err(refuse!(Scene, "two characters are called '{n}'"));
            }
        }
        bounds::check(self.numbers()).map_err(|e| refuse!(Scene, "{e}"))?;
        let book = self.rulebook(&Rulebook::builtin().map_err(|e| refuse!(Scene, "{e}"))?);
        each_of!(Cast, &self.cast, |cs, R, _id| R::validate_cast(
            cs,
            R::rules_in(&book),
            generation
        ))
    }
}

/// The most characters an uploaded scene seats: a room's page lists them all, and every draft's
/// answer carries the tracker's row of each.
pub const MOST_CAST: usize = 64;
/// The most characters of an uploaded scene's character names (each is in the tracker's rows
/// and in the lines of what changed), as long as a room's name.
pub const NAME_CHARS: usize = 64;

impl Scene {
    /// The limits a scene is held to when it is uploaded (a room's, on the server), beyond
    /// [`Scene::validate`]: at most [`MOST_CAST`] characters, names of at most [`NAME_CHARS`]
    /// characters that show as written, and its own rules' lists and names
    /// ([`Ruleset::upload_limits`]). A room's stored scene is never refused by them (they are
    /// checked at upload only), so no log made before them stops opening. The error names the
    /// line and column of `text` where the first thing over a limit is written.
    pub fn check_upload(&self, file: &str, text: &str) -> Result<(), DataError> {
        let names = self.names();
        let oversized = if names.len() > MOST_CAST {
            Some(Oversized {
                what: format!(
                    "{} characters: a scene seats at most {MOST_CAST}",
                    names.len()
                ),
                near: names[MOST_CAST].to_string(),
            })
        } else if let Some(long) = names.iter().find(|n| n.chars().count() > NAME_CHARS) {
            Some(Oversized {
                what: format!("a character's name is over {NAME_CHARS} characters"),
                near: long.to_string(),
            })
        } else if let Some(odd) = names.iter().find(|n| !crate::text::shows_as_is(n)) {
            Some(Oversized {
                what: "a character's name may not hold control, format or line-break \
                       characters (escape codes, direction overrides, newlines)"
                    .into(),
                near: odd.to_string(),
            })
        } else {
            match &self.rules {
                Some(rules) => each_of!(SceneRules, rules, |r, R, _id| R::upload_limits(r),
                    else SceneRules::File(_) => Ok(()))
                .err(),
                None => None,
            }
        };
        match oversized {
            None => Ok(()),
            Some(o) => {
                let (line, column) = place_of(text, &o.near);
                Err(DataError {
                    file: file.to_string(),
                    line,
                    column,
                    message: crate::text::one_line(&o.what),
                })
            }
        }
    }
}

/// The line and column (from 1) where `"name"` is first written in `text`; (0, 0) where it is
/// not (an error about the whole text).
fn place_of(text: &str, name: &str) -> (usize, usize) {
    let quoted = format!("{:?}", name);
    let Some(at) = text.find(&quoted).or_else(|| text.find(name)) else {
        return (0, 0);
    };
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

impl Scene {
    /// Every number the cast gives, with the range the rules accept for it.
    fn numbers(&self) -> Vec<Bounded> {
        each_of!(Cast, &self.cast, |cs, R, _id| R::cast_numbers(cs))
    }
}

/// The scenes that ship with the program, compiled in (every `.ron` file of the folder
/// `scenes/` of the repository, listed by `build.rs`): a binary installed anywhere has them.
pub const SHIPPED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/shipped_scenes.rs"));

/// The folder of scene files: `scenes/` here when there is one (a checkout, or a folder of the
/// user's own), else the user's data folder's `scenes/`, where the shipped scenes are written
/// the first time (one at a time, never over a file already there: edits stay, and a file
/// deleted comes back as shipped at the next start).
///
/// Found, and the shipped scenes written, once a process: the window, the server and the demos
/// ask for it many times.
pub fn default_dir() -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let here = Path::new("scenes");
        if here.is_dir() {
            return here.to_path_buf();
        }
        let dir = crate::folders::data_dir()
            .unwrap_or_else(std::env::temp_dir)
            .join("scenes");
        if let Err(e) = unpack_shipped(&dir) {
            eprintln!(
                "the shipped scenes could not be written to {}: {e}",
                dir.display()
            );
        }
        dir
    })
    .clone()
}

/// Writes each shipped scene missing from `dir`.
pub fn unpack_shipped(dir: &Path) -> std::io::Result<()> {
    for (name, text) in SHIPPED {
        let path = dir.join(name);
        if path.exists() {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, text)?;
    }
    Ok(())
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
mod tests;
