//! The tests of `seat`.

use super::*;
use crate::rules::RulesError;
use crate::rules::play::Move as AnyMove;
use crate::rules::table::TableState;
use crate::rules::testing::{play, table};
use crate::rules::{Refusal, RefusalKind};

mod last_check;
mod last_differences;

fn mv(m: Move) -> AnyMove {
    AnyMove::OpenD6(m)
}

fn check(skill: &str, difficulty: Difficulty) -> Check {
    Check::plain(skill, RollKind::Standard, difficulty)
}

fn act(actor: usize, kind: ActionType, c: Option<Check>, focuses: bool) -> AnyMove {
    mv(Move::Act {
        actor,
        kind,
        check: c,
        focuses,
        stance: None,
        moves: false,
    })
}

fn o6(t: &TableState) -> &Table {
    match t {
        TableState::OpenD6(t) => t,
        _ => panic!("not open-d6"),
    }
}

fn o6_mut(t: &mut TableState) -> &mut Table {
    match t {
        TableState::OpenD6(t) => t,
        _ => panic!("not open-d6"),
    }
}

/// Fred 8 + (3 − 1) = 10; Mia 9 + (2 − 2) − 1 stance = 8; Peter 7 + (6 − 1) = 12; goons 5.
/// The move of `by` knocking `target` out.
fn ko_by(target: usize, by: usize) -> AnyMove {
    mv(Move::KnockOut {
        target,
        by: Some(by),
    })
}

fn first_round(t: &mut TableState) {
    play(t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
}

/// The text's own example is no fight: Fred tags Peter in a queue, a check outside an
/// action scene (no shots, no turn order); and a stunt that lists "the opponent's Dodge or
/// Know" is against the highest of those.
#[test]
fn a_check_outside_an_action_scene_and_a_stunt_against_listed_skills() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let tag = mv(Move::Check {
        actor: 0,
        check: check("Maneuver", Difficulty::Against(2)),
    });
    assert_eq!(
        t.describe(&tag),
        "Fred: a check outside an action scene, Maneuver (Standard) vs Peter"
    );
    // 10 + (5 − 2) = 13 against the higher of Maneuver 10 and Dodge 13: marginal.
    let (o, said) = play(&mut t, &tag, &[&[5, 2]]);
    assert_eq!((o.total, o.success), (0, Some(true)));
    assert_eq!(said, vec!["Fred checks outside an action scene: no shots"]);
    // Assist and Push Luck follow it as they follow any check.
    assert!(o6(&t).last_check.is_some());
    // Listed skills: Peter's Impress 11 or Dodge 13, the highest.
    let listed = |skills: &[&str]| {
        mv(Move::Check {
            actor: 0,
            check: check(
                "Maneuver",
                Difficulty::Listed(2, skills.iter().map(|s| s.to_string()).collect()),
            ),
        })
    };
    let difficulty = |t: &TableState, m: &AnyMove| t.odds(m).ok().flatten().and_then(|o| o.target);
    assert_eq!(
        difficulty(&t, &listed(&["Impress"])),
        difficulty(
            &t,
            &mv(Move::Check {
                actor: 0,
                check: check("Maneuver", Difficulty::Number(11)),
            })
        )
    );
    assert_eq!(
        difficulty(&t, &listed(&["Dodge", "Impress"])),
        difficulty(&t, &tag)
    );
    assert_eq!(
        t.allowed(&listed(&["Know"])),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Unable,
            "Peter has none of Know"
        )))
    );
    assert_eq!(
        t.describe(&listed(&["Dodge", "Know"])),
        "Fred: a check outside an action scene, Maneuver (Standard) vs Peter's Dodge or Know"
    );
    // Once a round is on, checks are actions on the shot counter.
    first_round(&mut t);
    assert_eq!(
        t.allowed(&tag),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotNow,
            "an action scene is on: a check is an action on the shot counter (Action); \
             checks without shots come before the first initiative or after the scene ends"
        )))
    );
    play(&mut t, &mv(Move::EndScene), &[]);
    assert_eq!(t.allowed(&tag), Ok(()), "after the scene, again");
}

