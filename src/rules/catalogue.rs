//! A seat's moves as data, for a client that has no rules of its own (the room's web page).
//!
//! The rules list the kinds of move a seat can make, each with the move it starts from, and for
//! a drafted move its fields with the choices the table offers now (the actor's skills, the
//! difficulty table, the characters to aim at). The client renders the fields, puts each chosen
//! value at its path in the move's JSON and sends the move back; the rules, never the client,
//! then say whether it is allowed, and the next form follows the new choices (another actor's
//! skills, a DC's number once "DC" is chosen). Each ruleset writes its kinds and forms once, in
//! its own `form.rs`.

use std::borrow::Cow;
use std::mem::discriminant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Die;
use super::TableState;
use super::play::{Move, Seat};

/// A ruleset's moves as data, written once in its `form.rs` (its table's [`Seat`] knows
/// nothing of forms): the move to start from, the kinds of move, and a draft's fields.
pub trait Catalogue: Seat {
    /// A move to start with: the acting character's first option (or initiative).
    fn default_move(&self) -> Self::Move;
    /// Every kind of move at this table, each starting from a move for `actor` where it has
    /// one (the move catalogue a page renders).
    fn kinds(&self, actor: usize) -> Vec<MoveKind<Self::Move>>;
    /// The fields of a drafted move, with the choices the table offers now.
    fn form(&self, m: &Self::Move, form: &mut Form);
}

/// A kind of move a seat can make ("Action", "Teamwork", "End turn"), with the move a draft of
/// that kind starts from.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveKind<M> {
    /// What the kind is called (a ruleset's own words, or a system file's).
    pub label: Cow<'static, str>,
    /// One line on what it does.
    pub hint: Cow<'static, str>,
    /// The move a draft of this kind starts from.
    pub template: M,
}

/// One choice of a field: how it reads, and the value it puts in the move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Choice {
    /// How it reads.
    pub label: String,
    /// The JSON it puts at the field's path.
    pub value: Value,
}

/// How a field is edited.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "input", rename_all = "snake_case")]
pub enum Input {
    /// One of a list.
    Choice {
        /// The choices.
        options: Vec<Choice>,
        /// The one the move has (None: a value the list does not offer).
        selected: Option<usize>,
    },
    /// A whole number in a range; an optional one may be left empty (JSON `null`).
    Number {
        /// The move's number.
        value: Option<i64>,
        /// The least allowed.
        min: i64,
        /// The most allowed.
        max: i64,
        /// Whether it may be left empty.
        optional: bool,
    },
    /// Yes or no.
    Flag {
        /// The move's answer.
        value: bool,
    },
    /// Several of a list, each up to `max` times: the value is the list of the chosen values,
    /// each repeated as often as it was chosen.
    Tally {
        /// The choices.
        options: Vec<Choice>,
        /// How often the move has each.
        counts: Vec<u32>,
        /// The most of each.
        max: u32,
    },
    /// Free words, comma-separated: the value is the list of them.
    Words {
        /// The move's words.
        value: Vec<String>,
        /// An example.
        hint: String,
    },
    /// A line to read beside the fields (the actor's load, the opponent's difficulty).
    Note {
        /// The line.
        text: String,
    },
}

/// One field of a drafted move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Field {
    /// Where the value goes in the move's JSON, from the top (`["StepDice", "Act", "skill"]`).
    pub path: Vec<String>,
    /// What the field is called; also its accessible name on a page.
    pub label: String,
    /// How it is edited.
    #[serde(flatten)]
    pub input: Input,
}

/// A kind of move as a client sees it: its name, its starting move and whether the seat may
/// make it now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct KindView {
    /// What the kind is called.
    pub label: String,
    /// One line on what it does.
    pub hint: String,
    /// The move a draft of this kind starts from.
    pub template: Move,
    /// Why the seat may not make it now (None: it may).
    pub refused: Option<String>,
}

/// Builds the fields of a drafted move. The ruleset's `form` adds fields by paths inside the
/// move's own body ("skill", "target.Dc", "check.difficulty.Against"); the builder puts the
/// ruleset's and the move's tags in front.
pub struct Form {
    names: Vec<String>,
    seats: Vec<usize>,
    prefix: Vec<String>,
    fields: Vec<Field>,
}

impl Form {
    /// A form for a seat playing `seats` of the characters `names` (all of them for the game
    /// master); `prefix` is the path of the move's body in its JSON.
    fn new(names: Vec<String>, seats: Vec<usize>, prefix: Vec<String>) -> Form {
        Form {
            names,
            seats,
            prefix,
            fields: Vec::new(),
        }
    }

