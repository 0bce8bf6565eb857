//! The one driver of a roll: it asks the roll for its next throw, has the throw made, feeds it
//! back, and keeps every throw made, also when the roll stops early (a throw the rules refuse,
//! the throw cap, the physics giving up). Every client goes through it: a loop that makes the
//! throws itself ([`drive`]: the headless simulator, a record read back, a script's physical
//! throws or its given faces), and the window, whose felt makes each throw over many frames
//! ([`Driving::order`] when a throw is due, [`Driving::feed`] when it has settled).

use super::{MoveRoll, NotationRoll, RollError, ThrowOrder};
use crate::record::ThrowRecord;

/// A roll the driver carries: a move's or a notation's state machine, fed what is made for
/// each throw it asks for (`Made`: a physical throw, or the rules' faces a script gives).
pub trait Roll<Made = ThrowRecord> {
    /// The throw asked for now: None once the roll is over, an error when the throw cannot be
    /// made (a die of the plan that no physical die makes).
    fn next_throw(&self) -> Result<Option<ThrowOrder>, RollError>;
    /// Feeds what was made for the order last given: checked, then read.
    fn feed_throw(&mut self, made: &Made) -> Result<(), RollError>;
}

/// The rules' faces of one throw, given rather than thrown (a script's `faces`): a d100 is one
/// face here, not its two physical dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenFaces(pub Vec<u32>);

impl Roll for MoveRoll {
    fn next_throw(&self) -> Result<Option<ThrowOrder>, RollError> {
        Roll::<GivenFaces>::next_throw(self)
    }

    fn feed_throw(&mut self, throw: &ThrowRecord) -> Result<(), RollError> {
        MoveRoll::feed_throw(self, throw)
    }
}

impl Roll<GivenFaces> for MoveRoll {
    fn next_throw(&self) -> Result<Option<ThrowOrder>, RollError> {
        if self.is_done() {
            return Ok(None);
        }
        self.next_order().map(Some)
    }

    fn feed_throw(&mut self, given: &GivenFaces) -> Result<(), RollError> {
        self.feed_faces(given.0.clone())
    }
}

impl Roll for NotationRoll {
    fn next_throw(&self) -> Result<Option<ThrowOrder>, RollError> {
        self.next_order()
    }

    fn feed_throw(&mut self, throw: &ThrowRecord) -> Result<(), RollError> {
        NotationRoll::feed_throw(self, throw)
    }
}

/// A roll being driven: the roll, every throw made for it (in order), and why it stopped, if it
/// stopped before its end. A stopped roll keeps what it had: the window shows it, a room's check
/// says which throw failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Driving<R, Made = ThrowRecord> {
    roll: R,
    throws: Vec<Made>,
    stopped: Option<RollError>,
}

impl<R: Roll<Made>, Made> Driving<R, Made> {
    /// A roll started and not yet thrown.
    pub fn new(roll: R) -> Self {
        Driving {
            roll,
            throws: Vec::new(),
            stopped: None,
        }
    }

    /// The throw to make now: None once the roll is over or has stopped (a throw that cannot be
    /// made stops it here).
    pub fn order(&mut self) -> Option<ThrowOrder> {
        if self.stopped.is_some() {
            return None;
        }
        match self.roll.next_throw() {
            Ok(order) => order,
            Err(e) => {
                self.stopped = Some(e);
                None
            }
        }
    }

    /// Feeds a throw made for the last order: kept with the roll's throws whatever the roll
    /// makes of it; a throw the roll refuses stops it.
    pub fn feed(&mut self, throw: Made) {
        if self.stopped.is_some() {
            return;
        }
        let fed = self.roll.feed_throw(&throw);
        self.throws.push(throw);
        if let Err(e) = fed {
            self.stopped = Some(e);
        }
    }

    /// Stops the roll: its next throw could not be made.
    pub fn stop(&mut self, why: RollError) {
        self.stopped.get_or_insert(why);
    }

    /// The roll so far.
    pub fn roll(&self) -> &R {
        &self.roll
    }

    /// Every throw made so far, in order.
    pub fn throws(&self) -> &[Made] {
        &self.throws
    }

    /// Why the roll stopped before its end, if it did.
    pub fn stopped(&self) -> Option<&RollError> {
        self.stopped.as_ref()
    }

    /// The roll and its throws, or why it stopped.
    pub fn finished(self) -> Result<(R, Vec<Made>), RollError> {
        match self.stopped {
            Some(e) => Err(e),
            None => Ok((self.roll, self.throws)),
        }
    }
}

/// Throw `order.n` of `record`: a record read back throw by throw, as the rules ask for each
/// (a verifier checking a log, a page replaying it).
pub fn recorded_throw(
    record: &crate::record::RollRecord,
    order: &ThrowOrder,
) -> Result<ThrowRecord, RollError> {
    record
        .throws
        .get(order.n as usize)
        .cloned()
        .ok_or(RollError::Missing { n: order.n })
}

/// Drives a roll to its end, each throw it asks for made by `throw` (thrown here, read back
/// from a record, given by a script): the roll with every throw made, and why it stopped, if it
/// stopped early.
pub fn drive<R: Roll<Made>, Made>(
    roll: R,
    mut throw: impl FnMut(&ThrowOrder) -> Result<Made, RollError>,
) -> Driving<R, Made> {
    let mut driving = Driving::new(roll);
    while let Some(order) = driving.order() {
        match throw(&order) {
            Ok(made) => driving.feed(made),
            Err(e) => driving.stop(e),
        }
    }
    driving
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odds::notation::Notation;

    #[test]
    fn a_stopped_roll_keeps_the_throws_it_made() {
        // d6! with a six, then a throw of the wrong dice: the first throw is kept, the roll says
        // why it stopped, and no third throw is asked for.
        let notation = Notation::parse("d6!").expect("parses");
        let roll = NotationRoll::start(&notation, 3).expect("starts");
        let mut asked = 0;
        let driving = drive(roll, |order| {
            asked += 1;
            let mut made = order.settled_as(vec![6]);
            if order.n == 1 {
                made.dice = vec![crate::dice::DieKind::D8];
            }
            Ok(made)
        });
        assert_eq!(asked, 2);
        assert_eq!(driving.throws().len(), 2);
        assert_eq!(driving.roll().chains(), &[vec![6]]);
        assert_eq!(driving.stopped(), Some(&RollError::OtherDice { n: 1 }));
        // A throw that could not be made stops it too, with what came before kept.
        let roll = NotationRoll::start(&notation, 3).expect("starts");
        let driving = drive(roll, |order| match order.n {
            0 => Ok(order.settled_as(vec![6])),
            _ => Err(RollError::TooManyThrows),
        });
        assert_eq!(
            (driving.throws().len(), driving.stopped()),
            (1, Some(&RollError::TooManyThrows))
        );
        assert_eq!(driving.finished(), Err(RollError::TooManyThrows));
    }
}
