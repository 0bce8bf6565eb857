//! The free-roll box: dice notation, its exact odds as a bar chart (target marked, the total
//! that came up highlighted), a Throw button and the outcome. The odds are worked out off the
//! frame (Bevy's async compute pool): the panel says "computing…" meanwhile, and the work for
//! text typed over is asked to stop, so typing `100d20!kh50` never stalls the table nor the
//! odds of what is typed next.

use std::sync::Arc;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use bevy_egui::egui;

use super::odds_chart::{self, Bars, Chance, Chart, chance_line};
use crate::odds::Dist;
use crate::odds::notation::estimate::{Estimate, estimate};
use crate::odds::notation::{Measure, Notation, OddsError, ShownDie};
use crate::odds::stop::{Abandoned, Cancel, Never, Stop};
use crate::record::code;
use crate::window::table::{TableRoll, ThrowNotation};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FreeRoll>();
    app.add_systems(Startup, start_from_the_command_line);
    app.add_systems(Update, collect_free_roll_odds);
}

/// The exact odds of the notation in the box: being worked out, or ready.
pub enum FreeOdds {
    /// Worked out off the frame (None: no notation to work out).
    Computing(Option<OddsWork>),
    /// The distribution of the notation `source`.
    Ready {
        /// The notation it is of.
        source: String,
        /// Its distribution.
        dist: Arc<Dist>,
        /// What the panel shows of it.
        view: OddsView,
    },
    /// Too large to work out exactly, and why.
    Refused {
        /// The notation it is of.
        source: String,
        /// Why, in words.
        why: String,
    },
}

/// How long a keystroke may spend estimating the odds (the ≈ line), so that something shows
/// within 50 ms.
const ESTIMATE_BUDGET: std::time::Duration = std::time::Duration::from_millis(25);

/// What working out the odds of a text gives: the distribution and its view, or why not.
type Worked = Result<(Arc<Dist>, OddsView), OddsError<Abandoned>>;

/// The odds of one text being worked out off the frame. Dropped when the text changes: the work
/// is then asked to stop (a keep over many open-ended dice takes seconds, and the compute pool
/// has one thread on a small machine: the odds of the new text would wait for it).
pub struct OddsWork {
    task: Task<Worked>,
    cancel: Cancel,
}

impl OddsWork {
    /// Starts working out the odds of `notation` on `pool`.
    fn start(pool: &AsyncComputeTaskPool, notation: Notation) -> Self {
        let cancel = Cancel::new();
        let stop = cancel.clone();
        OddsWork {
            task: pool.spawn(async move { OddsView::work_out(&notation, &stop) }),
            cancel,
        }
    }
}

impl Drop for OddsWork {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// What the panel shows of a distribution, worked out with it off the frame: a frame only
/// draws it (writing out 22,000 fractions of 4,750 bits each frame would stall the table).
pub struct OddsView {
    /// The chance of success, when the notation has a comparison.
    success: Option<Chance>,
    /// The mean total.
    mean: f64,
    /// The chart's bars.
    bars: Bars,
}

impl OddsView {
    /// The distribution of `notation` and what the panel shows of it, unless stopped first.
    fn work_out<S: Stop>(
        notation: &Notation,
        stop: &S,
    ) -> Result<(Arc<Dist>, OddsView), OddsError<S::Stopped>> {
        let dist = notation.shared_distribution_until(stop)?;
        let view = OddsView {
            success: notation
                .check()
                .map(|c| Chance::of(&dist.p_where(|v| c.holds(v)))),
            mean: dist.mean(),
            bars: Bars::of(&dist),
        };
        Ok((dist, view))
    }
}

/// What the player typed, and its odds.
#[derive(Resource)]
pub struct FreeRoll {
    /// The notation text.
    pub text: String,
    /// The parsed notation, or the parse error.
    pub parsed: Result<Notation, String>,
    /// Its odds.
    pub odds: FreeOdds,
    /// The seed of the next throw.
    pub next_seed: u64,
    /// A pasted replay code's seed and gesture: the throw replays it.
    pub code: Option<crate::record::RollInputs>,
    /// A quick estimate of the odds (≈), shown until the exact ones are ready.
    pub estimate: Option<Estimate>,
}

impl Default for FreeRoll {
    fn default() -> Self {
        let mut free = FreeRoll {
            text: String::new(),
            parsed: Err(String::new()),
            odds: FreeOdds::Computing(None),
            next_seed: rand::random(),
            code: None,
            estimate: None,
        };
        free.set_text("{1d20+5}>=15");
        free
    }
}

impl FreeRoll {
    /// The notation in the box, if it parses.
    pub fn notation(&self) -> Option<&Notation> {
        self.parsed.as_ref().ok()
    }

