//! The tests of `seat`.

use super::*;
use crate::rules::RulesError;
use crate::rules::play::Move as AnyMove;
use crate::rules::table::TableState;
use crate::rules::testing::{play, table};
use crate::rules::{Refusal, RefusalKind};

fn mv(m: Move) -> AnyMove {
    AnyMove::D20Check(m)
}

fn check(actor: usize, kind: CheckType, dc: DcChoice) -> AnyMove {
    mv(Move::Check {
        actor,
        kind,
        modifier: None,
        dc,
        edge: Edge::None,
        play_the_odds: false,
    })
}

fn risky(actor: usize) -> AnyMove {
    check(
        actor,
        CheckType::Standard,
        DcChoice::Named("Risky".into(), 0),
    )
}

fn d20(t: &mut TableState) -> &mut Table {
    match t {
        TableState::D20Check(t) => t,
        _ => panic!("not d20-check"),
    }
}

/// "DC = Defense Class or an Opposed Action Check rolled by the gamemaster": an attack's DC
/// is read from the defender, and the GM's opposed check sets the DC of the check it opposes.
#[test]
fn a_dc_from_a_defense_class_or_the_gms_opposed_check() {
    let mut t = table("d20-check-crypt.ron");
    let attack = mv(Move::Check {
        actor: 0,
        kind: CheckType::Standard,
        modifier: Some("STR".into()),
        dc: DcChoice::Defense(2),
        edge: Edge::None,
        play_the_odds: false,
    });
    assert_eq!(
        t.describe(&attack),
        "Ash: Standard check (STR) vs Crypt guardian's Defense Class"
    );
    // d20 + 3 + 2 against Defense Class 14: 9 or more of 20.
    let odds = t.odds(&attack).expect("odds").expect("some");
    assert_eq!(odds.p_success.map(|p| p.exact()), Some("3/5".into()));
    let (o, _) = play(&mut t, &attack, &[&[8]]);
    assert_eq!((o.total, o.success), (13, Some(false)));
    assert_eq!(
        t.tracker()[2].status[1],
        "Defense Class 14",
        "the tracker shows it"
    );
    assert_eq!(
        t.allowed(&check(0, CheckType::Standard, DcChoice::Defense(1))),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Unable,
            "Bea has no Defense Class: the scene gives it none (defense: 12)"
        )))
    );
    // The Ghoul searches (d20 + 1 + DEX 2) while Bea hides.
    let hide = check(1, CheckType::Standard, DcChoice::Opposed(3));
    assert_eq!(
        t.allowed(&hide),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotNow,
            "no opposed check of Ghoul's waits for Bea's check: the GM rolls it first \
             (Opposed check)"
        )))
    );
    let search = mv(Move::Opposed {
        by: 3,
        against: 1,
        modifier: Some("DEX".into()),
        edge: Edge::None,
    });
    assert_eq!(
        t.allowed(&mv(Move::Opposed {
            by: 1,
            against: 1,
            modifier: None,
            edge: Edge::None,
        })),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Target,
            "an opposed check is rolled for an opponent: Bea cannot oppose themself"
        )))
    );
    // Its odds are those of the DC it sets: 4 to 23, each 1/20.
    let odds = t.odds(&search).expect("odds").expect("some");
    assert_eq!(odds.distribution.p(23).exact(), "1/20");
    assert_eq!(odds.distribution.p(3).exact(), "0");
    let (o, said) = play(&mut t, &search, &[&[13]]);
    assert_eq!((o.total, o.class.as_str()), (16, "opposed check"));
    assert_eq!(
        said,
        vec!["Ghoul's opposed check sets DC 16 for Bea's next check against Ghoul"]
    );
    assert_eq!(
        t.notes(),
        vec![
            "Task Break the crypt seal: 0/3 successes, 0/3 failures (under way)",
            "Ghoul's opposed check: DC 16 for Bea's next check against it"
        ]
    );
    // Bea's check is against DC 16, known before she throws: d20 + 2 ≥ 16 is 7 of 20.
    let odds = t.odds(&hide).expect("odds").expect("some");
    assert_eq!(odds.p_success.map(|p| p.exact()), Some("7/20".into()));
    let (o, _) = play(&mut t, &hide, &[&[14]]);
    assert_eq!((o.total, o.success), (16, Some(true)));
    // Used up by that check.
    assert!(t.allowed(&hide).is_err());
    assert!(t.notes().len() == 1);
}

