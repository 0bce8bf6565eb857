//! `open-d6`: a light positive d6 minus a dark negative d6, each open-ended (a six is thrown
//! again and added). Skill + bonus against a difficulty: equal is a marginal success. Boxcars
//! and snake eyes have their own effects. Initiative is a shot counter counted down.

use crate::rules::refusal::refuse;
use crate::rules::{Fact, Refusal, RollFact};
use serde::{Deserialize, Serialize};

mod digest;
mod form;
mod ruleset;
pub mod seat;
mod table;

pub use ruleset::OpenD6;
pub use table::{Defence, FocusCondition, LastCheck, Table};

use super::{ClassId, DieRole, Odds, Outcome, RollPlan, Step};
use crate::odds::{Dist, Prob};

/// What an action costs on the shot counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cost {
    /// A fixed number of shots.
    Shots(u32),
    /// Every shot left (Limit Break).
    AllRemaining,
}

/// Whom a row of the friction table touches, once snake eyes call for the check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum FrictionApplies {
    /// Only a character under this row's condition (improvised gear, no nearby base...).
    #[default]
    Condition,
    /// The faces reserved for snake-eye Limitations: the character's Limitation with the face's
    /// number triggers, if it has one.
    Limitations,
    /// Any character under friction at all (the text's "Always").
    UnderAnyFriction,
}

/// One row of the friction table (d6 after snake eyes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrictionRow {
    /// Lowest face of the row.
    pub from: u32,
    /// Highest face of the row.
    pub to: u32,
    /// When it applies.
    pub condition: String,
    /// What happens.
    pub result: String,
    /// Whom it touches (default: those under its condition).
    #[serde(default)]
    pub applies: FrictionApplies,
}

/// The settings and tables of `assets/rules/open-d6.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The rules generation the table plays by ([`crate::record::RULES_GENERATION`]; an older
    /// one for a room's log made before, [`crate::rules::table::TableState::played_by`]).
    #[serde(skip, default = "crate::record::current_rules_generation")]
    pub generation: u32,
    /// Shot costs by action type.
    pub costs: Vec<(ActionType, Cost)>,
    /// Shots the ambushers get in a surprise round.
    pub surprise_shots: u32,
    /// The lowest first shot after stances (except the surprised).
    pub min_first_shot: i64,
    /// Villains act before heroes on the same shot.
    pub villains_first: bool,
    /// The friction check table.
    pub friction: Vec<FrictionRow>,
    /// Most +1 bonuses that Assist can give one action.
    pub max_assist_bonus: i64,
    /// What Active Defense adds to the defending skill.
    pub active_defense_bonus: i64,
    /// What an NPC's Limit Break costs (the text: not all remaining shots).
    #[serde(default = "three")]
    pub npc_limit_break_shots: u32,
    /// What each Advantage (Action Advantage, a Stunt Modifier) adds to a check.
    #[serde(default = "one")]
    pub advantage_bonus: i64,
    /// The difficulty of a Routine task: a Finishing Stunt made with a Basic Action rolls
    /// Confident against it (the text names Routine, not its number).
    #[serde(default = "five")]
    pub routine_difficulty: i64,
}

fn three() -> u32 {
    3
}

fn one() -> i64 {
    1
}

fn five() -> i64 {
    5
}

impl Rules {
    /// Checks what RON cannot: the friction table covers 1 to 6 once each.
    pub fn validate(&self) -> Result<(), Refusal> {
        for face in 1..=6 {
            let rows = self
                .friction
                .iter()
                .filter(|r| (r.from..=r.to).contains(&face))
                .count();
            if rows != 1 {
                return Err(refuse!(
                    Scene,
                    "friction: face {face} is in {rows} rows; each face 1-6 needs exactly one"
                ));
            }
        }
        Ok(())
    }

