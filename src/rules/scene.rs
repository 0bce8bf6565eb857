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

use super::bounds::{self, Bounded, MOST_COUNT};
use super::data::{DataError, parse_ron};
use super::engine::Rulebook;
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
    /// The rules it plays by, where they are not the shipped `assets/rules/<ruleset>.ron`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<SceneRules>,
}

/// A scene's own rules: a file of the ruleset's rules (as `assets/rules/<ruleset>.ron`), or
/// those rules written in the scene. A scene read from a file has its file's rules read into
/// it, so it carries them wherever it goes (a room's log, a record).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SceneRules {
    /// A rules file, its path relative to the scene file's folder.
    File(String),
    /// `d4-pool` rules.
    D4Pool(d4_pool::Rules),
    /// `action-dice` rules.
    ActionDice(action_dice::Rules),
    /// `step-dice` rules.
    StepDice(step_dice::Rules),
    /// `open-d6` rules.
    OpenD6(open_d6::Rules),
    /// `d20-check` rules.
    D20Check(d20_check::Rules),
}

impl SceneRules {
    /// Rules of `id` read from RON text (`file` names it in errors).
    fn parse(id: RulesetId, file: &str, text: &str) -> Result<SceneRules, DataError> {
        Ok(match id {
            RulesetId::D4Pool => SceneRules::D4Pool(parse_ron(file, text)?),
            RulesetId::ActionDice => SceneRules::ActionDice(parse_ron(file, text)?),
            RulesetId::StepDice => SceneRules::StepDice(parse_ron(file, text)?),
            RulesetId::OpenD6 => SceneRules::OpenD6(parse_ron(file, text)?),
            RulesetId::D20Check => SceneRules::D20Check(parse_ron(file, text)?),
        })
    }

    /// The shipped rules of `id` from `book`.
    pub(crate) fn shipped(book: &Rulebook, id: RulesetId) -> SceneRules {
        match id {
            RulesetId::D4Pool => SceneRules::D4Pool(book.d4_pool.clone()),
            RulesetId::ActionDice => SceneRules::ActionDice(book.action_dice.clone()),
            RulesetId::StepDice => SceneRules::StepDice(book.step_dice.clone()),
            RulesetId::OpenD6 => SceneRules::OpenD6(book.open_d6.clone()),
            RulesetId::D20Check => SceneRules::D20Check(book.d20_check.clone()),
        }
    }

    /// The ruleset these rules are for (None: a file not read yet).
    fn ruleset(&self) -> Option<RulesetId> {
        match self {
            SceneRules::File(_) => None,
            SceneRules::D4Pool(_) => Some(RulesetId::D4Pool),
            SceneRules::ActionDice(_) => Some(RulesetId::ActionDice),
            SceneRules::StepDice(_) => Some(RulesetId::StepDice),
            SceneRules::OpenD6(_) => Some(RulesetId::OpenD6),
            SceneRules::D20Check(_) => Some(RulesetId::D20Check),
        }
    }

    /// Checks what RON cannot (the same checks as the shipped files get, and every number
    /// within the range the rules take: a scene's rules may come from anyone's upload).
    pub(crate) fn validate(&self) -> Result<(), Refusal> {
        bounds::check(self.numbers()).map_err(|e| refuse!(Scene, "{e}"))?;
        match self {
            SceneRules::File(f) => Err(refuse!(
                Scene,
                "File(\"{f}\") names a file, which a scene given as text cannot read: write \
                 the rules in the scene (rules: <Ruleset>((...)))"
            )),
            SceneRules::StepDice(r) => r.validate(),
            SceneRules::OpenD6(r) => r.validate(),
            SceneRules::D20Check(r) => r.validate(),
            SceneRules::D4Pool(_) | SceneRules::ActionDice(_) => Ok(()),
        }
    }

