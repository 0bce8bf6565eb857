//! `dicetable bench`: how fast the exact odds and the headless physics are.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::dice::DieKind;
use crate::odds::dist::Dist;
use crate::odds::notation::Notation;
use crate::physics::baseline::{self, BASELINE_HZ};
use crate::physics::fairness::{self, LANES, all_cores};
use crate::physics::headless::Simulator;
use crate::physics::{SettleRules, ThrowRequest};
use crate::rules::RulesetId;
use crate::rules::engine::{AnyAction, Rulebook};

/// Arguments of `bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Only the exact-odds benchmarks.
    #[arg(long)]
    pub odds_only: bool,
    /// Only the physics benchmarks.
    #[arg(long, conflicts_with = "odds_only")]
    pub physics_only: bool,
    /// Time the exact odds of this notation instead of the standard cases (repeatable).
    #[arg(long = "notation", value_name = "NOTATION")]
    pub notations: Vec<String>,
    /// Whether every throw settles: each die kind at 1, 10, 40 and 100 dice, and a mixed 100,
    /// over `--seeds` seeds each, on every core (exit 1 when any throw does not settle).
    #[arg(long, conflicts_with_all = ["odds_only", "physics_only", "notations"])]
    pub settle: bool,
    /// Seeds a case for `--settle` (1 to N).
    #[arg(long, default_value_t = 50, requires = "settle")]
    pub seeds: u64,
    /// Only this case of `--settle` (as it prints its name: 100d4, mixed 100).
    #[arg(long, requires = "settle")]
    pub case: Option<String>,
    /// The cost of a new dice look: each die kind's atlas (the pages' PNG) made for colours no
    /// cache holds yet, its time and its bytes.
    #[arg(long, conflicts_with_all = ["odds_only", "physics_only", "notations", "settle"])]
    pub atlases: bool,
    /// The look `--atlases` draws, as `play --dice` writes it (default: blue stone,
    /// `#1e40aa,#ffffff,stone`).
    #[arg(long, requires = "atlases", value_name = "BODY,INK[,MATERIAL[,pips][,TYPEFACE]]", value_parser = super::parse_dice)]
    pub look: Option<crate::dice::style::DiceLook>,
}

/// Throughput of one physics case.
struct Throughput {
    name: String,
    rolls: u32,
    dice_per_roll: u32,
    in_flight: usize,
    /// Threads throwing (the fairness lab spreads over them; the rest use one).
    threads: usize,
    seconds: f64,
    simulated: f64,
}

impl Throughput {
    fn rolls_per_second(&self) -> f64 {
        f64::from(self.rolls) / self.seconds
    }
    fn dice_per_second(&self) -> f64 {
        f64::from(self.rolls * self.dice_per_roll) / self.seconds
    }
}

/// Throws `rolls` rolls of `dice` d6 each, `in_flight` at a time, and times them.
fn physics_case(name: &str, rolls: u32, dice: u32, in_flight: usize) -> Throughput {
    physics_case_from(name, DieKind::D6, 9_000, rolls, dice, in_flight)
}

/// Single throws of `kind`, 64 in flight, beside the d6's: what a die of another size costs.
fn single_throws_of(kind: DieKind) -> Throughput {
    let name = format!("single {} throws, 64 in flight", kind.name());
    physics_case_from(&name, kind, 9_000, 4_000, 1, 64)
}

/// [`physics_case`] with the seeds from `first_seed` on.
fn physics_case_from(
    name: &str,
    kind: DieKind,
    first_seed: u64,
    rolls: u32,
    dice: u32,
    in_flight: usize,
) -> Throughput {
    let mut sim = Simulator::new(SettleRules::default());
    let requests = (0..rolls).map(|i| ThrowRequest {
        seed: first_seed + u64::from(i),
        tag: u64::from(i),
        dice: vec![kind; dice as usize],
        swing: None,
    });
    let mut simulated = 0.0;
    let start = Instant::now();
    sim.run_many(in_flight, requests, |r| {
        simulated += f64::from(r.duration);
        true
    });
    Throughput {
        name: name.to_string(),
        rolls,
        dice_per_roll: dice,
        in_flight,
        threads: 1,
        seconds: start.elapsed().as_secs_f64(),
        simulated,
    }
}

/// The name of the case the raw rapier baseline is set against (same seeds, one at a time).
const ANCHORED_CASE: &str = "single d6, one roll at a time";
/// Rounds of the anchored pair: each round throws the same seeds both ways, one right after the
/// other, so that a machine whose speed wanders (a shared one, a CPU changing its clock) meets
/// both alike; the ratio is the median of the rounds'.
const ANCHOR_ROUNDS: usize = 9;
/// Throws a round, each way.
const ANCHOR_THROWS: u32 = 300;

