//! The overlays (bevy_egui). Left: the scene, its turn tracker and the action builder. Right:
//! the exact odds of what is about to be thrown (the scene's move, or a free roll), the outcome
//! of the last throw, and the session's history (click an entry to throw it again).

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::dice::DieKind;
use crate::dice::marks::FaceMarks;
use crate::dice::style::DieStyle;
use crate::physics::throw::Swing;
use crate::roll::{MoveRoll, NotationRoll, ThrowOrder};
use crate::window::join::JoinDialog;
use crate::window::table::{
    ActionRequest, DemoCommand, DemoRun, DiceChosen, DiceShown, LuckBoard, OwnDice, RemoteDriven,
    ReplayStored, RollHistory, StoredReplay, TablePlay, TableRoll, TableSimulator, TableView,
    ThrowNotation, ViewSettings,
};
use crate::window::third_party::egui::PanelSpace;
use crate::window::{AppSystems, PlayOptions};

mod builder;
mod demo_panel;
mod dice_labels;
mod free_roll;
mod gesture;
mod history_panel;
mod move_panel;
mod odds_chart;
mod own_dice_panel;
mod scene_panel;
mod ui_map;

pub use builder::MoveDraft;
#[cfg(test)]
pub use free_roll::FreeOdds;
pub use free_roll::FreeRoll;
pub use scene_panel::SceneShelf;

/// What the overlays keep that needs no window: the move being drafted (its verdict and odds),
/// the free roll's text and its odds worked out off the frame, what has the focus.
pub(super) fn logic_plugin(app: &mut App) {
    app.add_plugins((free_roll::plugin, builder::plugin));
    app.init_resource::<Focus>();
    app.add_systems(Update, keep_the_draft_fit.in_set(AppSystems::Present));
}

/// The overlays: their logic, the panels, the scene shelf, the hand's gesture, Space.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((logic_plugin, scene_panel::plugin, gesture::plugin));
    app.init_resource::<history_panel::HistoryPage>();
    app.init_resource::<dice_labels::HoveredDie>();
    app.init_resource::<PanelsOpen>();
    app.init_resource::<own_dice_panel::DiceDraft>();
    app.add_systems(Update, throw_on_space.in_set(AppSystems::ReadInput));
    app.add_systems(
        EguiPrimaryContextPass,
        (readable_type, draw_overlays.run_if(not_streaming)).chain(),
    );
}

/// The panels' type, px: egui's defaults (9 px small print, 13 px body) read too small beside
/// a tray on a 1280 x 800 screen; nothing is drawn under 13 px.
const TYPE_SIZES: [(egui::TextStyle, f32); 5] = [
    (egui::TextStyle::Small, 13.0),
    (egui::TextStyle::Body, 14.0),
    (egui::TextStyle::Button, 14.0),
    (egui::TextStyle::Monospace, 13.0),
    (egui::TextStyle::Heading, 19.0),
];

/// Sets the panels' type sizes ([`TYPE_SIZES`]) once the window's egui context exists.
fn readable_type(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    ctx.all_styles_mut(|style| {
        for (text_style, size) in TYPE_SIZES.iter().cloned() {
            let family = if text_style == egui::TextStyle::Monospace {
                egui::FontFamily::Monospace
            } else {
                egui::FontFamily::Proportional
            };
            style
                .text_styles
                .insert(text_style, egui::FontId::new(size, family));
        }
    });
    *done = true;
    Ok(())
}

/// Which side panels are open: each folds away (its button at the tray's top corner, or a
/// drag of its edge past its narrowest) to give the tray the whole window.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PanelsOpen {
    /// The scene, the turn tracker and the action builder (left).
    pub scene: bool,
    /// The odds, the outcome, the free roll and the history (right).
    pub odds: bool,
}

impl Default for PanelsOpen {
    fn default() -> Self {
        PanelsOpen {
            scene: true,
            odds: true,
        }
    }
}

/// True unless the window is in stream mode (no panels).
fn not_streaming(options: Res<PlayOptions>) -> bool {
    options.stream.is_none()
}

