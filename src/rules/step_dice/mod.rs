//! `step-dice`: the highest ability die minus the difficulty die (with a position die beside
//! it, lowest kept at Advantage, highest at Disadvantage). Result >= 0 succeeds; the effect
//! level is |result| + 1. Teamwork adds a die and earns the helper grit.

use crate::rules::Refusal;
use crate::rules::refusal::refuse;
use serde::{Deserialize, Serialize};

mod digest;
mod form;
mod ruleset;
pub mod seat;

pub use ruleset::StepDice;

use super::{ClassId, Die, DieRole, Odds, Outcome, RollPlan, Step};
use crate::odds::Dist;

/// The settings and tables of `assets/rules/step-dice.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Ties go to the world instead of the player.
    pub dangerous_encounters: bool,
    /// Difficulty ratings and their dice, easiest first.
    pub difficulties: Vec<(String, Die)>,
    /// Skill ranks and their dice, lowest first.
    pub skill_ranks: Vec<(String, Die)>,
    /// Highest effect level that is marginal.
    pub marginal_max: i64,
    /// Highest effect level that is complete (above: critical).
    pub complete_max: i64,
    /// The default difficulty of a teamwork roll.
    pub teamwork_difficulty: Die,
    /// Grit a helper earns for successful teamwork.
    pub teamwork_grit: u32,
}

impl Rules {
    /// Checks what RON cannot: ratings and ranks present, effect bands in order.
    pub fn validate(&self) -> Result<(), Refusal> {
        if self.difficulties.is_empty() || self.skill_ranks.is_empty() {
            return Err(refuse!(
                Scene,
                "difficulties and skill_ranks must not be empty"
            ));
        }
        if !(1..=self.complete_max).contains(&self.marginal_max) {
            return Err(refuse!(
                Scene,
                "marginal_max {} must be between 1 and complete_max {}",
                self.marginal_max,
                self.complete_max
            ));
        }
        Ok(())
    }

    /// A difficulty by rating name ("Hard") or die ("d8").
    pub fn difficulty(&self, text: &str) -> Result<Die, Refusal> {
        if let Some((_, die)) = self
            .difficulties
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(text.trim()))
        {
            return Ok(*die);
        }
        let names = || {
            let names: Vec<String> = self
                .difficulties
                .iter()
                .map(|(n, d)| format!("{n} ({d})"))
                .collect();
            names.join(", ")
        };
        let die = text.parse::<Die>().map_err(|_| {
            refuse!(
                Unknown,
                "unknown difficulty '{text}': use one of {}",
                names()
            )
        })?;
        // Only the ratings' dice are difficulties: "a difficulty below Challenging does not
        // exist".
        if self.difficulties.iter().any(|(_, d)| *d == die) {
            Ok(die)
        } else {
            Err(refuse!(
                Unknown,
                "a {die} is no difficulty: the ratings are {}",
                names()
            ))
        }
    }

    /// The rating name of a difficulty die, if it has one.
    pub fn difficulty_name(&self, die: Die) -> Option<&str> {
        self.difficulties
            .iter()
            .find(|(_, d)| *d == die)
            .map(|(n, _)| n.as_str())
    }

    /// The effect level name of an effect `e = |result| + 1`.
    pub fn effect_level(&self, effect: i64) -> &'static str {
        match self.effect_level_id(effect) {
            EffectLevel::Marginal => "marginal",
            EffectLevel::Complete => "complete",
            EffectLevel::Critical => "critical",
        }
    }

    /// The effect level of an effect `e = |result| + 1`.
    pub fn effect_level_id(&self, effect: i64) -> EffectLevel {
        if effect <= self.marginal_max {
            EffectLevel::Marginal
        } else if effect <= self.complete_max {
            EffectLevel::Complete
        } else {
            EffectLevel::Critical
        }
    }

    /// Whether a result succeeds.
    pub fn succeeds(&self, result: i64) -> bool {
        if self.dangerous_encounters {
            result > 0
        } else {
            result >= 0
        }
    }
}

/// How far a result went past (or fell short of) the difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffectLevel {
    /// Within the marginal band.
    Marginal,
    /// Within the complete band.
    Complete,
    /// Past it.
    Critical,
}

