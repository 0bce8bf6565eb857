//! `d4-pool` as the program sees it: its rules file, cast and table ([`Ruleset`]).

use crate::rules::bounds::Bounded;
use crate::rules::refusal::refuse;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup::Setup;
use crate::rules::{Odds, Refusal, RollPlan, Step, play};

use super::{Action, Character, Rules, Table};

/// Pools of d4 limited by Action Load.
pub struct D4Pool;

impl Ruleset for D4Pool {
    type Rules = Rules;
    type Character = Character;
    type Table = Table;
    type Action = Action;

    const SHIPPED_RULES: &'static str = include_str!("../../../assets/rules/d4-pool.ron");
    const EXAMPLE_ACTION: &'static str = r#"(aspect: 4, load: 1, advantages: ["torch"], disadvantages: ["dark"], extra: ["d8"], target: Dc(12))"#;

    fn rules_numbers(rules: &Rules) -> Vec<Bounded> {
        rules
            .costs
            .iter()
            .map(|(name, kind)| {
                Bounded::number(format!("the cost of {name}"), i64::from(kind.cost))
            })
            .collect()
    }

    fn name(character: &Character) -> &str {
        &character.name
    }

    fn players_play(character: &Character) -> bool {
        !character.npc
    }

    fn cast_numbers(cast: &[Character]) -> Vec<Bounded> {
        let mut out = Vec::new();
        for c in cast {
            let n = &c.name;
            for (a, v) in &c.aspects {
                out.push(Bounded::within(
                    format!("{n}'s Aspect {a}"),
                    i128::from(*v),
                    -crate::rules::bounds::MOST_COUNT,
                    crate::rules::bounds::MOST_COUNT,
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
        out
    }

    fn validate_cast(cast: &[Character], _rules: &Rules, _generation: u32) -> Result<(), Refusal> {
        match cast.iter().find(|c| c.aspects.is_empty()) {
            Some(c) => Err(refuse!(Scene, "{} has no Aspects", c.name)),
            None => Ok(()),
        }
    }

    fn seat(rules: Rules, cast: Vec<Character>, _setup: &Setup, _seed: u64) -> Table {
        Table::new(rules, cast)
    }

    fn play_by(table: &mut Table, generation: u32) {
        table.rules.generation = generation;
    }

    fn check_action(action: &Action, rules: &Rules) -> Result<(), Refusal> {
        action.check(rules)
    }

    fn plan_action(action: &Action, rules: &Rules) -> Result<RollPlan, Refusal> {
        Ok(action.plan(rules))
    }

    fn action_odds(action: &Action, rules: &Rules) -> Result<Odds, Refusal> {
        Ok(action.odds(rules))
    }

    fn resolve_action(
        action: &Action,
        rules: &Rules,
        throws: &[Vec<u32>],
    ) -> Result<Step, Refusal> {
        action.resolve(rules, play::single(throws)?)
    }
}
