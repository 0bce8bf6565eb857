//! The tests of `seat`, on the last check and the defences: Push Luck, Fortune, Active
//! Defenses, friction, hits and knock-outs, impairment, schticks, assists, late Limit Breaks.

use super::*;
use crate::rules::{Refusal, RefusalKind};

/// The first round, Peter out of shots, and Fred (10) failing a Shoot 9 against 12:
/// 9 + (2 − 4) = 7.
fn fred_fails_a_shoot() -> TableState {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    o6_mut(&mut t).shots[2] = 0;
    let shoot = act(
        0,
        ActionType::Basic,
        Some(check("Shoot", Difficulty::Number(12))),
        false,
    );
    let (o, _) = play(&mut t, &shoot, &[&[2, 4]]);
    assert_eq!(o.success, Some(false));
    t
}

/// Push Luck re-rolls the check as it stood, an Assist's +1 included; its roll is the first
/// of its own trigger action (snake eyes count); the last check's note shows the re-roll.
#[test]
fn push_luck_keeps_the_assist_and_reads_snake_eyes() {
    let mut t = fred_fails_a_shoot();
    // Mia assists: a Confident Maneuver roll that succeeds gives +1 (still short of 12).
    let assist = mv(Move::Assist {
        helper: 1,
        skill: "Maneuver".into(),
        no_roll: false,
    });
    let (o, _) = play(&mut t, &assist, &[&[5, 2]]);
    assert_eq!(o.success, Some(true), "{o:?}");
    assert!(
        t.notes()[1].ends_with(", assisted +1 (failure)"),
        "{:?}",
        t.notes()
    );
    // The push: Shoot 9 + (5 − 2) + the assist's 1 = 13 against 12: outcome 1, not a
    // marginal success.
    let (o, _) = play(&mut t, &mv(Move::PushLuck { actor: 0 }), &[&[5, 2]]);
    assert_eq!((o.total, o.success), (1, Some(true)));
    assert_eq!(
        t.notes()[1],
        "Last check: Fred Shoot 13 against 12, assisted +1 (success)"
    );
    // Snake eyes on a push: a friction check, as on any action's first roll.
    let mut t = fred_fails_a_shoot();
    let (o, _) = play(&mut t, &mv(Move::PushLuck { actor: 0 }), &[&[1, 1], &[4]]);
    assert!(o.tags.iter().any(|tag| tag.contains("snake eyes")), "{o:?}");
}

#[test]
fn push_luck_reaches_only_the_last_action() {
    let mut t = fred_fails_a_shoot();
    assert_eq!(t.allowed(&mv(Move::PushLuck { actor: 0 })), Ok(()));
    // He then raises an Active Defense: the failed check is no longer his last action.
    play(
        &mut t,
        &mv(Move::ActiveDefense {
            actor: 0,
            skill: "Dodge".into(),
            against: None,
        }),
        &[],
    );
    assert_eq!(
        t.allowed(&mv(Move::PushLuck { actor: 0 })),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotTheirTurn,
            "Push Luck re-rolls one's last action, and Fred has acted since that check"
        )))
    );
}

