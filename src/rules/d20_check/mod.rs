//! `d20-check`: d20 + proficiency + modifiers against a DC (advantage keeps the higher of two
//! d20, disadvantage the lower; natural 20 and 1 are critical). Resource dice step down a chain
//! on 1-2. Sides roll 1d6 + their lowest proficiency for who declares first.

use crate::rules::Refusal;
use crate::rules::refusal::refuse;
use serde::{Deserialize, Serialize};

mod digest;
mod form;
mod ruleset;
pub mod seat;

pub use ruleset::D20Check;

use super::{ClassId, Die, DieRole, Odds, Outcome, RollPlan, Step};
use crate::odds::{Dist, Prob};

/// The settings and tables of `assets/rules/d20-check.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The rules generation the table plays by ([`crate::record::RULES_GENERATION`]; an older
    /// one for a room's log made before, [`crate::rules::table::TableState::played_by`]).
    #[serde(skip, default = "crate::record::current_rules_generation")]
    pub generation: u32,
    /// Named difficulties and their target numbers.
    pub dc_table: Vec<(String, i64)>,
    /// The GM's DC modifier range.
    pub gm_modifier: (i64, i64),
    /// Lowest DC; reaching it makes the action mundane.
    pub dc_min: i64,
    /// Highest DC; reaching it makes the action improbable.
    pub dc_max: i64,
    /// The DC of Play the Odds on a mundane action.
    pub play_the_odds_dc: i64,
    /// Performance of a mundane action without a roll.
    pub mundane_performance: i64,
    /// The resource dice chain, lowest first.
    pub resource_chain: Vec<Die>,
    /// A resource roll at or below this steps the die down.
    pub resource_step_on: u32,
    /// The initiative die of each side.
    pub initiative_die: Die,
    /// How a Group check works.
    #[serde(default)]
    pub group: GroupRule,
}

/// How a Group (assisted) check is rolled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GroupRule {
    /// The leader rolls, with Advantage when at least one helper could do the task.
    #[default]
    HelpGivesAdvantage,
    /// Everyone rolls; the group succeeds when at least half succeed.
    HalfSucceed,
}

/// Which way a resource die moves along the chain on a 1-2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Direction {
    /// Down the chain; spent after the smallest die.
    #[default]
    Down,
    /// Up the chain; spent after the largest die.
    Up,
}

/// A resource die of a character: torches, arrows, rations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    /// Its name.
    pub name: String,
    /// The die it starts at.
    pub die: Die,
    /// Which way it steps.
    #[serde(default)]
    pub direction: Direction,
}

pub use crate::rules::setup::Task;

/// An Extended task in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProgress {
    /// The task.
    pub task: Task,
    /// Successes so far.
    pub successes: u32,
    /// Failures so far.
    pub failures: u32,
}

impl TaskProgress {
    /// Done, failed, or still open, in words.
    pub fn state(&self) -> &'static str {
        if self.successes >= self.task.successes {
            "accomplished"
        } else if self.failures >= self.task.failures {
            "failed"
        } else {
            "under way"
        }
    }
}

impl Rules {
    /// Checks what RON cannot: a DC range, a chain of growing dice, a step below the smallest.
    pub fn validate(&self) -> Result<(), Refusal> {
        if self.dc_min >= self.dc_max {
            return Err(refuse!(
                Scene,
                "dc_min {} must be below dc_max {}",
                self.dc_min,
                self.dc_max
            ));
        }
        if self.resource_chain.is_empty() || self.resource_chain.windows(2).any(|w| w[0] >= w[1]) {
            return Err(refuse!(
                Scene,
                "resource_chain must list growing dice, smallest first"
            ));
        }
        if self
            .resource_chain
            .iter()
            .any(|d| self.resource_step_on >= d.sides())
        {
            return Err(refuse!(
                Scene,
                "resource_step_on {} must be below every die of the chain",
                self.resource_step_on
            ));
        }
        Ok(())
    }
}

/// Advantage, disadvantage, or neither.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum Edge {
    /// One d20.
    #[default]
    None,
    /// Two d20, the higher counts.
    Advantage,
    /// Two d20, the lower counts.
    Disadvantage,
}