/// A button at each top corner of the tray that folds its side's panel away or opens it again.
fn fold_buttons(ctx: &egui::Context, tray: egui::Rect, scene: &mut bool, odds: &mut bool) {
    let corners = [
        (
            "fold-scene",
            egui::Align2::LEFT_TOP,
            [6.0, 6.0],
            scene,
            "the scene panel",
        ),
        (
            "fold-odds",
            egui::Align2::RIGHT_TOP,
            [-6.0, 6.0],
            odds,
            "the odds panel",
        ),
    ];
    for (id, align, offset, open, name) in corners {
        let corner = align.pos_in_rect(&tray) + egui::vec2(offset[0], offset[1]);
        egui::Area::new(egui::Id::new(id))
            .pivot(align)
            .fixed_pos(corner)
            .show(ctx, |ui| {
                let verb = if *open { "Hide" } else { "Show" };
                let button = ui.button(format!("{verb} {name}"));
                ui_map::mark(ui, id, button.rect);
                if button.clicked() {
                    *open = !*open;
                }
            });
    }
}

/// What Space and the Throw button throw: the scene's move or the free roll.
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Focus {
    /// The move in the action builder.
    #[default]
    Scene,
    /// The dice notation in the free-roll box.
    FreeRoll,
}

/// Throwing what has the focus: the draft and the free roll, the table (to know it is free),
/// and where throws go. Space, the hand's gesture and the panels' buttons throw through it.
#[derive(SystemParam)]
pub struct ThrowControls<'w> {
    focus: Res<'w, Focus>,
    draft: Res<'w, MoveDraft>,
    play: ResMut<'w, TablePlay>,
    free: ResMut<'w, FreeRoll>,
    table: Res<'w, TableRoll>,
    physics: NonSend<'w, TableSimulator>,
    moves: MessageWriter<'w, ActionRequest>,
    notations: MessageWriter<'w, ThrowNotation>,
}

impl ThrowControls<'_> {
    /// True while dice are in the air or a roll waits for its next throw.
    pub fn busy(&self) -> bool {
        self.physics.busy() || self.table.in_flight() || self.play.in_flight()
    }

    /// Throws what has the focus, if it can be thrown now (with the hand's swing, if any).
    pub fn throw(&mut self, swing: Option<Swing>) {
        match *self.focus {
            Focus::Scene => {
                let Some(mv) = self.draft.mv.clone().filter(|_| self.draft.ready()) else {
                    return;
                };
                let seed = self.play.take_seed();
                self.moves.write(ActionRequest {
                    mv,
                    seed,
                    swing,
                    replay_of: None,
                    caller: Default::default(),
                });
            }
            Focus::FreeRoll => {
                if let Some(n) = self.free.request(swing) {
                    self.notations.write(n);
                }
            }
        }
    }

    /// The dice the first throw of what has the focus would launch, with their looks (none if
    /// it cannot be thrown now): the roll path's own first order.
    pub fn dice_to_pick_up(&self) -> Vec<(DieKind, DieStyle, Option<FaceMarks>)> {
        let order: Option<ThrowOrder> = match *self.focus {
            Focus::Scene => {
                let (Some(mv), Some(state)) = (
                    self.draft.mv.as_ref().filter(|_| self.draft.ready()),
                    &self.play.state,
                ) else {
                    return Vec::new();
                };
                MoveRoll::start(state, mv, 0).ok().and_then(|r| r.order())
            }
            Focus::FreeRoll => self
                .free
                .notation()
                .and_then(|n| NotationRoll::start(n, 0).ok())
                .and_then(|r| r.order()),
        };
        order
            .map(|o| {
                o.styled()
                    .into_iter()
                    .zip(o.marks)
                    .map(|((kind, style), marks)| (kind, style, marks))
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn keep_the_draft_fit(mut draft: ResMut<MoveDraft>, play: Res<TablePlay>) {
    draft.refresh(&play);
}

/// Space throws what has the focus (unless the player is typing or dice are rolling).
fn throw_on_space(
    keys: Res<ButtonInput<KeyCode>>,
    mut contexts: EguiContexts,
    mut controls: ThrowControls,
) {
    let typing = contexts
        .ctx_mut()
        .map(|c| c.egui_wants_keyboard_input())
        .unwrap_or(false);
    if keys.just_pressed(KeyCode::Space) && !typing && !controls.busy() {
        controls.throw(None);
    }
}

/// The panels' own state: what they show and what the player set.
#[derive(SystemParam)]
struct Panels<'w> {
    space: ResMut<'w, PanelSpace>,
    focus: ResMut<'w, Focus>,
    free: ResMut<'w, FreeRoll>,
    draft: ResMut<'w, MoveDraft>,
    shelf: ResMut<'w, SceneShelf>,
    play: ResMut<'w, TablePlay>,
    view: ResMut<'w, ViewSettings>,
    hovered: ResMut<'w, dice_labels::HoveredDie>,
    page: ResMut<'w, history_panel::HistoryPage>,
    join: ResMut<'w, JoinDialog>,
    open: ResMut<'w, PanelsOpen>,
    own_dice: ResMut<'w, OwnDice>,
    dice_draft: ResMut<'w, own_dice_panel::DiceDraft>,
}

/// The table as the panels show it.
#[derive(SystemParam)]
struct TableNow<'w> {
    table: Res<'w, TableRoll>,
    history: ResMut<'w, RollHistory>,
    physics: NonSend<'w, TableSimulator>,
    replayed: Res<'w, StoredReplay>,
    board: Res<'w, LuckBoard>,
    run: Res<'w, DemoRun>,
    remote: Option<Res<'w, RemoteDriven>>,
    options: Res<'w, PlayOptions>,
}

/// What the panels ask of the table.
#[derive(SystemParam)]
struct Asks<'w> {
    throws: MessageWriter<'w, ThrowNotation>,
    moves: MessageWriter<'w, ActionRequest>,
    stored: MessageWriter<'w, ReplayStored>,
    demo: MessageWriter<'w, DemoCommand>,
    dice: MessageWriter<'w, DiceChosen>,
}

