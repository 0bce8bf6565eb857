//! Roll20's dice notation at the table: the odds of every form against icepool, and every form
//! thrown physically and shown die by die, through `roll`, the roll API and a room.

use std::path::Path;
use std::process::Command;

use dicetable::odds::Total;
use dicetable::odds::notation::{Critical, ShownDie};
use dicetable::online::log::{Entry, Event, Proposal};
use dicetable::online::room::Checks;
use dicetable::record::{RollRecord, Thrown};
use serde_json::Value;

use crate::online::{Server, data_dir, gm_opens, pat_plays_ash, runtime};
use crate::{dicetable, stderr, stdout};

/// The forms the roll API and a room are asked to throw (checked by [`holds_by_roll20`]).
pub(crate) const SERVED_FORMS: [&str; 6] = [
    "8d10!>9>7f1",
    "4dF",
    "3d6r<3",
    "2d6[slashing]+1d6[fire]",
    "2d6/4+1",
    "0d6+3",
];

/// A roll as it was answered: each die's physical faces (the record's), and the dice shown.
#[derive(Debug)]
pub(crate) struct Answered {
    /// The notation thrown.
    pub(crate) notation: String,
    /// Each die's faces, in the order thrown: a reroll or an explosion is another throw.
    pub(crate) chains: Vec<Vec<i64>>,
    /// The dice as shown to the table.
    pub(crate) shown: Vec<ShownDie>,
    /// The total (a fraction where a division is left unrounded), or the successes.
    pub(crate) total: Total,
    /// "total" or "successes".
    pub(crate) measure: String,
    /// Passed or failed, for a check.
    pub(crate) success: Option<bool>,
}

impl Answered {
    /// Reads the answer of `roll --json` or of `POST /api/roll` to `notation`: both carry the
    /// record.
    pub(crate) fn read(notation: &str, answer: &Value) -> Answered {
        let chains = answer["record"]["faces"]
            .as_array()
            .unwrap_or_else(|| panic!("a record with faces: {answer}"))
            .iter()
            .map(|chain| {
                chain
                    .as_array()
                    .expect("a die's faces")
                    .iter()
                    .map(|f| f.as_i64().expect("a face"))
                    .collect()
            })
            .collect();
        Answered {
            notation: notation.to_string(),
            chains,
            shown: serde_json::from_value(answer["shown"].clone())
                .unwrap_or_else(|e| panic!("the dice shown ({e}): {answer}")),
            // The exact total beside the number a bot charts.
            total: answer["total_exact"]
                .as_str()
                .and_then(|t| t.parse().ok())
                .unwrap_or_else(|| panic!("an exact total: {answer}")),
            measure: answer["measure"].as_str().expect("a measure").to_string(),
            success: answer["success"].as_bool(),
        }
    }

    /// A record read again as every client reads it (`roll::read_record`): a room's log line.
    fn reread(record: &RollRecord) -> Answered {
        let Thrown::Notation { notation } = &record.what else {
            panic!("not a free roll: {record:?}");
        };
        let read = dicetable::roll::read_record(record)
            .unwrap_or_else(|| panic!("{notation}: the record does not read"));
        Answered {
            notation: notation.clone(),
            chains: record
                .faces
                .iter()
                .map(|c| c.iter().map(|&f| i64::from(f)).collect())
                .collect(),
            shown: read.dice,
            total: read.total,
            measure: read.measure.word().to_string(),
            success: read.success,
        }
    }

    /// The shown dice thrown by one physical die (its slot), in order.
    fn of_slot(&self, slot: usize) -> Vec<&ShownDie> {
        self.shown.iter().filter(|d| d.slot == slot).collect()
    }