/// The anchor: the same single-d6 throws (seeds 9000...) with rapier3d's own API at 120 Hz.
fn baseline_case(first_seed: u64, rolls: u32) -> Throughput {
    let rules = SettleRules::default();
    let mut simulated = 0.0;
    let start = Instant::now();
    for i in 0..rolls {
        simulated +=
            f64::from(black_box(baseline::throw_d6(first_seed + u64::from(i), &rules)).seconds);
    }
    Throughput {
        name: format!("raw rapier3d d6, {BASELINE_HZ} Hz"),
        rolls,
        dice_per_roll: 1,
        in_flight: 1,
        threads: 1,
        seconds: start.elapsed().as_secs_f64(),
        simulated,
    }
}

/// The simulator against the raw rapier loop: each way's throughput over all rounds, and the
/// ratio of each round (simulator over raw), sorted.
struct Anchored {
    ours: Throughput,
    raw: Throughput,
    ratios: Vec<f64>,
}

impl Anchored {
    /// The median round's ratio.
    fn ratio(&self) -> f64 {
        self.ratios[self.ratios.len() / 2]
    }
}

/// Runs the anchored pair: a round of each way to warm up (not counted), then
/// [`ANCHOR_ROUNDS`] rounds, the order swapped every round.
fn anchored_pair() -> Anchored {
    let seed = 9_000;
    physics_case_from(ANCHORED_CASE, DieKind::D6, seed, ANCHOR_THROWS / 3, 1, 1);
    baseline_case(seed, ANCHOR_THROWS / 3);
    let mut ours = Vec::new();
    let mut raw = Vec::new();
    for round in 0..ANCHOR_ROUNDS {
        let simulator = || physics_case_from(ANCHORED_CASE, DieKind::D6, seed, ANCHOR_THROWS, 1, 1);
        if round % 2 == 0 {
            ours.push(simulator());
            raw.push(baseline_case(seed, ANCHOR_THROWS));
        } else {
            raw.push(baseline_case(seed, ANCHOR_THROWS));
            ours.push(simulator());
        }
    }
    let mut ratios: Vec<f64> = ours
        .iter()
        .zip(&raw)
        .map(|(o, r)| o.rolls_per_second() / r.rolls_per_second())
        .collect();
    ratios.sort_by(f64::total_cmp);
    let sum = |rounds: Vec<Throughput>| {
        let mut rounds = rounds.into_iter();
        let mut total = rounds.next().expect("at least one round");
        for t in rounds {
            total.rolls += t.rolls;
            total.seconds += t.seconds;
            total.simulated += t.simulated;
        }
        total
    };
    Anchored {
        ours: sum(ours),
        raw: sum(raw),
        ratios,
    }
}

fn physics_benchmarks() -> (Vec<Throughput>, Anchored) {
    let anchored = anchored_pair();
    let cases = vec![
        physics_case("single d6 throws, 64 in flight", 4_000, 1, 64),
        // The dice of other sizes: a marked-twice one, a bipyramid, a die thrown again above its
        // size, and the largest trapezohedron.
        single_throws_of(DieKind::D7),
        single_throws_of(DieKind::D16),
        single_throws_of(DieKind::D19),
        single_throws_of(DieKind::D30),
        physics_case("10 d6 in one throw", 400, 10, 16),
        physics_case("100 d6 in one throw", 20, 100, 4),
        fairness_case(1),
        fairness_case(all_cores()),
    ];
    (cases, anchored)
}

/// The fairness lab's throughput on `threads` threads (blocks of single d6 throws).
fn fairness_case(threads: usize) -> Throughput {
    let throws = 4 * fairness::BLOCK;
    let f = fairness::measure(
        &fairness::Run::new(DieKind::D6, throws, 9_000),
        threads,
        |_| {},
    );
    Throughput {
        name: format!(
            "fairness lab d6, {} {}",
            f.threads,
            if f.threads == 1 { "thread" } else { "threads" }
        ),
        rolls: f.throws,
        dice_per_roll: 1,
        in_flight: LANES * f.threads,
        threads: f.threads,
        seconds: f64::from(f.throws) / f.throws_per_second,
        simulated: f.settle_mean * f64::from(f.throws),
    }
}