/// Draws both side panels and reports the room they take.
fn draw_overlays(
    mut contexts: EguiContexts,
    mut panels: Panels,
    mut now: TableNow,
    mut asks: Asks,
    dice: DiceShown,
    camera: TableView,
    mut printed: Local<String>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    ui_map::clear(ctx);
    let mut root = egui::Ui::new(
        ctx.clone(),
        "overlays".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let busy = now.physics.busy()
        || now.table.in_flight()
        || panels.play.in_flight()
        || now.replayed.in_flight();
    let shown = dice_labels::shown_dice(&now.physics, &dice, &camera);
    let mut chip_hovered = None;
    // Panels take a share of the window, so a small window still shows the tray.
    let width = ctx.viewport_rect().width();
    // Each panel at most 30% of the window: its text wraps rather than narrowing the tray.
    let widest = (width * 0.3).max(200.0);
    let mut scene_open = panels.open.scene;
    let left = egui::Panel::left("scene")
        .default_size((width * 0.21).clamp(170.0, 330.0))
        .size_range(170.0..=widest)
        .resizable(true)
        .show_collapsible(&mut root, &mut scene_open, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                let asked = scene_panel::show(
                    ui,
                    &mut panels.shelf,
                    &mut panels.play,
                    &now.run,
                    now.remote.is_some(),
                    &now.board,
                );
                match asked {
                    Some(scene_panel::Asked::Demo(c)) => {
                        asks.demo.write(c);
                    }
                    Some(scene_panel::Asked::Join) => panels.join.open = true,
                    Some(scene_panel::Asked::Move(mv)) => {
                        // A table server's room: the end of the turn is proposed like a throw.
                        asks.moves.write(ActionRequest {
                            mv,
                            seed: 0,
                            swing: None,
                            replay_of: None,
                            caller: Default::default(),
                        });
                    }
                    None => {}
                }
                if panels.play.state.is_some() {
                    ui.separator();
                    ui.heading("Action");
                    builder::show(ui, &mut panels.draft, &panels.play);
                    if let Some(request) =
                        move_panel::verdict(ui, &panels.draft, busy, &mut panels.play)
                    {
                        *panels.focus = Focus::Scene;
                        asks.moves.write(request);
                    }
                    ui.separator();
                    move_panel::log(ui, &panels.play);
                }
            });
        });
    panels.space.left = left.map_or(0.0, |shown| shown.response.rect.width());
    let mut odds_open = panels.open.odds;
    let right = egui::Panel::right("odds")
        .default_size((width * 0.22).clamp(180.0, 360.0))
        .size_range(200.0..=widest)
        .resizable(true)
        .show_collapsible(&mut root, &mut odds_open, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.horizontal(|ui| {
                    let scene = ui.selectable_value(
                        &mut *panels.focus,
                        Focus::Scene,
                        egui::RichText::new("Scene move").heading(),
                    );
                    ui_map::mark(ui, "scene-tab", scene.rect);
                    let free_tab = ui.selectable_value(
                        &mut *panels.focus,
                        Focus::FreeRoll,
                        egui::RichText::new("Free roll").heading(),
                    );
                    ui_map::mark(ui, "free-roll-tab", free_tab.rect);
                });
                match *panels.focus {
                    Focus::Scene => move_panel::show(ui, &panels.draft, &panels.play),
                    Focus::FreeRoll => {
                        free_roll::show(ui, &mut panels.free, &now.table, busy, &mut asks.throws)
                    }
                }
                chip_hovered = dice_labels::chips(ui, &shown, panels.hovered.0);
                ui.separator();
                view_menu(ui, &mut panels.view);
                ui.separator();
                let picked = own_dice_panel::show(ui, &panels.own_dice, &mut panels.dice_draft);
                if let Some(look) = picked.chosen {
                    panels.own_dice.choose(look);
                    asks.dice.write(DiceChosen(look));
                }
                // Changed only when it changes: the live dice are made again on a change.
                if panels.own_dice.preview != picked.preview {
                    panels.own_dice.preview = picked.preview;
                }
                ui.separator();
                let asked = history_panel::show(
                    ui,
                    &mut now.history,
                    &mut panels.page,
                    (&now.replayed, &now.board),
                    busy,
                );
                if let Some(asked) = asked {
                    history_panel::send(asked, &mut asks.throws, &mut asks.moves, &mut asks.stored);
                }
            });
        });
    panels.space.right = right.map_or(0.0, |shown| shown.response.rect.width());
    if let Some(c) = demo_panel::show(ctx, &now.run, &panels.play, busy) {
        asks.demo.write(c);
    }
    let screen = ctx.viewport_rect();
    let table_view = egui::Rect::from_min_max(
        egui::pos2(screen.left() + panels.space.left, screen.top()),
        egui::pos2(screen.right() - panels.space.right, screen.bottom()),
    );
    fold_buttons(ctx, table_view, &mut scene_open, &mut odds_open);
    panels.open.set_if_neq(PanelsOpen {
        scene: scene_open,
        odds: odds_open,
    });
    // A screenshot run has no hand on the mouse (Xvfb parks the pointer mid-screen): no hover.
    let pointer_on_table = ctx
        .pointer_hover_pos()
        .filter(|p| table_view.contains(*p) && !ctx.is_pointer_over_egui())
        .filter(|_| now.options.exit_after_frames.is_none());
    panels.hovered.0 =
        chip_hovered.or_else(|| pointer_on_table.and_then(|p| dice_labels::die_under(&shown, p)));
    dice_labels::paint_labels(ctx, table_view, &shown, &panels.view, panels.hovered.0);
    if now.options.print_ui {
        let mut lines = ui_map::lines(ctx);
        lines.push_str(&format!(
            "ui table-view {:.0} {:.0} {:.0} {:.0}\n",
            table_view.min.x,
            table_view.min.y,
            table_view.width(),
            table_view.height()
        ));
        if *printed != lines {
            println!("{lines}ui end");
            *printed = lines;
        }
    }
    Ok(())
}

/// How the table is shown: value labels, the camera following the dice, close-up.
fn view_menu(ui: &mut egui::Ui, view: &mut ViewSettings) {
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new("View").strong());
        ui.checkbox(&mut view.value_labels, "Values over dice")
            .on_hover_text("A label with its value floats above each settled die");
        ui.checkbox(&mut view.follow_dice, "Follow the dice")
            .on_hover_text("Once the dice settle the camera glides in on them");
        ui.add_enabled(
            view.follow_dice,
            egui::Checkbox::new(&mut view.closeup, "Close-up"),
        )
        .on_hover_text("Frame settled dice closer still");
    });
}