#[test]
fn a_modifier_the_roller_lacks_is_refused_and_numbers_out_of_range_too() {
    let mut t = table("d20-check-crypt.ron");
    let with = |actor: usize, modifier: &str, dc: DcChoice| {
        mv(Move::Check {
            actor,
            kind: CheckType::Standard,
            modifier: Some(modifier.into()),
            dc,
            edge: Edge::None,
            play_the_odds: false,
        })
    };
    let risky = || DcChoice::Named("Risky".into(), 0);
    assert_eq!(
        t.allowed(&with(1, "STR", risky())),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Unknown,
            "Bea has no modifier 'STR': use one of DEX, INT"
        )))
    );
    // Bea's DEX counts: 12 + proficiency 2 + DEX 3 = 17 against 15.
    let (o, _) = play(&mut t, &with(1, "dex", risky()), &[&[12]]);
    assert_eq!((o.total, o.success), (17, Some(true)));
    let err = t
        .allowed(&with(1, "DEX", DcChoice::Number(i64::MAX)))
        .expect_err("out of range");
    assert_eq!(err.code(), crate::errors::ErrorCode::Invalid);
    assert_eq!(
        err.to_string(),
        "DC is 9223372036854775807: it must be from -1000 to 1000"
    );
    let err = t
        .allowed(&with(1, "DEX", DcChoice::Named("Risky".into(), i64::MIN)))
        .expect_err("out of range");
    assert_eq!(
        err.to_string(),
        "the GM's modifier to the DC is -9223372036854775808: it must be from -1000 to 1000"
    );
    // Everyone rolls in a HalfSucceed group: a helper without the modifier rolls without
    // it, and the move says so.
    d20(&mut t).rules.group = GroupRule::HalfSucceed;
    let group = mv(Move::Group {
        leader: 0,
        helpers: vec![1],
        modifier: Some("STR".into()),
        dc: DcChoice::Number(10),
        edge: Edge::None,
    });
    assert_eq!(
        t.describe(&group),
        "Group check led by Ash with Bea (no STR) (STR) vs DC 10"
    );
    // Ash 8 + 3 + 2 = 13, Bea 6 + 2 = 8: one of two succeeds, which is half.
    let (o, _) = play(&mut t, &group, &[&[8, 6]]);
    assert_eq!(
        o.lines,
        vec![
            "Ash: success (13)",
            "Bea: failure (8)",
            "1 of 2 succeed; at least 1 needed"
        ]
    );
    assert_eq!(o.success, Some(true));
}

/// Point 1: outside initiative a check is just a check; once declared, sides take turns.
#[test]
fn checks_need_no_initiative_until_the_gm_declares_it() {
    let mut t = table("d20-check-crypt.ron");
    assert_eq!(t.heading(), "No initiative: any character may check");
    // The guardian and Ash check in any order, as often as the story needs.
    for actor in [2, 0, 0] {
        let (_, said) = play(&mut t, &risky(actor), &[&[10]]);
        assert!(
            said[0].ends_with("checks (no initiative: no turn used)"),
            "{said:?}"
        );
    }
    assert!(
        t.allowed(&mv(Move::Initiative)).is_err(),
        "declare it first"
    );
    play(&mut t, &mv(Move::DeclareInitiative), &[]);
    assert_eq!(t.heading(), "Initiative declared: roll it");
    assert!(t.allowed(&risky(0)).is_err(), "roll initiative first");
    // Players 1d6 + 2 (Bea's proficiency), gamemaster 1d6 + 1: 2+2 = 3+1 is a tie.
    let (o, said) = play(&mut t, &mv(Move::Initiative), &[&[2, 3], &[5, 1]]);
    assert_eq!(
        (o.class.as_str(), o.total),
        ("the Players side declares first", 5)
    );
    assert_eq!(said, vec!["round 1: the Players side declares first"]);
    assert!(t.allowed(&risky(2)).is_err(), "players first");
    let (o, said) = play(&mut t, &risky(0), &[&[12]]);
    assert_eq!((o.total, o.success), (15, Some(true)), "12 + 3 vs 15");
    assert_eq!(said, vec!["Ash acted this round"]);
    assert!(t.allowed(&risky(0)).is_err(), "Ash has acted");
    // Bonus: on one's side's turn, not using the action; Save: on the other side's too.
    let bonus = check(0, CheckType::Bonus, DcChoice::Number(10));
    let (_, said) = play(&mut t, &bonus, &[&[3]]);
    assert_eq!(said, vec!["Ash's Bonus check does not use the action"]);
    let save = check(2, CheckType::Save, DcChoice::Number(12));
    assert!(
        t.allowed(&check(2, CheckType::Bonus, DcChoice::Number(10)))
            .is_err()
    );
    let (_, said) = play(&mut t, &save, &[&[15]]);
    assert_eq!(
        said,
        vec!["Crypt guardian's Save check does not use the action"]
    );
    for actor in [1, 2, 3] {
        play(&mut t, &risky(actor), &[&[20]]);
    }
    assert_eq!(t.heading(), "Round 1 is over: roll initiative");
    assert_eq!(t.default_move(), mv(Move::Initiative));
    play(&mut t, &mv(Move::EndInitiative), &[]);
    assert!(t.allowed(&risky(3)).is_ok(), "no turn order again");
}