/// Point 13: Push Luck, Combination Action, Action Advantage, Stunt Modifiers, Fortune,
/// Setbacks kept on the character.
#[test]
fn push_luck_limit_breaks_stunts_fortune_and_setbacks() {
    let mut t = fred_fails_a_shoot();
    assert!(
        t.allowed(&mv(Move::PushLuck { actor: 1 })).is_err(),
        "Fred's check"
    );
    // He pushes his luck (a trigger, 1 shot) and fails again: a Setback.
    let (_, said) = play(&mut t, &mv(Move::PushLuck { actor: 0 }), &[&[1, 3]]);
    assert_eq!(
        said,
        vec![
            "Fred: Trigger action, shots 7 -> 6",
            "Fred suffers a Setback (pushed their luck and failed; 1 now)"
        ]
    );
    assert!(
        t.allowed(&mv(Move::PushLuck { actor: 0 })).is_err(),
        "pushed already"
    );
    // The re-roll was a trigger action: no Assist may answer it.
    assert_eq!(
        t.allowed(&mv(Move::Assist {
            helper: 1,
            skill: "Maneuver".into(),
            no_roll: false,
        })),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "the check was re-rolled by Push Luck, a trigger action, and a trigger action is \
             never the trigger for another"
        )))
    );
    // Mia (8) does a stunt for Advantage and succeeds: the pool has one.
    let mut stunt = check("Maneuver", Difficulty::Number(9));
    stunt.stunt = true;
    let (_, said) = play(
        &mut t,
        &act(1, ActionType::Basic, Some(stunt), false),
        &[&[4, 2]],
    );
    assert_eq!(said[1], "Mia's stunt adds an Advantage to the pool (1 now)");
    // Fred's Fortune: a Confident roll that spends the Advantage too (+1).
    let mut lucky = check("Shoot", Difficulty::Number(12));
    lucky.fortune = true;
    o6_mut(&mut t).advantages[0] = 1;
    lucky.advantages = 1;
    let (o, said) = play(
        &mut t,
        &act(0, ActionType::Basic, Some(lucky), false),
        &[&[1, 4]],
    );
    // Confident: 4 − 1 = +3; 9 + 1 + 3 = 13 against 12.
    assert_eq!((o.total, o.success), (1, Some(true)));
    assert!(
        said.contains(&"Fred spends Fortune for a Confident roll (1 left)".to_string()),
        "{said:?}"
    );
    assert!(
        said.contains(&"Fred spends 1 Advantage (0 left in the pool)".to_string()),
        "{said:?}"
    );
    // Mia focuses and makes a Combination Action (two rolls, snake eyes only on the first).
    o6_mut(&mut t).shots = vec![0, 5, 0, 0];
    play(&mut t, &act(1, ActionType::Trigger, None, true), &[]);
    let combo = mv(Move::CombinationAction {
        actor: 1,
        first: check("Martial Arts", Difficulty::Number(10)),
        second: Some(check("Maneuver", Difficulty::Number(10))),
        moves: true,
        full_move: false,
    });
    let plan = t.plan(&combo).expect("plan");
    assert_eq!(plan.dice.len(), 2);
    let (o, said) = play(&mut t, &combo, &[&[3, 2], &[1, 1]]);
    assert_eq!(o.class, "success, outcome 3 / failure, outcome -1");
    assert_eq!(said[0], "Mia: LimitBreak action, shots 4 -> 0");
    // It moves once, wherever in the two actions.
    assert_eq!(
        said[1],
        "Mia moves up to 12 m, once: before, between or after the two actions"
    );
    assert!(
        !o.tags.iter().any(|t| t.contains("snake eyes")),
        "second roll: {o:?}"
    );
    // The last check, which Assist and Push Luck act on, is the second action's own: Maneuver
    // 9 + (1 − 1) = 9 against 10 (rules generation 6; earlier, the first action's total).
    assert_eq!(
        t.notes()[1],
        "Last check: Mia Maneuver 9 against 10 (failure)"
    );
    // Action Advantage needs focus; with it, +1.
    o6_mut(&mut t).shots = vec![6, 0, 0, 0];
    let aa = mv(Move::ActionAdvantage {
        actor: 0,
        check: check("Maneuver", Difficulty::Number(11)),
    });
    assert!(t.allowed(&aa).is_err(), "not focused");
    play(&mut t, &act(0, ActionType::Trigger, None, true), &[]);
    let (o, _) = play(&mut t, &aa, &[&[1, 1], &[6]]);
    assert_eq!(
        (o.total, o.success),
        (0, Some(true)),
        "10 + 1 + 0 = 11: marginal"
    );
    // A d6 on a random table, re-rolled with Fortune: either result may be kept.
    play(&mut t, &mv(Move::TableD6 { actor: 0 }), &[&[2]]);
    let (o, said) = play(&mut t, &mv(Move::FortuneReroll { actor: 0 }), &[&[5]]);
    assert_eq!(o.class, "keep either: 2 or 5");
    assert_eq!(said, vec!["Fred spends Fortune (0 left)"]);
    // A new session: Fortune comes back, Setbacks stay.
    play(&mut t, &mv(Move::NewSession), &[]);
    assert_eq!((o6(&t).fortune[0], o6(&t).setbacks[0]), (2, 1));
}