/// The character's position on the challenge.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub enum Position {
    /// The difficulty die alone.
    #[default]
    Neutral,
    /// A position die is added and the lowest difficulty die counts.
    Advantage,
    /// A position die is added and the highest difficulty die counts.
    Disadvantage,
}

/// One action roll: `(ability: ["d8", "d6"], difficulty: "Hard", position: Advantage)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// The ability pool: skill die, boost dice, teamwork dice. Ignored when unskilled.
    #[serde(default)]
    pub ability: Vec<Die>,
    /// Difficulty by rating name or die.
    pub difficulty: String,
    /// The position.
    #[serde(default)]
    pub position: Position,
    /// No suitable skill: a Novice d4 ability die (plus boosts) and always Disadvantage.
    #[serde(default)]
    pub unskilled: bool,
    /// A quick action roll: one ability die against one difficulty die, success or failure.
    #[serde(default)]
    pub quick: bool,
}

/// The exact distribution pieces of an action roll.
struct Pools {
    ability: Vec<Die>,
    difficulty: Die,
    position: Position,
}

impl Action {
    /// A quick action roll: one skill die against one difficulty, no boosts or position.
    pub fn quick(die: Die, difficulty: String) -> Action {
        Action {
            ability: vec![die],
            difficulty,
            position: Position::Neutral,
            unskilled: false,
            quick: true,
        }
    }

    fn pools(&self, rules: &Rules) -> Result<Pools, Refusal> {
        let difficulty = rules.difficulty(&self.difficulty)?;
        let mut ability = self.ability.clone();
        let mut position = self.position;
        if self.quick {
            // No boosts or fictional positioning: the raw ability die alone.
            ability.truncate(1);
            position = Position::Neutral;
        }
        if self.unskilled {
            let novice = rules.skill_ranks.first().map(|(_, d)| *d).unwrap_or(Die(4));
            // The skill die becomes a d4; boosts and teamwork still add.
            if ability.is_empty() {
                ability.push(novice);
            } else {
                ability[0] = novice;
            }
            // Unskilled rolls are always made with a disadvantage, quick ones too.
            position = Position::Disadvantage;
        }
        if ability.is_empty() {
            return Err(refuse!(
                Choice,
                "the ability pool is empty: give the skill die (or mark the roll unskilled)"
            ));
        }
        let steps: Vec<Die> = rules.skill_ranks.iter().map(|(_, d)| *d).collect();
        if let Some(odd) = ability.iter().find(|d| !steps.contains(d)) {
            let names: Vec<String> = steps.iter().map(Die::to_string).collect();
            return Err(refuse!(
                Choice,
                "{odd} is not a step die; ability dice are {}",
                names.join(", ")
            ));
        }
        Ok(Pools {
            ability,
            difficulty,
            position,
        })
    }

    /// Whether the roll can be made.
    pub fn check(&self, rules: &Rules) -> Result<(), Refusal> {
        self.pools(rules).map(|_| ())
    }

    /// The dice to throw: ability dice, the difficulty die, the position die.
    pub fn plan(&self, rules: &Rules) -> Result<RollPlan, Refusal> {
        let p = self.pools(rules)?;
        let mut plan = RollPlan::new(if self.quick {
            "quick action roll"
        } else {
            "action roll"
        });
        for (i, d) in p.ability.iter().enumerate() {
            let label = if i == 0 {
                format!("ability {d}")
            } else {
                format!("extra ability {d}")
            };
            plan = plan.with(1, d.sides(), DieRole::Ability, &label);
        }
        plan = plan.with(
            1,
            p.difficulty.sides(),
            DieRole::Difficulty,
            &format!("difficulty {}", p.difficulty),
        );
        if p.position != Position::Neutral {
            plan = plan.with(
                1,
                p.difficulty.sides(),
                DieRole::Position,
                &format!("position {}", p.difficulty),
            );
        }
        Ok(plan)
    }

    /// The exact distribution of the result (ability − difficulty).
    pub fn distribution(&self, rules: &Rules) -> Result<Dist, Refusal> {
        let p = self.pools(rules)?;
        let ability = Dist::max_of(
            &p.ability
                .iter()
                .map(|d| Dist::die(d.sides()))
                .collect::<Vec<_>>(),
        );
        let die = Dist::die(p.difficulty.sides());
        let difficulty = match p.position {
            Position::Neutral => die,
            Position::Advantage => Dist::min_of(&[die.clone(), die]),
            Position::Disadvantage => Dist::max_of(&[die.clone(), die]),
        };
        Ok(ability.sub(&difficulty))
    }

