//! The tests of `d20_check`.

use super::*;
use crate::rules::Refusal;
use crate::rules::RulesetId;
use crate::rules::engine::builtin_rules;

fn rules() -> Rules {
    builtin_rules(RulesetId::D20Check).unwrap_or_else(|e| panic!("{e}"))
}

fn check(proficiency: i64, modifier: i64, dc: i64, edge: Edge) -> Action {
    Action {
        proficiency,
        modifier,
        dc: Some(dc),
        edge,
        ..Action::default()
    }
}

fn done(step: Result<Step, Refusal>) -> Outcome {
    match step {
        Ok(Step::Done(o)) => o,
        other => panic!("expected an outcome, got {other:?}"),
    }
}

#[test]
fn plain_check_by_hand() {
    // +5 against DC 15 needs 10+: 11/20.
    let odds = check(3, 2, 15, Edge::None).odds(&rules()).expect("odds");
    assert_eq!(
        odds.p_success.as_ref().map(Prob::exact),
        Some("11/20".into())
    );
    assert_eq!(
        odds.class_p("critical success").map(Prob::exact),
        Some("1/20".into())
    );
    let (_, perf) = odds.secondary.expect("performance");
    assert_eq!(perf.p(0).exact(), "1/20");
    assert_eq!(perf.p(10).exact(), "1/20");
}

#[test]
fn advantage_contract_example() {
    // +5 vs DC 15 with advantage: 1 - (9/20)^2 = 319/400.
    let odds = check(3, 2, 15, Edge::Advantage)
        .odds(&rules())
        .expect("odds");
    assert_eq!(
        odds.p_success.as_ref().map(Prob::exact),
        Some("319/400".into())
    );
    assert_eq!(
        odds.class_p("critical failure").map(Prob::exact),
        Some("1/400".into())
    );
    let dis = check(3, 2, 15, Edge::Disadvantage)
        .odds(&rules())
        .expect("odds");
    assert_eq!(
        dis.p_success.as_ref().map(Prob::exact),
        Some("121/400".into())
    );
    assert_eq!(Edge::from_flags(true, true), Edge::None);
}

#[test]
fn naturals_override_the_total() {
    // +12 vs DC 10: only a natural 1 fails: 19/20. +0 vs DC 25 as an immortal: only a 20.
    let odds = check(10, 2, 10, Edge::None).odds(&rules()).expect("odds");
    assert_eq!(odds.p_success.map(|p| p.exact()), Some("19/20".into()));
    let mut immortal = check(0, 0, 25, Edge::None);
    immortal.immortal = true;
    assert_eq!(
        immortal
            .odds(&rules())
            .expect("odds")
            .p_success
            .map(|p| p.exact()),
        Some("1/20".into())
    );
    let o = done(check(10, 2, 10, Edge::None).resolve(&rules(), &[1]));
    assert_eq!(
        (o.success, o.class.as_str()),
        (Some(false), "critical failure")
    );
    let o = done(check(0, 0, 24, Edge::Advantage).resolve(&rules(), &[3, 20]));
    assert_eq!(
        (o.success, o.class.as_str()),
        (Some(true), "critical success")
    );
    let o = done(check(3, 2, 15, Edge::Disadvantage).resolve(&rules(), &[18, 12]));
    assert_eq!((o.total, o.success), (17, Some(true)));
    assert!(
        o.lines
            .iter()
            .any(|l| l.contains("performance 17 − 15 = 2"))
    );
}