impl Edge {
    /// Two edges on one check: the same twice is one; advantage and disadvantage cancel.
    pub fn with(self, other: Edge) -> Edge {
        match (self, other) {
            (Edge::None, e) | (e, Edge::None) => e,
            (a, b) if a == b => a,
            _ => Edge::None,
        }
    }

    /// Advantage and disadvantage at once cancel.
    pub fn from_flags(advantage: bool, disadvantage: bool) -> Edge {
        match (advantage, disadvantage) {
            (true, false) => Edge::Advantage,
            (false, true) => Edge::Disadvantage,
            _ => Edge::None,
        }
    }

    fn d20(self) -> Dist {
        match self {
            Edge::None => Dist::die(20),
            Edge::Advantage => Dist::die(20).keep_highest(2, 1),
            Edge::Disadvantage => Dist::die(20).keep_lowest(2, 1),
        }
    }
}

/// A check `(proficiency: 3, modifier: 2, dc: 15, edge: Advantage)`, or a resource die use
/// `(resource: "d8")`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// Proficiency bonus.
    #[serde(default)]
    pub proficiency: i64,
    /// Ability modifier and other bonuses.
    #[serde(default)]
    pub modifier: i64,
    /// The DC as a number.
    #[serde(default)]
    pub dc: Option<i64>,
    /// The DC by the table's name ("Risky"), with `gm_modifier`.
    #[serde(default)]
    pub difficulty: Option<String>,
    /// The GM's modifier to a named DC.
    #[serde(default)]
    pub gm_modifier: i64,
    /// Advantage or disadvantage.
    #[serde(default)]
    pub edge: Edge,
    /// Immortal characters may roll improbable actions.
    #[serde(default)]
    pub immortal: bool,
    /// On a mundane action: roll anyway against the Play the Odds DC to improve performance.
    #[serde(default)]
    pub play_the_odds: bool,
    /// A resource die use instead of a check.
    #[serde(default)]
    pub resource: Option<Die>,
    /// Which way that resource steps.
    #[serde(default)]
    pub direction: Direction,
}

/// What kind of check a DC makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// A roll against the DC.
    Roll(i64),
    /// DC 0: no roll, performance 1.
    Mundane,
    /// DC 25: no roll for mortals.
    Improbable,
}

impl Action {
    /// The DC after the GM's modifier, clamped to the table's range.
    pub fn effective_dc(&self, rules: &Rules) -> Result<i64, Refusal> {
        let (lo, hi) = rules.gm_modifier;
        if !(lo..=hi).contains(&self.gm_modifier) {
            return Err(refuse!(
                Choice,
                "the GM's modifier is between {lo:+} and {hi:+}, not {:+}",
                self.gm_modifier
            ));
        }
        let base = match (&self.dc, &self.difficulty) {
            (Some(dc), _) => *dc,
            (None, Some(name)) => rules
                .dc_table
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
                .map(|(_, dc)| *dc)
                .ok_or_else(|| {
                    let names: Vec<String> = rules
                        .dc_table
                        .iter()
                        .map(|(n, v)| format!("{n} ({v})"))
                        .collect();
                    refuse!(
                        Unknown,
                        "unknown difficulty '{name}': use one of {}",
                        names.join(", ")
                    )
                })?,
            (None, None) => {
                return Err(refuse!(
                    Choice,
                    "a check needs a DC (dc: 15) or a difficulty (difficulty: \"Risky\")"
                ));
            }
        };
        Ok((base + self.gm_modifier + self.penalty()).clamp(rules.dc_min, rules.dc_max))
    }

    /// What is added to the roll: the proficiency and the modifier where they are bonuses.
    /// "Players need only deal with bonus points to the action check, never penalty points, as
    /// those are applied to the DC instead."
    pub fn bonus(&self) -> i64 {
        self.proficiency.max(0) + self.modifier.max(0)
    }

    /// What is added to the DC instead of being taken off the roll: the size of a negative
    /// proficiency or modifier.
    pub fn penalty(&self) -> i64 {
        -(self.proficiency.min(0) + self.modifier.min(0))
    }

    /// Mundane, improbable, or a roll against which DC.
    pub fn kind(&self, rules: &Rules) -> Result<CheckKind, Refusal> {
        let dc = self.effective_dc(rules)?;
        Ok(if dc <= rules.dc_min {
            if self.play_the_odds {
                CheckKind::Roll(rules.play_the_odds_dc)
            } else {
                CheckKind::Mundane
            }
        } else if dc >= rules.dc_max && !self.immortal {
            CheckKind::Improbable
        } else {
            CheckKind::Roll(dc)
        })
    }

