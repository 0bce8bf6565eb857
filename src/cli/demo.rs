//! `dicetable demo <RULESET>`: the guided demo of a system in the window, or headless with
//! `--check` (every step thrown physically with its seed, each expectation checked), or
//! `--seek STEP` to find a seed for which a step's honest throw comes up as its text says.

use std::process::ExitCode;

use crate::demo::{LoadedDemo, check, demo_path, seek};
use crate::rules::engine::Rulebook;
use crate::script::report_text;

/// Arguments of `demo`.
#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// The demo: a ruleset's (scenes/demos/<RULESET>.ron), another of scenes/demos by name
    /// (step-dice-dangerous), or a demo file's path.
    pub demo: String,
    /// Play the demo headless and check every step's expected outcome (exit 1 if one fails).
    #[arg(long)]
    pub check: bool,
    /// Find a seed for step STEP (1-based) whose throw meets the step's expectations.
    #[arg(long, value_name = "STEP")]
    pub seek: Option<usize>,
    /// First seed to try with --seek.
    #[arg(long, default_value_t = 0)]
    pub from: u64,
    /// How many seeds to try with --seek.
    #[arg(long, default_value_t = 5000)]
    pub tries: u64,
    /// In the window: play this many steps at once (for screenshots).
    #[cfg(feature = "window")]
    #[arg(long, default_value_t = 0)]
    pub steps: u32,
    /// Window options, as for `play`.
    #[cfg(feature = "window")]
    #[command(flatten)]
    pub window: super::WindowArgs,
}

/// Runs `demo`.
pub fn run(args: DemoArgs) -> ExitCode {
    let path = demo_path(&args.demo);
    let loaded = LoadedDemo::load(&path)
        .map_err(|e| e.to_string())
        .and_then(|d| Ok((d, Rulebook::builtin().map_err(|e| e.to_string())?)));
    let (demo, book) = match loaded {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(step) = args.seek {
        return match seek(&demo, &book, step.saturating_sub(1), args.from, args.tries) {
            Ok(Some((seed, r))) => {
                println!("step {step}: seed {seed}");
                for line in report_text(&r) {
                    println!("{line}");
                }
                ExitCode::SUCCESS
            }
            Ok(None) => {
                eprintln!(
                    "step {step}: no seed in {}..{} meets its expectations",
                    args.from,
                    args.from.saturating_add(args.tries)
                );
                ExitCode::from(1)
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    if args.check {
        let reports = check(&demo, &book);
        println!("{} ({})", demo.demo.title, path.display());
        for (r, step) in reports.iter().zip(&demo.demo.steps) {
            if let Some(say) = &step.say {
                println!("   \"{}\"", say.replace('\n', " "));
            }
            for line in report_text(r) {
                println!("{line}");
            }
        }
        let unmet: usize = reports.iter().map(|r| r.unmet.len()).sum();
        println!(
            "demo {}: {} steps, {unmet} expectations not met",
            args.demo,
            reports.len()
        );
        return if unmet == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
    }
    #[cfg(feature = "window")]
    return super::open_window(args.window.options(crate::window::DemoOptions {
        path: Some(path),
        steps: args.steps,
    }));
    #[cfg(not(feature = "window"))]
    super::no_window()
}
