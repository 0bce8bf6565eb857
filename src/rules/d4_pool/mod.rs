//! `d4-pool`: roll (Aspect − Action Load ± net advantage) d4, at least one, plus extra dice;
//! sum them against a DC or an Evasion. Acting raises Action Load, which resets each turn
//! (or each round).

use crate::rules::Refusal;
use crate::rules::refusal::refuse;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

mod digest;
mod form;
mod ruleset;
pub mod seat;

pub use ruleset::D4Pool;

use super::{ClassId, Die, DieRole, Odds, Outcome, RollPlan, Step};
use crate::odds::Dist;

/// When Action Load resets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reset {
    /// At the start of each creature's own turn, to −(Action Point Bonus).
    PerTurn,
    /// Everyone's load to 0 at the start of each round (the text's playtest alternative).
    PerRound,
}

/// The settings and tables of `assets/rules/d4-pool.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The rules generation the table plays by ([`crate::record::RULES_GENERATION`]; an older
    /// one for a room's log made before, [`crate::rules::table::TableState::played_by`]).
    #[serde(skip, default = "crate::record::current_rules_generation")]
    pub generation: u32,
    /// An action needs `Aspect − Load >= cost` as well as `> 0`.
    pub strict_cost: bool,
    /// When load resets.
    pub reset: Reset,
    /// Whether GM-called rolls shrink with Action Load and raise it.
    pub gm_rolls_use_load: bool,
    /// Kinds of action: their cost, and whether they may be taken on another's turn.
    pub costs: BTreeMap<String, ActionKind>,
}

/// A kind of action in the costs table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionKind {
    /// Added to Action Load after the roll.
    pub cost: i32,
    /// A valid response on another's turn (reaction, counter, assist, team action).
    #[serde(default)]
    pub off_turn: bool,
}

impl Rules {
    /// The cost of a named action from the costs table (1, the usual cost, if it is not listed).
    pub fn cost_of(&self, action: &str) -> i32 {
        self.costs.get(action).map(|k| k.cost).unwrap_or(1)
    }

    /// Whether a kind of action may be taken on another creature's turn.
    pub fn off_turn(&self, action: &str) -> bool {
        self.costs.get(action).is_some_and(|k| k.off_turn)
    }

    /// The kinds that may be taken on another's turn, for messages.
    pub fn off_turn_kinds(&self) -> Vec<&str> {
        self.costs
            .iter()
            .filter(|(_, k)| k.off_turn)
            .map(|(n, _)| n.as_str())
            .collect()
    }
}

/// Where the total goes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// No target: just the total.
    #[default]
    None,
    /// Success iff the total meets or beats the DC.
    Dc(i64),
    /// An attack: damage = total − Evasion, at least 0.
    Evasion(i64),
}

fn one() -> i32 {
    1
}

/// One action, as the CLI takes it: `(aspect: 4, load: 1, advantages: ["torch"], ...)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// The value of the Aspect used.
    pub aspect: i32,
    /// The actor's current Action Load.
    #[serde(default)]
    pub load: i32,
    /// Named sources of Advantage; each counts once.
    #[serde(default)]
    pub advantages: Vec<String>,
    /// Named sources of Disadvantage; each counts once.
    #[serde(default)]
    pub disadvantages: Vec<String>,
    /// Extra dice added to the pool, such as a weapon's d8.
    #[serde(default)]
    pub extra: Vec<Die>,
    /// DC, Evasion or nothing.
    #[serde(default)]
    pub target: Target,
    /// Added to Action Load afterwards.
    #[serde(default = "one")]
    pub cost: i32,
    /// A roll the GM calls for: always allowed, at least 1d4, no cost.
    #[serde(default)]
    pub gm_call: bool,
    /// For a roll the GM calls for: whether this one uses (and raises) the Action Load, the
    /// GM's call each time ("this is up to the GM"); none follows the rules' `gm_rolls_use_load`.
    #[serde(default)]
    pub gm_uses_load: Option<bool>,
}

fn distinct(sources: &[String]) -> usize {
    sources
        .iter()
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
        .collect::<BTreeSet<_>>()
        .len()
}

impl Action {
    /// Advantage sources minus Disadvantage sources, each source counted once.
    pub fn net_advantage(&self) -> i32 {
        distinct(&self.advantages) as i32 - distinct(&self.disadvantages) as i32
    }

    /// Whether the roll shrinks with the Action Load and raises it: always for an action, and
    /// for a roll the GM calls for as the GM chose (or as the rules say).
    pub fn uses_load(&self, rules: &Rules) -> bool {
        !self.gm_call || self.gm_uses_load.unwrap_or(rules.gm_rolls_use_load)
    }