/// Gauge Skill: "an opposed roll of that skill against them"; success tells the rating and
/// three schticks; a trigger action in a round, a Limit Break when the skill is not in use.
#[test]
fn gauge_skill_learns_a_rating_and_its_schticks() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let gauge = |target: usize, skill: &str, limit_break: bool| {
        mv(Move::GaugeSkill {
            actor: 0,
            target,
            skill: skill.into(),
            limit_break,
        })
    };
    // Outside an action scene: no shots. Mia dodges (12 + (3 − 3) against 10), and Fred,
    // seeing it, gauges her Dodge 12: 11 + (5 − 1) = 15.
    let dodge = mv(Move::Check {
        actor: 1,
        check: check("Dodge", Difficulty::Number(10)),
    });
    play(&mut t, &dodge, &[&[3, 3]]);
    let (o, said) = play(&mut t, &gauge(1, "Dodge", false), &[&[5, 1]]);
    assert_eq!((o.total, o.success), (3, Some(true)));
    assert_eq!(
        said,
        vec!["Fred gauges Mia's Dodge: 12; schticks: Crane Stance (+2)"]
    );
    assert_eq!(
        t.allowed(&gauge(1, "Martial Arts", false)),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Unknown,
            "Fred has no skill 'Martial Arts'"
        )))
    );
    assert_eq!(
        t.allowed(&gauge(0, "Dodge", false)),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Target,
            "Fred cannot gauge their own skill"
        )))
    );
    // In a round it is a trigger action (1 shot), once Peter uses his Maneuver (an Active
    // Defense); a failure tells only one's own result.
    first_round(&mut t);
    let defend = mv(Move::ActiveDefense {
        actor: 2,
        skill: "Maneuver".into(),
        against: None,
    });
    play(&mut t, &defend, &[]);
    let (o, said) = play(&mut t, &gauge(2, "Maneuver", false), &[&[1, 4]]);
    assert_eq!(o.success, Some(false));
    assert_eq!(
        said,
        vec![
            "Fred: Trigger action, shots 10 -> 9",
            "Fred learns only their own result (7) of Peter's Maneuver"
        ]
    );
    // As a Limit Break it waits for Fred's shot, and his focus.
    assert_eq!(
        t.allowed(&gauge(2, "Maneuver", true)),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotTheirTurn,
            "it is Peter's shot (11)"
        )))
    );
    play(&mut t, &mv(Move::EndScene), &[]);
    assert_eq!(
        t.allowed(&gauge(2, "Maneuver", true)),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Unable,
            "gauging a skill not in use is a Limit Break: Fred must focus first"
        )))
    );
}

/// Setup Finisher sets a target up for a friend's Finisher "as a Trigger Action"; a
/// Finishing Stunt with a Basic Action is Routine and Confident, and its success an
/// "infinite outcome": an automatic Setback.
#[test]
fn setup_finisher_and_finishing_stunt() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    let basic = |actor| act(actor, ActionType::Basic, None, false);
    play(&mut t, &basic(2), &[]); // Peter 12 -> 9
    play(&mut t, &basic(0), &[]); // Fred 10 -> 7
    play(&mut t, &basic(2), &[]); // Peter 9 -> 6
    let finish = |actor, target| {
        mv(Move::FinishingStunt {
            actor,
            target,
            skill: "Shoot".into(),
            limit_break: false,
        })
    };
    assert_eq!(
        t.allowed(&finish(0, 3)),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Unable,
            "a Finishing Stunt is a Finisher: Fred has neither just knocked an opponent out \
             nor been set up to finish Goons"
        )))
    );
    // Mia (shot 8) sets the goons up for Fred: Martial Arts 12 + (3 − 3) against Dodge 7.
    let setup = mv(Move::SetupFinisher {
        actor: 1,
        partner: 0,
        check: check("Martial Arts", Difficulty::Against(3)),
    });
    let (o, said) = play(&mut t, &setup, &[&[3, 3]]);
    assert_eq!(o.success, Some(true));
    assert_eq!(
        said.last().map(String::as_str),
        Some("Mia sets Goons up: Fred may finish them at once, as a trigger action")
    );
    // Fred finishes at once, as a trigger action: Shoot 9, Confident (4, 1) = +3, against
    // Routine 5.
    let (o, said) = play(&mut t, &finish(0, 3), &[&[1, 4]]);
    assert_eq!((o.total, o.success), (7, Some(true)));
    assert_eq!(
        said,
        vec![
            "Fred: Trigger action, shots 7 -> 6",
            "the Finishing Stunt succeeds: an infinite outcome for Goons",
            "Goons suffers a Setback (a Finishing Stunt, automatically; 1 now)"
        ]
    );
    assert!(t.allowed(&finish(0, 3)).is_err(), "taken up once");
    // After a knock-out the Finisher costs no shots.
    play(&mut t, &ko_by(2, 0), &[]);
    let (_, said) = play(&mut t, &finish(0, 2), &[&[2, 2]]);
    assert_eq!(said[0], "Fred: Finisher action, shots 6 -> 6");
}

