//! `dicetable replay <CODE|FILE>`: throws a record's (or a replay code's) inputs again,
//! headless, and says whether every face and final pose matches. Exit 0: identical; 1:
//! different (each difference printed); 2: the code or file could not be read.

use std::path::Path;
use std::process::ExitCode;

use crate::record::{RollDice, RollRecord};
use crate::roll::replay::{Check, check_code, check_record, faces_of};

/// Arguments of `replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A replay code ("dt1-..."), or a file holding a roll record (JSON, as `roll --json`'s
    /// `record`, the API's answer, or one record per line).
    pub what: String,
}

/// Runs `replay`.
pub fn run(args: &ReplayArgs) -> ExitCode {
    let text = args.what.trim();
    if text.starts_with(crate::record::code::PREFIX) {
        return match check_code(text) {
            Ok((inputs, check)) => {
                let what = match &inputs.dice {
                    RollDice::Notation(n) => n.clone(),
                    RollDice::Throws(t) => format!("{} throws of a move", t.len()),
                };
                println!("replay of {what}   seed {}", inputs.seed);
                report(&check)
            }
            Err(e) => unreadable(&e.to_string()),
        };
    }
    let path = Path::new(text);
    let contents = match std::fs::read_to_string(path) {
        Ok(c) => c,
        Err(e) => {
            return unreadable(&format!(
                "'{text}' is neither a replay code (dt1-...) nor a readable file: {e}"
            ));
        }
    };
    let records = match read_records(&contents) {
        Ok(r) => r,
        Err(e) => return unreadable(&format!("{}: {e}", path.display())),
    };
    let mut worst = ExitCode::SUCCESS;
    for (i, record) in records.iter().enumerate() {
        if records.len() > 1 {
            print!("record {}: ", i + 1);
        }
        let code = match check_record(record) {
            Ok(check) => {
                println!(
                    "replay of {}   seed {}",
                    match &record.what {
                        crate::record::Thrown::Notation { notation } => notation.clone(),
                        crate::record::Thrown::Move {
                            ruleset, action, ..
                        } => format!("{action} ({ruleset})"),
                    },
                    record.seed
                );
                report(&check)
            }
            Err(e) => unreadable(&e.to_string()),
        };
        if code != ExitCode::SUCCESS && worst != ExitCode::from(2) {
            worst = code;
        }
    }
    worst
}

/// Records in a file: one JSON record, an object with a `record` field (the API's answer,
/// `roll --json`), or one of those per line.
pub fn read_records(contents: &str) -> Result<Vec<RollRecord>, String> {
    let one = |v: serde_json::Value| -> Result<RollRecord, String> {
        let v = match v {
            serde_json::Value::Object(mut m) if m.contains_key("record") => {
                m.remove("record").unwrap_or_default()
            }
            v => v,
        };
        serde_json::from_value(v).map_err(|e| format!("not a roll record: {e}"))
    };
    match serde_json::from_str::<serde_json::Value>(contents) {
        Ok(v) => Ok(vec![one(v)?]),
        Err(_) => contents
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(n, l)| {
                serde_json::from_str(l)
                    .map_err(|e| format!("line {}: not JSON: {e}", n + 1))
                    .and_then(one)
                    .map_err(|e| format!("line {}: {e}", n + 1))
            })
            .collect(),
    }
}

fn report(check: &Check) -> ExitCode {
    for (n, throw) in check.throws.iter().enumerate() {
        println!("  throw {}: faces {:?}", n + 1, faces_of(throw));
    }
    for note in &check.notes {
        println!("  note: {note}");
    }
    if check.identical() {
        println!(
            "identical: every face and final pose matches (digest {})",
            check.digest
        );
        ExitCode::SUCCESS
    } else {
        println!("different:");
        for d in &check.differences {
            println!("  {d}");
        }
        ExitCode::from(1)
    }
}

fn unreadable(e: &str) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::from(2)
}
