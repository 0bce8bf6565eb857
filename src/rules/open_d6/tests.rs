//! The tests of `open_d6`.

use super::*;
use crate::rules::Refusal;
use crate::rules::RulesetId;
use crate::rules::engine::builtin_rules;

fn rules() -> Rules {
    builtin_rules(RulesetId::OpenD6).unwrap_or_else(|e| panic!("{e}"))
}

fn check(roll: RollKind, skill: i64, difficulty: i64) -> Action {
    Action {
        roll,
        skill,
        difficulty,
        modifier: 0,
        first_roll: true,
    }
}

fn done(step: Result<Step, Refusal>) -> Outcome {
    match step {
        Ok(Step::Done(o)) => o,
        other => panic!("expected an outcome, got {other:?}"),
    }
}

#[test]
fn closed_roll_by_hand() {
    // Closed: d6 - d6. Skill 10 vs 12 needs bonus >= 2: (1+2+3+4)/36 = 10/36 = 5/18.
    let a = check(RollKind::Closed, 10, 12);
    let odds = a.odds();
    assert_eq!(
        odds.p_success.as_ref().map(Prob::exact),
        Some("5/18".into())
    );
    assert_eq!(
        odds.class_p("marginal success").map(Prob::exact),
        Some("1/9".into())
    );
    // Boxcars (6,6) gives 0 < 2: a fumble, 1/36; no windfall.
    assert_eq!(odds.class_p("fumble").map(Prob::exact), Some("1/36".into()));
    assert_eq!(odds.class_p("windfall").map(Prob::exact), Some("0".into()));
    assert!(a.bonus_distribution().truncated() == Prob::zero());
}

#[test]
fn fred_against_peters_dodge_13() {
    // Fred's Maneuver 10 against the higher of Peter's Maneuver 10 and Dodge 13.
    // Fred: Maneuver 10 against the higher of Peter's Maneuver 10 and Dodge 13.
    let a = check(RollKind::Standard, 10, 13);
    let odds = a.odds();
    // Bonus >= 3 with open-ended dice, by cases on the first faces:
    // no six: (4,1),(5,1),(5,2) = 3/36; positive six only: 6+E'-n >= 3 always except
    // n = 5 with E' = 1, so (4 + 5/6)/36 = 29/216; negative six only: never; boxcars: the
    // same question again, P/36. P = 3/36 + 29/216 + P/36, so P = 47/210.
    let p = odds.p_success.as_ref().map(Prob::to_f64).unwrap_or(0.0);
    assert!((p - 47.0 / 210.0).abs() < 1e-12, "{p}");
    assert!(odds.distribution.truncated().to_f64() < 1e-12);
    // Fred throws 4 and 1, then: 10 + 3 = 13: marginal success.
    let o = done(a.resolve(&rules(), &[vec![4, 1]]));
    assert_eq!((o.total, o.class.as_str()), (0, "marginal success"));
}

#[test]
fn sixes_are_thrown_again_physically() {
    let a = check(RollKind::Standard, 10, 13);
    let r = rules();
    let Ok(Step::ThrowMore(plan)) = a.resolve(&r, &[vec![6, 2]]) else {
        panic!("a six throws again")
    };
    assert_eq!(plan.dice.len(), 1);
    assert_eq!(plan.dice[0].role, DieRole::Positive);
    let Ok(Step::ThrowMore(_)) = a.resolve(&r, &[vec![6, 2], vec![6]]) else {
        panic!("and again")
    };
    let o = done(a.resolve(&r, &[vec![6, 2], vec![6], vec![3]]));
    assert_eq!(o.total, 10 + 15 - 2 - 13);
    assert!(a.resolve(&r, &[vec![6, 2], vec![3, 3]]).is_err());
}

