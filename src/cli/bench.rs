//! `dicetable bench`: how fast the exact odds are (and, with issue #4, the headless physics).

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::rules::RulesetId;
use crate::rules::engine::{AnyAction, Rulebook};
use crate::rules::notation::Notation;

/// Arguments of `bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Only the exact-odds benchmarks.
    #[arg(long)]
    pub odds_only: bool,
}

/// One measured case.
struct Timing {
    name: String,
    iterations: u32,
    mean: Duration,
    best: Duration,
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
    }
}

fn odds_benchmarks() -> Result<Vec<Timing>, String> {
    let budget = Duration::from_millis(300);
    let mut out = Vec::new();
    for text in ["12d6", "5d10!kh3", "10d6kh5", "10d6-10d6"] {
        let n = Notation::parse(text).map_err(|e| e.to_string())?;
        out.push(measure(text, budget, || {
            black_box(n.distribution());
        }));
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

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> ExitCode {
    let odds = match odds_benchmarks() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    if args.json {
        let rows: Vec<_> = odds
            .iter()
            .map(|t| json!({"name": t.name, "iterations": t.iterations, "mean_ms": t.mean.as_secs_f64() * 1e3, "best_ms": t.best.as_secs_f64() * 1e3}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"build": profile, "odds": rows, "physics": null}))
                .unwrap_or_default()
        );
    } else {
        println!("exact odds ({profile} build)");
        println!(
            "  {:<28} {:>10} {:>10} {:>8}",
            "case", "mean ms", "best ms", "runs"
        );
        for t in &odds {
            println!(
                "  {:<28} {:>10.3} {:>10.3} {:>8}",
                t.name,
                t.mean.as_secs_f64() * 1e3,
                t.best.as_secs_f64() * 1e3,
                t.iterations
            );
        }
    }
    if !args.odds_only {
        eprintln!("\nheadless physics throughput: not built yet; it arrives with issue #4.");
    }
    ExitCode::SUCCESS
}
