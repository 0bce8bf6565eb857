//! The shipped system files: the exact odds of every band against probabilities worked out
//! here by counting every throw with plain loops (not with the program's odds), and the
//! errors of broken and out-of-bounds files with their line and column.

use std::collections::BTreeMap;

use num_bigint::BigUint;

use super::seat::Picked;
use crate::odds::Prob;
use crate::rules::Move;
use crate::rules::data::parse_ron;
use crate::rules::testing::{play, table};

fn make(actor: usize, name: &str, choices: &[(&str, Picked)]) -> Move {
    Move::SystemFile(super::Move::Make {
        actor,
        name: name.into(),
        choices: choices
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<BTreeMap<_, _>>(),
    })
}

fn name(s: &str) -> Picked {
    Picked::Name(s.into())
}

/// Every band's probability, by name, from the program's odds.
fn bands(scene: &str, m: &Move) -> BTreeMap<String, Prob> {
    let t = table(scene);
    let odds = t
        .odds(m)
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("a throw");
    odds.classes.into_iter().collect()
}

/// Counts, over every throw of dice of `sides`, how often each band `band_of` names comes up.
fn count(sides: &[u32], band_of: impl Fn(&[u32]) -> &'static str) -> BTreeMap<String, Prob> {
    let total: u64 = sides.iter().map(|s| u64::from(*s)).product();
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut faces = vec![1u32; sides.len()];
    for mut k in 0..total {
        for (f, s) in faces.iter_mut().zip(sides) {
            *f = (k % u64::from(*s)) as u32 + 1;
            k /= u64::from(*s);
        }
        *counts.entry(band_of(&faces).to_string()).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|(b, c)| (b, Prob::new(BigUint::from(c), BigUint::from(total))))
        .collect()
}

/// The program's odds and the count agree on every band the count finds, and every other band
/// of the program is impossible.
fn agree(program: &BTreeMap<String, Prob>, counted: &BTreeMap<String, Prob>) {
    for (band, p) in program {
        let expected = counted.get(band).cloned().unwrap_or_else(Prob::zero);
        assert_eq!(
            p,
            &expected,
            "{band}: {} against {}",
            p.exact(),
            expected.exact()
        );
    }
    for band in counted.keys() {
        assert!(
            program.contains_key(band),
            "{band} is no band of the program's odds"
        );
    }
}

#[test]
fn moves_2d6_bands_are_the_counted_chances() {
    // Rook, Steel +2: 2d6 + 2.
    let m = make(0, "Act under pressure", &[("stat", name("Steel"))]);
    let counted = count(&[6, 6], |f| match f[0] + f[1] + 2 {
        10.. => "strong hit",
        7..=9 => "weak hit",
        _ => "miss",
    });
    agree(&bands("system-moves-2d6.ron", &m), &counted);
    assert_eq!(counted["strong hit"], Prob::new(15u32.into(), 36u32.into()));
    // Vesna, Charm +2, forward -3: 2d6 - 1.
    let m = make(
        1,
        "Act under pressure",
        &[("stat", name("Charm")), ("bonus", Picked::Number(-3))],
    );
    let counted = count(&[6, 6], |f| match f[0] + f[1] {
        11.. => "strong hit",
        8..=10 => "weak hit",
        _ => "miss",
    });
    agree(&bands("system-moves-2d6.ron", &m), &counted);
}

#[test]
fn highest_d6_bands_are_the_counted_chances() {
    let scene = "system-highest-d6.ron";
    let read = |f: &[u32]| -> &'static str {
        let sixes = f.iter().filter(|x| **x == 6).count();
        match f.iter().max() {
            _ if sixes >= 2 => "critical",
            Some(6) => "full success",
            Some(4 | 5) => "partial success",
            _ => "bad outcome",
        }
    };
    // Nyx, Prowl 3; pushing herself and a bonus die make it 5.
    agree(
        &bands(scene, &make(0, "Action roll", &[("rating", name("Prowl"))])),
        &count(&[6; 3], read),
    );
    let five = make(
        0,
        "Action roll",
        &[
            ("rating", name("Prowl")),
            ("push", name("push yourself: +1d for 2 stress")),
            ("bonus", Picked::Number(1)),
        ],
    );
    agree(&bands(scene, &five), &count(&[6; 5], read));
    // Hunt 0: two dice, the lower counts, no critical.
    let zero = count(&[6, 6], |f| match f[0].min(f[1]) {
        6 => "full success",
        4 | 5 => "partial success",
        _ => "bad outcome",
    });
    let program = bands(scene, &make(0, "Action roll", &[("rating", name("Hunt"))]));
    agree(&program, &zero);
    assert_eq!(program["critical"], Prob::zero());
    // Quill resists with Insight 2: 6 minus the highest die in stress.
    let resist = count(&[6, 6], |f| {
        if f[0] == 6 && f[1] == 6 {
            return "critical resistance";
        }
        [
            "",
            "resisted for 5 stress",
            "resisted for 4 stress",
            "resisted for 3 stress",
            "resisted for 2 stress",
            "resisted for 1 stress",
            "resisted for 0 stress",
        ][f[0].max(f[1]) as usize]
    });
    agree(
        &bands(
            scene,
            &make(2, "Resistance roll", &[("attribute", name("Insight"))]),
        ),
        &resist,
    );
}