    /// Whether the action can be taken, and if not, why.
    pub fn check(&self, rules: &Rules) -> Result<(), Refusal> {
        if let Some(die) = self.resource {
            return resource_index(rules, die).map(|_| ());
        }
        // Play the Odds turns a mundane action into a roll; on any other it would be a flag
        // the roll ignored while the move's title says it is played.
        if self.play_the_odds
            && rules.generation >= crate::record::CLOSE_READING
            && self.effective_dc(rules)? > rules.dc_min
        {
            return Err(refuse!(
                Choice,
                "Play the Odds is for a mundane action (DC {}): this check's DC is {}",
                rules.dc_min,
                self.effective_dc(rules)?
            ));
        }
        match self.kind(rules)? {
            CheckKind::Improbable => Err(refuse!(
                Choice,
                "DC {}: improbable, beyond mortal characters (only an immortal may roll)",
                rules.dc_max
            )),
            _ => Ok(()),
        }
    }

    /// The dice to throw (none for a mundane action).
    pub fn plan(&self, rules: &Rules) -> Result<RollPlan, Refusal> {
        self.check(rules)?;
        if let Some(die) = self.resource {
            return Ok(RollPlan::new(format!("use a {die} resource")).with(
                1,
                die.sides(),
                DieRole::Resource,
                &format!("resource {die}"),
            ));
        }
        Ok(match self.kind(rules)? {
            CheckKind::Mundane | CheckKind::Improbable => RollPlan::new("mundane: no roll"),
            CheckKind::Roll(_) => {
                let n = if self.edge == Edge::None { 1 } else { 2 };
                RollPlan::new("action check").with(n, 20, DieRole::Check, "d20")
            }
        })
    }

    /// Exact odds: critical success and failure, success, failure, performance; or, for a
    /// resource die, the distribution of its number of uses.
    pub fn odds(&self, rules: &Rules) -> Result<Odds, Refusal> {
        self.check(rules)?;
        if let Some(die) = self.resource {
            let uses = resource_uses(rules, die, self.direction)?;
            let mut odds = Odds::of("uses", uses.clone());
            let step = Prob::new(rules.resource_step_on.into(), die.sides().into());
            let at = resource_index(rules, die)?;
            let (moves, last) = match self.direction {
                Direction::Down => ("steps down on this use", at == 0),
                Direction::Up => ("steps up on this use", at + 1 == rules.resource_chain.len()),
            };
            odds = odds
                .class(if last { "spent on this use" } else { moves }, step.clone())
                .class("holds on this use", step.complement());
            return Ok(odds);
        }
        let bonus = self.bonus();
        match self.kind(rules)? {
            CheckKind::Mundane | CheckKind::Improbable => {
                let perf = rules.mundane_performance;
                let mut odds =
                    Odds::of("performance", Dist::constant(perf)).class("success", Prob::one());
                odds.p_success = Some(Prob::one());
                Ok(odds)
            }
            CheckKind::Roll(dc) => {
                let d20 = self.edge.d20();
                let ok = |n: i64| n == 20 || (n != 1 && n + bonus >= dc);
                let success = d20.p_where(ok);
                let performance = Dist::from_pairs(
                    d20.iter()
                        .filter(|(n, _)| ok(*n))
                        .map(|(n, w)| (n + bonus - dc, w.clone())),
                    d20.denom().clone(),
                );
                let mut odds = Odds::of("total", d20.shift(bonus))
                    .class("success", success.clone())
                    .class("failure", success.complement())
                    .class("critical success", d20.p(20))
                    .class("critical failure", d20.p(1));
                odds.target = Some(dc);
                odds.p_success = Some(success);
                odds.secondary = Some(("performance".into(), performance));
                Ok(odds)
            }
        }
    }

