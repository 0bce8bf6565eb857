//! Scripted play at a scene's table, without a window: a list of moves, each thrown physically
//! (seeded, the same headless simulator as the window) or with the faces the script gives, each
//! checked against what the script expects. `dicetable session` and `dicetable demo --check`
//! run scripts; the demos in the window play the same steps on the table.
//!
//! A script is RON: `(seed: 7, steps: [(move: D4Pool(EndTurn)), ...])`. A refused move is
//! reported with the rules' reason and the session goes on.

use serde::{Deserialize, Serialize};

use crate::record::Cocked;
use crate::roll::{GivenFaces, MoveRoll, RollError, headless};
use crate::rules::Outcome;
use crate::rules::play::Move;
use crate::rules::table::TableState;

/// What a step expects; every field given must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The move is refused, with a reason containing this text.
    #[serde(default)]
    pub refused: Option<String>,
    /// The faces of each throw.
    #[serde(default)]
    pub faces: Option<Vec<Vec<u32>>>,
    /// The outcome's total.
    #[serde(default)]
    pub total: Option<i64>,
    /// Success or failure.
    #[serde(default)]
    pub success: Option<bool>,
    /// The outcome class, exactly.
    #[serde(default)]
    pub class: Option<String>,
    /// Texts each found among the outcome's tags or lines.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Texts each found among what changed at the table.
    #[serde(default)]
    pub said: Vec<String>,
    /// The tracker's heading after the move.
    #[serde(default)]
    pub heading: Option<String>,
    /// The character whose turn (or shot) it is after the move.
    #[serde(default)]
    pub acting: Option<String>,
}

/// One step of a script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptStep {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// The faces of each throw (None: thrown physically).
    #[serde(default)]
    pub faces: Option<Vec<Vec<u32>>>,
    /// The seed of its physical throw (None: the script's seed + the step's index).
    #[serde(default)]
    pub seed: Option<u64>,
    /// What it must come to.
    #[serde(default)]
    pub expect: Option<Expect>,
    /// Words for the reader (a demo's narration).
    #[serde(default)]
    pub say: Option<String>,
}

/// A script: steps played in order at one table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// The base seed of physical throws.
    #[serde(default)]
    pub seed: u64,
    /// The steps.
    pub steps: Vec<ScriptStep>,
}

/// What happened at one step.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StepReport {
    /// 1-based step number.
    pub step: usize,
    /// The move in words.
    pub title: String,
    /// The move as RON.
    pub ron: String,
    /// None: allowed; otherwise the rules' reason.
    pub refused: Option<String>,
    /// The seed of the physical throws (None: faces given).
    pub seed: Option<u64>,
    /// The purpose of each throw.
    pub purposes: Vec<String>,
    /// The faces of each throw.
    pub throws: Vec<Vec<u32>>,
    /// The outcome.
    pub outcome: Option<Outcome>,
    /// What changed at the table.
    pub said: Vec<String>,
    /// The table after the step: heading, tracker rows, notes, state.
    pub table: serde_json::Value,
    /// Expectations not met (empty: all met or none given).
    pub unmet: Vec<String>,
    /// An error that stopped the step (bad faces, a throw that failed).
    pub error: Option<String>,
}

/// Where faces come from.
pub enum Faces<'a> {
    /// Given, throw by throw.
    Given(&'a [Vec<u32>]),
    /// Thrown physically with this seed.
    Physical(u64),
}

/// Why a step stopped: the roll path's error, or given faces that do not match the throws the
/// move asks for.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StepError {
    /// The roll could not go on.
    #[error(transparent)]
    Roll(#[from] RollError),
    /// The script gives fewer throws than the rules ask for.
    #[error("the script gives {given} throws; the rules want another: {purpose}")]
    TooFewThrows {
        /// Throws given.
        given: usize,
        /// What the next throw is for.
        purpose: String,
    },
    /// The script gives more throws than the move took.
    #[error("the script gives {given} throws; the move took {took}")]
    TooManyThrows {
        /// Throws given.
        given: usize,
        /// Throws taken.
        took: usize,
    },
}