    /// Every number of these rules, with the range the rules accept for it.
    fn numbers(&self) -> Vec<Bounded> {
        let mut out = Vec::new();
        match self {
            SceneRules::File(_) => {}
            SceneRules::D4Pool(r) => {
                for (name, kind) in &r.costs {
                    out.push(Bounded::number(
                        format!("the cost of {name}"),
                        i64::from(kind.cost),
                    ));
                }
            }
            SceneRules::ActionDice(r) => {
                out.push(Bounded::number("base_defense", r.base_defense));
                out.push(Bounded::count("noncombat_dice", r.noncombat_dice));
                for level in r.action_dice_levels.keys() {
                    out.push(Bounded::count("a level of action_dice_levels", *level));
                }
                out.push(Bounded::within(
                    "unit_m",
                    i128::from(r.unit_m),
                    1,
                    bounds::MOST_NUMBER,
                ));
                out.push(Bounded::number("range_penalty", r.range_penalty));
            }
            SceneRules::StepDice(r) => {
                out.push(Bounded::number("marginal_max", r.marginal_max));
                out.push(Bounded::number("complete_max", r.complete_max));
                out.push(Bounded::count("teamwork_grit", r.teamwork_grit));
            }
            SceneRules::OpenD6(r) => {
                for (kind, cost) in &r.costs {
                    if let open_d6::Cost::Shots(n) = cost {
                        out.push(Bounded::count(format!("the shots of {kind:?}"), *n));
                    }
                }
                out.push(Bounded::count("surprise_shots", r.surprise_shots));
                out.push(Bounded::number("min_first_shot", r.min_first_shot));
                out.push(Bounded::number("max_assist_bonus", r.max_assist_bonus));
                out.push(Bounded::number(
                    "active_defense_bonus",
                    r.active_defense_bonus,
                ));
                out.push(Bounded::count(
                    "npc_limit_break_shots",
                    r.npc_limit_break_shots,
                ));
                out.push(Bounded::number("advantage_bonus", r.advantage_bonus));
                out.push(Bounded::number("routine_difficulty", r.routine_difficulty));
            }
            SceneRules::D20Check(r) => {
                for (name, dc) in &r.dc_table {
                    out.push(Bounded::number(format!("the DC of {name}"), *dc));
                }
                out.push(Bounded::number("gm_modifier's least", r.gm_modifier.0));
                out.push(Bounded::number("gm_modifier's most", r.gm_modifier.1));
                out.push(Bounded::number("dc_min", r.dc_min));
                out.push(Bounded::number("dc_max", r.dc_max));
                out.push(Bounded::number("play_the_odds_dc", r.play_the_odds_dc));
                out.push(Bounded::number(
                    "mundane_performance",
                    r.mundane_performance,
                ));
                out.push(Bounded::count("resource_step_on", r.resource_step_on));
            }
        }
        out
    }

