//! `system-file`: a game's resolution written as a RON file (a *system file*), played at the table
//! with everything the five rule texts have: moves as forms, the exact odds of every band,
//! resources and tracks within their bounds, the turn, the history, rooms and `verify`.
//!
//! A system file names the characters' traits, the resources each character (or the scene)
//! keeps, the moves (what each throws, in dice notation with the traits and the move's choices
//! filled in; how its faces are read; its outcome bands in the game's own words, and what each
//! band changes) and how turns pass. `docs/system-files.md` walks through writing one. A file
//! is checked when it is read: every error names its line, column and what was expected, and
//! every number and list is bounded (a system file may be anyone's upload to a room).

mod check;
mod digest;
pub mod form;
mod push;
mod read;
mod resources;
mod ruleset;
pub mod seat;
mod template;
#[cfg(test)]
mod tests;

use crate::dice::DieKind;
use crate::dice::marks::{FaceMarks, Mark};
use crate::dice::style::DiceLook;
use crate::rules::Refusal;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use ruleset::SystemFile;
pub use seat::{Move, Table};

/// The largest size (either sign) of any number a system file gives: a trait, a bound, a
/// threshold, a change.
pub const MOST_NUMBER: i64 = 1_000;
/// The most throws a move's exact odds may enumerate (each pool counted once whatever the
/// order of its dice): 12d6 counting sixes is 6,188, 1d6 against 2d10 is 330.
pub const MOST_OUTCOMES: u64 = 20_000;

/// A system file: a game's resolution, as the table plays it. Read through its checks (`check.rs`), so a
/// value of this type has passed every check (names, bounds, templates, bands).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Unchecked", into = "Unchecked")]
pub struct Rules(Unchecked);

impl std::ops::Deref for Rules {
    type Target = Unchecked;
    fn deref(&self) -> &Unchecked {
        &self.0
    }
}

impl From<Rules> for Unchecked {
    fn from(rules: Rules) -> Unchecked {
        rules.0
    }
}

impl TryFrom<Unchecked> for Rules {
    type Error = Refusal;
    /// The checks RON cannot make; the error becomes RON's, at the file's line and column.
    fn try_from(file: Unchecked) -> Result<Rules, Refusal> {
        check::system(&file)?;
        Ok(Rules(file))
    }
}

/// A system file as written, before its checks ([`Rules`] is the checked one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unchecked {
    /// The game's name, for the overlay ("Moves: 2d6 + stat").
    pub name: String,
    /// Where the mechanics come from, credited in the docs and the scene panel.
    #[serde(default)]
    pub credit: String,
    /// One paragraph on how the game resolves things, for the demo and the panel.
    #[serde(default)]
    pub about: String,
    /// The numbers each character has (stats, ratings, attributes).
    #[serde(default)]
    pub traits: Vec<TraitDef>,
    /// What characters (or the scene) keep and spend: stress, harm, momentum, a clock.
    #[serde(default)]
    pub resources: Vec<ResourceDef>,
    /// The game's own dice, whose faces carry marks and count for named values (none: the
    /// game throws numbered dice).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<DieDef>,
    /// Every move a character can make.
    pub moves: Vec<MoveDef>,
    /// How turns pass.
    #[serde(default)]
    pub turn: Turn,
}

/// A number every character has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraitDef {
    /// Its name, as moves and characters write it ("Cool", "Prowl").
    pub name: String,
    /// The least it may be.
    #[serde(deserialize_with = "bounded")]
    pub least: i64,
    /// The most it may be.
    #[serde(deserialize_with = "bounded")]
    pub most: i64,
}

/// Who keeps a resource.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Holder {
    /// Each character has its own.
    #[default]
    Character,
    /// One for the whole scene (a clock, a threat track).
    Scene,
}

/// A resource or track, with its bounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceDef {
    /// Its name ("stress", "momentum", "alarm").
    pub name: String,
    /// Who keeps it.
    #[serde(default)]
    pub per: Holder,
    /// The least it may be.
    #[serde(deserialize_with = "bounded")]
    pub least: i64,
    /// The most it may be.
    #[serde(deserialize_with = "bounded")]
    pub most: i64,
    /// What it starts at (a character may start elsewhere: its `start`).
    #[serde(default)]
    #[serde(deserialize_with = "bounded")]
    pub start: i64,
}

