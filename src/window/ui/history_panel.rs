//! The history panel: this session's rolls and, page by page, every earlier session's from the
//! lasting history. A click throws a roll again with its seed and gesture: a roll of this session
//! as it was asked for (a move against the table as it was), a roll of an earlier session as its
//! record's throws, checked face by face and pose by pose. Tonight's luck sits under it.

use bevy::prelude::*;
use bevy_egui::egui;

use super::ui_map;
use crate::history::{SessionLuck, StoredRoll, luck};
use crate::record::RollRecord;
use crate::window::table::{
    ActionRequest, Caller, LuckBoard, Replay, ReplayStored, RollHistory, StoredReplay,
    ThrowNotation,
};

/// Which page the panel shows.
#[derive(Resource, Default)]
pub struct HistoryPage {
    /// None: this session; Some(i): the i-th earlier session, newest first.
    pub earlier: Option<usize>,
    /// The earlier session on show: its number, rolls and everyone's luck, read and tallied
    /// once per page.
    loaded: Option<(i64, Vec<StoredRoll>, Option<SessionLuck>)>,
}

/// What the panel asks for.
pub(super) enum Asked {
    /// Throw a roll of this session again, with its seed, as its caller.
    Again(Replay, u64, Caller),
    /// Throw a roll of an earlier session again from its record.
    Stored(ReplayStored),
}

/// Draws the panel; returns a replay asked for.
pub(super) fn show(
    ui: &mut egui::Ui,
    history: &mut RollHistory,
    page: &mut HistoryPage,
    (replayed, board): (&StoredReplay, &LuckBoard),
    busy: bool,
) -> Option<Asked> {
    let pages = history.earlier.len();
    if page.earlier.is_some_and(|i| i >= pages) {
        page.earlier = None;
    }
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("History").strong());
        let older = ui
            .add_enabled(
                page.earlier.map_or(pages > 0, |i| i + 1 < pages),
                egui::Button::new("◀"),
            )
            .on_hover_text("An earlier session");
        ui_map::mark(ui, "history-older", older.rect);
        let newer = ui
            .add_enabled(page.earlier.is_some(), egui::Button::new("▶"))
            .on_hover_text("A later session");
        ui_map::mark(ui, "history-newer", newer.rect);
        if older.clicked() {
            page.earlier = Some(page.earlier.map_or(0, |i| i + 1));
        }
        if newer.clicked() {
            page.earlier = page.earlier.and_then(|i| i.checked_sub(1));
        }
    });
    for notice in &history.notices {
        ui.colored_label(egui::Color32::from_rgb(230, 160, 60), notice);
    }
    let asked = match page.earlier {
        None => this_session(ui, history, board, busy),
        Some(i) => earlier_session(ui, history, page, i, busy),
    };
    if let Some(verdict) = &replayed.verdict {
        ui.label(egui::RichText::new(verdict).small());
    }
    asked
}

fn this_session(
    ui: &mut egui::Ui,
    history: &RollHistory,
    board: &LuckBoard,
    busy: bool,
) -> Option<Asked> {
    let heading = match history.session() {
        Some(s) => format!("This session (session {s}), click to replay"),
        None => "This session (not kept: see above), click to replay".to_string(),
    };
    ui.label(egui::RichText::new(heading).small());
    if history.entries.is_empty() {
        ui.label("No rolls yet.");
    }
    for (name, l) in &board.rows {
        ui.label(egui::RichText::new(format!("{name}: {}", luck::words(l))).small());
    }
    let mut asked = None;
    for (i, entry) in history.entries.iter().enumerate().rev() {
        let percentile = entry
            .luck
            .as_ref()
            .map(|l| format!("   percentile {:.0}", l.percentile))
            .unwrap_or_default();
        // A room's hidden roll, seen here because this member may: marked, as on the room page.
        let sealed = if entry.withheld { " (hidden)" } else { "" };
        let label = format!(
            "{}. {}{sealed} -> {}   seed {}{percentile}",
            i + 1,
            entry.what,
            result_text(&entry.result, &entry.record),
            entry.seed
        );
        let (button, copy) = roll_row(ui, label, &entry.record.code(), busy);
        ui_map::mark(
            ui,
            format!("history-{}", history.entries.len() - 1 - i),
            button.rect,
        );
        if copy.clicked() {
            ui.ctx().copy_text(entry.record.code());
        }
        if button.clicked() {
            asked = Some(Asked::Again(
                entry.replay.clone(),
                entry.seed,
                Caller {
                    who: entry.record.who.clone(),
                    label: entry.record.label.clone(),
                    shown_only: true,
                    replay: true,
                    withheld: entry.withheld,
                    painter: None,
                },
            ));
        }
    }
    asked
}

