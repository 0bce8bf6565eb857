//! `dicetable session`: plays a script of moves at a scene's table without a window and prints,
//! after each move, the verdict, the throws and faces, the outcome and the whole table state.
//! Exit 0: every expectation of the script met; 1: one was not; 2: unreadable input.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use crate::rules::data::load_ron;
use crate::rules::engine::Rulebook;
use crate::rules::scene::Scene;
use crate::rules::table::TableState;
use crate::script::{self, Script};

/// Arguments of `session`.
#[derive(clap::Args, Debug)]
pub struct SessionArgs {
    /// The scene to seat (scenes/*.ron).
    #[arg(long)]
    pub scene: PathBuf,
    /// The script of moves (RON; see docs/command-line.md).
    #[arg(long)]
    pub script: PathBuf,
    /// Print JSON (one document) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `session`.
pub fn run(args: &SessionArgs) -> ExitCode {
    let loaded = Scene::load(&args.scene)
        .map_err(|e| e.to_string())
        .and_then(|scene| {
            let script: Script = load_ron(&args.script).map_err(|e| e.to_string())?;
            let book = Rulebook::builtin().map_err(|e| e.to_string())?;
            Ok((scene, script, book))
        });
    let (scene, script, book) = match loaded {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut table = TableState::new(&scene, &book, script.seed);
    let reports = script::run(&mut table, &script);
    let unmet: usize = reports.iter().map(|r| r.unmet.len()).sum();
    if args.json {
        let doc = json!({
            "version": 1,
            "scene": scene.name,
            "ruleset": scene.ruleset().as_str(),
            "seed": script.seed,
            "steps": reports,
            "unmet": unmet,
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        println!("{} ({})", scene.name, scene.ruleset());
        for r in &reports {
            for line in script::report_text(r) {
                println!("{line}");
            }
        }
        println!(
            "{} steps, {} refused, {unmet} expectations not met",
            reports.len(),
            reports.iter().filter(|r| r.refused.is_some()).count()
        );
    }
    if unmet == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