    /// The distribution of "this check succeeds" as 0 or 1 (for a group where half must
    /// succeed).
    pub fn success_dist(&self, rules: &Rules) -> Result<Dist, Refusal> {
        self.check(rules)?;
        let bonus = self.bonus();
        Ok(match self.kind(rules)? {
            CheckKind::Mundane | CheckKind::Improbable => Dist::constant(1),
            CheckKind::Roll(dc) => self
                .edge
                .d20()
                .map(|n| i64::from(n == 20 || (n != 1 && n + bonus >= dc))),
        })
    }

    /// Reads the settled faces.
    pub fn resolve(&self, rules: &Rules, faces: &[u32]) -> Result<Step, Refusal> {
        let plan = self.plan(rules)?;
        plan.check_faces(faces)?;
        if let Some(die) = self.resource {
            let f = faces[0];
            let next = resource_after(rules, die, f, self.direction)?;
            let (class_id, class, tag) = match next {
                ResourceState::Holds => ("holds", "holds".to_string(), format!("{die} holds")),
                ResourceState::StepsTo(d) => {
                    // The first rules said "down" whichever way it stepped.
                    let way = match self.direction {
                        Direction::Up if rules.generation >= crate::record::CLOSE_READING => "up",
                        _ => "down",
                    };
                    (
                        "steps",
                        format!("steps {way} to {d}"),
                        format!("{die} steps {way} to {d}"),
                    )
                }
                ResourceState::Spent => {
                    ("spent", "spent".to_string(), format!("the {die} is spent"))
                }
            };
            return Ok(Step::Done(Outcome {
                total: i64::from(f),
                success: None,
                class,
                class_id: ClassId::new(class_id),
                lines: vec![format!("resource {die}: {f}")],
                tags: vec![tag],
                facts: Vec::new(),
            }));
        }
        let bonus = self.bonus();
        match self.kind(rules)? {
            CheckKind::Mundane | CheckKind::Improbable => Ok(Step::Done(Outcome {
                total: rules.mundane_performance,
                success: Some(true),
                class: "mundane success".into(),
                class_id: ClassId::new("mundane_success"),
                lines: vec![format!(
                    "DC {}: mundane, no roll, performance {}",
                    rules.dc_min, rules.mundane_performance
                )],
                tags: vec![],
                facts: Vec::new(),
            })),
            CheckKind::Roll(dc) => {
                let natural = match self.edge {
                    Edge::None => faces[0],
                    Edge::Advantage => faces[0].max(faces[1]),
                    Edge::Disadvantage => faces[0].min(faces[1]),
                };
                let total = i64::from(natural) + bonus;
                let mut lines = Vec::new();
                if self.edge != Edge::None {
                    lines.push(format!(
                        "{:?}: d20 {:?}, {natural} counts",
                        self.edge, faces
                    ));
                }
                let mut sum = natural.to_string();
                for (name, v) in [
                    ("proficiency", self.proficiency),
                    ("modifier", self.modifier),
                ] {
                    if v >= 0 {
                        sum.push_str(&format!(" + {name} {v}"));
                    }
                }
                let mut line = format!("{sum} = {total} against DC {dc}");
                if self.penalty() > 0 {
                    line.push_str(&format!(
                        " (a penalty of {} raised the DC: penalties go on the DC, never on the roll)",
                        self.penalty()
                    ));
                }
                lines.push(line);
                let (success, (class_id, class), tags) = if natural == 20 {
                    (
                        true,
                        ("critical_success", "critical success"),
                        vec!["natural 20".to_string()],
                    )
                } else if natural == 1 {
                    (
                        false,
                        ("critical_failure", "critical failure"),
                        vec!["natural 1".to_string()],
                    )
                } else if total >= dc {
                    (true, ("success", "success"), vec![])
                } else {
                    (false, ("failure", "failure"), vec![])
                };
                if success {
                    lines.push(format!("performance {total} − {dc} = {}", total - dc));
                }
                Ok(Step::Done(Outcome {
                    total,
                    success: Some(success),
                    class: class.into(),
                    class_id: ClassId::new(class_id),
                    lines,
                    tags,
                    facts: Vec::new(),
                }))
            }
        }
    }
}

fn resource_index(rules: &Rules, die: Die) -> Result<usize, Refusal> {
    rules
        .resource_chain
        .iter()
        .position(|d| *d == die)
        .ok_or_else(|| {
            let chain: Vec<String> = rules.resource_chain.iter().map(Die::to_string).collect();
            refuse!(
                Scene,
                "{die} is not on the resource chain {}",
                chain.join(", ")
            )
        })
}