#[test]
fn count_sixes_bands_and_its_push_are_the_counted_chances() {
    let scene = "system-count-sixes.ron";
    let read = |f: &[u32]| match f.iter().filter(|x| **x == 6).count() {
        0 => "failure",
        1 => "success",
        _ => "success with extras",
    };
    // Okoye, Strength 4 + Force 2: six dice, 46,656 throws.
    let m = make(
        0,
        "Skill roll",
        &[("attribute", name("Strength")), ("skill", name("Force"))],
    );
    let counted = count(&[6; 6], read);
    assert_eq!(
        counted["failure"],
        Prob::new(15625u32.into(), 46656u32.into())
    );
    agree(&bands(scene, &m), &counted);
    // Her throw shows one 6: a push throws the other five again, the 6 stays.
    let mut t = table(scene);
    play(&mut t, &m, &[&[6, 1, 2, 3, 4, 5]]);
    let push = Move::SystemFile(super::Move::Push { actor: 0 });
    let odds = t.odds(&push).expect("allowed").expect("a throw");
    let program: BTreeMap<String, Prob> = odds.classes.into_iter().collect();
    let counted = count(&[6; 5], |f| match f.iter().filter(|x| **x == 6).count() {
        0 => "success",
        _ => "success with extras",
    });
    agree(&program, &counted);
    // Each 1 of the push costs 1 strain.
    let (outcome, said) = play(&mut t, &push, &[&[1, 1, 1, 2, 6]]);
    assert_eq!(
        (outcome.class.as_str(), outcome.total),
        ("success with extras", 2)
    );
    assert_eq!(said, ["Okoye's strain from 0 to 3"]);
}

#[test]
fn d20_bands_with_advantage_are_the_counted_chances() {
    let scene = "system-d20-advantage.ron";
    let mut t = table(scene);
    // Initiative first: faces that put Sefa first.
    play(
        &mut t,
        &Move::SystemFile(super::Move::Initiative),
        &[&[1, 20, 1]],
    );
    for (edge, keep) in [("neither", 0), ("advantage", 1), ("disadvantage", 2)] {
        let m = make(
            1,
            "Check",
            &[
                ("ability", name("Cha")),
                ("edge", name(edge)),
                ("bonus", Picked::Number(2)),
                ("dc", Picked::Number(15)),
            ],
        );
        let program: BTreeMap<String, Prob> = t
            .odds(&m)
            .expect("allowed")
            .expect("a throw")
            .classes
            .into_iter()
            .collect();
        let sides: &[u32] = if keep == 0 { &[20] } else { &[20, 20] };
        let counted = count(sides, |f| {
            let d = match keep {
                0 => f[0],
                1 => f[0].max(f[1]),
                _ => f[0].min(f[1]),
            };
            if d + 2 + 2 >= 15 {
                "success"
            } else {
                "failure"
            }
        });
        agree(&program, &counted);
    }
    // Death saves: a 20, 10 to 19, a 1, 2 to 9.
    let counted = count(&[20], |f| match f[0] {
        20 => "back on your feet",
        10..=19 => "success",
        1 => "two failures",
        _ => "failure",
    });
    agree(&bands(scene, &make(0, "Death save", &[])), &counted);
}

