//! The action builder: every move of the seated scene's ruleset, one builder per ruleset (in
//! its own module here), built from the characters' options. The rules check it: a move they do
//! not allow shows why and cannot be thrown. Its exact odds are worked out when it changes, not
//! every frame.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::rules::play::Move;
use crate::rules::table::TableState;
use crate::rules::{Odds, RulesError};
use crate::window::table::TablePlay;

mod action_dice;
mod d20_check;
mod d4_pool;
mod open_d6;
mod step_dice;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MoveDraft>();
}

/// The move being built, and what the rules say of it.
#[derive(Resource, Default)]
pub struct MoveDraft {
    /// The move.
    pub mv: Option<Move>,
    /// The scene it was built for.
    seated: Option<String>,
    /// The rules' verdict and odds for `mv` at the table as it is.
    preview: Option<Preview>,
}

/// What the rules say of a move at a table.
pub struct Preview {
    mv: Move,
    state: TableState,
    /// Allowed now, or why not.
    pub allowed: Result<(), RulesError>,
    /// The exact odds (None: the move throws nothing).
    pub odds: Result<Option<Odds>, RulesError>,
}

impl MoveDraft {
    /// Keeps the draft fit for the table: the scene's default move after a scene change, or when
    /// the table moved on and the draft is no longer allowed; the verdict and odds recomputed
    /// only when the move or the table changed.
    pub fn refresh(&mut self, play: &TablePlay) {
        let Some(state) = &play.state else {
            self.mv = None;
            self.preview = None;
            return;
        };
        let table_moved = self.preview.as_ref().is_none_or(|p| p.state != *state);
        let reseat = self.seated != play.scene || self.mv.is_none();
        if reseat || (table_moved && self.mv.as_ref().is_none_or(|mv| state.allowed(mv).is_err())) {
            self.mv = Some(state.default_move());
            self.seated = play.scene.clone();
        }
        let Some(mv) = &self.mv else { return };
        if self
            .preview
            .as_ref()
            .is_none_or(|p| p.mv != *mv || p.state != *state)
        {
            self.preview = Some(Preview {
                mv: mv.clone(),
                state: state.clone(),
                allowed: state.allowed(mv),
                odds: state.odds(mv),
            });
        }
    }

    /// The rules' verdict and odds of the draft.
    pub fn preview(&self) -> Option<&Preview> {
        self.preview.as_ref()
    }

    /// Whether the draft may be thrown now.
    pub fn ready(&self) -> bool {
        self.preview.as_ref().is_some_and(|p| p.allowed.is_ok())
    }
}

/// A row of buttons choosing the kind of move; returns the template of a newly chosen kind.
fn kind_picker<M: Clone>(
    ui: &mut egui::Ui,
    current: &str,
    kinds: Vec<(&str, M, &str)>,
) -> Option<M> {
    let mut fresh = None;
    ui.horizontal_wrapped(|ui| {
        for (name, template, help) in kinds {
            if ui
                .selectable_label(name == current, name)
                .on_hover_text(help)
                .clicked()
                && name != current
            {
                fresh = Some(template);
            }
        }
    });
    fresh
}

/// A drop-down of text options.
fn combo(ui: &mut egui::Ui, id: &str, label: &str, selected: &mut String, options: &[String]) {
    ui.horizontal(|ui| {
        ui.label(label);
        egui::ComboBox::from_id_salt(id)
            .selected_text(selected.clone())
            .show_ui(ui, |ui| {
                for value in options {
                    ui.selectable_value(selected, value.clone(), value);
                }
            });
    });
}

/// A drop-down of the table's characters.
fn actor_combo(ui: &mut egui::Ui, label: &str, names: &[&str], actor: &mut usize) -> bool {
    let before = *actor;
    ui.horizontal(|ui| {
        ui.label(label);
        egui::ComboBox::from_id_salt(format!("actor {label}"))
            .selected_text(names.get(*actor).copied().unwrap_or("?"))
            .show_ui(ui, |ui| {
                for (i, n) in names.iter().enumerate() {
                    ui.selectable_value(actor, i, *n);
                }
            });
    });
    before != *actor
}

/// Check boxes choosing several characters.
fn actors_checks(ui: &mut egui::Ui, label: &str, names: &[&str], chosen: &mut Vec<usize>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(label);
        for (i, n) in names.iter().enumerate() {
            let mut on = chosen.contains(&i);
            if ui.checkbox(&mut on, *n).changed() {
                if on {
                    chosen.push(i);
                    chosen.sort_unstable();
                } else {
                    chosen.retain(|&c| c != i);
                }
            }
        }
    });
}

/// A comma-separated list of named sources.
fn sources(ui: &mut egui::Ui, label: &str, list: &mut Vec<String>) {
    let mut text = list.join(", ");
    ui.horizontal(|ui| {
        ui.label(label);
        if ui
            .add(egui::TextEdit::singleline(&mut text).hint_text("torch, high ground"))
            .changed()
        {
            *list = text
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
        }
    });
}

/// A whole number in a range.
fn number<N: egui::emath::Numeric>(ui: &mut egui::Ui, label: &str, value: &mut N, lo: N, hi: N) {
    ui.horizontal(|ui| {
        ui.label(label);
        ui.add(egui::DragValue::new(value).range(lo..=hi));
    });
}

/// The builder's widgets for the draft: the ruleset's own builder.
pub(super) fn show(ui: &mut egui::Ui, draft: &mut MoveDraft, play: &TablePlay) {
    let (Some(state), Some(mv)) = (&play.state, draft.mv.as_mut()) else {
        return;
    };
    let fresh = match (state, mv) {
        (TableState::D4Pool(t), Move::D4Pool(m)) => d4_pool::edit(ui, t, m).map(Move::D4Pool),
        (TableState::ActionDice(t), Move::ActionDice(m)) => {
            action_dice::edit(ui, t, m).map(Move::ActionDice)
        }
        (TableState::StepDice(t), Move::StepDice(m)) => {
            step_dice::edit(ui, t, m).map(Move::StepDice)
        }
        (TableState::OpenD6(t), Move::OpenD6(m)) => open_d6::edit(ui, t, m).map(Move::OpenD6),
        (TableState::D20Check(t), Move::D20Check(m)) => {
            d20_check::edit(ui, t, m).map(Move::D20Check)
        }
        _ => Some(state.default_move()),
    };
    if let Some(m) = fresh {
        draft.mv = Some(m);
    }
}