/// "When you take a basic action, you also get to move a distance equal to your Move";
/// a Full Move moves twice the Move; a trigger action includes no movement.
#[test]
fn a_basic_action_moves_a_full_move_twice_and_a_trigger_not_at_all() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    let moving = |actor, kind| {
        mv(Move::Act {
            actor,
            kind,
            check: None,
            focuses: false,
            stance: None,
            moves: true,
        })
    };
    assert_eq!(
        t.allowed(&moving(0, ActionType::Trigger)),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Choice,
            "a Trigger action includes no movement: Fred moves with a Basic Action (or a \
             Limit Break, or a Full Move)"
        )))
    );
    let (_, said) = play(&mut t, &moving(2, ActionType::Basic), &[]);
    assert_eq!(
        said,
        vec![
            "Peter: Basic action, shots 12 -> 9",
            "Peter moves up to 10 m, before or after acting"
        ]
    );
    let (o, said) = play(&mut t, &mv(Move::FullMove { actor: 0 }), &[]);
    assert_eq!(o.class, "full move");
    assert_eq!(
        said,
        vec![
            "Fred: Basic action, shots 10 -> 7",
            "Fred makes a Full Move: up to 20 m, doing nothing else"
        ]
    );
    o6_mut(&mut t).characters[2].move_m = None;
    assert_eq!(
        t.allowed(&mv(Move::FullMove { actor: 2 })),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Unable,
            "Peter has no Move in the scene (move_m: 10)"
        )))
    );
}

/// A hit's damage: the outcome, the weapon's damage, damage-increasing stances stacking
/// with it; the soak, and resistances stacking with it against their type of damage.
#[test]
fn damage_boosts_soak_and_resistances() {
    let mut t = table("open-d6-fred-and-peter.ron");
    play(
        &mut t,
        &mv(Move::StanceBeforeRound {
            actor: 1,
            stance: Some("Fire Touch".into()),
        }),
        &[],
    );
    first_round(&mut t); // Mia 9 + 0 − 2 stances = 7
    let basic = |actor, c: Option<Check>| act(actor, ActionType::Basic, c, false);
    let deal = |by, weapon, kind: Option<&str>| {
        mv(Move::DealDamage {
            by,
            target: 2,
            weapon,
            kind: kind.map(String::from),
        })
    };
    assert_eq!(
        t.allowed(&deal(0, 3, None)),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotNow,
            "damage follows an attack: Fred's last check was not against Peter"
        )))
    );
    play(&mut t, &basic(2, None), &[]); // Peter 12 -> 9
    // Fred: Maneuver 10 + (5 − 1) = 14 against Dodge 13: outcome 1, + weapon 3 = 4, less
    // soak 2: 2 hits.
    play(
        &mut t,
        &basic(0, Some(check("Maneuver", Difficulty::Against(2)))),
        &[&[5, 1]],
    );
    let (o, said) = play(&mut t, &deal(0, 3, Some("physical")), &[]);
    assert_eq!((o.total, o.class.as_str()), (2, "damage"));
    assert_eq!(
        o.lines,
        vec![
            "outcome 1 + weapon 3 (physical)",
            "damage 4 − soak 2 = 2 hits on Peter"
        ]
    );
    assert_eq!(said, vec!["Peter takes 2 hits: 8 left"]);
    assert_eq!(
        t.allowed(&deal(0, 3, None)),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Already,
            "the damage of Fred's attack on Peter has been dealt"
        )))
    );
    play(&mut t, &basic(2, None), &[]); // Peter 9 -> 6
    play(&mut t, &basic(0, None), &[]); // Fred 7 -> 4
    // Mia's Fire Touch adds fire damage; Peter's Resist Fire adds 3 to his soak against it.
    play(
        &mut t,
        &basic(1, Some(check("Martial Arts", Difficulty::Against(2)))),
        &[&[4, 1]],
    );
    let (o, said) = play(&mut t, &deal(1, 1, None), &[]);
    assert_eq!(
        o.lines,
        vec![
            "outcome 2 + weapon 1",
            "Fire Touch adds +2 fire damage",
            "damage 5 − soak 2 + Resist Fire 3 = 0 hits on Peter"
        ]
    );
    assert_eq!(said, vec!["Peter takes 0 hits: 8 left"]);
}