#[test]
fn challenge_dice_bands_are_the_counted_chances() {
    let scene = "system-challenge-dice.ron";
    for (actor, stat, adds) in [(0, "Iron", 0), (1, "Edge", 4), (1, "Heart", 2)] {
        let value = |s: &str| -> u32 {
            match (actor, s) {
                (0, "Iron") => 3,
                (1, "Edge") => 3,
                _ => 2,
            }
        };
        let m = make(
            actor,
            "Face danger",
            &[("stat", name(stat)), ("adds", Picked::Number(adds))],
        );
        let counted = count(&[6, 10, 10], |f| {
            let score = (f[0] + value(stat) + adds as u32).min(10);
            let beaten = u32::from(score > f[1]) + u32::from(score > f[2]);
            match (beaten, f[1] == f[2]) {
                (2, true) => "strong hit with a match",
                (2, false) => "strong hit",
                (1, _) => "weak hit",
                (_, true) => "miss with a match",
                _ => "miss",
            }
        });
        agree(&bands(scene, &m), &counted);
    }
}

#[test]
fn a_broken_system_file_names_its_line_and_column() {
    let text = include_str!("../../../scenes/rules/challenge-dice.ron");
    // A typo in a field's name.
    let broken = text.replacen("least: -6", "lest: -6", 1);
    let e = parse_ron::<super::Rules>("challenge-dice.ron", &broken).expect_err("must fail");
    let line = text
        .lines()
        .position(|l| l.contains("least: -6"))
        .expect("there")
        + 1;
    assert_eq!((e.line, e.message.contains("lest")), (line, true), "{e}");
    assert!(e.column > 0, "{e}");
    // A number out of bounds, at its own line and column.
    let far = text.replacen("most: 10, start: 2", "most: 100000, start: 2", 1);
    let e = parse_ron::<super::Rules>("challenge-dice.ron", &far).expect_err("must fail");
    let line = text
        .lines()
        .position(|l| l.contains("most: 10, start: 2"))
        .expect("there")
        + 1;
    assert_eq!(e.line, line, "{e}");
    assert!(
        e.message
            .contains("100000 is out of bounds: a system file's numbers are within ±1000"),
        "{e}"
    );
    // A band that names a resource the file lacks, and a throw that is no notation.
    let unknown = text.replacen(
        "(resource: \"health\", by: -1), (resource: \"momentum\"",
        "(resource: \"wealth\", by: -1), (resource: \"momentum\"",
        1,
    );
    assert_ne!(unknown, text);
    let e = parse_ron::<super::Rules>("challenge-dice.ron", &unknown).expect_err("must fail");
    assert!(
        e.message
            .contains("move \"Face danger\": \"wealth\" is no resource of the system"),
        "{e}"
    );
    let bad = text.replacen("1d6+$stat+$adds", "1d6+$stat+", 1);
    let e = parse_ron::<super::Rules>("challenge-dice.ron", &bad).expect_err("must fail");
    assert!(e.message.contains("move \"Face danger\""), "{e}");
    // A pool too large to work out exactly.
    let big = text.replacen(
        "throw: \"1d6+$Wits+$adds\"",
        "throw: \"20d6+$Wits+$adds\"",
        1,
    );
    let e = parse_ron::<super::Rules>("challenge-dice.ron", &big).expect_err("must fail");
    assert!(
        e.message.contains("a system move reads at most 20000"),
        "{e}"
    );
}

#[test]
fn every_shipped_system_file_reads() {
    for text in [
        include_str!("../../../assets/rules/system-file.ron"),
        include_str!("../../../scenes/rules/highest-d6.ron"),
        include_str!("../../../scenes/rules/count-sixes.ron"),
        include_str!("../../../scenes/rules/d20-advantage.ron"),
        include_str!("../../../scenes/rules/challenge-dice.ron"),
        include_str!("../../../scenes/rules/narrative-dice.ron"),
        include_str!("../../../scenes/rules/bone-dice.ron"),
    ] {
        let rules: super::Rules = parse_ron("system file", text).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            !rules.credit.is_empty(),
            "{} credits its source",
            rules.name
        );
    }
}

