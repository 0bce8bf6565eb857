//! The scene panel: pick a scene from `scenes/`; its ruleset, characters and turn tracker show.
//! A scene that does not load is listed with its error (file, line, column) and the table keeps
//! running with the scene it had.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui;

use crate::PlayOptions;
use crate::rules::data::DataError;
use crate::rules::engine::Rulebook;
use crate::rules::scene::{Scene, scene_files};
use crate::rules::table::TableState;

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
    /// Its turn economy.
    pub table: Option<TableState>,
    /// Rules could not be read (never with the compiled-in rules).
    pub rules_error: Option<String>,
}

impl SceneShelf {
    /// Seats scene `index` if it loaded; otherwise keeps the current one.
    pub fn select(&mut self, index: usize, seed: u64) {
        let Some((_, Ok(scene))) = self.entries.get(index) else {
            return;
        };
        match Rulebook::builtin() {
            Ok(book) => {
                self.table = Some(TableState::new(scene, &book, seed));
                self.selected = Some(index);
            }
            Err(e) => self.rules_error = Some(e.to_string()),
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

fn load_scenes(mut shelf: ResMut<SceneShelf>, options: Res<PlayOptions>) {
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
        shelf.select(i, options.seed.unwrap_or(0));
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

/// The panel.
pub(super) fn show(ui: &mut egui::Ui, shelf: &mut SceneShelf) {
    ui.heading("Scene");
    let current = shelf
        .selected
        .and_then(|i| shelf.entries.get(i))
        .map(|(p, e)| title(p, e))
        .unwrap_or_else(|| "none".into());
    let mut pick = None;
    egui::ComboBox::from_id_salt("scene picker")
        .selected_text(current)
        .width(240.0)
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
    if let Some(i) = pick {
        shelf.select(i, 0);
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
            ui.label(&scene.description);
        }
    }
    ui.separator();
    let Some(table) = &shelf.table else { return };
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
    ui.separator();
    ui.label(egui::RichText::new("Acting on the table with this scene's actions comes with issue #5; throw free rolls on the right meanwhile.").italics().small());
}
