//! The tests of `seat`.

use super::*;
use crate::rules::RulesError;
use crate::rules::play::Move as AnyMove;
use crate::rules::table::TableState;
use crate::rules::testing::{end_turn, play, table};
use crate::rules::{Refusal, RefusalKind};

fn mv(m: Move) -> AnyMove {
    AnyMove::ActionDice(m)
}

fn act(actor: usize, skill: &str, action_dice: u32, target: Goal) -> AnyMove {
    mv(Move::Act {
        actor,
        skill: skill.into(),
        action_dice,
        extra: 0,
        target,
        range_m: None,
        movement: false,
    })
}

fn with(m: AnyMove, change: impl FnOnce(&mut Move)) -> AnyMove {
    let AnyMove::ActionDice(mut inner) = m else {
        panic!("not action-dice")
    };
    change(&mut inner);
    AnyMove::ActionDice(inner)
}

/// "Four meters ... the maximum distance at which hand-to-hand attacks may not be used, and
/// the range beyond which ranged attacks take penalties"; "This action (if successful) gets
/// the character out of the way of an area-effect attack"; movement "uses the dice total to
/// determine who finishes first"; "the GM may rule that a declaration of a defensive action
/// is the character's action for that particular sequence of events".
/// "the GM may rule that a declaration of a defensive action is the character's action for
/// that particular sequence of events", and Dive For Cover is one of "the common defensive
/// actions": the ruling binds a dive as it binds a dodge, until End sequence.
#[test]
fn the_gm_may_rule_a_dive_for_cover_the_characters_action_for_the_sequence() {
    let mut t = table("action-dice-knight-and-magician.ron");
    let dive = mv(Move::DiveForCover {
        actor: 1,
        skill: Some("Running".into()),
        action_dice: 1,
        extra: 0,
        against: 2,
        zone_m: None,
        as_action: true,
    });
    assert_eq!(
        t.describe(&dive),
        "Mirelle the Magician: dives for cover from Policeman's attack, 1 action die + Running \
         (the GM rules it the action for this sequence)"
    );
    let (_, said) = play(&mut t, &dive, &[&[3, 2]]);
    assert_eq!(
        said.last().map(String::as_str),
        Some(
            "the GM rules it Mirelle the Magician's action for this sequence: no other action \
             until it is over"
        )
    );
    let bolt = act(1, "Fire Bolt", 1, Goal::Attack(2));
    assert_eq!(
        t.allowed(&bolt),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotNow,
            "the GM ruled Mirelle the Magician's defence the action for this sequence: no \
             other action until the sequence is over (End sequence)"
        )))
    );
    let (_, said) = play(&mut t, &mv(Move::EndSequence), &[]);
    assert_eq!(
        said,
        vec!["the sequence is over: Mirelle the Magician may act again"]
    );
    assert_eq!(t.allowed(&bolt), Ok(()));
}

/// "Four meters ... the range beyond which ranged attacks take penalties": a ranged attack at
/// a target number (a bottle on a wall 13 m away) takes them as an attack at a character does;
/// a hand-to-hand attack still reaches 4 m at most; a range is only an attack's.
#[test]
fn a_ranged_attack_at_a_target_number_takes_the_range_penalty() {
    let t = table("action-dice-knight-and-magician.ron");
    let at = |actor: usize, skill: &str, target: Goal, range: u32| {
        with(act(actor, skill, 1, target), |m| {
            if let Move::Act { range_m, .. } = m {
                *range_m = Some(range);
            }
        })
    };
    let target = |m: &AnyMove| t.odds(m).ok().flatten().and_then(|o| o.target);
    // The bottle: 10 to hit; 13 m is 9 m beyond the first 4 m, +1 for each 4 m or part: 13.
    let bottle = at(2, "Pistol", Goal::Number(10), 13);
    assert_eq!(target(&act(2, "Pistol", 1, Goal::Number(10))), Some(10));
    assert_eq!(target(&bottle), Some(13));
    assert_eq!(
        t.describe(&bottle),
        "Policeman: Pistol with 1 action die vs 10 at 13 m"
    );
    for (m, refused) in [
        (
            at(3, "Knife", Goal::Number(8), 6),
            "a hand-to-hand attack reaches 4 m at most; the target is 6 m away",
        ),
        (
            at(1, "Running", Goal::Number(8), 6),
            "a range is an attack's: Running is no combat skill",
        ),
        (
            at(2, "Pistol", Goal::None, 6),
            "a range is an attack's: aim it at a character or a target number",
        ),
    ] {
        assert_eq!(
            t.allowed(&m),
            Err(RulesError::Refused(Refusal::new(
                RefusalKind::Choice,
                refused
            )))
        );
    }
}