    /// The cost of an action type.
    pub fn cost(&self, kind: ActionType) -> Cost {
        self.costs
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, c)| *c)
            .unwrap_or(Cost::Shots(3))
    }

    /// The friction row of a d6 face.
    pub fn friction(&self, face: u32) -> Option<&FrictionRow> {
        self.friction
            .iter()
            .find(|r| (r.from..=r.to).contains(&face))
    }

    /// A friction check's face as the table reads it, for nobody in particular: its row.
    pub fn friction_tag(&self, face: u32) -> String {
        format!(
            "friction {face}: {}",
            self.friction(face)
                .map(|r| format!("{} — {}", r.condition, r.result))
                .unwrap_or_default()
        )
    }

    /// A friction condition in words: "4 (Improvised gear ...)".
    pub fn condition_words(&self, face: u32) -> String {
        format!(
            "{face} ({})",
            self.friction(face)
                .map(|r| r.condition.as_str())
                .unwrap_or_default()
        )
    }

    /// The faces a character can be put under (the rows that are not Limitations).
    pub fn friction_conditions(&self) -> Vec<u32> {
        (1..=6)
            .filter(|f| {
                self.friction(*f)
                    .is_some_and(|r| r.applies != FrictionApplies::Limitations)
            })
            .collect()
    }

    /// The faces reserved for snake-eye Limitations.
    pub fn limitation_faces(&self) -> Vec<u32> {
        (1..=6)
            .filter(|f| {
                self.friction(*f)
                    .is_some_and(|r| r.applies == FrictionApplies::Limitations)
            })
            .collect()
    }

    /// What a friction check's face does to `who`: a Limitation of theirs with that number
    /// triggers, a condition they are under takes effect, and a character playing it safe
    /// (under no friction) suffers nothing.
    pub fn friction_reading(&self, who: &Character, under: &[u32], face: u32) -> String {
        let name = &who.name;
        let Some(row) = self.friction(face) else {
            return format!("friction {face}: no row of the table has it");
        };
        match row.applies {
            FrictionApplies::Limitations => match who.limitations.iter().find(|l| l.number == face)
            {
                Some(l) => format!(
                    "friction {face}: {name}'s Limitation \"{}\" triggers",
                    l.name
                ),
                None => format!(
                    "friction {face}: a Limitation's number, and {name} has no Limitation {face}: \
                     no effect"
                ),
            },
            FrictionApplies::Condition if under.contains(&face) => format!(
                "friction {face}: {name} is under it ({}) — {}",
                row.condition, row.result
            ),
            FrictionApplies::Condition => format!(
                "friction {face}: {name} is not under it ({}): no effect",
                row.condition
            ),
            FrictionApplies::UnderAnyFriction if !under.is_empty() => {
                format!("friction {face}: {name} is under friction — {}", row.result)
            }
            FrictionApplies::UnderAnyFriction => {
                format!("friction {face}: {name} plays it safe (under no friction): no effect")
            }
        }
    }
}

/// How the two dice are read.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum RollKind {
    /// Positive − negative, both open-ended.
    #[default]
    Standard,
    /// The higher die is the positive one (Standard again on boxcars).
    Confident,
    /// No re-throws: −5..+5.
    Closed,
    /// Closed, and the higher die is the positive one.
    ClosedConfident,
}

impl RollKind {
    fn open(self) -> bool {
        matches!(self, RollKind::Standard | RollKind::Confident)
    }
    fn confident(self) -> bool {
        matches!(self, RollKind::Confident | RollKind::ClosedConfident)
    }
}

fn yes() -> bool {
    true
}

/// One check: `(roll: Standard, skill: 10, difficulty: 13)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// How the dice are read.
    #[serde(default)]
    pub roll: RollKind,
    /// The skill or trait rolled.
    pub skill: i64,
    /// The difficulty (the highest of those listed).
    pub difficulty: i64,
    /// Bonuses and penalties (assist +1 each, team action −n...).
    #[serde(default)]
    pub modifier: i64,
    /// The first roll of the action: snake eyes only count there.
    #[serde(default = "yes")]
    pub first_roll: bool,
}

/// The two dice of a roll as thrown so far: each chain is the first face and its re-throws.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chains {
    /// The light die.
    pub positive: Vec<u32>,
    /// The dark die.
    pub negative: Vec<u32>,
    /// The friction d6, if one was thrown.
    pub friction: Option<u32>,
}

fn value(chain: &[u32]) -> i64 {
    chain.iter().map(|f| i64::from(*f)).sum()
}

impl Action {
    /// The first throw: the light and the dark die.
    pub fn plan(&self) -> RollPlan {
        RollPlan::new(format!("{:?} roll", self.roll))
            .with(1, 6, DieRole::Positive, "positive (light) d6")
            .with(1, 6, DieRole::Negative, "negative (dark) d6")
    }