/// A narrative die's faces as the published dice have them, written here apart from the
/// system file: (successes, failures, advantages, threats, triumphs, despairs) per face.
type Symbols = (i64, i64, i64, i64, i64, i64);
const ABILITY: [Symbols; 8] = [
    (0, 0, 0, 0, 0, 0),
    (1, 0, 0, 0, 0, 0),
    (1, 0, 0, 0, 0, 0),
    (2, 0, 0, 0, 0, 0),
    (0, 0, 1, 0, 0, 0),
    (0, 0, 1, 0, 0, 0),
    (1, 0, 1, 0, 0, 0),
    (0, 0, 2, 0, 0, 0),
];
const PROFICIENCY: [Symbols; 12] = [
    (0, 0, 0, 0, 0, 0),
    (1, 0, 0, 0, 0, 0),
    (1, 0, 0, 0, 0, 0),
    (2, 0, 0, 0, 0, 0),
    (2, 0, 0, 0, 0, 0),
    (0, 0, 1, 0, 0, 0),
    (1, 0, 1, 0, 0, 0),
    (1, 0, 1, 0, 0, 0),
    (1, 0, 1, 0, 0, 0),
    (0, 0, 2, 0, 0, 0),
    (0, 0, 2, 0, 0, 0),
    (1, 0, 0, 0, 1, 0),
];
const BOOST: [Symbols; 6] = [
    (0, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0),
    (1, 0, 0, 0, 0, 0),
    (1, 0, 1, 0, 0, 0),
    (0, 0, 2, 0, 0, 0),
    (0, 0, 1, 0, 0, 0),
];
const DIFFICULTY: [Symbols; 8] = [
    (0, 0, 0, 0, 0, 0),
    (0, 1, 0, 0, 0, 0),
    (0, 2, 0, 0, 0, 0),
    (0, 0, 0, 1, 0, 0),
    (0, 0, 0, 1, 0, 0),
    (0, 0, 0, 1, 0, 0),
    (0, 0, 0, 2, 0, 0),
    (0, 1, 0, 1, 0, 0),
];
const CHALLENGE: [Symbols; 12] = [
    (0, 0, 0, 0, 0, 0),
    (0, 1, 0, 0, 0, 0),
    (0, 1, 0, 0, 0, 0),
    (0, 2, 0, 0, 0, 0),
    (0, 2, 0, 0, 0, 0),
    (0, 0, 0, 1, 0, 0),
    (0, 0, 0, 1, 0, 0),
    (0, 1, 0, 1, 0, 0),
    (0, 1, 0, 1, 0, 0),
    (0, 0, 0, 2, 0, 0),
    (0, 0, 0, 2, 0, 0),
    (0, 1, 0, 0, 0, 1),
];
const SETBACK: [Symbols; 6] = [
    (0, 0, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0),
    (0, 1, 0, 0, 0, 0),
    (0, 1, 0, 0, 0, 0),
    (0, 0, 0, 1, 0, 0),
    (0, 0, 0, 1, 0, 0),
];

#[test]
fn narrative_dice_bands_are_the_counted_chances() {
    let scene = "system-narrative-dice.ron";
    // (ability, proficiency, boost, difficulty, challenge, setback)
    for pool in [(2, 1, 0, 2, 0, 0), (1, 0, 1, 1, 1, 1), (1, 2, 0, 0, 2, 0)] {
        let (a, p, b, d, c, s) = pool;
        let kinds: Vec<&[Symbols]> = [
            (a, &ABILITY[..]),
            (p, &PROFICIENCY[..]),
            (b, &BOOST[..]),
            (d, &DIFFICULTY[..]),
            (c, &CHALLENGE[..]),
            (s, &SETBACK[..]),
        ]
        .into_iter()
        .flat_map(|(n, faces)| std::iter::repeat_n(faces, n))
        .collect();
        let sides: Vec<u32> = kinds.iter().map(|k| k.len() as u32).collect();
        let counted = count(&sides, |f| {
            let (mut net, mut adv, mut triumph, mut despair) = (0, 0, 0, 0);
            for (face, kind) in f.iter().zip(&kinds) {
                let (su, fa, ad, th, tr, de) = kind[*face as usize - 1];
                net += su - fa;
                adv += ad - th;
                triumph += tr;
                despair += de;
            }
            match (net >= 1, adv, triumph >= 1, despair >= 1) {
                (true, _, true, _) => "success with a triumph",
                (true, 1.., _, _) => "success with advantage",
                (true, ..=-1, _, _) => "success with threat",
                (true, ..) => "success",
                (false, _, _, true) => "failure with a despair",
                (false, 1.., _, _) => "failure with advantage",
                (false, ..=-1, _, _) => "failure with threat",
                (false, ..) => "failure",
            }
        });
        let m = make(
            0,
            "Check",
            &[
                ("ability", Picked::Number(a as i64)),
                ("proficiency", Picked::Number(p as i64)),
                ("boost", Picked::Number(b as i64)),
                ("difficulty", Picked::Number(d as i64)),
                ("challenge", Picked::Number(c as i64)),
                ("setback", Picked::Number(s as i64)),
            ],
        );
        agree(&bands(scene, &m), &counted);
    }
    // Catching a breath counts advantages left after a setback die's threat.
    let counted = count(&[8, 8, 6], |f| {
        let adv: i64 = ABILITY[f[0] as usize - 1].2 + ABILITY[f[1] as usize - 1].2
            - SETBACK[f[2] as usize - 1].3;
        match adv {
            2.. => "a long breath",
            1 => "a breath",
            _ => "no rest",
        }
    });
    let m = make(1, "Catch your breath", &[]);
    agree(&bands(scene, &m), &counted);
}