#[test]
fn range_a_dive_out_of_a_danger_zone_movement_races_and_the_gms_ruling() {
    let mut t = table("action-dice-knight-and-magician.ron");
    // The policeman's pistol at Mirelle, 10 m away: her ranged value 5 + Fire Bolt 2 = 7,
    // +1 for each 4 m (or part) beyond the first 4 m: 9.
    let far = with(act(2, "Pistol", 1, Goal::Attack(1)), |m| {
        if let Move::Act { range_m, .. } = m {
            *range_m = Some(10);
        }
    });
    let target = |t: &TableState, m: &AnyMove| t.odds(m).ok().flatten().and_then(|o| o.target);
    assert_eq!(target(&t, &act(2, "Pistol", 1, Goal::Attack(1))), Some(7));
    assert_eq!(target(&t, &far), Some(9));
    // A Group Attack at that range takes the same penalty.
    let group = mv(Move::GroupAttack {
        actor: 2,
        skill: "Pistol".into(),
        action_dice: 2,
        extra: 0,
        target: Goal::Attack(1),
        range_m: Some(10),
    });
    assert_eq!(target(&t, &group), Some(9));
    assert_eq!(
        t.describe(&far),
        "Policeman: Pistol with 1 action die at Mirelle the Magician at 10 m"
    );
    let (o, _) = play(&mut t, &far, &[&[5, 3]]);
    assert_eq!((o.total, o.success), (8, Some(false)));
    assert!(
        o.lines
            .contains(&"range 10 m, beyond 4 m: +2 on the target".to_string()),
        "{o:?}"
    );
    // A knife reaches 4 m at most.
    let knife = with(act(3, "Knife", 1, Goal::Attack(0)), |m| {
        if let Move::Act { range_m, .. } = m {
            *range_m = Some(6);
        }
    });
    assert_eq!(
        t.allowed(&knife),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "a hand-to-hand attack reaches 4 m at most; Sir Aldric is 6 m away"
        )))
    );
    // Mirelle dives out of the policeman's blast, its edge 6 m away: 1 action die + Running
    // 1, both kept, carry her 8 m. Known before the throw.
    let dive = mv(Move::DiveForCover {
        actor: 1,
        skill: Some("Running".into()),
        action_dice: 1,
        extra: 0,
        against: 2,
        zone_m: Some(6),
        as_action: false,
    });
    let odds = t.odds(&dive).expect("odds").expect("some");
    assert_eq!(odds.p_success.map(|p| p.exact()), Some("1".into()));
    let (o, _) = play(&mut t, &dive, &[&[3, 2]]);
    assert_eq!(
        (o.success, o.class.as_str()),
        (Some(true), "out of the danger zone")
    );
    assert!(
        o.lines.contains(
            &"2 dice of movement carry Mirelle the Magician 8 m: out of the 6 m danger zone"
                .to_string()
        )
    );
    // The blast cannot reach her; the dive is spent on it.
    let blast = act(2, "Pistol", 1, Goal::Attack(1));
    let odds = t.odds(&blast).expect("odds").expect("some");
    assert_eq!(odds.p_success.map(|p| p.exact()), Some("0".into()));
    let (o, said) = play(&mut t, &blast, &[&[6, 6]]);
    assert_eq!((o.success, o.class.as_str()), (Some(false), "out of reach"));
    assert_eq!(
        said.last().map(String::as_str),
        Some(
            "Mirelle the Magician dived clear of the danger zone: the attack cannot reach \
             them"
        )
    );
    assert_eq!(target(&t, &blast), Some(7), "the dive was for one attack");
    // A footrace: who finishes first goes by the totals, not by the dice spent.
    let run = |actor: usize, dice: u32| {
        with(act(actor, "Running", dice, Goal::None), |m| {
            if let Move::Act { movement, .. } = m {
                *movement = true;
            }
        })
    };
    assert_eq!(
        t.allowed(&with(run(0, 1), |m| {
            if let Move::Act { skill, .. } = m {
                *skill = "Sword".into();
            }
        })),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "Sword is a defence or combat skill: movement takes a movement skill"
        )))
    );
    play(&mut t, &run(3, 1), &[&[6, 6]]);
    play(&mut t, &run(0, 2), &[&[2, 2, 1, 1]]);
    assert_eq!(
        t.notes().last().map(String::as_str),
        Some("Movement finishes by total: Mugger (12), then Sir Aldric (5)")
    );
    // The GM rules the policeman's dodge his action for this sequence.
    play(&mut t, &mv(Move::EndRound), &[]);
    let dodge = mv(Move::Defend {
        actor: 2,
        skill: "Dodge".into(),
        action_dice: 1,
        extra: 0,
        against: Some(0),
        as_action: true,
    });
    let (_, said) = play(&mut t, &dodge, &[&[3, 3]]);
    assert_eq!(
        said.last().map(String::as_str),
        Some(
            "the GM rules it Policeman's action for this sequence: no other action until it \
             is over"
        )
    );
    let club = act(2, "Club", 1, Goal::Attack(0));
    assert_eq!(
        t.allowed(&club),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotNow,
            "the GM ruled Policeman's defence the action for this sequence: no other action \
             until the sequence is over (End sequence)"
        )))
    );
    let (_, said) = play(&mut t, &mv(Move::EndSequence), &[]);
    assert_eq!(said, vec!["the sequence is over: Policeman may act again"]);
    assert_eq!(t.allowed(&club), Ok(()));
}

