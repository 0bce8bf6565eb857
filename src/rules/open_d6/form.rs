//! The `open-d6` moves as data: initiative and surprise rounds, actions on the shot counter with
//! a check (against a number or a character), Limit Breaks, trigger actions (Active Defense,
//! Assist, Push Luck), team actions, Fortune and new sessions.

use super::seat::{Check, Difficulty, Move};
use super::{ActionType, FocusCondition, RollKind, Table};
use crate::rules::catalogue::{Catalogue, Form, MoveKind};
use crate::rules::play::Seat;

fn skills(t: &Table, actor: usize) -> Vec<String> {
    t.characters
        .get(actor)
        .map(|c| c.skills.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default()
}

/// A plain check of `actor`'s first skill against `difficulty`.
fn check(t: &Table, actor: usize, difficulty: Difficulty) -> Check {
    let skill = skills(t, actor).first().cloned().unwrap_or_default();
    Check::plain(&skill, RollKind::Standard, difficulty)
}

/// A Basic Action for `actor`: its first skill against the first character of the other side.
pub(super) fn act(t: &Table, actor: usize) -> Move {
    Move::Act {
        actor,
        kind: ActionType::Basic,
        check: Some(check(t, actor, Difficulty::Against(opponent(t, actor)))),
        focuses: false,
        stance: None,
        moves: false,
    }
}

/// The first opponent of `actor` (the other side), or `actor` when there is none.
fn opponent(t: &Table, actor: usize) -> usize {
    let villain = t.characters.get(actor).map(|c| c.villain);
    (0..t.characters.len())
        .find(|&i| Some(t.characters[i].villain) != villain)
        .unwrap_or(actor)
}

/// The stance schticks of `actor`, as choices after a plain stance.
fn stances(t: &Table, actor: usize) -> Vec<(String, Option<String>)> {
    std::iter::once(("a stance (no schtick)".to_string(), None))
        .chain(
            t.characters
                .get(actor)
                .map(|c| {
                    c.stance_schticks()
                        .map(|s| {
                            let kind = s
                                .kind
                                .as_ref()
                                .map(|k| format!(", {k}"))
                                .unwrap_or_default();
                            (
                                format!("{} ({}{kind})", s.name, s.effect_words()),
                                Some(s.name.clone()),
                            )
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default(),
        )
        .collect()
}

/// Every set of the friction conditions one can be under, for a pick.
fn friction_sets(t: &Table) -> Vec<(String, Vec<u32>)> {
    let faces = t.rules.friction_conditions();
    (0..1u32 << faces.len())
        .map(|mask| {
            let set: Vec<u32> = faces
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, f)| *f)
                .collect();
            let label = if set.is_empty() {
                "none: playing it safe".to_string()
            } else {
                set.iter()
                    .map(|f| t.rules.condition_words(*f))
                    .collect::<Vec<_>>()
                    .join(" + ")
            };
            (label, set)
        })
        .collect()
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
            label: "Initiative".into(),
            hint: "a Closed Reflexes roll per named creature".into(),
            template: Move::Initiative,
        },
        MoveKind {
            label: "Surprise round".into(),
            hint: "the ambushers get 3 shots, the surprised none".into(),
            template: Move::SurpriseRound {
                ambushers: vec![actor],
            },
        },
        MoveKind {
            label: "Action".into(),
            hint: "a basic, trigger, stance, limit break or finisher action".into(),
            template: act(t, actor),
        },
        MoveKind {
            label: "Gauge Skill".into(),
            hint: "an opposed roll of a skill someone uses: learn their rating and schticks".into(),
            template: gauge(t, actor),
        },
        MoveKind {
            label: "Setup Finisher".into(),
            hint: "set the target up: a friend may finish it at once".into(),
            template: Move::SetupFinisher {
                actor,
                partner: (0..t.characters.len())
                    .find(|&i| {
                        i != actor
                            && t.characters[i].villain
                                == t.characters.get(actor).is_some_and(|c| c.villain)
                    })
                    .unwrap_or(actor),
                check: check(t, actor, Difficulty::Against(opponent(t, actor))),
            },
        },
        MoveKind {
            label: "Finishing Stunt".into(),
            hint: "a Finisher: success is an infinite outcome, an automatic Setback".into(),
            template: Move::FinishingStunt {
                actor,
                target: opponent(t, actor),
                skill: skills(t, actor).first().cloned().unwrap_or_default(),
                limit_break: false,
            },
        },
        MoveKind {
            label: "Full Move".into(),
            hint: "a Basic Action: move twice the Move, doing nothing else".into(),
            template: Move::FullMove { actor },
        },
        MoveKind {
            label: "Check outside the action".into(),
            hint: "before the first initiative or after the scene: no shots, no turn order".into(),
            template: Move::Check {
                actor,
                check: check(t, actor, Difficulty::Against(opponent(t, actor))),
            },
        },
        MoveKind {
            label: "Combination Action".into(),
            hint: "Limit Break: two Basic Actions".into(),
            template: Move::CombinationAction {
                actor,
                first: plain.clone(),
                second: Some(plain.clone()),
                moves: false,
                full_move: false,
            },
        },
        MoveKind {
            label: "Combination with a Full Move".into(),
            hint: "Limit Break: a Basic Action and a Full Move, moving even where the action \
                   allows no movement"
                .into(),
            template: Move::CombinationAction {
                actor,
                first: plain.clone(),
                second: None,
                moves: false,
                full_move: true,
            },
        },
        MoveKind {
            label: "Action Advantage".into(),
            hint: "Limit Break: a Basic Action with an Advantage".into(),
            template: Move::ActionAdvantage {
                actor,
                check: plain,
            },
        },
        MoveKind {
            label: "Active Defense".into(),
            hint: "trigger: +3 to a skill as a difficulty, this shot".into(),
            template: Move::ActiveDefense {
                actor,
                skill: "Dodge".into(),
                against: None,
            },
        },
        MoveKind {
            label: "Assist".into(),
            hint: "trigger after a friend's check: +1 on a Confident success".into(),
            template: Move::Assist {
                helper,
                skill: skills(t, helper).first().cloned().unwrap_or_default(),
                no_roll: false,
            },
        },
        MoveKind {
            label: "Push Luck".into(),
            hint: "trigger after a failed check: re-roll; failure adds a Setback".into(),
            template: Move::PushLuck { actor: last },
        },
        MoveKind {
            label: "Team action".into(),
            hint: "outside detailed time: all at −n, the best counts".into(),
            template: Move::TeamAction {
                actors: (0..t.characters.len().min(2)).collect(),
                skill: skills(t, actor).first().cloned().unwrap_or_default(),
                difficulty: 10,
            },
        },
        MoveKind {
            label: "Fortune initiative".into(),
            hint: "a Closed, Confident initiative re-roll".into(),
            template: Move::FortuneInitiative { actor },
        },
        MoveKind {
            label: "d6 table".into(),
            hint: "a plain d6 on a random table".into(),
            template: Move::TableD6 { actor },
        },
        MoveKind {
            label: "Fortune re-roll".into(),
            hint: "re-roll the last d6, keep either".into(),
            template: Move::FortuneReroll { actor },
        },
        MoveKind {
            label: "Stance before the round".into(),
            hint: "before initiative: paid from the next round's first shot".into(),
            template: Move::StanceBeforeRound {
                actor,
                stance: None,
            },
        },
        MoveKind {
            label: "Focus".into(),
            hint: "focus at no shot cost (once a round); a Limit Break may follow".into(),
            template: Move::Focus {
                actor,
                condition: None,
            },
        },
        MoveKind {
            label: "Damage".into(),
            hint: "hits taken; at zero the character is knocked out".into(),
            template: Move::Damage {
                target: opponent(t, actor),
                hits: 1,
                by: Some(actor),
            },
        },
        MoveKind {
            label: "Deal damage".into(),
            hint: "a hit's damage: outcome + weapon + boosts − soak and resistances".into(),
            template: Move::DealDamage {
                by: t.last_check.as_ref().map_or(actor, |l| l.actor),
                target: t
                    .last_check
                    .as_ref()
                    .and_then(|l| l.target)
                    .unwrap_or_else(|| opponent(t, actor)),
                weapon: 0,
                kind: None,
            },
        },
        MoveKind {
            label: "Setback".into(),
            hint: "a Setback inflicted (a windfall played on the opponent, a Damage Setback)"
                .into(),
            template: Move::Setback {
                target: opponent(t, actor),
                by: Some(actor),
            },
        },
        MoveKind {
            label: "Knock out".into(),
            hint: "unable to act this scene; the opponent may take a Finisher".into(),
            template: Move::KnockOut {
                target: opponent(t, actor),
                by: Some(actor),
            },
        },
        MoveKind {
            label: "Impairment".into(),
            hint: "points off every use of the character's skills, defence too".into(),
            template: Move::Impair {
                target: actor,
                points: 1,
            },
        },
        MoveKind {
            label: "Under friction".into(),
            hint: "the conditions a friction check after snake eyes reads".into(),
            template: Move::UnderFriction {
                target: actor,
                conditions: t.rules.friction_conditions().into_iter().take(1).collect(),
            },
        },
        MoveKind {
            label: "End the scene".into(),
            hint: "the action ends; focused and out of shots: one Limit Break after it".into(),
            template: Move::EndScene,
        },
        MoveKind {
            label: "New session".into(),
            hint: "Fortune points and player characters' Hits come back".into(),
            template: Move::NewSession,
        },
    ]
}

/// A Gauge Skill of the skill someone was last seen using (the last check at the table, when
/// it was not `actor`'s), as a trigger action; else of an opponent's, as a Limit Break.
fn gauge(t: &Table, actor: usize) -> Move {
    match t.last_check.as_ref().filter(|l| l.actor != actor) {
        Some(last) => Move::GaugeSkill {
            actor,
            target: last.actor,
            skill: last.skill.clone(),
            limit_break: false,
        },
        None => Move::GaugeSkill {
            actor,
            target: opponent(t, actor),
            skill: skills(t, actor).first().cloned().unwrap_or_default(),
            limit_break: true,
        },
    }
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
            (
                "against a character's listed skills",
                Difficulty::Listed(0, vec!["Dodge".into()]),
            ),
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
        Difficulty::Listed(target, listed) => {
            f.character(&path("difficulty.Listed.0"), &label("Opponent"), *target);
            f.words(
                &path("difficulty.Listed.1"),
                &label("The opponent's skills it targets (the highest applies)"),
                listed,
                "Dodge, Know",
            );
        }
        Difficulty::Against(target) => {
            f.character(&path("difficulty.Against"), &label("Opponent"), *target);
            if let Ok(d) = t.difficulty_against(actor, *target, &c.skill) {
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
        Move::Initiative | Move::NewSession | Move::EndScene => f.note(t.describe(m)),
        Move::Focus { actor, condition } => {
            f.actor("actor", "Who", *actor);
            f.value(
                "condition",
                "Condition",
                vec![
                    ("none: focused now".to_string(), None),
                    (
                        "defeat a named opponent this turn".to_string(),
                        Some(FocusCondition::DefeatNamed),
                    ),
                    (
                        "inflict a Setback on a named opponent this turn".to_string(),
                        Some(FocusCondition::SetbackOnNamed),
                    ),
                ],
                condition,
            );
            f.note(t.describe(m));
        }
        Move::StanceBeforeRound { actor, stance } => {
            f.actor("actor", "Who", *actor);
            f.value("stance", "Stance", stances(t, *actor), stance);
            f.note(t.describe(m));
        }
        Move::Damage { target, hits, by } => {
            f.character("target", "Who takes it", *target);
            let most = t
                .characters
                .get(*target)
                .and_then(|c| c.hits)
                .unwrap_or(0)
                .max(1);
            f.number("hits", "Hits", *hits, 0, most);
            f.optional_character("by", "Dealt by", "nobody", Some(*target), *by);
        }
        Move::DealDamage {
            by,
            target,
            weapon,
            kind,
        } => {
            f.character("by", "Attacker", *by);
            f.character("target", "Whom", *target);
            f.number("weapon", "Weapon damage", *weapon, -10, 20);
            let kinds: Vec<String> = t
                .characters
                .iter()
                .flat_map(|c| &c.schticks)
                .filter_map(|s| s.resist.as_ref().or(s.damage.as_ref()))
                .map(|(k, _)| k.clone())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let options = std::iter::once(("no particular type".to_string(), None))
                .chain(kinds.into_iter().map(|k| (k.clone(), Some(k))))
                .collect();
            f.value("kind", "Type of damage", options, kind);
            match t.damage_preview(*by, *target, *weapon, kind.as_deref()) {
                Ok(lines) => lines.into_iter().for_each(|l| f.note(l)),
                Err(why) => f.note(why.text),
            }
        }
        Move::Setback { target, by } => {
            f.character("target", "Who suffers it", *target);
            f.optional_character("by", "Inflicted by", "nobody", Some(*target), *by);
        }
        Move::KnockOut { target, by } => {
            f.character("target", "Who is knocked out", *target);
            f.optional_character("by", "Knocked out by", "nobody", Some(*target), *by);
        }
        Move::Impair { target, points } => {
            f.character("target", "Who", *target);
            f.number("points", "Impairment (0 lifts it)", *points, 0, 20);
        }
        Move::UnderFriction { target, conditions } => {
            f.character("target", "Who", *target);
            f.value("conditions", "Under friction", friction_sets(t), conditions);
        }
        Move::SurpriseRound { ambushers } => f.characters("ambushers", "Ambushers", ambushers),
        Move::Act {
            actor,
            kind,
            check: c,
            focuses,
            stance,
            moves,
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
            if *kind == ActionType::Stance {
                f.value("stance", "Stance", stances(t, *actor), stance);
            }
            if matches!(kind, ActionType::Basic | ActionType::LimitBreak) {
                let how_far = t
                    .characters
                    .get(*actor)
                    .and_then(|c| c.move_m)
                    .map(|m| format!(" (up to {m} m)"))
                    .unwrap_or_default();
                f.flag("moves", &format!("Moves too{how_far}"), *moves);
            }
        }
        Move::FullMove { actor } => {
            f.actor("actor", "Who", *actor);
            f.note(t.describe(m));
        }
        Move::CombinationAction {
            actor,
            first,
            second,
            moves,
            full_move,
        } => {
            f.actor("actor", "Who", *actor);
            match second {
                Some(second) => {
                    check_fields(t, f, *actor, first, "first", "First action");
                    check_fields(t, f, *actor, second, "second", "Second action");
                }
                None => check_fields(t, f, *actor, first, "first", "The action"),
            }
            if *full_move {
                f.note(t.describe(m));
            } else {
                f.flag("moves", "Moves too (once)", *moves);
            }
        }
        Move::ActionAdvantage { actor, check: c } | Move::Check { actor, check: c } => {
            f.actor("actor", "Who", *actor);
            check_fields(t, f, *actor, c, "check", "");
        }
        Move::GaugeSkill {
            actor,
            target,
            skill,
            limit_break,
        } => {
            f.actor("actor", "Who", *actor);
            f.character("target", "Whose skill", *target);
            f.pick("skill", "Skill", &skills(t, *actor), skill);
            f.flag(
                "limit_break",
                "They are not using it (a Limit Break)",
                *limit_break,
            );
            let name = |i: usize| t.characters.get(i).map_or("", |c| c.name.as_str());
            f.note(if t.seen_using(*target, skill) {
                format!(
                    "{} has just used {skill}: a trigger action; if the gauge fails, {} learns \
                     only their own result",
                    name(*target),
                    name(*actor)
                )
            } else {
                format!(
                    "{} has not just used {skill}: gauging it is a Limit Break",
                    name(*target)
                )
            });
        }
        Move::SetupFinisher {
            actor,
            partner,
            check: c,
        } => {
            f.actor("actor", "Who", *actor);
            f.character("partner", "Who may finish", *partner);
            check_fields(t, f, *actor, c, "check", "");
        }
        Move::FinishingStunt {
            actor,
            target,
            skill,
            limit_break,
        } => {
            f.actor("actor", "Who", *actor);
            f.character("target", "Whom", *target);
            f.pick("skill", "Skill", &skills(t, *actor), skill);
            f.flag(
                "limit_break",
                "With a Limit Break (rolled normally; else Routine, Confident)",
                *limit_break,
            );
        }
        Move::ActiveDefense {
            actor,
            skill,
            against,
        } => {
            f.actor("actor", "Who", *actor);
            f.pick("skill", "Skill", &skills(t, *actor), skill);
            f.optional_character(
                "against",
                "Against the attack of",
                "every attacker",
                Some(*actor),
                *against,
            );
        }
        Move::Assist {
            helper,
            skill,
            no_roll,
        } => {
            f.actor("helper", "Helper", *helper);
            f.pick("skill", "Skill", &skills(t, *helper), skill);
            f.flag(
                "no_roll",
                "Forgo the roll (the friend's skill is the same or lower)",
                *no_roll,
            );
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

impl Catalogue for Table {
    fn default_move(&self) -> Move {
        match self.acting_now().first() {
            None if self.simplified => Move::NewSession,
            None => Move::Initiative,
            Some(&actor) => act(self, actor),
        }
    }

    fn kinds(&self, actor: usize) -> Vec<MoveKind<Move>> {
        kinds(self, actor)
    }

    fn form(&self, m: &Move, fields: &mut Form) {
        form(self, m, fields)
    }
}
