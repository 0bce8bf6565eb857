//! The exact odds as a bar chart (egui_plot): a bar per value, the ones that pass in green, the
//! target marked, the value that came up highlighted; each bar's tooltip has the fraction.

use bevy_egui::egui;
use egui_plot::{Bar, BarChart, Plot, VLine};

use crate::rules::{Dist, Prob};

/// Bars below this chance are left out of the chart (the tooltip and text have them all).
const SMALLEST_BAR: f64 = 1e-5;

/// A probability as a percentage.
pub(super) fn percent(p: &Prob) -> String {
    format!("{:.2}%", p.to_f64() * 100.0)
}

/// A chance on a line: "name: 95.00% (19/20)"; when the exact fraction is too long to read,
/// "name: 42.86%" and an "exact" tag whose tooltip holds the fraction, with a button that
/// copies it.
pub(super) fn chance_line(ui: &mut egui::Ui, name: &str, p: &Prob, small: bool) {
    let exact = p.exact();
    let text = format!("{name}: {}", crate::text::chance(&percent(p), &exact));
    let rich = |t: String| {
        let r = egui::RichText::new(t);
        if small { r.small() } else { r }
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(rich(text));
        if crate::text::digits(&exact) > crate::text::MAX_SHOWN_DIGITS {
            ui.label(rich("exact".into()).underline())
                .on_hover_text(format!("Exactly {exact}"));
            if ui
                .small_button("copy")
                .on_hover_text("Copy the exact fraction")
                .clicked()
            {
                ui.ctx().copy_text(exact.clone());
            }
        }
    });
}

/// What a chart shows.
pub(super) struct Chart<'a> {
    /// Its egui id.
    pub id: &'a str,
    /// The distribution.
    pub dist: &'a Dist,
    /// What the axis measures.
    pub axis: &'a str,
    /// Where success starts (a line is drawn just before it).
    pub target: Option<i64>,
    /// The value that came up.
    pub rolled: Option<i64>,
}

/// Draws the chart; `passes` colours the bars that succeed.
pub(super) fn show(ui: &mut egui::Ui, chart: Chart, passes: impl Fn(i64) -> bool) {
    let bars: Vec<Bar> = chart
        .dist
        .probabilities()
        .into_iter()
        .filter(|(_, p)| p.to_f64() >= SMALLEST_BAR)
        .map(|(v, p)| {
            let color = if Some(v) == chart.rolled {
                egui::Color32::from_rgb(250, 200, 60)
            } else if passes(v) {
                egui::Color32::from_rgb(90, 170, 110)
            } else {
                egui::Color32::from_rgb(120, 130, 160)
            };
            Bar::new(v as f64, p.to_f64() * 100.0)
                .width(0.8)
                .fill(color)
                .name(format!(
                    "{v}: {}",
                    crate::text::chance(&percent(&p), &p.exact())
                ))
        })
        .collect();
    Plot::new(chart.id)
        .height(170.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .x_axis_label(chart.axis)
        .y_axis_label("%")
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("chance", bars));
            if let Some(t) = chart.target {
                plot.vline(
                    VLine::new("target", t as f64 - 0.5)
                        .color(egui::Color32::from_rgb(230, 90, 80)),
                );
            }
        });
}
