//! The `action-dice` builder: skill and ability actions (attacks aim at a defender), defences,
//! Group Attack, passive abilities, noncombat, and the end of the round.

use bevy_egui::egui;

use super::{actor_combo, combo, kind_picker, number};
use crate::rules::action_dice::Table;
use crate::rules::action_dice::seat::{Goal, Move};
use crate::rules::play::Seat;

fn goal(ui: &mut egui::Ui, t: &Table, target: &mut Goal) {
    let names = t.names();
    ui.horizontal_wrapped(|ui| {
        ui.label("Against");
        ui.radio_value(target, Goal::None, "nothing");
        if ui
            .radio(matches!(target, Goal::Number(_)), "a number")
            .clicked()
            && !matches!(target, Goal::Number(_))
        {
            *target = Goal::Number(10);
        }
        if ui
            .radio(matches!(target, Goal::Attack(_)), "a defender")
            .clicked()
            && !matches!(target, Goal::Attack(_))
        {
            *target = Goal::Attack(names.len().saturating_sub(1));
        }
    });
    match target {
        Goal::Number(n) => number(ui, "Target", n, 1, 80),
        Goal::Attack(d) => {
            actor_combo(ui, "Defender", &names, d);
        }
        Goal::None => {}
    }
}

fn spend(ui: &mut egui::Ui, t: &Table, actor: usize, skill: &str, dice: &mut u32, extra: &mut u32) {
    let usable = t.usable_dice(actor, skill);
    number(ui, &format!("Action dice ({usable} usable)"), dice, 0, 8);
    number(ui, "Extra dice", extra, 0, 8);
}

/// Edits an `action-dice` move; returns a fresh move when the kind changes.
pub(super) fn edit(ui: &mut egui::Ui, t: &Table, m: &mut Move) -> Option<Move> {
    let current = match m {
        Move::Act { .. } => "Action",
        Move::Defend { .. } => "Defend",
        Move::GroupAttack { .. } => "Group Attack",
        Move::Passive { .. } => "Passive",
        Move::DeclareNoncombat { .. } => "Noncombat",
        Move::EndRound => "End round",
    };
    let who = t.default_move();
    let actor = match &who {
        Move::Act { actor, .. } => *actor,
        _ => 0,
    };
    let c = &t.characters[actor];
    let combat = c
        .hand_to_hand
        .first()
        .or(c.ranged.first())
        .cloned()
        .unwrap_or_default();
    let fresh = kind_picker(
        ui,
        current,
        vec![
            ("Action", who.clone(), "a skill or ability with action dice"),
            (
                "Defend",
                Move::Defend {
                    actor,
                    skill: "Dodge".into(),
                    action_dice: 1,
                    extra: 0,
                },
                "Dodge, a combat skill or General Defense: lasts the round",
            ),
            (
                "Group Attack",
                Move::GroupAttack {
                    actor,
                    skill: combat,
                    action_dice: 2,
                    extra: 0,
                    target: Goal::None,
                },
                "two action dice, half of (2 + the skill's dice)",
            ),
            (
                "Passive",
                Move::Passive {
                    actor,
                    ability: c.passive.first().cloned().unwrap_or_default(),
                    target: None,
                },
                "an ability that needs no action (Toughness)",
            ),
            (
                "Noncombat",
                Move::DeclareNoncombat { actor },
                "at the start of the round: +1 action die, defence 0",
            ),
            ("End round", Move::EndRound, "unused action dice are lost"),
        ],
    );
    if fresh.is_some() {
        return fresh;
    }
    let names = t.names();
    let skills = |a: usize| -> Vec<String> {
        let c = &t.characters[a];
        c.skills
            .keys()
            .chain(c.abilities.keys().filter(|k| !c.is_passive(k)))
            .cloned()
            .collect()
    };
    match m {
        Move::Act {
            actor,
            skill,
            action_dice,
            extra,
            target,
        } => {
            actor_combo(ui, "Who", &names, actor);
            combo(ui, "skill", "Skill or ability", skill, &skills(*actor));
            spend(ui, t, *actor, skill, action_dice, extra);
            goal(ui, t, target);
        }
        Move::Defend {
            actor,
            skill,
            action_dice,
            extra,
        } => {
            actor_combo(ui, "Who", &names, actor);
            let c = &t.characters[*actor];
            let mut options: Vec<String> = vec!["Dodge".into(), "General Defense".into()];
            options.extend(c.hand_to_hand.iter().chain(&c.ranged).cloned());
            combo(ui, "defence", "Defence", skill, &options);
            spend(ui, t, *actor, skill, action_dice, extra);
        }
        Move::GroupAttack {
            actor,
            skill,
            action_dice,
            extra,
            target,
        } => {
            actor_combo(ui, "Who", &names, actor);
            let c = &t.characters[*actor];
            let options: Vec<String> = c.hand_to_hand.iter().chain(&c.ranged).cloned().collect();
            combo(ui, "group skill", "Combat skill", skill, &options);
            spend(ui, t, *actor, "Group Attack", action_dice, extra);
            goal(ui, t, target);
        }
        Move::Passive {
            actor,
            ability,
            target,
        } => {
            actor_combo(ui, "Who", &names, actor);
            let options = t.characters[*actor].passive.clone();
            combo(ui, "passive", "Passive ability", ability, &options);
            let mut on = target.is_some();
            ui.checkbox(&mut on, "against a number");
            let mut n = target.unwrap_or(10);
            if on {
                number(ui, "Target", &mut n, 1, 80);
            }
            *target = on.then_some(n);
        }
        Move::DeclareNoncombat { actor } => {
            actor_combo(ui, "Who", &names, actor);
        }
        Move::EndRound => {
            ui.label("Unused action dice are lost; defences end.");
        }
    }
    None
}