#[test]
fn fortune_rerolls_initiative_closed_and_confident() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    // Fred rolled 10; a Closed Confident re-roll of (2, 5) reads +3: 8 + 3 = 11.
    let (o, said) = play(
        &mut t,
        &mv(Move::FortuneInitiative { actor: 0 }),
        &[&[2, 5]],
    );
    assert_eq!(o.total, 11);
    assert_eq!(
        said,
        vec!["Fred spends Fortune: shots 10 -> 11 (1 Fortune left)"]
    );
    // Peter has no Fortune; the goons roll no initiative.
    assert!(
        t.allowed(&mv(Move::FortuneInitiative { actor: 2 }))
            .is_err()
    );
    assert!(
        t.allowed(&mv(Move::FortuneInitiative { actor: 3 }))
            .is_err()
    );
}
fn defend(actor: usize, skill: &str, against: Option<usize>) -> AnyMove {
    mv(Move::ActiveDefense {
        actor,
        skill: skill.into(),
        against,
    })
}

fn refused(t: &TableState, m: &AnyMove) -> String {
    match t.allowed(m) {
        Err(e) => e.to_string(),
        Ok(()) => panic!("{m:?} should be refused"),
    }
}

#[test]
fn several_defences_each_against_its_attacker_one_an_attack() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    // A defence against every attacker is still written as it always was.
    play(&mut t, &defend(0, "Dodge", None), &[]);
    assert!(
        t.canonical_state()
            .contains(r#""defending":[["Dodge",12],null,null,null]"#),
        "{}",
        t.canonical_state()
    );
    // It answers Peter's next attack: no second defence against it before that attack.
    assert_eq!(
        refused(&t, &defend(0, "Maneuver", Some(2))),
        "Fred has an Active Defense up against Peter's next attack already, and no attack has come since: one defence each attack"
    );
    // Peter's Maneuver meets Dodge 11 + 3: 10 + (5 − 2) = 13 fails by 1.
    let tag = act(
        2,
        ActionType::Basic,
        Some(check("Maneuver", Difficulty::Against(0))),
        false,
    );
    let (o, _) = play(&mut t, &tag, &[&[5, 2]]);
    assert_eq!((o.total, o.success), (-1, Some(false)));
    // Shot 9: Fred holds a Dodge against Peter and a Maneuver against the goons at once.
    play(&mut t, &defend(0, "Dodge", Some(2)), &[]);
    play(&mut t, &defend(0, "Maneuver", Some(3)), &[]);
    let fred = o6(&t);
    assert_eq!(fred.difficulty_against(2, 0, "Maneuver"), Ok(14));
    assert_eq!(fred.difficulty_against(3, 0, "Maneuver"), Ok(13));
    assert_eq!(
        fred.difficulty_against(1, 0, "Maneuver"),
        Ok(11),
        "Mia: none"
    );
    assert_eq!(
        t.tracker()[0].status[2..4],
        [
            "defending Dodge against Peter".to_string(),
            "defending Maneuver against Goons".to_string()
        ]
    );
    assert!(
        t.canonical_state().contains(
            r#"[{"against":2,"moment":9,"skill":"Dodge"},{"against":3,"moment":9,"skill":"Maneuver"}]"#
        ),
        "{}",
        t.canonical_state()
    );
    assert_eq!(
        refused(&t, &defend(0, "Dodge", None)),
        "Fred has an Active Defense up against the next attack already, and no attack has come since: one defence each attack"
    );
    assert!(refused(&t, &defend(0, "Dodge", Some(0))).contains("against themself"));
    // The goons' trigger attack (shot 9 still) meets the Maneuver held against them:
    // 8 + (4 − 1) = 11 against 13. Their next attack is a new situation; Peter's is not.
    let jab = act(
        3,
        ActionType::Trigger,
        Some(check("Maneuver", Difficulty::Against(0))),
        false,
    );
    let (o, _) = play(&mut t, &jab, &[&[4, 1]]);
    assert_eq!((o.total, o.success), (-2, Some(false)));
    assert!(t.allowed(&defend(0, "Dodge", Some(3))).is_ok());
    assert!(t.allowed(&defend(0, "Maneuver", Some(2))).is_err());
    // The defences last for shot 9: with the next shot they are gone.
    play(&mut t, &act(2, ActionType::Basic, None, false), &[]);
    assert!(o6(&t).defences_now(0, None).is_empty());
}

