//! The exact-odds engine: plain Rust, no Bevy, no randomness. Distributions of totals as exact
//! fractions over one denominator ([`Dist`], [`Prob`]), dice notation read and priced
//! ([`notation`]), keep/drop and open-ended dice worked out on big-integer polynomials
//! (`keep`, `poly`, `limbs`), fractions put in lowest terms (`reduce`), and long work that can be
//! asked to stop ([`stop`]). The rulesets (`crate::rules`) price their moves with it.

pub mod dist;
mod keep;
mod limbs;
pub mod notation;
pub mod poly;
mod reduce;
pub mod stop;
mod total;
pub mod words;

pub use dist::{Dist, Points, Prob};
pub use total::{Total, TotalError};
