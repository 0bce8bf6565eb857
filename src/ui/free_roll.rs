//! The free-roll box: dice notation, its exact odds as a bar chart (target marked, the total
//! that came up highlighted), a Throw button, the outcome, and the history of the session
//! (click an entry to throw it again with its seed: the same faces come up).

use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Bar, BarChart, Plot, VLine};

use crate::rules::notation::Notation;
use crate::rules::{Dist, Prob};
use crate::table::{TableRoll, ThrowNotation};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FreeRoll>();
    app.add_systems(Startup, start_from_the_command_line);
    app.init_resource::<RollHistory>();
    app.add_systems(
        Update,
        (
            throw_on_space.in_set(crate::AppSystems::ReadInput),
            record_history.in_set(crate::AppSystems::Present),
        ),
    );
}

/// Bars below this chance are left out of the chart (the text form has them all).
const SMALLEST_BAR: f64 = 1e-5;

/// What the player typed, and its odds.
#[derive(Resource)]
pub struct FreeRoll {
    /// The notation text.
    pub text: String,
    /// The parsed notation and its distribution, or the parse error.
    pub parsed: Result<(Notation, Dist), String>,
    /// The seed of the next throw.
    pub next_seed: u64,
}

impl Default for FreeRoll {
    fn default() -> Self {
        let text = "2d6+3>=10".to_string();
        FreeRoll {
            parsed: parse(&text),
            text,
            next_seed: rand::random(),
        }
    }
}

fn parse(text: &str) -> Result<(Notation, Dist), String> {
    let n = Notation::parse(text).map_err(|e| e.to_string())?;
    let d = n.distribution();
    Ok((n, d))
}

/// One finished roll of the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// What was thrown.
    pub notation: String,
    /// Its seed.
    pub seed: u64,
    /// Each die's faces (open-ended dice have several).
    pub faces: Vec<Vec<u32>>,
    /// The total.
    pub total: i64,
    /// Pass or fail, with a comparison.
    pub success: Option<bool>,
}

/// Every roll of the session, oldest first. It only grows.
#[derive(Resource, Default)]
pub struct RollHistory(pub Vec<HistoryEntry>);

/// The box starts with the dice of `--roll`, when given.
fn start_from_the_command_line(options: Res<crate::PlayOptions>, mut free: ResMut<FreeRoll>) {
    if let Some(text) = &options.roll {
        free.text = text.clone();
        free.parsed = parse(text);
        if let Some(seed) = options.seed {
            free.next_seed = seed.wrapping_add(1);
        }
    }
}

/// Space throws what is in the box (unless the player is typing).
fn throw_on_space(
    keys: Res<ButtonInput<KeyCode>>,
    mut contexts: bevy_egui::EguiContexts,
    mut free: ResMut<FreeRoll>,
    table: Res<TableRoll>,
    mut throws: MessageWriter<ThrowNotation>,
) {
    let typing = contexts
        .ctx_mut()
        .map(|c| c.egui_wants_keyboard_input())
        .unwrap_or(false);
    if !keys.just_pressed(KeyCode::Space) || typing || table.in_flight() {
        return;
    }
    if let Ok((notation, _)) = &free.parsed {
        let notation = notation.clone();
        throws.write(ThrowNotation {
            notation,
            seed: free.next_seed,
        });
        free.next_seed = free.next_seed.wrapping_add(1);
    }
}

/// Adds each finished roll of the table to the history, once: a roll in flight re-arms it, so a
/// replay (same notation and seed) is recorded too.
fn record_history(
    table: Res<TableRoll>,
    mut history: ResMut<RollHistory>,
    mut recorded: Local<bool>,
) {
    let (Some(total), Some(current)) = (table.total, &table.current) else {
        *recorded = false;
        return;
    };
    if std::mem::replace(&mut *recorded, true) {
        return;
    }
    history.0.push(HistoryEntry {
        notation: current.notation.source().to_string(),
        seed: current.seed,
        faces: table.chains.clone(),
        total,
        success: current.notation.comparison.map(|c| c.holds(total)),
    });
}

fn percent(p: &Prob) -> String {
    format!("{:.2}%", p.to_f64() * 100.0)
}

/// The panel.
pub(super) fn show(
    ui: &mut egui::Ui,
    free: &mut FreeRoll,
    table: &TableRoll,
    history: &RollHistory,
    throws: &mut MessageWriter<ThrowNotation>,
) {
    ui.heading("Free roll");
    let edit = ui
        .add(egui::TextEdit::singleline(&mut free.text).hint_text("e.g. 4d6kh3, d20+5>=15, 2d6!"));
    if edit.changed() {
        free.parsed = parse(&free.text);
    }
    let in_flight = table.in_flight();
    match &free.parsed {
        Err(e) => {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
        }
        Ok((notation, dist)) => {
            let throw = ui.add_enabled(!in_flight, egui::Button::new("Throw (Space)"));
            if throw.clicked()
                || (edit.lost_focus()
                    && ui.input(|i| i.key_pressed(egui::Key::Enter))
                    && !in_flight)
            {
                throws.write(ThrowNotation {
                    notation: notation.clone(),
                    seed: free.next_seed,
                });
                free.next_seed = free.next_seed.wrapping_add(1);
            }
            odds(ui, notation, dist, table);
        }
    }
    ui.separator();
    outcome(ui, table);
    ui.separator();
    ui.label(egui::RichText::new("History (click to replay)").strong());
    egui::ScrollArea::vertical()
        .max_height(220.0)
        .show(ui, |ui| {
            for entry in history.0.iter().rev() {
                let verdict = match entry.success {
                    Some(true) => " ✔",
                    Some(false) => " ✘",
                    None => "",
                };
                let label = format!(
                    "{} = {}{}   {:?}   seed {}",
                    entry.notation, entry.total, verdict, entry.faces, entry.seed
                );
                if ui
                    .add_enabled(!in_flight, egui::Button::new(label).frame(false))
                    .clicked()
                    && let Ok(n) = Notation::parse(&entry.notation)
                {
                    throws.write(ThrowNotation {
                        notation: n,
                        seed: entry.seed,
                    });
                }
            }
        });
}

