//! The state of an open-d6 table as a room's log hashes it ([`crate::rules::digest`]).

use super::table::{Defence, FocusCondition, LastCheck, Table};
use super::{Action, RollKind};
use crate::rules::digest::{Digest, Record, any_filled, any_set, any_some, id};
use serde_json::Value;

impl Digest for Table {
    fn digest(&self) -> Value {
        let Table {
            rules: _,
            characters: _,
            shots,
            first_shots,
            round,
            focused,
            focused_in,
            // Follows from the log's Limit Breaks: left out, so every logged state reads as it
            // always has.
            focus_used_in: _,
            stances,
            unpaid_stances,
            paid_stances,
            setbacks,
            fortune,
            advantages,
            defences,
            simplified,
            acted,
            surprise,
            last_check,
            last_d6,
            session,
            hits,
            out,
            finisher_due,
            impairment,
            under_friction,
            stance_schticks,
            scene_over,
            limit_break_after,
            set_up,
            pending_focus,
            // The turn under way and what was done in it: the moves say them.
            turn_of: _,
            turn_feats: _,
        } = self;
        Record::new()
            .with("shots", shots)
            .with("first_shots", first_shots)
            .with("round", round)
            .with("focused", focused)
            .with("focused_in", focused_in)
            .with("stances", stances)
            .with("unpaid_stances", unpaid_stances)
            .with("paid_stances", paid_stances)
            .with("setbacks", setbacks)
            .with("fortune", fortune)
            .with("advantages", advantages)
            .with_value("defending", held_defences(defences))
            .with("simplified", simplified)
            .with("acted", acted)
            .with("surprise", surprise)
            .with("last_check", last_check)
            .with("last_d6", last_d6)
            .with("session", session)
            .with_if(any_some(hits), "hits", hits)
            .with_if(any_set(out), "out", out)
            .with_if(any_set(finisher_due), "finisher_due", finisher_due)
            .with_if(impairment.iter().any(|n| *n != 0), "impairment", impairment)
            .with_if(any_filled(under_friction), "under_friction", under_friction)
            .with_if(
                any_filled(stance_schticks),
                "stance_schticks",
                stance_schticks,
            )
            .with_if(*scene_over, "scene_over", scene_over)
            .with_if(
                any_set(limit_break_after),
                "limit_break_after",
                limit_break_after,
            )
            .with_if(any_some(set_up), "set_up", set_up)
            .with_if(any_some(pending_focus), "pending_focus", pending_focus)
            .done()
    }
}

/// The state has written a character's defence as `[skill, moment]` since version 1, when one
/// defence (against everyone) was held at a time: a character whose defences are all against
/// everyone still reads so (its latest), so stored logs verify; defences against one attacker
/// are written one by one, as `{skill, moment, against}`.
fn held_defences(held: &[Vec<Defence>]) -> Value {
    let written = |defences: &Vec<Defence>| match defences.last() {
        None => Value::Null,
        Some(latest) if defences.iter().all(|d| d.against.is_none()) => {
            let Defence {
                skill,
                moment,
                against: _,
                answered: _,
            } = latest;
            (skill, moment).digest()
        }
        Some(_) => Value::Array(
            defences
                .iter()
                .map(|d| {
                    // Whether an attack was answered: not in the state, the moves say it.
                    let Defence {
                        skill,
                        moment,
                        against,
                        answered: _,
                    } = d;
                    Record::new()
                        .with("skill", skill)
                        .with("moment", moment)
                        .with("against", against)
                        .done()
                })
                .collect(),
        ),
    };
    Value::Array(held.iter().map(written).collect())
}

impl Digest for LastCheck {
    fn digest(&self) -> Value {
        let LastCheck {
            actor,
            skill,
            action,
            check,
            assists,
            success,
            pushed,
            moved_on,
            assisted_by,
            target,
            damaged,
        } = self;
        Record::new()
            .with("actor", actor)
            .with("skill", skill)
            .with("action", action)
            .with("check", check)
            .with("assists", assists)
            .with("success", success)
            .with("pushed", pushed)
            .with_if(*moved_on, "moved_on", moved_on)
            .with_if(!assisted_by.is_empty(), "assisted_by", assisted_by)
            .with_if(target.is_some(), "target", target)
            .with_if(*damaged, "damaged", damaged)
            .done()
    }
}

impl Digest for Action {
    fn digest(&self) -> Value {
        let Action {
            roll,
            skill,
            difficulty,
            modifier,
            first_roll,
        } = self;
        Record::new()
            .with("roll", roll)
            .with("skill", skill)
            .with("difficulty", difficulty)
            .with("modifier", modifier)
            .with("first_roll", first_roll)
            .done()
    }
}

impl Digest for RollKind {
    fn digest(&self) -> Value {
        id(match self {
            RollKind::Standard => "Standard",
            RollKind::Confident => "Confident",
            RollKind::Closed => "Closed",
            RollKind::ClosedConfident => "ClosedConfident",
        })
    }
}

impl Digest for FocusCondition {
    fn digest(&self) -> Value {
        id(match self {
            FocusCondition::DefeatNamed => "DefeatNamed",
            FocusCondition::SetbackOnNamed => "SetbackOnNamed",
        })
    }
}