/// "When focus has a condition that has to be fulfilled, you check for that condition when
/// your turn ends": defeating a named opponent focuses; a turn without it does not.
#[test]
fn a_focus_condition_is_checked_when_the_turn_ends() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    let basic = |actor| act(actor, ActionType::Basic, None, false);
    let focus_if = |actor, c| {
        mv(Move::Focus {
            actor,
            condition: Some(c),
        })
    };
    play(&mut t, &basic(2), &[]); // Peter 12 -> 9
    let (o, said) = play(&mut t, &focus_if(0, FocusCondition::DefeatNamed), &[]);
    assert_eq!(o.class, "focus waits");
    assert_eq!(
        said,
        vec![
            "Fred's focus waits on its condition (defeat a named opponent), checked when the \
             turn ends"
        ]
    );
    assert!(
        t.tracker()[0]
            .status
            .contains(&"focus if they defeat a named opponent".to_string())
    );
    play(&mut t, &basic(0), &[]); // Fred's turn: 10 -> 7
    play(&mut t, &ko_by(2, 0), &[]); // he knocks Peter out
    assert!(!o6(&t).focused[0], "not before the turn ends");
    let (_, said) = play(&mut t, &basic(1), &[]); // Mia's turn ends Fred's
    assert_eq!(
        said[0],
        "Fred's turn ends with the focus condition met (defeat a named opponent): Fred is \
         focused"
    );
    assert!(o6(&t).focused[0]);
    // Mia waits on a Setback on a named opponent; one on the unnamed goons does not count.
    play(&mut t, &focus_if(1, FocusCondition::SetbackOnNamed), &[]);
    let (_, said) = play(
        &mut t,
        &mv(Move::Setback {
            target: 3,
            by: Some(1),
        }),
        &[],
    );
    assert_eq!(
        said,
        vec!["Goons suffers a Setback (inflicted by Mia; 1 now)"]
    );
    let (_, said) = play(&mut t, &basic(0), &[]); // Fred's next turn ends Mia's
    assert_eq!(
        said[0],
        "Mia's turn ends without the focus condition (inflict a Setback on a named \
         opponent): no focus"
    );
    assert!(!o6(&t).focused[1]);
}

#[test]
fn initiative_sixes_and_the_shot_counter() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let fred = act(
        0,
        ActionType::Basic,
        Some(check("Maneuver", Difficulty::Number(13))),
        false,
    );
    assert!(t.allowed(&fred).is_err(), "no initiative yet");
    assert_eq!(t.default_move(), mv(Move::Initiative));
    let (o, said) = play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
    assert_eq!(o.lines[0], "Fred: Reflexes 8 + (3 − 1) -> shot 10");
    assert_eq!(o.lines[1], "Mia: Reflexes 9 + (2 − 2) − 1 stance -> shot 8");
    assert_eq!(o.lines[3], "Goons: Reflexes 5 (unnamed: no roll) -> shot 5");
    assert_eq!(o.tags, vec!["Mia: double deuces"]);
    assert_eq!(said, vec!["round 1: the counter starts at shot 12"]);
    // Peter's shot: a Maneuver stunt on Fred, the higher of Fred's Maneuver 10, Dodge 11.
    let peter = t.default_move();
    assert_eq!(
        t.describe(&peter),
        "Peter: Basic action, Maneuver (Standard) vs Fred"
    );
    assert_eq!(t.odds(&peter).expect("odds").expect("some").target, Some(0));
    // A six on the light die is thrown again: 6 + 3 − 2 = +7, Maneuver 10 + 7 = 17.
    let (o, said) = play(&mut t, &peter, &[&[6, 2], &[3]]);
    assert_eq!((o.total, o.success), (6, Some(true)));
    assert_eq!(said, vec!["Peter: Basic action, shots 12 -> 9"]);
    let (o, _) = play(&mut t, &fred, &[&[1, 1], &[4]]);
    assert!(
        o.tags.iter().any(|tag| tag.starts_with("friction 4")),
        "{o:?}"
    );
    assert_eq!(o6(&t).shots, vec![7, 8, 9, 5]);
}

