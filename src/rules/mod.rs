//! The rules engine: plain Rust, no Bevy, no randomness of its own.
//!
//! A ruleset takes an action, says whether it is allowed, turns it into a [`RollPlan`] (which
//! dice to throw and what each is for), reads the faces that settled into an [`Outcome`] (or a
//! follow-up plan: an open-ended six, a friction check, a tied initiative) and keeps the turn
//! economy of its table. It also gives the exact [`Odds`] of every action before anything is
//! thrown. Faces always come from outside.

#[macro_use]
pub mod registry;

rulesets! {
    /// Pools of d4 limited by Action Load.
    d4_pool::D4Pool = "d4-pool",
    /// Pools of d6 built from action dice spent each 4-second round.
    action_dice::ActionDice = "action-dice",
    /// Highest ability die minus difficulty die, d4 to d12.
    step_dice::StepDice = "step-dice",
    /// Positive minus negative open-ended d6, initiative shots.
    open_d6::OpenD6 = "open-d6",
    /// d20 + proficiency against a DC, resource dice, side initiative.
    d20_check::D20Check = "d20-check",
    /// A game's own resolution written as a RON system file.
    system_file::SystemFile = "system-file",
}

pub mod bounds;
pub mod catalogue;
pub mod data;
pub mod digest;
pub mod engine;
pub mod play;
pub mod refusal;
pub mod ruleset;
pub mod scene;
pub mod setup;
pub mod table;
#[cfg(test)]
pub(crate) mod testing;

use crate::rules::refusal::refuse;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::dice::marks::FaceMarks;
use crate::dice::style::DiceLook;
use crate::errors::ErrorCode;
use crate::odds::{Dist, Prob};
pub use refusal::{Refusal, RefusalKind};

/// Why the rules refuse a move, or cannot read what was thrown for it. The reasons are in the
/// rules' own words, for people; the kind is for programs ([`RulesError::code`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The move is not allowed at the table now, or the faces do not fit the dice the rules
    /// asked for (kind [`RefusalKind::Faces`]: a die's face out of range, a throw of the wrong
    /// number of dice, throws the move did not ask for): its reason, and the rules' words.
    #[error("{0}")]
    Refused(Refusal),
    /// A move of another ruleset than the table plays (a script written for another scene).
    #[error("that move is one of {mv}, and this table plays {table}")]
    OtherRuleset {
        /// The move's ruleset.
        mv: RulesetId,
        /// The table's.
        table: RulesetId,
    },
    /// The move ends a turn, but this table moves on by itself.
    #[error("this table moves on by itself; there is no turn to end")]
    NoTurnToEnd,
    /// A number in the move out of the range the rules accept (a modifier of 2^63, an
    /// Advantage count of 2^32).
    #[error(transparent)]
    OutOfRange(#[from] bounds::OutOfRange),
    /// A throw of more dice than the tray takes at once.
    #[error(
        "the move throws {dice} dice at once (a d100 is two, a d9, d11, d13, d15, d17, d18 or d21 to d30 two); a throw holds at most {most}",
        most = crate::dice::MOST_IN_A_THROW
    )]
    TooManyDice {
        /// How many it asked for.
        dice: usize,
    },
}

impl RulesError {
    /// The stable code of the error, for programs.
    pub fn code(&self) -> ErrorCode {
        match self {
            RulesError::Refused(r) if r.kind == RefusalKind::Faces => ErrorCode::BadFaces,
            RulesError::Refused(_) => ErrorCode::RulesRefused,
            RulesError::OtherRuleset { .. } => ErrorCode::OtherRuleset,
            RulesError::NoTurnToEnd => ErrorCode::NoTurnToEnd,
            RulesError::OutOfRange(_) => ErrorCode::Invalid,
            RulesError::TooManyDice { .. } => ErrorCode::TooManyDice,
        }
    }

    /// Why the rules refused, where they did ([`RulesError::Refused`], and faces that do not
    /// fit): `kind` on the wire beside the code.
    pub fn kind(&self) -> Option<RefusalKind> {
        match self {
            RulesError::Refused(r) => Some(r.kind),
            _ => None,
        }
    }
}

impl From<Refusal> for RulesError {
    /// Every refusal, of whatever kind (a refusal over faces answers the code `bad_faces`).
    fn from(r: Refusal) -> RulesError {
        RulesError::Refused(r)
    }
}