#[test]
fn penalties_go_on_the_dc_never_on_the_roll() {
    let r = rules();
    // Proficiency 2 and a modifier of −3 against Risky (15): the roll adds 2, the DC is 18.
    let a = Action {
        proficiency: 2,
        modifier: -3,
        difficulty: Some("Risky".into()),
        ..Action::default()
    };
    assert_eq!((a.bonus(), a.penalty()), (2, 3));
    assert_eq!(a.kind(&r), Ok(CheckKind::Roll(18)));
    // Success on 16 or more (16 + 2 = 18): 5/20.
    assert_eq!(
        a.odds(&r).expect("odds").p_success.map(|p| p.exact()),
        Some("1/4".into())
    );
    let o = done(a.resolve(&r, &[16]));
    assert_eq!((o.total, o.success), (18, Some(true)));
    assert_eq!(
        o.lines,
        vec![
            "16 + proficiency 2 = 18 against DC 18 (a penalty of 3 raised the DC: penalties \
             go on the DC, never on the roll)",
            "performance 18 − 18 = 0",
        ]
    );
    let o = done(a.resolve(&r, &[15]));
    assert_eq!((o.total, o.success), (17, Some(false)));
    // A penalty that takes the DC past 25 makes the check improbable: no roll for mortals.
    let a = Action {
        modifier: -12,
        difficulty: Some("Risky".into()),
        ..Action::default()
    };
    assert_eq!(a.kind(&r), Ok(CheckKind::Improbable));
    assert!(a.check(&r).is_err());
    // A negative proficiency is a penalty too.
    let a = Action {
        proficiency: -1,
        modifier: 2,
        dc: Some(10),
        ..Action::default()
    };
    assert_eq!((a.bonus(), a.effective_dc(&r)), (2, Ok(11)));
}

#[test]
fn dc_table_modifiers_and_clamping() {
    let r = rules();
    let mut a = Action {
        difficulty: Some("Risky".into()),
        gm_modifier: 3,
        ..Action::default()
    };
    assert_eq!(a.effective_dc(&r), Ok(18));
    a.gm_modifier = 6;
    assert!(a.effective_dc(&r).is_err());
    a.difficulty = Some("Desperate".into());
    a.gm_modifier = 5;
    assert_eq!(a.effective_dc(&r), Ok(25));
    assert!(a.check(&r).is_err(), "improbable for mortals");
    a.difficulty = Some("Controlled".into());
    a.gm_modifier = -5;
    assert_eq!(a.kind(&r), Ok(CheckKind::Mundane));
    assert!(a.plan(&r).expect("plan").dice.is_empty());
    let o = done(a.resolve(&r, &[]));
    assert_eq!((o.total, o.success), (1, Some(true)));
    a.play_the_odds = true;
    assert_eq!(a.kind(&r), Ok(CheckKind::Roll(2)));
    // Play the Odds at +0: a natural 1 fails critically, anything else beats DC 2: 19/20.
    assert_eq!(
        a.odds(&r).expect("odds").p_success.map(|p| p.exact()),
        Some("19/20".into())
    );
}

#[test]
fn resource_die_steps_down_the_chain() {
    let r = rules();
    assert_eq!(
        resource_after(&r, Die(8), 3, Direction::Down),
        Ok(ResourceState::Holds)
    );
    assert_eq!(
        resource_after(&r, Die(8), 2, Direction::Down),
        Ok(ResourceState::StepsTo(Die(6)))
    );
    assert_eq!(
        resource_after(&r, Die(20), 1, Direction::Down),
        Ok(ResourceState::StepsTo(Die(12)))
    );
    assert_eq!(
        resource_after(&r, Die(4), 1, Direction::Down),
        Ok(ResourceState::Spent)
    );
    assert!(resource_after(&r, Die(100), 1, Direction::Down).is_err());
    // A d4 resource: uses = Geometric(1/2): P(1) = 1/2, P(2) = 1/4.
    let d4 = resource_uses(&r, Die(4), Direction::Down).expect("uses");
    assert_eq!(d4.p(1).exact(), "1/2");
    assert_eq!(d4.p(2).exact(), "1/4");
    // A d6: at least 2 uses; P(2) = P(d6 steps at once) * P(d4 spent at once) = 1/3 * 1/2.
    let d6 = resource_uses(&r, Die(6), Direction::Down).expect("uses");
    assert_eq!(d6.p(2).exact(), "1/6");
    // Mean uses of d8: 8/2 + 6/2 + 4/2 = 9.
    let d8 = resource_uses(&r, Die(8), Direction::Down).expect("uses");
    assert!((d8.mean() - 9.0).abs() < 1e-9, "{}", d8.mean());
    assert!(d8.truncated().to_f64() < 1e-12);
    let odds = Action {
        resource: Some(Die(4)),
        ..Action::default()
    }
    .odds(&r)
    .expect("odds");
    assert_eq!(
        odds.class_p("spent on this use").map(Prob::exact),
        Some("1/2".into())
    );
}