    /// Reads throws into chains, checking every face.
    pub fn chains(&self, throws: &[Vec<u32>]) -> Result<Chains, Refusal> {
        let first = throws
            .first()
            .ok_or_else(|| refuse!(Faces, "no dice have been thrown yet"))?;
        self.plan().check_faces(first)?;
        let mut c = Chains {
            positive: vec![first[0]],
            negative: vec![first[1]],
            friction: None,
        };
        for throw in &throws[1..] {
            let mut faces = throw.iter();
            let open = self.roll.open();
            let pos_open = open && c.positive.last() == Some(&6);
            let neg_open = open && c.negative.last() == Some(&6);
            if !pos_open && !neg_open {
                // Only a friction check can follow.
                match (throw.as_slice(), c.friction, self.snake_eyes(&c)) {
                    ([f], None, true) if (1..=6).contains(f) => c.friction = Some(*f),
                    _ => return Err(refuse!(Faces, "unexpected extra throw {throw:?}")),
                }
                continue;
            }
            for (open, chain) in [(pos_open, &mut c.positive), (neg_open, &mut c.negative)] {
                if open {
                    let f = *faces
                        .next()
                        .ok_or_else(|| refuse!(Faces, "a six was not thrown again"))?;
                    if !(1..=6).contains(&f) {
                        return Err(refuse!(Faces, "face {f} is not on a d6"));
                    }
                    chain.push(f);
                }
            }
            if faces.next().is_some() {
                return Err(refuse!(Faces, "too many faces in re-throw {throw:?}"));
            }
        }
        Ok(c)
    }

    fn snake_eyes(&self, c: &Chains) -> bool {
        self.first_roll && c.positive[0] == 1 && c.negative[0] == 1
    }

    /// Reads every throw so far: the outcome, or the next throw (sixes again, or friction). A
    /// friction check's face is read for nobody in particular (its row of the table).
    pub fn resolve(&self, rules: &Rules, throws: &[Vec<u32>]) -> Result<Step, Refusal> {
        self.resolve_reading_friction(throws, |face| rules.friction_tag(face))
    }

    /// [`Action::resolve`], a friction check's face read by `friction` (at a table: what it
    /// does to the character who rolled).
    pub fn resolve_reading_friction(
        &self,
        throws: &[Vec<u32>],
        friction: impl FnOnce(u32) -> String,
    ) -> Result<Step, Refusal> {
        let c = self.chains(throws)?;
        if self.roll.open() {
            let pos_open = c.positive.last() == Some(&6);
            let neg_open = c.negative.last() == Some(&6);
            if pos_open || neg_open {
                let mut plan = RollPlan::new("open-ended six: throw again and add");
                if pos_open {
                    plan = plan.with(1, 6, DieRole::Positive, "positive (light) d6 again");
                }
                if neg_open {
                    plan = plan.with(1, 6, DieRole::Negative, "negative (dark) d6 again");
                }
                return Ok(Step::ThrowMore(plan));
            }
        }
        let snake_eyes = self.snake_eyes(&c);
        if snake_eyes && c.friction.is_none() {
            return Ok(Step::ThrowMore(
                RollPlan::new("snake eyes: friction check").with(
                    1,
                    6,
                    DieRole::Friction,
                    "friction d6",
                ),
            ));
        }
        let boxcars = c.positive[0] == 6 && c.negative[0] == 6;
        let (p, n) = (value(&c.positive), value(&c.negative));
        let swapped = self.roll.confident() && !boxcars && n > p;
        let bonus = if swapped { n - p } else { p - n };
        let check = self.skill + self.modifier + bonus;
        let outcome = check - self.difficulty;
        let mut lines = vec![
            format!(
                "positive {:?} = {p}, negative {:?} = {n}",
                c.positive, c.negative
            ),
            if swapped {
                format!("confident: the higher die is positive, bonus {n} − {p} = {bonus}")
            } else {
                format!("bonus {p} − {n} = {bonus}")
            },
            format!(
                "skill {}{} + bonus {bonus} = {check} against {}",
                self.skill,
                if self.modifier == 0 {
                    String::new()
                } else {
                    format!(" {:+}", self.modifier)
                },
                self.difficulty
            ),
        ];
        // The outcome's number is the total: the class is its sign.
        let (success, class_id, class) = match outcome {
            0 => (true, "marginal_success", "marginal success".to_string()),
            o if o > 0 => (true, "success", format!("success, outcome {o}")),
            o => (false, "failure", format!("failure, outcome {o}")),
        };
        let mut tags = Vec::new();
        let mut facts = Vec::new();
        if boxcars {
            facts.push(RollFact {
                roll: 0,
                fact: if success {
                    Fact::Windfall
                } else {
                    Fact::Fumble
                },
            });
            tags.push(
                if success {
                    "boxcars: windfall (or a Setback for the opponent)"
                } else {
                    "boxcars: fumble, a Setback"
                }
                .to_string(),
            );
            if self.roll.confident() {
                lines.push(
                    "boxcars: the confident roll went wild and was read as a standard roll".into(),
                );
            }
        }
        if self.first_roll && c.positive[0] == 2 && c.negative[0] == 2 {
            tags.push("double deuces (first roll of the action)".into());
        }
        if snake_eyes {
            tags.push("snake eyes: jury-rigged effects come crashing down".into());
            if let Some(f) = c.friction {
                tags.push(friction(f));
            }
        }
        Ok(Step::Done(Outcome {
            total: outcome,
            success: Some(success),
            class,
            class_id: ClassId::new(class_id),
            lines,
            tags,
            facts,
        }))
    }