impl RulesetId {
    /// Every id, comma-separated, for messages.
    pub fn listed() -> String {
        let ids: Vec<&str> = RulesetId::ALL.iter().map(|id| id.as_str()).collect();
        ids.join(", ")
    }
}

impl fmt::Display for RulesetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A ruleset id that is none of the list (a CLI argument, a file's field).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset '{0}'; the rulesets are {list}", list = RulesetId::listed())]
pub struct UnknownRuleset(pub String);

/// A die name that is no die of the table (`d7`, `8`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a die: write d4, d6, d8, d10, d12, d20 or d100")]
pub struct NotADie(pub String);

impl FromStr for RulesetId {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RulesetId::ALL
            .into_iter()
            .find(|id| id.as_str() == s.trim())
            .ok_or_else(|| UnknownRuleset(s.to_string()))
    }
}

/// A die size as written in rule data and actions: `"d4"` ... `"d20"`, `"d100"` (or `"d%"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Die(pub u32);

impl Die {
    /// Number of faces.
    pub fn sides(self) -> u32 {
        self.0
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.0)
    }
}

impl FromStr for Die {
    type Err = NotADie;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let digits = t.strip_prefix('d').unwrap_or("");
        let sides = if digits == "%" {
            Some(100)
        } else {
            digits.parse::<u32>().ok()
        };
        match sides {
            Some(n) if crate::odds::notation::SIDES.contains(&n) => Ok(Die(n)),
            _ => Err(NotADie(s.to_string())),
        }
    }
}

impl Serialize for Die {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// On the wire a die is its name (`"d6"`, `"d100"`), as it serialises.
impl schemars::JsonSchema for Die {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Die".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[dD]([0-9]+|%)$",
            "description": "A die by its name: d4, d6, d8, d10, d12, d20, d100."
        })
    }
}

impl<'de> Deserialize<'de> for Die {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What a die in a plan is for, so the table can colour it and the outcome can label it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DieRole {
    /// A die of an Aspect or skill pool, summed.
    Pool,
    /// An extra die added to a pool (a weapon's d8).
    Extra,
    /// An ability die: the highest counts.
    Ability,
    /// The difficulty die.
    Difficulty,
    /// The position die beside the difficulty die.
    Position,
    /// The light die of an open-d6 roll.
    Positive,
    /// The dark die of an open-d6 roll.
    Negative,
    /// A d20 of a check.
    Check,
    /// A resource die being used.
    Resource,
    /// An initiative die (of the players' side where sides roll against each other).
    Initiative,
    /// The initiative die of the side opposing the players (the game master's).
    OpposingInitiative,
    /// The d6 of a friction check after snake eyes.
    Friction,
}

/// One die to throw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedDie {
    /// Its size.
    pub sides: u32,
    /// What it is for.
    pub role: DieRole,
    /// A short label for the overlay ("weapon d8", "Peter's dark die").
    pub label: String,
    /// What its faces show, for a game's own die (none: its numbers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marks: Option<FaceMarks>,
    /// Its own colours, for a game's own die that has them (none: its role's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<DiceLook>,
}

impl PlannedDie {
    /// A die of `sides` with a role and label.
    pub fn new(sides: u32, role: DieRole, label: impl Into<String>) -> Self {
        PlannedDie {
            sides,
            role,
            label: label.into(),
            marks: None,
            look: None,
        }
    }

    /// The die in its own colours (a game's own die that has them).
    pub fn in_look(mut self, look: Option<DiceLook>) -> Self {
        self.look = look;
        self
    }

    /// The die with its faces' marks (a game's own die).
    pub fn marked(mut self, marks: FaceMarks) -> Self {
        self.marks = Some(marks);
        self
    }
}

/// Which dice to throw for one step of an action. Faces come back in the same order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollPlan {
    /// The dice, in throw (and spawn) order.
    pub dice: Vec<PlannedDie>,
    /// Why they are thrown, in words.
    pub purpose: String,
}

impl RollPlan {
    /// A plan with a purpose and no dice yet.
    pub fn new(purpose: impl Into<String>) -> Self {
        RollPlan {
            dice: Vec::new(),
            purpose: purpose.into(),
        }
    }