#[test]
fn a_round_spends_budgets_and_orders_resolution() {
    let mut t = table("action-dice-knight-and-magician.ron");
    // Sir Aldric rides with 2 action dice: the riding die goes first, then one general.
    let ride = act(0, "Riding", 2, Goal::Number(10));
    assert_eq!(t.plan(&ride).map(|p| p.dice.len()), Ok(4), "2 + Riding 2");
    let (o, said) = play(&mut t, &ride, &[&[6, 5, 2, 1]]);
    assert_eq!((o.total, o.success), (14, Some(true)));
    assert_eq!(
        said[0],
        "Sir Aldric spends 2 action dice on Riding (2 left this round)"
    );
    assert_eq!(
        t.tracker()[0].status[..2],
        ["action dice 2/3".to_string(), "riding die 0/1".to_string()]
    );
    // The mugger has one die: a knife thrust, then nothing left.
    let stab = act(3, "Knife", 1, Goal::Number(8));
    let (o, _) = play(&mut t, &stab, &[&[6, 6]]);
    assert_eq!(o.total, 12);
    let err = t.allowed(&stab).expect_err("spent");
    assert_eq!(
        err,
        RulesError::Refused(Refusal::new(
            RefusalKind::Spent,
            "Mugger has 0 action dice usable for Knife this round, not 1"
        ))
    );
    // Mirelle's magic dice serve Fire Bolt; General Defense needs two dice.
    let bolt = act(1, "Fire Bolt", 3, Goal::None);
    assert!(t.allowed(&bolt).is_ok(), "1 general + 2 magic");
    play(&mut t, &bolt, &[&[1, 1, 1, 1, 1]]);
    assert_eq!(
        t.notes(),
        vec![
            "Resolution order: Mirelle the Magician (3 dice, 5), then Sir Aldric (2 dice, 14), then Mugger (1 die, 12)"
        ]
    );
    assert_eq!(
        end_turn(&mut t),
        Ok("round 2: fresh action dice for everyone; defences end".into())
    );
    assert!(t.notes().is_empty());
    assert!(t.allowed(&stab).is_ok(), "a fresh die");
}

/// Point 4: a passive ability (Toughness) is rolled without an action or action dice.
#[test]
fn toughness_is_rolled_without_action_dice() {
    let mut t = table("action-dice-knight-and-magician.ron");
    let toughness = mv(Move::Passive {
        actor: 0,
        ability: "Toughness".into(),
        target: Some(10),
    });
    assert_eq!(t.plan(&toughness).map(|p| p.dice.len()), Ok(3), "flat 3d6");
    // Spend every action die first: Toughness still rolls.
    play(&mut t, &act(0, "Sword", 3, Goal::None), &[&[1; 6]]);
    play(&mut t, &act(0, "Riding", 1, Goal::None), &[&[1; 3]]);
    let (o, said) = play(&mut t, &toughness, &[&[6, 3, 2]]);
    assert_eq!((o.total, o.success), (11, Some(true)));
    assert_eq!(
        said,
        vec!["Sir Aldric rolls a passive ability: no action, no action dice"]
    );
    // Odds: 3d6 ≥ 10 = 135/216 = 5/8.
    let odds = t.odds(&toughness).expect("odds").expect("some");
    assert_eq!(odds.p_success.map(|p| p.exact()), Some("5/8".into()));
    // Neither may it be paid for, nor an active ability rolled as passive.
    let err = t
        .allowed(&act(0, "Toughness", 1, Goal::None))
        .expect_err("passive");
    assert_eq!(
        err,
        RulesError::Refused(Refusal::new(
            RefusalKind::Unable,
            "Toughness is passive: it needs no action, roll it without action dice"
        ))
    );
    let err = t
        .allowed(&mv(Move::Passive {
            actor: 0,
            ability: "Running".into(),
            target: None,
        }))
        .expect_err("active");
    assert_eq!(
        err,
        RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "Running is an active ability: it takes action dice"
        ))
    );
}