/// A resource die after one use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceState {
    /// Same die next time.
    Holds,
    /// One die down the chain.
    StepsTo(Die),
    /// Used up.
    Spent,
}

/// What one use with `face` does to a resource die.
pub fn resource_after(
    rules: &Rules,
    die: Die,
    face: u32,
    direction: Direction,
) -> Result<ResourceState, Refusal> {
    let i = resource_index(rules, die)?;
    let next = match direction {
        Direction::Down => i.checked_sub(1),
        Direction::Up => Some(i + 1).filter(|&j| j < rules.resource_chain.len()),
    };
    Ok(if face > rules.resource_step_on {
        ResourceState::Holds
    } else {
        match next {
            None => ResourceState::Spent,
            Some(j) => ResourceState::StepsTo(rules.resource_chain[j]),
        }
    })
}

/// The exact distribution of how many uses a resource die gives, from `die` until spent: a sum
/// of geometric counts, one per die down the chain, each truncated below 1e-14.
pub fn resource_uses(rules: &Rules, die: Die, direction: Direction) -> Result<Dist, Refusal> {
    let at = resource_index(rules, die)?;
    let step = u64::from(rules.resource_step_on);
    let mut total = Dist::constant(0);
    let chain: Vec<&Die> = match direction {
        Direction::Down => rules.resource_chain[..=at].iter().rev().collect(),
        Direction::Up => rules.resource_chain[at..].iter().collect(),
    };
    for d in chain {
        let s = u64::from(d.sides());
        if step == 0 || step >= s {
            // Every use steps down (or never does): a die of 0 or 1 sure uses.
            total = total.add(&Dist::constant(if step == 0 { 0 } else { 1 }));
            continue;
        }
        // P(k uses) = ((s - step)/s)^(k-1) * step/s; truncate where the tail is below 1e-14.
        let hold = (s - step) as f64 / s as f64;
        let depth = ((1e-14f64).ln() / hold.ln()).ceil() as u32;
        let denom = num_bigint::BigUint::from(s).pow(depth);
        let pairs = (1..=depth).map(|k| {
            let w = num_bigint::BigUint::from(s - step).pow(k - 1)
                * num_bigint::BigUint::from(step)
                * num_bigint::BigUint::from(s).pow(depth - k);
            (i64::from(k), w)
        });
        total = total.add(&Dist::from_pairs(pairs, denom));
    }
    Ok(total)
}

/// Which side of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// The players' characters.
    Players,
    /// The gamemaster's characters.
    Gamemaster,
}

/// A character at a d20-check table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Its name.
    pub name: String,
    /// Which side.
    pub side: Side,
    /// Proficiency bonus.
    pub proficiency: i64,
    /// DEX modifier (one-on-one initiative).
    #[serde(default)]
    pub dex_modifier: i64,
    /// Wields a reach weapon.
    #[serde(default)]
    pub reach: bool,
    /// Other check modifiers by name (STR, a skill...).
    #[serde(default)]
    pub modifiers: Vec<(String, i64)>,
    /// Resource dice (torches, arrows...).
    #[serde(default)]
    pub resources: Vec<Resource>,
    /// May roll improbable actions.
    #[serde(default)]
    pub immortal: bool,
    /// Its Defense Class: the DC of a check opposed by it (an attack on it). None where the
    /// scene gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<i64>,
}

/// The DC an opposed check the game master rolled sets, waiting for the check it opposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpposedDc {
    /// Who the GM rolled for (the searching guard).
    pub by: usize,
    /// Whose check it opposes (the one hiding).
    pub against: usize,
    /// The DC it set: the opposed check's total, within the DC range.
    pub dc: i64,
}

/// The turn economy of a d20-check table: side initiative, one action each, resource dice.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The ruleset's settings.
    pub rules: Rules,
    /// Who sits at the table.
    pub characters: Vec<Character>,
    /// Each character's resource dice now (None: spent).
    pub resources: Vec<Vec<(String, Option<Die>)>>,
    /// The side that declares first this round (None before initiative).
    pub first: Option<Side>,
    /// Who has acted this round.
    pub acted: Vec<bool>,
    /// 1-based round; 0 before the first initiative.
    pub round: u32,
    /// The GM has declared initiative: turns apply until it is ended.
    pub initiative: bool,
    /// Extended tasks of the scene, with their progress.
    pub tasks: Vec<TaskProgress>,
    /// Opposed checks the GM rolled, each waiting for the check it opposes.
    pub opposed: Vec<OpposedDc>,
}

