//! `action-dice`: every action spends action dice from a per-round budget; they join the skill
//! dice (summed) or the ability dice (best `max_dice` kept). Two-die actions halve their dice.
//! Declaration goes from fewest dice left to most; resolution from most dice used to fewest.

use crate::rules::Refusal;
use crate::rules::refusal::refuse;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

mod digest;
mod form;
mod ruleset;
pub mod seat;

pub use ruleset::ActionDice;

use super::{ClassId, DieRole, Odds, Outcome, RollPlan, Step, seeded_coin};
use crate::odds::Dist;

/// The most extra dice (time, tools, circumstance) one action may add: more is a mistake,
/// and a tray holds no more.
pub const MOST_EXTRA_DICE: u32 = 30;

/// An action's extra dice with their range (0 to [`MOST_EXTRA_DICE`]): one bound for a move at
/// the table and an action read on its own.
pub fn extra_dice(extra: u32) -> crate::rules::bounds::Bounded {
    crate::rules::bounds::Bounded::within("extra", i128::from(extra), 0, i64::from(MOST_EXTRA_DICE))
}

/// Rounding of the halved dice of a two-die action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rounding {
    /// `ceil((2 + skill) / 2)`.
    Up,
    /// `floor((2 + skill) / 2)`.
    Down,
}

/// The settings and tables of `assets/rules/action-dice.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The rules generation the table plays by ([`crate::record::RULES_GENERATION`]; an older
    /// one for a room's log made before, [`crate::rules::table::TableState::played_by`]).
    #[serde(skip, default = "crate::record::current_rules_generation")]
    pub generation: u32,
    /// How two-die actions round their halved dice.
    pub two_die_rounding: Rounding,
    /// The base of a defensive value: this plus the dice of the best combat skill.
    pub base_defense: i64,
    /// Extra action dice for declaring noncombat at the start of a round.
    pub noncombat_dice: u32,
    /// The action dice a kind of character has (the text's table).
    pub action_dice_levels: BTreeMap<u32, String>,
    /// Actions that need two action dice.
    pub two_die_actions: Vec<String>,
    /// The basic unit of distance in metres: one die of movement, the farthest a hand-to-hand
    /// attack reaches, the range beyond which ranged attacks take penalties.
    #[serde(default = "four_metres")]
    pub unit_m: u32,
    /// What a ranged attack's target number rises by for each unit of range (or part of one)
    /// beyond the first (the text names the penalty, not its size).
    #[serde(default = "one_point")]
    pub range_penalty: i64,
}

fn four_metres() -> u32 {
    4
}

fn one_point() -> i64 {
    1
}

impl Rules {
    /// The penalty on a ranged attack at `range_m` metres: `range_penalty` for each unit (or
    /// part of one) beyond the first.
    pub fn range_penalty_at(&self, range_m: u32) -> i64 {
        i64::from(range_m.saturating_sub(1) / self.unit_m.max(1)) * self.range_penalty
    }
}

/// Skill actions sum every die; ability actions keep the best few.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// Action dice + skill dice + extra dice, all summed.
    Skill,
    /// Action dice + ability dice, the best `max_dice` summed.
    Ability,
}

/// One action, as the CLI takes it: `(kind: Skill, action_dice: 2, dice: 3, ...)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// Skill or ability.
    pub kind: Kind,
    /// Action dice spent (at least 1; at least 2 for a two-die action).
    pub action_dice: u32,
    /// Skill or ability dice.
    pub dice: u32,
    /// Extra dice from time, tools or circumstance (they join the skill dice).
    #[serde(default)]
    pub extra: u32,
    /// General Defense, Group Attack: two action dice, half the dice.
    #[serde(default)]
    pub two_die: bool,
    /// Success iff the total meets or beats this.
    #[serde(default)]
    pub target: Option<i64>,
    /// For ability actions: how many dice count (default ability + 1).
    #[serde(default)]
    pub max_dice: Option<u32>,
    /// A passive ability (Toughness): its flat dice, no action dice.
    #[serde(default)]
    pub passive: bool,
}