    fn push(&mut self, path: &str, label: &str, input: Input) {
        let mut full = self.prefix.clone();
        full.extend(path.split('.').filter(|p| !p.is_empty()).map(String::from));
        self.fields.push(Field {
            path: full,
            label: label.to_string(),
            input,
        });
    }

    fn character_choices(&self, who: impl Iterator<Item = usize>) -> Vec<Choice> {
        who.map(|i| Choice {
            label: self
                .names
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("#{i}")),
            value: Value::from(i),
        })
        .collect()
    }

    /// The character who makes the move: one of the seat's own (and the move's, if another).
    pub fn actor(&mut self, path: &str, label: &str, current: usize) {
        let mut who = self.seats.clone();
        if !who.contains(&current) {
            who.push(current);
            who.sort_unstable();
        }
        let options = self.character_choices(who.iter().copied());
        let selected = who.iter().position(|&i| i == current);
        self.push(path, label, Input::Choice { options, selected });
    }

    /// Any character of the table (a defender, an opponent, the character helped).
    pub fn character(&mut self, path: &str, label: &str, current: usize) {
        let options = self.character_choices(0..self.names.len());
        let selected = (current < self.names.len()).then_some(current);
        self.push(path, label, Input::Choice { options, selected });
    }

    /// A character of the table other than `except`, or none (`none` names what none means:
    /// "every attacker", "nobody").
    pub fn optional_character(
        &mut self,
        path: &str,
        label: &str,
        none: &str,
        except: Option<usize>,
        current: Option<usize>,
    ) {
        let who: Vec<usize> = (0..self.names.len())
            .filter(|i| Some(*i) != except)
            .collect();
        let mut options = vec![Choice {
            label: none.to_string(),
            value: Value::Null,
        }];
        options.extend(self.character_choices(who.iter().copied()));
        let selected = match current {
            None => Some(0),
            Some(c) => who.iter().position(|&i| i == c).map(|p| p + 1),
        };
        self.push(path, label, Input::Choice { options, selected });
    }

    /// Several characters of the table (helpers, ambushers, a team).
    pub fn characters(&mut self, path: &str, label: &str, chosen: &[usize]) {
        let options = self.character_choices(0..self.names.len());
        let counts = (0..self.names.len())
            .map(|i| u32::from(chosen.contains(&i)))
            .collect();
        self.push(
            path,
            label,
            Input::Tally {
                options,
                counts,
                max: 1,
            },
        );
    }

    /// One of a list of names (a skill, an Aspect, a difficulty rating).
    pub fn pick(&mut self, path: &str, label: &str, options: &[String], current: &str) {
        let selected = options.iter().position(|o| o == current);
        let options = options
            .iter()
            .map(|o| Choice {
                label: o.clone(),
                value: Value::from(o.as_str()),
            })
            .collect();
        self.push(path, label, Input::Choice { options, selected });
    }

    /// One of a list of values, the move's found by equality (`None` for "none" and the like).
    pub fn value<T: Serialize + PartialEq>(
        &mut self,
        path: &str,
        label: &str,
        options: Vec<(String, T)>,
        current: &T,
    ) {
        let selected = options.iter().position(|(_, v)| v == current);
        let options = options
            .into_iter()
            .map(|(label, v)| Choice {
                label,
                value: serde_json::to_value(&v).unwrap_or(Value::Null),
            })
            .collect();
        self.push(path, label, Input::Choice { options, selected });
    }

    /// One of an enum's variants, each with a value to start from; the move's is found by its
    /// variant whatever it holds (a DC of 15 is the "DC" choice). The variant's own fields are
    /// added after it, by the ruleset.
    pub fn variant<T: Serialize>(
        &mut self,
        path: &str,
        label: &str,
        options: Vec<(&str, T)>,
        current: &T,
    ) {
        let selected = options
            .iter()
            .position(|(_, v)| discriminant(v) == discriminant(current));
        let options = options
            .into_iter()
            .map(|(label, v)| Choice {
                label: label.to_string(),
                value: serde_json::to_value(&v).unwrap_or(Value::Null),
            })
            .collect();
        self.push(path, label, Input::Choice { options, selected });
    }

    /// A whole number from `min` to `max`.
    pub fn number(&mut self, path: &str, label: &str, value: i64, min: i64, max: i64) {
        self.push(
            path,
            label,
            Input::Number {
                value: Some(value),
                min,
                max,
                optional: false,
            },
        );
    }

    /// A whole number that may be left empty.
    pub fn optional_number(
        &mut self,
        path: &str,
        label: &str,
        value: Option<i64>,
        min: i64,
        max: i64,
    ) {
        self.push(
            path,
            label,
            Input::Number {
                value,
                min,
                max,
                optional: true,
            },
        );
    }

    /// Yes or no.
    pub fn flag(&mut self, path: &str, label: &str, value: bool) {
        self.push(path, label, Input::Flag { value });
    }

    /// Dice of the given sizes, each up to `max` times (boost dice).
    pub fn dice(&mut self, path: &str, label: &str, sides: &[u32], chosen: &[Die], max: u32) {
        let options = sides
            .iter()
            .map(|&s| Choice {
                label: Die(s).to_string(),
                value: Value::from(Die(s).to_string()),
            })
            .collect();
        let counts = sides
            .iter()
            .map(|&s| chosen.iter().filter(|d| d.0 == s).count() as u32)
            .collect();
        self.push(
            path,
            label,
            Input::Tally {
                options,
                counts,
                max,
            },
        );
    }

    /// Free words, comma-separated (sources of Advantage).
    pub fn words(&mut self, path: &str, label: &str, value: &[String], hint: &str) {
        self.push(
            path,
            label,
            Input::Words {
                value: value.to_vec(),
                hint: hint.to_string(),
            },
        );
    }

    /// A line to read beside the fields.
    pub fn note(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.fields.push(Field {
            path: Vec::new(),
            label: text.clone(),
            input: Input::Note { text },
        });
    }
}