/// Point 5: defences last the round and set the target of attacks automatically.
#[test]
fn attacks_aim_at_the_defenders_base_plus_the_best_defence() {
    let mut t = table("action-dice-knight-and-magician.ron");
    // The policeman clubs Sir Aldric: hand-to-hand base 5 + Sword 3 = 8.
    let club = act(2, "Club", 1, Goal::Attack(0));
    let odds = t.odds(&club).expect("odds").expect("some");
    assert_eq!(odds.target, Some(8));
    // Aldric parries with his Sword (1 die + 3 = 4d6: 4+3+2+1 = 10), then dodges
    // (1 + Dodge 1 = 2d6: 3+3 = 6). Only the best counts: 8 + 10 = 18.
    let parry = mv(Move::Defend {
        actor: 0,
        skill: "Sword".into(),
        action_dice: 1,
        extra: 0,
        against: Some(2),
        as_action: false,
    });
    let (_, said) = play(&mut t, &parry, &[&[4, 3, 2, 1]]);
    assert_eq!(
        said[1],
        "Sir Aldric's defence hand-to-hand 8, ranged 6 (Sword 10 vs Policeman) until the end of \
         the round"
    );
    let dodge = mv(Move::Defend {
        actor: 0,
        skill: "Dodge".into(),
        action_dice: 1,
        extra: 0,
        against: Some(2),
        as_action: false,
    });
    play(&mut t, &dodge, &[&[3, 3]]);
    assert_eq!(t.odds(&club).expect("odds").expect("some").target, Some(18));
    // A ranged attack: base 5 + Dodge 1 (Dodge counts in both) + the Dodge roll 6 = 12.
    let shot = act(2, "Pistol", 1, Goal::Attack(0));
    assert_eq!(t.odds(&shot).expect("odds").expect("some").target, Some(12));
    let (o, _) = play(&mut t, &shot, &[&[6, 5]]);
    assert_eq!((o.total, o.success), (11, Some(false)));
    // Fire Bolt is not a hand-to-hand skill of the mugger's; Riding is no combat skill.
    let err = t
        .allowed(&act(0, "Riding", 1, Goal::Attack(3)))
        .expect_err("not combat");
    assert_eq!(
        err,
        RulesError::Refused(Refusal::new(
            RefusalKind::Unknown,
            "Riding is not one of Sir Aldric's combat skills (hand-to-hand: Sword; ranged: )"
        ))
    );
    // The round ends, and so do the defences.
    end_turn(&mut t).expect("round");
    assert_eq!(t.odds(&club).expect("odds").expect("some").target, Some(8));
    // A parry or dodge names whose attacks it answers; General Defense answers everyone's.
    let unaimed = mv(Move::Defend {
        actor: 0,
        skill: "Dodge".into(),
        action_dice: 1,
        extra: 0,
        against: None,
        as_action: false,
    });
    assert_eq!(
        t.allowed(&unaimed),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "Dodge adds to the defence against the attacks of one character: choose whose \
             (against)"
        )))
    );
    let aimed_general = mv(Move::Defend {
        actor: 0,
        skill: "General Defense".into(),
        action_dice: 2,
        extra: 0,
        against: Some(2),
        as_action: false,
    });
    assert_eq!(
        t.allowed(&aimed_general),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "General Defense covers every attacker until the end of the round: it is aimed \
             at no one attacker (against every attacker)"
        )))
    );
}

