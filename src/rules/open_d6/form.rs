//! The `open-d6` moves as data: initiative and surprise rounds, actions on the shot counter with
//! a check (against a number or a character), Limit Breaks, trigger actions (Active Defense,
//! Assist, Push Luck), team actions, Fortune and new sessions.

use super::seat::{Check, Difficulty, Move};
use super::{ActionType, RollKind, Table};
use crate::rules::catalogue::{Form, MoveKind};
use crate::rules::play::Seat;

fn skills(t: &Table, actor: usize) -> Vec<String> {
    t.characters
        .get(actor)
        .map(|c| c.skills.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default()
}

/// A plain check of `actor`'s first skill against `difficulty`.
fn check(t: &Table, actor: usize, difficulty: Difficulty) -> Check {
    Check {
        skill: skills(t, actor).first().cloned().unwrap_or_default(),
        roll: RollKind::Standard,
        difficulty,
        modifier: 0,
        advantages: 0,
        fortune: false,
        later_roll: false,
        stunt: false,
    }
}

/// A Basic Action for `actor`: its first skill against the first character of the other side.
pub(super) fn act(t: &Table, actor: usize) -> Move {
    let villain = t.characters.get(actor).map(|c| c.villain);
    let other = (0..t.characters.len())
        .find(|&i| Some(t.characters[i].villain) != villain)
        .unwrap_or(actor);
    Move::Act {
        actor,
        kind: ActionType::Basic,
        check: Some(check(t, actor, Difficulty::Against(other))),
        focuses: false,
    }
}

pub(super) fn kinds(t: &Table, actor: usize) -> Vec<MoveKind<Move>> {
    let plain = check(t, actor, Difficulty::Number(10));
    let last = t.last_check.as_ref().map(|l| l.actor).unwrap_or(actor);
    let helper = if actor != last {
        actor
    } else {
        (0..t.characters.len()).find(|&i| i != last).unwrap_or(0)
    };
    vec![
        MoveKind {
            label: "Initiative",
            hint: "a Closed Reflexes roll per named creature",
            template: Move::Initiative,
        },
        MoveKind {
            label: "Surprise round",
            hint: "the ambushers get 3 shots, the surprised none",
            template: Move::SurpriseRound {
                ambushers: vec![actor],
            },
        },
        MoveKind {
            label: "Action",
            hint: "a basic, trigger, stance, limit break or finisher action",
            template: act(t, actor),
        },
        MoveKind {
            label: "Combination Action",
            hint: "Limit Break: two Basic Actions",
            template: Move::CombinationAction {
                actor,
                first: plain.clone(),
                second: plain.clone(),
            },
        },
        MoveKind {
            label: "Action Advantage",
            hint: "Limit Break: a Basic Action with an Advantage",
            template: Move::ActionAdvantage {
                actor,
                check: plain,
            },
        },
        MoveKind {
            label: "Active Defense",
            hint: "trigger: +3 to a skill as a difficulty, this shot",
            template: Move::ActiveDefense {
                actor,
                skill: "Dodge".into(),
            },
        },
        MoveKind {
            label: "Assist",
            hint: "trigger after a friend's check: +1 on a Confident success",
            template: Move::Assist {
                helper,
                skill: skills(t, helper).first().cloned().unwrap_or_default(),
            },
        },
        MoveKind {
            label: "Push Luck",
            hint: "trigger after a failed check: re-roll; failure adds a Setback",
            template: Move::PushLuck { actor: last },
        },
        MoveKind {
            label: "Team action",
            hint: "outside detailed time: all at −n, the best counts",
            template: Move::TeamAction {
                actors: (0..t.characters.len().min(2)).collect(),
                skill: skills(t, actor).first().cloned().unwrap_or_default(),
                difficulty: 10,
            },
        },
        MoveKind {
            label: "Fortune initiative",
            hint: "a Closed, Confident initiative re-roll",
            template: Move::FortuneInitiative { actor },
        },
        MoveKind {
            label: "d6 table",
            hint: "a plain d6 on a random table",
            template: Move::TableD6 { actor },
        },
        MoveKind {
            label: "Fortune re-roll",
            hint: "re-roll the last d6, keep either",
            template: Move::FortuneReroll { actor },
        },
        MoveKind {
            label: "Stance before the round",
            hint: "before initiative: paid from the next round's first shot",
            template: Move::StanceBeforeRound { actor },
        },
        MoveKind {
            label: "Focus",
            hint: "focus at no shot cost (once a round); a Limit Break may follow",
            template: Move::Focus { actor },
        },
        MoveKind {
            label: "New session",
            hint: "Fortune points come back",
            template: Move::NewSession,
        },
    ]
}

/// The fields of a check at `at` ("check", "first"...), labelled with `title` in front.
fn check_fields(t: &Table, f: &mut Form, actor: usize, c: &Check, at: &str, title: &str) {
    let path = |p: &str| format!("{at}.{p}");
    let label = |l: &str| {
        if title.is_empty() {
            l.to_string()
        } else {
            format!("{title}: {l}")
        }
    };
    f.pick(&path("skill"), &label("Skill"), &skills(t, actor), &c.skill);
    f.value(
        &path("roll"),
        &label("Roll"),
        vec![
            ("standard".into(), RollKind::Standard),
            ("confident".into(), RollKind::Confident),
            ("closed".into(), RollKind::Closed),
            ("closed confident".into(), RollKind::ClosedConfident),
        ],
        &c.roll,
    );
    f.variant(
        &path("difficulty"),
        &label("Difficulty"),
        vec![
            ("a number", Difficulty::Number(10)),
            ("against a character", Difficulty::Against(0)),
        ],
        &c.difficulty,
    );
    match &c.difficulty {
        Difficulty::Number(n) => f.number(
            &path("difficulty.Number"),
            &label("Difficulty number"),
            *n,
            0,
            40,
        ),
        Difficulty::Against(target) => {
            f.character(&path("difficulty.Against"), &label("Opponent"), *target);
            if let Ok(d) = t.difficulty_against(*target, &c.skill) {
                f.note(format!(
                    "difficulty {d}: the higher of the opponent's {} and Dodge, Active Defense added",
                    c.skill
                ));
            }
        }
    }
    f.number(&path("modifier"), &label("Modifier"), c.modifier, -10, 10);
    let pool = t.advantages.get(actor).copied().unwrap_or(0);
    f.number(
        &path("advantages"),
        &label(&format!("Advantage spent (pool {pool})")),
        i64::from(c.advantages),
        0,
        i64::from(pool),
    );
    let fortune = t.fortune.get(actor).copied().unwrap_or(0);
    f.flag(
        &path("fortune"),
        &label(&format!("Fortune ({fortune} left)")),
        c.fortune,
    );
    f.flag(&path("stunt"), &label("Stunt for Advantage"), c.stunt);
    f.flag(
        &path("later_roll"),
        &label("Later roll of the action"),
        c.later_roll,
    );
}

pub(super) fn form(t: &Table, m: &Move, f: &mut Form) {
    match m {
        Move::Initiative | Move::NewSession => f.note(t.describe(m)),
        Move::Focus { actor } | Move::StanceBeforeRound { actor } => {
            f.actor("actor", "Who", *actor);
            f.note(t.describe(m));
        }
        Move::SurpriseRound { ambushers } => f.characters("ambushers", "Ambushers", ambushers),
        Move::Act {
            actor,
            kind,
            check: c,
            focuses,
        } => {
            f.actor("actor", "Who", *actor);
            let kinds = [
                ActionType::Basic,
                ActionType::Trigger,
                ActionType::Stance,
                ActionType::LimitBreak,
                ActionType::Finisher,
            ]
            .into_iter()
            .map(|k| (format!("{k:?} ({})", t.cost_words(*actor, k)), k))
            .collect();
            f.value("kind", "Kind", kinds, kind);
            let rolls = check(t, *actor, Difficulty::Number(10));
            f.variant(
                "check",
                "Check",
                vec![("no check", None), ("rolls a check", Some(rolls))],
                c,
            );
            if let Some(c) = c {
                check_fields(t, f, *actor, c, "check", "");
            }
            f.flag("focuses", "The action is a focus", *focuses);
        }
        Move::CombinationAction {
            actor,
            first,
            second,
        } => {
            f.actor("actor", "Who", *actor);
            check_fields(t, f, *actor, first, "first", "First action");
            check_fields(t, f, *actor, second, "second", "Second action");
        }
        Move::ActionAdvantage { actor, check: c } => {
            f.actor("actor", "Who", *actor);
            check_fields(t, f, *actor, c, "check", "");
        }
        Move::ActiveDefense { actor, skill } => {
            f.actor("actor", "Who", *actor);
            f.pick("skill", "Skill", &skills(t, *actor), skill);
        }
        Move::Assist { helper, skill } => {
            f.actor("helper", "Helper", *helper);
            f.pick("skill", "Skill", &skills(t, *helper), skill);
        }
        Move::PushLuck { actor }
        | Move::FortuneInitiative { actor }
        | Move::TableD6 { actor }
        | Move::FortuneReroll { actor } => f.actor("actor", "Who", *actor),
        Move::TeamAction {
            actors,
            skill,
            difficulty,
        } => {
            f.characters("actors", "Team", actors);
            let first = actors.first().copied().unwrap_or(0);
            f.pick("skill", "Skill", &skills(t, first), skill);
            f.number("difficulty", "Difficulty", *difficulty, 0, 40);
        }
    }
}
