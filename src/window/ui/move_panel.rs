//! The scene's move in the panels: whether the rules allow it (and why not), the Throw button,
//! its exact odds before the throw, and after it the faces read (each labelled with its die),
//! the arithmetic, the outcome and what it changed at the table.

use bevy_egui::egui;

use super::builder::MoveDraft;
use super::odds_chart::{self, Bars, Chance, Chart, chance_line};
use crate::window::table::{ActionRequest, TablePlay};

const RED: egui::Color32 = egui::Color32::from_rgb(230, 90, 80);
const GREEN: egui::Color32 = egui::Color32::from_rgb(110, 200, 120);

/// The rules' verdict on the draft and the Throw button; returns the throw when clicked.
pub(super) fn verdict(
    ui: &mut egui::Ui,
    draft: &MoveDraft,
    busy: bool,
    play: &mut TablePlay,
) -> Option<ActionRequest> {
    let preview = draft.preview()?;
    if let Err(why) = &preview.allowed {
        ui.colored_label(RED, format!("Not allowed: {why}"));
    }
    let label = if busy {
        "Dice rolling…"
    } else {
        "Throw (Space)"
    };
    let button = ui.add_enabled(
        preview.allowed.is_ok() && !busy,
        egui::Button::new(egui::RichText::new(label).strong()),
    );
    super::ui_map::mark(ui, "throw", button.rect);
    let clicked = button.clicked();
    let mv = draft.mv.clone().filter(|_| clicked)?;
    Some(ActionRequest {
        mv,
        seed: play.take_seed(),
        swing: None,
        replay_of: None,
        caller: Default::default(),
    })
}

/// The last lines of what happened at the table.
pub(super) fn log(ui: &mut egui::Ui, play: &TablePlay) {
    ui.label(egui::RichText::new("Table log").strong());
    for line in play.log.iter().rev().take(14).rev() {
        ui.label(egui::RichText::new(line).small());
    }
}

/// The odds of the draft and the outcome of the last move.
pub(super) fn show(ui: &mut egui::Ui, draft: &MoveDraft, play: &TablePlay) {
    let (Some(preview), Some(state), Some(mv)) = (draft.preview(), &play.state, &draft.mv) else {
        ui.label("Pick a scene on the left.");
        return;
    };
    ui.label(egui::RichText::new(state.describe(mv)).strong());
    match &preview.odds {
        Err(e) => {
            ui.colored_label(RED, e.to_string());
        }
        Ok(None) => {
            ui.label("No dice: this move is decided without a roll.");
        }
        Ok(Some(odds)) => {
            if let Some(p) = &odds.p_success {
                chance_line(ui, "Chance of success", &Chance::of(p), false);
            }
            for (name, p) in &odds.classes {
                chance_line(ui, name, &Chance::of(p), true);
            }
            if let Some((name, dist)) = &odds.secondary {
                ui.label(egui::RichText::new(format!("mean {name} {:.2}", dist.mean())).small());
            }
            let target = odds.target;
            odds_chart::show(
                ui,
                Chart {
                    id: "move odds",
                    bars: &Bars::of(&odds.distribution),
                    axis: &odds.measure,
                    target,
                    rolled: None,
                },
                |v| target.is_some_and(|t| v >= t),
            );
        }
    }
    ui.separator();
    outcome(ui, play);
}

/// The last move: faces by die, the arithmetic, the outcome, what changed.
fn outcome(ui: &mut egui::Ui, play: &TablePlay) {
    ui.label(egui::RichText::new("Outcome").strong());
    let Some(current) = &play.current else {
        ui.label("Nothing thrown yet.");
        return;
    };
    ui.label(&current.title);
    for (i, plan) in current.plans().into_iter().enumerate() {
        let faces = current.faces().get(i);
        let dice: Vec<String> = plan
            .dice
            .iter()
            .enumerate()
            .map(|(k, d)| match faces.and_then(|f| f.get(k)) {
                // A game's own die shows its face's mark, not the face's number.
                Some(face) => match &d.marks {
                    Some(marks) => format!("{} {}", d.label, marks.of(*face).shown()),
                    None => format!("{} {face}", d.label),
                },
                None => format!("{} …", d.label),
            })
            .collect();
        if !dice.is_empty() {
            ui.label(egui::RichText::new(format!("{}: {}", plan.purpose, dice.join(", "))).small());
        }
    }
    if let Some(e) = &current.error {
        ui.colored_label(RED, e.to_string());
    }
    let Some(o) = current.outcome() else {
        ui.label(format!("in the air… (seed {})", current.request.seed));
        return;
    };
    for line in &o.lines {
        ui.label(line);
    }
    let colour = match o.success {
        Some(true) => GREEN,
        Some(false) => RED,
        None => ui.visuals().text_color(),
    };
    ui.label(egui::RichText::new(&o.class).heading().color(colour));
    for tag in &o.tags {
        ui.label(egui::RichText::new(tag).strong());
    }
    for effect in &current.effects {
        ui.label(format!("-> {effect}"));
    }
    if let (Some(odds), Some(rolled)) = (&current.odds, current.charted()) {
        let target = odds.target;
        odds_chart::show(
            ui,
            Chart {
                id: "thrown odds",
                bars: &Bars::of(&odds.distribution),
                axis: &odds.measure,
                target,
                rolled: Some(rolled),
            },
            |v| target.is_some_and(|t| v >= t),
        );
    }
    ui.label(
        egui::RichText::new(format!(
            "seed {}{}",
            current.request.seed,
            if current.request.replay_of.is_some() {
                " (replay: the table is unchanged)"
            } else {
                ""
            }
        ))
        .small(),
    );
}
