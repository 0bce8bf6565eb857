//! Moves at a scene's table: what a player chose for a character (or a throw of the table's
//! own, such as initiative), made into dice to throw, read into an outcome and applied to the
//! turn economy. Plain Rust: the window, the `session` runner and the tests play the same way.
//!
//! Each ruleset keeps its moves, verdicts, plans, resolution and turn economy in its own
//! module (`<ruleset>/seat.rs`) behind the [`Seat`] trait; [`TableState`] and [`Move`] only
//! pair a table with a move of the same ruleset and dispatch. A move goes `allowed` -> `plan`
//! (the first throw) -> `resolve` with every throw so far (which may ask for more dice:
//! open-ended sixes, friction, a tied initiative, the next roll of a multi-roll action) ->
//! `apply`.

use crate::rules::Refusal;
use crate::rules::refusal::refuse;
use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::TableState;
use super::bounds::{self, Bounded};
use super::{ClassId, Odds, Outcome, RollPlan, RulesError, RulesetId, Step};

pub use super::Move;

/// One character's line in the turn tracker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TrackerRow {
    /// The character.
    pub name: String,
    /// Whether it is this character's turn (or shot, or side).
    pub acting: bool,
    /// What it has left, in the ruleset's words.
    pub status: Vec<String>,
}

/// Who may make a move. The game master makes every move; the rules give some to a
/// character's player as well (an action, a defence), and keep the rest (a call for a roll,
/// damage, a resource changed by hand, the end of a round) to the game master.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MadeBy {
    /// The player of this character, and the game master.
    PlayerOf(usize),
    /// The game master alone.
    Gamemaster,
}

impl MadeBy {
    /// The rights that follow from a move's character alone: its player's (and the game
    /// master's) where it has one, the game master's where it is the table's own move.
    pub fn of_actor(actor: Option<usize>) -> MadeBy {
        actor.map_or(MadeBy::Gamemaster, MadeBy::PlayerOf)
    }
}

/// A ruleset's table: its moves and its turn economy. One implementation per ruleset, in that
/// ruleset's own module; the rest of the program reaches it through [`TableState`].
pub trait Seat: Clone + Debug + PartialEq + super::digest::Digest {
    /// Everything a player (or the game master) can do at this ruleset's table.
    type Move: Clone + Debug + PartialEq + Serialize + DeserializeOwned;

    /// The characters' names, in seat order.
    fn names(&self) -> Vec<&str>;
    /// The round (0 before the first initiative, where the rules roll one).
    fn round(&self) -> u32;
    /// What the tracker's heading says: whose turn, the shot, the side, the declaration order.
    fn heading(&self) -> String;
    /// One row per character, in seat order.
    fn tracker(&self) -> Vec<TrackerRow>;
    /// Table-wide lines under the tracker (resolution order, tasks, the last check).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// The character a move is made for (None: the table's own move).
    fn actor(&self, m: &Self::Move) -> Option<usize>;
    /// Who may make the move: by default the player of its character ([`Seat::actor`]), and the
    /// game master alone for the table's own moves. A ruleset whose rules give the game master
    /// a move made for a character (a call for a roll, a resource changed by hand) says so here.
    fn made_by(&self, m: &Self::Move) -> MadeBy {
        MadeBy::of_actor(self.actor(m))
    }
    /// The game played, by its own name and its paragraph on how it resolves things, where the
    /// table's rules name a game of their own (a system file's); None where the ruleset's id
    /// names it.
    fn game(&self) -> Option<(&str, &str)> {
        None
    }
    /// Every number the move gives, with the range the rules accept for it (checked before
    /// anything else; see [`super::bounds`]).
    fn numbers(&self, m: &Self::Move) -> Vec<Bounded>;
    /// Whether the move may be made now, and if not, why (in the rules' words).
    fn allowed(&self, m: &Self::Move) -> Result<(), Refusal>;
    /// The first throw of an allowed move (no dice for a move without a roll).
    fn plan(&self, m: &Self::Move) -> Result<RollPlan, Refusal>;
    /// The exact odds of a move before it is thrown (None for a move that throws nothing).
    fn odds(&self, m: &Self::Move) -> Result<Option<Odds>, Refusal>;
    /// Reads every throw of the move so far: its outcome, or more dice to throw.
    fn resolve(&self, m: &Self::Move, throws: &[Vec<u32>]) -> Result<Step, Refusal>;
    /// Applies a resolved move to the turn economy; says what changed, one line each.
    fn apply_move(
        &mut self,
        m: &Self::Move,
        throws: &[Vec<u32>],
        outcome: &Outcome,
    ) -> Result<Vec<String>, Refusal>;
    /// The move that ends the turn or round, where the table has one.
    fn end_turn_move(&self) -> Option<Self::Move> {
        None
    }
    /// What the button of [`Seat::end_turn_move`] says.
    fn end_turn_label(&self) -> &'static str {
        "End turn"
    }
    /// The move in words, for the outcome panel and the history.
    fn describe(&self, m: &Self::Move) -> String;
    /// Where an outcome falls on the axis of the move's odds chart (None where the chart is
    /// of something else).
    fn charted_value(&self, _m: &Self::Move, outcome: &Outcome) -> Option<i64> {
        Some(outcome.total)
    }
}