/// The exact odds: a bar per total, the target marked, the total that came up highlighted.
fn odds(ui: &mut egui::Ui, notation: &Notation, dist: &Dist, table: &TableRoll) {
    // From the distribution already computed (not recomputed every frame).
    if let Some(p) = notation.comparison.map(|c| dist.p_where(|v| c.holds(v))) {
        ui.label(format!(
            "Chance of success: {} ({})",
            percent(&p),
            short(&p.exact())
        ));
    }
    ui.label(format!("Mean {:.2}", dist.mean()));
    let rolled = table
        .current
        .as_ref()
        .filter(|c| c.notation.source() == notation.source())
        .and(table.total);
    let target = notation.comparison.map(|c| c.target);
    let bars: Vec<Bar> = dist
        .probabilities()
        .into_iter()
        .filter(|(_, p)| p.to_f64() >= SMALLEST_BAR)
        .map(|(v, p)| {
            let passes = notation.comparison.is_some_and(|c| c.holds(v));
            let color = if Some(v) == rolled {
                egui::Color32::from_rgb(250, 200, 60)
            } else if passes {
                egui::Color32::from_rgb(90, 170, 110)
            } else {
                egui::Color32::from_rgb(120, 130, 160)
            };
            Bar::new(v as f64, p.to_f64() * 100.0)
                .width(0.8)
                .fill(color)
                .name(format!("{v}: {} ({})", percent(&p), short(&p.exact())))
        })
        .collect();
    Plot::new("odds")
        .height(170.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .x_axis_label("total")
        .y_axis_label("%")
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("chance", bars));
            if let Some(t) = target {
                plot.vline(
                    VLine::new("target", t as f64 - 0.5)
                        .color(egui::Color32::from_rgb(230, 90, 80)),
                );
            }
        });
}

/// What the last throw came to.
fn outcome(ui: &mut egui::Ui, table: &TableRoll) {
    ui.label(egui::RichText::new("Outcome").strong());
    let Some(current) = &table.current else {
        ui.label("Nothing thrown yet.");
        return;
    };
    let dice = current.notation.dice();
    for (die, faces) in dice.iter().zip(&table.chains) {
        let name = format!("d{}{}", die.sides, if die.open_ended { "!" } else { "" });
        if faces.is_empty() {
            ui.label(format!("{name}: rolling…"));
        } else {
            let sum: u32 = faces.iter().sum();
            let shown = if faces.len() > 1 {
                format!("{faces:?} = {sum}")
            } else {
                sum.to_string()
            };
            ui.label(format!("{name}: {shown}"));
        }
    }
    match table.total {
        None => {
            ui.label(format!(
                "{} in the air… (seed {})",
                current.notation.source(),
                current.seed
            ));
        }
        Some(total) => {
            let mut text = format!("{} = {total}", current.notation.source());
            if let Some(c) = current.notation.comparison {
                text.push_str(if c.holds(total) {
                    "   success"
                } else {
                    "   failure"
                });
            }
            ui.label(egui::RichText::new(text).heading());
            let throws = if table.throws == 1 {
                "1 throw".to_string()
            } else {
                format!("{} throws", table.throws)
            };
            ui.label(format!("seed {} ({throws})", current.seed));
        }
    }
}

fn short(exact: &str) -> String {
    if exact.len() > 24 {
        format!("{}…", &exact[..24])
    } else {
        exact.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_finished_roll_is_recorded_once_replays_too() {
        let mut app = App::new();
        app.init_resource::<TableRoll>();
        app.init_resource::<RollHistory>();
        app.add_systems(Update, record_history);
        let roll = ThrowNotation {
            notation: Notation::parse("2d6").expect("notation"),
            seed: 5,
        };
        for _ in 0..2 {
            // In the air, then settled for a few frames.
            let mut table = app.world_mut().resource_mut::<TableRoll>();
            table.current = Some(roll.clone());
            table.total = None;
            app.update();
            let mut table = app.world_mut().resource_mut::<TableRoll>();
            table.chains = vec![vec![3], vec![4]];
            table.total = Some(7);
            app.update();
            app.update();
        }
        let history = &app.world().resource::<RollHistory>().0;
        assert_eq!(history.len(), 2, "{history:?}");
        assert_eq!(
            history[1],
            HistoryEntry {
                notation: "2d6".into(),
                seed: 5,
                faces: vec![vec![3], vec![4]],
                total: 7,
                success: None
            }
        );
    }
}