/// The tags in front of a move's body in its JSON (`["StepDice", "Act"]`), and the move's
/// variant (`"Act"`, or `"EndTurn"` for a move with no fields).
fn tags(m: &Move) -> (Vec<String>, String) {
    let json = serde_json::to_value(m).unwrap_or(Value::Null);
    let Value::Object(outer) = json else {
        return (Vec::new(), String::new());
    };
    let Some((ruleset, inner)) = outer.into_iter().next() else {
        return (Vec::new(), String::new());
    };
    match inner {
        Value::String(unit) => (vec![ruleset], unit),
        Value::Object(body) => match body.into_iter().next() {
            Some((variant, _)) => (vec![ruleset, variant.clone()], variant),
            None => (vec![ruleset], String::new()),
        },
        _ => (vec![ruleset], String::new()),
    }
}

/// Whether two moves are of the same kind (both actions, both ends of turn).
pub fn same_kind(a: &Move, b: &Move) -> bool {
    a.ruleset() == b.ruleset() && tags(a).1 == tags(b).1
}

impl TableState {
    /// The character a seat playing `seats` acts for by default: the one whose turn it is, if
    /// the seat plays it, else the seat's first (the game master plays every seat).
    pub fn preferred_actor(&self, seats: &[usize]) -> usize {
        let acting: Vec<usize> = self
            .tracker()
            .iter()
            .enumerate()
            .filter(|(_, row)| row.acting)
            .map(|(i, _)| i)
            .collect();
        acting
            .iter()
            .copied()
            .find(|i| seats.contains(i))
            .or(seats.first().copied())
            .or(acting.first().copied())
            .unwrap_or(0)
    }

    /// A move to start with: the acting character's first option (or initiative).
    pub fn default_move(&self) -> Move {
        each_table!(self, |t, wrap| wrap(t.default_move()))
    }

    /// Every kind of move of the table's ruleset, each starting from a move for the seat's
    /// preferred actor.
    pub fn kinds(&self, seats: &[usize]) -> Vec<MoveKind<Move>> {
        let actor = self.preferred_actor(seats);
        fn wrap<M>(kinds: Vec<MoveKind<M>>, f: impl Fn(M) -> Move) -> Vec<MoveKind<Move>> {
            kinds
                .into_iter()
                .map(|k| MoveKind {
                    label: k.label,
                    hint: k.hint,
                    template: f(k.template),
                })
                .collect()
        }
        each_table!(self, |t, as_move| wrap(t.kinds(actor), as_move))
    }

    /// The fields of a drafted move for a seat playing `seats`, with the choices the table
    /// offers now (empty for a move of another ruleset, which the rules refuse anyway).
    pub fn form(&self, m: &Move, seats: &[usize]) -> Vec<Field> {
        let names = self.names().iter().map(|n| n.to_string()).collect();
        let mut form = Form::new(names, seats.to_vec(), tags(m).0);
        // A move of another ruleset has no fields: the rules refuse it anyway.
        let _ = paired!(self, m, |t, mv, _R| {
            t.form(mv, &mut form);
            Ok(())
        });
        form.fields
    }
}

