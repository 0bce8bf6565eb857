//! What a ruleset is to the rest of the program: one trait, implemented once in the ruleset's
//! own folder (`<ruleset>/ruleset.rs`). The program's enums of rulesets ([`super::RulesetId`],
//! [`super::Move`], [`super::TableState`], [`super::Cast`], ...) are generated from the one list
//! in `rules/mod.rs` (see [`super::registry`]) and reach a ruleset only through this trait and
//! [`super::play::Seat`]. "Adding a ruleset" in `ARCHITECTURE.md` walks through it.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::bounds::Bounded;
use super::catalogue::Catalogue;
use super::setup::Setup;
use super::{Odds, Refusal, RollPlan, Step};

/// A ruleset: its rule file, its characters, its table (the turn economy, behind [`super::play::Seat`]) and
/// its one-off actions (`odds --ruleset`, `bench`), each checked, priced and read.
pub trait Ruleset: 'static {
    /// The settings of its rule file (`assets/rules/<id>.ron`, or a scene's own rules).
    type Rules: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// One character of a scene's cast.
    type Character: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// The table of a scene: its moves and turn economy ([`super::play::Seat`]), and its
    /// moves as data ([`Catalogue`]).
    type Table: Catalogue;
    /// One action outside a table (`odds --ruleset <id> --action ...`).
    type Action: Clone + Debug + PartialEq + Eq + DeserializeOwned;

    /// The shipped rule file, compiled in (`include_str!` of `assets/rules/<id>.ron`).
    const SHIPPED_RULES: &'static str;
    /// An example action, as `docs/command-line.md` writes it.
    const EXAMPLE_ACTION: &'static str;
    /// The fields of a scene's `setup` this ruleset reads (every other one set is refused).
    const SETUP: &'static [&'static str] = &[];

    /// Checks the rules that RON cannot (ranges, tables): a rules file may be anyone's upload.
    fn validate_rules(_rules: &Self::Rules) -> Result<(), Refusal> {
        Ok(())
    }
    /// The limits a scene's own rules are held to when they are uploaded, beyond
    /// [`Ruleset::validate_rules`] (which a room's stored scene is read by too): how many
    /// things a list holds and how long a name is, so that no upload makes a room's entries
    /// or answers large ([`super::scene::Scene::check_upload`]).
    fn upload_limits(_rules: &Self::Rules) -> Result<(), Oversized> {
        Ok(())
    }
    /// Every number of the rules, with the range the rules accept for it.
    fn rules_numbers(rules: &Self::Rules) -> Vec<Bounded>;
    /// A scene's own rules in words for the scene picker, where the ruleset names them better
    /// than by the settings that differ from `shipped` (a system file by its game's name).
    fn rules_in_words(_own: &Self::Rules, _shipped: &Self::Rules) -> Option<String> {
        None
    }

    /// A character's name.
    fn name(character: &Self::Character) -> &str;
    /// Whether the players may take this character's seat (false: the game master plays it).
    fn players_play(character: &Self::Character) -> bool;
    /// Every number a cast gives, with the range the rules accept for it.
    fn cast_numbers(cast: &[Self::Character]) -> Vec<Bounded>;
    /// What RON cannot check of a cast (names are checked by the scene), by the checks of rules
    /// generation `generation`, with the rules the scene plays by.
    fn validate_cast(
        cast: &[Self::Character],
        rules: &Self::Rules,
        generation: u32,
    ) -> Result<(), Refusal>;

    /// Seats a cast with its rules and the scene's setup; `seed` breaks ties the rules leave to
    /// chance.
    fn seat(
        rules: Self::Rules,
        cast: Vec<Self::Character>,
        setup: &Setup,
        seed: u64,
    ) -> Self::Table;
    /// Has the table play by the rules of generation `generation` (a room's log made by an
    /// earlier build is played as it was).
    fn play_by(table: &mut Self::Table, generation: u32);

    /// Whether the action may be taken with these rules, and if not, why.
    fn check_action(action: &Self::Action, rules: &Self::Rules) -> Result<(), Refusal>;
    /// The first throw of an allowed action.
    fn plan_action(action: &Self::Action, rules: &Self::Rules) -> Result<RollPlan, Refusal>;
    /// The exact odds of an action.
    fn action_odds(action: &Self::Action, rules: &Self::Rules) -> Result<Odds, Refusal>;
    /// Reads every throw of the action so far.
    fn resolve_action(
        action: &Self::Action,
        rules: &Self::Rules,
        throws: &[Vec<u32>],
    ) -> Result<Step, Refusal>;
}

/// The move type of a ruleset's table.
pub type MoveOf<R> = <<R as Ruleset>::Table as super::play::Seat>::Move;

/// What an upload holds too much of: what, and a name near it in the upload's text (for the
/// line and column of the error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oversized {
    /// What is over which limit.
    pub what: String,
    /// A name written where it is (found in the text as `"name"`).
    pub near: String,
}