    /// True while the exact odds of the text in the box are being worked out off the frame.
    pub fn working_out_odds(&self) -> bool {
        matches!(self.odds, FreeOdds::Computing(Some(_)))
    }

    /// Its distribution, once worked out.
    pub fn dist(&self) -> Option<&Dist> {
        self.ready().map(|(dist, _)| dist)
    }

    /// Its distribution and what the panel shows of it, once worked out.
    fn ready(&self) -> Option<(&Dist, &OddsView)> {
        match (&self.odds, &self.parsed) {
            (FreeOdds::Ready { source, dist, view }, Ok(n)) if *source == n.source() => {
                Some((dist, view))
            }
            _ => None,
        }
    }

    /// Why the odds of the notation in the box are not worked out, when they are too large.
    fn refused(&self) -> Option<&str> {
        match (&self.odds, &self.parsed) {
            (FreeOdds::Refused { source, why }, Ok(n)) if *source == n.source() => Some(why),
            _ => None,
        }
    }

    /// Starts working out the odds of the notation in the box (the work for earlier text is
    /// dropped: a task not yet started never runs, one running is asked to stop).
    fn work_out_odds(&mut self) {
        let Ok(notation) = &self.parsed else {
            self.odds = FreeOdds::Computing(None);
            return;
        };
        if self.dist().is_some() || self.refused().is_some() {
            return;
        }
        let notation = notation.clone();
        // Something to show within the 50 ms a keystroke may take; exact odds replace it.
        self.estimate = estimate(&notation, ESTIMATE_BUDGET);
        self.odds = match AsyncComputeTaskPool::try_get() {
            Some(pool) => FreeOdds::Computing(Some(OddsWork::start(pool, notation))),
            // No task pools (a test without the app): worked out here.
            None => {
                let source = notation.source().to_string();
                match OddsView::work_out(&notation, &Never) {
                    Ok((dist, view)) => FreeOdds::Ready { source, dist, view },
                    Err(e) => FreeOdds::Refused {
                        source,
                        why: e.to_string(),
                    },
                }
            }
        };
    }

