//! The `action-dice` moves as data: skill and ability actions (attacks aim at a defender),
//! defences, Group Attack, passive abilities, noncombat, and the end of the round.

use super::Table;
use super::seat::{Goal, Move};
use crate::rules::catalogue::{Catalogue, Form, MoveKind};

/// An action for `actor`: its first combat skill (else its first skill), at the last other
/// seat when that is an attack, one or two action dice.
pub(super) fn act(t: &Table, actor: usize) -> Move {
    let Some(c) = t.characters.get(actor) else {
        return Move::EndRound;
    };
    let skill = c
        .hand_to_hand
        .first()
        .or(c.ranged.first())
        .or(c.skills.keys().next())
        .cloned()
        .unwrap_or_default();
    let defender = (0..t.characters.len()).rev().find(|&i| i != actor);
    Move::Act {
        actor,
        action_dice: t.usable_dice(actor, &skill).clamp(1, 2),
        target: match (c.category_of(&skill), defender) {
            (Some(_), Some(d)) => Goal::Attack(d),
            _ => Goal::Number(8),
        },
        skill,
        extra: 0,
        range_m: None,
        movement: false,
    }
}

pub(super) fn kinds(t: &Table, actor: usize) -> Vec<MoveKind<Move>> {
    let c = t.characters.get(actor);
    let combat = c
        .and_then(|c| c.hand_to_hand.first().or(c.ranged.first()))
        .cloned()
        .unwrap_or_default();
    vec![
        MoveKind {
            label: "Action".into(),
            hint: "a skill or ability with action dice".into(),
            template: act(t, actor),
        },
        MoveKind {
            label: "Defend".into(),
            hint: "Dodge, a combat skill or General Defense: lasts the round".into(),
            template: Move::Defend {
                actor,
                skill: "Dodge".into(),
                action_dice: 1,
                extra: 0,
                against: (0..t.characters.len()).rev().find(|&i| i != actor),
                as_action: false,
            },
        },
        MoveKind {
            label: "Dive For Cover".into(),
            hint: "a movement action's dice on the ranged defence, against one attack".into(),
            template: Move::DiveForCover {
                actor,
                skill: None,
                action_dice: 1,
                extra: 0,
                against: (0..t.characters.len())
                    .rev()
                    .find(|&i| i != actor)
                    .unwrap_or(0),
                zone_m: None,
                as_action: false,
            },
        },
        MoveKind {
            label: "Group Attack".into(),
            hint: "two action dice, half of (2 + the skill's dice)".into(),
            template: Move::GroupAttack {
                actor,
                skill: combat,
                action_dice: 2,
                extra: 0,
                target: Goal::None,
                range_m: None,
            },
        },
        MoveKind {
            label: "Passive".into(),
            hint: "an ability that needs no action (Toughness)".into(),
            template: Move::Passive {
                actor,
                ability: c
                    .and_then(|c| c.passive.first())
                    .cloned()
                    .unwrap_or_default(),
                target: None,
            },
        },
        MoveKind {
            label: "Noncombat".into(),
            hint: "at the start of the round: +1 action die, defence 0".into(),
            template: Move::DeclareNoncombat { actor },
        },
        MoveKind {
            label: "End sequence".into(),
            hint: "the GM ends a sequence of events: defenders ruled to have acted may act again"
                .into(),
            template: Move::EndSequence,
        },
        MoveKind {
            label: "End round".into(),
            hint: "unused action dice are lost".into(),
            template: Move::EndRound,
        },
    ]
}

fn goal(t: &Table, f: &mut Form, target: &Goal) {
    let last = t.characters.len().saturating_sub(1);
    f.variant(
        "target",
        "Against",
        vec![
            ("nothing", Goal::None),
            ("a number", Goal::Number(10)),
            ("a defender", Goal::Attack(last)),
        ],
        target,
    );
    match target {
        Goal::Number(n) => f.number("target.Number", "Target number", *n, 1, 80),
        Goal::Attack(d) => f.character("target.Attack", "Defender", *d),
        Goal::None => {}
    }
}

/// An attack's range, when it aims at a defender.
/// An attack's range: at a character, or, for a combat skill, at a target number (a bottle 13 m
/// away: "ranged attacks" take the penalty whatever they aim at).
fn range(f: &mut Form, target: &Goal, range_m: &Option<u32>, combat: bool) {
    if matches!(target, Goal::Attack(_)) || (combat && matches!(target, Goal::Number(_))) {
        f.optional_number(
            "range_m",
            "Range in metres (empty: within reach)",
            range_m.map(i64::from),
            1,
            1000,
        );
    }
}