/// The result of an initiative throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Initiative {
    /// This side declares first.
    First(Side),
    /// Equal: roll again.
    Tie,
}

impl Table {
    /// A table before initiative.
    pub fn new(rules: Rules, characters: Vec<Character>) -> Self {
        let n = characters.len();
        Table {
            rules,
            resources: characters
                .iter()
                .map(|c| {
                    c.resources
                        .iter()
                        .map(|r| (r.name.clone(), Some(r.die)))
                        .collect()
                })
                .collect(),
            characters,
            first: None,
            acted: vec![false; n],
            round: 0,
            initiative: false,
            tasks: Vec::new(),
            opposed: Vec::new(),
        }
    }

    fn side(&self, side: Side) -> Vec<usize> {
        (0..self.characters.len())
            .filter(|&i| self.characters[i].side == side)
            .collect()
    }

    fn one_on_one(&self) -> Option<(usize, usize)> {
        match (
            self.side(Side::Players).as_slice(),
            self.side(Side::Gamemaster).as_slice(),
        ) {
            ([p], [g]) => Some((*p, *g)),
            _ => None,
        }
    }

    /// Each side's initiative modifier: its lowest proficiency, or DEX one-on-one.
    pub fn initiative_modifier(&self, side: Side) -> i64 {
        if let Some((p, g)) = self.one_on_one() {
            let i = if side == Side::Players { p } else { g };
            return self.characters[i].dex_modifier;
        }
        self.side(side)
            .iter()
            .map(|&i| self.characters[i].proficiency)
            .min()
            .unwrap_or(0)
    }

    /// Whether a side rolls initiative with advantage: reach against non-reach, one-on-one.
    pub fn initiative_advantage(&self, side: Side) -> bool {
        self.one_on_one().is_some_and(|(p, g)| {
            let (me, them) = if side == Side::Players {
                (p, g)
            } else {
                (g, p)
            };
            self.characters[me].reach && !self.characters[them].reach
        })
    }

    /// The initiative throw: the players' die (two with advantage), then the gamemaster's.
    pub fn initiative_plan(&self) -> RollPlan {
        let mut plan = RollPlan::new("side initiative");
        let die = self.rules.initiative_die.sides();
        for (side, label, role) in [
            (Side::Players, "players", DieRole::Initiative),
            (Side::Gamemaster, "gamemaster", DieRole::OpposingInitiative),
        ] {
            let n = if self.initiative_advantage(side) {
                2
            } else {
                1
            };
            plan = plan.with(n, die, role, &format!("{label} initiative"));
        }
        plan
    }

    /// The distribution of the players' initiative minus the gamemaster's, one throw each.
    pub fn initiative_difference(&self) -> Dist {
        let die = |side| {
            let d = Dist::die(self.rules.initiative_die.sides());
            let d = if self.initiative_advantage(side) {
                d.keep_highest(2, 1)
            } else {
                d
            };
            d.shift(self.initiative_modifier(side))
        };
        die(Side::Players).sub(&die(Side::Gamemaster))
    }

    /// Exact probability that the players declare first (ties re-rolled until decided).
    pub fn initiative_odds(&self) -> Prob {
        let diff = self.initiative_difference();
        let win = diff.p_where(|v| v > 0);
        let tie = diff.p(0);
        // P(win | not tie) = win / (1 - tie)
        let (wn, wd) = win.parts();
        let (tn, td) = tie.parts();
        let num = wn * &td;
        let den = (&td - tn) * wd;
        if den == num_bigint::BigInt::default() {
            return Prob::zero();
        }
        Prob::new(num.magnitude().clone(), den.magnitude().clone())
    }