/// Point 1: Group and Extended checks.
#[test]
fn group_and_extended_checks() {
    let mut t = table("d20-check-crypt.ron");
    // Ash leads, Bea helps: Ash rolls with Advantage (two d20, the higher counts).
    let group = mv(Move::Group {
        leader: 0,
        helpers: vec![1],
        modifier: Some("STR".into()),
        dc: DcChoice::Named("Risky".into(), 0),
        edge: Edge::None,
    });
    assert_eq!(t.plan(&group).map(|p| p.dice.len()), Ok(2));
    // d20 + 5 ≥ 15 with advantage: 1 − (9/20)² = 319/400.
    let odds = t.odds(&group).expect("odds").expect("some");
    assert_eq!(odds.p_success.map(|p| p.exact()), Some("319/400".into()));
    let (o, _) = play(&mut t, &group, &[&[4, 11]]);
    assert_eq!((o.total, o.success), (16, Some(true)));
    assert!(
        t.allowed(&mv(Move::Group {
            leader: 0,
            helpers: vec![2],
            modifier: None,
            dc: DcChoice::Number(10),
            edge: Edge::None,
        }))
        .is_err(),
        "the guardian is on the other side"
    );
    // A helper listed twice would roll twice ("2 of 3 succeed" for a group of two).
    assert_eq!(
        t.allowed(&mv(Move::Group {
            leader: 0,
            helpers: vec![1, 1],
            modifier: None,
            dc: DcChoice::Number(10),
            edge: Edge::None,
        })),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Target,
            "Bea is listed twice among the helpers"
        )))
    );
    // HalfSucceed: everyone rolls, half must succeed.
    d20(&mut t).rules.group = GroupRule::HalfSucceed;
    assert_eq!(t.plan(&group).map(|p| p.dice.len()), Ok(2));
    // Ash +5 and Bea +2 (no STR): at least one of two of them ≥ 15:
    // 1 − (9/20)(12/20) = 1 − 108/400 = 73/100.
    let odds = t.odds(&group).expect("odds").expect("some");
    assert_eq!(odds.p_success.map(|p| p.exact()), Some("73/100".into()));
    let (o, _) = play(&mut t, &group, &[&[3, 12]]);
    assert_eq!(
        (o.class.as_str(), o.success),
        ("the group fails", Some(false))
    );
    let (o, _) = play(&mut t, &group, &[&[3, 13]]);
    assert_eq!((o.class.as_str(), o.total), ("the group succeeds", 1));
    // Extended: three successes before three failures.
    let seal = |actor| {
        check(
            actor,
            CheckType::Extended {
                task: "Break the crypt seal".into(),
            },
            DcChoice::Number(14),
        )
    };
    for (face, line) in [
        (
            11,
            "task Break the crypt seal: 1/3 successes, 0/3 failures (under way)",
        ),
        (
            2,
            "task Break the crypt seal: 1/3 successes, 1/3 failures (under way)",
        ),
        (
            18,
            "task Break the crypt seal: 2/3 successes, 1/3 failures (under way)",
        ),
        (
            20,
            "task Break the crypt seal: 3/3 successes, 1/3 failures (accomplished)",
        ),
    ] {
        let (_, said) = play(&mut t, &seal(0), &[&[face]]);
        assert_eq!(said[0], line);
    }
    let err = t.allowed(&seal(1)).expect_err("done");
    assert_eq!(
        err,
        RulesError::Refused(Refusal::new(
            RefusalKind::NotNow,
            "the task Break the crypt seal is accomplished"
        ))
    );
    assert_eq!(
        t.notes(),
        vec!["Task Break the crypt seal: 3/3 successes, 1/3 failures (accomplished)"]
    );
}