impl Move {
    /// The ruleset the move belongs to.
    pub fn ruleset(&self) -> RulesetId {
        each_of!(Move, self, |_m, R, id| id)
    }
}

impl TableState {
    /// The characters' names, in seat order.
    pub fn names(&self) -> Vec<&str> {
        each_table!(self, |t, _wrap| t.names())
    }

    /// The round (0 before the first initiative, where the rules roll one).
    pub fn round(&self) -> u32 {
        each_table!(self, |t, _wrap| t.round())
    }

    /// What the tracker's heading says.
    pub fn heading(&self) -> String {
        worded(each_table!(self, |t, _wrap| t.heading()))
    }

    /// A game played from a system file, by its own name and paragraph ("Moves: 2d6 + stat",
    /// how it resolves things), for a page to say what is played; None for a shipped ruleset,
    /// which its id names.
    pub fn game(&self) -> Option<(&str, &str)> {
        each_table!(self, |t, _wrap| t.game())
    }

    /// One row per character, in seat order.
    pub fn tracker(&self) -> Vec<TrackerRow> {
        let mut rows = each_table!(self, |t, _wrap| t.tracker());
        for row in &mut rows {
            row.status = all_worded(std::mem::take(&mut row.status));
        }
        rows
    }

    /// Table-wide lines under the tracker.
    pub fn notes(&self) -> Vec<String> {
        all_worded(each_table!(self, |t, _wrap| t.notes()))
    }

    /// The table's turn economy as JSON (what changes during play; the cast and rules are in
    /// the scene and rule files), as each ruleset's digest writes it field by field: what a
    /// room's log hashes after every entry ([`super::digest`]).
    pub fn state_json(&self) -> serde_json::Value {
        each_table!(self, |t, _wrap| super::digest::Digest::digest(&**t))
    }

    /// The character a move is made for (None: the table's own move or another ruleset's).
    pub fn actor_of(&self, m: &Move) -> Option<usize> {
        paired!(self, m, |t, mv, _R| Ok(t.actor(mv))).unwrap_or(None)
    }

    /// Who may make a move (the game master's alone for another ruleset's).
    pub fn made_by(&self, m: &Move) -> MadeBy {
        paired!(self, m, |t, mv, _R| Ok(t.made_by(mv))).unwrap_or(MadeBy::Gamemaster)
    }

    /// Whether every number the move gives is within its range.
    fn in_range(&self, m: &Move) -> Result<(), RulesError> {
        paired!(self, m, |t, mv, _R| Ok(bounds::check(t.numbers(mv))?))
    }

    /// Whether the move may be made now, and if not, why.
    pub fn allowed(&self, m: &Move) -> Result<(), RulesError> {
        self.in_range(m)?;
        paired!(self, m, |t, mv, _R| t.allowed(mv).map_err(RulesError::from))
    }

    /// The first throw of a move (no dice for a move without a roll).
    pub fn plan(&self, m: &Move) -> Result<RollPlan, RulesError> {
        self.allowed(m)?;
        let plan = paired!(self, m, |t, mv, _R| t.plan(mv).map_err(RulesError::from))?;
        fits_the_tray(plan_worded(plan))
    }