    /// Adds `count` dice of one kind.
    pub fn with(mut self, count: u32, sides: u32, role: DieRole, label: &str) -> Self {
        self.dice
            .extend((0..count).map(|_| PlannedDie::new(sides, role, label)));
        self
    }

    /// Checks that `faces` fit this plan: one face per die, each on its die (the reason in
    /// words; [`RollPlan::fit`] gives it as a [`RulesError`]).
    pub fn check_faces(&self, faces: &[u32]) -> Result<(), Refusal> {
        if faces.len() != self.dice.len() {
            return Err(refuse!(
                Faces,
                "{} faces for a throw of {} dice ({})",
                faces.len(),
                self.dice.len(),
                self.purpose
            ));
        }
        for (face, die) in faces.iter().zip(&self.dice) {
            if *face == 0 || *face > die.sides {
                return Err(refuse!(
                    Faces,
                    "face {face} is not on a d{} ({})",
                    die.sides,
                    die.label
                ));
            }
        }
        Ok(())
    }

    /// Checks that `faces` fit this plan, as the rules' error.
    pub fn fit(&self, faces: &[u32]) -> Result<(), RulesError> {
        self.check_faces(faces).map_err(RulesError::from)
    }
}

/// What a finished action came to, in a form every overlay and the CLI can show.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The number the rules compare (total, result, check).
    pub total: i64,
    /// Success or failure where the action has one.
    pub success: Option<bool>,
    /// The outcome class by the ruleset's own name ("marginal success", "critical failure"), in
    /// words for people: a build may reword it.
    pub class: String,
    /// The outcome class as the rules know it (`marginal_success`): what a log records and a
    /// verifier compares, so rewording `class` breaks no stored log.
    #[serde(default)]
    pub class_id: ClassId,
    /// The arithmetic, step by step.
    pub lines: Vec<String>,
    /// Special results and what they trigger ("boxcars: windfall", "damage 3"), in words.
    pub tags: Vec<String>,
    /// The facts of the outcome the rules act on, typed: the rules (and any program) read a
    /// fumble here, never in the words of `class` or `tags`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<RollFact>,
}

/// A special result that the rules act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fact {
    /// Boxcars on a failed open-d6 check: a fumble, a Setback for the roller.
    Fumble,
    /// Boxcars on a successful open-d6 check: a windfall (or a Setback for the opponent).
    Windfall,
}

/// A [`Fact`] of one roll of an outcome: a single roll is roll 0; an outcome joined from
/// several rolls (a team action, a multi-action) numbers them in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RollFact {
    /// Which roll of the outcome.
    pub roll: usize,
    /// What it came to.
    pub fact: Fact,
}

/// An outcome class's stable id: a ruleset's own (`marginal_success`, `knocked_out`), or a
/// name a scene or system file gave it (a band's name), which the room's log holds itself. Ids
/// are a contract with every stored log: a build may reword an outcome, never change its id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClassId(std::borrow::Cow<'static, str>);

impl ClassId {
    /// A ruleset's own class id (snake_case, written once where the outcome is made).
    pub const fn new(id: &'static str) -> Self {
        Self(std::borrow::Cow::Borrowed(id))
    }

    /// A class named by data the log holds (a system file's band).
    pub fn named(name: &str) -> Self {
        Self(std::borrow::Cow::Owned(name.to_string()))
    }

    /// The id as it is recorded.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ClassId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Outcome {
    /// Gives the outcome another class (a rule that reads the roll again): its id and words.
    pub fn reclassed(&mut self, id: &'static str, words: &str) {
        self.class_id = ClassId::new(id);
        self.class = words.to_string();
    }

    /// Whether `fact` holds of any roll of the outcome.
    pub fn has(&self, fact: Fact) -> bool {
        self.facts.iter().any(|f| f.fact == fact)
    }
}

/// One step of resolving an action: done, or more dice to throw first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The action is resolved.
    Done(Outcome),
    /// Throw these too, then resolve again with every throw so far.
    ThrowMore(RollPlan),
}