/// A die of the game's own: a shape dicetable throws, and what each face shows and counts for.
/// Checked when it is read (its error lands at the die in the file): a face for each face of
/// the shape, each mark fitting it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "WrittenDie")]
pub struct DieDef {
    /// Its name, as a move's throw writes it (`2d{Ability}`).
    pub name: String,
    /// The physical die it is: D4, D6, D8, D10, D12 or D20.
    pub shape: DieKind,
    /// Each face, face 1 first: what it shows and counts for.
    pub faces: Vec<FaceDef>,
    /// Its own colours and material, whoever throws it (none: the thrower's dice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<DiceLook>,
}

/// A [`DieDef`] as written, before its checks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenDie {
    name: String,
    shape: DieKind,
    faces: Vec<FaceDef>,
    #[serde(default)]
    look: Option<DiceLook>,
}

impl TryFrom<WrittenDie> for DieDef {
    type Error = String;
    fn try_from(w: WrittenDie) -> Result<DieDef, String> {
        if w.name.trim().is_empty() || w.name.chars().count() > 40 || w.name.contains(['{', '}']) {
            return Err(format!(
                "die \"{}\": a die's name has 1 to 40 characters and no braces",
                w.name
            ));
        }
        let own_marks = DieKind::SINGLES.contains(&w.shape)
            || (w.shape.other_size().is_some()
                && !w.shape.is_marked_twice()
                && w.shape.thrown_again_above().is_none());
        if !own_marks {
            return Err(format!(
                "die \"{}\" is a {}: a game's own die is a D4, D6, D8, D10, D12, D14, D16, D18, \
                 D20, D22, D24, D26, D28 or D30",
                w.name,
                w.shape.name()
            ));
        }
        if w.faces.len() != w.shape.faces() as usize {
            return Err(format!(
                "die \"{}\" writes {} faces for a {} of {}",
                w.name,
                w.faces.len(),
                w.shape.name(),
                w.shape.faces()
            ));
        }
        for (i, f) in w.faces.iter().enumerate() {
            f.mark
                .fits(w.shape)
                .map_err(|e| format!("die \"{}\", face {}: {e}", w.name, i + 1))?;
            if f.counts.len() > 8 {
                return Err(format!(
                    "die \"{}\", face {}: a face counts for at most 8 values",
                    w.name,
                    i + 1
                ));
            }
            for (value, n) in &f.counts {
                if value.trim().is_empty()
                    || value.chars().count() > 40
                    || !value
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == ' ' || c == '_')
                {
                    return Err(format!(
                        "die \"{}\", face {}: \"{value}\" is no value's name (letters, digits, spaces, 1 to 40)",
                        w.name,
                        i + 1
                    ));
                }
                within_bounds::<serde::de::value::Error>(*n).map_err(|e| e.to_string())?;
            }
        }
        Ok(DieDef {
            name: w.name,
            shape: w.shape,
            faces: w.faces,
            look: w.look,
        })
    }
}

/// One face of a game's own die.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaceDef {
    /// What it shows.
    #[serde(default)]
    pub mark: Mark,
    /// What it counts for, by value ("success": 1, "advantage": 1); a value may be negative
    /// (a failure cancels a success: "success": -1).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counts: BTreeMap<String, i64>,
    /// How a screen reader and the history say it, where its counts do not say it well.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reads: String,
}

impl FaceDef {
    /// The face in words: its `reads`, or its counts ("success and advantage", "2 threat"),
    /// or its mark ("blank").
    pub fn words(&self) -> String {
        if !self.reads.is_empty() {
            return self.reads.clone();
        }
        let counted: Vec<String> = self
            .counts
            .iter()
            .filter(|(_, n)| **n != 0)
            .map(|(v, n)| match n {
                1 => v.clone(),
                n => format!("{n} {v}"),
            })
            .collect();
        if counted.is_empty() {
            self.mark.words()
        } else {
            crate::text::and_list(&counted)
        }
    }
}

impl DieDef {
    /// The face of a value the die settled on (1 for the first face).
    pub fn face(&self, value: u32) -> Option<&FaceDef> {
        value
            .checked_sub(1)
            .and_then(|i| self.faces.get(i as usize))
    }

    /// Its faces' marks, for the atlases.
    pub fn marks(&self) -> FaceMarks {
        FaceMarks(self.faces.iter().map(|f| f.mark.clone()).collect())
    }
}

