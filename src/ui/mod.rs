//! The overlays (bevy_egui). Left: the scene, its turn tracker and the action builder. Right:
//! the exact odds of what is about to be thrown (the scene's move, or a free roll), the outcome
//! of the last throw, and the session's history (click an entry to throw it again).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::table::{
    ActionRequest, DemoCommand, DemoRun, DiceShown, LuckBoard, ReplayStored, RollHistory,
    StoredReplay, TablePlay, TableRoll, TableSimulator, TableView, ThrowNotation, ViewSettings,
};
use crate::third_party::egui::PanelSpace;

mod builder;
mod demo_panel;
mod dice_labels;
mod free_roll;
mod gesture;
mod history_panel;
mod move_panel;
mod odds_chart;
mod scene_panel;
mod ui_map;

pub use builder::MoveDraft;
pub use free_roll::FreeRoll;
pub use scene_panel::SceneShelf;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        free_roll::plugin,
        scene_panel::plugin,
        builder::plugin,
        gesture::plugin,
    ));
    app.init_resource::<Focus>();
    app.init_resource::<history_panel::HistoryPage>();
    app.init_resource::<dice_labels::HoveredDie>();
    app.add_systems(
        Update,
        (
            throw_on_space.in_set(crate::AppSystems::ReadInput),
            keep_the_draft_fit.in_set(crate::AppSystems::Present),
        ),
    );
    app.add_systems(
        EguiPrimaryContextPass,
        draw_overlays.run_if(|o: Res<crate::PlayOptions>| o.stream.is_none()),
    );
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

/// The throw of what has the focus, if it can be thrown now.
pub fn throw_focused(
    focus: Focus,
    draft: &MoveDraft,
    play: &mut TablePlay,
    free: &mut FreeRoll,
    swing: Option<crate::physics::throw::Swing>,
) -> Option<Thrown> {
    match focus {
        Focus::Scene => {
            let mv = draft.mv.clone().filter(|_| draft.ready())?;
            Some(Thrown::Move(ActionRequest {
                mv,
                seed: play.take_seed(),
                swing,
                replay_of: None,
                caller: Default::default(),
            }))
        }
        Focus::FreeRoll => free.request(swing).map(Thrown::Notation),
    }
}

/// A throw asked for by the player.
pub enum Thrown {
    /// A move of the scene.
    Move(ActionRequest),
    /// A free roll.
    Notation(ThrowNotation),
}

fn keep_the_draft_fit(mut draft: ResMut<MoveDraft>, play: Res<TablePlay>) {
    draft.refresh(&play);
}

/// Space throws what has the focus (unless the player is typing or dice are rolling).
#[allow(clippy::too_many_arguments)]
fn throw_on_space(
    keys: Res<ButtonInput<KeyCode>>,
    mut contexts: EguiContexts,
    focus: Res<Focus>,
    draft: Res<MoveDraft>,
    (mut play, mut free): (ResMut<TablePlay>, ResMut<FreeRoll>),
    (table, physics): (Res<TableRoll>, NonSend<TableSimulator>),
    mut moves: MessageWriter<ActionRequest>,
    mut notations: MessageWriter<ThrowNotation>,
) {
    let typing = contexts
        .ctx_mut()
        .map(|c| c.egui_wants_keyboard_input())
        .unwrap_or(false);
    let busy = physics.busy() || table.in_flight() || play.in_flight();
    if !keys.just_pressed(KeyCode::Space) || typing || busy {
        return;
    }
    match throw_focused(*focus, &draft, &mut play, &mut free, None) {
        Some(Thrown::Move(m)) => {
            moves.write(m);
        }
        Some(Thrown::Notation(n)) => {
            notations.write(n);
        }
        None => {}
    }
}

