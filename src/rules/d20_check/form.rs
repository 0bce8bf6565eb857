//! The `d20-check` moves as data: checks of each action type (Standard, Bonus, Save, Extended,
//! Group) with Play the Odds, resource dice, and initiative the GM declares and ends.

use super::seat::{CheckType, DcChoice, Move};
use super::{Edge, Table};
use crate::rules::catalogue::{Catalogue, Form, MoveKind};
use crate::rules::play::Seat;

/// The first row of the DC table harder than the least DC (the default check's).
fn usual_dc(t: &Table) -> DcChoice {
    DcChoice::Named(
        t.rules
            .dc_table
            .iter()
            .find(|(_, dc)| *dc > t.rules.dc_min)
            .map(|(n, _)| n.clone())
            .unwrap_or_default(),
        0,
    )
}

fn first_modifier(t: &Table, actor: usize) -> Option<String> {
    t.characters
        .get(actor)
        .and_then(|c| c.modifiers.first())
        .map(|(n, _)| n.clone())
}

pub(super) fn kinds(t: &Table, actor: usize) -> Vec<MoveKind<Move>> {
    let side = t.characters.get(actor).map(|c| c.side);
    let helpers: Vec<usize> = (0..t.characters.len())
        .filter(|&i| i != actor && Some(t.characters[i].side) == side)
        .take(1)
        .collect();
    let resources = |i: usize| t.resources.get(i).cloned().unwrap_or_default();
    let with_resource = if resources(actor).iter().any(|(_, d)| d.is_some()) {
        actor
    } else {
        (0..t.characters.len())
            .find(|&i| resources(i).iter().any(|(_, d)| d.is_some()))
            .unwrap_or(actor)
    };
    vec![
        MoveKind {
            label: "Check".into(),
            hint: "Standard, Bonus, Save or Extended".into(),
            template: Move::Check {
                actor,
                kind: CheckType::Standard,
                modifier: first_modifier(t, actor),
                dc: usual_dc(t),
                edge: Edge::None,
                play_the_odds: false,
            },
        },
        MoveKind {
            label: "Group check".into(),
            hint: "an assisted check by several characters".into(),
            template: Move::Group {
                leader: actor,
                helpers,
                modifier: None,
                dc: usual_dc(t),
                edge: Edge::None,
            },
        },
        MoveKind {
            label: "Opposed check".into(),
            hint: "the GM rolls an opponent's check; its total is the DC of the check it opposes"
                .into(),
            template: Move::Opposed {
                by: opponent(t, actor, false),
                against: actor,
                modifier: None,
                edge: Edge::None,
            },
        },
        MoveKind {
            label: "Resource die".into(),
            hint: "roll a resource; 1-2 steps it along its chain".into(),
            template: Move::Resource {
                actor: with_resource,
                name: resources(with_resource)
                    .first()
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default(),
            },
        },
        MoveKind {
            label: "Declare initiative".into(),
            hint: "things get dicey: turns apply".into(),
            template: Move::DeclareInitiative,
        },
        MoveKind {
            label: "Initiative".into(),
            hint: "each side 1d6 + lowest proficiency".into(),
            template: Move::Initiative,
        },
        MoveKind {
            label: "End initiative".into(),
            hint: "things calm down: no turn order".into(),
            template: Move::EndInitiative,
        },
    ]
}

/// The first character opposing `roller`: of the other side, with a Defense Class where
/// `defended`, else anyone else.
fn opponent(t: &Table, roller: usize, defended: bool) -> usize {
    let side = t.characters.get(roller).map(|c| c.side);
    let others = || (0..t.characters.len()).filter(move |&i| i != roller);
    others()
        .find(|&i| {
            Some(t.characters[i].side) != side && (!defended || t.characters[i].defense.is_some())
        })
        .or_else(|| others().find(|&i| Some(t.characters[i].side) != side))
        .or_else(|| others().next())
        .unwrap_or(0)
}

fn dc(t: &Table, f: &mut Form, roller: usize, dc: &DcChoice) {
    let first = t
        .rules
        .dc_table
        .first()
        .map(|(n, _)| n.clone())
        .unwrap_or_default();
    let waiting = t
        .opposed
        .iter()
        .find(|o| o.against == roller)
        .map_or_else(|| opponent(t, roller, false), |o| o.by);
    f.variant(
        "dc",
        "DC",
        vec![
            ("from the table", DcChoice::Named(first, 0)),
            ("a number", DcChoice::Number(12)),
            (
                "a Defense Class",
                DcChoice::Defense(opponent(t, roller, true)),
            ),
            ("the GM's opposed check", DcChoice::Opposed(waiting)),
        ],
        dc,
    );
    match dc {
        DcChoice::Defense(i) => {
            f.character("dc.Defense", "Whose Defense Class", *i);
            f.note(match t.characters.get(*i).and_then(|c| c.defense) {
                Some(d) => format!("Defense Class {d}"),
                None => "no Defense Class in the scene".into(),
            });
        }
        DcChoice::Opposed(i) => {
            f.character("dc.Opposed", "Opposed by", *i);
            f.note(
                match t.opposed.iter().find(|o| o.by == *i && o.against == roller) {
                    Some(o) => format!("the GM's opposed check set DC {}", o.dc),
                    None => "the GM rolls the opposed check first (Opposed check)".into(),
                },
            );
        }
        DcChoice::Named(name, gm) => {
            let rows: Vec<String> = t.rules.dc_table.iter().map(|(n, _)| n.clone()).collect();
            f.pick("dc.Named.0", "Difficulty", &rows, name);
            let (lo, hi) = t.rules.gm_modifier;
            f.number("dc.Named.1", "GM modifier", *gm, lo, hi);
        }
        DcChoice::Number(n) => {
            f.number("dc.Number", "DC number", *n, t.rules.dc_min, t.rules.dc_max)
        }
    }
}