    /// The throw of what is in the box, moving the seed on (None when the box does not parse).
    pub fn request(
        &mut self,
        swing: Option<crate::physics::throw::Swing>,
    ) -> Option<ThrowNotation> {
        let notation = self.parsed.as_ref().ok()?;
        if let Some(inputs) = &self.code {
            // A replay code throws exactly what it recorded: its seed, gesture and cocked-dice
            // policy.
            return Some(ThrowNotation {
                notation: notation.clone(),
                seed: inputs.seed,
                swing: inputs.gesture.map(Into::into),
                cocked: inputs.cocked,
                caller: Default::default(),
            });
        }
        let request = ThrowNotation {
            notation: notation.clone(),
            seed: self.next_seed,
            swing,
            cocked: Default::default(),
            caller: Default::default(),
        };
        self.next_seed = self.next_seed.wrapping_add(1);
        Some(request)
    }
}

impl FreeRoll {
    /// Takes new text: a notation, or a replay code (its notation, seed and gesture).
    pub fn set_text(&mut self, text: &str) {
        self.text = text.to_string();
        self.code = None;
        self.parsed = if !text.trim().starts_with(code::PREFIX) {
            parse(text)
        } else {
            code::decode_notation(text).and_then(|(n, inputs)| {
                self.code = Some(inputs);
                parse(&n)
            })
        };
        self.work_out_odds();
    }
}

/// A notation the table can throw: read, and its dice checked as every roll checks them (a d31,
/// too many dice, none at all), so the panel never shows odds of a throw that cannot be made.
fn parse(text: &str) -> Result<Notation, String> {
    let notation = Notation::parse(text).map_err(|e| e.to_string())?;
    crate::roll::notation_dice(&notation).map_err(|e| e.to_string())?;
    Ok(notation)
}

/// Takes the odds in once worked out (the task belongs to the text now in the box: earlier
/// ones were dropped when the text changed).
fn collect_free_roll_odds(mut free: ResMut<FreeRoll>) {
    let FreeOdds::Computing(Some(work)) = &mut free.bypass_change_detection().odds else {
        return;
    };
    let Some(done) = block_on(poll_once(&mut work.task)) else {
        return;
    };
    let Ok(notation) = &free.parsed else {
        return;
    };
    let source = notation.source().to_string();
    free.odds = match done {
        Ok((dist, view)) => FreeOdds::Ready { source, dist, view },
        Err(OddsError::TooLarge(why)) => FreeOdds::Refused {
            source,
            why: format!("exact odds are not worked out: {why}"),
        },
        // Only a dropped work is asked to stop, so this one ends with its odds.
        Err(OddsError::Stopped(_)) => {
            free.odds = FreeOdds::Computing(None);
            free.work_out_odds();
            return;
        }
    };
}

/// The box starts with the dice of `--roll`, when given, and the panel with the free roll.
fn start_from_the_command_line(
    options: Res<crate::window::PlayOptions>,
    mut free: ResMut<FreeRoll>,
    mut focus: ResMut<super::Focus>,
) {
    if let Some(text) = &options.roll {
        // The panel shows the free roll that was asked for, its odds and its dice.
        *focus = super::Focus::FreeRoll;
        free.set_text(text);
        if let Some(seed) = options.seed {
            free.next_seed = seed.wrapping_add(1);
        }
    }
}

/// The notation box's help, on hover: Roll20's notation in a few lines, the difference between
/// counting each die and comparing a total first (docs/notation.md has every form).
const NOTATION_HELP: &str = "Roll20's dice notation:\n\
    3d6+2, 4d6kh3 (keep the 3 highest), 2d20kl1, 3d6! (explode), 3d6r1 (reroll 1s), 4dF, d%\n\
    8d10>7: count the dice showing 7 or more\n\
    {3d20+5}>21: count each d20 that reaches 21 with 5 added\n\
    {3d6+5,0d0}>15: compare the total (one success on 15 or more)\n\
    {1d20+5}>15: a check (one die: its total, passed or failed)\n\
    3d6/2 (5.5: exact), floor(3d6/2), 1d4**2, (1+1)d6, 1d20cs20cs19, [fire] labels";

/// The panel's free-roll part.
pub(super) fn show(
    ui: &mut egui::Ui,
    free: &mut FreeRoll,
    table: &TableRoll,
    busy: bool,
    throws: &mut MessageWriter<ThrowNotation>,
) {
    let edit = ui
        .add(
            egui::TextEdit::singleline(&mut free.text)
                .hint_text("e.g. 4d6kh3, {d20+5}>15, 8d10>7, 4dF"),
        )
        .on_hover_text(NOTATION_HELP);
    super::ui_map::mark(ui, "notation", edit.rect);
    super::ui_map::mark_text(ui, "notation", &free.text);
    if edit.changed() {
        let text = free.text.clone();
        free.set_text(&text);
    }
    if let (Some(inputs), Ok(n)) = (&free.code, &free.parsed) {
        let nudged = match inputs.cocked {
            crate::record::Cocked::Nudge => ", cocked dice nudged",
            crate::record::Cocked::Rethrow => "",
        };
        ui.label(format!(
            "Replay code: {} with seed {}{nudged}",
            n.source(),
            inputs.seed
        ));
    }
    if let Ok(n) = &free.parsed {
        for note in n.notes() {
            ui.colored_label(
                egui::Color32::from_rgb(230, 190, 90),
                format!("Note: {note}"),
            );
        }
    }
    let throw = ui.add_enabled(
        free.parsed.is_ok() && !busy,
        egui::Button::new("Throw (Space)"),
    );
    super::ui_map::mark(ui, "free-throw", throw.rect);
    if (throw.clicked()
        || (edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) && !busy))
        && let Some(request) = free.request(None)
    {
        throws.write(request);
    }
    match (&free.parsed, free.ready()) {
        (Err(e), _) => {
            ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
        }
        (Ok(notation), Some((_, view))) => odds(ui, notation, view, table),
        (Ok(_), None) if free.refused().is_some() => {
            ui.label(free.refused().unwrap_or_default());
        }
        (Ok(notation), None) => {
            if let Some(e) = &free.estimate {
                let mut line = format!("≈ mean {:.2}", e.mean);
                if let Some(c) = notation.check() {
                    line.push_str(&format!(
                        ", chance of success ≈ {:.1}%",
                        100.0 * e.p_where(|v| c.holds(v))
                    ));
                }
                ui.label(line);
                ui.small(format!(
                    "≈: from {} rolls on paper; every cumulative chance within ±{:.1}% (99.9% sure)",
                    e.samples,
                    100.0 * e.error
                ));
            }
            let computing = ui.horizontal(|ui| {
                ui.spinner();
                ui.label("computing the exact odds…");
            });
            super::ui_map::mark(ui, "odds-computing", computing.response.rect);
        }
    }
    ui.separator();
    outcome(ui, table);
}