    /// Every physical throw is shown, in order, and nothing else is: a die's rerolled values,
    /// then its value (or its compounded throws), then the dice its explosions threw. `read`
    /// turns a face into what it counts for (a Fate die's marks); `penetrating` dice show one
    /// less on each extra die.
    fn every_throw_is_shown(&self, read: impl Fn(i64) -> i64, penetrating: bool) {
        assert!(!self.shown.is_empty(), "{self:?}");
        for (slot, chain) in self.chains.iter().enumerate() {
            let mut thrown = Vec::new();
            for d in self.of_slot(slot) {
                thrown.extend(&d.rerolled);
                if d.compounded.is_empty() {
                    thrown.push(d.value + i64::from(penetrating && d.extra));
                } else {
                    assert_eq!(d.compounded.iter().sum::<i64>(), d.value, "{self:?}");
                    thrown.extend(&d.compounded);
                }
            }
            let faces: Vec<i64> = chain.iter().map(|&f| read(f)).collect();
            assert_eq!(thrown, faces, "{}: die {slot}: {self:?}", self.notation);
        }
    }

    /// The sum of the kept dice.
    fn kept_sum(&self) -> i64 {
        self.shown.iter().filter(|d| d.kept).map(|d| d.value).sum()
    }

    /// The sum of the `n` highest dice shown, whatever the roll kept.
    fn highest(&self, n: usize) -> i64 {
        let mut values: Vec<i64> = self.shown.iter().map(|d| d.value).collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.iter().take(n).sum()
    }

    /// How many of the kept dice are marked a success, less those marked a failure.
    fn marked_successes(&self) -> i64 {
        self.shown
            .iter()
            .filter(|d| d.kept)
            .map(|d| i64::from(d.success) - i64::from(d.failure))
            .sum()
    }
}

/// `roll NOTATION --seed SEED --json`, read.
fn thrown(notation: &str, seed: u64) -> Answered {
    let out = dicetable(&["roll", notation, "--seed", &seed.to_string(), "--json"]);
    assert!(out.status.success(), "{notation}: {}", stderr(&out));
    let answer: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{notation} printed no JSON ({e})"));
    Answered::read(notation, &answer)
}

/// Throws `notation` from seed 1 on, checking `holds` of every roll, until `shows` is true of
/// one (physics is deterministic: the same seed is found on every machine): the form's own
/// mechanic (a reroll, an explosion) is seen happening on the felt, not only allowed.
fn throw_until(notation: &str, holds: impl Fn(&Answered), shows: impl Fn(&Answered) -> bool) {
    for seed in 1..=40 {
        let roll = thrown(notation, seed);
        holds(&roll);
        if shows(&roll) {
            return;
        }
    }
    panic!("{notation}: 40 seeds and not once what the form is for");
}

/// A plain die's face is its value.
fn face(f: i64) -> i64 {
    f
}

/// Checks a roll of a form in the window's, the API's and the room's terms: used by the API
/// and room tests for the same forms.
pub(crate) fn holds_by_roll20(roll: &Answered) {
    let n = roll.notation.as_str();
    match n {
        "8d10!>9>7f1" => {
            roll.every_throw_is_shown(face, false);
            assert_eq!(roll.measure, "successes");
            for d in &roll.shown {
                assert_eq!(d.exploded, d.value >= 9, "{roll:?}");
                assert_eq!((d.success, d.failure), (d.value >= 7, d.value == 1));
            }
            let extra = roll.shown.iter().filter(|d| d.extra).count();
            let exploded = roll.shown.iter().filter(|d| d.exploded).count();
            assert_eq!(extra, exploded, "each explosion threw one die: {roll:?}");
            assert_eq!(roll.total, roll.marked_successes(), "{roll:?}");
        }
        "4dF" => {
            // A Fate die is a d6 marked on opposite faces: 1 and 6 −, 2 and 5 blank, 3 and 4 +.
            let mark = |f: i64| [-1, 0, 1, 1, 0, -1][(f - 1) as usize];
            roll.every_throw_is_shown(mark, false);
            assert!(roll.shown.iter().all(|d| d.die == "dF"), "{roll:?}");
            assert_eq!(roll.total, roll.kept_sum());
        }
        "3d6r<3" => {
            roll.every_throw_is_shown(face, false);
            for d in &roll.shown {
                assert!(
                    d.rerolled.iter().all(|&r| r <= 3) && d.value > 3,
                    "{roll:?}"
                );
            }
            assert_eq!(roll.total, roll.kept_sum());
        }
        "0d6+3" => {
            // Roll20's roll of no dice: nothing thrown, read at once.
            assert!(roll.chains.is_empty() && roll.shown.is_empty(), "{roll:?}");
            assert_eq!(roll.total, 3);
        }
        "2d6/4+1" => {
            // Quarters kept exactly through the API, a room's signed log and its re-throw.
            roll.every_throw_is_shown(face, false);
            let quarters = roll.kept_sum() + 4;
            let total = Total::fraction(quarters.into(), 4).expect("a quarter");
            assert_eq!(roll.total, total, "{roll:?}");
        }
        "2d6[slashing]+1d6[fire]" => {
            roll.every_throw_is_shown(face, false);
            let labels: Vec<Option<&str>> = roll.shown.iter().map(|d| d.label.as_deref()).collect();
            assert_eq!(
                labels,
                [Some("slashing"), Some("slashing"), Some("fire")],
                "{roll:?}"
            );
            assert_eq!(roll.total, roll.kept_sum());
        }
        other => panic!("no check written for {other}"),
    }
}