/// A move: what it throws, the choices its form offers, how its faces are read, its bands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveDef {
    /// Its name ("Act under pressure"); a move names it.
    pub name: String,
    /// One line on when to make it.
    #[serde(default)]
    pub about: String,
    /// What it throws, in dice notation: `$name` (or `$(a + b - 1)`) puts in a trait of the
    /// actor, a resource of the actor, or a choice of the move.
    pub throw: String,
    /// What it throws instead when `throw` comes to no dice (`0d6kh1`): `2d6kl1`.
    #[serde(default)]
    pub if_no_dice: Option<String>,
    /// Dice thrown beside it that the result is read against: the result is how many of
    /// them the throw's total beats (`2d10` challenge dice).
    #[serde(default)]
    pub against: Option<String>,
    /// For a throw of the game's own dice: the value its result is (the sum of that value
    /// over the faces thrown: "success").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The most the throw's total counts for before it is read against `against` (an
    /// action score of at most 10).
    #[serde(default, deserialize_with = "bounded_cap")]
    pub cap: Option<i64>,
    /// The choices of the move's form.
    #[serde(default)]
    pub choices: Vec<ChoiceDef>,
    /// What the move costs before it is thrown (refused if that would take a resource out
    /// of its bounds).
    #[serde(default)]
    pub costs: Vec<Change>,
    /// The outcome bands, in order: the first whose conditions all hold is the outcome. The
    /// last has no conditions, so every throw has a band.
    pub bands: Vec<Band>,
    /// Whether, and how, the move's last throw may be pushed (thrown again in part).
    #[serde(default)]
    pub push: Option<Push>,
}

/// A choice on a move's form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ChoiceDef {
    /// One of the actor's traits; `$name` is its number.
    Trait {
        /// How the move names it (`$stat`).
        name: String,
        /// What the form calls it.
        label: String,
        /// The traits offered (every trait when empty).
        #[serde(default)]
        of: Vec<String>,
    },
    /// A number within bounds (a difficulty, bonus dice); `$name` is it.
    Number {
        /// How the move names it.
        name: String,
        /// What the form calls it.
        label: String,
        /// The least.
        #[serde(deserialize_with = "bounded")]
        least: i64,
        /// The most.
        #[serde(deserialize_with = "bounded")]
        most: i64,
        /// What it is when the move does not say.
        #[serde(deserialize_with = "bounded")]
        default: i64,
    },
    /// One of a list of options, each putting its words into the throw and perhaps costing.
    Options {
        /// How the move names it.
        name: String,
        /// What the form calls it.
        label: String,
        /// The options; the first is the default.
        options: Vec<OptionDef>,
    },
}

impl ChoiceDef {
    /// How the move names the choice.
    pub fn name(&self) -> &str {
        match self {
            ChoiceDef::Trait { name, .. }
            | ChoiceDef::Number { name, .. }
            | ChoiceDef::Options { name, .. } => name,
        }
    }

    /// What the form calls it.
    pub fn label(&self) -> &str {
        match self {
            ChoiceDef::Trait { label, .. }
            | ChoiceDef::Number { label, .. }
            | ChoiceDef::Options { label, .. } => label,
        }
    }
}

/// One option of a choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionDef {
    /// How it reads ("advantage", "push yourself (2 stress)").
    pub label: String,
    /// What it puts into the throw where `$name` stands: notation (`2d20kh1`) or a number.
    pub value: String,
    /// What choosing it costs.
    #[serde(default)]
    pub costs: Vec<Change>,
}

/// A change to a resource: the actor's own, or the scene's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Change {
    /// The resource.
    pub resource: String,
    /// By how much (up or down).
    #[serde(deserialize_with = "bounded")]
    pub by: i64,
}

/// An outcome band of a move, in the game's own words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    /// Its name ("strong hit", "partial success"): the outcome's class.
    pub name: String,
    /// What it means at the table, one line.
    #[serde(default)]
    pub says: String,
    /// Whether it is a success, a failure or neither (for the odds' chance of success).
    #[serde(default)]
    pub success: Option<bool>,
    /// What must all hold of the throw (none: always).
    #[serde(default)]
    pub when: Vec<Condition>,
    /// What the band changes.
    #[serde(default)]
    pub changes: Vec<Change>,
}

/// A condition on a throw's result or faces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Condition {
    /// The result is at least this.
    AtLeast(Amount),
    /// The result is at most this.
    AtMost(Amount),
    /// At least `at_least` dice of the throw (not the dice read against) show `face`.
    Faces {
        /// The face.
        face: u32,
        /// How many at least.
        at_least: u32,
    },
    /// Every die the throw is read against shows the same face (a match).
    Match,
    /// The throw had dice of its own (not the `if_no_dice` throw).
    WithDice,
    /// The faces of the game's own dice count `value` at least `at_least` times in all.
    Count {
        /// The value ("success").
        value: String,
        /// How many at least.
        #[serde(deserialize_with = "bounded")]
        at_least: i64,
    },
    /// The faces of the game's own dice count `value` at most `at_most` times in all.
    CountAtMost {
        /// The value ("threat").
        value: String,
        /// How many at most.
        #[serde(deserialize_with = "bounded")]
        at_most: i64,
    },
}