impl Action {
    /// How many d6 are thrown.
    pub fn dice_rolled(&self, rules: &Rules) -> u32 {
        if self.two_die {
            let base = 2 + self.dice + self.extra;
            let half = match rules.two_die_rounding {
                Rounding::Up => base.div_ceil(2),
                Rounding::Down => base / 2,
            };
            half + self.action_dice.saturating_sub(2)
        } else {
            self.action_dice + self.dice + self.extra
        }
    }

    /// How many dice count towards the total.
    pub fn dice_kept(&self, rules: &Rules) -> u32 {
        let rolled = self.dice_rolled(rules);
        match self.kind {
            Kind::Skill => rolled,
            Kind::Ability if self.passive => rolled,
            Kind::Ability => self.max_dice.unwrap_or(self.dice + 1).min(rolled),
        }
    }

    /// Action dice that count for timing: a two-die action at its minimum counts as one.
    pub fn timing_dice(&self) -> u32 {
        if self.two_die {
            self.action_dice.saturating_sub(1)
        } else {
            self.action_dice
        }
    }

    /// Whether the action's own numbers make sense.
    pub fn check(&self) -> Result<(), Refusal> {
        crate::rules::bounds::check([extra_dice(self.extra)])
            .map_err(|e| refuse!(Choice, "{e}"))?;
        if self.passive {
            if self.action_dice > 0 || self.two_die {
                return Err(refuse!(
                    Choice,
                    "a passive ability rolls its own dice, without action dice"
                ));
            }
            if self.dice == 0 {
                return Err(refuse!(Choice, "a passive ability of 0 dice rolls nothing"));
            }
            return Ok(());
        }
        let need = if self.two_die { 2 } else { 1 };
        if self.action_dice < need {
            return Err(if self.two_die {
                refuse!(Choice, "a two-die action needs two action dice")
            } else {
                refuse!(Choice, "every action needs at least one action die")
            });
        }
        if self.kind == Kind::Ability && self.max_dice == Some(0) {
            return Err(refuse!(Choice, "an ability keeps at least one die"));
        }
        Ok(())
    }

    /// The dice to throw.
    pub fn plan(&self, rules: &Rules) -> RollPlan {
        let role = match self.kind {
            Kind::Skill => DieRole::Pool,
            Kind::Ability => DieRole::Ability,
        };
        RollPlan::new(match self.kind {
            Kind::Skill => "skill action",
            Kind::Ability => "ability action",
        })
        .with(self.dice_rolled(rules), 6, role, "d6")
    }

    /// The exact distribution of the total.
    pub fn distribution(&self, rules: &Rules) -> Dist {
        Dist::die(6).keep_highest(self.dice_rolled(rules), self.dice_kept(rules))
    }

    /// Exact odds.
    pub fn odds(&self, rules: &Rules) -> Odds {
        let total = self.distribution(rules);
        let mut odds = Odds::of("total", total.clone());
        if let Some(t) = self.target {
            let p = total.p_where(|v| v >= t);
            odds.target = Some(t);
            odds = odds
                .class("success", p.clone())
                .class("failure", p.complement());
            odds.p_success = Some(p);
        }
        odds
    }

    /// Reads the settled faces.
    pub fn resolve(&self, rules: &Rules, faces: &[u32]) -> Result<Step, Refusal> {
        self.plan(rules).check_faces(faces)?;
        let mut sorted: Vec<u32> = faces.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let kept = &sorted[..self.dice_kept(rules) as usize];
        let total: i64 = kept.iter().map(|f| i64::from(*f)).sum();
        let mut lines = vec![format!("{}d6 {:?}", faces.len(), faces)];
        if kept.len() < faces.len() {
            lines.push(format!("best {} kept: {:?}", kept.len(), kept));
        }
        lines.push(format!("total {total}"));
        let success = self.target.map(|t| total >= t);
        if let Some(t) = self.target {
            lines.push(format!("against {t}"));
        }
        let (id, class) = match success {
            Some(true) => ("success", "success"),
            Some(false) => ("failure", "failure"),
            None => ("total", "total"),
        };
        Ok(Step::Done(Outcome {
            total,
            success,
            class: class.to_string(),
            class_id: ClassId::new(id),
            lines,
            tags: vec![],
            facts: Vec::new(),
        }))
    }
}

