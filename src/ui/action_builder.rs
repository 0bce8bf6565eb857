//! The action builder: a move for a character of the seated scene, built from its ruleset's
//! options (Aspect and Action Load; action dice and skills; ability and difficulty dice with
//! position and teamwork; roll kind and skill against difficulty; proficiency, DC table,
//! advantage and resource dice). The rules check it: a move they do not allow shows why and
//! cannot be thrown. Its exact odds are worked out when it changes, not every frame.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::rules::d20_check::Edge;
use crate::rules::open_d6::{ActionType, RollKind};
use crate::rules::play::{D4Target, DcChoice, Move, OpenD6Check, opposed_difficulty};
use crate::rules::step_dice::Position;
use crate::rules::table::TableState;
use crate::rules::{Die, Odds};
use crate::table::TablePlay;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MoveDraft>();
}

/// The move being built, and what the rules say of it.
#[derive(Resource, Default)]
pub struct MoveDraft {
    /// The move.
    pub mv: Option<Move>,
    /// The scene it was built for.
    seated: Option<String>,
    /// The rules' verdict and odds for `mv` at the table as it is.
    preview: Option<Preview>,
}

/// What the rules say of a move at a table.
pub struct Preview {
    mv: Move,
    state: TableState,
    /// Allowed now, or why not.
    pub allowed: Result<(), String>,
    /// The exact odds (None: the move throws nothing).
    pub odds: Result<Option<Odds>, String>,
}

impl MoveDraft {
    /// Keeps the draft fit for the table: the scene's default move after a scene change, or when
    /// the table moved on and the draft is no longer allowed; the verdict and odds recomputed
    /// only when the move or the table changed.
    pub fn refresh(&mut self, play: &TablePlay) {
        let (Some(state), Ok(book)) = (&play.state, &play.book) else {
            self.mv = None;
            self.preview = None;
            return;
        };
        let table_moved = self.preview.as_ref().is_none_or(|p| p.state != *state);
        let reseat = self.seated != play.scene || self.mv.is_none();
        if reseat
            || (table_moved
                && self
                    .mv
                    .as_ref()
                    .is_none_or(|mv| state.allowed(book, mv).is_err()))
        {
            self.mv = Some(state.default_move());
            self.seated = play.scene.clone();
        }
        let Some(mv) = &self.mv else { return };
        if self
            .preview
            .as_ref()
            .is_none_or(|p| p.mv != *mv || p.state != *state)
        {
            self.preview = Some(Preview {
                mv: mv.clone(),
                state: state.clone(),
                allowed: state.allowed(book, mv),
                odds: state.odds(book, mv),
            });
        }
    }

    /// The rules' verdict and odds of the draft.
    pub fn preview(&self) -> Option<&Preview> {
        self.preview.as_ref()
    }

    /// Whether the draft may be thrown now.
    pub fn ready(&self) -> bool {
        self.preview.as_ref().is_some_and(|p| p.allowed.is_ok())
    }
}

fn combo(
    ui: &mut egui::Ui,
    id: &str,
    label: &str,
    selected: &mut String,
    options: &[(String, String)],
) {
    let shown = options
        .iter()
        .find(|(v, _)| v == selected)
        .map(|(_, l)| l.clone())
        .unwrap_or_else(|| selected.clone());
    ui.horizontal(|ui| {
        ui.label(label);
        egui::ComboBox::from_id_salt(id)
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for (value, text) in options {
                    ui.selectable_value(selected, value.clone(), text);
                }
            });
    });
}

fn actor_combo(ui: &mut egui::Ui, names: &[&str], actor: &mut usize, label: &str) -> bool {
    let before = *actor;
    ui.horizontal(|ui| {
        ui.label(label);
        egui::ComboBox::from_id_salt(format!("actor {label}"))
            .selected_text(names.get(*actor).copied().unwrap_or("?"))
            .show_ui(ui, |ui| {
                for (i, n) in names.iter().enumerate() {
                    ui.selectable_value(actor, i, *n);
                }
            });
    });
    before != *actor
}