/// Puts `value` at `path` in a move's JSON, making objects on the way; a number in the path
/// is a place in a list (a tuple variant's `["Named", "0"]`). It is what a client does with a
/// field's choice; the tests build moves this way, as the page does.
pub fn set_path(json: &mut Value, path: &[String], value: Value) {
    let Some((first, rest)) = path.split_first() else {
        *json = value;
        return;
    };
    if let (Value::Array(list), Ok(i)) = (&mut *json, first.parse::<usize>())
        && let Some(slot) = list.get_mut(i)
    {
        set_path(slot, rest, value);
        return;
    }
    if !json.is_object() {
        *json = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(map) = json {
        set_path(map.entry(first.clone()).or_insert(Value::Null), rest, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::table;

    const SCENES: [&str; 5] = [
        "d4-pool-goblin-ambush.ron",
        "action-dice-knight-and-magician.ron",
        "step-dice-vault.ron",
        "open-d6-fred-and-peter.ron",
        "d20-check-crypt.ron",
    ];

    /// The move a client builds from `start` by putting each field's value at its path.
    fn build(start: &Move, fields: &[Field], change: Option<(&str, Value)>) -> Move {
        let mut json = serde_json::to_value(start).unwrap_or_else(|e| panic!("{e}"));
        for field in fields {
            let value = match &field.input {
                Input::Choice { options, selected } => match selected {
                    Some(i) => options[*i].value.clone(),
                    None => continue,
                },
                Input::Number { value, .. } => serde_json::json!(value),
                Input::Flag { value } => Value::Bool(*value),
                Input::Tally {
                    options, counts, ..
                } => Value::Array(
                    options
                        .iter()
                        .zip(counts)
                        .flat_map(|(o, &n)| std::iter::repeat_n(o.value.clone(), n as usize))
                        .collect(),
                ),
                Input::Words { value, .. } => serde_json::json!(value),
                Input::Note { .. } => continue,
            };
            set_path(&mut json, &field.path, value);
        }
        if let Some((label, value)) = change {
            let field = fields
                .iter()
                .find(|f| f.label == label)
                .unwrap_or_else(|| panic!("no field {label:?} in {fields:?}"));
            set_path(&mut json, &field.path, value);
        }
        serde_json::from_value(json).unwrap_or_else(|e| panic!("{e}"))
    }

    fn choice(fields: &[Field], label: &str, option: &str) -> Value {
        fields
            .iter()
            .find(|f| f.label == label)
            .and_then(|f| match &f.input {
                Input::Choice { options, .. } => options.iter().find(|o| o.label == option),
                _ => None,
            })
            .map(|o| o.value.clone())
            .unwrap_or_else(|| panic!("no choice {option:?} of {label:?} in {fields:?}"))
    }

    #[test]
    fn every_form_builds_back_the_move_it_describes_and_every_choice_builds_a_move() {
        for file in SCENES {
            let t = table(file);
            let everyone: Vec<usize> = (0..t.names().len()).collect();
            let kinds = t.kinds(&everyone);
            assert!(kinds.len() >= 3, "{file}: {} kinds", kinds.len());
            for kind in kinds {
                let fields = t.form(&kind.template, &everyone);
                assert_eq!(
                    build(&kind.template, &fields, None),
                    kind.template,
                    "{file} {}",
                    kind.label
                );
                for field in &fields {
                    if let Input::Choice { options, selected } = &field.input {
                        assert!(selected.is_some(), "{file} {}: {field:?}", kind.label);
                        for o in options {
                            let m = build(
                                &kind.template,
                                &fields,
                                Some((&field.label, o.value.clone())),
                            );
                            // The rules read every move a form can build: their verdict is a
                            // yes or a reason, never a failure to understand the move.
                            let _ = t.allowed(&m);
                            let again = t.form(&m, &everyone);
                            assert!(!again.is_empty() || fields.is_empty(), "{file}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_form_follows_its_choices_and_a_seat_acts_for_its_own_characters() {
        let t = table("d4-pool-goblin-ambush.ron");
        let names = t.names().iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let goblin = names.len() - 1;
        // A player of the second character: its own first, whoever's turn it is.
        let kinds = t.kinds(&[1]);
        assert_eq!(
            kinds.iter().map(|k| k.label.as_ref()).collect::<Vec<_>>(),
            ["Action", "GM calls a roll", "Team action", "End turn"]
        );
        assert_eq!(t.actor_of(&kinds[0].template), Some(1));
        let fields = t.form(&kinds[0].template, &[1]);
        let who = &fields[0];
        assert_eq!(who.label, "Who");
        assert_eq!(who.path, ["D4Pool", "Act", "actor"]);
        assert_eq!(
            who.input,
            Input::Choice {
                options: vec![Choice {
                    label: names[1].clone(),
                    value: Value::from(1)
                }],
                selected: Some(0)
            }
        );
        // Choosing "DC" brings its number; a DC of 15 is still the "DC" choice.
        let dc = build(
            &kinds[0].template,
            &fields,
            Some(("Target", choice(&fields, "Target", "DC"))),
        );
        let fields = t.form(&dc, &[1]);
        let dc15 = build(&dc, &fields, Some(("DC", Value::from(15))));
        let fields = t.form(&dc15, &[1]);
        let target = fields.iter().find(|f| f.label == "Target");
        assert!(
            matches!(
                target.map(|f| &f.input),
                Some(Input::Choice {
                    selected: Some(1),
                    ..
                })
            ),
            "{fields:?}"
        );
        assert!(
            fields
                .iter()
                .any(|f| f.path == ["D4Pool", "Act", "target", "Dc"]
                    && f.input
                        == Input::Number {
                            value: Some(15),
                            min: 1,
                            max: 60,
                            optional: false
                        })
        );
        assert!(!fields.iter().any(|f| f.label == "Defender"), "{goblin}");
    }

    #[test]
    fn a_tuple_variant_and_an_actor_change_are_followed() {
        let t = table("d20-check-crypt.ron");
        let everyone: Vec<usize> = (0..t.names().len()).collect();
        let check = t.kinds(&everyone).remove(0).template;
        let fields = t.form(&check, &everyone);
        let rows = fields
            .iter()
            .find(|f| f.label == "Difficulty")
            .unwrap_or_else(|| panic!("{fields:?}"));
        assert_eq!(rows.path, ["D20Check", "Check", "dc", "Named", "0"]);
        let Input::Choice { options, .. } = &rows.input else {
            panic!("{rows:?}")
        };
        let last = options[options.len() - 1].value.clone();
        let harder = build(&check, &fields, Some(("Difficulty", last.clone())));
        let json = serde_json::to_value(&harder).unwrap_or_default();
        assert_eq!(json["D20Check"]["Check"]["dc"]["Named"][0], last);
        assert_eq!(json["D20Check"]["Check"]["dc"]["Named"][1], 0);

        // step-dice: another helper brings its own skill sets.
        let t = table("step-dice-vault.ron");
        let everyone: Vec<usize> = (0..t.names().len()).collect();
        let help = t.kinds(&everyone).remove(1).template;
        let fields = t.form(&help, &everyone);
        let other = build(&help, &fields, Some(("Helper", Value::from(1))));
        let skills = |m: &Move| -> Vec<String> {
            t.form(m, &everyone)
                .into_iter()
                .find(|f| f.label == "Skill set")
                .map(|f| match f.input {
                    Input::Choice { options, .. } => options.into_iter().map(|o| o.label).collect(),
                    _ => vec![],
                })
                .unwrap_or_default()
        };
        let TableState::StepDice(st) = &t else {
            panic!("not step-dice")
        };
        let own = |i: usize| -> Vec<String> {
            std::iter::once("unskilled".to_string())
                .chain(st.characters[i].skills.iter().map(|(n, _)| n.clone()))
                .collect()
        };
        assert_eq!(skills(&help), own(0));
        assert_eq!(skills(&other), own(1));
        assert_ne!(own(0), own(1));
    }

    #[test]
    fn a_move_of_more_dice_than_a_tray_holds_is_refused_before_any_is_planned() {
        let t = table("action-dice-knight-and-magician.ron");
        let everyone: Vec<usize> = (0..t.names().len()).collect();
        let act = t.kinds(&everyone).remove(0).template;
        let fields = t.form(&act, &everyone);
        let many = build(
            &act,
            &fields,
            Some(("Extra dice", Value::from(4_000_000_000u32))),
        );
        assert_eq!(
            t.allowed(&many).map_err(|e| e.to_string()),
            Err("extra is 4000000000: it must be from 0 to 30".into())
        );
    }
}