/// Point 9: a stance is paid from the first shot of the first round only.
#[test]
fn stances_are_paid_once() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    assert_eq!(o6(&t).shots[1], 8, "Mia pays her stance in round 1");
    // Everyone spends the round.
    o6_mut(&mut t).shots = vec![0; 4];
    let (o, _) = play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
    assert_eq!(o.lines[1], "Mia: Reflexes 9 + (2 − 2) -> shot 9");
    assert_eq!(o6(&t).shots[1], 9, "not again in round 2");
    // A stance adopted in a round costs a shot then, and is not paid again.
    o6_mut(&mut t).shots = vec![0, 9, 0, 0];
    let (_, said) = play(&mut t, &act(1, ActionType::Stance, None, false), &[]);
    assert_eq!(
        said,
        vec!["Mia: Stance action, shots 9 -> 8", "Mia adopts a stance"]
    );
    assert_eq!(o6(&t).stances[1], 2);
    o6_mut(&mut t).shots = vec![0; 4];
    play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
    assert_eq!(o6(&t).shots[1], 9);
}

/// Point 10: an NPC's Limit Break costs 3 shots, a hero's all that remain.
#[test]
fn npc_limit_breaks_do_not_cost_every_shot() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    let focus = act(2, ActionType::Trigger, None, true);
    play(&mut t, &focus, &[]);
    assert_eq!(o6(&t).shots[2], 11);
    let lb = act(
        2,
        ActionType::LimitBreak,
        Some(check("Impress", Difficulty::Number(8))),
        false,
    );
    let (_, said) = play(&mut t, &lb, &[&[4, 1]]);
    assert_eq!(said[0], "Peter: LimitBreak action, shots 11 -> 8");
    // Fred (a hero) at shot 10: a focus then a Limit Break takes everything.
    play(&mut t, &act(0, ActionType::Trigger, None, true), &[]);
    assert_eq!(o6(&t).shots[0], 9);
    o6_mut(&mut t).shots[2] = 0;
    let lb = act(
        0,
        ActionType::LimitBreak,
        Some(check("Shoot", Difficulty::Number(8))),
        false,
    );
    let (_, said) = play(&mut t, &lb, &[&[4, 1]]);
    assert_eq!(said[0], "Fred: LimitBreak action, shots 9 -> 0");
}

/// Point 11: focus once a round; snake eyes only on an action's first roll; special results
/// on Closed rolls and initiative.
#[test]
fn focus_once_a_round_and_special_results_on_closed_rolls() {
    let mut t = table("open-d6-fred-and-peter.ron");
    // Snake eyes on initiative: reported with a friction check; shots unchanged.
    let (o, _) = play(&mut t, &mv(Move::Initiative), &[&[1, 1, 6, 6, 6, 1], &[5]]);
    assert_eq!(o.lines[0], "Fred: Reflexes 8 + (1 − 1) -> shot 8");
    assert_eq!(o.lines[1], "Mia: Reflexes 9 + (6 − 6) − 1 stance -> shot 8");
    assert!(
        o.tags[0].starts_with("Fred: snake eyes, friction 5"),
        "{o:?}"
    );
    assert!(
        o.tags[1].starts_with("Mia: boxcars (a closed roll"),
        "{o:?}"
    );
    // Peter (12) focuses, uses it, and may not focus again this round.
    play(&mut t, &act(2, ActionType::Trigger, None, true), &[]);
    play(&mut t, &act(2, ActionType::LimitBreak, None, false), &[]);
    let err = t
        .allowed(&act(2, ActionType::Trigger, None, true))
        .expect_err("once a round");
    assert_eq!(
        err,
        RulesError::Refused(Refusal::new(
            RefusalKind::Already,
            "Peter has focused this round: focus again when the next round begins"
        ))
    );
    // A Closed roll with boxcars is not thrown again, and fumbles.
    let mut closed = check("Dodge", Difficulty::Number(30));
    closed.roll = RollKind::Closed;
    let (o, said) = play(
        &mut t,
        &act(0, ActionType::Trigger, Some(closed.clone()), false),
        &[&[6, 6]],
    );
    assert_eq!((o.total, o.success), (-19, Some(false)));
    assert!(said.iter().any(|s| s.contains("Setback")), "{said:?}");
    // A later roll of an action: snake eyes ask for no friction check.
    closed.later_roll = true;
    let (o, _) = play(
        &mut t,
        &act(0, ActionType::Trigger, Some(closed), false),
        &[&[1, 1]],
    );
    assert!(o.tags.is_empty(), "{o:?}");
    // Next round: Peter may focus again.
    o6_mut(&mut t).shots = vec![0; 4];
    play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
    assert!(t.allowed(&act(2, ActionType::Trigger, None, true)).is_ok());
}

