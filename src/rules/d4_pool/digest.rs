//! The state of a d4-pool table as a room's log hashes it ([`crate::rules::digest`]).

use super::{Effect, Imposed, Table};
use crate::rules::digest::{Digest, Record, id};
use serde_json::Value;

impl Digest for Table {
    fn digest(&self) -> Value {
        let Table {
            rules: _,
            characters: _,
            loads,
            round,
            active,
            imposed,
        } = self;
        Record::new()
            .with("loads", loads)
            .with("round", round)
            .with("active", active)
            .with_if(!imposed.is_empty(), "imposed", imposed)
            .done()
    }
}

impl Digest for Imposed {
    fn digest(&self) -> Value {
        let Imposed { by, on, effect } = self;
        Record::new()
            .with("by", by)
            .with("on", on)
            .with("effect", effect)
            .done()
    }
}

impl Digest for Effect {
    fn digest(&self) -> Value {
        id(match self {
            Effect::Disadvantage => "Disadvantage",
            Effect::Advantage => "Advantage",
        })
    }
}