fn earlier_session(
    ui: &mut egui::Ui,
    history: &mut RollHistory,
    page: &mut HistoryPage,
    i: usize,
    busy: bool,
) -> Option<Asked> {
    let info = history.earlier[i].clone();
    if page.loaded.as_ref().is_none_or(|(s, _, _)| *s != info.id) {
        let rolls = history.earlier_rolls(info.id);
        let lucks: Vec<_> = rolls.iter().filter_map(|r| r.luck.as_ref()).collect();
        let everyone = luck::session_luck(&lucks);
        page.loaded = Some((info.id, rolls, everyone));
    }
    ui.label(
        egui::RichText::new(format!(
            "Session {} · {} · {} · {} rolls, click to replay",
            info.id, info.when, info.place, info.rolls
        ))
        .small(),
    );
    let (rolls, everyone) = match &page.loaded {
        Some((_, rolls, everyone)) => (rolls.as_slice(), everyone.as_ref()),
        None => (&[][..], None),
    };
    if let Some(l) = everyone {
        ui.label(egui::RichText::new(format!("everyone: {}", luck::words(l))).small());
    }
    let mut asked = None;
    for (row, roll) in rolls.iter().rev().enumerate() {
        let who = roll.byline();
        let label = format!(
            "{}. {who}{} -> {}   seed {}",
            roll.n,
            roll.what,
            result_text(&roll.result, &roll.record),
            roll.record.seed
        );
        let (button, copy) = roll_row(ui, label, &roll.record.code(), busy);
        ui_map::mark(ui, format!("history-earlier-{row}"), button.rect);
        if copy.clicked() {
            ui.ctx().copy_text(roll.record.code());
        }
        if button.clicked() {
            asked = Some(Asked::Stored(ReplayStored {
                session: roll.session,
                n: roll.n,
                what: roll.what.clone(),
                record: roll.record.clone(),
            }));
        }
    }
    asked
}

/// One roll: a "code" button (copies its replay code) and the roll itself (replays it).
fn roll_row(
    ui: &mut egui::Ui,
    label: String,
    code: &str,
    busy: bool,
) -> (egui::Response, egui::Response) {
    ui.horizontal(|ui| {
        let copy = ui
            .small_button("code")
            .on_hover_text(format!("Copy the replay code {code}"));
        let button = ui.add_enabled(
            !busy,
            // Wrapped within the panel: a long move's line never widens it over the tray.
            egui::Button::new(egui::RichText::new(label).small())
                .frame(false)
                .wrap(),
        );
        (button, copy)
    })
    .inner
}

/// Sends a replay the panel asked for.
pub(super) fn send(
    asked: Asked,
    throws: &mut MessageWriter<ThrowNotation>,
    moves: &mut MessageWriter<ActionRequest>,
    stored: &mut MessageWriter<ReplayStored>,
) {
    match asked {
        Asked::Stored(request) => {
            stored.write(request);
        }
        Asked::Again(Replay::Notation(notation, swing), seed, caller) => {
            throws.write(ThrowNotation {
                notation,
                seed,
                swing,
                cocked: Default::default(),
                caller,
            });
        }
        Asked::Again(Replay::Move { mv, before, swing }, seed, caller) => {
            moves.write(ActionRequest {
                mv,
                seed,
                swing,
                replay_of: Some(before),
                caller,
            });
        }
    }
}

/// A history row's result: a free roll's dice as read (`(+, −, −, 0) = -1`, `{(1☠)+5} = 6 ✖`,
/// the same text as the result panel), or a move's outcome and its faces, one throw after
/// another (`Success   4 1 · 6`).
fn result_text(result: &str, record: &RollRecord) -> String {
    match crate::roll::read_record(record) {
        Some(read) => {
            let verdict = match read.success {
                Some(true) => " ✔",
                Some(false) => " ✖",
                None => "",
            };
            format!("{}{verdict}", read.shown)
        }
        None => {
            let throws: Vec<String> = record
                .faces
                .iter()
                .map(|throw| {
                    let faces: Vec<String> = throw.iter().map(u32::to_string).collect();
                    faces.join(" ")
                })
                .collect();
            format!("{result}   {}", throws.join(" · "))
        }
    }
}
