//! Giving up on exact odds nobody waits for any more. Most odds take a few milliseconds, but a
//! keep over many open-ended dice takes up to seconds: when the player types over the notation,
//! the work for the old text is asked to stop, and it does at its next step instead of holding
//! a worker thread (and the odds of the new text) until it ends.
//!
//! Long computations take a [`Stop`] and ask it between steps. [`Never`] goes on to the end and
//! cannot fail, so the plain functions (`Dist::keep_highest`, `Notation::distribution`) are the
//! same code with nothing to unwrap; a [`Cancel`] handle stops the work with [`Abandoned`].

use std::convert::Infallible;

pub use crate::work::Cancel;

/// Asked between the steps of a long computation whether to go on.
pub trait Stop {
    /// What a stopped computation gives instead of its result.
    type Stopped;
    /// `Err` once the result is no longer wanted.
    fn check(&self) -> Result<(), Self::Stopped>;
}

/// Goes on to the end: its `Stopped` has no value, so the result is always there.
#[derive(Clone, Copy, Debug, Default)]
pub struct Never;

impl Stop for Never {
    type Stopped = Infallible;

    fn check(&self) -> Result<(), Infallible> {
        Ok(())
    }
}

/// A computation given up on before it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abandoned;

impl Stop for Cancel {
    type Stopped = Abandoned;

    fn check(&self) -> Result<(), Abandoned> {
        // On a pool's thread, also where the work shares its core (`crate::work`).
        crate::work::pause_point();
        if self.is_cancelled() {
            Err(Abandoned)
        } else {
            Ok(())
        }
    }
}
