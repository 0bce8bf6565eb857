//! One die's throw process, shared by the physical roll and the odds: a face the die shows is
//! rerolled (thrown again, the face discarded) while a reroll point holds; the face kept may
//! explode (the die is thrown again and that throw counts too). A die's chain of faces is every
//! face it showed, in order; its links are the throws that count.

use super::faces::die_values;
use super::{Die, ExplodeMode, ThrowRules};

/// One physical die to throw for a notation, in throw order, with how it is thrown again.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NotationDie {
    /// What the die shows.
    pub die: Die,
    /// Its rerolls, explosions and clamps.
    pub throw: ThrowRules,
}

/// One throw of a die that counts: the faces rerolled before it, the face kept, its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The values thrown and rerolled before this one (struck through when shown).
    pub rerolled: Vec<i64>,
    /// The value of the face kept, as it shows on the die.
    pub face: i64,
    /// What it counts for: one less than the face on a penetrating die's extra throws, and
    /// within `min` and `max`.
    pub value: i64,
    /// Whether it exploded (the die was thrown again for it).
    pub explodes: bool,
}

impl NotationDie {
    /// The sides of the physical die thrown: a d2, a d3 and a dF are marked d6s.
    pub fn physical_sides(&self) -> u32 {
        match self.die {
            Die::Numbered(s) if s > 3 => s,
            _ => 6,
        }
    }

    /// The sides of the die as the notation names it (a dF has 3: −, blank, +).
    pub fn sides(&self) -> u32 {
        match self.die {
            Die::Numbered(s) => s,
            Die::Fate => 3,
        }
    }

    /// The die's name: "d6", "d%" is "d100", "dF".
    pub fn name(&self) -> String {
        match self.die {
            Die::Numbered(s) => format!("d{s}"),
            Die::Fate => "dF".to_string(),
        }
    }

    /// The value a physical face (1 to [`NotationDie::physical_sides`]) shows, or None for a
    /// face the die does not have.
    pub fn face_value(&self, face: u32) -> Option<i64> {
        let values = die_values(self.die);
        let index = usize::try_from(face).ok()?.checked_sub(1)?;
        values.get(index).copied()
    }

    /// The chain's throws that count, and whether the die is done (its last kept face did not
    /// explode). Errors for a face the die does not have, or a face after the die was done.
    pub fn links(&self, chain: &[u32]) -> Result<(Vec<Link>, bool), String> {
        let mut links: Vec<Link> = Vec::new();
        let mut rerolled = Vec::new();
        let mut done = false;
        for &face in chain {
            if done {
                return Err(format!(
                    "a {} is thrown again only for a reroll or an explosion",
                    self.name()
                ));
            }
            let shown = self
                .face_value(face)
                .ok_or_else(|| format!("face {face} is not on a {}", self.name()))?;
            let may_reroll = !self.throw.reroll_once || rerolled.is_empty();
            if may_reroll && self.throw.rerolls_on(shown) {
                rerolled.push(shown);
                continue;
            }
            let penetrated = self
                .throw
                .explode
                .is_some_and(|e| e.mode == ExplodeMode::Penetrate)
                && !links.is_empty();
            let explodes = self.throw.explodes_on(shown);
            links.push(Link {
                rerolled: std::mem::take(&mut rerolled),
                face: shown,
                value: self.clamp(shown - i64::from(penetrated)),
                explodes,
            });
            done = !explodes;
        }
        Ok((links, done))
    }

    /// A value within the roll's `min` and `max`.
    pub fn clamp(&self, value: i64) -> i64 {
        let value = self.throw.min.map_or(value, |m| value.max(m));
        self.throw.max.map_or(value, |m| value.min(m))
    }

    /// Whether a die with this chain is to be thrown again (a reroll or an explosion is
    /// owed). A chain that does not fit the die is not thrown again: reading it says why.
    pub fn needs_another(&self, chain: &[u32]) -> bool {
        matches!(self.links(chain), Ok((_, false)))
    }
}