/// Action dice usable only for some skills (limited: a broad class; specialized: one skill).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RestrictedDice {
    /// What they are for ("magic", "Riding").
    pub name: String,
    /// How many.
    pub count: u32,
    /// The skills they may be spent on.
    pub skills: Vec<String>,
}

/// A character at an action-dice table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Its name.
    pub name: String,
    /// General action dice per round.
    pub action_dice: u32,
    /// Limited action dice.
    #[serde(default)]
    pub limited: Vec<RestrictedDice>,
    /// Specialized action dice.
    #[serde(default)]
    pub specialized: Vec<RestrictedDice>,
    /// Skill dice by skill.
    #[serde(default)]
    pub skills: BTreeMap<String, u32>,
    /// Ability dice by ability.
    #[serde(default)]
    pub abilities: BTreeMap<String, u32>,
    /// The most dice an ability adds to its total, where it is not the usual N+1 (N its
    /// dice): the best that many count.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ability_max: BTreeMap<String, u32>,
    /// Combat skills that set the hand-to-hand defensive value.
    #[serde(default)]
    pub hand_to_hand: Vec<String>,
    /// Combat skills that set the ranged defensive value.
    #[serde(default)]
    pub ranged: Vec<String>,
    /// Abilities that require no action (Toughness): rolled without action dice.
    #[serde(default)]
    pub passive: Vec<String>,
    /// A character the game master plays: online, no player may take its seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub npc: bool,
}

impl Character {
    /// Whether an ability needs no action.
    pub fn is_passive(&self, ability: &str) -> bool {
        self.passive.iter().any(|p| p.eq_ignore_ascii_case(ability))
    }

    /// The dice of the best combat skill of a category (Dodge counts in both).
    pub fn best_combat_dice(&self, category: Category) -> u32 {
        let skills = match category {
            Category::HandToHand => &self.hand_to_hand,
            Category::Ranged => &self.ranged,
        };
        skills
            .iter()
            .map(String::as_str)
            .chain(["Dodge"])
            .filter_map(|s| self.skills.get(s))
            .max()
            .copied()
            .unwrap_or(0)
    }

    /// Whether `name` can be the movement of a Dive For Cover: a skill or an active ability
    /// of the character that is neither Dodge nor a combat skill. Why not, if not.
    pub fn movement(&self, name: &str) -> Result<(), Refusal> {
        if !self.skills.contains_key(name) && !self.abilities.contains_key(name) {
            return Err(refuse!(
                Unknown,
                "{} has no skill or ability '{name}'",
                self.name
            ));
        }
        if self.is_passive(name) {
            return Err(refuse!(Unable, "{name} is passive: movement is an action"));
        }
        if self.category_of(name).is_some() || name.eq_ignore_ascii_case("Dodge") {
            return Err(refuse!(
                Choice,
                "{name} is a defence or combat skill: movement takes a movement skill"
            ));
        }
        Ok(())
    }

    /// The category of an attack with a combat skill (None: not a combat skill).
    pub fn category_of(&self, skill: &str) -> Option<Category> {
        let has = |list: &[String]| list.iter().any(|s| s.eq_ignore_ascii_case(skill));
        if has(&self.hand_to_hand) {
            Some(Category::HandToHand)
        } else if has(&self.ranged) {
            Some(Category::Ranged)
        } else {
            None
        }
    }

    /// The skill dice General Defense halves: Dodge, or without Dodge the lower of the best
    /// defensive skills of the two categories.
    pub fn general_defense_dice(&self) -> u32 {
        if let Some(d) = self.skills.get("Dodge") {
            return *d;
        }
        let best = |list: &[String]| {
            list.iter()
                .filter_map(|s| self.skills.get(s))
                .max()
                .copied()
                .unwrap_or(0)
        };
        best(&self.hand_to_hand).min(best(&self.ranged))
    }
}

