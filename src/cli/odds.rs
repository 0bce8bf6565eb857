//! `dicetable odds`: exact odds of a notation or of a ruleset's action, as a table or JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;

use crate::odds::notation::Notation;
use crate::odds::{Dist, Prob};
use crate::rules::engine::{AnyAction, Rulebook};
use crate::rules::{Odds, RulesetId};

/// The examples under `odds --help`: a notation, a target, and the first ruleset's example
/// action.
fn examples() -> String {
    let id = RulesetId::ALL[0];
    format!(
        "Examples:\n  dicetable odds \"4d6kh3\"\n  dicetable odds \"{{2d20kh1+5}}>=15\" --json\n  \
         dicetable odds --ruleset {id} --action '{}'",
        AnyAction::example(id)
    )
}

/// Arguments of `odds`.
#[derive(clap::Args, Debug)]
#[command(after_help = examples())]
pub struct OddsArgs {
    /// Dice notation, e.g. "{3d6+2}>=12" (or give --ruleset and --action); it may start with
    /// a minus ("-1d4+5").
    #[arg(allow_hyphen_values = true)]
    pub notation: Option<String>,
    /// A ruleset id (an unknown one is answered with the list).
    #[arg(long, value_parser = super::parse_ruleset)]
    pub ruleset: Option<RulesetId>,
    /// The action, in the ruleset's RON form (see docs/command-line.md); default: the ruleset's example.
    #[arg(long)]
    pub action: Option<String>,
    /// A folder of rule files to use instead of the shipped ones (<id>.ron each).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The odds asked for, with a title.
struct Report {
    title: String,
    odds: Odds,
}

/// Why `odds` could not answer.
#[derive(Debug, PartialEq, thiserror::Error)]
enum OddsError {
    /// The arguments do not go together.
    #[error("{0}")]
    Usage(&'static str),
    /// The notation does not read.
    #[error(transparent)]
    Notation(#[from] crate::odds::notation::NotationError),
    /// The notation reads but cannot be thrown (a die with no physical shape): refused as
    /// `roll` refuses it.
    #[error(transparent)]
    NotThrown(#[from] crate::roll::RollError),
    /// The exact odds are too large to work out.
    #[error("exact odds are not worked out: {0}")]
    TooLarge(String),
    /// A rules file or the action does not read.
    #[error(transparent)]
    Data(#[from] crate::rules::data::DataError),
    /// The rules cannot price the action.
    #[error(transparent)]
    Rules(#[from] crate::rules::RulesError),
}

fn compute(args: &OddsArgs) -> Result<Report, OddsError> {
    match (&args.notation, args.ruleset) {
        (Some(_), Some(_)) => Err(OddsError::Usage(
            "give either a notation or --ruleset with --action, not both",
        )),
        (None, None) => Err(OddsError::Usage(
            "give a notation (dicetable odds \"2d6+3\") or --ruleset <ID> --action '<RON>'",
        )),
        (Some(text), None) => {
            if args.action.is_some() {
                return Err(OddsError::Usage("--action goes with --ruleset"));
            }
            let notation = Notation::parse(text)?;
            // What cannot be thrown has no odds: the same refusal as `roll`, before any work.
            crate::roll::notation_dice(&notation)?;
            let odds = Odds::of_notation_until(&notation, &crate::odds::stop::Never).map_err(
                |e| match e {
                    crate::odds::notation::OddsError::TooLarge(why) => OddsError::TooLarge(why),
                    crate::odds::notation::OddsError::Stopped(never) => match never {},
                },
            )?;
            Ok(Report {
                title: notation.source().to_string(),
                odds,
            })
        }
        (None, Some(id)) => {
            let book = match &args.rules {
                Some(dir) => Rulebook::load_dir(dir),
                None => Rulebook::builtin(),
            }?;
            let text = args.action.as_deref().unwrap_or(AnyAction::example(id));
            let action = AnyAction::parse(id, text)?;
            let odds = action.odds(&book)?;
            let mut title = format!("{id} {}", text.trim());
            if let Err(why) = action.check(&book) {
                title.push_str(&format!("\n(not allowed now: {why})"));
            }
            Ok(Report { title, odds })
        }
    }
}

/// How long `odds` on a terminal waits for the exact answer before it shows the estimate.
const QUIET_FOR: std::time::Duration = std::time::Duration::from_millis(300);
/// How long the estimate rolls on paper.
const ESTIMATE_FOR: std::time::Duration = std::time::Duration::from_millis(250);

/// The estimate shown while the exact odds are worked out: one line, marked ≈, with its stated
/// error. None when nothing could be rolled.
fn estimate_text(notation: &Notation) -> Option<String> {
    let e = crate::odds::notation::estimate::estimate(notation, ESTIMATE_FOR)?;
    let (lo, hi) = (e.chances.first()?.0, e.chances.last()?.0);
    let (lo, hi) = (e.value_of(lo), e.value_of(hi));
    let (mode, p) = e
        .chances
        .iter()
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let mode = e.value_of(mode);
    let measure = notation.measure().word();
    Some(format!(
        "≈ {measure} {lo} to {hi}, mean {:.2}, most often {mode} ({:.1}%): {} rolls on paper, \
         every chance within ±{:.2}% ({}% sure); working out the exact odds…\n",
        e.mean,
        p * 100.0,
        e.samples,
        e.error * 100.0,
        crate::odds::notation::estimate::CONFIDENCE * 100.0,
    ))
}

/// Runs `odds`: on a terminal, a notation whose exact odds take a while shows the estimate at
/// once, then the exact answer when it comes (`--json` and a pipe get the exact answer only).
pub fn run(args: &OddsArgs) -> ExitCode {
    use std::io::{IsTerminal, Write};
    let early = (!args.json && std::io::stdout().is_terminal())
        .then_some(args.notation.as_deref())
        .flatten()
        .and_then(|text| Notation::parse(text).ok())
        .filter(|n| crate::roll::notation_dice(n).is_ok());
    let result = std::thread::scope(|scope| {
        let (done, answer) = std::sync::mpsc::channel();
        scope.spawn(move || {
            // The asker may have gone (a closed terminal): nothing to tell it then.
            let _ = done.send(compute(args));
        });
        if let Some(notation) = early {
            match answer.recv_timeout(QUIET_FOR) {
                Ok(ready) => return ready,
                Err(_) => {
                    if let Some(text) = estimate_text(&notation) {
                        print!("{text}");
                        let _ = std::io::stdout().flush();
                    }
                }
            }
        }
        answer
            .recv()
            .unwrap_or(Err(OddsError::Usage("the odds could not be worked out")))
    });
    match result {
        Ok(report) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&to_json(&report)).unwrap_or_default()
                );
            } else {
                print!("{}", to_text(&report));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn to_json(r: &Report) -> Value {
    r.odds.to_json(&r.title)
}

/// Rows smaller than this are summarised in the text table (JSON lists every value).
const SHOWN_AT_LEAST: f64 = 1e-6;

fn distribution_text(measure: &str, d: &Dist, target: Option<i64>) -> String {
    // Only the rows shown are put in lowest terms (100d20!: 611 of 22,000).
    let chances = d.chances();
    let shown: Vec<i64> = chances
        .iter()
        .filter(|&&(_, f)| f >= SHOWN_AT_LEAST)
        .map(|&(v, _)| v)
        .collect();
    let hidden = chances.len() - shown.len();
    let rows = d.probabilities_where(|v| shown.binary_search(&v).is_ok());
    let top = rows
        .iter()
        .map(|(_, p)| p.to_f64())
        .fold(0.0, f64::max)
        .max(1e-300);
    let mut out = format!("{measure:>8}  {:>9}  {:<22} \n", "chance", "exact");
    for (point, p) in &rows {
        let f = p.to_f64();
        let bar = "█".repeat(((f / top) * 40.0).round() as usize);
        let mark = if Some(*point) == target {
            "◀ target"
        } else {
            ""
        };
        let v = d.value_of(*point).to_string();
        let exact = p.exact();
        let exact = if exact.len() > 22 {
            "(long fraction: --json)".to_string()
        } else {
            exact
        };
        out.push_str(&format!(
            "{v:>8}  {:>8.4}%  {exact:<22} {bar} {mark}\n",
            f * 100.0
        ));
    }
    if hidden > 0 {
        out.push_str(&format!(
            "          ... and {hidden} more values, each below {:.4}%\n",
            SHOWN_AT_LEAST * 100.0
        ));
    }
    out
}

fn to_text(r: &Report) -> String {
    let o = &r.odds;
    let mut out = format!("odds of {}\n\n", r.title);
    for note in &o.notes {
        out.push_str(&format!("note: {note}\n\n"));
    }
    out.push_str(&distribution_text(&o.measure, &o.distribution, o.target));
    out.push_str(&format!("\nmean {:.4}\n", o.distribution.mean()));
    let cut = o.distribution.truncated();
    if cut != Prob::zero() {
        out.push_str(&format!(
            "open-ended dice truncated: {:.3e} of the mass is beyond the table\n",
            cut.to_f64()
        ));
    }
    if let Some(p) = &o.p_success {
        out.push_str(&format!(
            "\nchance of success: {:.2}% ({})\n",
            p.to_f64() * 100.0,
            short_exact(p)
        ));
    }
    if !o.classes.is_empty() {
        out.push_str("\noutcome classes:\n");
        for (name, p) in &o.classes {
            out.push_str(&format!(
                "  {name:<24} {:>9.4}%  {}\n",
                p.to_f64() * 100.0,
                short_exact(p)
            ));
        }
    }
    if let Some((name, d)) = &o.secondary {
        out.push('\n');
        out.push_str(&distribution_text(name, d, None));
        out.push_str(&format!("mean {name} {:.4}\n", d.mean()));
    }
    out
}

fn short_exact(p: &Prob) -> String {
    let e = p.exact();
    if e.len() > 40 {
        format!("{}… (--json for the whole fraction)", &e[..40])
    } else {
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Refusal, RefusalKind};
    use serde_json::json;

    fn args(notation: Option<&str>, ruleset: Option<RulesetId>, action: Option<&str>) -> OddsArgs {
        OddsArgs {
            notation: notation.map(String::from),
            ruleset,
            action: action.map(String::from),
            rules: None,
            json: true,
        }
    }

    #[test]
    fn notation_json_has_the_contract_fields() {
        let r = compute(&args(Some("{2d6,0d0}>=8"), None, None)).expect("odds");
        let j = to_json(&r);
        // 2d6 >= 8: 15/36 = 5/12.
        assert_eq!(j["exact_success"], "5/12");
        assert_eq!(
            j["distribution"][0],
            json!({"value": 2, "p": 1.0 / 36.0, "exact": "1/36"})
        );
        assert_eq!(j["mean"], 7.0);
        assert_eq!(j["classes"]["failure"]["exact"], "7/12");
    }

    #[test]
    fn ruleset_json_has_classes_by_name() {
        let r = compute(&args(
            None,
            Some(RulesetId::D20Check),
            Some("(proficiency: 3, modifier: 2, dc: 15, edge: Advantage)"),
        ))
        .expect("odds");
        let j = to_json(&r);
        assert_eq!(j["exact_success"], "319/400");
        assert_eq!(j["classes"]["critical failure"]["exact"], "1/400");
        assert!(j["performance"]["distribution"].is_array());
    }

    #[test]
    fn errors_are_messages() {
        assert!(compute(&args(None, None, None)).is_err());
        let e = compute(&args(Some("2d6+"), None, None)).err();
        assert!(
            matches!(&e, Some(OddsError::Notation(n)) if n.position == 4),
            "{e:?}"
        );
        let e = compute(&args(
            None,
            Some(RulesetId::StepDice),
            Some("(ability: [\"d7\"], difficulty: \"Hard\")"),
        ))
        .err();
        assert_eq!(
            e,
            Some(OddsError::Rules(crate::rules::RulesError::Refused(
                Refusal::new(
                    RefusalKind::Choice,
                    "d7 is not a step die; ability dice are d4, d6, d8, d10, d12"
                )
            )))
        );
    }

    #[test]
    fn text_table_marks_the_target() {
        let r = compute(&args(Some("{d6}>=4"), None, None)).expect("odds");
        let t = to_text(&r);
        assert!(t.contains("◀ target"));
        assert!(t.contains("chance of success: 50.00% (1/2)"), "{t}");
    }
}