fn spend(t: &Table, f: &mut Form, actor: usize, skill: &str, dice: u32, extra: u32) {
    let usable = t.usable_dice(actor, skill);
    f.number("action_dice", "Action dice", i64::from(dice), 0, 8);
    f.note(format!("{usable} action dice usable for {skill}"));
    f.number("extra", "Extra dice", i64::from(extra), 0, 8);
}

pub(super) fn form(t: &Table, m: &Move, f: &mut Form) {
    let combat = |a: usize| -> Vec<String> {
        t.characters
            .get(a)
            .map(|c| c.hand_to_hand.iter().chain(&c.ranged).cloned().collect())
            .unwrap_or_default()
    };
    match m {
        Move::Act {
            actor,
            skill,
            action_dice,
            extra,
            target,
            range_m,
            movement,
        } => {
            f.actor("actor", "Who", *actor);
            let skills: Vec<String> = t
                .characters
                .get(*actor)
                .map(|c| {
                    c.skills
                        .keys()
                        .chain(c.abilities.keys().filter(|k| !c.is_passive(k)))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            f.pick("skill", "Skill or ability", &skills, skill);
            spend(t, f, *actor, skill, *action_dice, *extra);
            goal(t, f, target);
            range(f, target, range_m, combat(*actor).contains(skill));
            f.flag(
                "movement",
                "Movement (who finishes first goes by the total)",
                *movement,
            );
        }
        Move::Defend {
            actor,
            skill,
            action_dice,
            extra,
            against,
            as_action,
        } => {
            f.actor("actor", "Who", *actor);
            let mut options: Vec<String> = vec!["Dodge".into(), "General Defense".into()];
            options.extend(combat(*actor));
            f.pick("skill", "Defence", &options, skill);
            spend(t, f, *actor, skill, *action_dice, *extra);
            // General Defense covers every attacker; a dodge or a parry one attacker's attacks.
            let none = if skill.eq_ignore_ascii_case("General Defense") {
                "every attacker"
            } else {
                "nobody yet: choose whose"
            };
            f.optional_character(
                "against",
                "Against the attacks of",
                none,
                Some(*actor),
                *against,
            );
            f.flag(
                "as_action",
                "The GM rules it the character's action for this sequence",
                *as_action,
            );
        }
        Move::DiveForCover {
            actor,
            skill,
            action_dice,
            extra,
            against,
            zone_m,
            as_action,
        } => {
            f.actor("actor", "Who", *actor);
            let movement: Vec<(String, Option<String>)> = t
                .characters
                .get(*actor)
                .map(|c| {
                    c.skills
                        .keys()
                        .chain(c.abilities.keys())
                        .filter(|s| c.movement(s).is_ok())
                        .map(|s| (s.clone(), Some(s.clone())))
                        .collect()
                })
                .unwrap_or_default();
            let movement = std::iter::once(("action dice alone".to_string(), None))
                .chain(movement)
                .collect();
            f.value("skill", "Movement skill", movement, skill);
            let spent = skill.as_deref().unwrap_or("Dive For Cover");
            spend(t, f, *actor, spent, *action_dice, *extra);
            f.character("against", "From the attack of", *against);
            f.optional_number(
                "zone_m",
                "Danger zone's edge in metres (empty: no area)",
                zone_m.map(i64::from),
                1,
                1000,
            );
            f.flag(
                "as_action",
                "The GM rules it the character's action for this sequence",
                *as_action,
            );
        }
        Move::GroupAttack {
            actor,
            skill,
            action_dice,
            extra,
            target,
            range_m,
        } => {
            f.actor("actor", "Who", *actor);
            f.pick("skill", "Combat skill", &combat(*actor), skill);
            spend(t, f, *actor, "Group Attack", *action_dice, *extra);
            goal(t, f, target);
            range(f, target, range_m, true);
        }
        Move::Passive {
            actor,
            ability,
            target,
        } => {
            f.actor("actor", "Who", *actor);
            let options = t
                .characters
                .get(*actor)
                .map(|c| c.passive.clone())
                .unwrap_or_default();
            f.pick("ability", "Passive ability", &options, ability);
            f.optional_number(
                "target",
                "Success at (empty: just the total)",
                *target,
                1,
                80,
            );
        }
        Move::DeclareNoncombat { actor } => f.actor("actor", "Who", *actor),
        Move::EndSequence => f.note("Defenders the GM ruled to have acted may act again."),
        Move::EndRound => f.note("Unused action dice are lost; defences end."),
    }
}

impl Catalogue for Table {
    fn default_move(&self) -> Move {
        let actor = self.declaration_order().last().copied().unwrap_or(0);
        act(self, actor)
    }

    fn kinds(&self, actor: usize) -> Vec<MoveKind<Move>> {
        kinds(self, actor)
    }

    fn form(&self, m: &Move, fields: &mut Form) {
        form(self, m, fields)
    }
}