    /// How many d4 are thrown: `max(1, A − max(0, L) + net)`.
    pub fn pool(&self, rules: &Rules) -> u32 {
        let load = if !self.uses_load(rules) {
            0
        } else {
            self.load.max(0)
        };
        (self.aspect - load + self.net_advantage()).max(1) as u32
    }

    /// Whether the action may be taken now, and if not, why.
    pub fn check(&self, rules: &Rules) -> Result<(), Refusal> {
        if self.gm_call {
            return Ok(());
        }
        if self.aspect < 0 {
            return Err(refuse!(
                Unable,
                "Aspect {}: a negative Aspect never acts on its own; only a roll the GM calls \
                 for uses it (at least 1d4)",
                self.aspect
            ));
        }
        let margin = self.aspect - self.load;
        if margin <= 0 {
            return Err(refuse!(
                Spent,
                "Aspect {} minus Action Load {} is {margin}: this Aspect cannot act until the load drops",
                self.aspect,
                self.load
            ));
        }
        if rules.strict_cost && margin < self.cost {
            return Err(refuse!(
                Spent,
                "Aspect {} minus Action Load {} is {margin}, less than the action's cost {}",
                self.aspect,
                self.load,
                self.cost
            ));
        }
        Ok(())
    }

    /// The dice to throw.
    pub fn plan(&self, rules: &Rules) -> RollPlan {
        let mut plan = RollPlan::new("d4 pool").with(self.pool(rules), 4, DieRole::Pool, "d4");
        for die in &self.extra {
            plan = plan.with(1, die.sides(), DieRole::Extra, &format!("extra {die}"));
        }
        plan
    }

    /// The exact distribution of the total.
    pub fn distribution(&self, rules: &Rules) -> Dist {
        self.extra
            .iter()
            .fold(Dist::die(4).repeat_sum(self.pool(rules)), |acc, die| {
                acc.add(&Dist::die(die.sides()))
            })
    }

    /// Exact odds of every outcome class.
    pub fn odds(&self, rules: &Rules) -> Odds {
        let total = self.distribution(rules);
        let mut odds = Odds::of("total", total.clone());
        match self.target {
            Target::None => {}
            Target::Dc(dc) => {
                let p = total.p_where(|v| v >= dc);
                odds.target = Some(dc);
                odds = odds
                    .class("success", p.clone())
                    .class("failure", p.complement());
                odds.p_success = Some(p);
            }
            Target::Evasion(evasion) => {
                let damage = total.map(|v| (v - evasion).max(0));
                let hit = total.p_where(|v| v > evasion);
                odds.target = Some(evasion + 1);
                odds = odds
                    .class("hit", hit.clone())
                    .class("no damage", hit.complement());
                odds.p_success = Some(hit);
                odds.secondary = Some(("damage".to_string(), damage));
            }
        }
        odds
    }

    /// Reads the settled faces (in plan order).
    pub fn resolve(&self, rules: &Rules, faces: &[u32]) -> Result<Step, Refusal> {
        self.plan(rules).check_faces(faces)?;
        let total: i64 = faces.iter().map(|f| i64::from(*f)).sum();
        let pool = self.pool(rules) as usize;
        let mut lines = vec![format!(
            "{}d4 {:?} = {}",
            pool,
            &faces[..pool],
            faces[..pool].iter().sum::<u32>()
        )];
        for (die, face) in self.extra.iter().zip(&faces[pool..]) {
            lines.push(format!("{die}: {face}"));
        }
        lines.push(format!("total {total}"));
        let (success, (class_id, class), tags) = match self.target {
            Target::None => (None, ("total", "total"), vec![]),
            Target::Dc(dc) => {
                let ok = total >= dc;
                lines.push(format!("against DC {dc}"));
                (
                    Some(ok),
                    if ok {
                        ("success", "success")
                    } else {
                        ("failure", "failure")
                    },
                    vec![],
                )
            }
            Target::Evasion(evasion) => {
                let damage = (total - evasion).max(0);
                lines.push(format!("{total} − Evasion {evasion} = {damage} damage"));
                (
                    Some(damage > 0),
                    if damage > 0 {
                        ("hit", "hit")
                    } else {
                        ("no_damage", "no damage")
                    },
                    vec![format!("damage {damage}")],
                )
            }
        };
        Ok(Step::Done(Outcome {
            total,
            success,
            class: class.to_string(),
            class_id: ClassId::new(class_id),
            lines,
            tags,
            facts: Vec::new(),
        }))
    }
}

