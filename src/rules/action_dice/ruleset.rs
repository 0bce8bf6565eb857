//! `action-dice` as the program sees it: its rules file, cast and table ([`Ruleset`]).

use crate::rules::bounds::{self, Bounded};
use crate::rules::refusal::refuse;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup::Setup;
use crate::rules::{Odds, Refusal, RollPlan, Step, play};

use super::{Action, Character, Rules, Table};

/// Pools of d6 built from action dice spent each 4-second round.
pub struct ActionDice;

impl Ruleset for ActionDice {
    type Rules = Rules;
    type Character = Character;
    type Table = Table;
    type Action = Action;

    const SHIPPED_RULES: &'static str = include_str!("../../../assets/rules/action-dice.ron");
    const EXAMPLE_ACTION: &'static str =
        "(kind: Skill, action_dice: 2, dice: 3, extra: 0, two_die: false, target: Some(15))";

    fn rules_numbers(r: &Rules) -> Vec<Bounded> {
        let mut out = vec![
            Bounded::number("base_defense", r.base_defense),
            Bounded::count("noncombat_dice", r.noncombat_dice),
        ];
        for level in r.action_dice_levels.keys() {
            out.push(Bounded::count("a level of action_dice_levels", *level));
        }
        out.push(Bounded::within(
            "unit_m",
            i128::from(r.unit_m),
            1,
            bounds::MOST_NUMBER,
        ));
        out.push(Bounded::number("range_penalty", r.range_penalty));
        out
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
            out.push(Bounded::count(format!("{n}'s action_dice"), c.action_dice));
            for r in c.limited.iter().chain(&c.specialized) {
                out.push(Bounded::count(format!("{n}'s {} dice", r.name), r.count));
            }
            for (s, d) in c.skills.iter().chain(&c.abilities) {
                out.push(Bounded::count(format!("{n}'s dice in {s}"), *d));
            }
            for (a, most) in &c.ability_max {
                out.push(Bounded::count(format!("{n}'s ability_max for {a}"), *most));
            }
        }
        out
    }

    fn validate_cast(cast: &[Character], _rules: &Rules, _generation: u32) -> Result<(), Refusal> {
        for c in cast {
            if c.action_dice == 0 {
                return Err(refuse!(
                    Scene,
                    "{} has no action dice; everyone has at least one",
                    c.name
                ));
            }
            if let Some((a, most)) = c
                .ability_max
                .iter()
                .find(|(a, most)| !c.abilities.contains_key(*a) || **most == 0)
            {
                return Err(if *most == 0 && c.abilities.contains_key(a) {
                    refuse!(
                        Scene,
                        "{}'s ability_max for {a} is 0: an ability adds at least 1 die",
                        c.name
                    )
                } else {
                    refuse!(
                        Scene,
                        "{}'s ability_max names {a}, which is not among its abilities",
                        c.name
                    )
                });
            }
            let known = |s: &String| c.skills.contains_key(s);
            if let Some(s) = c.hand_to_hand.iter().chain(&c.ranged).find(|s| !known(s)) {
                return Err(refuse!(
                    Scene,
                    "{} lists combat skill '{s}' that is not among its skills",
                    c.name
                ));
            }
        }
        Ok(())
    }

    fn seat(rules: Rules, cast: Vec<Character>, _setup: &Setup, seed: u64) -> Table {
        Table::new(rules, cast, seed)
    }

    fn play_by(table: &mut Table, generation: u32) {
        table.rules.generation = generation;
    }

    fn check_action(action: &Action, _rules: &Rules) -> Result<(), Refusal> {
        action.check()
    }

    fn plan_action(action: &Action, rules: &Rules) -> Result<RollPlan, Refusal> {
        Ok(action.plan(rules))
    }

    fn action_odds(action: &Action, rules: &Rules) -> Result<Odds, Refusal> {
        action.check()?;
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