fn sources(ui: &mut egui::Ui, label: &str, list: &mut Vec<String>) {
    let mut text = list.join(", ");
    ui.horizontal(|ui| {
        ui.label(label);
        if ui
            .add(egui::TextEdit::singleline(&mut text).hint_text("torch, high ground"))
            .changed()
        {
            *list = text
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
        }
    });
}

/// The builder's widgets for the draft.
pub(super) fn show(ui: &mut egui::Ui, draft: &mut MoveDraft, play: &TablePlay) {
    let (Some(state), Some(mv)) = (&play.state, draft.mv.as_mut()) else {
        return;
    };
    let names = state.names();
    let mut fresh: Option<Move> = None;
    match (state, mv) {
        (
            TableState::D4Pool(t),
            Move::D4Pool {
                actor,
                aspect,
                weapon,
                kind,
                target,
                advantages,
                disadvantages,
            },
        ) => {
            if actor_combo(ui, &names, actor, "Who") {
                let c = &t.characters[*actor];
                *aspect = c.aspects.keys().next().cloned().unwrap_or_default();
                *weapon = None;
                *kind = if *actor == t.active {
                    "aspect check"
                } else {
                    "reaction"
                }
                .into();
            }
            let c = &t.characters[*actor];
            ui.label(format!(
                "Action Load {} (turn: {})",
                t.loads[*actor], t.characters[t.active].name
            ));
            let aspects: Vec<(String, String)> = c
                .aspects
                .iter()
                .map(|(n, v)| (n.clone(), format!("{n} {v}")))
                .collect();
            combo(ui, "d4 aspect", "Aspect", aspect, &aspects);
            let kinds: Vec<(String, String)> = t
                .rules
                .costs
                .iter()
                .map(|(n, c)| (n.clone(), format!("{n} (cost {c})")))
                .collect();
            combo(ui, "d4 kind", "Action", kind, &kinds);
            let mut w = weapon.clone().unwrap_or_default();
            let mut weapons = vec![(String::new(), "no weapon".to_string())];
            weapons.extend(c.weapons.iter().map(|(n, dice)| {
                let d: Vec<String> = dice.iter().map(ToString::to_string).collect();
                (n.clone(), format!("{n} (+{})", d.join("+")))
            }));
            combo(ui, "d4 weapon", "Weapon", &mut w, &weapons);
            *weapon = (!w.is_empty()).then_some(w);
            ui.horizontal(|ui| {
                ui.label("Target");
                if ui.radio(*target == D4Target::None, "none").clicked() {
                    *target = D4Target::None;
                }
                if ui.radio(matches!(target, D4Target::Dc(_)), "DC").clicked() {
                    *target = D4Target::Dc(12);
                }
                if ui
                    .radio(matches!(target, D4Target::Attack(_)), "attack")
                    .clicked()
                {
                    let last = t.characters.len() - 1;
                    *target = D4Target::Attack(if *actor == last { 0 } else { last });
                }
            });
            match target {
                D4Target::Dc(dc) => {
                    ui.add(egui::DragValue::new(dc).range(1..=60).prefix("DC "));
                }
                D4Target::Attack(i) => {
                    let before = *i;
                    ui.horizontal(|ui| {
                        ui.label("at");
                        egui::ComboBox::from_id_salt("d4 attack")
                            .selected_text(format!(
                                "{} (Evasion {})",
                                t.characters[*i].name, t.characters[*i].evasion
                            ))
                            .show_ui(ui, |ui| {
                                for (k, c) in t.characters.iter().enumerate() {
                                    ui.selectable_value(
                                        i,
                                        k,
                                        format!("{} (Evasion {})", c.name, c.evasion),
                                    );
                                }
                            });
                    });
                    let _ = before;
                }
                D4Target::None => {}
            }
            sources(ui, "Advantage", advantages);
            sources(ui, "Disadvantage", disadvantages);
        }
        (
            TableState::ActionDice(t),
            Move::ActionDice {
                actor,
                skill,
                action_dice,
                extra,
                target,
            },
        ) => {
            if actor_combo(ui, &names, actor, "Who") {
                let c = &t.characters[*actor];
                *skill = c.skills.keys().next().cloned().unwrap_or_default();
                *action_dice = 1;
            }
            let c = &t.characters[*actor];
            let mut options: Vec<(String, String)> = c
                .skills
                .iter()
                .map(|(n, d)| (n.clone(), format!("{n} ({d} skill dice)")))
                .collect();
            options.extend(
                c.abilities
                    .iter()
                    .map(|(n, d)| (n.clone(), format!("{n} (ability {d}, keeps {})", d + 1))),
            );
            options.extend(
                t.rules
                    .two_die_actions
                    .iter()
                    .map(|n| (n.clone(), format!("{n} (two-die)"))),
            );
            combo(ui, "ad skill", "Skill", skill, &options);
            let usable = t.usable_dice(*actor, skill);
            ui.horizontal(|ui| {
                ui.label(format!("Action dice ({usable} usable)"));
                ui.add(egui::DragValue::new(action_dice).range(1..=8));
            });
            ui.horizontal(|ui| {
                ui.label("Extra dice");
                ui.add(egui::DragValue::new(extra).range(0..=8));
            });
            ui.horizontal(|ui| {
                let mut has = target.is_some();
                ui.checkbox(&mut has, "Target");
                match (has, target.as_mut()) {
                    (true, Some(v)) => {
                        ui.add(egui::DragValue::new(v).range(1..=80));
                    }
                    (true, None) => *target = Some(8),
                    (false, _) => *target = None,
                }
            });
        }
        (TableState::StepDice(t), mv @ (Move::StepAct { .. } | Move::StepHelp { .. })) => {
            let helping = matches!(mv, Move::StepHelp { .. });
            ui.horizontal(|ui| {
                if ui.radio(!helping, "Action roll").clicked() && helping {
                    fresh = Some(state.default_move());
                }
                if ui.radio(helping, "Teamwork").clicked() && !helping {
                    let helper = (t.active + 1) % t.characters.len();
                    fresh = Some(Move::StepHelp {
                        helper,
                        helped: t.active,
                        skill: t.characters[helper]
                            .skills
                            .first()
                            .map(|(n, _)| n.clone())
                            .unwrap_or_default(),
                    });
                }
            });
            match mv {
                Move::StepAct {
                    actor,
                    skill,
                    difficulty,
                    position,
                    boosts,
                } => {
                    ui.label(format!("{} rolls", names[*actor]));
                    let c = &t.characters[*actor];
                    let mut s = skill.clone().unwrap_or_default();
                    let mut options =
                        vec![(String::new(), "unskilled (d4, disadvantage)".to_string())];
                    options.extend(
                        c.skills
                            .iter()
                            .map(|(n, d)| (n.clone(), format!("{n} {d}"))),
                    );
                    combo(ui, "sd skill", "Skill", &mut s, &options);
                    *skill = (!s.is_empty()).then_some(s);
                    let diffs: Vec<(String, String)> = t
                        .rules
                        .difficulties
                        .iter()
                        .map(|(n, d)| (n.clone(), format!("{n} {d}")))
                        .collect();
                    combo(ui, "sd difficulty", "Difficulty", difficulty, &diffs);
                    ui.horizontal(|ui| {
                        ui.label("Position");
                        for p in [
                            Position::Advantage,
                            Position::Neutral,
                            Position::Disadvantage,
                        ] {
                            ui.radio_value(position, p, format!("{p:?}"));
                        }
                    });
                    ui.horizontal(|ui| {
                        ui.label("Boosts");
                        for sides in [4, 6, 8, 10, 12] {
                            if ui.small_button(format!("+d{sides}")).clicked() {
                                boosts.push(Die(sides));
                            }
                        }
                        if !boosts.is_empty() && ui.small_button("clear").clicked() {
                            boosts.clear();
                        }
                    });
                    let mut pool: Vec<String> =
                        boosts.iter().map(|d| format!("boost {d}")).collect();
                    pool.extend(t.help[*actor].iter().map(|d| format!("teamwork {d}")));
                    if !pool.is_empty() {
                        ui.label(format!("Also in the pool: {}", pool.join(", ")));
                    }
                }
                Move::StepHelp {
                    helper,
                    helped,
                    skill,
                } => {
                    ui.label(format!("Helping {}", names[*helped]));
                    if actor_combo(ui, &names, helper, "Helper") {
                        *skill = t.characters[*helper]
                            .skills
                            .first()
                            .map(|(n, _)| n.clone())
                            .unwrap_or_default();
                    }
                    let options: Vec<(String, String)> = t.characters[*helper]
                        .skills
                        .iter()
                        .map(|(n, d)| (n.clone(), format!("{n} {d}")))
                        .collect();
                    combo(ui, "sd help skill", "Skill", skill, &options);
                    ui.label(format!(
                        "A quick roll against {}: success adds a die and earns grit",
                        t.rules.teamwork_difficulty
                    ));
                }
                _ => {}
            }
        }
        (TableState::OpenD6(_) | TableState::D20Check(_), Move::Initiative) => {
            ui.label(egui::RichText::new("The round starts with initiative.").strong());
        }
        (
            TableState::OpenD6(t),
            Move::OpenD6Act {
                actor,
                kind,
                check,
                focuses,
            },
        ) => {
            if actor_combo(ui, &names, actor, "Who") {
                *check = None;
            }
            ui.label(format!(
                "shots {}{}",
                t.shots[*actor],
                if t.focused[*actor] { ", focused" } else { "" }
            ));
            ui.horizontal(|ui| {
                ui.label("Action");
                egui::ComboBox::from_id_salt("o6 kind")
                    .selected_text(format!("{kind:?}"))
                    .show_ui(ui, |ui| {
                        for k in [
                            ActionType::Basic,
                            ActionType::Trigger,
                            ActionType::Stance,
                            ActionType::LimitBreak,
                            ActionType::Finisher,
                        ] {
                            ui.selectable_value(kind, k, format!("{k:?} ({:?})", t.rules.cost(k)));
                        }
                    });
            });
            ui.checkbox(focuses, "a focus action");
            let c = &t.characters[*actor];
            let mut rolls = check.is_some();
            ui.checkbox(&mut rolls, "with a check");
            if !rolls {
                *check = None;
            } else {
                let chk = check.get_or_insert_with(|| OpenD6Check {
                    skill: c.skills.first().map(|(n, _)| n.clone()).unwrap_or_default(),
                    roll: RollKind::Standard,
                    difficulty: 10,
                    modifier: 0,
                });
                let options: Vec<(String, String)> = c
                    .skills
                    .iter()
                    .map(|(n, v)| (n.clone(), format!("{n} {v}")))
                    .collect();
                combo(ui, "o6 skill", "Skill", &mut chk.skill, &options);
                ui.horizontal(|ui| {
                    ui.label("Roll");
                    for r in [
                        RollKind::Standard,
                        RollKind::Confident,
                        RollKind::Closed,
                        RollKind::ClosedConfident,
                    ] {
                        ui.radio_value(&mut chk.roll, r, format!("{r:?}"));
                    }
                });
                ui.horizontal(|ui| {
                    ui.label("Difficulty");
                    ui.add(egui::DragValue::new(&mut chk.difficulty).range(0..=40));
                    egui::ComboBox::from_id_salt("o6 against")
                        .selected_text("against…")
                        .show_ui(ui, |ui| {
                            for (i, other) in t.characters.iter().enumerate() {
                                if i == *actor {
                                    continue;
                                }
                                let d = opposed_difficulty(other, &chk.skill);
                                if ui
                                    .selectable_label(false, format!("{} ({d})", other.name))
                                    .clicked()
                                {
                                    chk.difficulty = d;
                                }
                            }
                        });
                });
                ui.horizontal(|ui| {
                    ui.label("Modifier (assists, team −n)");
                    ui.add(egui::DragValue::new(&mut chk.modifier).range(-10..=10));
                });
            }
        }
        (TableState::D20Check(t), mv @ (Move::D20Check { .. } | Move::D20Resource { .. })) => {
            let resource = matches!(mv, Move::D20Resource { .. });
            let actor_now = TableState::actor_of(mv).unwrap_or(0);
            ui.horizontal(|ui| {
                if ui.radio(!resource, "Check").clicked() && resource {
                    fresh = Some(state.default_move());
                }
                if ui.radio(resource, "Use a resource die").clicked() && !resource {
                    let (who, name) = (0..t.characters.len())
                        .flat_map(|i| {
                            t.resources[i]
                                .iter()
                                .filter(|(_, d)| d.is_some())
                                .map(move |(n, _)| (i, n.clone()))
                        })
                        .min_by_key(|(i, _)| usize::from(*i != actor_now))
                        .unwrap_or((actor_now, String::new()));
                    fresh = Some(Move::D20Resource { actor: who, name });
                }
            });
            match mv {
                Move::D20Check {
                    actor,
                    modifier,
                    dc,
                    edge,
                } => {
                    if actor_combo(ui, &names, actor, "Who") {
                        *modifier = None;
                    }
                    let c = &t.characters[*actor];
                    ui.label(format!(
                        "proficiency {:+}, {:?} side",
                        c.proficiency, c.side
                    ));
                    let mut m = modifier.clone().unwrap_or_default();
                    let mut options = vec![(String::new(), "no modifier".to_string())];
                    options.extend(
                        c.modifiers
                            .iter()
                            .map(|(n, v)| (n.clone(), format!("{n} {v:+}"))),
                    );
                    combo(ui, "d20 modifier", "Modifier", &mut m, &options);
                    *modifier = (!m.is_empty()).then_some(m);
                    ui.horizontal(|ui| {
                        ui.label("DC");
                        let named = matches!(dc, DcChoice::Named(..));
                        if ui.radio(named, "table").clicked() && !named {
                            *dc = DcChoice::Named(
                                t.rules
                                    .dc_table
                                    .get(1)
                                    .map(|(n, _)| n.clone())
                                    .unwrap_or_default(),
                                0,
                            );
                        }
                        if ui.radio(!named, "number").clicked() && named {
                            *dc = DcChoice::Number(15);
                        }
                    });
                    match dc {
                        DcChoice::Named(name, gm) => {
                            let rows: Vec<(String, String)> = t
                                .rules
                                .dc_table
                                .iter()
                                .map(|(n, v)| (n.clone(), format!("{n} (DC {v})")))
                                .collect();
                            combo(ui, "d20 dc", "Difficulty", name, &rows);
                            let (lo, hi) = t.rules.gm_modifier;
                            ui.add(egui::Slider::new(gm, lo..=hi).text("GM modifier"));
                        }
                        DcChoice::Number(n) => {
                            ui.add(egui::DragValue::new(n).range(t.rules.dc_min..=t.rules.dc_max));
                        }
                    }
                    ui.horizontal(|ui| {
                        for e in [Edge::None, Edge::Advantage, Edge::Disadvantage] {
                            ui.radio_value(edge, e, format!("{e:?}"));
                        }
                    });
                }
                Move::D20Resource { actor, name } => {
                    if actor_combo(ui, &names, actor, "Whose") {
                        *name = t.resources[*actor]
                            .first()
                            .map(|(n, _)| n.clone())
                            .unwrap_or_default();
                    }
                    let options: Vec<(String, String)> = t.resources[*actor]
                        .iter()
                        .map(|(n, d)| {
                            (
                                n.clone(),
                                match d {
                                    Some(d) => format!("{n} {d}"),
                                    None => format!("{n} (spent)"),
                                },
                            )
                        })
                        .collect();
                    combo(ui, "d20 resource", "Resource", name, &options);
                }
                _ => {}
            }
        }
        _ => {
            fresh = Some(state.default_move());
        }
    }
    if let Some(mv) = fresh {
        draft.mv = Some(mv);
    }
}
