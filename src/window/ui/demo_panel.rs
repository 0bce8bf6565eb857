//! The demo's narration: a panel over the front of the table (below the tray) that says, step by step, what the
//! rule text says, what is being rolled and why, then points out the outcome and what changed
//! in the turn economy. Back, Throw / Next and Replay move through the steps.

use bevy_egui::egui;

use crate::demo::{LoadedDemo, demo_files};
use crate::window::table::{DemoCommand, DemoRun, TablePlay};

/// The demos on offer, for the scene picker: (file, title).
pub fn demo_choices() -> Vec<(std::path::PathBuf, String)> {
    demo_files()
        .into_iter()
        .map(|p| {
            let title = LoadedDemo::load(&p)
                .map(|d| format!("Demo: {}", d.demo.title))
                .unwrap_or_else(|e| format!("Demo (does not load): {e}"));
            (p, title)
        })
        .collect()
}

/// Draws the narration window over the table; returns what the game master asked.
pub(super) fn show(
    ctx: &egui::Context,
    run: &DemoRun,
    play: &TablePlay,
    busy: bool,
) -> Option<DemoCommand> {
    let demo = run.demo.as_ref()?;
    let step = demo.demo.steps.get(run.at)?;
    let mut command = None;
    let width = (ctx.viewport_rect().width() * 0.42).clamp(300.0, 560.0);
    egui::Window::new(format!("Demo: {}", demo.demo.title))
        .id(egui::Id::new("demo narration"))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -6.0])
        .default_width(width)
        .max_width(width)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(format!("Step {} of {}", run.at + 1, run.steps())).strong(),
            );
            if run.at == 0 && !run.thrown && !demo.demo.intro.is_empty() {
                ui.label(egui::RichText::new(&demo.demo.intro).italics());
                ui.separator();
            }
            ui.label(step.say.as_deref().unwrap_or_default());
            if run.thrown {
                ui.separator();
                outcome(ui, play);
            }
            ui.separator();
            ui.horizontal(|ui| {
                let can_back = run.thrown || run.at > 0;
                if ui
                    .add_enabled(can_back && !busy, egui::Button::new("◀ Back"))
                    .clicked()
                {
                    command = Some(DemoCommand::Back);
                }
                if !run.thrown {
                    if ui
                        .add_enabled(!busy, egui::Button::new("Throw ▶"))
                        .on_hover_text(format!("seed {}", demo.step_seed(run.at)))
                        .clicked()
                    {
                        command = Some(DemoCommand::Throw);
                    }
                } else if ui
                    .add_enabled(run.has_next() && !busy, egui::Button::new("Next ▶"))
                    .clicked()
                {
                    command = Some(DemoCommand::Next);
                }
                if ui
                    .add_enabled(run.thrown && !busy, egui::Button::new("↻ Replay"))
                    .on_hover_text("throw this step again with its seed: the same dice")
                    .clicked()
                {
                    command = Some(DemoCommand::Replay);
                }
                if ui.button("Leave demo").clicked() {
                    command = Some(DemoCommand::Leave);
                }
            });
        });
    command
}

/// The outcome of the step just thrown and what changed at the table.
fn outcome(ui: &mut egui::Ui, play: &TablePlay) {
    let Some(current) = &play.current else {
        return;
    };
    if let Some(e) = current.error.as_ref().map(ToString::to_string) {
        ui.colored_label(
            egui::Color32::from_rgb(230, 120, 90),
            format!("Not allowed: {e}"),
        );
        return;
    }
    let Some(o) = current.outcome() else {
        ui.label("The dice are rolling…");
        return;
    };
    ui.label(
        egui::RichText::new(format!("{}: {}", current.title, o.class))
            .strong()
            .color(match o.success {
                Some(true) => egui::Color32::from_rgb(120, 210, 120),
                Some(false) => egui::Color32::from_rgb(230, 120, 90),
                None => egui::Color32::LIGHT_GRAY,
            }),
    );
    ui.label(format!("Faces: {:?}", current.faces()));
    for effect in &current.effects {
        ui.label(format!("• {effect}"));
    }
    for tag in &o.tags {
        ui.label(egui::RichText::new(tag).small());
    }
}
