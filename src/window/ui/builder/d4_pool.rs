//! The `d4-pool` builder: an Aspect roll of a kind from the costs table (off-turn kinds on
//! another's turn), a roll the GM calls for, or ending the turn.

use bevy_egui::egui;

use super::{actor_combo, combo, kind_picker, number, sources};
use crate::rules::d4_pool::Table;
use crate::rules::d4_pool::seat::{Aim, Move};
use crate::rules::play::Seat;

fn aim(ui: &mut egui::Ui, t: &Table, target: &mut Aim, dc_only: bool) {
    let names = t.names();
    ui.horizontal_wrapped(|ui| {
        ui.label("Target");
        ui.radio_value(target, Aim::None, "none");
        if ui.radio(matches!(target, Aim::Dc(_)), "DC").clicked() && !matches!(target, Aim::Dc(_)) {
            *target = Aim::Dc(12);
        }
        if !dc_only
            && ui
                .radio(matches!(target, Aim::Attack(_)), "attack")
                .clicked()
            && !matches!(target, Aim::Attack(_))
        {
            *target = Aim::Attack(names.len().saturating_sub(1));
        }
    });
    match target {
        Aim::Dc(dc) => number(ui, "DC", dc, 1, 60),
        Aim::Attack(i) => {
            actor_combo(ui, "Defender", &names, i);
            ui.label(format!(
                "Evasion {}",
                t.characters.get(*i).map(|c| c.evasion).unwrap_or(0)
            ));
        }
        Aim::None => {}
    }
}

fn aspects(t: &Table, actor: usize) -> Vec<String> {
    t.characters
        .get(actor)
        .map(|c| c.aspects.keys().cloned().collect())
        .unwrap_or_default()
}

/// Edits a `d4-pool` move; returns a fresh move when the kind changes.
pub(super) fn edit(ui: &mut egui::Ui, t: &Table, m: &mut Move) -> Option<Move> {
    let current = match m {
        Move::Act { .. } => "Action",
        Move::GmCall { .. } => "GM calls a roll",
        Move::EndTurn => "End turn",
    };
    let gm_call = Move::GmCall {
        actor: t.active,
        aspect: aspects(t, t.active).first().cloned().unwrap_or_default(),
        target: Aim::Dc(10),
        advantages: vec![],
        disadvantages: vec![],
    };
    let fresh = kind_picker(
        ui,
        current,
        vec![
            (
                "Action",
                t.default_move(),
                "an Aspect roll; on another's turn only a valid response",
            ),
            (
                "GM calls a roll",
                gm_call,
                "at least 1d4, allowed whatever the load",
            ),
            (
                "End turn",
                Move::EndTurn,
                "end the turn now, keeping dice for reactions",
            ),
        ],
    );
    if fresh.is_some() {
        return fresh;
    }
    let names = t.names();
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
            if actor_combo(ui, "Who", &names, actor) {
                *weapon = None;
            }
            let list = aspects(t, *actor);
            combo(ui, "aspect", "Aspect", aspect, &list);
            ui.label(format!(
                "Action Load {} · Aspect − load = {}",
                t.loads[*actor],
                t.characters[*actor]
                    .aspects
                    .get(aspect)
                    .copied()
                    .unwrap_or(0)
                    - t.loads[*actor]
            ));
            let kinds: Vec<String> = t.rules.costs.keys().cloned().collect();
            combo(ui, "kind", "Kind", kind, &kinds);
            let mut w = weapon.clone().unwrap_or_else(|| "none".into());
            let mut options = vec!["none".to_string()];
            options.extend(t.characters[*actor].weapons.keys().cloned());
            combo(ui, "weapon", "Weapon", &mut w, &options);
            *weapon = (w != "none").then_some(w);
            aim(ui, t, target, false);
            sources(ui, "Advantage", advantages);
            sources(ui, "Disadvantage", disadvantages);
        }
        Move::GmCall {
            actor,
            aspect,
            target,
            advantages,
            disadvantages,
        } => {
            actor_combo(ui, "Who", &names, actor);
            let list = aspects(t, *actor);
            combo(ui, "aspect", "Aspect", aspect, &list);
            ui.label(if t.rules.gm_rolls_use_load {
                "This table's GM rolls use and raise Action Load."
            } else {
                "GM rolls ignore Action Load and do not raise it."
            });
            aim(ui, t, target, true);
            sources(ui, "Advantage", advantages);
            sources(ui, "Disadvantage", disadvantages);
        }
        Move::EndTurn => {
            ui.label(t.describe(&Move::EndTurn));
        }
    }
    None
}