#[test]
fn friction_reads_the_roller_limitations_and_conditions() {
    let mut t = table("open-d6-fred-and-peter.ron");
    // Initiative: Fred's snake eyes, friction 2: his Limitation.
    let (o, _) = play(&mut t, &mv(Move::Initiative), &[&[1, 1, 2, 3, 6, 1], &[2]]);
    assert!(
        o.tags.contains(
            &"Fred: snake eyes, friction 2: Fred's Limitation \"Borrowed pistol jams\" triggers"
                .to_string()
        ),
        "{:?}",
        o.tags
    );
    let shoot = act(
        0,
        ActionType::Trigger,
        Some(check("Shoot", Difficulty::Number(10))),
        false,
    );
    let friction = |t: &mut TableState, face: u32| {
        let (o, _) = play(t, &shoot, &[&[1, 1], &[face]]);
        o.tags.last().cloned().unwrap_or_default()
    };
    // Playing it safe: faces 4 to 6 do nothing to Fred; a Limitation number he lacks neither.
    assert_eq!(
        friction(&mut t, 6),
        "friction 6: Fred plays it safe (under no friction): no effect"
    );
    assert_eq!(
        friction(&mut t, 3),
        "friction 3: a Limitation's number, and Fred has no Limitation 3: no effect"
    );
    let under = mv(Move::UnderFriction {
        target: 0,
        conditions: vec![5],
    });
    let (_, said) = play(&mut t, &under, &[]);
    assert_eq!(
        said,
        [
            "Fred is under friction: 5 (Lack of maintenance or resources; operating without a nearby base)"
        ]
    );
    assert_eq!(
        friction(&mut t, 4),
        "friction 4: Fred is not under it (Improvised gear or plans, lack of resources, and poor supply): no effect"
    );
    assert_eq!(
        friction(&mut t, 5),
        "friction 5: Fred is under it (Lack of maintenance or resources; operating without a nearby base) — Light friction: something breaks or ceases to work until the end of the scene."
    );
    assert!(friction(&mut t, 6).starts_with("friction 6: Fred is under friction — Minor effect"));
    // The plain row is replaced, never written beside the reading.
    let (o, _) = play(&mut t, &shoot, &[&[1, 1], &[5]]);
    assert_eq!(
        o.tags.iter().filter(|t| t.starts_with("friction")).count(),
        1
    );
    let limitation = mv(Move::UnderFriction {
        target: 0,
        conditions: vec![1],
    });
    assert!(refused(&t, &limitation).starts_with("friction 1 is not a condition"));
}

#[test]
fn hits_knock_outs_and_finishers() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    let damage =
        |target: usize, hits: i64, by: Option<usize>| mv(Move::Damage { target, hits, by });
    let (_, said) = play(&mut t, &damage(2, 4, Some(0)), &[]);
    assert_eq!(said, ["Peter has 6 hits left"]);
    // Knocking out one's own side gives no Finisher.
    let (_, said) = play(&mut t, &damage(1, 20, Some(0)), &[]);
    assert_eq!(
        said,
        [
            "Mia has 0 hits left",
            "Mia is knocked out: no more actions this scene"
        ]
    );
    let finisher = act(0, ActionType::Finisher, None, false);
    assert!(refused(&t, &finisher).starts_with("a Finisher follows knocking an opponent out"));
    let ko = mv(Move::KnockOut {
        target: 2,
        by: Some(0),
    });
    let (_, said) = play(&mut t, &ko, &[]);
    assert_eq!(
        said[1],
        "Fred knocked an opponent out: a Finisher at no shot cost may follow"
    );
    assert!(refused(&t, &ko).contains("knocked out already"));
    // Peter (shot 12) is out: Fred's shot comes next.
    assert_eq!(t.heading(), "Round 1, shot 10: Fred");
    let (_, said) = play(&mut t, &finisher, &[]);
    assert_eq!(said, ["Fred: Finisher action, shots 10 -> 10"]);
    assert!(refused(&t, &finisher).contains("Fred has not just done so"));
    // The Finisher lapses with the next action, taken or not.
    play(&mut t, &ko_by(3, 0), &[]);
    play(&mut t, &act(0, ActionType::Basic, None, false), &[]);
    assert!(refused(&t, &finisher).contains("Fred has not just done so"));
    o6_mut(&mut t).hits[3] = None;
    assert!(refused(&t, &damage(3, 1, None)).contains("knocked out already"));
    assert!(refused(&t, &damage(0, 1001, None)).starts_with("hits is 1001"));
    // A new session: player characters recover their Hits; Peter, a villain, does not.
    let (_, said) = play(&mut t, &mv(Move::NewSession), &[]);
    assert_eq!(said[1], "Mia recovers all lost Hits");
    assert_eq!(o6(&t).out, [false, false, true, true]);
    assert_eq!(o6(&t).hits[1], Some(14));
}

