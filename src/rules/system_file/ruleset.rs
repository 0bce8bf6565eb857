//! `system-file` as the program sees it: a system file for rules, its characters, its table
//! ([`Ruleset`]). The shipped system file (`assets/rules/system-file.ron`) is the 2d6 moves game; a
//! scene plays another by naming its file (`rules: File("rules/highest-d6.ron")`) or
//! writing it in.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::seat::Picked;
use super::{Character, Holder, Rules, Table};
use crate::rules::bounds::Bounded;
use crate::rules::play::Seat;
use crate::rules::refusal::refuse;
use crate::rules::ruleset::Ruleset;
use crate::rules::setup::Setup;
use crate::rules::{Odds, Refusal, RollPlan, Step};

/// A game's resolution written as a RON file: moves, bands, resources, turns.
pub struct SystemFile;

/// One move of the shipped system file outside a table (`odds --ruleset system-file`): the move's
/// name, the actor's traits, the form's choices.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// The move's name.
    #[serde(rename = "move")]
    pub name: String,
    /// The actor's traits.
    #[serde(default)]
    pub traits: BTreeMap<String, i64>,
    /// The move's choices.
    #[serde(default)]
    pub choices: BTreeMap<String, Picked>,
}

impl Action {
    /// A table of one character with the action's traits, whose turn it is.
    fn table(&self, rules: &Rules) -> Result<(Table, super::Move), Refusal> {
        let actor = Character {
            name: "the actor".into(),
            traits: self.traits.clone(),
            start: BTreeMap::new(),
            npc: false,
        };
        SystemFile::validate_cast(
            std::slice::from_ref(&actor),
            rules,
            crate::record::RULES_GENERATION,
        )?;
        let mut table = Table::new(rules.clone(), vec![actor]);
        table.round = table.round.max(1);
        let m = super::Move::Make {
            actor: 0,
            name: self.name.clone(),
            choices: self.choices.clone(),
        };
        crate::rules::bounds::check(table.numbers(&m)).map_err(|e| refuse!(Choice, "{e}"))?;
        table.allowed(&m)?;
        Ok((table, m))
    }
}

impl Ruleset for SystemFile {
    type Rules = Rules;
    type Character = Character;
    type Table = Table;
    type Action = Action;

    const SHIPPED_RULES: &'static str = include_str!("../../../assets/rules/system-file.ron");
    const EXAMPLE_ACTION: &'static str = "(move: \"Act under pressure\", traits: {\"Steel\": 1})";

    fn upload_limits(rules: &Rules) -> Result<(), crate::rules::ruleset::Oversized> {
        super::check::upload(rules)
    }

    fn rules_numbers(_rules: &Rules) -> Vec<Bounded> {
        // Every number of a system file is checked as it is read (`check.rs`).
        Vec::new()
    }

    fn rules_in_words(own: &Rules, shipped: &Rules) -> Option<String> {
        Some(if own == shipped {
            format!("the shipped system file: {}", own.name)
        } else {
            format!("system file: {}", own.name)
        })
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
            for (t, v) in &c.traits {
                out.push(Bounded::number(format!("{}'s {t}", c.name), *v));
            }
            for (r, v) in &c.start {
                out.push(Bounded::number(format!("{}'s {r}", c.name), *v));
            }
        }
        out
    }

    fn validate_cast(cast: &[Character], rules: &Rules, _generation: u32) -> Result<(), Refusal> {
        for c in cast {
            for (t, v) in &c.traits {
                let def = rules.trait_named(t).ok_or_else(|| {
                    let names: Vec<&str> = rules.traits.iter().map(|t| t.name.as_str()).collect();
                    refuse!(
                        Scene,
                        "{}'s trait {t} is no trait of {} ({})",
                        c.name,
                        rules.name,
                        names.join(", ")
                    )
                })?;
                if *v < def.least || *v > def.most {
                    return Err(refuse!(
                        Scene,
                        "{}'s {t} is {v}: it must be from {} to {}",
                        c.name,
                        def.least,
                        def.most
                    ));
                }
            }
            for (r, v) in &c.start {
                let def = rules
                    .resource(r)
                    .filter(|d| d.per == Holder::Character)
                    .ok_or_else(|| {
                        refuse!(
                            Scene,
                            "{} starts with {r}, which is no resource of each character",
                            c.name
                        )
                    })?;
                if *v < def.least || *v > def.most {
                    return Err(refuse!(
                        Scene,
                        "{}'s {r} starts at {v}: it must be from {} to {}",
                        c.name,
                        def.least,
                        def.most
                    ));
                }
            }
        }
        if cast.is_empty() {
            return Err(refuse!(Scene, "nobody sits at the table"));
        }
        Ok(())
    }

    fn seat(rules: Rules, cast: Vec<Character>, _setup: &Setup, _seed: u64) -> Table {
        Table::new(rules, cast)
    }

    fn play_by(_table: &mut Table, _generation: u32) {}

    fn check_action(action: &Action, rules: &Rules) -> Result<(), Refusal> {
        action.table(rules).map(|_| ())
    }

    fn plan_action(action: &Action, rules: &Rules) -> Result<RollPlan, Refusal> {
        let (table, m) = action.table(rules)?;
        table.plan(&m)
    }

    fn action_odds(action: &Action, rules: &Rules) -> Result<Odds, Refusal> {
        let (table, m) = action.table(rules)?;
        table
            .odds(&m)?
            .ok_or_else(|| refuse!(Unable, "{} throws nothing", action.name))
    }

    fn resolve_action(
        action: &Action,
        rules: &Rules,
        throws: &[Vec<u32>],
    ) -> Result<Step, Refusal> {
        let (table, m) = action.table(rules)?;
        table.resolve(&m, throws)
    }
}