    /// The exact odds of a move before it is thrown (None for a move that throws nothing).
    /// A move whose throw would not fit the tray has none: it is refused.
    pub fn odds(&self, m: &Move) -> Result<Option<Odds>, RulesError> {
        self.in_range(m)?;
        paired!(self, m, |t, mv, _R| {
            if let Ok(plan) = t.plan(mv) {
                fits_the_tray(plan)?;
            }
            t.odds(mv).map_err(RulesError::from)
        })
    }

    /// Reads every throw of the move so far: its outcome, or more dice to throw.
    pub fn resolve(&self, m: &Move, throws: &[Vec<u32>]) -> Result<Step, RulesError> {
        self.in_range(m)?;
        match paired!(self, m, |t, mv, _R| t
            .resolve(mv, throws)
            .map_err(RulesError::from))?
        {
            Step::ThrowMore(plan) => Ok(Step::ThrowMore(fits_the_tray(plan_worded(plan))?)),
            Step::Done(mut outcome) => {
                outcome.class = class_worded(outcome.class);
                outcome.lines = all_worded(outcome.lines);
                outcome.tags = all_worded(outcome.tags);
                Ok(Step::Done(outcome))
            }
        }
    }

    /// Applies a resolved move to the turn economy; says what changed, one line each.
    pub fn apply(
        &mut self,
        m: &Move,
        throws: &[Vec<u32>],
        outcome: &Outcome,
    ) -> Result<Vec<String>, RulesError> {
        paired!(self, m, |t, mv, _R| t
            .apply_move(mv, throws, outcome)
            .map_err(RulesError::from))
        .map(all_worded)
    }

    /// The move that ends the turn or round, where the table has one.
    pub fn end_turn_move(&self) -> Option<Move> {
        each_table!(self, |t, wrap| t.end_turn_move().map(wrap))
    }

    /// What the button of [`TableState::end_turn_move`] says ("End turn", "End round").
    pub fn end_turn_label(&self) -> &'static str {
        each_table!(self, |t, _wrap| t.end_turn_label())
    }

    /// The move in words.
    pub fn describe(&self, m: &Move) -> String {
        worded(paired!(self, m, |t, mv, _R| Ok(t.describe(mv))).unwrap_or_else(|e| e.to_string()))
    }

    /// Where an outcome falls on the axis of the move's odds chart.
    pub fn charted_value(&self, m: &Move, outcome: &Outcome) -> Option<i64> {
        paired!(self, m, |t, mv, _R| Ok(t.charted_value(mv, outcome))).unwrap_or(None)
    }
}

/// What a test has reworded: nothing, the rules' sentences, or those and the outcome classes'
/// words too.
#[cfg(test)]
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Rewording {
    None,
    Sentences,
    AndClasses,
}

#[cfg(test)]
thread_local! {
    static REWORDED: std::cell::Cell<Rewording> = const { std::cell::Cell::new(Rewording::None) };
}

#[cfg(test)]
fn rewording<T>(how: Rewording, f: impl FnOnce() -> T) -> T {
    REWORDED.with(|r| r.set(how));
    let out = f();
    REWORDED.with(|r| r.set(Rewording::None));
    out
}

/// Runs `f` with every sentence the rules give reworded (a test-only wording: each in `«»`):
/// the tracker's heading, rows and notes, what a move changed, an outcome's lines and tags, a
/// plan's purpose, a move in words. What only a program reads (an outcome's class, total and
/// facts, the typed state) stays; a stored log of format 2 or later must verify all the same.
#[cfg(test)]
pub(crate) fn reworded<T>(f: impl FnOnce() -> T) -> T {
    rewording(Rewording::Sentences, f)
}

/// [`reworded`], and every outcome class's words too: a log of format 3 compares a class by its
/// id, and must verify all the same (formats 1 and 2 compare its words, kept as they were).
#[cfg(test)]
pub(crate) fn reworded_with_classes<T>(f: impl FnOnce() -> T) -> T {
    rewording(Rewording::AndClasses, f)
}