fn party() -> Table {
    let c = |name: &str, side: Side, proficiency: i64, dex: i64, reach: bool| Character {
        name: name.into(),
        side,
        proficiency,
        dex_modifier: dex,
        reach,
        modifiers: vec![("STR".into(), 2)],
        resources: vec![Resource {
            name: "torches".into(),
            die: Die(6),
            direction: Direction::Down,
        }],
        immortal: false,
        defense: None,
    };
    Table::new(
        rules(),
        vec![
            c("Ash", Side::Players, 3, 1, false),
            c("Bea", Side::Players, 2, 3, false),
            c("Orc", Side::Gamemaster, 2, 0, false),
        ],
    )
}

#[test]
fn side_initiative_and_turns() {
    let mut t = party();
    assert_eq!(
        t.initiative_modifier(Side::Players),
        2,
        "lowest proficiency on the side"
    );
    assert_eq!(t.initiative_plan().dice.len(), 2);
    // Equal modifiers: P(players first) = 1/2 after re-rolling ties.
    assert_eq!(t.initiative_odds().exact(), "1/2");
    assert_eq!(t.resolve_initiative(&[4, 4]), Ok(Initiative::Tie));
    assert!(t.check(0).is_err(), "no initiative yet");
    assert_eq!(
        t.resolve_initiative(&[2, 5]),
        Ok(Initiative::First(Side::Gamemaster))
    );
    assert!(t.check(0).is_err(), "the orc's side first");
    t.check(2).expect("orc");
    t.apply(2);
    t.check(1)
        .expect("then the players, in the order they choose");
    t.apply(1);
    t.apply(0);
    assert_eq!(t.side_to_act(), None);
    assert!(t.check(0).is_err(), "new round: roll initiative");
    assert_eq!(
        t.resolve_initiative(&[6, 1]),
        Ok(Initiative::First(Side::Players))
    );
    assert_eq!(t.round, 2);
}

#[test]
fn one_on_one_uses_dex_and_reach() {
    let mut t = party();
    t.characters.remove(1);
    t.acted.remove(1);
    t.resources.remove(1);
    t.characters[1].reach = true;
    assert_eq!(t.initiative_modifier(Side::Players), 1, "DEX one-on-one");
    assert!(t.initiative_advantage(Side::Gamemaster));
    assert_eq!(t.initiative_plan().dice.len(), 3);
    // Orc keeps the higher of 1 and 6: 6 + 0 vs Ash 5 + 1: a tie.
    assert_eq!(t.resolve_initiative(&[5, 1, 6]), Ok(Initiative::Tie));
}

#[test]
fn resources_in_play() {
    let mut t = party();
    let a = t.resource_action(0, "Torches").expect("action");
    assert_eq!(a.resource, Some(Die(6)));
    assert_eq!(
        t.apply_resource(0, "torches", 1),
        Ok(ResourceState::StepsTo(Die(4)))
    );
    assert_eq!(t.apply_resource(0, "torches", 4), Ok(ResourceState::Holds));
    assert_eq!(t.apply_resource(0, "torches", 2), Ok(ResourceState::Spent));
    assert!(t.resource_action(0, "torches").is_err(), "spent");
    let c = t.action(0, Some("STR"), 15, Edge::None).expect("check");
    assert_eq!((c.proficiency, c.modifier), (3, 2));
}