    /// The exact distribution of the bonus.
    pub fn bonus_distribution(&self) -> Dist {
        let (x, y) = die_pair(self.roll);
        let confident = self.roll.confident();
        x.combine(&y, |a, b| bonus_of(confident, a, b))
    }

    /// Exact odds: success, marginal, failure, boxcars with windfall and fumble, snake eyes.
    pub fn odds(&self) -> Odds {
        let bonus = self.bonus_distribution();
        let need = self.difficulty - self.skill - self.modifier;
        let (x, y) = die_pair(self.roll);
        let confident = self.roll.confident();
        let success = bonus.p_where(|b| b >= need);
        let joint = |pred: &dyn Fn(i64, i64) -> bool| joint_p(&x, &y, pred);
        let is_boxcars = |a: i64, b: i64| first_was_six(a) && first_was_six(b);
        let windfall = joint(&|a, b| is_boxcars(a, b) && bonus_of(confident, a, b) >= need);
        let fumble = joint(&|a, b| is_boxcars(a, b) && bonus_of(confident, a, b) < need);
        let one_in_36 = Prob::new(1u32.into(), 36u32.into());
        let mut odds = Odds::of("outcome", bonus.shift(-need))
            .class("success", success.clone())
            .class("marginal success", bonus.p(need))
            .class("failure", success.complement())
            .class("boxcars", one_in_36.clone())
            .class("windfall", windfall)
            .class("fumble", fumble)
            .class(
                "snake eyes",
                if self.first_roll {
                    one_in_36
                } else {
                    Prob::zero()
                },
            );
        odds.target = Some(0);
        odds.p_success = Some(success);
        odds
    }
}

/// A die's value says whether its first face was a six: open-ended values skip 6 (6 → 6 + more).
fn first_was_six(v: i64) -> bool {
    v >= 6
}

fn bonus_of(confident: bool, a: i64, b: i64) -> i64 {
    if confident && !(first_was_six(a) && first_was_six(b)) {
        (a - b).abs()
    } else {
        a - b
    }
}

fn die_pair(kind: RollKind) -> (Dist, Dist) {
    let d = if kind.open() {
        Dist::die(6).open_ended()
    } else {
        Dist::die(6)
    };
    (d.clone(), d)
}

fn joint_p(x: &Dist, y: &Dist, pred: &dyn Fn(i64, i64) -> bool) -> Prob {
    let mut num = num_bigint::BigUint::default();
    for (a, wa) in x.iter() {
        for (b, wb) in y.iter() {
            if pred(a, b) {
                num += wa * wb;
            }
        }
    }
    Prob::new(num, x.denom() * y.denom())
}

/// The bonus from Assist: +1 for each assistant who succeeded, at most the rules' maximum.
pub fn assist_bonus(rules: &Rules, successful_assists: u32) -> i64 {
    i64::from(successful_assists).min(rules.max_assist_bonus)
}

/// A skill used as a difficulty while active defenses are up: defenses do not stack, only
/// the highest bonus counts (Active Defense gives +3).
pub fn defended_difficulty(skill: i64, defense_bonuses: &[i64]) -> i64 {
    skill + defense_bonuses.iter().copied().max().unwrap_or(0).max(0)
}

/// The modifier of each participant in a team action of `participants`: −n each.
pub fn team_penalty(participants: u32) -> i64 {
    -i64::from(participants)
}

/// A team action: each of n participants rolls at −n; the team gets the highest result.
/// A participant who rolled boxcars and failed is in trouble all the same.
pub fn team_result(results: &[i64]) -> Option<i64> {
    results.iter().copied().max()
}