/// A defensive roll in effect until the end of the round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefenseRoll {
    /// The skill or action rolled (Dodge, Sword, General Defense).
    pub skill: String,
    /// The categories it defends in.
    pub categories: Vec<Category>,
    /// The roll's total.
    pub total: i64,
    /// Aimed at the attacks of this character only (a parry or dodge of one attacker's blows,
    /// a dive away from one attack); None: every attack.
    pub against: Option<usize>,
    /// Good for one attack only (Dive For Cover): that attack uses it up.
    pub once: bool,
    /// A dive that carried the character out of the danger zone: that attack cannot reach it.
    pub clear: bool,
}

/// Which defensive value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Category {
    /// Against hand-to-hand attacks.
    HandToHand,
    /// Against ranged attacks.
    Ranged,
}

/// What a character has left this round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// General action dice left.
    pub general: u32,
    /// Limited dice left, per pool of the character.
    pub limited: Vec<u32>,
    /// Specialized dice left, per pool of the character.
    pub specialized: Vec<u32>,
    /// Declared noncombat this round.
    pub noncombat: bool,
    /// Has acted this round (noncombat must be declared before).
    pub acted: bool,
    /// Has been directly affected by another's action this round (attacked): noncombat must
    /// be declared before. Left out of the table's state while false, so the state of a table
    /// where nobody was attacked reads as it always has.
    pub affected: bool,
    /// The GM ruled a defensive declaration the character's action for the sequence of
    /// events under way: no other action until the GM ends the sequence.
    pub bound: bool,
}

impl Budget {
    /// All dice left.
    pub fn total(&self) -> u32 {
        self.general + self.limited.iter().sum::<u32>() + self.specialized.iter().sum::<u32>()
    }
}

/// One action in the round, for ordering: who, and its timing dice and total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timed {
    /// Index of the actor.
    pub actor: usize,
    /// Action dice that count for timing.
    pub timing_dice: u32,
    /// The roll's total.
    pub total: i64,
    /// A movement action: who finishes first goes by the total.
    pub movement: bool,
}

/// The turn economy of an action-dice table.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The ruleset's settings.
    pub rules: Rules,
    /// Who sits at the table.
    pub characters: Vec<Character>,
    /// What each has left this round.
    pub budgets: Vec<Budget>,
    /// 1-based round.
    pub round: u32,
    /// Seed for the text's "break remaining ties randomly".
    pub seed: u64,
    /// The actions rolled this round, for the resolution order.
    pub rolled: Vec<Timed>,
    /// Each character's defensive rolls in effect this round.
    pub defenses: Vec<Vec<DefenseRoll>>,
}

impl Table {
    /// A table at the start of round 1.
    pub fn new(rules: Rules, characters: Vec<Character>, seed: u64) -> Self {
        let mut t = Table {
            rules,
            characters,
            budgets: Vec::new(),
            round: 0,
            seed,
            rolled: Vec::new(),
            defenses: Vec::new(),
        };
        t.end_round();
        t
    }

    /// Ends the round: unused action dice are lost; everyone gets a fresh budget.
    pub fn end_round(&mut self) {
        self.round += 1;
        self.rolled.clear();
        self.defenses = vec![Vec::new(); self.characters.len()];
        self.budgets = self
            .characters
            .iter()
            .map(|c| Budget {
                general: c.action_dice,
                limited: c.limited.iter().map(|l| l.count).collect(),
                specialized: c.specialized.iter().map(|s| s.count).collect(),
                noncombat: false,
                acted: false,
                affected: false,
                bound: false,
            })
            .collect();
    }

