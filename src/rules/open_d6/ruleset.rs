//! `open-d6` as the program sees it: its rules file, cast and table ([`Ruleset`]).

use crate::rules::bounds::{self, Bounded};
use crate::rules::refusal::refuse;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup::Setup;
use crate::rules::{Odds, Refusal, RollPlan, Step};

use super::{Action, Character, Cost, Rules, Table};

/// Positive minus negative open-ended d6, initiative shots.
pub struct OpenD6;

impl Ruleset for OpenD6 {
    type Rules = Rules;
    type Character = Character;
    type Table = Table;
    type Action = Action;

    const SHIPPED_RULES: &'static str = include_str!("../../../assets/rules/open-d6.ron");
    const EXAMPLE_ACTION: &'static str = "(roll: Standard, skill: 10, difficulty: 13)";
    const SETUP: &'static [&'static str] = &["simplified_initiative"];

    fn validate_rules(rules: &Rules) -> Result<(), Refusal> {
        rules.validate()
    }

    fn rules_numbers(r: &Rules) -> Vec<Bounded> {
        let mut out = Vec::new();
        for (kind, cost) in &r.costs {
            if let Cost::Shots(n) = cost {
                out.push(Bounded::count(format!("the shots of {kind:?}"), *n));
            }
        }
        out.push(Bounded::count("surprise_shots", r.surprise_shots));
        out.push(Bounded::number("min_first_shot", r.min_first_shot));
        out.push(Bounded::number("max_assist_bonus", r.max_assist_bonus));
        out.push(Bounded::number(
            "active_defense_bonus",
            r.active_defense_bonus,
        ));
        out.push(Bounded::count(
            "npc_limit_break_shots",
            r.npc_limit_break_shots,
        ));
        out.push(Bounded::number("advantage_bonus", r.advantage_bonus));
        out.push(Bounded::number("routine_difficulty", r.routine_difficulty));
        out
    }

    fn name(character: &Character) -> &str {
        &character.name
    }

    fn players_play(character: &Character) -> bool {
        !character.is_npc()
    }

    fn cast_numbers(cast: &[Character]) -> Vec<Bounded> {
        let mut out = Vec::new();
        for c in cast {
            let n = &c.name;
            out.push(Bounded::number(format!("{n}'s reflexes"), c.reflexes));
            out.push(Bounded::count(format!("{n}'s stances"), c.stances));
            out.push(Bounded::count(format!("{n}'s fortune"), c.fortune));
            for (s, v) in &c.skills {
                out.push(Bounded::number(format!("{n}'s skill {s}"), *v));
            }
            if let Some(hits) = c.hits {
                out.push(Bounded::within(
                    format!("{n}'s hits"),
                    i128::from(hits),
                    1,
                    bounds::MOST_NUMBER,
                ));
            }
            out.push(Bounded::number(format!("{n}'s soak"), c.soak));
            if let Some(m) = c.move_m {
                out.push(Bounded::number(format!("{n}'s move_m"), i64::from(m)));
            }
            for s in &c.schticks {
                out.push(Bounded::number(
                    format!("{n}'s schtick {} bonus", s.name),
                    s.bonus,
                ));
                for (what, (_, v)) in [("damage", &s.damage), ("resist", &s.resist)]
                    .into_iter()
                    .filter_map(|(w, p)| p.as_ref().map(|p| (w, p)))
                {
                    out.push(Bounded::number(
                        format!("{n}'s schtick {} {what}", s.name),
                        *v,
                    ));
                }
            }
        }
        out
    }

    fn validate_cast(cast: &[Character], _rules: &Rules, _generation: u32) -> Result<(), Refusal> {
        cast.iter().try_for_each(check_character)
    }

    fn seat(rules: Rules, cast: Vec<Character>, setup: &Setup, _seed: u64) -> Table {
        let mut table = Table::new(rules, cast);
        if setup.simplified_initiative {
            table.use_simplified_initiative();
        }
        table
    }

    fn play_by(table: &mut Table, generation: u32) {
        table.rules.generation = generation;
    }

    fn check_action(_action: &Action, _rules: &Rules) -> Result<(), Refusal> {
        Ok(())
    }

    fn plan_action(action: &Action, _rules: &Rules) -> Result<RollPlan, Refusal> {
        Ok(action.plan())
    }

    fn action_odds(action: &Action, _rules: &Rules) -> Result<Odds, Refusal> {
        Ok(action.odds())
    }

    fn resolve_action(
        action: &Action,
        rules: &Rules,
        throws: &[Vec<u32>],
    ) -> Result<Step, Refusal> {
        action.resolve(rules, throws)
    }
}

/// What RON cannot check of an open-d6 character: its Limitations' friction numbers (1 to 3,
/// one each), the friction faces it is under, and its schticks (each names one of its skills,
/// and only a stance has a type).
fn check_character(c: &Character) -> Result<(), Refusal> {
    let n = &c.name;
    let mut numbers = Vec::new();
    for l in &c.limitations {
        if !(1..=3).contains(&l.number) {
            return Err(refuse!(
                Scene,
                "{n}'s Limitation {} has friction number {}: snake-eye Limitations are numbered 1 to 3",
                l.name,
                l.number
            ));
        }
        if numbers.contains(&l.number) {
            return Err(refuse!(
                Scene,
                "{n} has two Limitations numbered {}: each number is one Limitation's",
                l.number
            ));
        }
        numbers.push(l.number);
    }
    if let Some(f) = c.under_friction.iter().find(|f| !(4..=6).contains(*f)) {
        return Err(refuse!(
            Scene,
            "{n} is under friction {f}: the conditions one can be under are the faces 4 to 6 (1 to 3 are Limitations)"
        ));
    }
    let mut names: Vec<&str> = Vec::new();
    for s in &c.schticks {
        if names.contains(&s.name.as_str()) {
            return Err(refuse!(Scene, "{n} has two schticks named {}", s.name));
        }
        names.push(&s.name);
        if s.skill.is_empty() {
            if s.damage.is_none() && s.resist.is_none() {
                return Err(refuse!(
                    Scene,
                    "{n}'s schtick {} does nothing: give the skill it modifies, the damage it \
                     adds (damage: (\"fire\", 2)) or what it resists (resist: (\"fire\", 2))",
                    s.name
                ));
            }
        } else if c.skill(&s.skill).is_none() {
            return Err(refuse!(
                Scene,
                "{n}'s schtick {} modifies {}, which is not among its skills",
                s.name,
                s.skill
            ));
        }
        if s.kind.is_some() && !s.stance {
            return Err(refuse!(
                Scene,
                "{n}'s schtick {} has a type but is not a stance: only stances are typed",
                s.name
            ));
        }
    }
    Ok(())
}