/// Plays one move at the table through the roll path: verdict, throws (given or physical, each
/// checked against its plan), outcome, applied.
pub fn play_move(table: &mut TableState, mv: &Move, faces: Faces<'_>) -> StepReport {
    let mut report = StepReport {
        title: table.describe(mv),
        ron: ron::to_string(mv).unwrap_or_default(),
        seed: match faces {
            Faces::Physical(s) => Some(s),
            Faces::Given(_) => None,
        },
        ..StepReport::default()
    };
    let seed = report.seed.unwrap_or_default();
    // The rules' verdict first: a move not allowed is refused with their reason.
    let mut roll = match MoveRoll::start(table, mv, seed) {
        Ok(roll) => roll,
        Err(RollError::Rules(e)) => {
            report.refused = Some(e.to_string());
            report.table = snapshot(table);
            return report;
        }
        Err(e) => {
            report.error = Some(e.to_string());
            report.table = snapshot(table);
            return report;
        }
    };
    let result = (|| -> Result<Vec<String>, StepError> {
        // One driver for both: given faces are fed as they are asked for, physical throws are
        // made by the headless simulator.
        let stopped = match faces {
            Faces::Given(all) => {
                let mut wanted = None;
                let driving = crate::roll::drive(roll.clone(), |order| {
                    all.get(order.n as usize)
                        .map(|given| GivenFaces(given.clone()))
                        .ok_or_else(|| {
                            wanted = Some(order.purpose.clone());
                            RollError::Missing { n: order.n }
                        })
                });
                roll = driving.roll().clone();
                if let Some(purpose) = wanted {
                    return Err(StepError::TooFewThrows {
                        given: all.len(),
                        purpose,
                    });
                }
                if all.len() > roll.faces().len() && driving.stopped().is_none() {
                    return Err(StepError::TooManyThrows {
                        given: all.len(),
                        took: roll.faces().len(),
                    });
                }
                driving.stopped().cloned()
            }
            Faces::Physical(_) => {
                let driving = crate::roll::drive(roll.clone(), |order| {
                    headless::throw_order(order, None, Cocked::default())
                });
                roll = driving.roll().clone();
                driving.stopped().cloned()
            }
        };
        if let Some(e) = stopped {
            return Err(e.into());
        }
        Ok(roll.apply_to(table)?)
    })();
    report.purposes = roll.purposes();
    report.throws = roll.faces().to_vec();
    match result {
        Ok(said) => {
            report.outcome = roll.outcome().cloned();
            report.said = said;
        }
        Err(e) => report.error = Some(e.to_string()),
    }
    report.table = snapshot(table);
    report
}

/// The table as JSON: heading, tracker, notes and the turn economy.
pub fn snapshot(table: &TableState) -> serde_json::Value {
    serde_json::json!({
        "heading": table.heading(),
        "tracker": table.tracker(),
        "notes": table.notes(),
        "state": table.state_json(),
    })
}

/// Checks a step's report against what it expects; returns what was not met.
pub fn unmet(expect: &Expect, r: &StepReport) -> Vec<String> {
    let mut out = Vec::new();
    // A script checks the words of the rules' reason, as a player reads them: that is what it
    // tests (the texts' rulings, a demo's narration). Nothing decides what to do by them.
    match (&expect.refused, &r.refused) {
        (Some(want), Some(got)) if !got.contains(want.as_str()) => {
            out.push(format!("refused with \"{got}\", expected \"{want}\""));
        }
        (Some(want), None) => out.push(format!("allowed, expected refusal \"{want}\"")),
        (None, Some(got)) => out.push(format!("refused: {got}")),
        _ => {}
    }
    if let Some(e) = &r.error {
        out.push(format!("error: {e}"));
    }
    if let Some(want) = &expect.faces
        && *want != r.throws
    {
        out.push(format!("faces {:?}, expected {want:?}", r.throws));
    }
    let o = r.outcome.as_ref();
    if let Some(want) = expect.total
        && o.map(|o| o.total) != Some(want)
    {
        out.push(format!("total {:?}, expected {want}", o.map(|o| o.total)));
    }
    if let Some(want) = expect.success
        && o.and_then(|o| o.success) != Some(want)
    {
        out.push(format!(
            "success {:?}, expected {want}",
            o.and_then(|o| o.success)
        ));
    }
    if let Some(want) = &expect.class
        && o.map(|o| o.class.as_str()) != Some(want.as_str())
    {
        out.push(format!(
            "class {:?}, expected \"{want}\"",
            o.map(|o| o.class.clone())
        ));
    }
    for want in &expect.tags {
        let found = o.is_some_and(|o| {
            o.tags
                .iter()
                .chain(&o.lines)
                .any(|t| t.contains(want.as_str()))
        });
        if !found {
            out.push(format!("no tag or line with \"{want}\""));
        }
    }
    for want in &expect.said {
        if !r.said.iter().any(|s| s.contains(want.as_str())) {
            out.push(format!("nothing said with \"{want}\" (said {:?})", r.said));
        }
    }
    if let Some(want) = &expect.acting {
        let got = r.table["tracker"]
            .as_array()
            .and_then(|rows| {
                rows.iter()
                    .find(|row| row["acting"].as_bool() == Some(true))
            })
            .and_then(|row| row["name"].as_str())
            .unwrap_or("nobody");
        if got != want {
            out.push(format!("{got} acts, expected {want}"));
        }
    }
    if let Some(want) = &expect.heading {
        let got = r.table["heading"].as_str().unwrap_or_default();
        if got != want {
            out.push(format!("heading \"{got}\", expected \"{want}\""));
        }
    }
    out
}