/// One measured case.
struct Timing {
    name: String,
    iterations: u32,
    mean: Duration,
    best: Duration,
    /// For a notation: how large its exact answer is.
    answer: Option<AnswerSize>,
    /// For a notation: how long its quick estimate (≈) took, its rolls and stated error.
    estimate: Option<(Duration, u32, f64)>,
}

/// The size of a notation's exact answer, and the time merely to copy it: no method that
/// produces the answer can take less, which tells a case bound by its answer's size from one
/// bound by the work.
struct AnswerSize {
    /// How many totals have a non-zero weight.
    totals: usize,
    /// The bytes of the weights' digits (over the common denominator).
    bytes: u64,
    /// The best time of copying the weights.
    copy: Duration,
}

impl AnswerSize {
    fn of(dist: &Dist, budget: Duration) -> Self {
        // `iter` holds the totals of non-zero weight only.
        let (totals, bits) = dist
            .iter()
            .fold((0, 0), |(n, bits), (_, w)| (n + 1, bits + w.bits()));
        let copy = measure("copy", budget, || {
            black_box(dist.clone());
        });
        AnswerSize {
            totals,
            bytes: bits.div_ceil(8),
            copy: copy.best,
        }
    }
}

/// Runs `f` repeatedly for about `budget` (at least 3 times) and reports mean and best.
fn measure(name: &str, budget: Duration, mut f: impl FnMut()) -> Timing {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 3 || (start.elapsed() < budget && times.len() < 10_000) {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    let total: Duration = times.iter().sum();
    Timing {
        name: name.to_string(),
        iterations: times.len() as u32,
        mean: total / times.len() as u32,
        best: times.iter().copied().min().unwrap_or_default(),
        answer: None,
        estimate: None,
    }
}

/// The notations `bench` times by default.
const ODDS_CASES: [&str; 23] = [
    "12d6",
    "5d10!kh3",
    "10d6kh5",
    "10d6-10d6",
    // The large ones of the limits (issue 13): sums are window sums, open-ended sums
    // factorised, keep rules by runs of equally likely values.
    "100d100",
    "50d10!",
    "10d100!",
    "100d20!",
    "50d100+50d10",
    "20d20!kh10",
    "100d100kh50",
    "100d100kh99",
    "50d10!kh25",
    "100d6!kh50",
    "100d100!",
    // Several terms: plain dice multiply the total by their structure, like dice merged.
    "100d6!+100d6!",
    "50d3!+50d4!",
    // Roll20's forms: successes, rerolls, compounding and penetrating keeps, groups.
    "20d10>7f1",
    "10d6r<2",
    "10d10!!kh5",
    "10d6!pkh5",
    "{4d6+3d8}k4",
    "floor(10d6/3)",
];

fn odds_benchmarks(notations: &[String]) -> Result<Vec<Timing>, String> {
    let budget = Duration::from_millis(300);
    let mut out = Vec::new();
    let texts: Vec<&str> = if notations.is_empty() {
        ODDS_CASES.to_vec()
    } else {
        notations.iter().map(String::as_str).collect()
    };
    for text in texts {
        let n = Notation::parse(text).map_err(|e| e.to_string())?;
        let mut answer = None;
        let mut timing = measure(text, budget, || {
            answer = Some(black_box(n.distribution()));
        });
        let dist = answer.transpose().map_err(|e| format!("{text}: {e}"))?;
        timing.answer = dist.map(|dist| AnswerSize::of(&dist, budget));
        // The ≈ shown at once (the window's budget): its time, rolls and error.
        let started = Instant::now();
        let quick = crate::odds::notation::estimate::estimate(&n, Duration::from_millis(25));
        timing.estimate = quick.map(|e| (started.elapsed(), e.samples, e.error));
        out.push(timing);
    }
    if notations.is_empty() {
        out.extend(session_luck_benchmarks(budget)?);
    }
    let book = Rulebook::builtin().map_err(|e| e.to_string())?;
    for id in RulesetId::ALL {
        let action = AnyAction::parse(id, AnyAction::example(id)).map_err(|e| e.to_string())?;
        out.push(measure(&format!("{id} default action"), budget, || {
            black_box(action.odds(&book).ok());
        }));
    }
    Ok(out)
}

/// A session's luck (the history panel's "a session at least this lucky") over 12, 50 and 100
/// rolls of mixed dice, whose percentiles fall between each other: the worst case for its grid.
fn session_luck_benchmarks(budget: Duration) -> Result<Vec<Timing>, String> {
    use crate::history::{roll_luck, session_luck};
    let rolled = [
        ("1d20", 11),
        ("3d6", 10),
        ("2d10", 12),
        ("1d100", 51),
        ("4d6kh3", 13),
    ];
    let mut lucks = Vec::new();
    for (text, total) in rolled {
        let notation = Notation::parse(text).map_err(|e| format!("{text}: {e}"))?;
        let dist = notation
            .distribution()
            .map_err(|e| format!("{text}: {e}"))?;
        lucks.push(roll_luck(&dist, total).ok_or_else(|| format!("{text}: no luck"))?);
    }
    Ok([12, 50, 100]
        .into_iter()
        .map(|n| {
            let rolls: Vec<_> = lucks.iter().cycle().take(n).collect();
            measure(&format!("session luck, {n} mixed rolls"), budget, || {
                black_box(session_luck(&rolls));
            })
        })
        .collect())
}

/// `bench --atlases`: what a member's new dice look costs the server, die kind by die kind
/// (the pages ask for an atlas per kind thrown, made once in the pictures pool and cached).
fn atlas_costs(look: Option<crate::dice::style::DiceLook>, as_json: bool) -> ExitCode {
    use crate::dice::mesh::atlas_png;
    use crate::dice::style::{DiceLook, Material, Rgb, Typeface};
    let look = look
        .unwrap_or(DiceLook {
            body: Rgb([30, 64, 170]),
            ink: Rgb([255, 255, 255]),
            material: Material::Stone,
            pips: false,
            typeface: Typeface::Sans,
        })
        .drawn();
    let mut rows = Vec::new();
    for kind in DieKind::ALL {
        let bytes = match atlas_png(kind, look, None) {
            Ok(png) => png.len(),
            Err(e) => {
                eprintln!("error: the {} atlas: {e}", kind.id());
                return ExitCode::FAILURE;
            }
        };
        let timing = measure(kind.id(), Duration::from_millis(500), || {
            black_box(atlas_png(kind, look, None).ok());
        });
        rows.push((timing, bytes));
    }
    let made: Duration = rows.iter().map(|(t, _)| t.mean).sum();
    let bytes: usize = rows.iter().map(|(_, b)| b).sum();
    if as_json {
        let kinds: Vec<_> = rows
            .iter()
            .map(|(t, b)| {
                let size = DieKind::from_id(&t.name).map(crate::dice::mesh::numeral_size);
                json!({"kind": t.name, "mean_ms": t.mean.as_secs_f64() * 1e3, "best_ms": t.best.as_secs_f64() * 1e3, "bytes": b,
                    "smallest_number_mm": size.map(|s| s.smallest_mm), "die_mm": size.map(|s| s.die_mm)})
            })
            .collect();
        println!(
            "{}",
            json!({"atlases": kinds, "every_kind_ms": made.as_secs_f64() * 1e3, "every_kind_bytes": bytes})
        );
    } else {
        println!("a new dice look's atlases (the pages' PNG), one core:");
        for (t, b) in &rows {
            // How large its numbers are drawn: the smallest's height on the die, and that as a
            // share of the die's width.
            let size = DieKind::from_id(&t.name).map(crate::dice::mesh::numeral_size);
            let readable = size.map_or(String::new(), |s| {
                format!(
                    "  numbers {:.1} mm on a {:.1} mm die ({:.1}%)",
                    s.smallest_mm,
                    s.die_mm,
                    100.0 * s.share_of_die()
                )
            });
            println!(
                "  {:<6} mean {:>7.2} ms  best {:>7.2} ms  {b:>7} bytes{readable}",
                t.name,
                t.mean.as_secs_f64() * 1e3,
                t.best.as_secs_f64() * 1e3
            );
        }
        println!(
            "  every kind: {:.1} ms, {bytes} bytes",
            made.as_secs_f64() * 1e3
        );
    }
    ExitCode::SUCCESS
}

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> ExitCode {
    if args.settle {
        return super::settle::run(args.seeds, args.case.as_deref(), args.json);
    }
    if args.atlases {
        return atlas_costs(args.look, args.json);
    }
    let odds = if args.physics_only {
        Vec::new()
    } else {
        match odds_benchmarks(&args.notations) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let (physics, anchored) = if args.odds_only {
        (Vec::new(), None)
    } else {
        let (cases, anchored) = physics_benchmarks();
        (cases, Some(anchored))
    };
    let physics: Vec<&Throughput> = anchored
        .iter()
        .flat_map(|a| [&a.ours, &a.raw])
        .chain(&physics)
        .collect();
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    if args.json {
        let rows: Vec<_> = odds
            .iter()
            .map(|t| {
                let mut row = json!({"name": t.name, "iterations": t.iterations, "mean_ms": t.mean.as_secs_f64() * 1e3, "best_ms": t.best.as_secs_f64() * 1e3});
                if let Some(a) = &t.answer {
                    row["totals"] = json!(a.totals);
                    row["answer_bytes"] = json!(a.bytes);
                    row["copy_best_ms"] = json!(a.copy.as_secs_f64() * 1e3);
                }
                if let Some((took, samples, error)) = t.estimate {
                    row["estimate_ms"] = json!(took.as_secs_f64() * 1e3);
                    row["estimate_samples"] = json!(samples);
                    row["estimate_error"] = json!(error);
                }
                row
            })
            .collect();
        let phys: Vec<_> = physics
            .iter()
            .map(|t| {
                json!({"name": t.name, "rolls": t.rolls, "dice_per_roll": t.dice_per_roll, "in_flight": t.in_flight, "threads": t.threads,
                    "seconds": t.seconds, "rolls_per_second": t.rolls_per_second(), "dice_per_second": t.dice_per_second(),
                    "mean_simulated_seconds_per_roll": t.simulated / f64::from(t.rolls)})
            })
            .collect();
        // The exact odds run on one thread.
        let mut out = json!({"build": profile, "threads": 1, "odds": rows, "physics": phys});
        if let Some(a) = &anchored {
            out["simulator_to_raw_rapier"] = json!(a.ratio());
            out["simulator_to_raw_rapier_rounds"] = json!(a.ratios);
        }
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    if !odds.is_empty() {
        println!("exact odds ({profile} build)");
        println!(
            "  {:<28} {:>10} {:>10} {:>8} {:>8} {:>10} {:>8} {:>7} {:>7}",
            "case", "mean ms", "best ms", "runs", "totals", "answer KB", "copy ms", "≈ ms", "≈ ±%"
        );
        for t in &odds {
            let (totals, kb, copy) = match &t.answer {
                Some(a) => (
                    a.totals.to_string(),
                    format!("{:.1}", a.bytes as f64 / 1e3),
                    format!("{:.3}", a.copy.as_secs_f64() * 1e3),
                ),
                None => ("-".into(), "-".into(), "-".into()),
            };
            let (quick, error) = match t.estimate {
                Some((took, _, error)) => (
                    format!("{:.1}", took.as_secs_f64() * 1e3),
                    format!("{:.2}", 100.0 * error),
                ),
                None => ("-".into(), "-".into()),
            };
            println!(
                "  {:<28} {:>10.3} {:>10.3} {:>8} {:>8} {:>10} {:>8} {:>7} {:>7}",
                t.name,
                t.mean.as_secs_f64() * 1e3,
                t.best.as_secs_f64() * 1e3,
                t.iterations,
                totals,
                kb,
                copy,
                quick,
                error
            );
        }
    }
    if !physics.is_empty() {
        println!(
            "\nheadless physics ({profile} build, {} Hz steps, one thread unless the case names more)",
            crate::physics::STEP_HZ
        );
        println!(
            "  {:<32} {:>10} {:>10} {:>10} {:>10}",
            "case", "rolls/s", "dice/s", "in flight", "sim s/roll"
        );
        for t in &physics {
            println!(
                "  {:<32} {:>10.1} {:>10.1} {:>10} {:>10.2}",
                t.name,
                t.rolls_per_second(),
                t.dice_per_second(),
                t.in_flight,
                t.simulated / f64::from(t.rolls)
            );
        }
        if let Some(a) = &anchored {
            println!(
                "  the simulator throws single d6 at {:.2}× the raw rapier3d baseline (the median \
                 of {} rounds of the same {} throws each way, one core, this run; rounds {:.2}× to \
                 {:.2}×)",
                a.ratio(),
                a.ratios.len(),
                ANCHOR_THROWS,
                a.ratios[0],
                a.ratios[a.ratios.len() - 1]
            );
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_of_three_d6_is_sixteen_totals_in_eight_bytes() {
        // 3d6's ways, 1 3 6 10 15 21 25 27 27 25 21 15 10 6 3 1, take 58 bits.
        let Ok(notation) = Notation::parse("3d6") else {
            panic!("3d6 parses");
        };
        let size = AnswerSize::of(&notation.distribution().expect("odds"), Duration::ZERO);
        assert_eq!(size.totals, 16);
        assert_eq!(size.bytes, 8);
    }
}
