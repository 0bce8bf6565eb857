//! The scene panel: pick a scene from `scenes/`; its ruleset, characters and turn tracker show.
//! A scene that does not load is listed with its error (file, line, column) and the table keeps
//! running with the scene it had.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui;

use crate::PlayOptions;
use crate::rules::data::DataError;
use crate::rules::scene::{Scene, scene_files};
use crate::rules::table::TableState;
use crate::table::TablePlay;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SceneShelf>();
    app.add_systems(Startup, load_scenes);
}

/// The scenes on offer and the one at the table.
#[derive(Resource, Default)]
pub struct SceneShelf {
    /// Every scene file found, loaded or with its error.
    pub entries: Vec<(PathBuf, Result<Scene, DataError>)>,
    /// The scene at the table (index into `entries`).
    pub selected: Option<usize>,
    /// Rules could not be read (never with the compiled-in rules).
    pub rules_error: Option<String>,
}

impl SceneShelf {
    /// Seats scene `index` at the table if it loaded; otherwise keeps the current one.
    pub fn select(&mut self, index: usize, play: &mut TablePlay, seed: u64) {
        let Some((_, Ok(scene))) = self.entries.get(index) else {
            return;
        };
        match play.seat(scene, seed) {
            Ok(()) => self.selected = Some(index),
            Err(e) => self.rules_error = Some(e),
        }
    }
}

/// The folder of scene files: `scenes/` here, or the one the program was built from.
fn scenes_dir() -> PathBuf {
    let here = Path::new("scenes");
    if here.is_dir() {
        here.to_path_buf()
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
    }
}

fn load_scenes(
    mut shelf: ResMut<SceneShelf>,
    mut play: ResMut<TablePlay>,
    options: Res<PlayOptions>,
) {
    let mut files = scene_files(&scenes_dir());
    if let Some(extra) = &options.scene
        && !files.contains(extra)
    {
        files.insert(0, extra.clone());
    }
    shelf.entries = files
        .into_iter()
        .map(|p| (p.clone(), Scene::load(&p)))
        .collect();
    for (path, entry) in &shelf.entries {
        if let Err(e) = entry {
            warn!("scene {} not loaded: {e}", path.display());
        }
    }
    let wanted = options
        .scene
        .as_ref()
        .and_then(|p| shelf.entries.iter().position(|(q, _)| q == p))
        .or_else(|| shelf.entries.iter().position(|(_, s)| s.is_ok()));
    if let Some(i) = wanted {
        shelf.select(i, &mut play, options.seed.unwrap_or(0));
    }
}

fn title(path: &Path, entry: &Result<Scene, DataError>) -> String {
    match entry {
        Ok(s) => format!("{} ({})", s.name, s.ruleset()),
        Err(_) => format!(
            "{} (does not load)",
            path.file_name()
                .map(|f| f.to_string_lossy())
                .unwrap_or_default()
        ),
    }
}

/// The panel: the scene picker, its description, the turn tracker and the turn controls.
pub(super) fn show(ui: &mut egui::Ui, shelf: &mut SceneShelf, play: &mut TablePlay) {
    ui.heading("Scene");
    let current = shelf
        .selected
        .and_then(|i| shelf.entries.get(i))
        .map(|(p, e)| title(p, e))
        .unwrap_or_else(|| "none".into());
    let mut pick = None;
    ui.add_enabled_ui(!play.in_flight(), |ui| {
        egui::ComboBox::from_id_salt("scene picker")
            .selected_text(current)
            .width(ui.available_width().min(260.0))
            .show_ui(ui, |ui| {
                for (i, (path, entry)) in shelf.entries.iter().enumerate() {
                    if ui
                        .selectable_label(shelf.selected == Some(i), title(path, entry))
                        .clicked()
                    {
                        pick = Some(i);
                    }
                }
            });
    });
    if let Some(i) = pick {
        shelf.select(i, play, 0);
    }
    for (path, entry) in &shelf.entries {
        if let Err(e) = entry {
            ui.colored_label(
                egui::Color32::from_rgb(230, 90, 80),
                format!("{}: {e}", path.display()),
            );
        }
    }
    if let Some(e) = &shelf.rules_error {
        ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
    }
    let Some(index) = shelf.selected else {
        ui.label("No scene loaded.");
        return;
    };
    if let Some((_, Ok(scene))) = shelf.entries.get(index) {
        ui.label(egui::RichText::new(format!("Ruleset: {}", scene.ruleset())).strong());
        if !scene.description.is_empty() {
            ui.label(egui::RichText::new(&scene.description).small());
        }
    }
    ui.separator();
    tracker(ui, play);
}

/// Round, whose turn, and what each character has left; the buttons that move the turn on.
fn tracker(ui: &mut egui::Ui, play: &mut TablePlay) {
    let in_flight = play.in_flight();
    let Some(table) = play.state.as_mut() else {
        return;
    };
    ui.label(egui::RichText::new(table.heading()).strong());
    egui::Grid::new("tracker")
        .striped(true)
        .num_columns(2)
        .show(ui, |ui| {
            for row in table.tracker() {
                let name = if row.acting {
                    format!("▶ {}", row.name)
                } else {
                    row.name.clone()
                };
                ui.label(egui::RichText::new(name).strong());
                ui.label(row.status.join(" · "));
                ui.end_row();
            }
        });
    let order = table.resolution_order();
    if !order.is_empty() {
        ui.label(format!("Resolution order: {}", order.join(", then ")));
    }
    let mut said = None;
    let mut end = false;
    ui.add_enabled_ui(!in_flight, |ui| {
        ui.horizontal(|ui| match table {
            TableState::D4Pool(_) | TableState::StepDice(_) => {
                end = ui.button("End turn").clicked();
            }
            TableState::ActionDice(t) => {
                if ui.button("End round").clicked() {
                    end = true;
                } else {
                    let mut noncombat = None;
                    egui::ComboBox::from_id_salt("noncombat")
                        .selected_text("Declare noncombat…")
                        .show_ui(ui, |ui| {
                            for (i, c) in t.characters.iter().enumerate() {
                                if ui
                                    .add_enabled(
                                        !t.budgets[i].noncombat,
                                        egui::Button::new(&c.name),
                                    )
                                    .clicked()
                                {
                                    noncombat = Some(i);
                                }
                            }
                        });
                    if let Some(i) = noncombat {
                        said = Some(t.declare_noncombat(i).map(|()| {
                            format!(
                                "{} is noncombat this round: +1 action die, defence 0",
                                t.characters[i].name
                            )
                        }));
                    }
                }
            }
            TableState::OpenD6(_) | TableState::D20Check(_) => {}
        });
    });
    if end {
        said = Some(table.end_turn());
    }
    match said {
        Some(Ok(line)) => play.log.push(line),
        Some(Err(e)) => play.log.push(format!("not done: {e}")),
        None => {}
    }
}