#[test]
fn boxcars_on_a_confident_roll_reads_standard() {
    let a = check(RollKind::Confident, 10, 10);
    let r = rules();
    let Ok(Step::ThrowMore(plan)) = a.resolve(&r, &[vec![6, 6]]) else {
        panic!()
    };
    assert_eq!(plan.dice.len(), 2);
    // 6+1 − (6+4) = −3: standard reading, failure, fumble.
    let o = done(a.resolve(&r, &[vec![6, 6], vec![1, 4]]));
    assert_eq!((o.total, o.success), (-3, Some(false)));
    assert!(o.tags.iter().any(|t| t.contains("fumble")));
    // Without boxcars the higher die is positive.
    let o = done(a.resolve(&r, &[vec![2, 5]]));
    assert_eq!(o.total, 3);
    // Confident never goes negative without boxcars: P(bonus < 0) = P(boxcars) * P(X' < Y') = 1/36 * 15/36 / (1 - 1/36)... check numerically.
    let neg = a.bonus_distribution().p_where(|b| b < 0).to_f64();
    let expect = (1.0 / 36.0) * (15.0 / 36.0) / (1.0 - 1.0 / 36.0);
    assert!((neg - expect).abs() < 1e-12, "{neg} vs {expect}");
}

#[test]
fn closed_confident_is_the_absolute_difference() {
    let a = check(RollKind::ClosedConfident, 0, 0);
    let d = a.bonus_distribution();
    // |a-b| = 0: 6/36; = 5: 2/36.
    assert_eq!(d.p(0).exact(), "1/6");
    assert_eq!(d.p(5).exact(), "1/18");
    assert_eq!(d.p_where(|b| b < 0), Prob::zero());
}

#[test]
fn snake_eyes_calls_a_friction_check_on_the_first_roll_only() {
    let r = rules();
    let a = check(RollKind::Standard, 10, 10);
    let Ok(Step::ThrowMore(plan)) = a.resolve(&r, &[vec![1, 1]]) else {
        panic!()
    };
    assert_eq!(plan.dice[0].role, DieRole::Friction);
    let o = done(a.resolve(&r, &[vec![1, 1], vec![5]]));
    assert!(
        o.tags.iter().any(|t| t.starts_with("friction 5")),
        "{:?}",
        o.tags
    );
    let mut later = a.clone();
    later.first_roll = false;
    let o = done(later.resolve(&r, &[vec![1, 1]]));
    assert!(o.tags.is_empty());
    assert_eq!(
        later.odds().class_p("snake eyes").map(Prob::exact),
        Some("0".into())
    );
    assert_eq!(r.friction(2).map(|f| f.from), Some(1));
    assert_eq!(r.friction(6).map(|f| f.condition.as_str()), Some("Always"));
}

#[test]
fn team_action_takes_the_highest() {
    // Four climbers at -4 each; the best result counts for the team.
    assert_eq!(team_penalty(4), -4);
    assert_eq!(team_result(&[3, 9, -1]), Some(9));
    assert_eq!(team_result(&[]), None);
    // Closed roll for a team member with skill 10 at -4 against 8: bonus >= 2: 5/18.
    let mut a = check(RollKind::Closed, 10, 8);
    a.modifier = team_penalty(4);
    assert_eq!(a.odds().p_success.map(|p| p.exact()), Some("5/18".into()));
}

#[test]
fn assists_and_active_defense() {
    let r = rules();
    assert_eq!(assist_bonus(&r, 2), 2);
    assert_eq!(assist_bonus(&r, 5), 3, "at most +3");
    // Peter's Dodge 13 with Active Defense +3, and another +2 defense: they do not stack.
    assert_eq!(defended_difficulty(13, &[r.active_defense_bonus, 2]), 16);
    assert_eq!(defended_difficulty(13, &[]), 13);
}

fn scene() -> Table {
    let c = |name: &str, reflexes: i64, named: bool, villain: bool, stances: u32| Character {
        name: name.into(),
        reflexes,
        named,
        villain,
        stances,
        skills: vec![],
        npc: None,
        fortune: 0,
        hits: None,
        limitations: vec![],
        under_friction: vec![],
        schticks: vec![],
        move_m: None,
        soak: 0,
    };
    Table::new(
        rules(),
        vec![
            c("Fred", 8, true, false, 0),
            c("Peter", 7, true, true, 1),
            c("Goons", 5, false, true, 0),
        ],
    )
}