#[test]
fn bone_dice_bands_are_the_counted_chances() {
    let scene = "system-bone-dice.ron";
    // Hild has Grit 3, Tamsin Grit 2; pressing on recklessly adds 2 dice.
    for (actor, press, depth, dice) in [
        (0, "carefully", 10, 3),
        (1, "recklessly (2 more dice, 1 harm)", 14, 4),
        (0, "recklessly (2 more dice, 1 harm)", 4, 5),
    ] {
        let counted = count(&vec![6; dice], |f| {
            let skulls = f.iter().filter(|x| **x == 1).count();
            let pips: u32 = f.iter().filter(|x| **x > 1).sum();
            match (skulls, pips >= depth) {
                (3.., _) => "cursed",
                (0, true) => "clean find",
                (_, true) => "scratched find",
                _ => "nothing yet",
            }
        });
        let m = make(
            actor,
            "Delve",
            &[
                ("press", name(press)),
                ("depth", Picked::Number(i64::from(depth))),
            ],
        );
        agree(&bands(scene, &m), &counted);
    }
}

#[test]
fn a_game_dies_faces_are_read_in_their_symbols_and_words() {
    let mut t = table("system-narrative-dice.ron");
    // Two ability dice (✶▲, blank), a proficiency die (★), two difficulty dice (▼, ✖).
    let m = make(0, "Check", &[]);
    let (outcome, said) = play(&mut t, &m, &[&[7, 1, 12, 4, 2]]);
    assert_eq!(outcome.class, "success with a triumph");
    assert_eq!(outcome.total, 1);
    assert_eq!(
        outcome.lines[0],
        "2d{Ability}+1d{Proficiency}+2d{Difficulty}: Ability advantage and success, Ability blank, \
         Proficiency triumph (a success), Difficulty threat, Difficulty failure = advantage 0, \
         success 1, triumph 1"
    );
    assert!(said.is_empty(), "{said:?}");
    let plan = t.plan(&m).expect("a plan");
    let labels: Vec<(&str, u32, Option<String>)> = plan
        .dice
        .iter()
        .map(|d| {
            (
                d.label.as_str(),
                d.sides,
                d.marks.as_ref().map(|m| m.of(7).words()),
            )
        })
        .collect();
    assert_eq!(
        labels,
        [
            ("Vessa's Ability", 8, Some("✶▲".into())),
            ("Vessa's Ability", 8, Some("✶▲".into())),
            ("Vessa's Proficiency", 12, Some("✶▲".into())),
            ("Vessa's Difficulty", 8, Some("▼▼".into())),
            ("Vessa's Difficulty", 8, Some("▼▼".into())),
        ]
    );
    // A bone die's one is a skull; the rest count their pips.
    let mut t = table("system-bone-dice.ron");
    let m = make(0, "Delve", &[("depth", Picked::Number(8))]);
    let (outcome, said) = play(&mut t, &m, &[&[1, 5, 4]]);
    assert_eq!(
        (outcome.class.as_str(), outcome.total),
        ("scratched find", 9)
    );
    assert_eq!(
        outcome.lines[0],
        "3d{Bone}: Bone a skull, Bone 5 pips, Bone 4 pips = pips 9, skull 1"
    );
    assert_eq!(said, ["Hild's gold from 0 to 1", "Hild's harm from 0 to 1"]);
}