/// A creature at a d4-pool table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Its name.
    pub name: String,
    /// Aspect values by name (Finesse, Might...).
    pub aspects: BTreeMap<String, i32>,
    /// Load resets to minus this at the start of its turn.
    #[serde(default)]
    pub action_point_bonus: i32,
    /// Weapons by name, with their extra dice.
    #[serde(default)]
    pub weapons: BTreeMap<String, Vec<Die>>,
    /// Evasion, the number attacks against it subtract.
    #[serde(default)]
    pub evasion: i64,
    /// A character the game master plays: online, no player may take its seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub npc: bool,
}

/// What a Team Action puts on another creature's next roll.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum Effect {
    /// One source of Disadvantage (the text's goblin attacking with disadvantage).
    #[default]
    Disadvantage,
    /// One source of Advantage (helping an ally's roll).
    Advantage,
}

impl Effect {
    /// The effect's name in messages.
    pub fn word(self) -> &'static str {
        match self {
            Effect::Disadvantage => "Disadvantage",
            Effect::Advantage => "Advantage",
        }
    }
}

/// A Team Action waiting for the roll it acts on: `on`'s next action this round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imposed {
    /// Who took the Team Action (its source, counted once).
    pub by: usize,
    /// Whose next roll it acts on.
    pub on: usize,
    /// Advantage or Disadvantage.
    pub effect: Effect,
}

/// The turn economy of a d4-pool table: whose turn, and everyone's Action Load.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The ruleset's settings.
    pub rules: Rules,
    /// Who sits at the table, in turn order.
    pub characters: Vec<Character>,
    /// Each character's current Action Load.
    pub loads: Vec<i32>,
    /// 1-based round.
    pub round: u32,
    /// Index of the character whose turn it is.
    pub active: usize,
    /// Team Actions waiting for the roll they help or hinder (gone with it, or with the round).
    pub imposed: Vec<Imposed>,
}

impl Table {
    /// A table at the start of round 1, first character's turn.
    pub fn new(rules: Rules, characters: Vec<Character>) -> Self {
        let loads = vec![0; characters.len()];
        let mut table = Table {
            rules,
            characters,
            loads,
            round: 1,
            active: 0,
            imposed: Vec::new(),
        };
        table.start_turn();
        table
    }

    fn start_turn(&mut self) {
        if self.rules.reset == Reset::PerTurn
            && let Some(c) = self.characters.get(self.active)
        {
            self.loads[self.active] = -c.action_point_bonus;
        }
    }

