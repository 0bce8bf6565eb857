//! The command line as other tools call it.

use serde_json::Value;

use crate::{dicetable, stderr, stdout};

fn json(args: &[&str]) -> Value {
    let out = dicetable(args);
    assert!(out.status.success(), "{args:?} failed: {}", stderr(&out));
    serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{args:?} printed no JSON ({e}): {}", stdout(&out)))
}

#[test]
fn odds_of_a_notation_as_json() {
    let _lane = crate::beside_real_time();
    // 3d6 >= 11: 108/216 = 1/2 (the sums 11..18 mirror 3..10): a total compared, Roll20's
    // way, beside a roll of nothing.
    let j = json(&["odds", "{3d6,0d0}>=11", "--json"]);
    assert_eq!(j["exact_success"], "1/2");
    assert_eq!(j["mean"], 10.5);
    let dist = j["distribution"].as_array().expect("distribution");
    assert_eq!(dist.len(), 16);
    assert_eq!(dist[0]["exact"], "1/216");
}

#[test]
fn odds_of_each_ruleset_action_as_json() {
    let _lane = crate::beside_real_time();
    let cases = [
        (
            "d4-pool",
            r#"(aspect: 6, load: 2, extra: ["d4"], target: Evasion(11))"#,
            "hit",
            "667/1024",
        ),
        (
            "action-dice",
            "(kind: Skill, action_dice: 1, dice: 1, target: Some(10))",
            "success",
            "1/6",
        ),
        (
            "step-dice",
            r#"(ability: ["d6"], difficulty: "Challenging", position: Neutral)"#,
            "success",
            "3/4",
        ),
        (
            "open-d6",
            "(roll: Closed, skill: 10, difficulty: 12)",
            "success",
            "5/18",
        ),
        (
            "d20-check",
            "(proficiency: 3, modifier: 2, dc: 15, edge: Advantage)",
            "success",
            "319/400",
        ),
    ];
    for (id, action, class, exact) in cases {
        let j = json(&["odds", "--ruleset", id, "--action", action, "--json"]);
        assert_eq!(j["classes"][class]["exact"], exact, "{id}");
        assert_eq!(j["exact_success"], exact, "{id}");
    }
}

