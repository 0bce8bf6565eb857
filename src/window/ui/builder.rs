//! The action builder: every move of the seated scene's ruleset, drawn from the rules' own move
//! catalogue (`rules::catalogue`: the kinds of move, and the draft's fields with the choices the
//! table offers), the one the room's web page renders too. The rules check the draft: a move
//! they do not allow shows why and cannot be thrown. Its exact odds are worked out when it
//! changes, not every frame.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::rules::catalogue::{Field, Input, same_kind, set_path};
use crate::rules::play::Move;
use crate::rules::table::TableState;
use crate::rules::{Odds, RulesError};
use crate::window::table::TablePlay;

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

/// The value a field's widget chose, if it changed.
fn field(ui: &mut egui::Ui, i: usize, f: &Field) -> Option<serde_json::Value> {
    use serde_json::Value;
    let mut chosen = None;
    match &f.input {
        Input::Choice { options, selected } => {
            ui.horizontal(|ui| {
                ui.label(&f.label);
                let shown = selected
                    .and_then(|s| options.get(s))
                    .map_or("(choose)", |o| o.label.as_str());
                egui::ComboBox::from_id_salt(("move field", i, &f.label))
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for (k, o) in options.iter().enumerate() {
                            if ui
                                .selectable_label(Some(k) == *selected, &o.label)
                                .clicked()
                                && Some(k) != *selected
                            {
                                chosen = Some(o.value.clone());
                            }
                        }
                    });
            });
        }
        Input::Number {
            value,
            min,
            max,
            optional,
        } => {
            ui.horizontal(|ui| {
                let mut on = value.is_some();
                if *optional {
                    if ui.checkbox(&mut on, &f.label).changed() {
                        chosen = Some(if on {
                            Value::from((*min).max(10).min(*max))
                        } else {
                            Value::Null
                        });
                    }
                } else {
                    ui.label(&f.label);
                }
                if let Some(v) = value {
                    let mut n = *v;
                    if ui
                        .add(egui::DragValue::new(&mut n).range(*min..=*max))
                        .changed()
                    {
                        chosen = Some(Value::from(n));
                    }
                }
            });
        }
        Input::Flag { value } => {
            let mut on = *value;
            if ui.checkbox(&mut on, &f.label).changed() {
                chosen = Some(Value::Bool(on));
            }
        }
        Input::Tally {
            options,
            counts,
            max,
        } => {
            let mut counts = counts.clone();
            let mut changed = false;
            ui.horizontal_wrapped(|ui| {
                ui.label(&f.label);
                for (k, o) in options.iter().enumerate() {
                    if *max == 1 {
                        let mut on = counts[k] > 0;
                        if ui.checkbox(&mut on, &o.label).changed() {
                            counts[k] = u32::from(on);
                            changed = true;
                        }
                    } else {
                        ui.label(&o.label);
                        changed |= ui
                            .add(egui::DragValue::new(&mut counts[k]).range(0..=*max))
                            .changed();
                    }
                }
            });
            if changed {
                chosen = Some(Value::Array(
                    options
                        .iter()
                        .zip(&counts)
                        .flat_map(|(o, &n)| std::iter::repeat_n(o.value.clone(), n as usize))
                        .collect(),
                ));
            }
        }
        Input::Words { value, hint } => {
            let mut text = value.join(", ");
            ui.horizontal(|ui| {
                ui.label(&f.label);
                if ui
                    .add(egui::TextEdit::singleline(&mut text).hint_text(hint.as_str()))
                    .changed()
                {
                    chosen = Some(Value::from(
                        text.split(',')
                            .map(|s| s.trim().to_string())
                            .filter(|s| !s.is_empty())
                            .collect::<Vec<_>>(),
                    ));
                }
            });
        }
        Input::Note { text } => {
            ui.label(egui::RichText::new(text).small());
        }
    }
    chosen
}

/// The builder's widgets for the draft: the kinds of move, then the draft's fields.
pub(super) fn show(ui: &mut egui::Ui, draft: &mut MoveDraft, play: &TablePlay) {
    let (Some(state), Some(mv)) = (&play.state, draft.mv.as_ref()) else {
        return;
    };
    // The window plays every seat (a room's server refuses a seat not the member's).
    let seats: Vec<usize> = (0..state.names().len()).collect();
    let mut fresh = None;
    ui.horizontal_wrapped(|ui| {
        for kind in state.kinds(&seats) {
            let current = same_kind(&kind.template, mv);
            if ui
                .selectable_label(current, kind.label)
                .on_hover_text(kind.hint)
                .clicked()
                && !current
            {
                fresh = Some(kind.template);
            }
        }
    });
    if fresh.is_none() {
        for (i, f) in state.form(mv, &seats).iter().enumerate() {
            if let Some(value) = field(ui, i, f) {
                let mut json = serde_json::to_value(mv).unwrap_or_default();
                set_path(&mut json, &f.path, value);
                // A field's choice always makes a move of the same shape; one that did not
                // would be a bug in the catalogue, and the draft then stays as it was.
                fresh = serde_json::from_value(json).ok();
            }
        }
    }
    if let Some(m) = fresh {
        draft.mv = Some(m);
    }
}