#[test]
fn each_form_is_thrown_on_the_felt_and_shown_die_by_die() {
    let _lane = crate::beside_real_time();
    // Rerolls until the face no longer matches: each reroll a throw, struck through.
    throw_until("3d6r<3", holds_by_roll20, |r| {
        r.shown.iter().any(|d| !d.rerolled.is_empty())
    });
    // Once: the second face stands, whatever it is.
    throw_until(
        "3d6ro<3",
        |r| {
            r.every_throw_is_shown(face, false);
            for d in &r.shown {
                assert!(d.rerolled.len() <= 1 && d.rerolled.iter().all(|&f| f <= 3));
            }
            assert_eq!(r.total, r.kept_sum());
        },
        |r| {
            r.shown
                .iter()
                .any(|d| d.rerolled.len() == 1 && d.value <= 3)
        },
    );
    // Exploding: each explosion a die of its own; compare points.
    for (notation, from) in [("4d6!", 6), ("5d10!>8", 8)] {
        throw_until(
            notation,
            |r| {
                r.every_throw_is_shown(face, false);
                for (i, d) in r.shown.iter().enumerate() {
                    assert_eq!(d.exploded, d.value >= from, "{r:?}");
                    if d.exploded {
                        assert!(r.shown[i + 1].extra, "an explosion's die follows it: {r:?}");
                    }
                }
                assert_eq!(r.total, r.kept_sum());
            },
            |r| r.shown.iter().any(|d| d.exploded),
        );
    }
    // Compounding: one die holding its throws; kept or dropped as one.
    throw_until(
        "4d6!!kh3",
        |r| {
            r.every_throw_is_shown(face, false);
            assert_eq!(r.shown.len(), 4, "compounded throws are one die: {r:?}");
            assert_eq!(r.shown.iter().filter(|d| d.kept).count(), 3);
            let lowest = r.shown.iter().map(|d| d.value).min().expect("dice");
            let dropped = r.shown.iter().find(|d| !d.kept).expect("one dropped");
            assert_eq!(dropped.value, lowest, "{r:?}");
            for d in r.shown.iter().filter(|d| !d.compounded.is_empty()) {
                let (last, before) = d.compounded.split_last().expect("throws");
                assert!(before.iter().all(|&f| f == 6) && *last < 6, "{r:?}");
            }
            assert_eq!(r.total, r.kept_sum());
        },
        |r| r.shown.iter().any(|d| d.compounded.len() > 1),
    );
    // Penetrating: each extra die one less than it shows.
    throw_until(
        "3d6!p",
        |r| {
            r.every_throw_is_shown(face, true);
            let faces: i64 = r.chains.iter().flatten().sum();
            let extra = r.shown.iter().filter(|d| d.extra).count() as i64;
            assert_eq!(r.total, faces - extra, "{r:?}");
        },
        |r| r.shown.iter().any(|d| d.extra),
    );
    // Target numbers and failures; exploding dice counted die by die.
    throw_until("8d10!>9>7f1", holds_by_roll20, |r| {
        r.shown.iter().any(|d| d.exploded) && r.shown.iter().any(|d| d.failure)
    });
    throw_until(
        "8d10<3",
        |r| {
            r.every_throw_is_shown(face, false);
            assert_eq!(r.measure, "successes");
            let counted = r.chains.iter().filter(|c| c[0] <= 3).count() as i64;
            assert_eq!(r.total, counted, "{r:?}");
        },
        |r| r.total > 0,
    );
    // Keep and drop.
    throw_until(
        "5d6dl2",
        |r| {
            r.every_throw_is_shown(face, false);
            assert_eq!(r.total, r.highest(3), "{r:?}");
            assert_eq!(r.total, r.kept_sum());
        },
        |_| true,
    );
    // Fate dice, d3 and d2: marked cubes, the marks on opposite faces.
    throw_until("4dF", holds_by_roll20, |r| {
        let marks: Vec<i64> = r.shown.iter().map(|d| d.value).collect();
        [-1, 0, 1].iter().all(|m| marks.contains(m))
    });
    for (notation, marks) in [("4d3", [1, 2, 3, 3, 2, 1]), ("4d2", [1, 2, 1, 2, 2, 1])] {
        throw_until(
            notation,
            |r| {
                r.every_throw_is_shown(|f| marks[(f - 1) as usize], false);
                assert_eq!(r.total, r.kept_sum());
            },
            |r| r.chains.iter().any(|c| c[0] > 3),
        );
    }
    // Critical marks change no total.
    throw_until(
        "6d10cs>9cf<2",
        |r| {
            r.every_throw_is_shown(face, false);
            for d in &r.shown {
                let want = if d.value >= 9 {
                    Some(Critical::Success)
                } else if d.value <= 2 {
                    Some(Critical::Failure)
                } else {
                    None
                };
                assert_eq!(d.critical, want, "{r:?}");
            }
            assert_eq!(r.total, r.kept_sum());
        },
        |r| r.shown.iter().any(|d| d.critical.is_some()),
    );
    // A group of one roll with a target: each die counted with the numbers added (Roll20).
    throw_until(
        "{3d20+5}>21",
        |r| {
            r.every_throw_is_shown(face, false);
            assert_eq!(r.measure, "successes");
            for d in &r.shown {
                assert_eq!(d.success, d.value + 5 >= 21, "{r:?}");
            }
            assert_eq!(r.total, r.marked_successes());
        },
        |r| r.total >= 2,
    );
    // Matches: the sets of dice showing one value, counted and marked.
    throw_until(
        "4d6mt",
        |r| {
            r.every_throw_is_shown(face, false);
            assert_eq!(r.measure, "matches");
            let shown_by = |v: i64| r.shown.iter().filter(|d| d.value == v).count();
            for d in &r.shown {
                assert_eq!(d.matched, shown_by(d.value) >= 2, "{r:?}");
            }
            let sets = (1..=6).filter(|v| shown_by(*v) >= 2).count() as i64;
            assert_eq!(r.total, sets, "{r:?}");
        },
        |r| r.total == 2,
    );
    // A count worked out from numbers, and the power.
    throw_until(
        "(1+1)d6**2",
        |r| {
            r.every_throw_is_shown(face, false);
            assert_eq!(r.shown.len(), 2);
            assert_eq!(r.total, r.kept_sum() * r.kept_sum());
        },
        |r| r.total > 100,
    );
    // A group compared: its total, passed or failed (Roll20's way: beside a roll of nothing).
    throw_until(
        "{3d6+5,0d0}>15",
        |r| {
            r.every_throw_is_shown(face, false);
            assert_eq!(r.total, r.kept_sum() + 5);
            assert_eq!(r.success, Some(r.total >= 15), "{r:?}");
        },
        |r| r.success == Some(true),
    );
    // A group keeping among one roll's dice.
    throw_until(
        "{4d6+2d8}kh3",
        |r| {
            r.every_throw_is_shown(face, false);
            assert_eq!(r.total, r.highest(3), "{r:?}");
            assert_eq!(r.total, r.kept_sum());
        },
        |_| true,
    );
    // Math and labels.
    throw_until(
        "floor(3d6/2)+1",
        |r| {
            r.every_throw_is_shown(face, false);
            assert_eq!(r.total, r.kept_sum().div_euclid(2) + 1, "{r:?}");
        },
        |r| r.kept_sum() % 2 == 1,
    );
    // A division left unrounded keeps its half, as Roll20 does (5.5), exactly.
    throw_until(
        "3d6/2",
        |r| {
            r.every_throw_is_shown(face, false);
            let half = Total::fraction(r.kept_sum().into(), 2).expect("a half");
            assert_eq!(r.total, half, "{r:?}");
        },
        |r| r.kept_sum() % 2 == 1,
    );
    throw_until("2d6[slashing]+1d6[fire]", holds_by_roll20, |_| true);
}