/// Draws both side panels and reports the room they take.
#[allow(clippy::too_many_arguments)]
fn draw_overlays(
    mut contexts: EguiContexts,
    mut space: ResMut<PanelSpace>,
    (mut free, mut focus, mut draft): (ResMut<FreeRoll>, ResMut<Focus>, ResMut<MoveDraft>),
    (table, mut history, physics): (Res<TableRoll>, ResMut<RollHistory>, NonSend<TableSimulator>),
    (mut page, replayed, board, mut stored): (
        ResMut<history_panel::HistoryPage>,
        Res<StoredReplay>,
        Res<LuckBoard>,
        MessageWriter<ReplayStored>,
    ),
    (mut shelf, mut play): (ResMut<SceneShelf>, ResMut<TablePlay>),
    mut throws: MessageWriter<ThrowNotation>,
    mut moves: MessageWriter<ActionRequest>,
    (run, mut demo_commands): (Res<DemoRun>, MessageWriter<DemoCommand>),
    (dice, camera): (DiceShown, TableView),
    (mut view, mut hovered): (ResMut<ViewSettings>, ResMut<dice_labels::HoveredDie>),
    (options, mut printed, remote, mut join): (
        Res<crate::PlayOptions>,
        Local<String>,
        Option<Res<crate::table::RemoteDriven>>,
        ResMut<crate::join::JoinDialog>,
    ),
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
    let busy = physics.busy() || table.in_flight() || play.in_flight() || replayed.in_flight();
    let shown = dice_labels::shown_dice(&physics, &dice, &camera);
    let mut chip_hovered = None;
    // Panels take a share of the window, so a small window still shows the tray.
    let width = ctx.viewport_rect().width();
    space.left = egui::Panel::left("scene")
        .default_size((width * 0.21).clamp(170.0, 330.0))
        .resizable(true)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                match scene_panel::show(ui, &mut shelf, &mut play, &run, remote.is_some(), &board) {
                    Some(scene_panel::Asked::Demo(c)) => {
                        demo_commands.write(c);
                    }
                    Some(scene_panel::Asked::Join) => join.open = true,
                    Some(scene_panel::Asked::Move(mv)) => {
                        // A table server's room: the end of the turn is proposed like a throw.
                        moves.write(ActionRequest {
                            mv,
                            seed: 0,
                            swing: None,
                            replay_of: None,
                            caller: Default::default(),
                        });
                    }
                    None => {}
                }
                if play.state.is_some() {
                    ui.separator();
                    ui.heading("Action");
                    builder::show(ui, &mut draft, &play);
                    if let Some(request) = move_panel::verdict(ui, &draft, busy, &mut play) {
                        *focus = Focus::Scene;
                        moves.write(request);
                    }
                    ui.separator();
                    move_panel::log(ui, &play);
                }
            });
        })
        .response
        .rect
        .width();
    space.right = egui::Panel::right("odds")
        .default_size((width * 0.22).clamp(180.0, 360.0))
        .resizable(true)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.horizontal(|ui| {
                    let scene = ui.selectable_value(
                        &mut *focus,
                        Focus::Scene,
                        egui::RichText::new("Scene move").heading(),
                    );
                    ui_map::mark(ui, "scene-tab", scene.rect);
                    let free_tab = ui.selectable_value(
                        &mut *focus,
                        Focus::FreeRoll,
                        egui::RichText::new("Free roll").heading(),
                    );
                    ui_map::mark(ui, "free-roll-tab", free_tab.rect);
                });
                match *focus {
                    Focus::Scene => move_panel::show(ui, &draft, &play),
                    Focus::FreeRoll => free_roll::show(ui, &mut free, &table, busy, &mut throws),
                }
                chip_hovered = dice_labels::chips(ui, &shown, hovered.0);
                ui.separator();
                view_menu(ui, &mut view);
                ui.separator();
                let asked =
                    history_panel::show(ui, &mut history, &mut page, (&replayed, &board), busy);
                if let Some(asked) = asked {
                    history_panel::send(asked, &mut throws, &mut moves, &mut stored);
                }
            });
        })
        .response
        .rect
        .width();
    if let Some(c) = demo_panel::show(ctx, &run, &play, busy) {
        demo_commands.write(c);
    }
    let screen = ctx.viewport_rect();
    let table_view = egui::Rect::from_min_max(
        egui::pos2(screen.left() + space.left, screen.top()),
        egui::pos2(screen.right() - space.right, screen.bottom()),
    );
    // A screenshot run has no hand on the mouse (Xvfb parks the pointer mid-screen): no hover.
    let pointer_on_table = ctx
        .pointer_hover_pos()
        .filter(|p| table_view.contains(*p) && !ctx.is_pointer_over_egui())
        .filter(|_| options.exit_after_frames.is_none());
    hovered.0 =
        chip_hovered.or_else(|| pointer_on_table.and_then(|p| dice_labels::die_under(&shown, p)));
    dice_labels::paint_labels(ctx, table_view, &shown, &view, hovered.0);
    if options.print_ui {
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