/// Plays a whole script; each step reported, expectations checked.
pub fn run(table: &mut TableState, script: &Script) -> Vec<StepReport> {
    script
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let seed = step.seed.unwrap_or(script.seed.wrapping_add(i as u64));
            let faces = match &step.faces {
                Some(f) => Faces::Given(f),
                None => Faces::Physical(seed),
            };
            let mut r = play_move(table, &step.mv, faces);
            r.step = i + 1;
            if let Some(e) = &step.expect {
                r.unmet = unmet(e, &r);
            } else if let Some(e) = &r.error {
                r.unmet = vec![format!("error: {e}")];
            }
            r
        })
        .collect()
}

/// A report as lines of text for a terminal.
pub fn report_text(r: &StepReport) -> Vec<String> {
    let mut out = vec![format!("{}. {}", r.step, r.title)];
    if let Some(why) = &r.refused {
        out.push(format!("   not allowed: {why}"));
    }
    for (purpose, faces) in r.purposes.iter().zip(&r.throws) {
        out.push(format!("   throw ({purpose}): {faces:?}"));
    }
    if let Some(seed) = r.seed
        && !r.throws.is_empty()
    {
        out.push(format!("   seed {seed} (thrown physically)"));
    }
    if let Some(o) = &r.outcome {
        if r.throws.is_empty() {
            out.push(format!("   -> {}", o.class));
        } else {
            out.push(format!("   -> {} (total {})", o.class, o.total));
        }
        out.extend(o.lines.iter().map(|l| format!("      {l}")));
        out.extend(o.tags.iter().map(|t| format!("      [{t}]")));
    }
    out.extend(r.said.iter().map(|s| format!("   * {s}")));
    if let Some(e) = &r.error {
        out.push(format!("   error: {e}"));
    }
    out.push(format!(
        "   table: {}",
        r.table["heading"].as_str().unwrap_or_default()
    ));
    if let Some(rows) = r.table["tracker"].as_array() {
        for row in rows {
            let status: Vec<&str> = row["status"]
                .as_array()
                .map(|s| s.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default();
            out.push(format!(
                "     {}{}: {}",
                if row["acting"].as_bool() == Some(true) {
                    "▶ "
                } else {
                    ""
                },
                row["name"].as_str().unwrap_or_default(),
                status.join(" · ")
            ));
        }
    }
    if let Some(notes) = r.table["notes"].as_array() {
        out.extend(
            notes
                .iter()
                .filter_map(|n| n.as_str())
                .map(|n| format!("     {n}")),
        );
    }
    for u in &r.unmet {
        out.push(format!("   EXPECTATION NOT MET: {u}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::data::parse_ron;
    use crate::rules::testing::{docs_ron_block, table};

    #[test]
    fn the_documented_script_example_reads_and_plays() {
        let block = docs_ron_block("steps:");
        let script: Script =
            parse_ron("docs/command-line.md", block).unwrap_or_else(|e| panic!("{e}"));
        let mut t = table("open-d6-fred-and-peter.ron");
        let reports = run(&mut t, &script);
        let unmet: Vec<&String> = reports.iter().flat_map(|r| &r.unmet).collect();
        assert!(unmet.is_empty(), "{unmet:?}");
        assert_eq!(
            reports[3].refused.as_deref(),
            Some("that move is one of d4-pool, and this table plays open-d6")
        );
    }

    #[test]
    fn given_faces_that_do_not_fit_are_an_error_not_a_panic() {
        let mut t = table("d4-pool-goblin-ambush.ron");
        let mv = t.default_move();
        let r = play_move(&mut t, &mv, Faces::Given(&[vec![9]]));
        assert_eq!(
            r.error.as_deref(),
            Some("1 faces for a throw of 7 dice (d4 pool)")
        );
        let r = play_move(&mut t, &mv, Faces::Given(&[]));
        assert_eq!(
            r.error.as_deref(),
            Some("the script gives 0 throws; the rules want another: d4 pool")
        );
        // A throw more than the move takes: the driver stops asking, and the step says so.
        let r = play_move(&mut t, &mv, Faces::Given(&[vec![2; 7], vec![2; 7]]));
        assert_eq!(
            r.error.as_deref(),
            Some("the script gives 2 throws; the move took 1")
        );
        // Nothing was applied: Vex's load is still −1.
        assert_eq!(t.tracker()[0].status[0], "Action Load -1");
    }
}