#[test]
fn a_knocked_out_character_does_not_hold_up_a_simplified_round() {
    let mut t = table("open-d6-fred-and-peter.ron");
    o6_mut(&mut t).use_simplified_initiative();
    // Reflexes order: Mia 9, Fred 8, Peter 7, the goons 5.
    for actor in [1, 0, 2] {
        play(&mut t, &act(actor, ActionType::Basic, None, false), &[]);
    }
    assert_eq!((o6(&t).round, o6(&t).acting_now()), (1, vec![3]));
    play(&mut t, &ko_by(3, 0), &[]);
    assert_eq!((o6(&t).round, o6(&t).acting_now()), (2, vec![1]));
}

#[test]
fn impairment_lowers_skills_and_defence_values() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    let impair = |points: i64| mv(Move::Impair { target: 0, points });
    play(&mut t, &impair(3), &[]);
    assert_eq!(o6(&t).difficulty_against(2, 0, "Maneuver"), Ok(8));
    assert!(t.tracker()[0].status.contains(&"impaired −3".to_string()));
    // Fred's Shoot 9 − 3 + (4 − 1) = 9 against 9.
    let shoot = act(
        0,
        ActionType::Trigger,
        Some(check("Shoot", Difficulty::Number(9))),
        false,
    );
    let (o, _) = play(&mut t, &shoot, &[&[4, 1]]);
    assert_eq!((o.total, o.class.as_str()), (0, "marginal success"));
    let (_, said) = play(&mut t, &impair(0), &[]);
    assert_eq!(said, ["Fred's impairment is lifted"]);
    assert_eq!(o6(&t).difficulty_against(2, 0, "Maneuver"), Ok(11));
    assert!(refused(&t, &impair(-1)).starts_with("points is -1"));
}

#[test]
fn schticks_never_stack_and_typed_stances_do_not_either() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let before = |stance: &str| {
        mv(Move::StanceBeforeRound {
            actor: 1,
            stance: Some(stance.into()),
        })
    };
    let (_, said) = play(&mut t, &before("Tiger Stance"), &[]);
    assert_eq!(said[0], "Mia adopts Tiger Stance (Martial Arts +2)");
    assert_eq!(o6(&t).skill_value(1, "Martial Arts"), Some(14));
    play(&mut t, &before("Inner Fire"), &[]);
    assert_eq!(
        o6(&t).skill_value(1, "Martial Arts"),
        Some(14),
        "+2 and +1: the best"
    );
    assert_eq!(
        refused(&t, &before("Inner Fire")),
        "Mia has adopted Inner Fire already"
    );
    assert_eq!(
        refused(&t, &before("Iron Body")),
        "Mia has no schtick 'Iron Body': its stances are Tiger Stance, Crane Stance, Inner Fire, Fire Touch"
    );
    let (_, said) = play(&mut t, &before("Crane Stance"), &[]);
    assert_eq!(
        said[0],
        "Mia adopts Crane Stance (Dodge +2); Tiger Stance ends (one Martial stance at a time)"
    );
    let mia = o6(&t);
    assert_eq!(mia.skill_value(1, "Martial Arts"), Some(13));
    assert_eq!(mia.skill_value(1, "Dodge"), Some(14));
    // Her scene stance and two held schtick stances: three, paid from the first shot.
    assert_eq!((mia.stances[1], mia.unpaid_stances[1]), (3, 3));
    first_round(&mut t);
    assert_eq!(o6(&t).shots[1], 9 - 3);
    // A Stance action names the stance; another kind of action does not adopt one.
    let wrong = mv(Move::Act {
        actor: 1,
        kind: ActionType::Trigger,
        check: None,
        focuses: false,
        stance: Some("Tiger Stance".into()),
        moves: false,
    });
    assert!(refused(&t, &wrong).contains("is adopted with a Stance action"));
}