#[test]
fn initiative_and_shot_counter() {
    let mut t = scene();
    assert_eq!(t.initiative_plan().dice.len(), 4, "goons do not roll");
    // Fred 8 + (3-4) = 7; Peter 7 + (2-1) - 1 stance = 7; Goons 5.
    t.start_round(&[3, 4, 2, 1]).expect("faces");
    assert_eq!(t.shots, vec![7, 7, 5]);
    assert_eq!(t.current_shot(), Some(7));
    assert_eq!(t.acting_now(), vec![1, 0], "villains first on a tie");
    assert!(t.check(0, ActionType::Basic).is_err(), "Peter acts first");
    t.act(1, ActionType::Basic).expect("Peter");
    t.act(0, ActionType::Basic).expect("Fred");
    assert_eq!(t.shots, vec![4, 4, 5]);
    assert_eq!(t.acting_now(), vec![2]);
    t.act(2, ActionType::Basic).expect("goons");
    // A trigger action at any time costs one shot.
    t.act(0, ActionType::Trigger).expect("Fred defends");
    assert_eq!(t.shots, vec![3, 4, 2]);
    t.act(1, ActionType::Basic).expect("Peter at 4");
    t.act(0, ActionType::Basic).expect("Fred at 3");
    // Basic at shot 1 or 2 is allowed and leaves 0.
    t.act(2, ActionType::Basic).expect("goons at 2");
    t.act(1, ActionType::Basic).expect("Peter at 1");
    assert!(t.round_over());
    assert!(t.check(0, ActionType::Basic).is_err());
    t.start_round(&[1, 6, 1, 6]).expect("faces");
    assert_eq!(t.round, 2);
    assert_eq!(
        t.shots,
        vec![3, 2, 5],
        "Peter's stance was paid in round 1 only"
    );
    // Three stances adopted since: paid from the next first shot, at least 1 shot left.
    t.shots = vec![0; 3];
    t.unpaid_stances[1] = 3;
    t.start_round(&[1, 6, 1, 6]).expect("faces");
    assert_eq!(t.shots, vec![3, 1, 5], "at least 1 shot after stances");
}

#[test]
fn limit_break_costs_everything_and_needs_focus() {
    let mut t = scene();
    t.start_round(&[6, 1, 1, 1]).expect("faces");
    assert_eq!(t.shots[0], 13);
    assert!(t.check(0, ActionType::LimitBreak).is_err());
    t.focus(0);
    t.act(0, ActionType::LimitBreak).expect("limit break");
    assert_eq!(t.shots[0], 0);
    assert!(
        t.check(0, ActionType::Finisher).is_err(),
        "a Finisher needs a knock-out"
    );
    t.finisher_due[0] = true;
    t.act(0, ActionType::Finisher)
        .expect("finishers cost nothing");
    assert!(!t.finisher_due[0], "one Finisher a knock-out");
    assert!(t.check(0, ActionType::Trigger).is_err());
}

#[test]
fn surprise_round() {
    let mut t = scene();
    t.start_surprise_round(&[1, 2]);
    // Peter holds a stance: paid from his 3 surprise shots, his first round.
    assert_eq!(t.shots, vec![0, 2, 3]);
    assert_eq!(t.acting_now(), vec![2]);
}

/// An ambusher pays a stance it holds from its surprise-round shots (its first round); the
/// surprised pay theirs in their first round with shots.
#[test]
fn an_ambusher_pays_its_stance_in_the_surprise_round() {
    let mut t = scene();
    t.unpaid_stances = vec![1, 1, 0];
    t.start_surprise_round(&[1, 2]);
    assert_eq!(t.shots, vec![0, 2, 3]);
    assert_eq!(
        (t.paid_stances.clone(), t.unpaid_stances.clone()),
        (vec![0, 1, 0], vec![1, 0, 0])
    );
}