/// The exact odds: a bar per total, the target marked, the total that came up highlighted.
fn odds(ui: &mut egui::Ui, notation: &Notation, view: &OddsView, table: &TableRoll) {
    // Worked out with the distribution, off the frame: a frame only draws.
    if let Some(chance) = &view.success {
        chance_line(ui, "Chance of success", chance, false);
    }
    ui.label(format!("Mean {:.2}", view.mean));
    let rolled = table
        .current
        .as_ref()
        .filter(|c| c.notation.source() == notation.source())
        .and(table.total)
        .and_then(|total| view.bars.point_of(total));
    odds_chart::show(
        ui,
        Chart {
            id: "free roll odds",
            bars: &view.bars,
            axis: notation.measure().word(),
            target: notation.check().map(|c| c.target),
            rolled,
        },
        |v| notation.check().is_some_and(|c| c.holds(v)),
    );
}

/// What the last free roll came to.
fn outcome(ui: &mut egui::Ui, table: &TableRoll) {
    let Some(current) = &table.current else {
        ui.label("Nothing thrown yet.");
        return;
    };
    let dice = current.notation.dice();
    let read = table
        .total
        .and_then(|_| current.notation.evaluate(table.chains()).ok());
    match &read {
        // Every die as the roll shows it: rerolled faces struck, explosions, drops, successes.
        Some(result) => {
            for shown in &result.dice {
                let mut text = egui::text::LayoutJob::default();
                let plain = egui::TextFormat::default();
                let struck = egui::TextFormat {
                    strikethrough: egui::Stroke::new(1.0, egui::Color32::GRAY),
                    color: egui::Color32::GRAY,
                    ..Default::default()
                };
                text.append(&format!("{}: ", shown.die), 0.0, plain.clone());
                for r in &shown.rerolled {
                    text.append(&shown.face(*r), 0.0, struck.clone());
                    text.append(" ", 0.0, plain.clone());
                }
                let marks = ShownDie {
                    rerolled: Vec::new(),
                    ..shown.clone()
                }
                .text();
                text.append(&marks, 0.0, if shown.kept { plain } else { struck });
                if let Some(label) = &shown.label {
                    text.append(&format!("  [{label}]"), 0.0, egui::TextFormat::default());
                }
                ui.label(text);
            }
            ui.label(&result.shown);
        }
        None => {
            for (die, faces) in dice.iter().zip(table.chains()) {
                if faces.is_empty() {
                    ui.label(format!("{}: rolling…", die.name()));
                } else {
                    ui.label(format!("{}: {faces:?}", die.name()));
                }
            }
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
            let mut text = match (read.as_ref().map(|r| r.measure), total.as_whole()) {
                (Some(Measure::Successes), Some(count)) if current.notation.check().is_none() => {
                    format!(
                        "{} = {}",
                        current.notation.source(),
                        crate::text::plural(count, "success", "successes")
                    )
                }
                _ => format!("{} = {total}", current.notation.source()),
            };
            match read.as_ref().and_then(|r| r.success) {
                Some(true) => text.push_str("   success"),
                Some(false) => text.push_str("   failure"),
                None => {}
            }
            ui.label(egui::RichText::new(text).heading());
            let throws = match table.throws() {
                0 => "no dice to throw".to_string(),
                1 => "1 throw".to_string(),
                n => format!("{n} throws"),
            };
            ui.label(format!("seed {} ({throws})", current.seed));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::tasks::TaskPoolBuilder;

    #[test]
    fn typing_over_a_long_keep_stops_its_work_and_the_new_odds_come_at_once() {
        // One worker thread, as on a two-core machine: were the old work not stopped, the new
        // odds would wait for its seconds (tens of seconds in a test build).
        AsyncComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(1).build());
        let mut app = App::new();
        app.insert_resource(FreeRoll::default());
        app.add_systems(Update, collect_free_roll_odds);
        let mut free = app.world_mut().resource_mut::<FreeRoll>();
        free.set_text("100d20!kh50");
        let FreeOdds::Computing(Some(work)) = &free.odds else {
            panic!("the odds of a long keep are worked out off the frame");
        };
        let old = work.cancel.clone();
        std::thread::sleep(std::time::Duration::from_millis(100));
        free.set_text("{2d6,0d0} >= 7");
        assert!(old.is_cancelled());
        let mut updates = 0;
        while app.world().resource::<FreeRoll>().dist().is_none() {
            assert!(
                updates < 500,
                "the odds of 2d6 did not come within 500 updates"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
            app.update();
            updates += 1;
        }
        let free = app.world().resource::<FreeRoll>();
        assert_eq!(free.dist().map(|d| d.p(7).exact()), Some("1/6".to_string()));
    }
}