/// A defence aimed at one attacker (the text: "attacks by one character"), and Dive For
/// Cover: a movement action's dice on the ranged value against one specific attack.
#[test]
fn a_parry_aimed_at_one_attacker_and_a_dive_from_one_attack() {
    let mut t = table("action-dice-knight-and-magician.ron");
    // Sir Aldric parries the mugger's knife with his Sword: 1 die + 3 = 4d6, 10.
    let parry = mv(Move::Defend {
        actor: 0,
        skill: "Sword".into(),
        action_dice: 1,
        extra: 0,
        against: Some(3),
        as_action: false,
    });
    assert_eq!(
        t.describe(&parry),
        "Sir Aldric: defends with Sword, 1 action die against Mugger"
    );
    let (_, said) = play(&mut t, &parry, &[&[4, 3, 2, 1]]);
    assert_eq!(
        said[1],
        "Sir Aldric's defence hand-to-hand 8, ranged 6 (Sword 10 vs Mugger) until the end of \
         the round"
    );
    // The mugger's knife meets the parry: 8 + 10; the policeman's club does not: 8.
    let target = |t: &TableState, m: &AnyMove| t.odds(m).ok().flatten().and_then(|o| o.target);
    assert_eq!(target(&t, &act(3, "Knife", 1, Goal::Attack(0))), Some(18));
    assert_eq!(target(&t, &act(2, "Club", 1, Goal::Attack(0))), Some(8));
    // He dives from the policeman's pistol with Running (1 action die + Running 2, the
    // best 3 of 3d6): 5 + 4 + 3 = 12 on his ranged value against that one shot.
    let dive = mv(Move::DiveForCover {
        actor: 0,
        skill: Some("Running".into()),
        action_dice: 1,
        extra: 0,
        against: 2,
        zone_m: None,
        as_action: false,
    });
    assert_eq!(
        t.describe(&dive),
        "Sir Aldric: dives for cover from Policeman's attack, 1 action die + Running"
    );
    let (o, said) = play(&mut t, &dive, &[&[5, 4, 3]]);
    assert_eq!(o.total, 12);
    assert_eq!(
        said[1],
        "Sir Aldric's defence hand-to-hand 8, ranged 6 (Sword 10 vs Mugger, Dive For Cover 12 \
         vs Policeman, one attack) until the end of the round"
    );
    let shot = act(2, "Pistol", 1, Goal::Attack(0));
    assert_eq!(target(&t, &shot), Some(18));
    assert_eq!(
        target(&t, &act(1, "Fire Bolt", 1, Goal::Attack(0))),
        Some(6)
    );
    // The shot is made (a miss, 7 against 18); the dive is spent: the next shot aims at 6.
    let (o, _) = play(&mut t, &shot, &[&[4, 3]]);
    assert_eq!((o.total, o.success), (7, Some(false)));
    assert_eq!(target(&t, &shot), Some(6));
    // A defence aimed at oneself, and a dive with a defence or combat skill, are refused.
    let own = mv(Move::Defend {
        actor: 1,
        skill: "Dodge".into(),
        action_dice: 1,
        extra: 0,
        against: Some(1),
        as_action: false,
    });
    assert_eq!(
        t.allowed(&own),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "a defence is aimed at another character's attacks, not Mirelle the Magician's \
             own"
        )))
    );
    // So is an attack on oneself: it was rolled, paid for and marked the attacker attacked.
    assert_eq!(
        t.allowed(&act(1, "Fire Bolt", 1, Goal::Attack(1))),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Target,
            "an attack is aimed at another character: Mirelle the Magician cannot attack \
             themself"
        )))
    );
    let dodge_dive = mv(Move::DiveForCover {
        actor: 1,
        skill: Some("Dodge".into()),
        action_dice: 1,
        extra: 0,
        against: 2,
        zone_m: None,
        as_action: false,
    });
    assert_eq!(
        t.allowed(&dodge_dive),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "Dodge is a defence or combat skill: movement takes a movement skill"
        )))
    );
}

/// "Abilities have a maximum number of dice (typically N+1)": a character may list another.
#[test]
fn an_abilitys_maximum_may_be_other_than_n_plus_one() {
    let running = act(0, "Running", 2, Goal::None);
    // Running 2 with 2 action dice: 4d6, the best 3 (N+1) count: 6 + 5 + 4.
    let mut t = table("action-dice-knight-and-magician.ron");
    assert_eq!(play(&mut t, &running, &[&[6, 5, 4, 1]]).0.total, 15);
    // With ability_max Running: 2, the best 2 count.
    let mut scene = crate::rules::testing::scene("action-dice-knight-and-magician.ron");
    if let crate::rules::scene::Cast::ActionDice(cs) = &mut scene.cast {
        cs[0].ability_max.insert("Running".into(), 2);
    }
    assert_eq!(scene.validate(), Ok(()));
    let mut t = TableState::new(&scene, &crate::rules::testing::book(), 1);
    let (o, _) = play(&mut t, &running, &[&[6, 5, 4, 1]]);
    assert_eq!(o.total, 11);
    // A maximum for an ability the character lacks, or of 0, is refused.
    if let crate::rules::scene::Cast::ActionDice(cs) = &mut scene.cast {
        cs[0].ability_max.insert("Flying".into(), 2);
    }
    assert_eq!(
        scene.validate(),
        Err(Refusal::new(
            RefusalKind::Scene,
            "Sir Aldric's ability_max names Flying, which is not among its abilities"
        ))
    );
}

