//! A move at a scene's table, from the rules' verdict to its outcome: the first plan, each
//! throw's faces checked against the plan that asked for it, follow-up plans (open-ended sixes,
//! friction, a tied initiative, the next roll of a multi-roll action), the throw cap, and the
//! outcome applied to the turn economy.

use super::{MAX_THROWS, RollError, ThrowOrder, tint_of};
use crate::dice::looks::Tint;
use crate::record::{Cocked, Gesture, RollDice, RollInputs, RollRecord, ThrowRecord, Thrown};
use crate::rules::play::Move;
use crate::rules::table::TableState;
use crate::rules::{Outcome, RollPlan, RulesError, Step};

/// A move being rolled: the table it resolves against, the plan waiting for its throw, the
/// faces read so far, and the outcome once the rules have one.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRoll {
    /// The table as it was before the move.
    table: TableState,
    mv: Move,
    /// The move's seed (each throw's derives from it).
    seed: u64,
    /// The plan of the throw asked for now (None once the outcome is in).
    waiting: Option<RollPlan>,
    /// The plan of each throw made.
    thrown: Vec<RollPlan>,
    /// The rules' faces of each throw made.
    faces: Vec<Vec<u32>>,
    outcome: Option<Outcome>,
}

impl MoveRoll {
    /// Starts a move at `table` with `seed`: the rules' verdict, then its first plan (a move
    /// that throws nothing is resolved at once).
    pub fn start(table: &TableState, mv: &Move, seed: u64) -> Result<MoveRoll, RollError> {
        let plan = table.plan(mv)?;
        let mut roll = MoveRoll {
            table: table.clone(),
            mv: mv.clone(),
            seed,
            waiting: Some(plan),
            thrown: Vec::new(),
            faces: Vec::new(),
            outcome: None,
        };
        roll.settle_empty_plans()?;
        Ok(roll)
    }

    /// Resolves while the plan waiting throws no dice (a move without a roll, a follow-up
    /// with nothing to throw); stops at a plan with dice or the outcome.
    fn settle_empty_plans(&mut self) -> Result<(), RollError> {
        // Each round without dice is a step of the rules; as many as throws are allowed.
        for _ in 0..=MAX_THROWS {
            match &self.waiting {
                Some(plan) if plan.dice.is_empty() => self.resolve()?,
                Some(_) if self.faces.len() >= MAX_THROWS as usize => {
                    return Err(RollError::TooManyThrows);
                }
                _ => return Ok(()),
            }
        }
        Err(RollError::TooManyThrows)
    }

    /// Reads the throws so far: the outcome, or the next plan.
    fn resolve(&mut self) -> Result<(), RollError> {
        match self.table.resolve(&self.mv, &self.faces)? {
            Step::Done(outcome) => {
                self.waiting = None;
                self.outcome = Some(outcome);
            }
            Step::ThrowMore(plan) => self.waiting = Some(plan),
        }
        Ok(())
    }

    /// The throw the move asks for now (None once it is resolved, or when a die of its plan
    /// has no physical die: [`MoveRoll::next_order`] says so).
    pub fn order(&self) -> Option<ThrowOrder> {
        self.next_order().ok()
    }

    /// The throw the move asks for now, or why it cannot be thrown (a die of the plan that no
    /// physical die makes; a move already resolved).
    pub fn next_order(&self) -> Result<ThrowOrder, RollError> {
        let plan = self.waiting.as_ref().ok_or(RollError::Over)?;
        let actor = self.table.actor_of(&self.mv);
        ThrowOrder::of_sides(
            self.faces.len() as u32,
            self.seed,
            plan.dice.iter().map(|d| d.sides).collect(),
            |i, _, _| match plan.dice[i].look {
                Some(look) => Tint::Game(look.drawn()),
                None => tint_of(plan.dice[i].role, actor),
            },
            plan.purpose.clone(),
        )
        .map(|o| o.marked(plan.dice.iter().map(|d| d.marks.clone()).collect()))
    }

    /// Feeds the rules' faces of the throw asked for (a script's given faces): checked against
    /// its plan, then read by the rules.
    pub fn feed_faces(&mut self, faces: Vec<u32>) -> Result<(), RollError> {
        let plan = self.waiting.as_ref().ok_or(RollError::Over)?;
        plan.fit(&faces)?;
        self.thrown.push(plan.clone());
        self.faces.push(faces);
        self.resolve()?;
        self.settle_empty_plans()
    }

    /// Feeds a physical throw: it must be the throw asked for (the same dice, its seed), and
    /// its faces must fit the plan.
    pub fn feed_throw(&mut self, throw: &ThrowRecord) -> Result<(), RollError> {
        let order = self.next_order()?;
        order.check_throw(throw)?;
        self.feed_faces(order.rules_faces(&throw.faces))
    }

    /// The outcome, once the rules have one.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// True once resolved.
    pub fn is_done(&self) -> bool {
        self.outcome.is_some()
    }

    /// The rules' faces of each throw made.
    pub fn faces(&self) -> &[Vec<u32>] {
        &self.faces
    }

    /// The purpose of each throw made.
    pub fn purposes(&self) -> Vec<String> {
        self.thrown.iter().map(|p| p.purpose.clone()).collect()
    }

    /// The plan of each throw made, then the plan waiting for its throw (if any): what the
    /// outcome panel lists, die by die.
    pub fn plans(&self) -> impl Iterator<Item = &RollPlan> {
        self.thrown.iter().chain(&self.waiting)
    }

    /// The move.
    pub fn mv(&self) -> &Move {
        &self.mv
    }

