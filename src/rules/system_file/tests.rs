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
    ] {
        let rules: super::Rules = parse_ron("system file", text).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            !rules.credit.is_empty(),
            "{} credits its source",
            rules.name
        );
    }
}