    /// These rules as JSON (to compare settings by name).
    fn settings(&self) -> serde_json::Value {
        let value = match self {
            SceneRules::File(_) => Ok(serde_json::Value::Null),
            SceneRules::D4Pool(r) => serde_json::to_value(r),
            SceneRules::ActionDice(r) => serde_json::to_value(r),
            SceneRules::StepDice(r) => serde_json::to_value(r),
            SceneRules::OpenD6(r) => serde_json::to_value(r),
            SceneRules::D20Check(r) => serde_json::to_value(r),
        };
        value.unwrap_or(serde_json::Value::Null)
    }
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
            let folder = path.parent().unwrap_or(Path::new("."));
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
        match &self.rules {
            Some(SceneRules::D4Pool(r)) => book.d4_pool = r.clone(),
            Some(SceneRules::ActionDice(r)) => book.action_dice = r.clone(),
            Some(SceneRules::StepDice(r)) => book.step_dice = r.clone(),
            Some(SceneRules::OpenD6(r)) => book.open_d6 = r.clone(),
            Some(SceneRules::D20Check(r)) => book.d20_check = r.clone(),
            Some(SceneRules::File(_)) | None => {}
        }
        book
    }

    /// Which rules the scene plays by, in words for the scene picker and the front page:
    /// "shipped rules", or its own and the settings that differ from the shipped ones.
    pub fn rules_in_words(&self) -> String {
        let Some(own) = &self.rules else {
            return "shipped rules".to_string();
        };
        let shipped = Rulebook::builtin()
            .ok()
            .map(|book| SceneRules::shipped(&book, self.ruleset()).settings());
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
        if self.setup.simplified_initiative && self.ruleset() != RulesetId::OpenD6 {
            return Err(refuse!(
                Scene,
                "setup: simplified_initiative is an open-d6 option"
            ));
        }
        if !self.setup.tasks.is_empty() && self.ruleset() != RulesetId::D20Check {
            return Err(refuse!(Scene, "setup: tasks are a d20-check option"));
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
        match &self.cast {
            Cast::D4Pool(cs) => {
                for c in cs {
                    if c.aspects.is_empty() {
                        return Err(refuse!(Scene, "{} has no Aspects", c.name));
                    }
                }
            }
            Cast::ActionDice(cs) => {
                for c in cs {
                    if c.action_dice == 0 {
                        return Err(refuse!(
                            Scene,
                            "{} has no action dice; everyone has at least one",
                            c.name
                        ));
                    }
                    if let Some((a, most)) = c
                        .ability_max
                        .iter()
                        .find(|(a, most)| !c.abilities.contains_key(*a) || **most == 0)
                    {
                        return Err(if *most == 0 && c.abilities.contains_key(a) {
                            refuse!(
                                Scene,
                                "{}'s ability_max for {a} is 0: an ability adds at least 1 die",
                                c.name
                            )
                        } else {
                            refuse!(
                                Scene,
                                "{}'s ability_max names {a}, which is not among its abilities",
                                c.name
                            )
                        });
                    }
                    let known = |s: &String| c.skills.contains_key(s);
                    if let Some(s) = c.hand_to_hand.iter().chain(&c.ranged).find(|s| !known(s)) {
                        return Err(refuse!(
                            Scene,
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
                        return Err(refuse!(
                            Scene,
                            "{}'s skill set {s} is a {d}; skill dice are d4 to d12",
                            c.name
                        ));
                    }
                }
            }
            Cast::OpenD6(cs) => {
                for c in cs {
                    open_d6_character(c)?;
                }
            }
            Cast::D20Check(cs) => {
                for side in [d20_check::Side::Players, d20_check::Side::Gamemaster] {
                    if !cs.iter().any(|c| c.side == side) {
                        return Err(refuse!(
                            Scene,
                            "nobody sits on the {side:?} side; initiative needs both"
                        ));
                    }
                }
                if generation >= crate::record::CLOSE_READING {
                    self.resources_fit_the_chain(cs)?;
                }
            }
        }
        Ok(())
    }

    /// Each resource die is a die of the chain the scene plays by (its own rules, else the
    /// shipped ones): a d3 in a d4-to-d20 chain would load and be refused only when used.
    fn resources_fit_the_chain(&self, cast: &[d20_check::Character]) -> Result<(), Refusal> {
        let chain = match &self.rules {
            Some(SceneRules::D20Check(rules)) => rules.resource_chain.clone(),
            _ => Rulebook::builtin()
                .map(|book| book.d20_check.resource_chain)
                .map_err(|e| refuse!(Scene, "{e}"))?,
        };
        for c in cast {
            if let Some(r) = c.resources.iter().find(|r| !chain.contains(&r.die)) {
                let dice: Vec<String> = chain.iter().map(ToString::to_string).collect();
                return Err(refuse!(
                    Scene,
                    "{}'s {} is a {}, not a die of the resource chain ({})",
                    c.name,
                    r.name,
                    r.die,
                    dice.join(", ")
                ));
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
                    for (a, most) in &c.ability_max {
                        out.push(Bounded::count(format!("{n}'s ability_max for {a}"), *most));
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
                    if let Some(hits) = c.hits {
                        out.push(Bounded::within(
                            format!("{n}'s hits"),
                            i128::from(hits),
                            1,
                            bounds::MOST_NUMBER,
                        ));
                    }
                    out.push(Bounded::number(format!("{n}'s soak"), c.soak));
                    if let Some(m) = c.move_m {
                        out.push(Bounded::number(format!("{n}'s move_m"), i64::from(m)));
                    }
                    for s in &c.schticks {
                        out.push(Bounded::number(
                            format!("{n}'s schtick {} bonus", s.name),
                            s.bonus,
                        ));
                        for (what, (_, v)) in [("damage", &s.damage), ("resist", &s.resist)]
                            .into_iter()
                            .filter_map(|(w, p)| p.as_ref().map(|p| (w, p)))
                        {
                            out.push(Bounded::number(
                                format!("{n}'s schtick {} {what}", s.name),
                                *v,
                            ));
                        }
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
                    if let Some(defense) = c.defense {
                        out.push(Bounded::number(format!("{n}'s defense"), defense));
                    }
                }
            }
        }
        out
    }
}

/// What RON cannot check of an open-d6 character: its Limitations' friction numbers (1 to 3,
/// one each), the friction faces it is under, and its schticks (each names one of its skills,
/// and only a stance has a type).
fn open_d6_character(c: &open_d6::Character) -> Result<(), Refusal> {
    let n = &c.name;
    let mut numbers = Vec::new();
    for l in &c.limitations {
        if !(1..=3).contains(&l.number) {
            return Err(refuse!(
                Scene,
                "{n}'s Limitation {} has friction number {}: snake-eye Limitations are numbered 1 to 3",
                l.name,
                l.number
            ));
        }
        if numbers.contains(&l.number) {
            return Err(refuse!(
                Scene,
                "{n} has two Limitations numbered {}: each number is one Limitation's",
                l.number
            ));
        }
        numbers.push(l.number);
    }
    if let Some(f) = c.under_friction.iter().find(|f| !(4..=6).contains(*f)) {
        return Err(refuse!(
            Scene,
            "{n} is under friction {f}: the conditions one can be under are the faces 4 to 6 (1 to 3 are Limitations)"
        ));
    }
    let mut names: Vec<&str> = Vec::new();
    for s in &c.schticks {
        if names.contains(&s.name.as_str()) {
            return Err(refuse!(Scene, "{n} has two schticks named {}", s.name));
        }
        names.push(&s.name);
        if s.skill.is_empty() {
            if s.damage.is_none() && s.resist.is_none() {
                return Err(refuse!(
                    Scene,
                    "{n}'s schtick {} does nothing: give the skill it modifies, the damage it \
                     adds (damage: (\"fire\", 2)) or what it resists (resist: (\"fire\", 2))",
                    s.name
                ));
            }
        } else if c.skill(&s.skill).is_none() {
            return Err(refuse!(
                Scene,
                "{n}'s schtick {} modifies {}, which is not among its skills",
                s.name,
                s.skill
            ));
        }
        if s.kind.is_some() && !s.stance {
            return Err(refuse!(
                Scene,
                "{n}'s schtick {} has a type but is not a stance: only stances are typed",
                s.name
            ));
        }
    }
    Ok(())
}

/// The scenes that ship with the program, compiled in (the folder `scenes/` of the
/// repository): a binary installed anywhere has them.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "action-dice-knight-and-magician.ron",
        include_str!("../../scenes/action-dice-knight-and-magician.ron"),
    ),
    (
        "d20-check-crypt.ron",
        include_str!("../../scenes/d20-check-crypt.ron"),
    ),
    (
        "d4-pool-goblin-ambush.ron",
        include_str!("../../scenes/d4-pool-goblin-ambush.ron"),
    ),
    (
        "open-d6-fred-and-peter.ron",
        include_str!("../../scenes/open-d6-fred-and-peter.ron"),
    ),
    (
        "step-dice-vault-dangerous.ron",
        include_str!("../../scenes/step-dice-vault-dangerous.ron"),
    ),
    (
        "step-dice-vault.ron",
        include_str!("../../scenes/step-dice-vault.ron"),
    ),
    (
        "rules/step-dice-dangerous.ron",
        include_str!("../../scenes/rules/step-dice-dangerous.ron"),
    ),
    (
        "demos/action-dice.ron",
        include_str!("../../scenes/demos/action-dice.ron"),
    ),
    (
        "demos/d20-check.ron",
        include_str!("../../scenes/demos/d20-check.ron"),
    ),
    (
        "demos/d4-pool.ron",
        include_str!("../../scenes/demos/d4-pool.ron"),
    ),
    (
        "demos/open-d6.ron",
        include_str!("../../scenes/demos/open-d6.ron"),
    ),
    (
        "demos/step-dice-dangerous.ron",
        include_str!("../../scenes/demos/step-dice-dangerous.ron"),
    ),
    (
        "demos/step-dice.ron",
        include_str!("../../scenes/demos/step-dice.ron"),
    ),
];

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
