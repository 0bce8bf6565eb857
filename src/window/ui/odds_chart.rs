//! The exact odds as a bar chart (egui_plot): a bar per value, the ones that pass in green, the
//! target marked, the value that came up highlighted; each bar's tooltip has the fraction.

use bevy_egui::egui;
use egui_plot::{Bar, BarChart, Plot, VLine};

use crate::odds::{Dist, Points, Prob};

/// Bars below this chance are left out of the chart (the tooltip and text have them all).
const SMALLEST_BAR: f64 = 1e-5;

/// A probability as a percentage.
pub(super) fn percent(p: &Prob) -> String {
    percent_of(p.to_f64())
}

/// A chance as a percentage: "16.67%".
fn percent_of(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

/// A chance ready to show, its percentage and exact fraction written out once: the fraction of
/// a roll like 100d100 has hundreds of digits and takes milliseconds to write, too long for
/// every frame.
#[derive(Clone, Debug)]
pub struct Chance {
    percent: String,
    exact: String,
}

impl Chance {
    /// Writes `p` out.
    pub fn of(p: &Prob) -> Self {
        Chance {
            percent: percent(p),
            exact: p.exact(),
        }
    }
}

/// A chance on a line: "name: 95.00% (19/20)"; when the exact fraction is too long to read,
/// "name: 42.86%" and an "exact" tag whose tooltip holds the fraction, with a button that
/// copies it.
pub(super) fn chance_line(ui: &mut egui::Ui, name: &str, chance: &Chance, small: bool) {
    let Chance { percent, exact } = chance;
    let text = format!("{name}: {}", crate::text::chance(percent, exact));
    let rich = |t: String| {
        let r = egui::RichText::new(t);
        if small { r.small() } else { r }
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(rich(text));
        if crate::text::digits(exact) > crate::text::MAX_SHOWN_DIGITS {
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

/// Denominators up to this many bits have their bars' fractions reduced and shown; beyond, a
/// fraction never fits a tooltip (`dicetable odds` prints them all).
const REDUCED_UP_TO_BITS: u64 = 128;

/// Most bars a chart draws: past this, neighbouring totals share a bar (a panel a few hundred
/// points wide cannot show 10,000 bars, and drawing them took a second a frame).
const MOST_BARS: usize = 240;

/// One bar of a chart: the totals `lo..=hi` (one total, unless the chart bins them).
#[derive(Clone, Debug)]
struct BarData {
    lo: i64,
    hi: i64,
    percent: f64,
    label: String,
}

/// The bars of a distribution, worked out once (off the frame for a free roll): the chance of
/// each total that is not too small to see, and its tooltip; many totals are binned. The totals
/// are the distribution's points, read as values by `points` (halves for `3d6/2`), and each bar
/// stands at its value, as wide as the closest two values are apart.
#[derive(Clone, Debug, Default)]
pub struct Bars {
    bars: Vec<BarData>,
    points: Points,
    /// The smallest step between two neighbouring values (1 for whole totals).
    step: f64,
}

impl Bars {
    /// The bars of `dist`.
    pub fn of(dist: &Dist) -> Self {
        let chances: Vec<(i64, f64)> = dist
            .chances()
            .into_iter()
            .filter(|(_, p)| *p >= SMALLEST_BAR)
            .collect();
        let (Some(first), Some(last)) = (chances.first(), chances.last()) else {
            return Bars::default();
        };
        let span = (last.0 - first.0 + 1) as usize;
        if span > MOST_BARS {
            return Self::binned(dist, &chances, first.0, span.div_ceil(MOST_BARS) as i64);
        }
        let small = dist.denom().bits() <= REDUCED_UP_TO_BITS;
        let bars = chances
            .into_iter()
            .map(|(point, p)| {
                let shown = percent_of(p);
                let value = dist.value_of(point);
                let label = if small {
                    let exact = dist.p(point).exact();
                    format!("{value}: {}", crate::text::chance(&shown, &exact))
                } else {
                    format!("{value}: {shown}")
                };
                BarData {
                    lo: point,
                    hi: point,
                    percent: p * 100.0,
                    label,
                }
            })
            .collect();
        Bars::placed(bars, dist)
    }

    /// The bars with the distribution's points, each bar's place worked out from its values.
    fn placed(bars: Vec<BarData>, dist: &Dist) -> Self {
        let points = dist.points().clone();
        let step = if points.is_whole() {
            1.0
        } else {
            bars.windows(2)
                .map(|w| points.value_of(w[1].lo).to_f64() - points.value_of(w[0].hi).to_f64())
                .fold(f64::INFINITY, f64::min)
                .min(1.0)
        };
        Bars {
            bars,
            points,
            step: if step.is_finite() && step > 0.0 {
                step
            } else {
                1.0
            },
        }
    }

    /// The point a total stands at on these bars (None: no bar is that total).
    pub fn point_of(&self, total: crate::odds::Total) -> Option<i64> {
        self.points.point_of(total)
    }

    /// One bar per `width` totals from `from`: the chance of any of them.
    fn binned(dist: &Dist, chances: &[(i64, f64)], from: i64, width: i64) -> Self {
        let mut bars: Vec<BarData> = Vec::new();
        // The last bin ends at the last point (past it no point has a value to read).
        let last = chances.last().map_or(from, |c| c.0);
        for &(value, p) in chances {
            let lo = from + (value - from) / width * width;
            match bars.last_mut() {
                Some(bar) if bar.lo == lo => bar.percent += p * 100.0,
                _ => bars.push(BarData {
                    lo,
                    hi: (lo + width - 1).min(last),
                    percent: p * 100.0,
                    label: String::new(),
                }),
            }
        }
        for bar in &mut bars {
            bar.label = format!(
                "{}–{}: {:.2}%",
                dist.value_of(bar.lo),
                dist.value_of(bar.hi),
                bar.percent
            );
        }
        Bars::placed(bars, dist)
    }
}

/// What a chart shows.
pub(super) struct Chart<'a> {
    /// Its egui id.
    pub id: &'a str,
    /// The distribution's bars.
    pub bars: &'a Bars,
    /// What the axis measures.
    pub axis: &'a str,
    /// Where success starts (a line is drawn just before it).
    pub target: Option<i64>,
    /// The value that came up, as one of the distribution's points.
    pub rolled: Option<i64>,
}

/// Draws the chart; `passes` colours the bars that succeed.
pub(super) fn show(ui: &mut egui::Ui, chart: Chart, passes: impl Fn(i64) -> bool) {
    let value = |point: i64| chart.bars.points.value_of(point).to_f64();
    let step = chart.bars.step;
    let bars: Vec<Bar> = chart
        .bars
        .bars
        .iter()
        .map(|bar| {
            let color = if chart.rolled.is_some_and(|v| (bar.lo..=bar.hi).contains(&v)) {
                egui::Color32::from_rgb(250, 200, 60)
            } else if passes(bar.lo) {
                egui::Color32::from_rgb(90, 170, 110)
            } else {
                egui::Color32::from_rgb(120, 130, 160)
            };
            let (left, right) = (value(bar.lo), value(bar.hi));
            Bar::new((left + right) / 2.0, bar.percent)
                .width(0.8 * (right - left + step))
                .fill(color)
                .name(&bar.label)
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
                    VLine::new("target", t as f64 - 0.5 * step)
                        .color(egui::Color32::from_rgb(230, 90, 80)),
                );
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_carry_their_fraction_only_when_it_is_short() {
        let two_d6 = Dist::die(6).repeat_sum(2);
        let bars = Bars::of(&two_d6);
        assert_eq!(bars.bars.len(), 11);
        let seven = &bars.bars[5];
        assert_eq!((seven.lo, seven.hi), (7, 7));
        assert!((seven.percent - 100.0 / 6.0).abs() < 1e-12);
        assert_eq!(seven.label, "7: 16.67% (1/6)");
        // 60 open-ended d20: a 2,853-bit denominator; bars down to 0.001% and no fraction.
        let huge = Dist::die(20).open_ended().repeat_sum(60);
        let bars = Bars::of(&huge);
        assert!(
            bars.bars
                .iter()
                .all(|b| b.percent >= 1e-3 && !b.label.contains('/'))
        );
        let shown: f64 = bars.bars.iter().map(|b| b.percent).sum();
        assert!(shown > 99.9 && shown <= 100.0 + 1e-9, "{shown}");
    }

    #[test]
    fn a_chance_is_written_out_once() {
        let c = Chance::of(&Dist::die(20).p_where(|v| v >= 15));
        assert_eq!((c.percent.as_str(), c.exact.as_str()), ("30.00%", "3/10"));
    }
}
