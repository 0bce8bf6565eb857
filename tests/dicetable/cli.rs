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
    // 3d6 >= 11: 108/216 = 1/2 (the sums 11..18 mirror 3..10).
    let j = json(&["odds", "3d6>=11", "--json"]);
    assert_eq!(j["exact_success"], "1/2");
    assert_eq!(j["mean"], 10.5);
    let dist = j["distribution"].as_array().expect("distribution");
    assert_eq!(dist.len(), 16);
    assert_eq!(dist[0]["exact"], "1/216");
}

#[test]
fn odds_of_each_ruleset_action_as_json() {
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
}

#[test]
fn unbuilt_commands_say_so() {
    let out = dicetable(&["fairness", "--die", "d6"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not built yet"));
}
