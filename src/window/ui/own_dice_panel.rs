//! "Your dice" in the free-roll panel: a body colour, a numeral colour, a material and a
//! typeface, the numerals' colour as it will be drawn (moved just enough to read at 4.5:1), and
//! the choice kept for the next run and logged in a room the window is in.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::dice::style::{DiceLook, Material, Rgb, Typeface, readable_ink};
use crate::window::table::OwnDice;

/// The picker's fields before they are used.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct DiceDraft {
    body: [u8; 3],
    ink: [u8; 3],
    material: Material,
    pips: bool,
    typeface: Typeface,
    /// Filled from the dice kept, once.
    filled: bool,
}

impl Default for DiceDraft {
    fn default() -> Self {
        DiceDraft {
            body: [30, 64, 170],
            ink: [255, 255, 255],
            material: Material::Plastic,
            pips: false,
            typeface: Typeface::Sans,
            filled: false,
        }
    }
}

impl DiceDraft {
    fn look(self) -> DiceLook {
        DiceLook {
            body: Rgb(self.body),
            ink: Rgb(self.ink),
            material: self.material,
            pips: self.pips,
            typeface: self.typeface,
        }
    }
}

/// What the picker did this frame.
pub(super) struct Picked {
    /// The dice chosen (Some(None): back to plain dice).
    pub chosen: Option<Option<DiceLook>>,
    /// The look its live die shows on the felt (None: the picker is closed).
    pub preview: Option<DiceLook>,
}

/// Draws the picker.
pub(super) fn show(ui: &mut egui::Ui, own: &OwnDice, draft: &mut DiceDraft) -> Picked {
    if !draft.filled {
        if let Some(look) = own.look {
            draft.body = look.body.0;
            draft.ink = look.ink.0;
            draft.material = look.material;
            draft.pips = look.pips;
            draft.typeface = look.typeface;
        }
        draft.filled = true;
    }
    let mut chosen = None;
    let picker = egui::CollapsingHeader::new(egui::RichText::new("Your dice").strong())
        .id_salt("your dice")
        .show(ui, |ui| {
            ui.label(match own.look {
                Some(look) => format!(
                    "Your free rolls throw {} dice: {}.",
                    look.material.name(),
                    look.colours()
                ),
                None => "Your free rolls throw the table's plain dice.".to_string(),
            });
            ui.horizontal(|ui| {
                ui.label("Colour");
                egui::color_picker::color_edit_button_srgb(ui, &mut draft.body);
                ui.label("Numerals");
                egui::color_picker::color_edit_button_srgb(ui, &mut draft.ink);
            });
            egui::ComboBox::from_label("Material")
                .selected_text(draft.material.name())
                .show_ui(ui, |ui| {
                    for m in Material::ALL {
                        ui.selectable_value(&mut draft.material, m, m.name());
                    }
                });
            egui::ComboBox::from_label("Numerals' typeface")
                .selected_text(draft.typeface.title())
                .show_ui(ui, |ui| {
                    for t in Typeface::ALL {
                        ui.selectable_value(&mut draft.typeface, t, t.title());
                    }
                });
            ui.checkbox(&mut draft.pips, "Pips on the d6")
                .on_hover_text("dots, as on a common die, instead of numerals");
            let drawn = readable_ink(Rgb(draft.body), Rgb(draft.ink));
            if drawn != Rgb(draft.ink) {
                ui.label(
                    egui::RichText::new(format!(
                        "{} does not read on {}: the numerals are drawn {}",
                        Rgb(draft.ink).hex(),
                        Rgb(draft.body).hex(),
                        drawn.hex()
                    ))
                    .small(),
                );
            }
            ui.horizontal(|ui| {
                if ui.button("Use these dice").clicked() {
                    chosen = Some(Some(draft.look()));
                }
                if own.look.is_some() && ui.button("Plain dice").clicked() {
                    chosen = Some(None);
                }
            });
            ui.label(
                egui::RichText::new("The d20 and d6 turning at the view's lower right wear them.")
                    .small(),
            );
            if let Some(problem) = &own.problem {
                ui.colored_label(egui::Color32::from_rgb(230, 90, 80), problem);
            }
        });
    super::ui_map::mark(ui, "your-dice", picker.header_response.rect);
    let open = picker.body_returned.is_some();
    Picked {
        chosen,
        preview: open.then(|| draft.look()),
    }
}
