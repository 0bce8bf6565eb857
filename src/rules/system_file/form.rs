//! A system file's moves as data: each of the file's moves with its choices as fields, a push
//! where a move can be pushed, initiative, a resource changed by hand, the end of a turn.

use std::collections::BTreeMap;

use super::seat::{Move, Picked};
use super::{ChoiceDef, Holder, Table, Turn};
use crate::rules::catalogue::{Catalogue, Form, MoveKind};
use crate::rules::play::Seat;

impl Table {
    fn make(&self, actor: usize, k: usize) -> Move {
        Move::Make {
            actor,
            name: self
                .rules
                .moves
                .get(k)
                .map(|m| m.name.clone())
                .unwrap_or_default(),
            choices: BTreeMap::new(),
        }
    }
}

impl Catalogue for Table {
    fn default_move(&self) -> Move {
        if matches!(self.rules.turn, Turn::Initiative(_)) && self.acting().is_none() {
            return Move::Initiative;
        }
        self.make(self.acting().unwrap_or(0), 0)
    }

    fn kinds(&self, actor: usize) -> Vec<MoveKind<Move>> {
        let mut kinds: Vec<MoveKind<Move>> = self
            .rules
            .moves
            .iter()
            .enumerate()
            .map(|(k, m)| MoveKind {
                label: m.name.clone().into(),
                hint: m.about.clone().into(),
                template: self.make(actor, k),
            })
            .collect();
        if let Some(push) = self.rules.moves.iter().find_map(|m| m.push.as_ref()) {
            kinds.push(MoveKind {
                label: push.label.clone().into(),
                hint: "throw again the dice of your last throw that did not show a kept face"
                    .into(),
                template: Move::Push { actor },
            });
        }
        if matches!(self.rules.turn, Turn::Initiative(_)) {
            kinds.push(MoveKind {
                label: "Roll initiative".into(),
                hint: "everyone's initiative at once; highest first".into(),
                template: Move::Initiative,
            });
        }
        if let Some(r) = self.rules.resources.first() {
            kinds.push(MoveKind {
                label: "Change a resource".into(),
                hint: "the game master changes a resource or clock by hand".into(),
                template: Move::Adjust {
                    actor: (r.per == Holder::Character).then_some(actor),
                    resource: r.name.clone(),
                    by: 1,
                },
            });
        }
        if self.rules.turn != Turn::Free {
            kinds.push(MoveKind {
                label: "End turn".into(),
                hint: "pass to the next in the order".into(),
                template: Move::EndTurn,
            });
        }
        kinds
    }

    fn form(&self, m: &Move, f: &mut Form) {
        match m {
            Move::Make {
                actor,
                name,
                choices,
            } => {
                f.actor("actor", "Who", *actor);
                let Some(def) = self.rules.move_named(name) else {
                    f.note(format!("\"{name}\" is no move of {}", self.rules.name));
                    return;
                };
                for c in &def.choices {
                    let path = format!("choices.{}", c.name());
                    let picked = choices.get(c.name());
                    match c {
                        ChoiceDef::Trait { label, of, .. } => {
                            let offered: Vec<String> =
                                self.rules.offered(of).map(|t| t.name.clone()).collect();
                            let current = match (picked, self.cast.get(*actor)) {
                                (Some(Picked::Name(n)), _) => n.clone(),
                                (_, Some(c)) => {
                                    let names: Vec<&str> =
                                        offered.iter().map(String::as_str).collect();
                                    super::seat::best_trait(&self.rules, c, &names)
                                }
                                _ => offered.first().cloned().unwrap_or_default(),
                            };
                            f.pick(&path, label, &offered, &current);
                        }
                        ChoiceDef::Number {
                            label,
                            least,
                            most,
                            default,
                            ..
                        } => {
                            let value = match picked {
                                Some(Picked::Number(n)) => *n,
                                _ => *default,
                            };
                            f.number(&path, label, value, *least, *most);
                        }
                        ChoiceDef::Options { label, options, .. } => {
                            let labels: Vec<String> =
                                options.iter().map(|o| o.label.clone()).collect();
                            let current = match picked {
                                Some(Picked::Name(n)) => n.clone(),
                                _ => labels.first().cloned().unwrap_or_default(),
                            };
                            f.pick(&path, label, &labels, &current);
                        }
                    }
                }
                let bands: Vec<&str> = def.bands.iter().map(|b| b.name.as_str()).collect();
                // The throw as these choices make it (`4d6kh1 against 2d10`).
                let throws = self
                    .filling(*actor, def, choices)
                    .ok()
                    .and_then(|f| super::seat::throw_of(&self.rules, def, &|n| f.lookup(n)).ok())
                    .map(|t| match &t.against {
                        Some(a) => format!("{} against {}", t.written, a.source()),
                        None => t.written,
                    })
                    .unwrap_or_else(|| def.throw.clone());
                f.note(format!("Throws {throws} · {}", bands.join(" / ")));
            }
            Move::Push { actor } => {
                f.actor("actor", "Who", *actor);
                f.note(self.describe(m));
            }
            Move::Adjust {
                actor,
                resource,
                by,
            } => {
                let names: Vec<String> = self
                    .rules
                    .resources
                    .iter()
                    .map(|r| r.name.clone())
                    .collect();
                f.pick("resource", "Resource", &names, resource);
                let per = self.rules.resource(resource).map(|r| r.per);
                if per == Some(Holder::Character) {
                    f.optional_character("actor", "Whose", "the scene's", None, *actor);
                }
                f.number("by", "By", *by, -super::MOST_NUMBER, super::MOST_NUMBER);
            }
            Move::Initiative | Move::EndTurn => f.note(self.describe(m)),
        }
    }
}