#[test]
fn a_game_die_that_does_not_fit_is_refused_at_its_line_and_column() {
    let text = include_str!("../../../scenes/rules/bone-dice.ron");
    let at = |needle: &str| {
        text.lines()
            .position(|l| l.contains(needle))
            .expect("there")
            + 1
    };
    // Pips on a d8: the die is refused where it is written.
    let wrong = text.replacen("shape: D6", "shape: D8", 1);
    let e = parse_ron::<super::Rules>("bone-dice.ron", &wrong).expect_err("must fail");
    assert!(
        e.message
            .contains("die \"Bone\" writes 6 faces for a d8 of 8"),
        "{e}"
    );
    // Reported where the die's entry ends.
    assert_eq!(e.line, at("(mark: Pips(6)") + 1, "{e}");
    // A die of another size takes a mark a face too; a d7 (the d14's body marked twice) has
    // its numbers already.
    let d14 = text.replacen("shape: D6", "shape: D14", 1);
    let e = parse_ron::<super::Rules>("bone-dice.ron", &d14).expect_err("must fail");
    assert!(e.message.contains("writes 6 faces for a d14 of 14"), "{e}");
    let d7 = text.replacen("shape: D6", "shape: D7", 1);
    let e = parse_ron::<super::Rules>("bone-dice.ron", &d7).expect_err("must fail");
    assert!(e.message.contains("a game's own die is a D4, D6"), "{e}");
    // A glyph the dice's typeface lacks, at its own line.
    let dragon = text.replacen("Symbol(\"☠\")", "Symbol(\"🐉\")", 1);
    let e = parse_ron::<super::Rules>("bone-dice.ron", &dragon).expect_err("must fail");
    assert_eq!(e.line, at("Symbol(\"☠\")"), "{e}");
    assert!(e.message.contains("has no glyph for '🐉' (U+1F409)"), "{e}");
    // A word too wide for its face, a value no die counts, a push on the game's own dice.
    let wide = text.replacen("Symbol(\"☠\")", "Word(\"skulls\")", 1);
    assert!(parse_ron::<super::Rules>("bone-dice.ron", &wide).is_ok());
    let d12 = include_str!("../../../scenes/rules/narrative-dice.ron").replacen(
        "Symbol(\"★\")",
        "Word(\"great\")",
        1,
    );
    let e = parse_ron::<super::Rules>("narrative-dice.ron", &d12).expect_err("must fail");
    assert!(
        e.message
            .contains("word \"great\" does not fit a d12's face"),
        "{e}"
    );
    let unknown = text.replacen(
        "value: \"skull\", at_least: 3",
        "value: \"skul\", at_least: 3",
        1,
    );
    let e = parse_ron::<super::Rules>("bone-dice.ron", &unknown).expect_err("must fail");
    assert!(
        e.message
            .contains("band \"cursed\" counts \"skul\", which no face of the game's dice counts"),
        "{e}"
    );
    let numbered = text.replacen("$(Grit + press)d{Bone}", "$(Grit + press)d6", 1);
    let e = parse_ron::<super::Rules>("bone-dice.ron", &numbered).expect_err("must fail");
    assert!(
        e.message
            .contains("its result is \"pips\", and it throws none of the game's own dice"),
        "{e}"
    );
    let stranger = text.replacen("$(Grit + press)d{Bone}", "$(Grit + press)d{Bones}", 1);
    let e = parse_ron::<super::Rules>("bone-dice.ron", &stranger).expect_err("must fail");
    assert!(
        e.message.contains("the game has no die named \"Bones\""),
        "{e}"
    );
}

#[test]
fn the_docs_figures_of_the_games_own_dice_are_the_programs() {
    let t = table("system-narrative-dice.ron");
    let odds = t.odds(&make(0, "Check", &[])).ok().flatten().expect("odds");
    assert_eq!(
        odds.p_success.map(|p| p.exact()),
        Some("7997/12288".to_string())
    );
    let b = bands("system-bone-dice.ron", &make(0, "Delve", &[]));
    let exact: Vec<(String, String)> = b.into_iter().map(|(k, p)| (k, p.exact())).collect();
    assert_eq!(
        exact,
        [
            ("clean find".to_string(), "35/72".to_string()),
            ("cursed".to_string(), "1/216".to_string()),
            ("nothing yet".to_string(), "23/54".to_string()),
            ("scratched find".to_string(), "1/12".to_string()),
        ]
    );
}
