//! `dicetable roll`: throws the dice of a notation physically, headless, and reads the faces.
//! Open-ended dice that show their top face are thrown again, physically, as new throws.

use std::process::ExitCode;

use serde_json::json;

use crate::dice::{self, DieKind};
use crate::physics::headless::Simulator;
use crate::physics::{RollResult, SettleRules, ThrowRequest};
use crate::rules::notation::{Notation, NotationDie, open_ended_rethrows};
use crate::rules::seeded_coin;

/// Most throws one roll may take (open-ended dice keep coming up).
const MAX_THROWS: u32 = 64;

/// One rules die as thrown: its physical dice's results, throw after throw.
#[derive(Debug, Default)]
struct DieRecord {
    faces: Vec<u32>,
    settle_times: Vec<f32>,
    rethrows: u32,
}

/// The result of a physical roll of a notation.
pub struct PhysicalRoll {
    /// Physical throws made (1 + open-ended re-throws).
    pub throws: u32,
    dice: Vec<NotationDie>,
    records: Vec<DieRecord>,
}

/// The seed of the `n`-th throw of a roll (the first throw uses the roll's seed).
pub fn throw_seed(seed: u64, n: u32) -> u64 {
    if n == 0 {
        seed
    } else {
        seeded_coin(seed, u64::from(n))
    }
}

fn physical(die: &NotationDie) -> Result<Vec<DieKind>, String> {
    dice::physical_dice(die.sides)
}

/// Throws a notation's dice physically until no open-ended die shows its top face.
pub fn roll_notation(
    sim: &mut Simulator,
    notation: &Notation,
    seed: u64,
) -> Result<PhysicalRoll, String> {
    let dice = notation.dice();
    if dice.is_empty() {
        return Err("the notation throws no dice".into());
    }
    let kinds: Vec<Vec<DieKind>> = dice.iter().map(physical).collect::<Result<_, _>>()?;
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
            dice: to_throw
                .iter()
                .flat_map(|&i| kinds[i].iter().copied())
                .collect(),
            swing: None,
        };
        let result: RollResult = sim.roll(&request)?;
        let mut settled = result.dice.iter();
        for &i in &to_throw {
            let parts: Vec<_> = kinds[i].iter().filter_map(|_| settled.next()).collect();
            let values: Vec<u32> = parts.iter().map(|d| d.value).collect();
            let record = &mut records[i];
            record.faces.push(dice::rules_face(dice[i].sides, &values));
            record
                .settle_times
                .push(parts.iter().map(|d| d.settle_time).fold(0.0, f32::max));
            record.rethrows += parts.iter().map(|d| d.rethrows.total()).sum::<u32>();
        }
        throws += 1;
        let chains: Vec<Vec<u32>> = records.iter().map(|r| r.faces.clone()).collect();
        to_throw = open_ended_rethrows(&dice, &chains);
    }
    Ok(PhysicalRoll {
        throws,
        dice,
        records,
    })
}

impl PhysicalRoll {
    /// Each die's chain of faces (first face, then open-ended extra throws).
    pub fn chains(&self) -> Vec<Vec<u32>> {
        self.records.iter().map(|r| r.faces.clone()).collect()
    }
}

/// Arguments of `roll`.
#[derive(clap::Args, Debug)]
pub struct RollArgs {
    /// Dice notation, e.g. "3d6+2" or "d20+5>=15".
    pub notation: String,
    /// Seed of the throw (default: a random one, printed so the roll can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
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
    let mut sim = Simulator::new(SettleRules::default());
    let roll = match roll_notation(&mut sim, &notation, seed) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match notation.evaluate(&roll.chains()) {
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
            .zip(&result.dice)
            .map(|((d, rec), (value, kept))| {
                json!({
                    "die": format!("d{}{}", d.sides, if d.open_ended { "!" } else { "" }),
                    "faces": rec.faces,
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
        for (i, ((d, rec), (value, kept))) in roll
            .dice
            .iter()
            .zip(&roll.records)
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
                format!("{:?}", rec.faces),
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