    /// Declares a character noncombat: one more action die, base defence 0, no General Defense.
    pub fn declare_noncombat(&mut self, actor: usize) -> Result<(), Refusal> {
        let b = self
            .budgets
            .get_mut(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        if b.noncombat {
            return Ok(());
        }
        if b.acted || b.affected {
            return Err(refuse!(
                NotNow,
                "noncombat is declared at the start of the round, before acting or being attacked"
            ));
        }
        b.noncombat = true;
        b.general += self.rules.noncombat_dice;
        Ok(())
    }

    fn is_two_die(&self, skill: &str) -> bool {
        self.rules
            .two_die_actions
            .iter()
            .any(|a| a.eq_ignore_ascii_case(skill))
    }

    /// Whether `actor` may spend `action.action_dice` on an action with `skill` (or an action
    /// such as "General Defense"), and if not, why.
    pub fn check(&self, actor: usize, skill: &str, action: &Action) -> Result<(), Refusal> {
        action.check()?;
        let (c, b) = (
            self.characters
                .get(actor)
                .ok_or_else(|| refuse!(Unknown, "no such character"))?,
            &self.budgets[actor],
        );
        if self.is_two_die(skill) && !action.two_die {
            return Err(refuse!(Choice, "{skill} is a two-die action"));
        }
        if skill.eq_ignore_ascii_case("General Defense") && b.noncombat {
            return Err(refuse!(
                Choice,
                "{} is noncombat this round: no General Defense",
                c.name
            ));
        }
        let usable = self.usable_dice(actor, skill);
        if action.action_dice > usable {
            return Err(refuse!(
                Spent,
                "{} has {usable} action dice usable for {skill} this round, not {}",
                c.name,
                action.action_dice
            ));
        }
        Ok(())
    }

    /// Dice `actor` could spend on `skill` right now (general + matching limited/specialized).
    pub fn usable_dice(&self, actor: usize, skill: &str) -> u32 {
        let (c, b) = (&self.characters[actor], &self.budgets[actor]);
        let matching = |pools: &[RestrictedDice], left: &[u32]| -> u32 {
            pools
                .iter()
                .zip(left)
                .filter(|(p, _)| p.skills.iter().any(|s| s.eq_ignore_ascii_case(skill)))
                .map(|(_, n)| *n)
                .sum()
        };
        b.general + matching(&c.specialized, &b.specialized) + matching(&c.limited, &b.limited)
    }

    /// Spends the action's dice: specialized first, then limited, then general.
    pub fn spend(&mut self, actor: usize, skill: &str, action: &Action) -> Result<(), Refusal> {
        self.check(actor, skill, action)?;
        let c = &self.characters[actor];
        let b = &mut self.budgets[actor];
        let mut need = action.action_dice;
        for (pool, left) in c
            .specialized
            .iter()
            .zip(b.specialized.iter_mut())
            .chain(c.limited.iter().zip(b.limited.iter_mut()))
        {
            if pool.skills.iter().any(|s| s.eq_ignore_ascii_case(skill)) {
                let take = need.min(*left);
                *left -= take;
                need -= take;
            }
        }
        b.general -= need;
        b.acted = true;
        Ok(())
    }

    /// Builds the action of `actor` for a skill or ability with `action_dice` spent.
    pub fn action(
        &self,
        actor: usize,
        name: &str,
        action_dice: u32,
        target: Option<i64>,
    ) -> Result<Action, Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        let two_die = self.is_two_die(name);
        let (kind, dice) = if let Some(d) = c.skills.get(name) {
            (Kind::Skill, *d)
        } else if let Some(d) = c.abilities.get(name) {
            (Kind::Ability, *d)
        } else if two_die {
            // General Defense rolls with Dodge (or the lower best defensive skill).
            (Kind::Skill, c.general_defense_dice())
        } else {
            (Kind::Skill, 0)
        };
        Ok(Action {
            kind,
            action_dice,
            dice,
            extra: 0,
            two_die,
            target,
            max_dice: match kind {
                Kind::Ability => c.ability_max.get(name).copied(),
                Kind::Skill => None,
            },
            passive: false,
        })
    }

