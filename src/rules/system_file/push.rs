//! A pushed move: the last throw of its actor, once, with the dice that show a kept face kept
//! and the others thrown again, read against the move's bands as the throw was.

use super::read::{self, Throw};
use super::seat::{LastThrow, Read, Table, amount_in};
use super::{MoveDef, Push};
use crate::odds::notation::Notation;
use crate::rules::Refusal;
use crate::rules::refusal::refuse;

impl Table {
    /// The last throw of `actor`, if it can be pushed, with its move.
    pub(super) fn pushable(&self, actor: usize) -> Result<(&LastThrow, &MoveDef, &Push), Refusal> {
        let last = self
            .last
            .as_ref()
            .filter(|l| l.actor == actor)
            .ok_or_else(|| {
                refuse!(
                    NotNow,
                    "{} has no throw to push: push right after a move",
                    self.name(actor)
                )
            })?;
        let def = self.move_def(&last.name)?;
        let push = def
            .push
            .as_ref()
            .ok_or_else(|| refuse!(Unable, "{} cannot be pushed", def.name))?;
        if last.pushed {
            return Err(refuse!(
                Already,
                "{}'s {} was pushed already: once is the most",
                self.name(actor),
                def.name
            ));
        }
        Ok((last, def, push))
    }

    /// The throw of a last throw, from its recorded notation.
    pub(super) fn last_throw(last: &LastThrow, def: &MoveDef) -> Result<Throw, Refusal> {
        let parse = |t: &str| Notation::parse(t).map_err(|e| refuse!(Faces, "\"{t}\": {e}"));
        // A throw of the game's own dice is never pushed (its file is refused).
        Ok(Throw::numbered(
            parse(&last.main)?,
            last.with_dice,
            last.against.as_deref().map(parse).transpose()?,
            def.cap,
        ))
    }

    /// The faces a push keeps (None: thrown again): the main dice showing a kept face, and
    /// every die read against.
    pub(super) fn kept(
        last: &LastThrow,
        main_count: usize,
        keep_at_least: u32,
    ) -> Vec<Option<u32>> {
        last.faces
            .iter()
            .enumerate()
            .map(|(i, f)| (i >= main_count || *f >= keep_at_least).then_some(*f))
            .collect()
    }

    pub(super) fn read_push(&self, actor: usize, faces: &[u32]) -> Result<Read, Refusal> {
        let (last, def, push) = self.pushable(actor)?;
        let throw = Table::last_throw(last, def)?;
        let kept = Table::kept(last, throw.main.dice().len(), push.keep_at_least);
        let again = kept.iter().filter(|k| k.is_none()).count();
        if faces.len() != again {
            return Err(refuse!(
                Faces,
                "{} faces for a push of {again} dice",
                faces.len()
            ));
        }
        let mut new = faces.iter();
        let all: Vec<u32> = kept
            .iter()
            .map(|k| k.or_else(|| new.next().copied()).unwrap_or(1))
            .collect();
        let reading = throw.read(&all).map_err(|e| refuse!(Faces, "{e}"))?;
        let band = read::band_of(&def.bands, &reading, &|a| amount_in(&last.numbers, a));
        Ok(Read {
            reading,
            band,
            numbers: last.numbers.clone(),
            main: last.main.clone(),
            written: last.main.clone(),
            against: last.against.clone(),
            costs: push.costs.clone(),
        })
    }
}
