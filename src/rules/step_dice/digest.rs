//! The state of a step-dice table as a room's log hashes it ([`crate::rules::digest`]).

use super::Table;
use crate::rules::digest::{Digest, Record};
use serde_json::Value;

impl Digest for Table {
    fn digest(&self) -> Value {
        let Table {
            rules: _,
            characters: _,
            grit,
            acted,
            help,
            round,
            active,
        } = self;
        Record::new()
            .with("grit", grit)
            .with("acted", acted)
            .with("help", help)
            .with("round", round)
            .with("active", active)
            .done()
    }
}