/// "If you are focused and use your focus, you cannot focus again until the following
/// round begins": a focus taken before the first round (or between rounds) and used in
/// round 1 leaves no second focus in round 1.
#[test]
fn a_focus_used_waits_for_the_next_round_wherever_it_was_taken() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let focus = mv(Move::Focus {
        actor: 2,
        condition: None,
    });
    play(&mut t, &focus, &[]);
    first_round(&mut t);
    play(&mut t, &act(2, ActionType::LimitBreak, None, false), &[]);
    assert!(!o6(&t).focused[2]);
    assert_eq!(
        t.allowed(&focus),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Already,
            "Peter used their focus this round: focus again when the next round begins"
        )))
    );
    o6_mut(&mut t).shots = vec![0; 4];
    play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
    assert_eq!(t.allowed(&focus), Ok(()));
}

/// "Even if you had the stance running before the action began, you still have to pay the
/// shot cost in the first round": an ambusher's first round is the surprise round.
#[test]
fn an_ambushers_stance_is_paid_in_the_surprise_round() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let stance = mv(Move::Act {
        actor: 1,
        kind: ActionType::Stance,
        check: None,
        focuses: false,
        stance: None,
        moves: false,
    });
    assert_eq!(
        t.allowed(&stance),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotNow,
            "no round has started: a stance before the first round is adopted before it \
             (its shot is paid from the first round), or roll initiative"
        )))
    );
    play(
        &mut t,
        &mv(Move::SurpriseRound {
            ambushers: vec![0, 1],
        }),
        &[],
    );
    // Mia holds Tiger Stance: 3 shots less its 1.
    assert_eq!(o6(&t).shots, vec![3, 2, 0, 0]);
    o6_mut(&mut t).shots = vec![0; 4];
    // The next round does not charge it again.
    let (o, _) = play(&mut t, &mv(Move::Initiative), &[&[3, 1, 2, 2, 6, 1]]);
    assert_eq!(o.lines[1], "Mia: Reflexes 9 + (2 − 2) -> shot 9");
}

/// A fumble is a typed fact of its roll: in a team action, the participant whose roll it is
/// suffers the Setback, whatever the words of the outcome.
#[test]
fn a_fumble_in_a_team_action_is_the_fact_of_its_participants_roll() {
    let mut t = table("open-d6-fred-and-peter.ron");
    let climb = mv(Move::TeamAction {
        actors: vec![0, 1],
        skill: "Maneuver".into(),
        difficulty: 9,
    });
    let setbacks = o6(&t).setbacks.clone();
    // Fred 10 − 2 + (2 − 3) = 7; Mia throws boxcars, each six thrown again (1 and 5):
    // 9 − 2 + (6 + 1) − (6 + 5) = 3, a failure with boxcars: a fumble, Mia's (roll 1).
    let (o, said) = play(&mut t, &climb, &[&[2, 3], &[6, 6], &[1, 5]]);
    assert_eq!(
        o.facts,
        vec![crate::rules::RollFact {
            roll: 1,
            fact: crate::rules::Fact::Fumble
        }]
    );
    assert_eq!(o6(&t).setbacks[0], setbacks[0], "not Fred's");
    assert_eq!(o6(&t).setbacks[1], setbacks[1] + 1, "Mia's: {said:?}");
    assert_eq!(
        said.last().map(String::as_str),
        Some(
            format!(
                "Mia suffers a Setback (boxcars fumble in the team action; {} now)",
                setbacks[1] + 1
            )
            .as_str()
        )
    );
}