/// A number in a condition: written out, or a trait or number choice of the move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Amount {
    /// A number.
    Number(i64),
    /// A trait of the actor or a number choice of the move, by name.
    Named(String),
}

/// How a move's throw is pushed: the dice not showing a kept face are thrown again, once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Push {
    /// What the push is called ("Push the roll").
    pub label: String,
    /// Dice showing this face or more stay; the rest are thrown again.
    pub keep_at_least: u32,
    /// What pushing costs before the throw.
    #[serde(default)]
    pub costs: Vec<Change>,
    /// What each die thrown again costs if it shows a face (each 1: 1 stress).
    #[serde(default)]
    pub per_face: Vec<FaceCost>,
}

/// A cost for each die of a push that shows a face.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaceCost {
    /// The face.
    pub face: u32,
    /// The resource.
    pub resource: String,
    /// By how much, for each such die.
    #[serde(deserialize_with = "bounded")]
    pub by: i64,
}

/// How turns pass at the table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Turn {
    /// Anyone moves whenever the story says: no turns.
    #[default]
    Free,
    /// Each character in the order of the scene; "End turn" passes.
    InOrder,
    /// By an initiative throw, highest first (ties by seat): `Initiative("1d20+$Agility")`.
    Initiative(String),
}

/// A character of a system-file scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Its name.
    pub name: String,
    /// Its traits, by name (a trait not given is the trait's least).
    #[serde(default)]
    pub traits: BTreeMap<String, i64>,
    /// Where its resources start, where not at the system's `start`.
    #[serde(default)]
    pub start: BTreeMap<String, i64>,
    /// Whether the game master plays it.
    #[serde(default)]
    pub npc: bool,
}

/// A number of a system file, refused where it is read (its line and column) when it is past
/// ±[`MOST_NUMBER`].
fn bounded<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    i64::deserialize(d).and_then(within_bounds)
}

/// [`bounded`], for a move's cap.
fn bounded_cap<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Option::<i64>::deserialize(d)?
        .map(within_bounds)
        .transpose()
}

/// A number of a system file as read, or its error when it is past ±[`MOST_NUMBER`].
fn within_bounds<E: serde::de::Error>(n: i64) -> Result<i64, E> {
    if n.abs() > MOST_NUMBER {
        return Err(E::custom(format!(
            "{n} is out of bounds: a system file's numbers are within ±{MOST_NUMBER}"
        )));
    }
    Ok(n)
}

impl Unchecked {
    /// The move of this name.
    pub fn move_named(&self, name: &str) -> Option<&MoveDef> {
        self.moves.iter().find(|m| m.name == name)
    }

    /// The resource of this name.
    pub fn resource(&self, name: &str) -> Option<&ResourceDef> {
        self.resources.iter().find(|r| r.name == name)
    }

    /// The traits a trait choice offers: those `of` names, or every trait when it names none.
    pub fn offered<'a>(&'a self, of: &'a [String]) -> impl Iterator<Item = &'a TraitDef> {
        self.traits
            .iter()
            .filter(move |t| of.is_empty() || of.contains(&t.name))
    }

    /// The game's own die of this name.
    pub fn die_named(&self, name: &str) -> Option<&DieDef> {
        self.dice.iter().find(|d| d.name == name)
    }

    /// The trait of this name.
    pub fn trait_named(&self, name: &str) -> Option<&TraitDef> {
        self.traits.iter().find(|t| t.name == name)
    }
}

impl OptionDef {
    /// What the option puts where `$name` stands: a number, which adds up like one
    /// (`$(rating + push)`), or notation words.
    pub fn filled(&self) -> template::Filled {
        match self.value.trim().parse::<i64>() {
            Ok(n) => template::Filled::Number(n),
            Err(_) => template::Filled::Words(self.value.clone()),
        }
    }
}

impl Character {
    /// The character's number for a trait of `rules` (its least where the character has none).
    pub fn trait_value(&self, rules: &Unchecked, name: &str) -> Option<i64> {
        let def = rules.trait_named(name)?;
        Some(self.traits.get(name).copied().unwrap_or(def.least))
    }
}