/// Action types and their place on the shot counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum ActionType {
    /// 3 shots; may be taken at shot 1 or 2.
    Basic,
    /// 1 shot, in response to something, at any time.
    Trigger,
    /// 1 shot, paid from the first shot (or on one's turn).
    Stance,
    /// Every shot left; must be focused.
    LimitBreak,
    /// 0 shots, after knocking an opponent out.
    Finisher,
}

/// A creature at an open-d6 table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Its name.
    pub name: String,
    /// Its Reflexes.
    pub reflexes: i64,
    /// Named creatures roll initiative; unnamed groups start at their Reflexes.
    #[serde(default = "yes")]
    pub named: bool,
    /// Villains act before heroes on the same shot.
    #[serde(default)]
    pub villain: bool,
    /// Stances held: one shot each from the first shot.
    #[serde(default)]
    pub stances: u32,
    /// Skills by name.
    #[serde(default)]
    pub skills: Vec<(String, i64)>,
    /// A non-player character (default: villains are, heroes are not).
    #[serde(default)]
    pub npc: Option<bool>,
    /// Fortune points, recovered at the start of each session.
    #[serde(default)]
    pub fortune: u32,
    /// Hits: the damage it takes before it is knocked out (none: the scene does not count
    /// them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits: Option<i64>,
    /// Snake-eye Limitations, each with its friction number (1 to 3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limitations: Vec<Limitation>,
    /// The friction conditions it is under as the scene starts (faces of the friction table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub under_friction: Vec<u32>,
    /// Schticks that modify a skill's value; such modifiers never stack (the best counts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schticks: Vec<Schtick>,
    /// Its Move in metres: how far a Basic Action carries it (a Full Move, twice as far).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_m: Option<u32>,
    /// Its soak: taken from the damage of each attack that hits it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub soak: i64,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// A Limitation that uses the friction mechanic: it triggers when a friction check after snake
/// eyes shows its number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limitation {
    /// Its friction number (1 to 3).
    pub number: u32,
    /// What it is ("Jury-rigged jetpack").
    pub name: String,
}

/// A schtick that modifies one skill's value while it is in effect: always (an inherent
/// schtick), or while its stance is adopted. Typed stances (`kind`) do not stack: one stance of
/// each type at a time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schtick {
    /// Its name ("Gun Kata").
    pub name: String,
    /// The skill it modifies (none for a damage boost or a resistance).
    #[serde(default)]
    pub skill: String,
    /// What it adds to the skill.
    #[serde(default)]
    pub bonus: i64,
    /// A damage-increasing power ("Fire Touch"): a new type of damage and how much it adds to
    /// an attack's damage; it stacks with the weapon's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<(String, i64)>,
    /// A resistance power ("Resist Fire"): a type of damage and what it adds to the soak
    /// against attacks carrying it; it stacks with the soak.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resist: Option<(String, i64)>,
    /// It is a stance: in effect only once adopted (one shot, paid as stances are).
    #[serde(default)]
    pub stance: bool,
    /// A typed stance's type ("Damage Boost"): one stance of each type at a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

impl Schtick {
    /// What it does, in words: "Martial Arts +2", "+2 fire damage", "resists fire +2".
    pub fn effect_words(&self) -> String {
        let mut parts = Vec::new();
        if !self.skill.is_empty() {
            parts.push(format!("{} {:+}", self.skill, self.bonus));
        }
        if let Some((kind, n)) = &self.damage {
            parts.push(format!("{n:+} {kind} damage"));
        }
        if let Some((kind, n)) = &self.resist {
            parts.push(format!("resists {kind} {n:+}"));
        }
        parts.join(", ")
    }
}

impl Character {
    /// Whether the game master plays it.
    pub fn is_npc(&self) -> bool {
        self.npc.unwrap_or(self.villain)
    }

    /// Its stance schticks (in effect only once adopted).
    pub fn stance_schticks(&self) -> impl Iterator<Item = &Schtick> {
        self.schticks.iter().filter(|s| s.stance)
    }

    /// Whether a schtick of the character is in effect: an inherent one always, a stance
    /// schtick once adopted (`adopted`: the names of those adopted).
    pub fn in_effect(&self, schtick: &Schtick, adopted: &[String]) -> bool {
        !schtick.stance || adopted.contains(&schtick.name)
    }

    /// A skill's rating, by name.
    pub fn skill(&self, name: &str) -> Option<i64> {
        self.skills
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }
}

#[cfg(test)]
mod tests;