/// Point 12: surprise round, team action, Assist, Active Defense, simplified initiative.
#[test]
fn surprise_team_assist_and_active_defense() {
    let mut t = table("open-d6-fred-and-peter.ron");
    // A team action outside detailed time: Fred and Mia climb, each at −2, the best counts.
    let climb = mv(Move::TeamAction {
        actors: vec![0, 1],
        skill: "Maneuver".into(),
        difficulty: 9,
    });
    let (o, said) = play(&mut t, &climb, &[&[2, 3], &[5, 1]]);
    // Fred 10 − 2 + (2 − 3) = 7 (−2); Mia 9 − 2 + (5 − 1) = 11 (+2): Mia's counts.
    assert_eq!((o.total, o.success), (2, Some(true)));
    assert_eq!(o.class, "Mia counts: success, outcome 2");
    assert_eq!(
        said,
        vec!["the team's result is the best roll: Mia counts: success, outcome 2"]
    );
    // Peter's side ambushes: 3 shots, the surprised none.
    let ambush = mv(Move::SurpriseRound {
        ambushers: vec![2, 3],
    });
    play(&mut t, &ambush, &[]);
    assert_eq!(o6(&t).shots, vec![0, 0, 3, 3]);
    assert_eq!(t.heading(), "Surprise round 1, shot 3: Peter, then Goons");
    assert!(t.allowed(&climb).is_err(), "not during the shot counter");
    o6_mut(&mut t).shots = vec![0; 4];
    first_round(&mut t);
    // Nobody acts against themself (it was rolled and its shot cost paid).
    let own = act(
        2,
        ActionType::Basic,
        Some(check("Maneuver", Difficulty::Against(2))),
        false,
    );
    assert_eq!(
        t.allowed(&own),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Target,
            "a check against a character is against another: Peter cannot act against \
             themself"
        )))
    );
    // Peter at 12 tags Fred: Fred defends actively with Dodge (+3 this shot): 11 + 3 = 14.
    let tag = act(
        2,
        ActionType::Basic,
        Some(check("Maneuver", Difficulty::Against(0))),
        false,
    );
    let defend = mv(Move::ActiveDefense {
        actor: 0,
        skill: "Dodge".into(),
        against: None,
    });
    let (_, said) = play(&mut t, &defend, &[]);
    assert_eq!(said[0], "Fred: Trigger action, shots 10 -> 9");
    let (o, _) = play(&mut t, &tag, &[&[5, 2]]);
    // 10 + 3 = 13 against 14: a failure by 1.
    assert_eq!((o.total, o.success), (-1, Some(false)));
    // The goons, unnamed, cannot assist with a roll; Mia can: a Confident Maneuver 9 roll
    // against Peter's Maneuver 10: 9 + |2 − 5| = 12, a success.
    let err = t
        .allowed(&mv(Move::Assist {
            helper: 3,
            skill: "Brawl".into(),
            no_roll: false,
        }))
        .expect_err("unnamed");
    assert_eq!(
        err,
        RulesError::Refused(Refusal::new(
            RefusalKind::Unable,
            "Goons is unnamed: unnamed characters assist with a Basic Action before the action, without a roll (+1 each, at most +3, as a modifier of the check)"
        ))
    );
    let assist = mv(Move::Assist {
        helper: 1,
        skill: "Maneuver".into(),
        no_roll: false,
    });
    let (o, said) = play(&mut t, &assist, &[&[2, 5]]);
    assert_eq!((o.total, o.success), (2, Some(true)));
    assert_eq!(
        said[1],
        "Mia assists Peter: the check is now 14 against 14 (success)"
    );
    assert!(
        t.allowed(&mv(Move::Assist {
            helper: 2,
            skill: "Impress".into(),
            no_roll: false,
        }))
        .is_err(),
        "not one's own"
    );
    // Fred's assist comes up boxcars (6 + 1 against 6 + 5, read as a standard roll) and
    // fails: the fumble is a Setback, recorded on Fred.
    let setbacks = o6_mut(&mut t).setbacks[0];
    let fumble = mv(Move::Assist {
        helper: 0,
        skill: "Maneuver".into(),
        no_roll: false,
    });
    let (o, said) = play(&mut t, &fumble, &[&[6, 6], &[1, 5]]);
    assert_eq!(o.success, Some(false), "{o:?}");
    assert!(o.has(crate::rules::Fact::Fumble), "{o:?}");
    assert_eq!(
        said.last().map(String::as_str),
        Some(format!(
            "Fred suffers a Setback (boxcars fumble on the assist; {} now)",
            setbacks + 1
        ))
        .as_deref()
    );
    assert_eq!(o6_mut(&mut t).setbacks[0], setbacks + 1);
    // One assist each on a check.
    assert_eq!(
        t.allowed(&fumble),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Already,
            "Fred has assisted this check already: one assist each"
        )))
    );
}