    /// The move's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The table the move resolves against (as it was before it).
    pub fn table(&self) -> &TableState {
        &self.table
    }

    /// The move in words.
    pub fn title(&self) -> String {
        self.table.describe(&self.mv)
    }

    /// The name of the character the move is made for.
    pub fn character(&self) -> Option<String> {
        let i = self.table.actor_of(&self.mv)?;
        self.table.names().get(i).map(|n| n.to_string())
    }

    /// Where the outcome falls on the axis of the move's odds chart.
    pub fn charted(&self) -> Option<i64> {
        self.table.charted_value(&self.mv, self.outcome.as_ref()?)
    }

    /// Applies the resolved move to `table` (the table now): what changed, one line each.
    pub fn apply_to(&self, table: &mut TableState) -> Result<Vec<String>, RollError> {
        let outcome = self.outcome.as_ref().ok_or_else(|| {
            RulesError::from(crate::rules::refusal::refuse!(
                Faces,
                "{} is not resolved: more dice are due",
                self.title()
            ))
        })?;
        Ok(table.apply(&self.mv, &self.faces, outcome)?)
    }

    /// The record of the resolved move: its ruleset, scene and title, every throw it took.
    pub fn record(
        &self,
        scene: &str,
        throws: Vec<ThrowRecord>,
        gesture: Option<Gesture>,
        cocked: Cocked,
    ) -> RollRecord {
        let inputs = RollInputs {
            dice: RollDice::Throws(throws.iter().map(|t| t.dice.clone()).collect()),
            seed: self.seed,
            gesture,
            cocked,
        };
        let title = self.title();
        let mut record = RollRecord::new(
            Thrown::Move {
                ruleset: self.table.ruleset().to_string(),
                scene: scene.to_string(),
                action: title.clone(),
            },
            &inputs,
            throws,
        );
        record.label = Some(title);
        record.faces = self.faces.clone();
        if let Some(o) = &self.outcome {
            record.total = Some(o.total.into());
            record.outcome = Some(o.class.clone());
            record.outcome_id = Some(o.class_id.to_string());
        }
        record
    }
}

/// Plays a move that throws nothing (ending a turn, declaring, adopting a stance) and applies
/// it: what changed.
pub fn play_without_dice(table: &mut TableState, mv: &Move) -> Result<Vec<String>, RollError> {
    let roll = MoveRoll::start(table, mv, 0)?;
    if let Some(plan) = &roll.waiting {
        return Err(RulesError::from(crate::rules::refusal::refuse!(
            Choice,
            "that move throws dice ({})",
            plan.purpose
        ))
        .into());
    }
    roll.apply_to(table)
}

/// Ends the turn or round by playing the table's end-turn move: what changed, in one line.
pub fn end_turn(table: &mut TableState) -> Result<String, RollError> {
    let mv = table.end_turn_move().ok_or(RulesError::NoTurnToEnd)?;
    play_without_dice(table, &mv).map(|said| said.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::table;

    #[test]
    fn a_move_asks_for_its_throws_and_refuses_faces_that_do_not_fit() {
        let t = table("d4-pool-goblin-ambush.ron");
        let mv = t.default_move();
        let mut roll = MoveRoll::start(&t, &mv, 5).expect("allowed");
        let order = roll.next_order().expect("a throw");
        assert_eq!(order.n, 0);
        assert_eq!(order.seed, 5);
        assert_eq!(order.purpose, "d4 pool");
        assert_eq!(
            roll.feed_faces(vec![9]),
            Err(RollError::Rules(RulesError::Refused(
                crate::rules::Refusal::new(
                    crate::rules::RefusalKind::Faces,
                    "1 faces for a throw of 7 dice (d4 pool)"
                )
            )))
        );
        let mut wrong = order.settled_as(vec![1; order.dice.len()]);
        wrong.dice[0] = crate::dice::DieKind::D20;
        assert_eq!(roll.feed_throw(&wrong), Err(RollError::OtherDice { n: 0 }));
        wrong.dice = order.dice.clone();
        wrong.seed = 6;
        assert_eq!(roll.feed_throw(&wrong), Err(RollError::OtherSeed { n: 0 }));
        assert!(!roll.is_done(), "nothing was read");
        roll.feed_faces(vec![4; order.dice.len()]).expect("fits");
        assert!(roll.is_done());
        assert_eq!(roll.feed_faces(vec![1]), Err(RollError::Over));
    }

    #[test]
    fn a_tie_thrown_again_and_again_is_capped() {
        // The crypt's side initiative: players 1d6 + 2, the game master's side 1d6 + 1; faces
        // 2 and 3 tie, and a tie is thrown again.
        let mut t = table("d20-check-crypt.ron");
        let declare: Move = crate::rules::data::parse_ron("m", "D20Check(DeclareInitiative)")
            .unwrap_or_else(|e| panic!("{e}"));
        play_without_dice(&mut t, &declare).expect("declared");
        let initiative: Move = crate::rules::data::parse_ron("m", "D20Check(Initiative)")
            .unwrap_or_else(|e| panic!("{e}"));
        let mut roll = MoveRoll::start(&t, &initiative, 3).expect("allowed");
        let mut fed = 0;
        let err = loop {
            match roll.feed_faces(vec![2, 3]) {
                Ok(()) => fed += 1,
                Err(e) => break e,
            }
        };
        // The 64th throw is read, and a 65th is refused.
        assert_eq!((err, fed + 1), (RollError::TooManyThrows, MAX_THROWS));
    }
}
