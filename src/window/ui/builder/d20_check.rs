//! The `d20-check` builder: checks of each action type (Standard, Bonus, Save, Extended,
//! Group) with Play the Odds, resource dice, and initiative the GM declares and ends.

use bevy_egui::egui;

use super::{actor_combo, actors_checks, combo, kind_picker, number};
use crate::rules::d20_check::seat::{CheckType, DcChoice, Move};
use crate::rules::d20_check::{Edge, Table};
use crate::rules::play::Seat;

fn dc(ui: &mut egui::Ui, t: &Table, dc: &mut DcChoice) {
    ui.horizontal_wrapped(|ui| {
        ui.label("DC");
        if ui
            .radio(matches!(dc, DcChoice::Named(..)), "table")
            .clicked()
            && !matches!(dc, DcChoice::Named(..))
        {
            *dc = DcChoice::Named(t.rules.dc_table[0].0.clone(), 0);
        }
        if ui
            .radio(matches!(dc, DcChoice::Number(_)), "number")
            .clicked()
            && !matches!(dc, DcChoice::Number(_))
        {
            *dc = DcChoice::Number(12);
        }
    });
    match dc {
        DcChoice::Named(name, gm) => {
            let rows: Vec<String> = t.rules.dc_table.iter().map(|(n, _)| n.clone()).collect();
            combo(ui, "dc row", "Difficulty", name, &rows);
            let (lo, hi) = t.rules.gm_modifier;
            number(ui, "GM modifier", gm, lo, hi);
        }
        DcChoice::Number(n) => number(ui, "DC", n, t.rules.dc_min, t.rules.dc_max),
    }
}

fn edge(ui: &mut egui::Ui, edge: &mut Edge) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Edge");
        ui.radio_value(edge, Edge::None, "none");
        ui.radio_value(edge, Edge::Advantage, "advantage");
        ui.radio_value(edge, Edge::Disadvantage, "disadvantage");
    });
}

fn modifier(ui: &mut egui::Ui, t: &Table, actor: usize, m: &mut Option<String>) {
    let mut s = m.clone().unwrap_or_else(|| "none".into());
    let mut options = vec!["none".to_string()];
    options.extend(t.characters[actor].modifiers.iter().map(|(n, _)| n.clone()));
    combo(ui, "modifier", "Modifier", &mut s, &options);
    *m = (s != "none").then_some(s);
}

/// Edits a `d20-check` move; returns a fresh move when the kind changes.
pub(super) fn edit(ui: &mut egui::Ui, t: &Table, m: &mut Move) -> Option<Move> {
    let current = match m {
        Move::Check { .. } => "Check",
        Move::Group { .. } => "Group check",
        Move::Resource { .. } => "Resource die",
        Move::Initiative => "Initiative",
        Move::DeclareInitiative => "Declare initiative",
        Move::EndInitiative => "End initiative",
    };
    let check = t.default_move();
    let actor = match &check {
        Move::Check { actor, .. } => *actor,
        _ => 0,
    };
    let helpers: Vec<usize> = (0..t.characters.len())
        .filter(|&i| i != actor && t.characters[i].side == t.characters[actor].side)
        .take(1)
        .collect();
    let with_resource = (0..t.characters.len())
        .find(|&i| t.resources[i].iter().any(|(_, d)| d.is_some()))
        .unwrap_or(0);
    let fresh = kind_picker(
        ui,
        current,
        vec![
            ("Check", check.clone(), "Standard, Bonus, Save or Extended"),
            (
                "Group check",
                Move::Group {
                    leader: actor,
                    helpers,
                    modifier: None,
                    dc: DcChoice::Named(t.rules.dc_table[1].0.clone(), 0),
                    edge: Edge::None,
                },
                "an assisted check by several characters",
            ),
            (
                "Resource die",
                Move::Resource {
                    actor: with_resource,
                    name: t.resources[with_resource]
                        .first()
                        .map(|(n, _)| n.clone())
                        .unwrap_or_default(),
                },
                "roll a resource; 1-2 steps it along its chain",
            ),
            (
                "Declare initiative",
                Move::DeclareInitiative,
                "things get dicey: turns apply",
            ),
            (
                "Initiative",
                Move::Initiative,
                "each side 1d6 + lowest proficiency",
            ),
            (
                "End initiative",
                Move::EndInitiative,
                "things calm down: no turn order",
            ),
        ],
    );
    if fresh.is_some() {
        return fresh;
    }
    let names = t.names();
    match m {
        Move::Check {
            actor,
            kind,
            modifier: md,
            dc: d,
            edge: e,
            play_the_odds,
        } => {
            actor_combo(ui, "Who", &names, actor);
            ui.horizontal_wrapped(|ui| {
                ui.label("Type");
                ui.radio_value(kind, CheckType::Standard, "Standard");
                ui.radio_value(kind, CheckType::Bonus, "Bonus");
                ui.radio_value(kind, CheckType::Save, "Save");
                if let Some(task) = t.tasks.first()
                    && ui
                        .radio(matches!(kind, CheckType::Extended { .. }), "Extended")
                        .clicked()
                {
                    *kind = CheckType::Extended {
                        task: task.task.name.clone(),
                    };
                }
            });
            if let CheckType::Extended { task } = kind {
                let tasks: Vec<String> = t.tasks.iter().map(|p| p.task.name.clone()).collect();
                combo(ui, "task", "Task", task, &tasks);
            }
            modifier(ui, t, *actor, md);
            dc(ui, t, d);
            edge(ui, e);
            ui.checkbox(play_the_odds, "Play the Odds").on_hover_text(
                "a mundane action (DC 0): roll against DC 2 to improve the performance",
            );
        }
        Move::Group {
            leader,
            helpers,
            modifier: md,
            dc: d,
            edge: e,
        } => {
            actor_combo(ui, "Leader", &names, leader);
            actors_checks(ui, "Helpers", &names, helpers);
            helpers.retain(|h| h != leader);
            modifier(ui, t, *leader, md);
            dc(ui, t, d);
            edge(ui, e);
        }
        Move::Resource { actor, name } => {
            if actor_combo(ui, "Whose", &names, actor) {
                *name = t.resources[*actor]
                    .first()
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default();
            }
            let options: Vec<String> = t.resources[*actor].iter().map(|(n, _)| n.clone()).collect();
            combo(ui, "resource", "Resource", name, &options);
        }
        Move::Initiative | Move::DeclareInitiative | Move::EndInitiative => {
            ui.label(t.describe(m));
        }
    }
    None
}
