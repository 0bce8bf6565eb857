//! The tests of `seat` on issue 71's open-d6 points, each quoting the text it follows: Gauge
//! Skill after seeing the skill used, a failed gauge's own result, Assist and Push Luck after
//! a check outside an action scene, a Combination Action with a Full Move.

use super::*;
use crate::rules::catalogue::Catalogue;
use crate::rules::{Refusal, RefusalKind};

fn gauge(actor: usize, target: usize, skill: &str, limit_break: bool) -> AnyMove {
    mv(Move::GaugeSkill {
        actor,
        target,
        skill: skill.into(),
        limit_break,
    })
}

/// Peter (shot 12) raises an Active Defense with Dodge against every attacker.
fn peter_dodges(t: &mut TableState) {
    let defend = mv(Move::ActiveDefense {
        actor: 2,
        skill: "Dodge".into(),
        against: None,
    });
    play(t, &defend, &[]);
}

fn refused(kind: RefusalKind, text: &str) -> Result<(), RulesError> {
    Err(RulesError::Refused(Refusal::new(kind, text)))
}

/// "When you see someone else use a skill, you can make an opposed roll of that skill against
/// them. … You can use this skill on someone even when they are not using a skill, but in this
/// case it is a Limit Break." A trigger gauge follows the target's check of the skill, or their
/// Active Defense with it.
#[test]
fn a_trigger_gauge_follows_seeing_the_skill_used() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let not_seen = "Mia has not just used Dodge: a gauge follows seeing someone use the skill \
                    (their check, or their Active Defense); gauging a skill not in use is a \
                    Limit Break, and Fred must focus for it";
    assert_eq!(
        t.allowed(&gauge(0, 1, "Dodge", false)),
        refused(RefusalKind::NotNow, not_seen)
    );
    // Mia dodges a falling crate outside the action: Dodge 12 + (3 − 3) against 10.
    let dodge = mv(Move::Check {
        actor: 1,
        check: check("Dodge", Difficulty::Number(10)),
    });
    play(&mut t, &dodge, &[&[3, 3]]);
    // Fred saw it: his Dodge 11 + (5 − 1) = 15 against her 12, a trigger gauge (no shots here).
    let (o, said) = play(&mut t, &gauge(0, 1, "Dodge", false), &[&[5, 1]]);
    assert_eq!((o.total, o.success), (3, Some(true)));
    assert_eq!(
        said,
        vec!["Fred gauges Mia's Dodge: 12; schticks: Crane Stance (+2)"]
    );
    // Her Maneuver was not what she used.
    assert_eq!(
        t.allowed(&gauge(0, 1, "Maneuver", false)),
        refused(
            RefusalKind::NotNow,
            &not_seen.replace("used Dodge", "used Maneuver")
        )
    );
    // In a round, Peter (shot 12) raises an Active Defense with Dodge: his Dodge is in use,
    // and Fred may gauge it as a trigger action (one shot).
    first_round(&mut t);
    peter_dodges(&mut t);
    assert_eq!(t.allowed(&gauge(0, 2, "Dodge", false)), Ok(()));
    // His Maneuver is not in use: a Limit Break, which needs Fred's focus and his shot.
    assert_eq!(
        t.allowed(&gauge(0, 2, "Maneuver", false)),
        refused(
            RefusalKind::NotNow,
            "Peter has not just used Maneuver: a gauge follows seeing someone use the skill \
             (their check, or their Active Defense); gauging a skill not in use is a Limit \
             Break, and Fred must focus for it"
        )
    );
    assert_eq!(
        t.allowed(&gauge(0, 2, "Maneuver", true)),
        refused(RefusalKind::NotTheirTurn, "it is Peter's shot (11)")
    );
}

/// "If you fail, you still know the result of your own roll and this gives you some
/// information about how skilled they are." A failed gauge's outcome is the gauger's own
/// result; nothing in it names the target's rating.
#[test]
fn a_failed_gauge_tells_only_ones_own_result() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    peter_dodges(&mut t);
    // Fred's Dodge 11 + (1 − 4) = 8 against Peter's Dodge 13: a failure.
    let (o, said) = play(&mut t, &gauge(0, 2, "Dodge", false), &[&[1, 4]]);
    assert_eq!((o.total, o.success), (8, Some(false)));
    assert_eq!(o.class, "failure: their own result is 8");
    assert_eq!(
        o.lines,
        vec![
            "positive [1] = 1, negative [4] = 4",
            "bonus 1 − 4 = -3",
            "skill 11 + bonus -3 = 8: short of the rating, which stays unknown",
        ]
    );
    assert_eq!(
        said,
        vec![
            "Fred: Trigger action, shots 10 -> 9",
            "Fred learns only their own result (8) of Peter's Dodge"
        ]
    );
    // A table of an earlier rules generation plays as it was played: the rating was shown,
    // and a trigger gauge needed no skill in use.
    let mut old = table("open-d6-fred-and-peter.ron");
    o6_mut(&mut old).rules.generation = crate::record::SEEN_GAUGES - 1;
    first_round(&mut old);
    let (o, said) = play(&mut old, &gauge(0, 2, "Dodge", false), &[&[1, 4]]);
    assert_eq!((o.total, o.class.as_str()), (-5, "failure, outcome -5"));
    assert_eq!(
        said[1],
        "Fred learns only their own result (8) of Peter's Dodge"
    );
}

