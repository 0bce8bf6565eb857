//! `dicetable roll`: throws the dice of a notation physically, headless, and reads the faces.
//! Open-ended dice that show their top face are thrown again, physically, as new throws.

use std::process::ExitCode;

use serde_json::json;

use crate::odds::notation::Notation;
use crate::physics::CockedPolicy;
use crate::roll::headless::record_notation;

/// Arguments of `roll`.
#[derive(clap::Args, Debug)]
pub struct RollArgs {
    /// Dice notation, e.g. "3d6+2", "8d10>7" or "{d20+5}>=15"; it may start with a minus
    /// ("-1d4+5").
    #[arg(allow_hyphen_values = true)]
    pub notation: String,
    /// Seed of the throw (default: a random one, printed so the roll can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// What happens to a die that lands cocked: thrown again, or nudged.
    #[arg(long, value_enum, default_value = "rethrow")]
    pub cocked: CockedPolicy,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `roll`.
pub fn run(args: &RollArgs) -> ExitCode {
    let notation = match Notation::parse(&args.notation) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let seed = args.seed.unwrap_or_else(rand::random);
    let (roll, record) = match record_notation(&notation, seed, None, args.cocked.into()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(result) = roll.roll.result() else {
        eprintln!("error: the roll of {} did not finish", notation.source());
        return ExitCode::from(2);
    };
    if args.json {
        let notes = notation.notes();
        let dice: Vec<_> = roll
            .roll
            .dice()
            .iter()
            .zip(roll.settle_times.iter().zip(&roll.rethrows))
            .zip(roll.roll.chains())
            .enumerate()
            .map(|(slot, ((d, (times, rethrows)), faces))| {
                let shown = result.dice.iter().filter(|s| s.slot == slot);
                // What the player saw on each throw: a marked cube's number or mark (a Fate
                // die's −, blank, + as -1, 0, 1), not the cube's face.
                let seen: Vec<Option<i64>> = faces.iter().map(|f| d.face_value(*f)).collect();
                let mut die = json!({
                    "die": d.name(),
                    "faces": seen,
                    "value": shown.clone().map(|s| s.value).sum::<i64>(),
                    "kept": shown.clone().any(|s| s.kept),
                    "settle_time": times,
                    "rethrows": rethrows,
                });
                if d.physical_sides() != d.sides() {
                    // The faces of the cube the marks are on, as the record holds them.
                    die["cube_faces"] = json!(faces);
                }
                die
            })
            .collect();
        let out = json!({
            "notation": notation.source(),
            "seed": seed,
            "throws": roll.throws.len(),
            "dice": dice,
            "shown": result.dice,
            "text": result.shown,
            "measure": result.measure.word(),
            "total": result.total.to_json_number(),
            "total_exact": result.total.exact(),
            "success": result.success,
            "notes": notes,
            "code": record.code(),
            "record": record,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        println!("roll {}   seed {seed}", notation.source());
        for (i, ((d, (times, rethrows)), faces)) in roll
            .roll
            .dice()
            .iter()
            .zip(roll.settle_times.iter().zip(&roll.rethrows))
            .zip(roll.roll.chains())
            .enumerate()
        {
            let times: Vec<String> = times.iter().map(|t| format!("{t:.2}s")).collect();
            let shown: Vec<String> = result
                .dice
                .iter()
                .filter(|s| s.slot == i)
                .map(|s| s.text())
                .collect();
            println!(
                "  die {:>2}  {:<5} faces {:<12} shows {:<14} settled in {}   re-throws {}",
                i + 1,
                d.name(),
                format!("{faces:?}"),
                shown.join(" "),
                times.join(" + "),
                rethrows
            );
        }
        println!("{}", result.shown);
        for note in notation.notes() {
            println!("note: {note}");
        }
        println!(
            "replay: dicetable roll \"{}\" --seed {seed}",
            notation.source()
        );
        println!("replay code: {}", record.code());
    }
    ExitCode::SUCCESS
}
