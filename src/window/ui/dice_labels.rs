//! What the settled dice say, where they lie: a label with the value floats above each die in
//! its colours (View menu: on by default), and the outcome panel lists the dice as chips.
//! Hovering a die on the table or its chip highlights both.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::dice::style::DieStyle;
use crate::physics::RollResult;
use crate::window::table::{DiceShown, TableSimulator, TableView, ViewSettings, outline_on_screen};

/// The die under the pointer, on the table or in the chips (index in its throw).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoveredDie(pub Option<usize>);

/// A settled die as the overlays see it: its value's label, colours and where it is on screen.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownDie {
    /// Index in its throw.
    pub index: usize,
    /// "d20", "d10 (tens)".
    pub name: &'static str,
    /// The value as printed on the die ("40" on a tens die).
    pub label: String,
    /// Its colours.
    pub style: DieStyle,
    /// Its centre on screen (logical pixels), if in front of the camera.
    pub centre: Option<egui::Pos2>,
    /// Its outline's bounding box on screen.
    pub outline: Option<egui::Rect>,
}

fn color(c: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(c[0], c[1], c[2])
}

/// The gold of a highlighted die and its chip.
const HIGHLIGHT: egui::Color32 = egui::Color32::from_rgb(255, 214, 90);

/// The edge of a die's label or chip: its ink, or a thick gold one while highlighted.
fn edge(style: DieStyle, lit: bool) -> egui::Stroke {
    if lit {
        egui::Stroke::new(2.5, HIGHLIGHT)
    } else {
        egui::Stroke::new(1.0, color(style.ink))
    }
}

/// The settled dice with their screen places (empty while dice fly).
pub fn shown_dice(physics: &TableSimulator, dice: &DiceShown, camera: &TableView) -> Vec<ShownDie> {
    let Some(result): Option<&RollResult> = physics.settled() else {
        return Vec::new();
    };
    let view = camera.single().ok();
    let marks = physics.shown().map_or(&[][..], |t| t.marks.as_slice());
    let mut shown: Vec<ShownDie> = dice
        .iter()
        .filter_map(|(transform, die)| {
            let settled = result.dice.get(die.index)?;
            let outline = view
                .and_then(|v| outline_on_screen(v, transform, die.kind))
                .map(|r| {
                    egui::Rect::from_min_max(
                        egui::pos2(r.min.x, r.min.y),
                        egui::pos2(r.max.x, r.max.y),
                    )
                });
            let centre = view
                .and_then(|(c, t)| c.world_to_viewport(t, transform.translation()).ok())
                .map(|v| egui::pos2(v.x, v.y));
            Some(ShownDie {
                index: die.index,
                name: die.kind.name(),
                label: marks.get(die.index).and_then(Option::as_ref).map_or_else(
                    || die.kind.reading(settled.value),
                    |m| m.of(settled.value).shown(),
                ),
                style: die.style,
                centre,
                outline,
            })
        })
        .collect();
    shown.sort_by_key(|d| d.index);
    shown
}

/// The die whose outline holds the pointer (the nearest centre if outlines overlap).
pub fn die_under(shown: &[ShownDie], pointer: egui::Pos2) -> Option<usize> {
    shown
        .iter()
        .filter(|d| d.outline.is_some_and(|r| r.contains(pointer)))
        .min_by(|a, b| {
            let da = a.centre.map_or(f32::MAX, |c| c.distance(pointer));
            let db = b.centre.map_or(f32::MAX, |c| c.distance(pointer));
            da.total_cmp(&db)
        })
        .map(|d| d.index)
}

/// Paints the labels above the dice, clipped to the table's view, and rings the hovered die.
pub fn paint_labels(
    ctx: &egui::Context,
    view: egui::Rect,
    shown: &[ShownDie],
    settings: &ViewSettings,
    hovered: Option<usize>,
) {
    let painter = ctx
        .layer_painter(egui::LayerId::new(
            egui::Order::Background,
            egui::Id::new("dice labels"),
        ))
        .with_clip_rect(view);
    for die in shown {
        let (Some(centre), Some(outline)) = (die.centre, die.outline) else {
            continue;
        };
        let lit = hovered == Some(die.index);
        if lit {
            painter.circle_stroke(
                centre,
                outline.width().max(outline.height()) * 0.6,
                egui::Stroke::new(3.0, HIGHLIGHT),
            );
        }
        if !settings.value_labels && !lit {
            continue;
        }
        let font = egui::FontId::proportional(if lit { 22.0 } else { 18.0 });
        let galley = painter.layout_no_wrap(die.label.clone(), font, color(die.style.ink));
        let at = egui::pos2(centre.x, outline.top() - 6.0 - galley.size().y / 2.0);
        let rect = egui::Rect::from_center_size(at, galley.size() + egui::vec2(12.0, 4.0));
        painter.rect(
            rect,
            6.0,
            color(die.style.body),
            edge(die.style, lit),
            egui::StrokeKind::Outside,
        );
        painter.galley(
            rect.center() - galley.size() / 2.0,
            galley,
            egui::Color32::WHITE,
        );
    }
}

/// The dice on the table as a row of chips ("d20 19"), each in its die's colours; hovering one
/// reports it.
pub fn chips(ui: &mut egui::Ui, shown: &[ShownDie], hovered: Option<usize>) -> Option<usize> {
    if shown.is_empty() {
        return None;
    }
    let mut over = None;
    ui.label(egui::RichText::new("Dice on the table (hover to find one)").small());
    ui.horizontal_wrapped(|ui| {
        for die in shown {
            let lit = hovered == Some(die.index);
            let text = egui::RichText::new(format!("{} {}", die.name, die.label))
                .color(color(die.style.ink))
                .strong();
            let button = egui::Button::new(text)
                .fill(color(die.style.body))
                .stroke(edge(die.style, lit));
            if ui.add(button).hovered() {
                over = Some(die.index);
            }
        }
    });
    over
}

#[cfg(test)]
mod tests {
    use super::*;

    fn die(index: usize, x: f32) -> ShownDie {
        ShownDie {
            index,
            name: "d6",
            label: "3".into(),
            style: DieStyle::IVORY,
            centre: Some(egui::pos2(x, 100.0)),
            outline: Some(egui::Rect::from_center_size(
                egui::pos2(x, 100.0),
                egui::vec2(50.0, 50.0),
            )),
        }
    }

    #[test]
    fn the_pointer_finds_the_die_it_is_over_and_the_nearest_of_two() {
        let shown = [die(0, 100.0), die(1, 140.0)];
        assert_eq!(die_under(&shown, egui::pos2(80.0, 100.0)), Some(0));
        assert_eq!(die_under(&shown, egui::pos2(125.0, 100.0)), Some(1));
        assert_eq!(die_under(&shown, egui::pos2(300.0, 100.0)), None);
    }
}
