//! The state of a d20-check table as a room's log hashes it ([`crate::rules::digest`]).

use super::{OpposedDc, Side, Table, TaskProgress};
use crate::rules::digest::{Digest, Record, id};
use serde_json::Value;

impl Digest for Table {
    fn digest(&self) -> Value {
        let Table {
            rules: _,
            characters: _,
            resources,
            first,
            acted,
            round,
            initiative,
            tasks,
            opposed,
        } = self;
        Record::new()
            .with("resources", resources)
            .with("first", first)
            .with("acted", acted)
            .with("round", round)
            .with("initiative", initiative)
            .with("tasks", tasks)
            .with_if(!opposed.is_empty(), "opposed", opposed)
            .done()
    }
}

impl Digest for TaskProgress {
    fn digest(&self) -> Value {
        let TaskProgress {
            task,
            successes,
            failures,
        } = self;
        Record::new()
            .with("task", task)
            .with("successes", successes)
            .with("failures", failures)
            .done()
    }
}

impl Digest for OpposedDc {
    fn digest(&self) -> Value {
        let OpposedDc { by, against, dc } = self;
        Record::new()
            .with("by", by)
            .with("against", against)
            .with("dc", dc)
            .done()
    }
}

impl Digest for Side {
    fn digest(&self) -> Value {
        id(match self {
            Side::Players => "Players",
            Side::Gamemaster => "Gamemaster",
        })
    }
}
