//! `d20-check` as the program sees it: its rules file, cast and table ([`Ruleset`]).

use crate::rules::bounds::Bounded;
use crate::rules::refusal::refuse;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup::Setup;
use crate::rules::{Odds, Refusal, RollPlan, Step, play};

use super::{Action, Character, Rules, Side, Table, TaskProgress};

/// d20 + proficiency against a DC, resource dice, side initiative.
pub struct D20Check;

impl Ruleset for D20Check {
    type Rules = Rules;
    type Character = Character;
    type Table = Table;
    type Action = Action;

    const SHIPPED_RULES: &'static str = include_str!("../../../assets/rules/d20-check.ron");
    const EXAMPLE_ACTION: &'static str = "(proficiency: 3, modifier: 2, dc: 15, edge: Advantage)";
    const SETUP: &'static [&'static str] = &["tasks"];

    fn validate_rules(rules: &Rules) -> Result<(), Refusal> {
        rules.validate()
    }

    fn rules_numbers(r: &Rules) -> Vec<Bounded> {
        let mut out = Vec::new();
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
        out
    }

    fn name(character: &Character) -> &str {
        &character.name
    }

    fn players_play(character: &Character) -> bool {
        character.side == Side::Players
    }

    fn cast_numbers(cast: &[Character]) -> Vec<Bounded> {
        let mut out = Vec::new();
        for c in cast {
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
        out
    }

    fn validate_cast(cast: &[Character], rules: &Rules, generation: u32) -> Result<(), Refusal> {
        for side in [Side::Players, Side::Gamemaster] {
            if !cast.iter().any(|c| c.side == side) {
                return Err(refuse!(
                    Scene,
                    "nobody sits on the {side:?} side; initiative needs both"
                ));
            }
        }
        if generation >= crate::record::CLOSE_READING {
            resources_fit_the_chain(cast, rules)?;
        }
        Ok(())
    }

    fn seat(rules: Rules, cast: Vec<Character>, setup: &Setup, _seed: u64) -> Table {
        let mut table = Table::new(rules, cast);
        table.tasks = setup
            .tasks
            .iter()
            .map(|task| TaskProgress {
                task: task.clone(),
                successes: 0,
                failures: 0,
            })
            .collect();
        table
    }

    fn play_by(table: &mut Table, generation: u32) {
        table.rules.generation = generation;
    }

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

/// Each resource die is a die of the chain the scene plays by (its own rules, else the shipped
/// ones): a d3 in a d4-to-d20 chain would load and be refused only when used.
fn resources_fit_the_chain(cast: &[Character], rules: &Rules) -> Result<(), Refusal> {
    let chain = &rules.resource_chain;
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