#[test]
fn a_room_throws_each_form_and_every_client_reads_the_same_dice() {
    let _lane = crate::beside_real_time();
    let data = data_dir("roll20");
    let server = Server::start(&data, "127.0.0.1:0");
    let url = server.url("crypt");
    runtime().block_on(async {
        let mut gm = gm_opens(&url, Checks { physics: true }).await;
        let mut pat = pat_plays_ash(&url).await;
        for notation in SERVED_FORMS {
            let seq = pat
                .throw(Proposal::Notation(notation.into()), None, false, None)
                .await
                .unwrap_or_else(|e| panic!("{notation}: {e}"));
            gm.sync_to(seq).await.expect("the game master sees it");
            let line = gm
                .lines
                .iter()
                .filter_map(|l| Entry::parse(l).ok())
                .find(|e| e.seq == seq)
                .expect("the throw's line");
            let Event::Thrown { record, by, .. } = line.event else {
                panic!("{notation}: not a throw: {line:?}");
            };
            assert_eq!(by, "Pat");
            let roll = Answered::reread(&record);
            holds_by_roll20(&roll);
            if roll.measure == "successes" {
                // "1 success", "0 successes", "3 successes".
                let count = roll.total.as_whole().expect("a count of successes");
                let told = dicetable::text::plural(count, "success", "successes");
                assert_eq!(record.outcome.as_deref(), Some(told.as_str()), "{notation}");
            } else {
                assert_eq!(record.total, Some(roll.total), "{notation}");
            }
        }
        // The game master's client threw each again from its seed: the same faces.
        assert!(gm.failures.is_empty(), "{:?}", gm.failures);
        assert_eq!(
            gm.room.as_ref().expect("in the room").mismatches,
            Vec::<String>::new()
        );
    });
}