#[test]
fn odds_human_table_and_errors() {
    let _lane = crate::beside_real_time();
    let out = dicetable(&["odds", "2d6"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("1/6") && text.contains("█"), "{text}");
    let bad = dicetable(&["odds", "2d6+q"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("character 5"), "{}", stderr(&bad));
    let bad_ron = dicetable(&[
        "odds",
        "--ruleset",
        "open-d6",
        "--action",
        "(roll: Standard, skill: ten)",
    ]);
    assert_eq!(bad_ron.status.code(), Some(2));
    assert!(stderr(&bad_ron).contains("1:"), "{}", stderr(&bad_ron));
    // A notation may start with a minus, for odds and roll alike.
    let negative = json(&["odds", "-1d4+5", "--json"]);
    let values: Vec<i64> = negative["distribution"]
        .as_array()
        .expect("a distribution")
        .iter()
        .map(|v| v["value"].as_i64().expect("a value"))
        .collect();
    assert_eq!(values, [1, 2, 3, 4]);
    let thrown = json(&["roll", "-1d4+5", "--seed", "3", "--json"]);
    assert!(
        (1..=4).contains(&thrown["total"].as_i64().expect("a total")),
        "{thrown}"
    );
    // A die with no physical shape: refused by odds as by roll, with the same words.
    let (odds, roll) = (dicetable(&["odds", "3d31"]), dicetable(&["roll", "3d31"]));
    assert_eq!((odds.status.code(), roll.status.code()), (Some(2), Some(2)));
    assert!(
        stderr(&odds).contains("a d31 has no physical die"),
        "{}",
        stderr(&odds)
    );
    assert_eq!(stderr(&odds), stderr(&roll));
}

#[test]
fn roll_is_physical_and_replays_from_its_seed() {
    let _lane = crate::beside_real_time();
    let args = ["roll", "{2d6+d20+d%+1,0d0}>=10", "--seed", "77", "--json"];
    let first = json(&args);
    let again = json(&args);
    assert_eq!(first, again, "same seed, same roll");
    let dice = first["dice"].as_array().expect("dice");
    assert_eq!(dice.len(), 4);
    let values: Vec<i64> = dice
        .iter()
        .map(|d| d["value"].as_i64().expect("value"))
        .collect();
    assert!((1..=6).contains(&values[0]) && (1..=6).contains(&values[1]));
    assert!((1..=20).contains(&values[2]) && (1..=100).contains(&values[3]));
    assert_eq!(
        first["total"].as_i64(),
        Some(values.iter().sum::<i64>() + 1)
    );
    assert_eq!(
        first["success"].as_bool(),
        Some(values.iter().sum::<i64>() + 1 >= 10)
    );
    assert_eq!(first["seed"], 77);
    let other = json(&["roll", "{2d6+d20+d%+1,0d0}>=10", "--seed", "78", "--json"]);
    assert_ne!(first["dice"], other["dice"]);
}

/// Issue #68: the dice of other sizes throw and settle, each face read as a number of the die
/// (a d7's fourteen kites read 1 to 7), and replay from the record.
#[test]
fn the_dice_of_other_sizes_throw_and_settle() {
    let _lane = crate::beside_real_time();
    for (notation, sides) in [
        ("3d7", 7),
        ("1d5", 5),
        ("2d14", 14),
        ("1d16", 16),
        ("1d24", 24),
        ("1d30", 30),
        ("1d13", 13),
        ("2d9", 9),
        ("1d11", 11),
        ("1d15", 15),
        ("1d18", 18),
        ("1d22", 22),
        ("1d26", 26),
        ("1d28", 28),
        ("2d17", 17),
        ("1d19", 19),
        ("1d21", 21),
        ("1d23", 23),
        ("1d25", 25),
        ("1d27", 27),
        ("1d29", 29),
    ] {
        for seed in ["1", "2"] {
            let j = json(&["roll", notation, "--seed", seed, "--json"]);
            for die in j["dice"].as_array().expect("dice") {
                assert_eq!(die["die"], format!("d{sides}"), "{notation}");
                let value = die["value"].as_u64().expect("a value");
                assert!(
                    (1..=sides).contains(&value),
                    "{notation} seed {seed}: {die}"
                );
            }
            let code = j["code"].as_str().expect("a replay code");
            let digest = j["record"]["digest"].as_str().expect("a digest");
            let again = dicetable(&["replay", code]);
            assert_eq!(again.status.code(), Some(0), "{notation}");
            assert!(
                stdout(&again).contains(&format!(
                    "identical: every face and final pose matches (digest {digest})"
                )),
                "{notation}: {}",
                stdout(&again)
            );
        }
    }
}

#[test]
fn roll_refuses_dice_that_do_not_exist() {
    let _lane = crate::beside_real_time();
    let out = dicetable(&["roll", "3d31"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no physical die"), "{}", stderr(&out));
}

#[test]
fn fairness_reports_its_figures() {
    let _lane = crate::beside_real_time();
    let j = json(&[
        "fairness", "--die", "d8", "--throws", "200", "--seed", "5", "--json",
    ]);
    assert_eq!(j["throws"], 200);
    let counts: u64 = j["counts"]
        .as_array()
        .expect("counts")
        .iter()
        .map(|c| c["count"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(counts, 200);
    assert_eq!(j["degrees_of_freedom"], 7);
    let p = j["p_value"].as_f64().expect("p");
    assert!((0.0..=1.0).contains(&p));
    assert!(
        j["settle_time"]["p99"].as_f64().expect("p99")
            >= j["settle_time"]["median"].as_f64().expect("median")
    );
    let bad = dicetable(&["fairness", "--die", "d31"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// Runs one of `scripts/` with the tests' `dicetable` as its binary: its standard output.
fn script(name: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new("bash")
        .arg(format!("{root}/scripts/{name}"))
        .args(args)
        .env("DICETABLE_BIN", env!("CARGO_BIN_EXE_dicetable"))
        .envs(env.iter().copied())
        .current_dir(root)
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{name} {args:?} failed: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn the_table_servers_benchmarks_run_and_print_their_figures() {
    // Run small, so that a change to the server, the load tool or the scripts that stops them
    // fails here rather than on the day they are next measured.
    let _lane = crate::beside_real_time();
    let cpu = script("server-cpu.sh", &["2", "3", "6"], &[("WARMUP", "2")]);
    eprintln!("{cpu}");
    assert!(
        cpu.contains("6 clients in 2 rooms") && cpu.contains("joins refused 0"),
        "{cpu}"
    );
    assert!(cpu.contains("ms a throw"), "{cpu}");
    let load = script("online-bench.sh", &["2", "3", "1000", "3"], &[]);
    eprintln!("{load}");
    assert!(
        load.contains("6 clients in 2 rooms") && load.contains("joins refused 0"),
        "{load}"
    );
    assert!(load.contains("peak memory"), "{load}");
    // The same throws kept in a NATS JetStream of the script's own.
    let nats = script(
        "server-cpu.sh",
        &["2", "3", "6"],
        &[("WARMUP", "2"), ("STORE", "nats")],
    );
    eprintln!("{nats}");
    assert!(
        nats.contains("6 clients in 2 rooms") && nats.contains("joins refused 0"),
        "{nats}"
    );
    assert!(
        nats.contains("server (nats)") && nats.contains("nats-server, the same time"),
        "{nats}"
    );
}

#[test]
fn the_atlas_benchmark_makes_every_kinds_atlas_for_a_new_look() {
    // What a member's new dice cost the server (docs/performance.md): run here so that it still
    // runs on the day it is next measured; its times are the measurement's, not this test's.
    let _lane = crate::beside_real_time();
    let out = dicetable(&["bench", "--atlases", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let figures: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let kinds = figures["atlases"].as_array().expect("atlases");
    let names: Vec<&str> = kinds.iter().filter_map(|k| k["kind"].as_str()).collect();
    // Every kind, the dice of other sizes (d5 ... d30) after the first ten.
    let every: Vec<&str> = dicetable::dice::DieKind::ALL
        .iter()
        .map(|k| k.id())
        .collect();
    assert_eq!(names, every);
    assert_eq!(
        names[..10],
        [
            "d4", "d6", "d8", "d10", "d10t", "d12", "d20", "d2", "d3", "dF"
        ]
    );
    let bytes: u64 = kinds.iter().filter_map(|k| k["bytes"].as_u64()).sum();
    assert_eq!(figures["every_kind_bytes"].as_u64(), Some(bytes));
    assert!(kinds.iter().all(|k| k["bytes"].as_u64() > Some(1000)));
}
