//! The tests of `scene.rs`.

use super::*;
use crate::rules::{Refusal, RefusalKind};

#[test]
fn every_scene_file_of_the_repository_ships_compiled_in_and_unpacks_whole() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut on_disk = Vec::new();
    for sub in ["", "rules", "demos"] {
        for f in scene_files(&root.join(sub)) {
            let name = f.strip_prefix(&root).expect("under scenes/");
            on_disk.push(name.to_string_lossy().replace('\\', "/"));
        }
    }
    on_disk.sort();
    let mut shipped: Vec<String> = SHIPPED.iter().map(|(n, _)| n.to_string()).collect();
    shipped.sort();
    assert_eq!(shipped, on_disk);

    let dir = std::env::temp_dir().join(format!("dicetable-shipped-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::write(dir.join("d20-check-crypt.ron"), "my own").expect("written");
    unpack_shipped(&dir).expect("unpacked");
    assert_eq!(
        std::fs::read_to_string(dir.join("d20-check-crypt.ron")).expect("read"),
        "my own",
        "a file already there is kept"
    );
    for (name, text) in SHIPPED.iter().filter(|(n, _)| *n != "d20-check-crypt.ron") {
        assert_eq!(
            std::fs::read_to_string(dir.join(name)).expect("read"),
            *text
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn shipped() -> Vec<(std::path::PathBuf, Scene)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    scene_files(&dir)
        .into_iter()
        .map(|p| {
            let s = Scene::load(&p).unwrap_or_else(|e| panic!("{e}"));
            (p, s)
        })
        .collect()
}

#[test]
fn numbers_out_of_range_in_a_scene_are_refused_with_the_field() {
    let mut scene = crate::rules::testing::scene("d4-pool-goblin-ambush.ron");
    if let Cast::D4Pool(cs) = &mut scene.cast {
        cs[0].aspects.insert("Finesse".into(), i32::MAX);
    }
    assert_eq!(
        scene.validate(),
        Err(Refusal::new(
            RefusalKind::Scene,
            "Vex the Rogue's Aspect Finesse is 2147483647: it must be from -100 to 100"
        ))
    );
    let mut scene = crate::rules::testing::scene("open-d6-fred-and-peter.ron");
    if let Cast::OpenD6(cs) = &mut scene.cast {
        cs[0].reflexes = i64::MAX;
    }
    assert_eq!(
        scene.validate(),
        Err(Refusal::new(
            RefusalKind::Scene,
            "Fred's reflexes is 9223372036854775807: it must be from -1000 to 1000"
        ))
    );
}

/// A scene file in a fresh folder of its own, with a rules file beside it.
fn scene_with_rules_file(name: &str, scene: &str, rules: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dicetable-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("rules")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("rules/own.ron"), rules).unwrap_or_else(|e| panic!("{e}"));
    let path = dir.join("scene.ron");
    std::fs::write(&path, scene).unwrap_or_else(|e| panic!("{e}"));
    path
}

#[test]
fn a_scene_reads_no_rules_file_outside_its_folder() {
    let dir = std::env::temp_dir().join(format!("dicetable-confined-{}", std::process::id()));
    let scenes = dir.join("scenes");
    let _ = std::fs::create_dir_all(scenes.join("rules"));
    let rules = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/rules/step-dice-dangerous.ron"),
    )
    .unwrap_or_default();
    let _ = std::fs::write(dir.join("secret.ron"), &rules);
    let _ = std::fs::write(scenes.join("rules/own.ron"), &rules);
    let scene = |file: &str| {
        VAULT_WITH_FILE.replace(r#"File("rules/own.ron")"#, &format!(r#"File("{file}")"#))
    };
    let _ = std::fs::write(scenes.join("inside.ron"), scene("rules/own.ron"));
    let _ = std::fs::write(scenes.join("outside.ron"), scene("../secret.ron"));
    let absolute = dir.join("secret.ron").display().to_string();
    let _ = std::fs::write(scenes.join("absolute.ron"), scene(&absolute));
    let inside = Scene::load(&scenes.join("inside.ron"));
    assert!(inside.is_ok(), "{inside:?}");
    for outside in ["outside.ron", "absolute.ron"] {
        let error = Scene::load(&scenes.join(outside)).map(|_| ()).unwrap_err();
        assert!(
            error.to_string().contains("outside the scene's folder"),
            "{error}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const VAULT_WITH_FILE: &str = r#"(name: "Vault", cast: StepDice([(name: "Ana", skills: [("Locks", "d10")])]), rules: File("rules/own.ron"))"#;

#[test]
fn a_scene_plays_by_its_rules_file_and_carries_it_when_shared() {
    use crate::rules::testing::{book, play, scene};
    let dangerous = scene("step-dice-vault-dangerous.ron");
    let shipped = scene("step-dice-vault.ron");
    assert!(matches!(
        &dangerous.rules,
        Some(SceneRules::StepDice(r)) if r.dangerous_encounters
    ));
    assert_eq!(
        dangerous.rules_in_words(),
        "its own rules: dangerous_encounters"
    );
    assert_eq!(shipped.rules_in_words(), "shipped rules");
    // The same move and faces: a tie is Ana's with the shipped rules, the world's here.
    let tie: crate::rules::play::Move = parse_ron(
        "move",
        r#"StepDice(Act(actor: 0, skill: "Locks", difficulty: "Hard"))"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let outcome = |s: &Scene| {
        let mut table = crate::rules::table::TableState::new(s, &book(), 1);
        let (outcome, _) = play(&mut table, &tie, &[&[5, 5]]);
        (outcome.total, outcome.success)
    };
    assert_eq!(outcome(&shipped), (0, Some(true)));
    assert_eq!(outcome(&dangerous), (0, Some(false)));
    // Shared (a room's log, the front page), the scene carries its rules written in, and
    // reads back the same without the file.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/step-dice-vault-dangerous.ron");
    let (loaded, text) = Scene::load_text(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!text.contains("File("), "{text}");
    assert_eq!(Scene::parse("shared", &text), Ok(loaded.clone()));
    assert_eq!(loaded, dangerous);
    // A scene without its own rules is shared as written, comments and all.
    let plain = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/step-dice-vault.ron");
    let (_, text) = Scene::load_text(&plain).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        Ok(text),
        std::fs::read_to_string(&plain).map_err(|e| e.to_string())
    );
}

#[test]
fn a_broken_or_foreign_rules_file_is_refused_with_its_place() {
    // Broken RON: the rules file, its line and column.
    let path = scene_with_rules_file(
        "broken-rules",
        VAULT_WITH_FILE,
        "(\n    dangerous_encounters: maybe,\n)",
    );
    let err = Scene::load(&path).expect_err("broken");
    assert!(err.file.ends_with("rules/own.ron"), "{err}");
    assert_eq!((err.line, err.column), (2, 26), "{err}");
    // A rules file that reads but breaks the rules' own checks.
    let mut rules = crate::rules::testing::book().step_dice;
    rules.marginal_max = 0;
    let text = ron::ser::to_string(&rules).unwrap_or_else(|e| panic!("{e}"));
    let path = scene_with_rules_file("invalid-rules", VAULT_WITH_FILE, &text);
    let err = Scene::load(&path).expect_err("invalid");
    assert!(err.file.ends_with("rules/own.ron"), "{err}");
    assert_eq!(err.line, 0, "{err}");
    // A number out of the range the rules take (a scene's rules may be anyone's upload).
    rules.marginal_max = i64::MAX;
    let text = ron::ser::to_string(&rules).unwrap_or_else(|e| panic!("{e}"));
    let inline = VAULT_WITH_FILE.replace(r#"File("rules/own.ron")"#, &format!("StepDice({text})"));
    let err = Scene::parse("inline.ron", &inline).expect_err("out of range");
    assert_eq!(
        err.message,
        "rules: marginal_max is 9223372036854775807: it must be from -1000 to 1000"
    );
    // A missing rules file is named from the scene.
    let path = scene_with_rules_file(
        "missing-rules",
        &VAULT_WITH_FILE.replace("own.ron", "gone.ron"),
        "()",
    );
    let err = Scene::load(&path).expect_err("missing");
    assert!(err.file.ends_with("scene.ron"), "{err}");
    assert!(
        err.message.starts_with("cannot read its rules file "),
        "{err}"
    );
    // Rules of another ruleset, inline.
    let d20 = ron::ser::to_string(&crate::rules::testing::book().d20_check)
        .unwrap_or_else(|e| panic!("{e}"));
    let text = VAULT_WITH_FILE.replace(r#"File("rules/own.ron")"#, &format!("D20Check({d20})"));
    let err = Scene::parse("inline.ron", &text).expect_err("foreign");
    assert_eq!(
        err.message,
        "rules: the scene's rules are d20-check rules but its cast plays step-dice"
    );
    // A scene given as text cannot read a file.
    let err = Scene::parse("sent.ron", VAULT_WITH_FILE).expect_err("a file from text");
    assert!(
        err.message
            .starts_with("rules: File(\"rules/own.ron\") names a file"),
        "{err}"
    );
}

#[test]
fn every_shipped_scene_loads_and_every_ruleset_has_one() {
    let scenes = shipped();
    let rulesets: BTreeSet<RulesetId> = scenes.iter().map(|(_, s)| s.ruleset()).collect();
    assert_eq!(rulesets.len(), RulesetId::ALL.len(), "{rulesets:?}");
}

#[test]
fn the_rule_texts_examples_are_seated() {
    let names: Vec<String> = shipped()
        .iter()
        .flat_map(|(_, s)| s.names().into_iter().map(String::from).collect::<Vec<_>>())
        .collect();
    for who in [
        "Fred",
        "Peter",
        "Vex the Rogue",
        "Goblin",
        "Sir Aldric",
        "Mirelle the Magician",
    ] {
        assert!(
            names.iter().any(|n| n == who),
            "{who} is missing: {names:?}"
        );
    }
}

#[test]
fn the_documented_example_is_a_valid_scene() {
    let block = crate::rules::testing::docs_ron_block("cast:");
    let scene = Scene::parse("docs/systems.md", block).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scene.ruleset(), RulesetId::OpenD6);
    assert_eq!(scene.names(), vec!["Fred", "Peter", "Goons"]);
}

#[test]
fn bad_scenes_are_reported_with_place_or_reason() {
    let err = Scene::parse(
        "scenes/bad.ron",
        "(name: \"x\", cast: OpenD6([(name: \"A\", reflexes: \"fast\")]))",
    )
    .expect_err("must fail");
    assert_eq!((err.file.as_str(), err.line), ("scenes/bad.ron", 1));
    assert!(err.column > 30, "{err}");
    let err = Scene::parse(
        "scenes/twice.ron",
        "(name: \"x\", cast: OpenD6([(name: \"A\", reflexes: 5), (name: \"a\", reflexes: 6)]))",
    )
    .expect_err("must fail");
    assert!(err.message.contains("two characters"), "{err}");
    let err = Scene::parse(
        "s.ron",
        "(name: \"x\", cast: D20Check([(name: \"A\", side: Players, proficiency: 2)]))",
    )
    .expect_err("must fail");
    assert!(err.message.contains("Gamemaster"), "{err}");
    let err = Scene::parse(
        "s.ron",
        "(name: \"x\", cast: StepDice([(name: \"A\", skills: [(\"Locks\", \"d20\")])]))",
    )
    .expect_err("must fail");
    assert!(err.message.contains("d4 to d12"), "{err}");
}

#[test]
fn open_d6_limitations_friction_and_schticks_are_checked() {
    let refused = |character: &str| {
        Scene::parse(
            "s.ron",
            &format!("(name: \"x\", cast: OpenD6([(name: \"A\", reflexes: 5, skills: [(\"Dodge\", 9)], {character})]))"),
        )
        .map(|_| ())
        .expect_err("must fail")
        .message
    };
    assert_eq!(
        refused("limitations: [(number: 4, name: \"Bad knee\")]"),
        "A's Limitation Bad knee has friction number 4: snake-eye Limitations are numbered 1 to 3"
    );
    assert_eq!(
        refused("limitations: [(number: 1, name: \"x\"), (number: 1, name: \"y\")]"),
        "A has two Limitations numbered 1: each number is one Limitation's"
    );
    assert_eq!(
        refused("under_friction: [2]"),
        "A is under friction 2: the conditions one can be under are the faces 4 to 6 (1 to 3 are Limitations)"
    );
    assert_eq!(
        refused("schticks: [(name: \"Gun Kata\", skill: \"Shoot\", bonus: 2)]"),
        "A's schtick Gun Kata modifies Shoot, which is not among its skills"
    );
    assert_eq!(
        refused("schticks: [(name: \"Iron\", skill: \"Dodge\", bonus: 1, kind: \"Body\")]"),
        "A's schtick Iron has a type but is not a stance: only stances are typed"
    );
    assert!(
        refused("schticks: [(name: \"Iron\", skill: \"Dodge\", bonus: 1001)]")
            .contains("A's schtick Iron bonus is 1001: it must be from -1000 to 1000")
    );
    assert!(refused("hits: 0").contains("A's hits is 0: it must be from 1 to 1000"));
}

/// Every shipped scene is within the upload limits; past them, an upload is refused at the line
/// and column of what is over, and a stored room's scene is never held to them.
#[test]
fn an_upload_is_held_to_the_limits_at_the_line_of_what_is_over() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    for file in scene_files(&root) {
        let (scene, text) = Scene::load_text(&file).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(scene.check_upload("the scene", &text), Ok(()), "{file:?}");
    }
    let (_, text) = Scene::load_text(&root.join("system-highest-d6.ron")).expect("a scene");
    let refused = |text: &str| {
        let scene = Scene::parse("the scene", text).unwrap_or_else(|e| panic!("{e}"));
        scene
            .check_upload("the scene", text)
            .expect_err("over a limit")
            .to_string()
    };
    let long = text.replacen("\"Quill\"", &format!("\"{}\"", "Q".repeat(65)), 1);
    let said = refused(&long);
    assert!(
        said.ends_with("a character's name is over 64 characters"),
        "{said}"
    );
    let quill_line = text
        .lines()
        .position(|l| l.contains("\"Quill\""))
        .expect("Quill");
    assert!(
        said.starts_with(&format!("the scene:{}:", quill_line + 1)),
        "{said}"
    );
    let turned = text.replacen("\"Quill\"", "\"Qu\u{202e}ill\"", 1);
    assert!(refused(&turned).contains("direction overrides"));
    let (band, _) = text
        .match_indices("changes: [")
        .next()
        .expect("a band's changes");
    let many = std::iter::repeat_n("(resource: \"alarm\", by: 0)", 13)
        .collect::<Vec<_>>()
        .join(", ");
    let flooded = format!("{}changes: [{many}, {}", &text[..band], &text[band + 10..]);
    let said = refused(&flooded);
    assert!(
        said.contains("13 changes of a band: a list of a system file holds at most 12"),
        "{said}"
    );
    // What a stored room reads is never refused by them: the scene still opens.
    assert!(Scene::parse("the scene", &flooded).is_ok());
}
