//! The `d4-pool` moves as data: an Aspect roll of a kind from the costs table (off-turn kinds on
//! another's turn), a roll the GM calls for, or ending the turn.

use super::seat::{Aim, Move};
use super::{Effect, Table};
use crate::rules::catalogue::{Catalogue, Form, MoveKind};
use crate::rules::play::Seat;

/// An Aspect roll for `actor`: its best Aspect, its first weapon, at the last other seat (the
/// opposition in the shipped scenes).
pub(super) fn act(t: &Table, actor: usize) -> Move {
    let c = t.characters.get(actor);
    let aspect = c
        .and_then(|c| c.aspects.iter().max_by_key(|(_, v)| **v))
        .map(|(n, _)| n.clone())
        .unwrap_or_default();
    let weapon = c.and_then(|c| c.weapons.keys().next().cloned());
    let target = (0..t.characters.len())
        .rev()
        .find(|&i| i != actor)
        .map(Aim::Attack)
        .unwrap_or(Aim::None);
    Move::Act {
        actor,
        aspect,
        kind: if weapon.is_some() {
            "attack"
        } else {
            "aspect check"
        }
        .into(),
        weapon,
        target,
        advantages: vec![],
        disadvantages: vec![],
    }
}

fn aspects(t: &Table, actor: usize) -> Vec<String> {
    t.characters
        .get(actor)
        .map(|c| c.aspects.keys().cloned().collect())
        .unwrap_or_default()
}

pub(super) fn kinds(t: &Table, actor: usize) -> Vec<MoveKind<Move>> {
    vec![
        MoveKind {
            label: "Action".into(),
            hint: "an Aspect roll; on another's turn only a valid response".into(),
            template: act(t, actor),
        },
        MoveKind {
            label: "GM calls a roll".into(),
            hint: "at least 1d4, allowed whatever the load".into(),
            template: Move::GmCall {
                actor,
                aspect: aspects(t, actor).first().cloned().unwrap_or_default(),
                target: Aim::Dc(10),
                advantages: vec![],
                disadvantages: vec![],
                uses_load: None,
            },
        },
        MoveKind {
            label: "Team action".into(),
            hint: "put Disadvantage (or Advantage) on another creature's next roll this round"
                .into(),
            template: Move::TeamAction {
                actor,
                aspect: aspects(t, actor).first().cloned().unwrap_or_default(),
                on: (0..t.characters.len())
                    .rev()
                    .find(|&i| i != actor)
                    .unwrap_or(0),
                effect: Effect::Disadvantage,
            },
        },
        MoveKind {
            label: "End turn".into(),
            hint: "end the turn now, keeping dice for reactions".into(),
            template: Move::EndTurn,
        },
    ]
}

fn aim(t: &Table, f: &mut Form, target: &Aim, dc_only: bool) {
    let mut options = vec![("none", Aim::None), ("DC", Aim::Dc(12))];
    if !dc_only {
        options.push(("attack", Aim::Attack(t.characters.len().saturating_sub(1))));
    }
    f.variant("target", "Target", options, target);
    match target {
        Aim::Dc(dc) => f.number("target.Dc", "DC", *dc, 1, 60),
        Aim::Attack(i) => {
            f.character("target.Attack", "Defender", *i);
            f.note(format!(
                "Evasion {}",
                t.characters.get(*i).map(|c| c.evasion).unwrap_or(0)
            ));
        }
        Aim::None => {}
    }
}

fn sources(f: &mut Form, advantages: &[String], disadvantages: &[String]) {
    f.words("advantages", "Advantage", advantages, "torch, high ground");
    f.words("disadvantages", "Disadvantage", disadvantages, "darkness");
}

pub(super) fn form(t: &Table, m: &Move, f: &mut Form) {
    match m {
        Move::Act {
            actor,
            aspect,
            weapon,
            kind,
            target,
            advantages,
            disadvantages,
        } => {
            f.actor("actor", "Who", *actor);
            f.pick("aspect", "Aspect", &aspects(t, *actor), aspect);
            let value = t
                .characters
                .get(*actor)
                .and_then(|c| c.aspects.get(aspect))
                .copied()
                .unwrap_or(0);
            let load = t.loads.get(*actor).copied().unwrap_or(0);
            f.note(format!(
                "Action Load {load} · Aspect − load = {}",
                value - load
            ));
            // A Team Action is its own move (from the rules generation that linked it).
            let kinds: Vec<String> = t
                .rules
                .costs
                .keys()
                .filter(|k| {
                    *k != super::seat::TEAM_ACTION
                        || t.rules.generation < crate::record::LINKED_TEAM_ACTIONS
                })
                .cloned()
                .collect();
            f.pick("kind", "Kind", &kinds, kind);
            let mut weapons = vec![("none".to_string(), None)];
            if let Some(c) = t.characters.get(*actor) {
                weapons.extend(c.weapons.keys().map(|w| (w.clone(), Some(w.clone()))));
            }
            f.value("weapon", "Weapon", weapons, weapon);
            aim(t, f, target, false);
            sources(f, advantages, disadvantages);
        }
        Move::GmCall {
            actor,
            aspect,
            target,
            advantages,
            disadvantages,
            uses_load,
        } => {
            f.actor("actor", "Who", *actor);
            f.pick("aspect", "Aspect", &aspects(t, *actor), aspect);
            let setting = if t.rules.gm_rolls_use_load {
                "as this table does (uses it)"
            } else {
                "as this table does (ignores it)"
            };
            f.value(
                "uses_load",
                "Action Load",
                vec![
                    (setting.to_string(), None),
                    ("uses and raises it".to_string(), Some(true)),
                    ("ignores it".to_string(), Some(false)),
                ],
                uses_load,
            );
            aim(t, f, target, true);
            sources(f, advantages, disadvantages);
        }
        Move::TeamAction {
            actor,
            aspect,
            on,
            effect,
        } => {
            f.actor("actor", "Who", *actor);
            f.pick("aspect", "Aspect", &aspects(t, *actor), aspect);
            let load = t.loads.get(*actor).copied().unwrap_or(0);
            f.note(format!(
                "Action Load {load} · cost {}",
                t.rules.cost_of(super::seat::TEAM_ACTION)
            ));
            f.character("on", "Whose next roll", *on);
            f.value(
                "effect",
                "Effect",
                vec![
                    ("Disadvantage".to_string(), Effect::Disadvantage),
                    ("Advantage".to_string(), Effect::Advantage),
                ],
                effect,
            );
        }
        Move::EndTurn => f.note(t.describe(m)),
    }
}

impl Catalogue for Table {
    fn default_move(&self) -> Move {
        act(self, self.active)
    }

    fn kinds(&self, actor: usize) -> Vec<MoveKind<Move>> {
        kinds(self, actor)
    }

    fn form(&self, m: &Move, fields: &mut Form) {
        form(self, m, fields)
    }
}