fn edge(f: &mut Form, edge: &Edge) {
    f.value(
        "edge",
        "Edge",
        vec![
            ("none".into(), Edge::None),
            ("advantage".into(), Edge::Advantage),
            ("disadvantage".into(), Edge::Disadvantage),
        ],
        edge,
    );
}

fn modifier(t: &Table, f: &mut Form, actor: usize, m: &Option<String>) {
    let mut options = vec![("none".to_string(), None)];
    if let Some(c) = t.characters.get(actor) {
        options.extend(
            c.modifiers
                .iter()
                .map(|(n, _)| (n.clone(), Some(n.clone()))),
        );
    }
    f.value("modifier", "Modifier", options, m);
}

pub(super) fn form(t: &Table, m: &Move, f: &mut Form) {
    match m {
        Move::Check {
            actor,
            kind,
            modifier: md,
            dc: d,
            edge: e,
            play_the_odds,
        } => {
            f.actor("actor", "Who", *actor);
            let mut kinds = vec![
                ("Standard", CheckType::Standard),
                ("Bonus", CheckType::Bonus),
                ("Save", CheckType::Save),
            ];
            if let Some(task) = t.tasks.first() {
                kinds.push((
                    "Extended",
                    CheckType::Extended {
                        task: task.task.name.clone(),
                    },
                ));
            }
            f.variant("kind", "Type", kinds, kind);
            if let CheckType::Extended { task } = kind {
                let tasks: Vec<String> = t.tasks.iter().map(|p| p.task.name.clone()).collect();
                f.pick("kind.Extended.task", "Task", &tasks, task);
            }
            modifier(t, f, *actor, md);
            dc(t, f, *actor, d);
            edge(f, e);
            f.flag(
                "play_the_odds",
                "Play the Odds (a mundane action: roll against DC 2 to improve it)",
                *play_the_odds,
            );
        }
        Move::Group {
            leader,
            helpers,
            modifier: md,
            dc: d,
            edge: e,
        } => {
            f.actor("leader", "Leader", *leader);
            f.characters("helpers", "Helpers", helpers);
            modifier(t, f, *leader, md);
            dc(t, f, *leader, d);
            edge(f, e);
        }
        Move::Resource { actor, name } => {
            f.actor("actor", "Whose", *actor);
            let options: Vec<String> = t
                .resources
                .get(*actor)
                .map(|r| r.iter().map(|(n, _)| n.clone()).collect())
                .unwrap_or_default();
            f.pick("name", "Resource", &options, name);
        }
        Move::Opposed {
            by,
            against,
            modifier: md,
            edge: e,
        } => {
            f.character("by", "Rolled for", *by);
            f.character("against", "Against the check of", *against);
            modifier(t, f, *by, md);
            edge(f, e);
            f.note("Its total is the DC of that character's next check against this one.");
        }
        Move::Initiative | Move::DeclareInitiative | Move::EndInitiative => f.note(t.describe(m)),
    }
}

impl Catalogue for Table {
    fn default_move(&self) -> Move {
        let side = self.side_to_act();
        if self.initiative && side.is_none() {
            return Move::Initiative;
        }
        let actor = (0..self.characters.len())
            .find(|&i| side.is_none_or(|s| self.characters[i].side == s && !self.acted[i]))
            .unwrap_or(0);
        Move::Check {
            actor,
            kind: CheckType::Standard,
            modifier: self.characters[actor]
                .modifiers
                .first()
                .map(|(n, _)| n.clone()),
            dc: DcChoice::Named(
                self.rules
                    .dc_table
                    .iter()
                    .find(|(_, dc)| *dc > self.rules.dc_min)
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default(),
                0,
            ),
            edge: Edge::None,
            play_the_odds: false,
        }
    }

    fn kinds(&self, actor: usize) -> Vec<MoveKind<Move>> {
        kinds(self, actor)
    }

    fn form(&self, m: &Move, fields: &mut Form) {
        form(self, m, fields)
    }
}