#[test]
fn in_simplified_initiative_an_active_defense_ends_with_the_next_action() {
    let mut t = table("open-d6-fred-and-peter.ron");
    o6_mut(&mut t).use_simplified_initiative();
    // Fred's Active Dodge: against Fred, Maneuver's difficulty is the higher of Maneuver 10
    // and Dodge 11 + 3.
    let dodge = mv(Move::ActiveDefense {
        actor: 0,
        skill: "Dodge".into(),
        against: None,
    });
    play(&mut t, &dodge, &[]);
    assert_eq!(o6_mut(&mut t).difficulty_against(1, 0, "Maneuver"), Ok(14));
    assert!(
        t.tracker()[0]
            .status
            .contains(&"defending Dodge".to_string())
    );
    // Mia's action is the one it meets; with the next action the defence is gone, as it
    // goes on the next shot when shots are counted.
    play(&mut t, &act(1, ActionType::Basic, None, false), &[]);
    assert_eq!(o6_mut(&mut t).difficulty_against(1, 0, "Maneuver"), Ok(11));
    assert!(
        !t.tracker()[0]
            .status
            .contains(&"defending Dodge".to_string())
    );
}

#[test]
fn simplified_initiative_goes_round_robin_by_reflexes() {
    let mut t = table("open-d6-fred-and-peter.ron");
    o6_mut(&mut t).use_simplified_initiative();
    assert_eq!(t.heading(), "Round 1 (simplified): Mia's action");
    assert!(t.allowed(&mv(Move::Initiative)).is_err());
    // Fred takes a trigger action before his turn: he loses his action for the round.
    let (_, said) = play(
        &mut t,
        &mv(Move::ActiveDefense {
            actor: 0,
            skill: "Dodge".into(),
            against: None,
        }),
        &[],
    );
    assert_eq!(
        said[0],
        "Fred took a trigger action before acting: no action this round"
    );
    play(&mut t, &act(1, ActionType::Basic, None, false), &[]);
    assert_eq!(t.heading(), "Round 1 (simplified): Peter's action");
    let err = t
        .allowed(&act(3, ActionType::Basic, None, false))
        .expect_err("Peter first");
    assert_eq!(
        err,
        RulesError::Refused(Refusal::new(
            RefusalKind::NotTheirTurn,
            "it is Peter's action (highest Reflexes first)"
        ))
    );
    play(&mut t, &act(2, ActionType::Basic, None, false), &[]);
    let (_, said) = play(&mut t, &act(3, ActionType::Basic, None, false), &[]);
    assert_eq!(said[0], "Goons: Basic action; everyone has acted: round 2");
    assert_eq!(t.heading(), "Round 2 (simplified): Mia's action");
}

#[test]
fn a_stance_may_be_adopted_before_initiative() {
    let mut t = table("open-d6-fred-and-peter.ron");
    // Before the first initiative, Mia (a stance already) adopts another: no shots now.
    let stance = mv(Move::StanceBeforeRound {
        actor: 1,
        stance: None,
    });
    let (_, said) = play(&mut t, &stance, &[]);
    assert_eq!(
        said,
        vec![
            "Mia adopts a stance before the round: 1 shot, paid from the first shot of the \
             next round"
        ]
    );
    // Both are paid from her first shot: 9 + (2 − 2) − 2 = 7.
    first_round(&mut t);
    assert_eq!(o6_mut(&mut t).shots[1], 7);
    assert_eq!(
        t.allowed(&stance),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::NotNow,
            "the round is under way: a stance now is a Stance action on the character's shot"
        )))
    );
}

#[test]
fn focusing_costs_no_shots() {
    let mut t = table("open-d6-fred-and-peter.ron");
    first_round(&mut t);
    let shots = o6_mut(&mut t).shots.clone();
    let focus = mv(Move::Focus {
        actor: 0,
        condition: None,
    });
    let (o, said) = play(&mut t, &focus, &[]);
    assert_eq!(o.class, "focused");
    assert_eq!(said, vec!["Fred is focused: focusing costs no shots"]);
    assert_eq!(o6_mut(&mut t).shots, shots);
    assert!(t.tracker()[0].status.contains(&"focused".to_string()));
    assert_eq!(
        t.allowed(&focus),
        Err(RulesError::Refused(Refusal::new(
            RefusalKind::Already,
            "Fred is focused already"
        )))
    );
}