#[test]
fn noncombat_is_too_late_once_the_character_is_attacked() {
    let mut t = table("action-dice-knight-and-magician.ron");
    let noncombat = mv(Move::DeclareNoncombat { actor: 3 });
    assert_eq!(t.allowed(&noncombat), Ok(()));
    // The knight's Sword on four ones misses the mugger, who has not acted but has been
    // attacked.
    let (o, _) = play(
        &mut t,
        &act(0, "Sword", 1, Goal::Attack(3)),
        &[&[1, 1, 1, 1]],
    );
    assert_eq!((o.total, o.success), (4, Some(false)));
    assert_eq!(
        t.allowed(&noncombat),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotNow,
            "Mugger has been attacked this round: noncombat is declared before any action \
             directly affects the character"
        )))
    );
    // The next round, it may.
    end_turn(&mut t).expect("round");
    assert_eq!(t.allowed(&noncombat), Ok(()));
}

/// Point 5 (noncombat) and point 6: a noncombat defender's base is 0 and it cannot take
/// General Defense; Group Attack rolls half of (2 + the attack skill's dice); General
/// Defense without Dodge uses the lower best defensive skill of the two categories.
#[test]
fn noncombat_group_attack_and_general_defense_dice() {
    let mut t = table("action-dice-knight-and-magician.ron");
    let noncombat = mv(Move::DeclareNoncombat { actor: 3 });
    let (_, said) = play(&mut t, &noncombat, &[]);
    assert_eq!(
        said,
        vec!["Mugger is noncombat this round: +1 action die, defence 0"]
    );
    assert_eq!(t.tracker()[3].status[0], "action dice 2/2");
    assert!(t.allowed(&noncombat).is_err(), "once");
    let knife = act(0, "Sword", 1, Goal::Attack(3));
    assert_eq!(t.odds(&knife).expect("odds").expect("some").target, Some(0));
    let general = mv(Move::Defend {
        actor: 3,
        skill: "General Defense".into(),
        action_dice: 2,
        extra: 0,
        against: None,
        as_action: false,
    });
    let err = t.allowed(&general).expect_err("noncombat");
    assert_eq!(
        err,
        RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "Mugger is noncombat this round: no General Defense"
        ))
    );
    // Sir Aldric's Group Attack with Sword 3: ceil((2 + 3) / 2) = 3 dice, + 1 extra action
    // die in full = 4.
    let group = mv(Move::GroupAttack {
        actor: 0,
        skill: "Sword".into(),
        action_dice: 3,
        extra: 0,
        target: Goal::Attack(2),
        range_m: None,
    });
    assert_eq!(t.plan(&group).map(|p| p.dice.len()), Ok(4));
    // The policeman has Dodge 1: General Defense rolls ceil((2 + 1) / 2) = 2 dice.
    let pg = mv(Move::Defend {
        actor: 2,
        skill: "General Defense".into(),
        action_dice: 2,
        extra: 0,
        against: None,
        as_action: false,
    });
    assert_eq!(t.plan(&pg).map(|p| p.dice.len()), Ok(2));
    // Without Dodge, the lower of the best skills of each category: Club 2, Pistol 1 → 1.
    if let TableState::ActionDice(ad) = &mut t {
        ad.characters[2].skills.remove("Dodge");
        assert_eq!(ad.characters[2].general_defense_dice(), 1);
    }
    assert_eq!(t.plan(&pg).map(|p| p.dice.len()), Ok(2), "ceil(3/2)");
    if let TableState::ActionDice(ad) = &mut t {
        ad.characters[2].skills.insert("Pistol".into(), 3);
        ad.characters[2].skills.insert("Club".into(), 4);
    }
    // Club 4, Pistol 3: the lower is 3; ceil((2 + 3) / 2) = 3.
    assert_eq!(t.plan(&pg).map(|p| p.dice.len()), Ok(3));
}