/// The `Check` move ("Assist and Push Luck may follow it"): "If your last action was a
/// failure, you can push your luck to try and succeed anyway. Re-roll the failed check." Outside
/// an action scene, before the first initiative or after the scene ends, they take no shots.
#[test]
fn assist_and_push_luck_follow_a_check_outside_an_action_scene() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let shoot = mv(Move::Check {
        actor: 0,
        check: check("Shoot", Difficulty::Number(12)),
    });
    // Before any initiative: Shoot 9 + (2 − 4) = 7 against 12.
    let (o, _) = play(&mut t, &shoot, &[&[2, 4]]);
    assert_eq!(o.success, Some(false));
    // Mia assists: a Confident Maneuver 9 + (5 − 2) = 12 against Fred's Shoot 9, no shots.
    let assist = mv(Move::Assist {
        helper: 1,
        skill: "Maneuver".into(),
        no_roll: false,
    });
    let (o, said) = play(&mut t, &assist, &[&[5, 2]]);
    assert_eq!(o.success, Some(true));
    assert_eq!(
        said,
        vec!["Mia assists Fred: the check is now 8 against 12 (still a failure)"]
    );
    // Fred pushes his luck: 9 + (5 − 2) + 1 = 13 against 12.
    let push = mv(Move::PushLuck { actor: 0 });
    let (o, said) = play(&mut t, &push, &[&[5, 2]]);
    assert_eq!((o.total, o.success), (1, Some(true)));
    assert_eq!(said, vec!["Fred pushed their luck: it counts as a success"]);
    // After the scene ends: a failed push adds a Setback, still no shots.
    first_round(&mut t);
    play(&mut t, &mv(Move::EndScene), &[]);
    play(&mut t, &shoot, &[&[2, 4]]);
    assert_eq!(t.allowed(&assist), Ok(()));
    let (o, said) = play(&mut t, &push, &[&[1, 3]]);
    assert_eq!(o.success, Some(false));
    assert_eq!(
        said,
        vec!["Fred suffers a Setback (pushed their luck and failed; 1 now)"]
    );
    // A knocked-out helper does nothing more this scene.
    play(&mut t, &ko_by(1, 2), &[]);
    assert_eq!(
        t.allowed(&assist),
        refused(
            RefusalKind::Unable,
            "Mia is knocked out: no more actions this scene"
        )
    );
}

/// "If one of your actions is a Full Move, this allows you to move even with actions that
/// normally do not allow movements, such as Seven Sword Strike." A Combination Action of one
/// check and a Full Move: one roll, twice the Move.
#[test]
fn a_combination_action_with_a_full_move() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    o6_mut(&mut t).shots = vec![0, 5, 0, 0];
    play(&mut t, &act(1, ActionType::Trigger, None, true), &[]);
    let combo = |second: Option<Check>, moves: bool, full_move: bool| {
        mv(Move::CombinationAction {
            actor: 1,
            first: check("Martial Arts", Difficulty::Number(10)),
            second,
            moves,
            full_move,
        })
    };
    assert_eq!(
        t.allowed(&combo(None, false, false)),
        refused(
            RefusalKind::Choice,
            "a Combination Action is two Basic Actions: give the second action's check, or \
             make the other action a Full Move"
        )
    );
    assert_eq!(
        t.allowed(&combo(
            Some(check("Dodge", Difficulty::Number(10))),
            false,
            true
        )),
        refused(
            RefusalKind::Choice,
            "a Combination Action is two actions: a Full Move and one check, or two checks, \
             not both"
        )
    );
    assert_eq!(
        t.allowed(&combo(None, true, true)),
        refused(
            RefusalKind::Choice,
            "the Full Move is the combination's movement (twice the Move): there is no other \
             move to add"
        )
    );
    let with_move = combo(None, false, true);
    assert_eq!(
        t.describe(&with_move),
        "Mia: Combination Action, Martial Arts (Standard) vs 10 and a Full Move"
    );
    assert_eq!(t.plan(&with_move).expect("plan").dice.len(), 2, "one pair");
    // Martial Arts 12 + (3 − 2) = 13 against 10.
    let (o, said) = play(&mut t, &with_move, &[&[3, 2]]);
    assert_eq!((o.total, o.class.as_str()), (3, "success, outcome 3"));
    assert_eq!(
        said,
        vec![
            "Mia: LimitBreak action, shots 4 -> 0",
            "Mia makes a Full Move with the action: up to 24 m, before or after it, even where \
             the action allows no movement",
        ]
    );
}

/// The builders offer what the rules now allow: a Combination Action with a Full Move, and a
/// gauge of the skill just seen in use, as a trigger action.
#[test]
fn the_builders_offer_the_full_move_combination_and_the_seen_gauge() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let kinds = Catalogue::kinds(o6(&t), 0);
    assert!(
        kinds
            .iter()
            .any(|k| k.label == "Combination with a Full Move"),
        "{:?}",
        kinds.iter().map(|k| &k.label).collect::<Vec<_>>()
    );
    let dodge = mv(Move::Check {
        actor: 1,
        check: check("Dodge", Difficulty::Number(10)),
    });
    play(&mut t, &dodge, &[&[3, 3]]);
    let offered = Catalogue::kinds(o6(&t), 0)
        .into_iter()
        .find(|k| k.label == "Gauge Skill")
        .map(|k| k.template);
    assert_eq!(
        offered,
        Some(Move::GaugeSkill {
            actor: 0,
            target: 1,
            skill: "Dodge".into(),
            limit_break: false,
        })
    );
}
