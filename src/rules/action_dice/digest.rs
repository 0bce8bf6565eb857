//! The state of an action-dice table as a room's log hashes it ([`crate::rules::digest`]).

use super::{Budget, Category, DefenseRoll, Table, Timed};
use crate::rules::digest::{Digest, Record, id};
use serde_json::Value;

impl Digest for Table {
    fn digest(&self) -> Value {
        let Table {
            rules: _,
            characters: _,
            budgets,
            round,
            seed,
            rolled,
            defenses,
        } = self;
        Record::new()
            .with("budgets", budgets)
            .with("round", round)
            .with("seed", seed)
            .with("rolled", rolled)
            .with("defenses", defenses)
            .done()
    }
}

impl Digest for Budget {
    fn digest(&self) -> Value {
        let Budget {
            general,
            limited,
            specialized,
            noncombat,
            acted,
            affected,
            bound,
        } = self;
        Record::new()
            .with("general", general)
            .with("limited", limited)
            .with("specialized", specialized)
            .with("noncombat", noncombat)
            .with("acted", acted)
            .with_if(*affected, "affected", affected)
            .with_if(*bound, "bound", bound)
            .done()
    }
}

impl Digest for Timed {
    fn digest(&self) -> Value {
        let Timed {
            actor,
            timing_dice,
            total,
            movement,
        } = self;
        Record::new()
            .with("actor", actor)
            .with("timing_dice", timing_dice)
            .with("total", total)
            .with_if(*movement, "movement", movement)
            .done()
    }
}

impl Digest for DefenseRoll {
    fn digest(&self) -> Value {
        let DefenseRoll {
            skill,
            categories,
            total,
            against,
            once,
            clear,
        } = self;
        Record::new()
            .with("skill", skill)
            .with("categories", categories)
            .with("total", total)
            .with_if(against.is_some(), "against", against)
            .with_if(*once, "once", once)
            .with_if(*clear, "clear", clear)
            .done()
    }
}

impl Digest for Category {
    fn digest(&self) -> Value {
        id(match self {
            Category::HandToHand => "HandToHand",
            Category::Ranged => "Ranged",
        })
    }
}