    /// Exact odds of success and of each effect level.
    pub fn odds(&self, rules: &Rules) -> Result<Odds, Refusal> {
        let result = self.distribution(rules)?;
        let p_success = result.p_where(|r| rules.succeeds(r));
        let mut odds = Odds::of("result", result.clone());
        odds.target = Some(if rules.dangerous_encounters { 1 } else { 0 });
        odds = odds
            .class("success", p_success.clone())
            .class("failure", p_success.complement());
        if !self.quick {
            for success in [true, false] {
                for level in ["critical", "complete", "marginal"] {
                    let p = result.p_where(|r| {
                        rules.succeeds(r) == success && rules.effect_level(r.abs() + 1) == level
                    });
                    let name = format!("{level} {}", if success { "success" } else { "failure" });
                    odds = odds.class(&name, p);
                }
            }
        }
        odds.p_success = Some(p_success);
        Ok(odds)
    }

    /// Reads the settled faces (in plan order).
    pub fn resolve(&self, rules: &Rules, faces: &[u32]) -> Result<Step, Refusal> {
        let plan = self.plan(rules)?;
        plan.check_faces(faces)?;
        let p = self.pools(rules)?;
        let n = p.ability.len();
        let ability = faces[..n].iter().copied().max().unwrap_or(0);
        let diff_faces = &faces[n..];
        let difficulty = match p.position {
            Position::Neutral => diff_faces[0],
            Position::Advantage => diff_faces.iter().copied().min().unwrap_or(0),
            Position::Disadvantage => diff_faces.iter().copied().max().unwrap_or(0),
        };
        let result = i64::from(ability) - i64::from(difficulty);
        let success = rules.succeeds(result);
        let effect = result.abs() + 1;
        let level = rules.effect_level(effect);
        let mut lines = vec![format!("ability {:?}: highest {ability}", &faces[..n])];
        lines.push(match p.position {
            Position::Neutral => format!("difficulty {}: {difficulty}", p.difficulty),
            Position::Advantage => format!(
                "difficulty {:?} at Advantage: lowest {difficulty}",
                diff_faces
            ),
            Position::Disadvantage => format!(
                "difficulty {:?} at Disadvantage: highest {difficulty}",
                diff_faces
            ),
        });
        lines.push(format!("result {ability} − {difficulty} = {result}"));
        let verdict = if success { "success" } else { "failure" };
        let class = if self.quick {
            verdict.to_string()
        } else {
            lines.push(format!("effect |{result}| + 1 = {effect}: {level}"));
            format!("{level} {verdict}")
        };
        let class_id = match (self.quick, success, rules.effect_level_id(effect)) {
            (true, true, _) => "success",
            (true, false, _) => "failure",
            (false, true, EffectLevel::Marginal) => "marginal_success",
            (false, true, EffectLevel::Complete) => "complete_success",
            (false, true, EffectLevel::Critical) => "critical_success",
            (false, false, EffectLevel::Marginal) => "marginal_failure",
            (false, false, EffectLevel::Complete) => "complete_failure",
            (false, false, EffectLevel::Critical) => "critical_failure",
        };
        Ok(Step::Done(Outcome {
            total: result,
            success: Some(success),
            class,
            class_id: ClassId::new(class_id),
            lines,
            tags: vec![],
            facts: Vec::new(),
        }))
    }
}

/// A character at a step-dice table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Its name.
    pub name: String,
    /// Skill sets and specializations, with their dice.
    #[serde(default)]
    pub skills: Vec<(String, Die)>,
    /// Grit points at the start.
    #[serde(default)]
    pub grit: u32,
    /// A character the game master plays: online, no player may take its seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub npc: bool,
}

/// The turn economy of a step-dice table: a standard turn each, teamwork, grit.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The ruleset's settings.
    pub rules: Rules,
    /// Who sits at the table, in turn order.
    pub characters: Vec<Character>,
    /// Grit points of each.
    pub grit: Vec<u32>,
    /// Who has used their action this round (acting, or helping).
    pub acted: Vec<bool>,
    /// Teamwork dice waiting to join each character's next action roll this round.
    pub help: Vec<Vec<Die>>,
    /// 1-based round.
    pub round: u32,
    /// Whose turn.
    pub active: usize,
}