    /// Builds the action of `actor` with an Aspect (and optionally a weapon), at its current load.
    pub fn action(
        &self,
        actor: usize,
        aspect: &str,
        weapon: Option<&str>,
    ) -> Result<Action, Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        let value = *c
            .aspects
            .get(aspect)
            .ok_or_else(|| refuse!(Unknown, "{} has no Aspect '{aspect}'", c.name))?;
        let extra = match weapon {
            None => Vec::new(),
            Some(w) => c
                .weapons
                .get(w)
                .cloned()
                .ok_or_else(|| refuse!(Unknown, "{} has no weapon '{w}'", c.name))?,
        };
        Ok(Action {
            aspect: value,
            load: self.loads[actor],
            advantages: vec![],
            disadvantages: vec![],
            extra,
            target: Target::None,
            cost: self.rules.cost_of(if weapon.is_some() {
                "attack"
            } else {
                "aspect check"
            }),
            gm_call: false,
            gm_uses_load: None,
        })
    }

    /// Whether `actor` may take `action` of a kind now: on its own turn, or on another's when
    /// the kind is a valid response there (`off_turn` in the costs table).
    pub fn check(&self, actor: usize, action: &Action, kind: &str) -> Result<(), Refusal> {
        if actor >= self.characters.len() {
            return Err(refuse!(Unknown, "no such character"));
        }
        if actor != self.active && !self.rules.off_turn(kind) && !action.gm_call {
            return Err(refuse!(
                NotTheirTurn,
                "it is {}'s turn: {} can only respond ({}), not take {}",
                self.characters[self.active].name,
                self.characters[actor].name,
                self.rules.off_turn_kinds().join(", "),
                crate::text::indefinite(kind)
            ));
        }
        if action.load != self.loads[actor] && !action.gm_call {
            return Err(refuse!(
                Spent,
                "{}'s Action Load is {}, not {}",
                self.characters[actor].name,
                self.loads[actor],
                action.load
            ));
        }
        action.check(&self.rules)
    }

    /// After the roll: the action's cost is added to the actor's load (a GM-called roll only
    /// when it uses the load: the GM's choice, or the table's setting).
    pub fn apply(&mut self, actor: usize, action: &Action) {
        if action.uses_load(&self.rules)
            && let Some(load) = self.loads.get_mut(actor)
        {
            *load += action.cost;
        }
    }

    /// Ends the active character's turn; the next one's load resets (or everyone's, per round).
    pub fn end_turn(&mut self) {
        if super::next_turn(&mut self.active, &mut self.round, self.characters.len()) {
            self.imposed.clear();
            if self.rules.reset == Reset::PerRound {
                self.loads.iter_mut().for_each(|l| *l = 0);
            }
        }
        self.start_turn();
    }

    /// The source a Team Action by `by` is counted as ("Bram's team action": once, however
    /// often it is named).
    pub fn team_source(&self, by: usize) -> String {
        let name = self.characters.get(by).map_or("someone", |c| &c.name);
        format!("{name}'s team action")
    }

    /// Adds the Team Actions waiting on `actor` to its action's sources.
    pub fn add_imposed(&self, actor: usize, action: &mut Action) {
        for i in self.imposed.iter().filter(|i| i.on == actor) {
            let source = self.team_source(i.by);
            match i.effect {
                Effect::Disadvantage => action.disadvantages.push(source),
                Effect::Advantage => action.advantages.push(source),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odds::Prob;
    use crate::rules::RulesetId;
    use crate::rules::engine::builtin_rules;

    fn rules() -> Rules {
        builtin_rules(RulesetId::D4Pool).unwrap_or_else(|e| panic!("{e}"))
    }

    fn action(aspect: i32, load: i32) -> Action {
        Action {
            aspect,
            load,
            advantages: vec![],
            disadvantages: vec![],
            extra: vec![],
            target: Target::None,
            cost: 1,
            gm_call: false,
            gm_uses_load: None,
        }
    }

    #[test]
    fn the_trap_example_rolls_5d4() {
        // Finesse 4, load 0; dark (dis), torch (adv), advice (adv): 5d4.
        let mut a = action(4, 0);
        a.disadvantages = vec!["dark".into()];
        a.advantages = vec!["torch".into(), "advice".into()];
        assert_eq!(a.pool(&rules()), 5);
        let d = a.distribution(&rules());
        assert_eq!(d.p(20).exact(), "1/1024");
        assert_eq!(d.p(5).exact(), "1/1024");
        // 19 = one 3 and four 4s: 5 ways.
        assert_eq!(d.p_where(|v| v >= 19).exact(), "3/512");
    }

    #[test]
    fn a_source_counts_once() {
        let mut a = action(4, 0);
        a.advantages = vec!["Watch My Back".into(), "watch my back".into()];
        assert_eq!(a.net_advantage(), 1);
        assert_eq!(a.pool(&rules()), 5);
    }

    #[test]
    fn the_dagger_example_4d4_plus_d4_against_evasion_11() {
        // Finesse 6, load 2, dagger d4: 4d4 + 1d4 = 5d4 against Evasion 11.
        let mut a = action(6, 2);
        a.extra = vec![Die(4)];
        a.target = Target::Evasion(11);
        assert_eq!(a.pool(&rules()), 4);
        let plan = a.plan(&rules());
        assert_eq!(plan.dice.len(), 5);
        assert_eq!(plan.dice[4].role, DieRole::Extra);
        let odds = a.odds(&rules());
        let (_, damage) = odds.secondary.clone().expect("damage");
        // 9 damage needs 20 on 5d4; no damage needs a total of 11 or less.
        assert_eq!(damage.p(9).exact(), "1/1024");
        // P(5d4 <= 11): counts of sums 5..11 are 1,5,15,35,65,101,135 -> 357/1024.
        assert_eq!(
            odds.class_p("no damage").map(Prob::exact),
            Some("357/1024".into())
        );
        // The text's total of 14 deals 3 damage.
        let Ok(Step::Done(o)) = a.resolve(&rules(), &[4, 3, 2, 1, 4]) else {
            panic!("resolves")
        };
        assert_eq!(o.total, 14);
        assert_eq!(o.tags, vec!["damage 3".to_string()]);
    }

    #[test]
    fn permission_and_minimum_pool() {
        let r = rules();
        assert!(action(3, 3).check(&r).is_err());
        assert!(action(3, 2).check(&r).is_ok());
        let mut costly = action(3, 2);
        costly.cost = 2;
        assert!(costly.check(&r).is_err(), "strict cost: margin 1 < cost 2");
        let mut lax = r.clone();
        lax.strict_cost = false;
        assert!(costly.check(&lax).is_ok());
        // Negative load does not add dice; disadvantage cannot take the pool below 1d4.
        assert_eq!(action(3, -2).pool(&r), 3);
        let mut bad = action(2, 1);
        bad.disadvantages = vec!["a".into(), "b".into(), "c".into()];
        assert_eq!(bad.pool(&r), 1);
        // A GM-called roll ignores load and is always allowed.
        let mut gm = action(2, 5);
        gm.gm_call = true;
        assert!(gm.check(&r).is_ok());
        assert_eq!(gm.pool(&r), 2);
    }

    #[test]
    fn dc_success_probability() {
        // 2d4 >= 7: (3,4),(4,3),(4,4) = 3/16.
        let mut a = action(2, 0);
        a.target = Target::Dc(7);
        assert_eq!(
            a.odds(&rules()).p_success.map(|p| p.exact()),
            Some("3/16".into())
        );
        let Ok(Step::Done(o)) = a.resolve(&rules(), &[3, 4]) else {
            panic!()
        };
        assert_eq!(o.success, Some(true));
        assert!(a.resolve(&rules(), &[5, 1]).is_err(), "a d4 has no 5");
    }

    fn table(reset: Reset) -> Table {
        let mut r = rules();
        r.reset = reset;
        let rogue = Character {
            name: "Rogue".into(),
            aspects: [("Finesse".to_string(), 6)].into(),
            action_point_bonus: 1,
            weapons: [("dagger".to_string(), vec![Die(4)])].into(),
            evasion: 12,
            npc: false,
        };
        let goblin = Character {
            name: "Goblin".into(),
            aspects: [("Finesse".to_string(), 3)].into(),
            action_point_bonus: 0,
            weapons: BTreeMap::new(),
            evasion: 11,
            npc: true,
        };
        Table::new(r, vec![rogue, goblin])
    }

    #[test]
    fn turn_economy_per_turn() {
        let mut t = table(Reset::PerTurn);
        assert_eq!(t.loads, vec![-1, 0], "the rogue starts at -APB");
        let a = t.action(0, "Finesse", Some("dagger")).expect("action");
        assert_eq!(a.pool(&t.rules), 6, "negative load adds nothing");
        t.check(0, &a, "attack").expect("allowed");
        t.apply(0, &a);
        assert_eq!(t.loads[0], 0);
        // The goblin cannot act on the rogue's turn except as a reaction.
        let g = t.action(1, "Finesse", None).expect("action");
        assert!(t.check(1, &g, "aspect check").is_err());
        t.check(1, &g, "reaction").expect("reaction allowed");
        t.apply(1, &g);
        assert_eq!(
            t.loads[1], 1,
            "reactions raise the load, which stays until its turn"
        );
        t.end_turn();
        assert_eq!(t.active, 1);
        assert_eq!(
            t.loads,
            vec![0, 0],
            "the goblin's load resets at its own turn"
        );
        t.end_turn();
        assert_eq!((t.round, t.active), (2, 0));
        assert_eq!(t.loads[0], -1);
    }

    #[test]
    fn table_actions_cost_what_the_rule_file_says() {
        let mut t = table(Reset::PerTurn);
        assert_eq!(
            t.action(0, "Finesse", Some("dagger")).map(|a| a.cost),
            Ok(1)
        );
        t.rules.costs.insert(
            "attack".into(),
            ActionKind {
                cost: 2,
                off_turn: false,
            },
        );
        t.rules.costs.insert(
            "aspect check".into(),
            ActionKind {
                cost: 0,
                off_turn: false,
            },
        );
        assert_eq!(
            t.action(0, "Finesse", Some("dagger")).map(|a| a.cost),
            Ok(2)
        );
        assert_eq!(t.action(0, "Finesse", None).map(|a| a.cost), Ok(0));
        assert_eq!(t.rules.cost_of("juggling"), 1);
    }

    #[test]
    fn turn_economy_per_round_and_exhaustion() {
        let mut t = table(Reset::PerRound);
        assert_eq!(t.loads, vec![0, 0]);
        for _ in 0..6 {
            let a = t.action(0, "Finesse", None).expect("action");
            t.check(0, &a, "attack").expect("allowed");
            t.apply(0, &a);
        }
        let a = t.action(0, "Finesse", None).expect("action");
        assert!(
            t.check(0, &a, "attack").is_err(),
            "6 - 6 = 0: no more Finesse actions"
        );
        t.end_turn();
        assert_eq!(t.loads[0], 6, "per-round reset waits for the round");
        t.end_turn();
        assert_eq!(t.loads, vec![0, 0]);
    }
}