    /// Declaration order: fewest dice left first; ties by limited left, specialized left,
    /// total action dice, then the table's seeded coin.
    pub fn declaration_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.characters.len()).collect();
        order.sort_by_key(|&i| {
            let (c, b) = (&self.characters[i], &self.budgets[i]);
            let total_dice = c.action_dice
                + c.limited.iter().map(|l| l.count).sum::<u32>()
                + c.specialized.iter().map(|s| s.count).sum::<u32>();
            (
                b.total(),
                b.limited.iter().sum::<u32>(),
                b.specialized.iter().sum::<u32>(),
                total_dice,
                seeded_coin(self.seed, u64::from(self.round) << 32 | i as u64),
            )
        });
        order
    }

    /// The base defensive value of a character in a category: 5 + the dice of its best combat
    /// skill of that category (Dodge counts in both), or 0 while noncombat.
    pub fn base_defense(&self, actor: usize, category: Category) -> i64 {
        let (c, b) = (&self.characters[actor], &self.budgets[actor]);
        if b.noncombat {
            return 0;
        }
        self.rules.base_defense + i64::from(c.best_combat_dice(category))
    }

    /// The target of an attack of `category` by `attacker` on `defender` now: its base plus
    /// the best defensive roll in effect for that category and attacker (None: the defences
    /// against every attacker only).
    pub fn attack_target(
        &self,
        defender: usize,
        category: Category,
        attacker: Option<usize>,
    ) -> i64 {
        let rolls: Vec<i64> = self.defenses[defender]
            .iter()
            .filter(|d| d.categories.contains(&category))
            .filter(|d| d.against.is_none() || d.against == attacker)
            .map(|d| d.total)
            .collect();
        self.defense(defender, category, &rolls)
    }

    /// An attack by `attacker` in `category` against `defender` has been made: the defences
    /// good for one attack of that attacker are used up.
    pub fn attacked(&mut self, defender: usize, category: Category, attacker: usize) {
        if let Some(rolls) = self.defenses.get_mut(defender) {
            rolls.retain(|d| {
                !(d.once && d.against == Some(attacker) && d.categories.contains(&category))
            });
        }
    }

    /// Whether `defender` dived clear of the danger zone of `attacker`'s next attack in
    /// `category`.
    pub fn dived_clear(&self, defender: usize, category: Category, attacker: usize) -> bool {
        self.defenses.get(defender).is_some_and(|rolls| {
            rolls
                .iter()
                .any(|d| d.clear && d.against == Some(attacker) && d.categories.contains(&category))
        })
    }

    /// The movement actions of the round in the order they finish: the highest total first,
    /// equal totals together.
    pub fn finishing_order(&self) -> Vec<Vec<usize>> {
        let mut moving: Vec<usize> = (0..self.rolled.len())
            .filter(|&k| self.rolled[k].movement)
            .collect();
        moving.sort_by_key(|&k| std::cmp::Reverse(self.rolled[k].total));
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for k in moving {
            match groups.last_mut() {
                Some(g)
                    if g.first().map(|&f| self.rolled[f].total) == Some(self.rolled[k].total) =>
                {
                    g.push(k)
                }
                _ => groups.push(vec![k]),
            }
        }
        groups
    }

    /// Defence against one attack: the best of several defensive rolls plus the base.
    pub fn defense(&self, actor: usize, category: Category, rolls: &[i64]) -> i64 {
        self.base_defense(actor, category) + rolls.iter().copied().max().unwrap_or(0).max(0)
    }
}

