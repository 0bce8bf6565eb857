//! `dicetable fairness`: runs the fairness lab (`physics::fairness`) and prints its figures.

use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::dice::DieKind;
use crate::physics::CockedPolicy;
use crate::physics::fairness::{Fairness, LANES, Run, all_cores, measure, measure_as};
use crate::physics::throw::Hand;

/// Arguments of `fairness`.
#[derive(clap::Args, Debug)]
pub struct FairnessArgs {
    /// The die: d4, d6, d8, d10, d10t (the tens die of a d100), d12, d20, the marked cubes d2,
    /// d3, dF, or a die of another size (d5, d7, d9, d11, d13, d14, d15, d16, d18, d22, d24, d26,
    /// d28, d30).
    #[arg(long, default_value = "d20")]
    pub die: String,
    /// How many throws.
    #[arg(long, default_value_t = 20_000)]
    pub throws: u32,
    /// Seed of the run (throw i is `dicetable roll` with seed `coin(seed, i)`, see docs/fairness.md).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// What happens to a die that lands cocked: thrown again, or nudged.
    #[arg(long, value_enum, default_value = "rethrow")]
    pub cocked: CockedPolicy,
    /// The hand: the swing drawn from each throw's seed (as `roll` and the table server throw),
    /// or the softest release or the hardest flick a gesture in the window can make (each
    /// throw's release point and direction drawn from its seed).
    #[arg(long, value_enum, default_value = "random")]
    pub hand: Hand,
    /// Threads to throw on (default: every core). The figures are the same for any number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Read the same throws as this die too (repeatable): a die of the same solid, thrown
    /// alike (a d7 for the d14's throws, a d15 for the d30's), counted by its own marks. With
    /// `--json`, a JSON array, the run's die first.
    #[arg(long = "also", value_name = "DIE")]
    pub also: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fairness`.
pub fn run(args: &FairnessArgs) -> ExitCode {
    // The tens die of a d100 is thrown alone only here, to measure it.
    let parsed = if args.die.trim().eq_ignore_ascii_case("d10t") {
        Ok(DieKind::D10Tens)
    } else {
        DieKind::parse(&args.die)
    };
    let kind = match parsed {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.throws == 0 {
        eprintln!("error: --throws must be at least 1");
        return ExitCode::from(2);
    }
    let bar = ProgressBar::new(u64::from(args.throws));
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {wide_bar} {pos}/{len} throws  {per_sec}  eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if args.threads == Some(0) {
        eprintln!("error: --threads must be at least 1");
        return ExitCode::from(2);
    }
    let threads = args.threads.unwrap_or_else(all_cores);
    let run = Run {
        cocked: args.cocked,
        hand: args.hand,
        ..Run::new(kind, args.throws, args.seed)
    };
    let also = match args
        .also
        .iter()
        .map(|die| DieKind::parse(die))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(kinds) => kinds,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let figures = if also.is_empty() {
        vec![measure(&run, threads, |n| bar.set_position(n))]
    } else {
        match measure_as(&run, &also, threads, |n| bar.set_position(n)) {
            Ok(figures) => figures,
            Err(other) => {
                eprintln!(
                    "error: a {} is not thrown as a {} is: --also takes a die of the same solid",
                    other.name(),
                    kind.name()
                );
                return ExitCode::from(2);
            }
        }
    };
    bar.finish_and_clear();
    if args.json {
        let all: Vec<serde_json::Value> = figures.iter().map(|f| as_json(f, args)).collect();
        let out = if also.is_empty() {
            all.into_iter().next().unwrap_or_default()
        } else {
            serde_json::Value::Array(all)
        };
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        for f in &figures {
            print_text(f, args);
        }
    }
    ExitCode::SUCCESS
}

/// A run's figures for one die as `--json` prints them.
fn as_json(f: &Fairness, args: &FairnessArgs) -> serde_json::Value {
    let k = f.counts.len();
    json!({
            "die": f.kind.name(),
            "throws": f.throws,
            "seed": args.seed,
            "hand": args.hand.name(),
            "counts": f.counts.iter().map(|(v, c)| json!({"face": v, "mark": f.kind.reading(*v), "count": c})).collect::<Vec<_>>(),
            "chi_square": f.chi_square,
            "degrees_of_freedom": k - 1,
            "p_value": f.p_value,
            "settle_time": {"mean": f.settle_mean, "median": f.settle_median, "p99": f.settle_p99},
            "cocked": f.cocked,
            "cocked_rate": f.cocked as f64 / f64::from(f.throws),
            "nudged": f.nudged,
            "escaped": f.escaped,
            "timed_out": f.timed_out,
            "thrown_again_above_size": f.above_size,
            "bounces": {"mean": f.bounces_mean, "share_with_a_bounce": f.bounced_share},
            "throws_per_second": f.throws_per_second,
            "threads": f.threads,
            "memory": {
                "chi_square": f.memory_chi_square,
                "degrees_of_freedom": f.memory_degrees_of_freedom,
                "p_value": f.memory_p_value,
                "same_face_rate": f.same_face_rate,
                "fair_same_face_rate": f.fair_same_face_rate,
            },
    })
}

/// A run's figures for one die in words.
fn print_text(f: &Fairness, args: &FairnessArgs) {
    let k = f.counts.len();
    println!(
        "fairness of the {} — {} throws, seed {}, {} hand",
        f.kind.name(),
        f.throws,
        args.seed,
        args.hand.name()
    );
    let expected = f64::from(f.throws) / k as f64;
    for (v, c) in &f.counts {
        let dev = (*c as f64 - expected) / expected * 100.0;
        println!(
            "  face {:>2}: {c:>7}  ({dev:+.2}% from {expected:.0})",
            f.kind.reading(*v)
        );
    }
    println!(
        "chi-square {:.2} with {} degrees of freedom: p = {:.4}",
        f.chi_square,
        k - 1,
        f.p_value
    );
    println!(
        "settle time: mean {:.2} s, median {:.2} s, p99 {:.2} s (simulated)",
        f.settle_mean, f.settle_median, f.settle_p99
    );
    println!(
        "cocked {} ({:.3}%), escaped {}, timed out {} (each thrown again)",
        f.cocked,
        f.cocked as f64 / f64::from(f.throws) * 100.0,
        f.escaped,
        f.timed_out
    );
    if let Some(thrown_as) = f.kind.thrown_as() {
        println!(
            "{} throws again on a number above {} ({thrown_as})",
            f.above_size,
            f.kind.rules_size()
        );
    }
    println!(
        "bounces: {:.2} per throw on average; {:.1}% of throws bounced at least once",
        f.bounces_mean,
        f.bounced_share * 100.0
    );
    println!(
        "memory: start face vs result chi-square {:.1} ({} df), p = {:.4}; result = starting face {:.2}% (fair {:.2}%)",
        f.memory_chi_square,
        f.memory_degrees_of_freedom,
        f.memory_p_value,
        f.same_face_rate * 100.0,
        f.fair_same_face_rate * 100.0
    );
    println!(
        "{:.0} throws per second ({} {}, {} rolls in flight on each)",
        f.throws_per_second,
        f.threads,
        if f.threads == 1 { "thread" } else { "threads" },
        LANES
    );
}