impl Table {
    /// A table at the start of round 1.
    pub fn new(rules: Rules, characters: Vec<Character>) -> Self {
        let n = characters.len();
        Table {
            rules,
            grit: characters.iter().map(|c| c.grit).collect(),
            characters,
            acted: vec![false; n],
            help: vec![Vec::new(); n],
            round: 1,
            active: 0,
        }
    }

    fn skill_die(&self, actor: usize, skill: &str) -> Option<Die> {
        self.characters[actor]
            .skills
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(skill))
            .map(|(_, d)| *d)
    }

    /// The action roll of `actor` with a skill (None: unskilled), boosts, and waiting teamwork.
    pub fn action(
        &self,
        actor: usize,
        skill: Option<&str>,
        difficulty: &str,
        position: Position,
        boosts: &[Die],
    ) -> Result<Action, Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        let (skill_die, unskilled) = match skill {
            None => (Die(4), true),
            Some(s) => (
                self.skill_die(actor, s)
                    .ok_or_else(|| refuse!(Unknown, "{} has no skill set '{s}'", c.name))?,
                false,
            ),
        };
        let mut ability = vec![skill_die];
        ability.extend_from_slice(boosts);
        ability.extend(self.help[actor].iter().copied());
        Ok(Action {
            ability,
            difficulty: difficulty.to_string(),
            position,
            unskilled,
            quick: false,
        })
    }

    /// Whether `actor` may act now: on its turn, once a round.
    pub fn check(&self, actor: usize) -> Result<(), Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        if actor != self.active {
            return Err(refuse!(
                NotTheirTurn,
                "it is {}'s turn",
                self.characters[self.active].name
            ));
        }
        if self.acted[actor] {
            return Err(refuse!(
                NotTheirTurn,
                "{} has used this round's action",
                c.name
            ));
        }
        Ok(())
    }

    /// The helper's quick action roll for teamwork: its skill die against the teamwork
    /// difficulty (or a harder one the director sets).
    pub fn teamwork_roll(
        &self,
        helper: usize,
        skill: Option<&str>,
        difficulty: Option<Die>,
    ) -> Result<Action, Refusal> {
        let c = self
            .characters
            .get(helper)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        if self.acted[helper] {
            return Err(refuse!(
                NotTheirTurn,
                "{} has used this round's action and cannot help",
                c.name
            ));
        }
        let difficulty = difficulty
            .unwrap_or(self.rules.teamwork_difficulty)
            .max(self.rules.teamwork_difficulty);
        let Some(skill) = skill else {
            return Ok(self.unskilled_quick(difficulty.to_string()));
        };
        let die = self
            .skill_die(helper, skill)
            .ok_or_else(|| refuse!(Unknown, "{} has no skill set '{skill}'", c.name))?;
        Ok(Action::quick(die, difficulty.to_string()))
    }

    /// An unskilled quick action roll: a Novice die against the difficulty, at Disadvantage.
    fn unskilled_quick(&self, difficulty: String) -> Action {
        let novice = self
            .rules
            .skill_ranks
            .first()
            .map(|(_, d)| *d)
            .unwrap_or(Die(4));
        Action {
            unskilled: true,
            ..Action::quick(novice, difficulty)
        }
    }

    /// A Quick Action Roll the director calls for: `actor`'s skill die against a rating.
    pub fn quick_roll(
        &self,
        actor: usize,
        skill: Option<&str>,
        difficulty: &str,
    ) -> Result<Action, Refusal> {
        let c = self
            .characters
            .get(actor)
            .ok_or_else(|| refuse!(Unknown, "no such character"))?;
        let Some(skill) = skill else {
            return Ok(self.unskilled_quick(difficulty.to_string()));
        };
        let die = self.skill_die(actor, skill).ok_or_else(|| {
            let has: Vec<&str> = c.skills.iter().map(|(n, _)| n.as_str()).collect();
            refuse!(Unknown,
                "{} has no skill set '{skill}' (a quick action roll compares raw ability: use one of {})",
                c.name,
                has.join(", ")
            )
        })?;
        // The difficulty is read (and a die no rating uses refused) with the pools.
        Ok(Action::quick(die, difficulty.to_string()))
    }

    /// After the teamwork roll: the helper's action is spent; success adds a die of the helper's
    /// skill size to the helped character's pool and earns the helper grit.
    pub fn apply_teamwork(&mut self, helper: usize, helped: usize, roll: &Action, success: bool) {
        self.acted[helper] = true;
        if success {
            self.grit[helper] += self.rules.teamwork_grit;
            if let Some(d) = roll.ability.first() {
                self.help[helped].push(*d);
            }
        }
    }

    /// After an action roll: the actor's action is spent and its teamwork dice are used.
    pub fn apply(&mut self, actor: usize) {
        self.acted[actor] = true;
        self.help[actor].clear();
    }

    /// Ends the active character's turn; after the last, a new round: everyone acts again, and
    /// teamwork dice not rolled this round are lost.
    pub fn end_turn(&mut self) {
        if super::next_turn(&mut self.active, &mut self.round, self.characters.len()) {
            self.acted.iter_mut().for_each(|a| *a = false);
            self.help.iter_mut().for_each(Vec::clear);
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
        builtin_rules(RulesetId::StepDice).unwrap_or_else(|e| panic!("{e}"))
    }

    fn act(ability: &[u32], difficulty: &str, position: Position) -> Action {
        Action {
            ability: ability.iter().map(|s| Die(*s)).collect(),
            difficulty: difficulty.into(),
            position,
            unskilled: false,
            quick: false,
        }
    }

    #[test]
    fn difficulty_ratings_and_ranks() {
        let r = rules();
        let names: Vec<(&str, u32)> = r
            .difficulties
            .iter()
            .map(|(n, d)| (n.as_str(), d.sides()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("Challenging", 4),
                ("Very Challenging", 6),
                ("Hard", 8),
                ("Very Hard", 10),
                ("Extremely Hard", 12)
            ]
        );
        assert_eq!(r.difficulty("hard"), Ok(Die(8)));
        assert_eq!(r.difficulty("d10"), Ok(Die(10)));
        assert!(r.difficulty("Trivial").is_err());
        assert_eq!(r.skill_ranks[0], ("Novice".to_string(), Die(4)));
    }

    #[test]
    fn d6_against_challenging_d4() {
        // P(a >= d) over 6*4 = 24: for d=1..4: 6,5,4,3 -> 18/24 = 3/4.
        let a = act(&[6], "Challenging", Position::Neutral);
        let odds = a.odds(&rules()).expect("odds");
        assert_eq!(odds.p_success.as_ref().map(Prob::exact), Some("3/4".into()));
        // Critical success needs result >= 6 (e >= 7): impossible with d6 - d4 (max 5).
        assert_eq!(
            odds.class_p("critical success").map(Prob::exact),
            Some("0".into())
        );
        // Complete success: result 3..5: (4,1),(5,1),(5,2),(6,1),(6,2),(6,3) = 6/24 = 1/4.
        assert_eq!(
            odds.class_p("complete success").map(Prob::exact),
            Some("1/4".into())
        );
    }

    #[test]
    fn the_contract_example_d8_d6_vs_hard_with_advantage() {
        // ability max(d8, d6), difficulty min(d8, d8). Brute force by hand in the test.
        let a = act(&[8, 6], "Hard", Position::Advantage);
        let mut wins = 0u32;
        for x in 1..=8 {
            for y in 1..=6 {
                for p in 1..=8 {
                    for q in 1..=8 {
                        if x.max(y) >= p.min(q) {
                            wins += 1;
                        }
                    }
                }
            }
        }
        // wins / 3072
        let exact = Prob::new(wins.into(), 3072u32.into()).exact();
        assert_eq!(
            a.odds(&rules()).expect("odds").p_success.map(|p| p.exact()),
            Some(exact)
        );
        assert_eq!(wins, 2547);
        let plan = a.plan(&rules()).expect("plan");
        let roles: Vec<DieRole> = plan.dice.iter().map(|d| d.role).collect();
        assert_eq!(
            roles,
            vec![
                DieRole::Ability,
                DieRole::Ability,
                DieRole::Difficulty,
                DieRole::Position
            ]
        );
    }

    #[test]
    fn resolve_effect_levels_and_ties() {
        let r = rules();
        let a = act(&[8], "Hard", Position::Disadvantage);
        let Ok(Step::Done(o)) = a.resolve(&r, &[5, 2, 5]) else {
            panic!()
        };
        assert_eq!(
            (o.total, o.success, o.class.as_str()),
            (0, Some(true), "marginal success")
        );
        let Ok(Step::Done(o)) = a.resolve(&r, &[1, 8, 3]) else {
            panic!()
        };
        assert_eq!((o.total, o.class.as_str()), (-7, "critical failure"));
        let b = act(&[12], "Challenging", Position::Neutral);
        let Ok(Step::Done(o)) = b.resolve(&r, &[9, 4]) else {
            panic!()
        };
        assert_eq!(o.class, "complete success", "5 + 1 = 6: complete");
        let Ok(Step::Done(o)) = b.resolve(&r, &[10, 4]) else {
            panic!()
        };
        assert_eq!(o.class, "critical success", "6 + 1 = 7: critical");
        let mut dangerous = r.clone();
        dangerous.dangerous_encounters = true;
        let Ok(Step::Done(o)) = a.resolve(&dangerous, &[5, 2, 5]) else {
            panic!()
        };
        assert_eq!(
            o.success,
            Some(false),
            "a tie fails in dangerous encounters"
        );
    }

    #[test]
    fn unskilled_is_a_d4_at_disadvantage() {
        let mut a = act(&[10], "Challenging", Position::Advantage);
        a.unskilled = true;
        // max(d4) vs max(d4, d4): P(a >= max) = sum_a P(max <= a) / 4 = (1+4+9+16)/(16*4) = 30/64.
        assert_eq!(
            a.odds(&rules()).map(|o| o.p_success.map(|p| p.exact())),
            Ok(Some("15/32".into()))
        );
    }

    #[test]
    fn quick_rolls_ignore_boosts_and_position() {
        let mut a = act(&[6, 8], "Challenging", Position::Disadvantage);
        a.quick = true;
        assert_eq!(a.plan(&rules()).expect("plan").dice.len(), 2);
        let odds = a.odds(&rules()).expect("odds");
        assert_eq!(odds.p_success.as_ref().map(Prob::exact), Some("3/4".into()));
        assert!(
            odds.class_p("marginal success").is_none(),
            "no effect level for quick rolls"
        );
    }

    fn table() -> Table {
        let c = |name: &str, skill: &str, die: u32| Character {
            name: name.into(),
            skills: vec![(skill.to_string(), Die(die))],
            grit: 0,
            npc: false,
        };
        Table::new(rules(), vec![c("Ana", "Locks", 8), c("Bo", "Locks", 6)])
    }

    #[test]
    fn teamwork_adds_a_die_and_grit() {
        let mut t = table();
        let help = t.teamwork_roll(1, Some("Locks"), None).expect("help");
        assert_eq!(help.difficulty, "d4");
        let Ok(Step::Done(o)) = help.resolve(&t.rules, &[3, 2]) else {
            panic!()
        };
        assert_eq!(o.success, Some(true));
        t.apply_teamwork(1, 0, &help, true);
        assert_eq!(t.grit, vec![0, 1]);
        let a = t
            .action(0, Some("Locks"), "Hard", Position::Neutral, &[])
            .expect("action");
        assert_eq!(a.ability, vec![Die(8), Die(6)]);
        t.check(0).expect("Ana's turn");
        t.apply(0);
        assert!(t.check(0).is_err(), "one action a turn");
        t.end_turn();
        assert!(
            t.check(1).is_err(),
            "Bo gave up this round's action to help"
        );
        assert!(t.teamwork_roll(1, Some("Locks"), None).is_err());
        t.end_turn();
        assert_eq!(t.round, 2);
        t.check(0).expect("new round");
        let a = t
            .action(0, Some("Locks"), "Hard", Position::Neutral, &[])
            .expect("action");
        assert_eq!(a.ability, vec![Die(8)], "the teamwork die was used");
    }

    #[test]
    fn failed_teamwork_gives_nothing() {
        let mut t = table();
        let help = t
            .teamwork_roll(1, Some("Locks"), Some(Die(8)))
            .expect("help");
        assert_eq!(help.difficulty, "d8");
        t.apply_teamwork(1, 0, &help, false);
        assert_eq!(t.grit, vec![0, 0]);
        assert!(t.help[0].is_empty());
    }
}