#[test]
fn the_odds_of_every_form_agree_with_icepool() {
    let _lane = crate::beside_real_time();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let setup = Command::new("bash")
        .arg("scripts/icepool-python.sh")
        .current_dir(root)
        .output()
        .expect("bash");
    assert!(
        setup.status.success(),
        "no Python with icepool: {}",
        stderr(&setup)
    );
    let python = stdout(&setup).trim().to_string();
    let out = Command::new(&python)
        .args(["scripts/notation-vs-icepool.py", "--json", "--bin"])
        .arg(env!("CARGO_BIN_EXE_dicetable"))
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "the check did not run: {}",
        stderr(&out)
    );
    let report: Value = serde_json::from_str(&stdout(&out)).expect("a JSON report");
    let cases = report["cases"].as_array().expect("cases");
    assert_eq!(report["icepool"], "2.1.3");
    assert_eq!(
        cases.len(),
        122,
        "every case of scripts/icepool_notation.py"
    );
    let disagree: Vec<&Value> = cases.iter().filter(|c| c["agrees"] != true).collect();
    assert!(
        disagree.is_empty(),
        "dicetable and icepool differ: {disagree:#?}"
    );
    // Closed forms agree to the last digit of every fraction.
    for c in cases.iter().filter(|c| c["exact"] == true) {
        assert_eq!(c["largest_difference"], 0.0, "{c}");
    }
    assert_eq!(out.status.code(), Some(0));
}