    /// Reads the initiative faces: who declares first, or a tie to re-roll.
    pub fn resolve_initiative(&mut self, faces: &[u32]) -> Result<Initiative, Refusal> {
        self.initiative_plan().check_faces(faces)?;
        let n_players = if self.initiative_advantage(Side::Players) {
            2
        } else {
            1
        };
        let best = |fs: &[u32]| i64::from(fs.iter().copied().max().unwrap_or(0));
        let players = best(&faces[..n_players]) + self.initiative_modifier(Side::Players);
        let gm = best(&faces[n_players..]) + self.initiative_modifier(Side::Gamemaster);
        if players == gm {
            return Ok(Initiative::Tie);
        }
        let first = if players > gm {
            Side::Players
        } else {
            Side::Gamemaster
        };
        self.first = Some(first);
        self.round += 1;
        self.acted.iter_mut().for_each(|a| *a = false);
        Ok(Initiative::First(first))
    }

    /// The side acting now: the first side until all of it has acted, then the other.
    pub fn side_to_act(&self) -> Option<Side> {
        let first = self.first?;
        let second = if first == Side::Players {
            Side::Gamemaster
        } else {
            Side::Players
        };
        [first, second]
            .into_iter()
            .find(|&s| self.side(s).iter().any(|&i| !self.acted[i]))
    }

    /// Whether `actor` may act now, and if not, why.
    pub fn check(&self, actor: usize) -> Result<(), Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        let Some(side) = self.side_to_act() else {
            return Err(refuse!(NotNow, "roll initiative first"));
        };
        if self.acted[actor] {
            return Err(refuse!(NotTheirTurn, "{} has acted this round", c.name));
        }
        if c.side != side {
            return Err(refuse!(
                NotTheirTurn,
                "the {side:?} side declares and acts first"
            ));
        }
        Ok(())
    }

    /// The check of `actor` with a named modifier against a DC.
    pub fn action(
        &self,
        actor: usize,
        modifier: Option<&str>,
        dc: i64,
        edge: Edge,
    ) -> Result<Action, Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        let m = match modifier {
            None => 0,
            Some(name) => c
                .modifiers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    let has: Vec<&str> = c.modifiers.iter().map(|(n, _)| n.as_str()).collect();
                    if has.is_empty() {
                        refuse!(
                            Unknown,
                            "{} has no modifier '{name}' (and no modifiers at all)",
                            c.name
                        )
                    } else {
                        refuse!(
                            Unknown,
                            "{} has no modifier '{name}': use one of {}",
                            c.name,
                            has.join(", ")
                        )
                    }
                })?,
        };
        Ok(Action {
            proficiency: c.proficiency,
            modifier: m,
            dc: Some(dc),
            edge,
            immortal: c.immortal,
            ..Action::default()
        })
    }

    /// The use of a named resource die of `actor`.
    pub fn resource_action(&self, actor: usize, name: &str) -> Result<Action, Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        let (_, die) = self.resources[actor]
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| refuse!(Unknown, "{} has no resource '{name}'", c.name))?;
        let die = die.ok_or_else(|| refuse!(Spent, "{}'s {name} is spent", c.name))?;
        Ok(Action {
            resource: Some(die),
            direction: self.direction_of(actor, name),
            ..Action::default()
        })
    }

    /// The direction a resource of `actor` steps in.
    pub fn direction_of(&self, actor: usize, name: &str) -> Direction {
        self.characters[actor]
            .resources
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
            .map(|r| r.direction)
            .unwrap_or_default()
    }

    /// After a resource roll: the die holds, steps down, or is spent.
    pub fn apply_resource(
        &mut self,
        actor: usize,
        name: &str,
        face: u32,
    ) -> Result<ResourceState, Refusal> {
        let rules = self.rules.clone();
        let direction = self.direction_of(actor, name);
        let slot = self.resources[actor]
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| refuse!(Unknown, "no resource '{name}'"))?;
        let die = slot.1.ok_or_else(|| refuse!(Spent, "{name} is spent"))?;
        let state = resource_after(&rules, die, face, direction)?;
        slot.1 = match state {
            ResourceState::Holds => Some(die),
            ResourceState::StepsTo(d) => Some(d),
            ResourceState::Spent => None,
        };
        Ok(state)
    }

    /// After an action: the actor has acted this round. When everyone has, a new round needs
    /// initiative.
    pub fn apply(&mut self, actor: usize) {
        if let Some(a) = self.acted.get_mut(actor) {
            *a = true;
        }
        if self.side_to_act().is_none() {
            self.first = None;
        }
    }
}

#[cfg(test)]
mod tests;
