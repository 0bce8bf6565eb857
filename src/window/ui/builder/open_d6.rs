//! The `open-d6` builder: initiative and surprise rounds, actions on the shot counter with a
//! check (against a number or a character), Limit Breaks, trigger actions (Active Defense,
//! Assist, Push Luck), team actions, Fortune and new sessions.

use bevy_egui::egui;

use super::{actor_combo, actors_checks, combo, kind_picker, number};
use crate::rules::open_d6::seat::{Check, Difficulty, Move};
use crate::rules::open_d6::{ActionType, RollKind, Table};
use crate::rules::play::Seat;

fn skills(t: &Table, actor: usize) -> Vec<String> {
    t.characters
        .get(actor)
        .map(|c| c.skills.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default()
}

fn check_editor(ui: &mut egui::Ui, t: &Table, actor: usize, c: &mut Check, id: &str) {
    let names = t.names();
    ui.push_id(id, |ui| {
        combo(ui, "skill", "Skill", &mut c.skill, &skills(t, actor));
        ui.horizontal_wrapped(|ui| {
            ui.label("Roll");
            for (kind, label) in [
                (RollKind::Standard, "standard"),
                (RollKind::Confident, "confident"),
                (RollKind::Closed, "closed"),
                (RollKind::ClosedConfident, "closed confident"),
            ] {
                ui.radio_value(&mut c.roll, kind, label);
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Difficulty");
            if ui
                .radio(matches!(c.difficulty, Difficulty::Number(_)), "number")
                .clicked()
                && !matches!(c.difficulty, Difficulty::Number(_))
            {
                c.difficulty = Difficulty::Number(10);
            }
            if ui
                .radio(matches!(c.difficulty, Difficulty::Against(_)), "against")
                .clicked()
                && !matches!(c.difficulty, Difficulty::Against(_))
            {
                c.difficulty = Difficulty::Against(0);
            }
        });
        match &mut c.difficulty {
            Difficulty::Number(n) => number(ui, "Difficulty", n, 0, 40),
            Difficulty::Against(target) => {
                actor_combo(ui, "Opponent", &names, target);
                if let Ok(d) = t.difficulty_against(*target, &c.skill) {
                    ui.label(format!("difficulty {d}")).on_hover_text(format!(
                        "the higher of the opponent's {} and Dodge, Active Defense added",
                        c.skill
                    ));
                }
            }
        }
        number(ui, "Modifier", &mut c.modifier, -10, 10);
        number(
            ui,
            &format!("Advantage spent (pool {})", t.advantages[actor]),
            &mut c.advantages,
            0,
            t.advantages[actor],
        );
        ui.checkbox(
            &mut c.fortune,
            format!("Fortune ({} left)", t.fortune[actor]),
        )
        .on_hover_text("spend a Fortune point: the roll is Confident");
        ui.checkbox(&mut c.stunt, "stunt for Advantage")
            .on_hover_text("success adds one Advantage to the character's pool");
        ui.checkbox(&mut c.later_roll, "later roll of the action")
            .on_hover_text("a second or later roll of one action: no snake eyes or double deuces");
    });
}

/// Edits an `open-d6` move; returns a fresh move when the kind changes.
pub(super) fn edit(ui: &mut egui::Ui, t: &Table, m: &mut Move) -> Option<Move> {
    let current = match m {
        Move::Initiative => "Initiative",
        Move::SurpriseRound { .. } => "Surprise round",
        Move::Act { .. } => "Action",
        Move::CombinationAction { .. } => "Combination Action",
        Move::ActionAdvantage { .. } => "Action Advantage",
        Move::ActiveDefense { .. } => "Active Defense",
        Move::Assist { .. } => "Assist",
        Move::PushLuck { .. } => "Push Luck",
        Move::TeamAction { .. } => "Team action",
        Move::FortuneInitiative { .. } => "Fortune initiative",
        Move::TableD6 { .. } => "d6 table",
        Move::FortuneReroll { .. } => "Fortune re-roll",
        Move::NewSession => "New session",
    };
    let names = t.names();
    let actor = t.acting_now().first().copied().unwrap_or(0);
    let skill = skills(t, actor).first().cloned().unwrap_or_default();
    let check = Check {
        skill: skill.clone(),
        roll: RollKind::Standard,
        difficulty: Difficulty::Number(10),
        modifier: 0,
        advantages: 0,
        fortune: false,
        later_roll: false,
        stunt: false,
    };
    let act = match t.default_move() {
        m @ Move::Act { .. } => m,
        _ => Move::Act {
            actor,
            kind: ActionType::Basic,
            check: Some(check.clone()),
            focuses: false,
        },
    };
    let last = t.last_check.as_ref().map(|l| l.actor).unwrap_or(actor);
    let helper = (0..names.len()).find(|&i| i != last).unwrap_or(0);
    let fresh = kind_picker(
        ui,
        current,
        vec![
            (
                "Initiative",
                Move::Initiative,
                "a Closed Reflexes roll per named creature",
            ),
            (
                "Surprise round",
                Move::SurpriseRound { ambushers: vec![0] },
                "the ambushers get 3 shots, the surprised none",
            ),
            (
                "Action",
                act,
                "a basic, trigger, stance, limit break or finisher action",
            ),
            (
                "Combination Action",
                Move::CombinationAction {
                    actor,
                    first: check.clone(),
                    second: check.clone(),
                },
                "Limit Break: two Basic Actions",
            ),
            (
                "Action Advantage",
                Move::ActionAdvantage {
                    actor,
                    check: check.clone(),
                },
                "Limit Break: a Basic Action with an Advantage",
            ),
            (
                "Active Defense",
                Move::ActiveDefense {
                    actor,
                    skill: "Dodge".into(),
                },
                "trigger: +3 to a skill as a difficulty, this shot",
            ),
            (
                "Assist",
                Move::Assist {
                    helper,
                    skill: skills(t, helper).first().cloned().unwrap_or_default(),
                },
                "trigger after a friend's check: +1 on a Confident success",
            ),
            (
                "Push Luck",
                Move::PushLuck { actor: last },
                "trigger after a failed check: re-roll; failure adds a Setback",
            ),
            (
                "Team action",
                Move::TeamAction {
                    actors: (0..names.len().min(2)).collect(),
                    skill,
                    difficulty: 10,
                },
                "outside detailed time: all at −n, the best counts",
            ),
            (
                "Fortune initiative",
                Move::FortuneInitiative { actor },
                "a Closed, Confident initiative re-roll",
            ),
            (
                "d6 table",
                Move::TableD6 { actor },
                "a plain d6 on a random table",
            ),
            (
                "Fortune re-roll",
                Move::FortuneReroll { actor },
                "re-roll the last d6, keep either",
            ),
            ("New session", Move::NewSession, "Fortune points come back"),
        ],
    );
    if fresh.is_some() {
        return fresh;
    }
    match m {
        Move::Initiative | Move::NewSession => {
            ui.label(t.describe(m));
        }
        Move::SurpriseRound { ambushers } => actors_checks(ui, "Ambushers", &names, ambushers),
        Move::Act {
            actor,
            kind,
            check,
            focuses,
        } => {
            actor_combo(ui, "Who", &names, actor);
            ui.horizontal_wrapped(|ui| {
                ui.label("Kind");
                for k in [
                    ActionType::Basic,
                    ActionType::Trigger,
                    ActionType::Stance,
                    ActionType::LimitBreak,
                    ActionType::Finisher,
                ] {
                    ui.radio_value(kind, k, format!("{k:?} ({})", t.cost_words(*actor, k)));
                }
            });
            let mut rolls = check.is_some();
            ui.checkbox(&mut rolls, "rolls a check");
            match (rolls, check.is_some()) {
                (true, false) => {
                    *check = Some(Check {
                        skill: skills(t, *actor).first().cloned().unwrap_or_default(),
                        ..Check {
                            skill: String::new(),
                            roll: RollKind::Standard,
                            difficulty: Difficulty::Number(10),
                            modifier: 0,
                            advantages: 0,
                            fortune: false,
                            later_roll: false,
                            stunt: false,
                        }
                    })
                }
                (false, true) => *check = None,
                _ => {}
            }
            if let Some(c) = check {
                check_editor(ui, t, *actor, c, "act");
            }
            ui.checkbox(focuses, "the action is a focus");
        }
        Move::CombinationAction {
            actor,
            first,
            second,
        } => {
            actor_combo(ui, "Who", &names, actor);
            ui.label("First action");
            check_editor(ui, t, *actor, first, "first");
            ui.label("Second action");
            check_editor(ui, t, *actor, second, "second");
        }
        Move::ActionAdvantage { actor, check } => {
            actor_combo(ui, "Who", &names, actor);
            check_editor(ui, t, *actor, check, "advantage");
        }
        Move::ActiveDefense { actor, skill } => {
            actor_combo(ui, "Who", &names, actor);
            combo(ui, "defend", "Skill", skill, &skills(t, *actor));
        }
        Move::Assist { helper, skill } => {
            actor_combo(ui, "Helper", &names, helper);
            combo(ui, "assist", "Skill", skill, &skills(t, *helper));
        }
        Move::PushLuck { actor }
        | Move::FortuneInitiative { actor }
        | Move::TableD6 { actor }
        | Move::FortuneReroll { actor } => {
            actor_combo(ui, "Who", &names, actor);
        }
        Move::TeamAction {
            actors,
            skill,
            difficulty,
        } => {
            actors_checks(ui, "Team", &names, actors);
            let first = actors.first().copied().unwrap_or(0);
            combo(ui, "team skill", "Skill", skill, &skills(t, first));
            number(ui, "Difficulty", difficulty, 0, 40);
        }
    }
    None
}
