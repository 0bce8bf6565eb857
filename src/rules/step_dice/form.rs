//! The `step-dice` moves as data: the active character's action roll, teamwork (with the
//! director's difficulty), a quick action roll the director calls for, or ending the turn.

use super::seat::Move;
use super::{Position, Table};
use crate::rules::catalogue::{Catalogue, Form, MoveKind};
use crate::rules::play::Seat;

/// Most boost dice of one size a form offers.
const MOST_BOOSTS: u32 = 4;

fn skills(t: &Table, actor: usize) -> Vec<String> {
    t.characters
        .get(actor)
        .map(|c| c.skills.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default()
}

/// An action roll for `actor`: its first skill set against the second rating (Challenging in
/// the shipped rules).
pub(super) fn act(t: &Table, actor: usize) -> Move {
    Move::Act {
        actor,
        skill: skills(t, actor).first().cloned(),
        difficulty: t
            .rules
            .difficulties
            .get(1)
            .or(t.rules.difficulties.first())
            .map(|(n, _)| n.clone())
            .unwrap_or_default(),
        position: Position::Neutral,
        boosts: vec![],
    }
}

pub(super) fn kinds(t: &Table, actor: usize) -> Vec<MoveKind<Move>> {
    let helped = if actor == t.active {
        (0..t.characters.len()).find(|&i| i != actor).unwrap_or(0)
    } else {
        t.active
    };
    vec![
        MoveKind {
            label: "Action roll".into(),
            hint: "ability pool against the difficulty pool".into(),
            template: act(t, actor),
        },
        MoveKind {
            label: "Teamwork".into(),
            hint: "a quick roll; success adds a die this round and 1 grit".into(),
            template: Move::Help {
                helper: actor,
                helped,
                skill: skills(t, actor).first().cloned(),
                difficulty: None,
            },
        },
        MoveKind {
            label: "Quick action roll".into(),
            hint: "the director's simple comparison: one skill die against one difficulty die"
                .into(),
            template: Move::QuickRoll {
                actor,
                skill: skills(t, actor).first().cloned(),
                difficulty: t
                    .rules
                    .difficulties
                    .first()
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default(),
            },
        },
        MoveKind {
            label: "Easy action".into(),
            hint: "no risk of failure: it succeeds without a roll (uses the round's action)".into(),
            template: Move::Easy { actor },
        },
        MoveKind {
            label: "End turn".into(),
            hint: "pass to the next character".into(),
            template: Move::EndTurn,
        },
    ]
}

/// A skill set of the character's, or none (an unskilled roll: a Novice d4 at Disadvantage).
fn skill_or_unskilled(t: &Table, f: &mut Form, actor: usize, skill: &Option<String>) {
    let mut options = vec![("unskilled".to_string(), None)];
    options.extend(skills(t, actor).into_iter().map(|s| (s.clone(), Some(s))));
    f.value("skill", "Skill set", options, skill);
}

pub(super) fn form(t: &Table, m: &Move, f: &mut Form) {
    let ratings: Vec<String> = t
        .rules
        .difficulties
        .iter()
        .map(|(n, _)| n.clone())
        .collect();
    match m {
        Move::Act {
            actor,
            skill,
            difficulty,
            position,
            boosts,
        } => {
            f.actor("actor", "Who", *actor);
            skill_or_unskilled(t, f, *actor, skill);
            f.pick("difficulty", "Difficulty", &ratings, difficulty);
            f.value(
                "position",
                "Position",
                vec![
                    ("neutral".into(), Position::Neutral),
                    ("advantage".into(), Position::Advantage),
                    ("disadvantage".into(), Position::Disadvantage),
                ],
                position,
            );
            f.dice(
                "boosts",
                "Boost dice",
                &[4, 6, 8, 10, 12],
                boosts,
                MOST_BOOSTS,
            );
        }
        Move::Help {
            helper,
            helped,
            skill,
            difficulty,
        } => {
            f.actor("helper", "Helper", *helper);
            f.character("helped", "Helps", *helped);
            skill_or_unskilled(t, f, *helper, skill);
            let mut options: Vec<(String, Option<String>)> = Vec::new();
            for (i, rating) in ratings.iter().enumerate() {
                // The first rating is the rules' own (None); a harder one is the director's.
                options.push((rating.clone(), (i > 0).then(|| rating.clone())));
            }
            f.value("difficulty", "Director's difficulty", options, difficulty);
        }
        Move::QuickRoll {
            actor,
            skill,
            difficulty,
        } => {
            f.actor("actor", "Who", *actor);
            skill_or_unskilled(t, f, *actor, skill);
            f.pick("difficulty", "Difficulty", &ratings, difficulty);
        }
        Move::Easy { actor } => {
            f.actor("actor", "Who", *actor);
            f.note("The director judges it easy, with no risk of failure: no roll.");
        }
        Move::EndTurn => f.note(t.describe(m)),
    }
}

impl Catalogue for Table {
    fn default_move(&self) -> Move {
        act(self, self.active)
    }

    fn kinds(&self, actor: usize) -> Vec<MoveKind<Move>> {
        kinds(self, actor)
    }

    fn form(&self, m: &Move, fields: &mut Form) {
        form(self, m, fields)
    }
}
