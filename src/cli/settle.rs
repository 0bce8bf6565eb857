//! `dicetable bench --settle`: whether every throw the table accepts comes to rest. Each die
//! kind is thrown at 1, 10, 40 and as many as a throw holds, and a mixed handful of the most, over
//! a run of seeds, on every core; a throw that does not settle within the budget is counted,
//! with its seed, and the median and worst simulated time of the rest are given.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::json;

use crate::dice::DieKind;
use crate::dice::MOST_IN_A_THROW;
use crate::physics::fairness::all_cores;
use crate::physics::headless::Simulator;
use crate::physics::{SettleRules, ThrowRequest};

/// One case: a handful of dice over `seeds` seeds.
struct Case {
    name: String,
    dice: Vec<DieKind>,
}

/// What one case's throws did.
struct CaseResult {
    name: String,
    dice: usize,
    /// Seeds whose throw did not settle.
    unsettled: Vec<u64>,
    /// Simulated seconds of each settled throw, sorted.
    seconds: Vec<f64>,
    /// Throws of single dice made again (cocked, escaped, timed out), all seeds together.
    rethrows: u64,
    wall: f64,
}

/// The die kinds thrown, each at 1, 10, 40 and as many as a throw holds (a d100 is two bodies,
/// so 50 of them make a full throw, and a large die of another size takes two places), and a
/// mixed handful of every polyhedron.
fn cases() -> Vec<Case> {
    let kinds = [
        ("d4", vec![DieKind::D4]),
        ("d6", vec![DieKind::D6]),
        ("d8", vec![DieKind::D8]),
        ("d10", vec![DieKind::D10]),
        ("d12", vec![DieKind::D12]),
        ("d20", vec![DieKind::D20]),
        ("d%", vec![DieKind::D10Tens, DieKind::D10]),
        ("dF", vec![DieKind::Fate]),
        // The solids of the other sizes (a d5, d7, d9, d11, d13 and d15 are the d10's, d14's,
        // d18's, d22's, d26's and d30's bodies, marked twice).
        ("d14", vec![DieKind::D14]),
        ("d16", vec![DieKind::D16]),
        ("d18", vec![DieKind::D18]),
        ("d22", vec![DieKind::D22]),
        ("d24", vec![DieKind::D24]),
        ("d26", vec![DieKind::D26]),
        ("d28", vec![DieKind::D28]),
        ("d30", vec![DieKind::D30]),
        // Dice thrown again above their size: their bodies settle as above, then some again.
        ("d17", vec![DieKind::D17]),
        ("d19", vec![DieKind::D19]),
        ("d29", vec![DieKind::D29]),
    ];
    let mut out = Vec::new();
    for (name, bodies) in &kinds {
        for count in [1, 10, 40, MOST_IN_A_THROW] {
            let count = count.min(MOST_IN_A_THROW / crate::dice::tray_places(bodies));
            out.push(Case {
                name: format!("{count}{name}"),
                dice: bodies.repeat(count),
            });
        }
    }
    // Every Platonic polyhedron in turn (the marked cubes are the d6's body), then every solid
    // of the other sizes in turn.
    let polyhedra = DieKind::ALL
        .into_iter()
        .filter(|k| !k.is_marked_cube() && k.other_size().is_none());
    out.push(Case {
        name: "mixed 100".into(),
        dice: polyhedra.cycle().take(MOST_IN_A_THROW).collect(),
    });
    let belts = DieKind::ALL
        .into_iter()
        .filter(|k| k.other_size().is_some() && !k.is_marked_twice() && k.body() == *k);
    // As many as the tray's places hold (the larger ones take two).
    let mut places = 0;
    let mixed: Vec<DieKind> = belts
        .cycle()
        .take_while(|d| {
            places += d.tray_places();
            places <= MOST_IN_A_THROW
        })
        .collect();
    out.push(Case {
        name: format!("mixed other sizes {}", mixed.len()),
        dice: mixed,
    });
    out
}