/// Point 2: Play the Odds at DC 0: roll against DC 2, a natural 1 fails critically.
#[test]
fn play_the_odds_on_a_mundane_action() {
    let mut t = table("d20-check-crypt.ron");
    let mundane = check(2, CheckType::Standard, DcChoice::Number(0));
    assert!(t.plan(&mundane).expect("plan").dice.is_empty());
    let (o, _) = play(&mut t, &mundane, &[]);
    assert_eq!((o.class.as_str(), o.total), ("mundane success", 1));
    let odds_move = mv(Move::Check {
        actor: 2,
        kind: CheckType::Standard,
        modifier: None,
        dc: DcChoice::Named("Controlled".into(), -5),
        edge: Edge::None,
        play_the_odds: true,
    });
    assert_eq!(t.plan(&odds_move).map(|p| p.dice.len()), Ok(1));
    // On a check that is not mundane it would be ignored while the title says it is played.
    let not_mundane = mv(Move::Check {
        actor: 2,
        kind: CheckType::Standard,
        modifier: None,
        dc: DcChoice::Number(10),
        edge: Edge::None,
        play_the_odds: true,
    });
    assert_eq!(
        t.allowed(&not_mundane),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "Play the Odds is for a mundane action (DC 0): this check's DC is 10"
        )))
    );
    // Only a natural 1 fails: 19/20.
    let odds = t.odds(&odds_move).expect("odds").expect("some");
    assert_eq!(odds.p_success.map(|p| p.exact()), Some("19/20".into()));
    let (o, _) = play(&mut t, &odds_move, &[&[9]]);
    assert_eq!((o.total, o.success), (11, Some(true)), "9 + 2 vs DC 2");
    let (o, _) = play(&mut t, &odds_move, &[&[1]]);
    assert_eq!(
        (o.success, o.class.as_str()),
        (Some(false), "critical failure")
    );
}

/// Point 3: a resource may step up its chain (fatigue: d4 up to d20, then spent).
/// A resource die the chain does not hold is refused when the scene is read, not when the
/// die is first used.
#[test]
fn a_resource_die_off_the_chain_is_refused_with_the_scene() {
    let mut s = crate::rules::testing::scene("d20-check-crypt.ron");
    assert_eq!(s.validate(), Ok(()));
    if let crate::rules::scene::Cast::D20Check(cast) = &mut s.cast {
        cast[0].resources[0].die = crate::rules::Die(3);
    }
    assert_eq!(
        s.validate(),
        Err(Refusal::new(
            RefusalKind::Scene,
            "Ash's torches is a d3, not a die of the resource chain (d4, d6, d8, d10, d12, \
             d20)"
        ))
    );
    // A room opened by the first rules still reads its scene (and opens).
    assert_eq!(s.validate_as_played(1), Ok(()));
}

#[test]
fn resources_step_down_or_up() {
    let mut t = table("d20-check-crypt.ron");
    let torch = mv(Move::Resource {
        actor: 0,
        name: "torches".into(),
    });
    let (o, said) = play(&mut t, &torch, &[&[2]]);
    assert_eq!(said, vec!["Ash's torches: steps down to d4"]);
    assert_eq!(
        (o.class.as_str(), o.tags.clone()),
        ("steps down to d4", vec!["d6 steps down to d4".to_string()])
    );
    let fatigue = mv(Move::Resource {
        actor: 0,
        name: "fatigue".into(),
    });
    let odds = t.odds(&fatigue).expect("odds").expect("some");
    assert_eq!(
        odds.class_p("steps up on this use").map(|p| p.exact()),
        Some("1/2".into())
    );
    let (o, said) = play(&mut t, &fatigue, &[&[1]]);
    assert_eq!(said, vec!["Ash's fatigue: steps up to d6"]);
    // The outcome says which way too (it said "steps down" for every die).
    assert_eq!(
        (o.class.as_str(), o.tags.clone()),
        ("steps up to d6", vec!["d4 steps up to d6".to_string()])
    );
    for (face, sides) in [(2, 8), (1, 10), (2, 12), (1, 20)] {
        let (_, said) = play(&mut t, &fatigue, &[&[face]]);
        assert_eq!(said, vec![format!("Ash's fatigue: steps up to d{sides}")]);
    }
    assert_eq!(t.tracker()[0].status[3], "fatigue d20 (steps up)");
    let odds = t.odds(&fatigue).expect("odds").expect("some");
    assert_eq!(
        odds.class_p("spent on this use").map(|p| p.exact()),
        Some("1/10".into())
    );
    let (_, said) = play(&mut t, &fatigue, &[&[2]]);
    assert_eq!(said, vec!["Ash's fatigue: spent"]);
    assert!(t.allowed(&fatigue).is_err());
}