/// A sentence of the rules as this build words it (reworded under [`reworded`] in tests).
fn worded(sentence: String) -> String {
    #[cfg(test)]
    if REWORDED.with(std::cell::Cell::get) >= Rewording::Sentences {
        return format!("«{sentence}»");
    }
    sentence
}

/// An outcome class's words as this build words them (reworded under
/// [`reworded_with_classes`] in tests).
fn class_worded(class: String) -> String {
    #[cfg(test)]
    if REWORDED.with(std::cell::Cell::get) == Rewording::AndClasses {
        return format!("«{class}»");
    }
    class
}

fn all_worded(sentences: Vec<String>) -> Vec<String> {
    sentences.into_iter().map(worded).collect()
}

fn plan_worded(mut plan: RollPlan) -> RollPlan {
    plan.purpose = worded(plan.purpose);
    plan
}

/// A plan whose throw the tray can take ([`crate::dice::MOST_IN_A_THROW`] physical dice at
/// most, a d100 counted as the two it is), refused before any odds are worked out.
fn fits_the_tray(plan: RollPlan) -> Result<RollPlan, RulesError> {
    let physical = crate::dice::physical_count(plan.dice.iter().map(|d| d.sides));
    crate::dice::fits_a_throw(physical).map_err(|dice| RulesError::TooManyDice { dice })?;
    Ok(plan)
}

/// An outcome for a move that throws nothing: its class (its id and its words) and one line.
pub fn no_roll(id: &'static str, class: &str, line: String) -> Step {
    Step::Done(Outcome {
        total: 0,
        success: None,
        class: class.to_string(),
        class_id: ClassId::new(id),
        lines: vec![line],
        tags: vec![],
        facts: Vec::new(),
    })
}

/// A character's name by seat, for messages ("nobody" past the end).
pub fn name_at(names: &[&str], i: usize) -> String {
    names.get(i).copied().unwrap_or("nobody").to_string()
}

/// The faces of a roll of one throw: refused (as faces that do not fit) when there are more
/// or none.
pub fn single(throws: &[Vec<u32>]) -> Result<&[u32], Refusal> {
    match throws {
        [one] => Ok(one),
        _ => Err(refuse!(
            Faces,
            "{} throws for a roll of one throw",
            throws.len()
        )),
    }
}

/// Checks a seat index against the table.
pub fn seat_of(names: &[&str], i: usize) -> Result<usize, Refusal> {
    if i < names.len() {
        Ok(i)
    } else {
        Err(refuse!(
            Unknown,
            "there is no character {i} at this table (seats 0 to {})",
            names.len().saturating_sub(1)
        ))
    }
}

/// Resolves a sequence of independent rolls thrown one after the other (a Combination Action,
/// each participant of a team action, every member of a group check): `resolve_one(k, throws)`
/// reads roll `k` from its own throws. Returns the finished outcomes, or the next plan to throw.
pub fn resolve_sequence(
    rolls: usize,
    throws: &[Vec<u32>],
    mut first_plan: impl FnMut(usize) -> Result<RollPlan, Refusal>,
    mut resolve_one: impl FnMut(usize, &[Vec<u32>]) -> Result<Step, Refusal>,
) -> Result<Result<Vec<Outcome>, RollPlan>, Refusal> {
    let mut outcomes = Vec::new();
    let mut start = 0;
    for k in 0..rolls {
        if start >= throws.len() {
            return Ok(Err(first_plan(k)?));
        }
        let mut done = None;
        for end in start + 1..=throws.len() {
            match resolve_one(k, &throws[start..end])? {
                Step::Done(o) => {
                    done = Some((o, end));
                    break;
                }
                Step::ThrowMore(plan) if end == throws.len() => return Ok(Err(plan)),
                Step::ThrowMore(_) => {}
            }
        }
        let (o, end) =
            done.ok_or_else(|| refuse!(Faces, "a roll of the sequence did not finish"))?;
        outcomes.push(o);
        start = end;
    }
    if start != throws.len() {
        return Err(refuse!(
            Faces,
            "{} throws for {rolls} rolls: {} too many",
            throws.len(),
            throws.len() - start
        ));
    }
    Ok(Ok(outcomes))
}
