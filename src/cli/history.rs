//! `dicetable history`: the lasting history, listed and exported. Without `--session`, the
//! sessions (newest first); with it, that session's rolls. `--json` writes one JSON object per
//! roll and line, each with its full `record` (so the file replays: `dicetable replay FILE`);
//! `--csv` a spreadsheet's table; `--luck` each character's luck per session.
//! Exit 0: listed; 1: no such session; 2: the history cannot be opened.

use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;

use crate::folders::data_dir;
use crate::history::{HistoryStore, SessionInfo, StoredRoll, luck, roll_luck};
use crate::odds::notation::Notation;
use crate::record::Thrown;

/// Arguments of `history`.
#[derive(clap::Args, Debug)]
pub struct HistoryArgs {
    /// One session's rolls (the number `history` lists).
    #[arg(long)]
    pub session: Option<i64>,
    /// One JSON object per roll and line, with its record (`dicetable replay` reads the file).
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Comma-separated values, one roll a row, with a header.
    #[arg(long)]
    pub csv: bool,
    /// Each character's luck per session: average percentile and the probability of a session
    /// at least this lucky.
    #[arg(long, conflicts_with_all = ["json", "csv"])]
    pub luck: bool,
    /// The history's folder (default: $DICETABLE_DATA_DIR, else the user's data directory).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// One roll as exported.
#[derive(Serialize)]
struct Exported<'a> {
    session: i64,
    n: i64,
    when: &'a str,
    at_ms: i64,
    who: Option<&'a str>,
    what: &'a str,
    result: &'a str,
    percentile: Option<f64>,
    code: String,
    record: &'a crate::record::RollRecord,
}

/// Runs `history`.
pub fn run(args: &HistoryArgs) -> ExitCode {
    let Some(dir) = args.dir.clone().or_else(data_dir) else {
        eprintln!("error: no data directory is known here: give --dir DIR");
        return ExitCode::from(2);
    };
    let opened = HistoryStore::open(&dir);
    if let Some(notice) = &opened.notice {
        eprintln!("history: {notice}");
    }
    let Some(store) = opened.store else {
        return ExitCode::from(2);
    };
    let sessions = match args.session {
        Some(id) => match store.session(id) {
            Ok(Some(s)) => vec![s],
            Ok(None) => {
                eprintln!(
                    "error: there is no session {id} in {} (`dicetable history` lists them)",
                    store.path().display()
                );
                return ExitCode::from(1);
            }
            Err(e) => return failed(&e.to_string()),
        },
        None => match store.sessions() {
            Ok(s) => s,
            Err(e) => return failed(&e.to_string()),
        },
    };
    let mut rolls = Vec::new();
    if args.session.is_some() || args.json || args.csv || args.luck {
        // Oldest session first in exports.
        for s in sessions.iter().rev() {
            match store.rolls(s.id) {
                Ok((mut r, skipped)) => {
                    for s in skipped {
                        eprintln!("history: {s}");
                    }
                    fill_in_luck(&mut r);
                    rolls.push((s.clone(), r));
                }
                Err(e) => return failed(&e.to_string()),
            }
        }
    }
    if args.json {
        for (_, session) in &rolls {
            for r in session {
                match serde_json::to_string(&exported(r)) {
                    Ok(line) => println!("{line}"),
                    Err(e) => return failed(&e.to_string()),
                }
            }
        }
    } else if args.csv {
        println!("session,n,when,who,what,result,total,percentile,seed,faces,code");
        for (_, session) in &rolls {
            for r in session {
                println!("{}", csv_row(r));
            }
        }
    } else if args.luck {
        print_luck(&rolls);
    } else if args.session.is_some() {
        for (s, session) in &rolls {
            println!("{}", session_line(s));
            for r in session {
                println!("{}", roll_line(r));
            }
        }
    } else if sessions.is_empty() {
        println!("no rolls yet ({})", store.path().display());
    } else {
        println!("{}", store.path().display());
        for s in &sessions {
            println!("{}", session_line(s));
        }
    }
    ExitCode::SUCCESS
}

fn failed(e: &str) -> ExitCode {
    eprintln!("error: the history cannot be read: {e}");
    ExitCode::from(2)
}

fn session_line(s: &SessionInfo) -> String {
    format!(
        "session {}  {}  {}  {} roll{}",
        s.id,
        s.when,
        s.place,
        s.rolls,
        if s.rolls == 1 { "" } else { "s" }
    )
}

fn roll_line(r: &StoredRoll) -> String {
    let who = r.byline();
    let pct = r
        .luck
        .as_ref()
        .map(|l| format!("  percentile {:.1}", l.percentile))
        .unwrap_or_default();
    format!(
        "  {}.{}  {}  {who}{} -> {}  faces {:?}  seed {}{pct}  {}",
        r.session,
        r.n,
        r.when,
        r.what,
        r.result,
        r.record.faces,
        r.record.seed,
        r.record.code()
    )
}

fn exported(r: &StoredRoll) -> Exported<'_> {
    Exported {
        session: r.session,
        n: r.n,
        when: &r.when,
        at_ms: r.at_ms,
        who: r.who.as_deref(),
        what: &r.what,
        result: &r.result,
        percentile: r.luck.as_ref().map(|l| l.percentile),
        code: r.record.code(),
        record: &r.record,
    }
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn csv_row(r: &StoredRoll) -> String {
    [
        r.session.to_string(),
        r.n.to_string(),
        field(&r.when),
        field(r.who.as_deref().unwrap_or("")),
        field(&r.what),
        field(&r.result),
        r.record.total.map(|t| t.to_string()).unwrap_or_default(),
        r.luck
            .as_ref()
            .map(|l| format!("{:.4}", l.percentile))
            .unwrap_or_default(),
        r.record.seed.to_string(),
        field(&format!("{:?}", r.record.faces)),
        r.record.code(),
    ]
    .join(",")
}

/// A free roll whose luck was not stored (the window closed before it was worked out): its
/// notation says everything needed.
fn fill_in_luck(rolls: &mut [StoredRoll]) {
    for r in rolls.iter_mut().filter(|r| r.luck.is_none()) {
        let (Thrown::Notation { notation }, Some(total)) = (&r.record.what, r.record.total) else {
            continue;
        };
        if let Ok(dist) = Notation::parse(notation).map(|n| n.distribution())
            && let Ok(dist) = dist
        {
            r.luck = roll_luck(&dist, total);
        }
    }
}

fn print_luck(sessions: &[(SessionInfo, Vec<StoredRoll>)]) {
    for (s, rolls) in sessions {
        println!("{}", session_line(s));
        let rollers = luck::by_roller(
            rolls
                .iter()
                .map(|r| (r.who.as_deref(), r.replay, r.luck.as_ref())),
        );
        for (name, luck) in rollers {
            match luck {
                Some(l) => println!("  {name}: {}", luck::words(&l)),
                None => println!("  {name}: no roll with a distribution"),
            }
        }
    }
}
