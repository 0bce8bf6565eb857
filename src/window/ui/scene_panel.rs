//! The scene panel: pick a scene from `scenes/`; its ruleset, characters and turn tracker show.
//! A scene that does not load is listed with its error (file, line, column) and the table keeps
//! running with the scene it had.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui;

use crate::rules::data::DataError;
use crate::rules::scene::{Scene, default_dir, scene_files};
use crate::window::PlayOptions;
use crate::window::table::{DemoCommand, DemoRun, LuckBoard, TablePlay};

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
    /// The guided demos: (file, title).
    pub demos: Vec<(PathBuf, String)>,
}

impl SceneShelf {
    /// Seats scene `index` at the table if it loaded; otherwise keeps the current one.
    pub fn select(&mut self, index: usize, play: &mut TablePlay, seed: u64) {
        let Some((_, Ok(scene))) = self.entries.get(index) else {
            return;
        };
        match play.seat(scene, seed) {
            Ok(()) => {
                println!("seated {} ({})", scene.name, scene.ruleset().as_str());
                self.selected = Some(index);
            }
            Err(e) => self.rules_error = Some(e.to_string()),
        }
    }
}

fn load_scenes(
    mut shelf: ResMut<SceneShelf>,
    mut play: ResMut<TablePlay>,
    options: Res<PlayOptions>,
) {
    let mut files = scene_files(&default_dir());
    if let Some(extra) = &options.scene
        && !files.contains(extra)
    {
        files.insert(0, extra.clone());
    }
    shelf.demos = super::demo_panel::demo_choices();
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
    // A joined room seats its own scene when its log arrives.
    if let Some(i) = wanted.filter(|_| options.join.is_none()) {
        shelf.select(i, &mut play, options.seed.unwrap_or(0));
    }
}

fn title(path: &Path, entry: &Result<Scene, DataError>) -> String {
    match entry {
        Ok(s) if s.rules.is_some() => format!("{} ({}, own rules)", s.name, s.ruleset()),
        Ok(s) => format!("{} ({})", s.name, s.ruleset()),
        Err(_) => format!(
            "{} (does not load)",
            path.file_name()
                .map(|f| f.to_string_lossy())
                .unwrap_or_default()
        ),
    }
}

/// The panel: the scene picker (scenes and demos), its description, the turn tracker and the
/// turn controls. Returns a demo to start or leave.
/// What the scene panel asks for.
pub(super) enum Asked {
    /// A demo command.
    Demo(DemoCommand),
    /// A move to propose to the table server (ending the turn in a joined room).
    Move(crate::rules::play::Move),
    /// The "Join a table" dialog.
    Join,
}

pub(super) fn show(
    ui: &mut egui::Ui,
    shelf: &mut SceneShelf,
    play: &mut TablePlay,
    run: &DemoRun,
    remote: bool,
    luck: &LuckBoard,
) -> Option<Asked> {
    ui.heading("Scene");
    if remote {
        // A joined room: its scene, never another one from the shelf.
        match &play.scene {
            Some(name) => ui.label(egui::RichText::new(format!("Online room: {name}")).strong()),
            None => ui.label("Joining the room…"),
        };
        if let Some(state) = &play.state {
            ui.label(egui::RichText::new(format!("Ruleset: {}", state.ruleset())).strong());
        }
        ui.separator();
        return tracker(ui, play, true, luck).map(Asked::Move);
    }
    let current = match &run.demo {
        Some(d) => format!("Demo: {}", d.demo.title),
        None => shelf
            .selected
            .and_then(|i| shelf.entries.get(i))
            .map(|(p, e)| title(p, e))
            .unwrap_or_else(|| "none".into()),
    };
    let mut pick = None;
    let mut demo = None;
    let join = ui
        .button("Join a table…")
        .on_hover_text("Play a room of a table server (dicetable serve) with others")
        .clicked();
    if join {
        return Some(Asked::Join);
    }
    ui.add_enabled_ui(!play.in_flight(), |ui| {
        let picker = egui::ComboBox::from_id_salt("scene picker")
            .selected_text(current)
            .width(ui.available_width().min(260.0))
            .show_ui(ui, |ui| {
                for (i, (path, entry)) in shelf.entries.iter().enumerate() {
                    let option = ui.selectable_label(
                        run.demo.is_none() && shelf.selected == Some(i),
                        title(path, entry),
                    );
                    super::ui_map::mark(ui, format!("scene-option-{i}"), option.rect);
                    if option.clicked() {
                        pick = Some(i);
                    }
                }
                ui.separator();
                for (path, title) in shelf.demos.iter() {
                    let on = run.demo.as_ref().is_some_and(|d| &d.path == path);
                    if ui.selectable_label(on, title).clicked() {
                        demo = Some(DemoCommand::Start(path.clone()));
                    }
                }
            });
        super::ui_map::mark(ui, "scene-picker", picker.response.rect);
    });
    if let Some(i) = pick {
        shelf.select(i, play, 0);
        demo = Some(DemoCommand::Leave);
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
    if let Some(e) = &run.error {
        ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
    }
    let scene = match &run.demo {
        Some(d) => Some(&d.scene),
        None => shelf
            .selected
            .and_then(|i| shelf.entries.get(i))
            .and_then(|(_, e)| e.as_ref().ok()),
    };
    let Some(scene) = scene else {
        ui.label("No scene loaded.");
        return demo.map(Asked::Demo);
    };
    ui.label(egui::RichText::new(format!("Ruleset: {}", scene.ruleset())).strong());
    ui.label(egui::RichText::new(format!("Plays by {}", scene.rules_in_words())).small());
    if !scene.description.is_empty() {
        ui.label(egui::RichText::new(&scene.description).small());
    }
    ui.separator();
    tracker(ui, play, false, luck);
    demo.map(Asked::Demo)
}

/// Round, whose turn, and what each character has left; the buttons that move the turn on
/// (in a joined room, the end of the turn is returned, to be proposed).
fn tracker(
    ui: &mut egui::Ui,
    play: &mut TablePlay,
    remote: bool,
    luck: &LuckBoard,
) -> Option<crate::rules::play::Move> {
    let in_flight = play.in_flight();
    let table = play.state.as_mut()?;
    ui.label(egui::RichText::new(table.heading()).strong());
    // Rows wrap to the panel's width: a long status never widens the panel over the table.
    for row in table.tracker() {
        let name = if row.acting {
            format!("▶ {}", row.name)
        } else {
            row.name.clone()
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(name).strong());
            ui.label(row.status.join(" · "));
        });
        if let Some(l) = luck.of(&row.name) {
            ui.label(
                egui::RichText::new(crate::history::luck::words(l))
                    .small()
                    .weak(),
            );
        }
    }
    for note in table.notes() {
        ui.label(note);
    }
    let mut said = None;
    if let Some(end) = table.end_turn_move() {
        let label = table.end_turn_label();
        if ui
            .add_enabled(!in_flight, egui::Button::new(label))
            .on_hover_text(table.describe(&end))
            .clicked()
        {
            if remote {
                return Some(end);
            }
            said = Some(crate::roll::end_turn(table));
        }
    }
    match said {
        Some(Ok(line)) => play.log.push(line),
        Some(Err(e)) => play.log.push(format!("not done: {e}")),
        None => {}
    }
    None
}