#[test]
fn assisting_without_a_roll_needs_the_same_or_more_skill() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    let shoot = act(
        0,
        ActionType::Trigger,
        Some(check("Shoot", Difficulty::Number(12))),
        false,
    );
    play(&mut t, &shoot, &[&[3, 2]]);
    let assist = |helper: usize, skill: &str| {
        mv(Move::Assist {
            helper,
            skill: skill.into(),
            no_roll: true,
        })
    };
    // Peter's Impress 11 against Fred's Shoot 9: no roll needed. Mia's Maneuver 9 too.
    let (o, said) = play(&mut t, &assist(1, "Maneuver"), &[]);
    assert_eq!(
        (o.success, o.class.as_str()),
        (Some(true), "assist without a roll")
    );
    assert_eq!(
        said[1],
        "Mia assists Fred: the check is now 11 against 12 (still a failure)"
    );
    // Fred's check, assisted by Mia: Peter may forgo the roll; a lower skill may not.
    play(
        &mut t,
        &mv(Move::ActiveDefense {
            actor: 1,
            skill: "Dodge".into(),
            against: None,
        }),
        &[],
    );
    let mia_check = act(
        1,
        ActionType::Trigger,
        Some(check("Martial Arts", Difficulty::Number(12))),
        false,
    );
    play(&mut t, &mia_check, &[&[3, 3]]);
    assert_eq!(
        refused(&t, &assist(0, "Maneuver")),
        "Fred's Maneuver 10 is below Mia's Martial Arts 12: the roll is forgone only when assisting someone of the same or lower skill"
    );
}

#[test]
fn a_limit_break_after_the_scene_for_the_focused_out_of_shots() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let end = mv(Move::EndScene);
    assert_eq!(
        refused(&t, &end),
        "no action scene has started: roll initiative first"
    );
    first_round(&mut t);
    play(
        &mut t,
        &mv(Move::Focus {
            actor: 1,
            condition: None,
        }),
        &[],
    );
    play(
        &mut t,
        &mv(Move::Focus {
            actor: 0,
            condition: None,
        }),
        &[],
    );
    o6_mut(&mut t).shots[1] = 0;
    let (_, said) = play(&mut t, &end, &[]);
    assert_eq!(
        said,
        [
            "Mia ended the scene focused and out of shots: one Limit Break after it",
            "the action scene ends"
        ]
    );
    assert_eq!(refused(&t, &end), "the action scene is over already");
    // Fred is focused but had shots left: no Limit Break after the scene.
    let limit_break = |actor| act(actor, ActionType::LimitBreak, None, false);
    assert!(refused(&t, &limit_break(0)).ends_with("Fred has none left"));
    let (_, said) = play(&mut t, &limit_break(1), &[]);
    assert_eq!(
        said,
        ["Mia: a Limit Break after the action scene (no shots: the scene is over)"]
    );
    assert!(refused(&t, &limit_break(1)).ends_with("Mia has none left"));
    assert!(!o6(&t).focused[1]);
    // Mia's stance, held into the next action scene, is paid again from its first shot.
    first_round(&mut t);
    assert_eq!((o6(&t).shots[1], o6(&t).scene_over), (8, false));
    let mut simple = table("open-d6-fred-and-peter.ron");
    o6_mut(&mut simple).use_simplified_initiative();
    assert!(refused(&simple, &end).starts_with("simplified initiative counts no shots"));
}
