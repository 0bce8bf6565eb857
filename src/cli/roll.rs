//! `dicetable roll`: throws the dice of a notation physically, headless, and reads the faces.
//! Open-ended dice that show their top face are thrown again, physically, as new throws.

use std::process::ExitCode;

use serde_json::json;

use crate::physics::headless::Simulator;
use crate::physics::notation::{physical_dice, record_faces};
use crate::physics::{CockedPolicy, SettleRules, ThrowRequest, throw_seed};
use crate::rules::notation::{Notation, NotationDie, open_ended_rethrows};

/// Most throws one roll may take (open-ended dice keep coming up).
const MAX_THROWS: u32 = 64;

/// One die of the notation as thrown: its faces, throw after throw.
#[derive(Debug, Default)]
struct DieRecord {
    settle_times: Vec<f32>,
    rethrows: u32,
}

/// The result of a physical roll of a notation.
pub struct PhysicalRoll {
    /// Physical throws made (1 + open-ended re-throws).
    pub throws: u32,
    dice: Vec<NotationDie>,
    chains: Vec<Vec<u32>>,
    records: Vec<DieRecord>,
}

/// Throws a notation's dice physically until no open-ended die shows its top face.
pub fn roll_notation(
    rules: &SettleRules,
    notation: &Notation,
    seed: u64,
) -> Result<PhysicalRoll, String> {
    let dice = notation.dice();
    if dice.is_empty() {
        return Err("the notation throws no dice".into());
    }
    let mut chains: Vec<Vec<u32>> = vec![Vec::new(); dice.len()];
    let mut records: Vec<DieRecord> = dice.iter().map(|_| DieRecord::default()).collect();
    let mut to_throw: Vec<usize> = (0..dice.len()).collect();
    let mut throws = 0;
    while !to_throw.is_empty() {
        if throws >= MAX_THROWS {
            return Err(format!(
                "open-ended dice kept coming up for {MAX_THROWS} throws"
            ));
        }
        let request = ThrowRequest {
            seed: throw_seed(seed, throws),
            tag: u64::from(throws),
            dice: physical_dice(&dice, &to_throw)?,
            swing: None,
        };
        // A fresh simulator for each throw: a throw's world holds nothing else (see
        // physics::headless), so the window reproduces it exactly.
        let result = Simulator::new(rules.clone()).roll(&request)?;
        for (&i, (time, rethrows)) in
            to_throw
                .iter()
                .zip(record_faces(&dice, &to_throw, &result.dice, &mut chains))
        {
            records[i].settle_times.push(time);
            records[i].rethrows += rethrows;
        }
        throws += 1;
        to_throw = open_ended_rethrows(&dice, &chains);
    }
    Ok(PhysicalRoll {
        throws,
        dice,
        chains,
        records,
    })
}

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
    let rules = SettleRules {
        cocked: args.cocked,
        ..SettleRules::default()
    };
    let roll = match roll_notation(&rules, &notation, seed) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match notation.evaluate(&roll.chains) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.json {
        let dice: Vec<_> = roll
            .dice
            .iter()
            .zip(&roll.records)
            .zip(&roll.chains)
            .zip(&result.dice)
            .map(|(((d, rec), faces), (value, kept))| {
                json!({
                    "die": format!("d{}{}", d.sides, if d.open_ended { "!" } else { "" }),
                    "faces": faces,
                    "value": value,
                    "kept": kept,
                    "settle_time": rec.settle_times,
                    "rethrows": rec.rethrows,
                })
            })
            .collect();
        let out = json!({
            "notation": notation.source(),
            "seed": seed,
            "throws": roll.throws,
            "dice": dice,
            "total": result.total,
            "success": result.success,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        println!("roll {}   seed {seed}", notation.source());
        for (i, (((d, rec), faces), (value, kept))) in roll
            .dice
            .iter()
            .zip(&roll.records)
            .zip(&roll.chains)
            .zip(&result.dice)
            .enumerate()
        {
            let times: Vec<String> = rec
                .settle_times
                .iter()
                .map(|t| format!("{t:.2}s"))
                .collect();
            println!(
                "  die {:>2}  d{:<4} faces {:<12} = {:>4}{}   settled in {}   re-throws {}",
                i + 1,
                d.sides,
                format!("{faces:?}"),
                value,
                if *kept { "" } else { " (dropped)" },
                times.join(" + "),
                rec.rethrows
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
    }
    ExitCode::SUCCESS
}
