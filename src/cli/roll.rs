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
    /// Dice notation, e.g. "3d6+2" or "d20+5>=15".
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
        let dice: Vec<_> = roll
            .roll
            .dice()
            .iter()
            .zip(roll.settle_times.iter().zip(&roll.rethrows))
            .zip(roll.roll.chains())
            .zip(&result.dice)
            .map(|(((d, (times, rethrows)), faces), (value, kept))| {
                json!({
                    "die": format!("d{}{}", d.sides, if d.open_ended { "!" } else { "" }),
                    "faces": faces,
                    "value": value,
                    "kept": kept,
                    "settle_time": times,
                    "rethrows": rethrows,
                })
            })
            .collect();
        let out = json!({
            "notation": notation.source(),
            "seed": seed,
            "throws": roll.throws.len(),
            "dice": dice,
            "total": result.total,
            "success": result.success,
            "code": record.code(),
            "record": record,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        println!("roll {}   seed {seed}", notation.source());
        for (i, (((d, (times, rethrows)), faces), (value, kept))) in roll
            .roll
            .dice()
            .iter()
            .zip(roll.settle_times.iter().zip(&roll.rethrows))
            .zip(roll.roll.chains())
            .zip(&result.dice)
            .enumerate()
        {
            let times: Vec<String> = times.iter().map(|t| format!("{t:.2}s")).collect();
            println!(
                "  die {:>2}  d{:<4} faces {:<12} = {:>4}{}   settled in {}   re-throws {}",
                i + 1,
                d.sides,
                format!("{faces:?}"),
                value,
                if *kept { "" } else { " (dropped)" },
                times.join(" + "),
                rethrows
            );
        }
        print!("total {}", result.total);
        if let (Some(ok), Some(c)) = (result.success, notation.comparison) {
            print!("   {c}: {}", if ok { "success" } else { "failure" });
        }
        println!(
            "\nreplay: dicetable roll \"{}\" --seed {seed}",
            notation.source()
        );
        println!("replay code: {}", record.code());
    }
    ExitCode::SUCCESS
}
