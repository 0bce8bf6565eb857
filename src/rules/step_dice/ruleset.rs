//! `step-dice` as the program sees it: its rules file, cast and table ([`Ruleset`]).

use crate::rules::bounds::Bounded;
use crate::rules::refusal::refuse;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup::Setup;
use crate::rules::{Odds, Refusal, RollPlan, Step, play};

use super::{Action, Character, Rules, Table};

/// Highest ability die minus difficulty die, d4 to d12.
pub struct StepDice;

impl Ruleset for StepDice {
    type Rules = Rules;
    type Character = Character;
    type Table = Table;
    type Action = Action;

    const SHIPPED_RULES: &'static str = include_str!("../../../assets/rules/step-dice.ron");
    const EXAMPLE_ACTION: &'static str =
        r#"(ability: ["d8", "d6"], difficulty: "Hard", position: Advantage)"#;

    fn validate_rules(rules: &Rules) -> Result<(), Refusal> {
        rules.validate()
    }

    fn rules_numbers(r: &Rules) -> Vec<Bounded> {
        vec![
            Bounded::number("marginal_max", r.marginal_max),
            Bounded::number("complete_max", r.complete_max),
            Bounded::count("teamwork_grit", r.teamwork_grit),
        ]
    }

    fn name(character: &Character) -> &str {
        &character.name
    }

    fn players_play(character: &Character) -> bool {
        !character.npc
    }

    fn cast_numbers(cast: &[Character]) -> Vec<Bounded> {
        cast.iter()
            .map(|c| Bounded::count(format!("{}'s grit", c.name), c.grit))
            .collect()
    }

    fn validate_cast(cast: &[Character], _rules: &Rules, _generation: u32) -> Result<(), Refusal> {
        for c in cast {
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
        Ok(())
    }

    fn seat(rules: Rules, cast: Vec<Character>, _setup: &Setup, _seed: u64) -> Table {
        Table::new(rules, cast)
    }

    fn play_by(_table: &mut Table, _generation: u32) {}

    fn check_action(action: &Action, rules: &Rules) -> Result<(), Refusal> {
        action.check(rules)
    }

    fn plan_action(action: &Action, rules: &Rules) -> Result<RollPlan, Refusal> {
        action.plan(rules)
    }

    fn action_odds(action: &Action, rules: &Rules) -> Result<Odds, Refusal> {
        action.odds(rules)
    }

    fn resolve_action(
        action: &Action,
        rules: &Rules,
        throws: &[Vec<u32>],
    ) -> Result<Step, Refusal> {
        action.resolve(rules, play::single(throws)?)
    }
}