/// Resolution order: most timing dice first, then highest total; equal both ways means
/// simultaneous (one group). Groups hold indices into `actions`.
pub fn resolution_order(actions: &[Timed]) -> Vec<Vec<usize>> {
    let key = |a: &Timed| (a.timing_dice, a.total);
    let mut sorted: Vec<usize> = (0..actions.len()).collect();
    sorted.sort_by_key(|&k| std::cmp::Reverse(key(&actions[k])));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for k in sorted {
        match groups.last_mut() {
            Some(g) if g.first().map(|&f| key(&actions[f])) == Some(key(&actions[k])) => g.push(k),
            _ => groups.push(vec![k]),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesetId;
    use crate::rules::engine::builtin_rules;

    fn rules() -> Rules {
        builtin_rules(RulesetId::ActionDice).unwrap_or_else(|e| panic!("{e}"))
    }

    fn skill(action_dice: u32, dice: u32) -> Action {
        Action {
            kind: Kind::Skill,
            action_dice,
            dice,
            extra: 0,
            two_die: false,
            target: None,
            max_dice: None,
            passive: false,
        }
    }

    #[test]
    fn skill_action_sums_all_dice() {
        // 1 action die + 1 skill die = 2d6 against 10: 6/36 = 1/6.
        let mut a = skill(1, 1);
        a.target = Some(10);
        assert_eq!(a.dice_rolled(&rules()), 2);
        assert_eq!(
            a.odds(&rules()).p_success.map(|p| p.exact()),
            Some("1/6".into())
        );
        let Ok(Step::Done(o)) = a.resolve(&rules(), &[4, 6]) else {
            panic!()
        };
        assert_eq!((o.total, o.success), (10, Some(true)));
    }

    #[test]
    fn the_footrace_ability_keeps_three_of_four() {
        // Running +2d6 (3d6): two action dice -> 4d6, best 3 count.
        let a = Action {
            kind: Kind::Ability,
            action_dice: 2,
            dice: 2,
            extra: 0,
            two_die: false,
            target: None,
            max_dice: Some(3),
            passive: false,
        };
        assert_eq!((a.dice_rolled(&rules()), a.dice_kept(&rules())), (4, 3));
        // P(18) = P(at least three sixes in 4d6) = 21/1296 = 7/432.
        assert_eq!(a.distribution(&rules()).p(18).exact(), "7/432");
        let Ok(Step::Done(o)) = a.resolve(&rules(), &[2, 6, 1, 5]) else {
            panic!()
        };
        assert_eq!(o.total, 13);
        // Default max is ability + 1.
        let mut d = a.clone();
        d.max_dice = None;
        assert_eq!(d.dice_kept(&rules()), 3);
    }

    #[test]
    fn two_die_actions_halve_but_extra_action_dice_count_full() {
        // General Defense with Dodge 3: ceil((2+3)/2) = 3 dice; with one more action die: 4.
        let mut a = skill(2, 3);
        a.two_die = true;
        assert_eq!(a.dice_rolled(&rules()), 3);
        a.action_dice = 3;
        assert_eq!(a.dice_rolled(&rules()), 4);
        assert_eq!(
            a.timing_dice(),
            2,
            "two-die at minimum counts 1, the extra counts full"
        );
        let mut down = rules();
        down.two_die_rounding = Rounding::Down;
        a.action_dice = 2;
        assert_eq!(a.dice_rolled(&down), 2);
        let mut short = a.clone();
        short.action_dice = 1;
        assert!(short.check().is_err());
    }

    fn table() -> Table {
        let knight = Character {
            ability_max: BTreeMap::new(),
            name: "Knight".into(),
            action_dice: 3,
            limited: vec![],
            specialized: vec![RestrictedDice {
                name: "riding die".into(),
                count: 1,
                skills: vec!["Riding".into()],
            }],
            skills: [
                ("Riding".to_string(), 2),
                ("Sword".to_string(), 3),
                ("Dodge".to_string(), 1),
            ]
            .into(),
            abilities: [("Running".to_string(), 2)].into(),
            hand_to_hand: vec!["Sword".into()],
            ranged: vec![],
            passive: vec![],
            npc: false,
        };
        let magician = Character {
            ability_max: BTreeMap::new(),
            name: "Magician".into(),
            action_dice: 1,
            limited: vec![RestrictedDice {
                name: "magic".into(),
                count: 2,
                skills: vec!["Fire".into(), "Ward".into()],
            }],
            specialized: vec![],
            skills: [("Fire".to_string(), 2)].into(),
            abilities: BTreeMap::new(),
            hand_to_hand: vec![],
            ranged: vec![],
            passive: vec![],
            npc: false,
        };
        let mook = Character {
            ability_max: BTreeMap::new(),
            name: "Mugger".into(),
            action_dice: 1,
            limited: vec![],
            specialized: vec![],
            skills: [("Knife".to_string(), 1)].into(),
            abilities: BTreeMap::new(),
            hand_to_hand: vec!["Knife".into()],
            ranged: vec![],
            passive: vec![],
            npc: true,
        };
        Table::new(rules(), vec![knight, magician, mook], 7)
    }

    #[test]
    fn spending_uses_specialized_then_limited_then_general() {
        let mut t = table();
        let ride = t.action(0, "Riding", 1, None).expect("action");
        t.spend(0, "Riding", &ride).expect("spend");
        assert_eq!((t.budgets[0].general, t.budgets[0].specialized[0]), (3, 0));
        let fire = t.action(1, "Fire", 3, None).expect("action");
        t.spend(1, "Fire", &fire).expect("spend all three");
        assert_eq!(t.budgets[1].total(), 0);
        let again = t.action(1, "Fire", 1, None).expect("action");
        assert!(t.check(1, "Fire", &again).is_err());
        // Limited magic dice cannot be spent on a sword.
        let t2 = table();
        let sword = t2.action(1, "Sword", 2, None).expect("action");
        assert!(t2.check(1, "Sword", &sword).is_err());
    }

    #[test]
    fn noncombat_gives_a_die_and_forbids_general_defense() {
        let mut t = table();
        t.declare_noncombat(2).expect("before acting");
        assert_eq!(t.budgets[2].general, 2, "a normal person can move twice");
        assert_eq!(t.base_defense(2, Category::HandToHand), 0);
        let gd = t.action(2, "General Defense", 2, None).expect("action");
        assert!(gd.two_die);
        assert!(t.check(2, "General Defense", &gd).is_err());
        let knife = t.action(2, "Knife", 1, None).expect("action");
        t.spend(2, "Knife", &knife).expect("spend");
        assert!(t.declare_noncombat(0).is_ok());
        assert!(
            t.declare_noncombat(2).is_ok(),
            "already declared: no change"
        );
        let mut t3 = table();
        t3.spend(2, "Knife", &knife).expect("spend");
        assert!(t3.declare_noncombat(2).is_err(), "too late after acting");
    }

    #[test]
    fn declaration_and_resolution_order() {
        let t = table();
        // Left: knight 4 (3 + riding), magician 3 (1 + 2 limited), mugger 1.
        assert_eq!(t.declaration_order(), vec![2, 1, 0]);
        let order = resolution_order(&[
            Timed {
                actor: 0,
                timing_dice: 1,
                total: 9,
                movement: false,
            },
            Timed {
                actor: 1,
                timing_dice: 2,
                total: 4,
                movement: false,
            },
            Timed {
                actor: 2,
                timing_dice: 1,
                total: 9,
                movement: false,
            },
            Timed {
                actor: 3,
                timing_dice: 1,
                total: 12,
                movement: false,
            },
        ]);
        assert_eq!(order, vec![vec![1], vec![3], vec![0, 2]]);
    }

    #[test]
    fn defenses_take_the_best_roll_plus_base() {
        let t = table();
        assert_eq!(t.base_defense(0, Category::HandToHand), 8, "5 + Sword 3");
        assert_eq!(
            t.base_defense(0, Category::Ranged),
            6,
            "5 + Dodge 1: Dodge counts in both categories"
        );
        assert_eq!(t.defense(0, Category::HandToHand, &[7, 11]), 19);
    }

    #[test]
    fn unused_dice_are_lost_at_end_of_round() {
        let mut t = table();
        let a = t.action(0, "Sword", 2, None).expect("action");
        t.spend(0, "Sword", &a).expect("spend");
        assert_eq!(t.budgets[0].general, 1);
        t.end_round();
        assert_eq!((t.round, t.budgets[0].general), (2, 3));
    }
}
