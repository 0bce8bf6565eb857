//! The `step-dice` builder: the active character's action roll, teamwork (with the director's
//! difficulty), or ending the turn.

use bevy_egui::egui;

use super::{actor_combo, combo, kind_picker};
use crate::rules::Die;
use crate::rules::play::Seat;
use crate::rules::step_dice::seat::Move;
use crate::rules::step_dice::{Position, Table};

fn skills(t: &Table, actor: usize) -> Vec<String> {
    t.characters
        .get(actor)
        .map(|c| c.skills.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default()
}

/// Edits a `step-dice` move; returns a fresh move when the kind changes.
pub(super) fn edit(ui: &mut egui::Ui, t: &Table, m: &mut Move) -> Option<Move> {
    let current = match m {
        Move::Act { .. } => "Action roll",
        Move::Help { .. } => "Teamwork",
        Move::EndTurn => "End turn",
    };
    let helper = (0..t.characters.len())
        .find(|&i| i != t.active)
        .unwrap_or(0);
    let help = Move::Help {
        helper,
        helped: t.active,
        skill: skills(t, helper).first().cloned().unwrap_or_default(),
        difficulty: None,
    };
    let fresh = kind_picker(
        ui,
        current,
        vec![
            (
                "Action roll",
                t.default_move(),
                "ability pool against the difficulty pool",
            ),
            (
                "Teamwork",
                help,
                "a quick roll; success adds a die this round and 1 grit",
            ),
            ("End turn", Move::EndTurn, "pass to the next character"),
        ],
    );
    if fresh.is_some() {
        return fresh;
    }
    let names = t.names();
    let ratings: Vec<String> = t
        .rules
        .difficulties
        .iter()
        .map(|(n, _)| n.clone())
        .collect();
    match m {
        Move::Act {
            actor,
            skill,
            difficulty,
            position,
            boosts,
        } => {
            actor_combo(ui, "Who", &names, actor);
            let mut s = skill.clone().unwrap_or_else(|| "unskilled".into());
            let mut options = skills(t, *actor);
            options.push("unskilled".into());
            combo(ui, "skill", "Skill set", &mut s, &options);
            *skill = (s != "unskilled").then_some(s);
            combo(ui, "difficulty", "Difficulty", difficulty, &ratings);
            ui.horizontal_wrapped(|ui| {
                ui.label("Position");
                ui.radio_value(position, Position::Neutral, "neutral");
                ui.radio_value(position, Position::Advantage, "advantage");
                ui.radio_value(position, Position::Disadvantage, "disadvantage");
            });
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("Boosts: {}", boosts.len()));
                for d in [4, 6, 8, 10, 12] {
                    if ui.small_button(format!("+d{d}")).clicked() {
                        boosts.push(Die(d));
                    }
                }
                if ui.small_button("clear").clicked() {
                    boosts.clear();
                }
            });
        }
        Move::Help {
            helper,
            helped,
            skill,
            difficulty,
        } => {
            actor_combo(ui, "Helper", &names, helper);
            actor_combo(ui, "Helps", &names, helped);
            let list = skills(t, *helper);
            combo(ui, "help skill", "Skill set", skill, &list);
            let mut d = difficulty.clone().unwrap_or_else(|| ratings[0].clone());
            combo(
                ui,
                "help difficulty",
                "Director's difficulty",
                &mut d,
                &ratings,
            );
            *difficulty = (Some(&d) != ratings.first()).then_some(d);
        }
        Move::EndTurn => {
            ui.label(t.describe(&Move::EndTurn));
        }
    }
    None
}