/// Throws every case over seeds `1..=seeds` on every core.
fn measure(cases: &[Case], seeds: u64, only: Option<&str>) -> Vec<CaseResult> {
    let jobs: Vec<(usize, u64)> = cases
        .iter()
        .enumerate()
        .filter(|(_, c)| only.is_none_or(|o| c.name == o))
        .flat_map(|(i, _)| (1..=seeds).map(move |s| (i, s)))
        .collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<CaseResult>>> = Mutex::new(
        cases
            .iter()
            .map(|c| {
                Some(CaseResult {
                    name: c.name.clone(),
                    dice: c.dice.len(),
                    unsettled: Vec::new(),
                    seconds: Vec::new(),
                    rethrows: 0,
                    wall: 0.0,
                })
            })
            .collect(),
    );
    std::thread::scope(|scope| {
        for _ in 0..all_cores() {
            scope.spawn(|| {
                let mut sim = Simulator::new(SettleRules::default());
                loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(case, seed)) = jobs.get(at) else {
                        break;
                    };
                    let started = Instant::now();
                    let thrown = sim.roll(&ThrowRequest {
                        seed,
                        tag: seed,
                        dice: cases[case].dice.clone(),
                        swing: None,
                    });
                    let wall = started.elapsed().as_secs_f64();
                    let Ok(mut all) = results.lock() else {
                        break;
                    };
                    if let Some(Some(r)) = all.get_mut(case) {
                        r.wall += wall;
                        match thrown {
                            Ok(roll) => {
                                r.seconds.push(f64::from(roll.duration));
                                r.rethrows += roll
                                    .dice
                                    .iter()
                                    .map(|d| u64::from(d.rethrows.total()))
                                    .sum::<u64>();
                            }
                            Err(_) => r.unsettled.push(seed),
                        }
                    }
                }
            });
        }
    });
    let mut out: Vec<CaseResult> = results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .filter(|r| !r.seconds.is_empty() || !r.unsettled.is_empty())
        .collect();
    for r in &mut out {
        r.seconds.sort_by(f64::total_cmp);
        r.unsettled.sort_unstable();
    }
    out
}

/// Runs `bench --settle`: prints each case and exits 1 when any throw did not settle.
pub fn run(seeds: u64, only: Option<&str>, as_json: bool) -> std::process::ExitCode {
    let started = Instant::now();
    let results = measure(&cases(), seeds.max(1), only);
    let failed: usize = results.iter().map(|r| r.unsettled.len()).sum();
    if as_json {
        let rows: Vec<_> = results
            .iter()
            .map(|r| {
                json!({"case": r.name, "bodies": r.dice, "seeds": seeds, "unsettled": r.unsettled,
                    "median_s": median(&r.seconds), "worst_s": r.seconds.last().copied(),
                    "rethrows": r.rethrows, "wall_s": r.wall})
            })
            .collect();
        let out =
            json!({"cases": rows, "unsettled": failed, "wall_s": started.elapsed().as_secs_f64()});
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        println!(
            "settling: {seeds} seeds a case, budget {} s of simulated time, {} threads",
            crate::physics::THROW_BUDGET_SECONDS,
            all_cores()
        );
        println!(
            "  {:<12} {:>7} {:>10} {:>9} {:>9} {:>9} {:>9}",
            "case", "bodies", "unsettled", "median s", "worst s", "rethrows", "wall s"
        );
        for r in &results {
            println!(
                "  {:<12} {:>7} {:>10} {:>9.2} {:>9.2} {:>9} {:>9.1}",
                r.name,
                r.dice,
                r.unsettled.len(),
                median(&r.seconds).unwrap_or(f64::NAN),
                r.seconds.last().copied().unwrap_or(f64::NAN),
                r.rethrows,
                r.wall
            );
            if !r.unsettled.is_empty() {
                println!("      unsettled seeds: {:?}", r.unsettled);
            }
        }
        println!(
            "  {failed} throws did not settle; {:.0} s in all",
            started.elapsed().as_secs_f64()
        );
    }
    if failed == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

fn median(sorted: &[f64]) -> Option<f64> {
    sorted.get(sorted.len() / 2).copied()
}
