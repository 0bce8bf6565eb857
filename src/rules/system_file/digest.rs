//! The state of a system-file table as a room's log hashes it ([`crate::rules::digest`]).

use super::seat::{LastThrow, Table};
use crate::rules::digest::{Digest, Record};
use serde_json::Value;

impl Digest for Table {
    fn digest(&self) -> Value {
        let Table {
            rules: _,
            cast: _,
            tracks,
            scene,
            round,
            order,
            turn,
            last,
        } = self;
        Record::new()
            .with("tracks", tracks)
            .with("scene", scene)
            .with("round", round)
            .with("order", order)
            .with("turn", turn)
            .with_if(last.is_some(), "last", last)
            .done()
    }
}

impl Digest for LastThrow {
    fn digest(&self) -> Value {
        let LastThrow {
            actor,
            name,
            main,
            with_dice,
            against,
            numbers,
            faces,
            pushed,
        } = self;
        Record::new()
            .with("actor", actor)
            .with("name", name)
            .with("main", main)
            .with("with_dice", with_dice)
            .with("against", against)
            .with("numbers", numbers)
            .with("faces", faces)
            .with("pushed", pushed)
            .done()
    }
}