/// The exact odds of an action, before anything is thrown.
#[derive(Clone, Debug)]
pub struct Odds {
    /// What the distribution is of ("total", "result", "bonus", "uses").
    pub measure: String,
    /// The distribution of that number.
    pub distribution: Dist,
    /// The value success starts at, for marking the chart.
    pub target: Option<i64>,
    /// Probability of success, where the action succeeds or fails.
    pub p_success: Option<Prob>,
    /// Every outcome class of the ruleset, by name, with its probability.
    pub classes: Vec<(String, Prob)>,
    /// A second distribution where the rules have one (damage).
    pub secondary: Option<(String, Dist)>,
    /// What a reader should know beside the answer: a notation's count that can never be
    /// above 0, with the way to write the total's compare (`Notation::notes`).
    pub notes: Vec<String>,
}

impl Odds {
    /// Odds with a distribution and nothing else yet.
    pub fn of(measure: &str, distribution: Dist) -> Self {
        Odds {
            measure: measure.to_string(),
            distribution,
            target: None,
            p_success: None,
            classes: Vec::new(),
            secondary: None,
            notes: Vec::new(),
        }
    }

    /// Adds an outcome class.
    pub fn class(mut self, name: &str, p: Prob) -> Self {
        self.classes.push((name.to_string(), p));
        self
    }

    /// Probability of a named class, if the odds have it.
    pub fn class_p(&self, name: &str) -> Option<&Prob> {
        self.classes.iter().find(|(n, _)| n == name).map(|(_, p)| p)
    }

    /// The odds of a free roll: its total or its successes, and success or failure where it
    /// is a check (`{1d20+5}>15`). Asks `stop` between steps, so whoever stops waiting stops
    /// the work; a notation too large to work out exactly says why.
    pub fn of_notation_until<S: crate::odds::stop::Stop>(
        notation: &crate::odds::notation::Notation,
        stop: &S,
    ) -> Result<Odds, crate::odds::notation::OddsError<S::Stopped>> {
        let dist = notation.shared_distribution_until(stop)?;
        let mut odds = Odds::of(notation.measure().word(), (*dist).clone());
        odds.notes = notation.notes().to_vec();
        if let Some(c) = notation.check() {
            let p = dist.p_where(|v| c.holds(v));
            odds = odds
                .class("success", p.clone())
                .class("failure", p.complement());
            odds.p_success = Some(p);
            odds.target = Some(c.target);
        }
        Ok(odds)
    }

    /// The distribution in a player's words ([`crate::odds::words::summary`]): "3 to 13,
    /// average 8.00, most often 8 (16.7%)".
    pub fn summary(&self) -> String {
        summary_of(&self.distribution)
    }

    /// The odds as JSON, titled: every value of the distribution with its probability (as a
    /// number and an exact fraction), the mean, what open-ended dice leave out, each class.
    /// `odds --json` prints it and the table server's pages read it.
    pub fn to_json(&self, title: &str) -> serde_json::Value {
        let Ok(json) = self.to_json_until(title, &crate::odds::stop::Never);
        json
    }

    /// [`Odds::to_json`], asking `stop` as it goes: the JSON of thousands of exact fractions
    /// takes tenths of a second, which a request that timed out should not go on paying.
    pub fn to_json_until<S: crate::odds::stop::Stop>(
        &self,
        title: &str,
        stop: &S,
    ) -> Result<serde_json::Value, S::Stopped> {
        use serde_json::json;
        let prob = |p: &Prob| json!({ "p": p.to_f64(), "exact": p.exact() });
        // A fraction's value is a number to chart and its words to show: 5.5, 10/3.
        let distribution = |d: &Dist| -> Result<serde_json::Value, S::Stopped> {
            let mut values = Vec::new();
            for (i, (point, p)) in d.probabilities_until(stop)?.iter().enumerate() {
                if i % 32 == 0 {
                    stop.check()?;
                }
                let value = d.value_of(*point);
                let mut entry = json!({
                    "value": value.to_json_number(),
                    "p": p.to_f64(),
                    "exact": p.exact(),
                });
                if value.as_whole().is_none() {
                    entry["shown"] = json!(value.to_string());
                    entry["exact_value"] = json!(value.exact());
                }
                values.push(entry);
            }
            Ok(serde_json::Value::Array(values))
        };
        let values = distribution(&self.distribution)?;
        stop.check()?;
        let mean = self.distribution.mean();
        stop.check()?;
        let summary = self.summary();
        stop.check()?;
        let mut out = json!({
            "title": title,
            "measure": self.measure,
            "distribution": values,
            "mean": mean,
            "truncated": prob(&self.distribution.truncated()),
            "summary": summary,
            "classes": self.classes.iter().map(|(n, p)| (n.clone(), prob(p))).collect::<serde_json::Map<_, _>>(),
        });
        // The classes again in the rules' order (a system file's bands, best first): `classes`
        // is keyed by name.
        if !self.classes.is_empty() {
            out["bands"] = serde_json::Value::Array(
                self.classes
                    .iter()
                    .map(|(n, p)| json!({ "name": n, "p": p.to_f64(), "exact": p.exact() }))
                    .collect(),
            );
        }
        if let Some(p) = &self.p_success {
            out["p_success"] = json!(p.to_f64());
            out["exact_success"] = json!(p.exact());
        }
        if let Some(t) = self.target {
            out["target"] = json!(t);
        }
        if let Some((name, d)) = &self.secondary {
            out[name.as_str()] = json!({ "distribution": distribution(d)?, "mean": d.mean() });
        }
        if !self.notes.is_empty() {
            out["notes"] = json!(self.notes);
        }
        Ok(out)
    }
}

/// A distribution in a player's words: its chances, what open-ended dice leave out, and
/// whether every value is exactly as likely as every other.
pub fn summary_of(d: &Dist) -> String {
    let chances = d.chances();
    let open = d.truncated().to_f64();
    let first = d.iter().next().map(|(_, w)| w.clone());
    let flat = open == 0.0 && d.iter().all(|(_, w)| Some(w) == first.as_ref());
    crate::odds::words::summary(&crate::odds::words::Shape {
        chances: &chances,
        open,
        flat,
        mean: d.mean(),
        points: d.points(),
    })
}

/// Passes the turn to the next of `seats` seats; returns true when that starts a new round.
pub fn next_turn(active: &mut usize, round: &mut u32, seats: usize) -> bool {
    if seats == 0 {
        return false;
    }
    *active = (*active + 1) % seats;
    let wrapped = *active == 0;
    if wrapped {
        *round += 1;
    }
    wrapped
}

/// Deterministic tie-breaker for rules that say "break ties randomly": the engine draws no
/// random numbers, so the table's seed and the tied parties decide.
pub fn seeded_coin(seed: u64, salt: u64) -> u64 {
    crate::seed::mix(seed, salt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_of_odds_stops_when_its_asker_stops_waiting() {
        use crate::odds::stop::{Abandoned, Cancel, Never};
        let notation = crate::odds::notation::Notation::parse("20d20!kh10").expect("reads");
        let odds = Odds::of_notation_until(&notation, &Never).expect("odds");
        let stopped = Cancel::new();
        stopped.cancel();
        assert_eq!(odds.to_json_until("x", &stopped), Err(Abandoned));
        let Ok(whole) = odds.to_json_until("x", &Never);
        assert_eq!(whole, odds.to_json("x"));
        assert!(
            whole["distribution"]
                .as_array()
                .is_some_and(|d| d.len() > 100)
        );
    }

    #[test]
    fn ids_round_trip() {
        for id in RulesetId::ALL {
            assert_eq!(id.as_str().parse::<RulesetId>(), Ok(id));
        }
        assert_eq!(
            "d6-pool".parse::<RulesetId>().map_err(|e| e.to_string()),
            Err(
                "unknown ruleset 'd6-pool'; the rulesets are d4-pool, action-dice, step-dice, \
                 open-d6, d20-check, system-file"
                    .into()
            )
        );
        assert_eq!(
            RulesetId::ALL.map(RulesetId::as_str).join(", "),
            "d4-pool, action-dice, step-dice, open-d6, d20-check, system-file",
            "the error's list is every ruleset"
        );
    }

    #[test]
    fn die_names() {
        assert_eq!("d8".parse::<Die>(), Ok(Die(8)));
        assert_eq!("D%".parse::<Die>(), Ok(Die(100)));
        assert_eq!("d1".parse::<Die>(), Err(NotADie("d1".into())));
        assert!("8".parse::<Die>().is_err());
    }

    #[test]
    fn plans_check_faces() {
        let plan = RollPlan::new("test").with(2, 6, DieRole::Pool, "d6");
        assert!(plan.check_faces(&[1, 6]).is_ok());
        assert!(plan.check_faces(&[1]).is_err());
        assert!(plan.check_faces(&[7, 1]).is_err());
    }
}
