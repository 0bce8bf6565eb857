//! The digest contract: the state of a table that a room's log hashes after every entry, written
//! field by field by each ruleset, never derived from the Rust shape of its table.
//!
//! A stored log verifies across every release only if the bytes hashed for a given table never
//! change. So no table (nor anything in it) is serialised by serde for its digest: each ruleset
//! implements [`Digest`] for its table in its own `digest.rs`, destructuring every struct
//! whole (no `..`) and matching every enum without a wildcard, and naming each key of the
//! state with a string literal. Adding a field to a table is then a compile error until its
//! digest says what becomes of it (hashed under a key of its own, or left out), and renaming
//! one changes nothing hashed (`tests/dicetable/digest.rs` checks the shape of every
//! `digest.rs`). The keys and shapes are the ones the state has had since version 1, so every
//! stored log still verifies.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// A value as the table's state hashes it: numbers, flags, names, lists and records whose keys
/// the impl names. Implemented for plain values here and, explicitly, for each ruleset's table
/// and what it holds (never through serde).
pub trait Digest {
    /// The value in the state.
    fn digest(&self) -> Value;
}

macro_rules! digest_as_is {
    ($($t:ty),*) => {$(
        impl Digest for $t {
            fn digest(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}

digest_as_is!(bool, u32, u64, i32, i64, usize);

impl Digest for String {
    fn digest(&self) -> Value {
        Value::String(self.clone())
    }
}

impl Digest for str {
    fn digest(&self) -> Value {
        Value::String(self.to_string())
    }
}

impl<T: Digest + ?Sized> Digest for &T {
    fn digest(&self) -> Value {
        (**self).digest()
    }
}

/// None is `null`.
impl<T: Digest> Digest for Option<T> {
    fn digest(&self) -> Value {
        self.as_ref().map_or(Value::Null, Digest::digest)
    }
}

/// A list is a JSON array, in order.
impl<T: Digest> Digest for [T] {
    fn digest(&self) -> Value {
        Value::Array(self.iter().map(Digest::digest).collect())
    }
}

impl<T: Digest> Digest for Vec<T> {
    fn digest(&self) -> Value {
        self.as_slice().digest()
    }
}

/// A pair is a two-element array.
impl<A: Digest, B: Digest> Digest for (A, B) {
    fn digest(&self) -> Value {
        Value::Array(vec![self.0.digest(), self.1.digest()])
    }
}

/// A map by name is a JSON object (its keys sorted, as every object of the state).
impl<T: Digest> Digest for BTreeMap<String, T> {
    fn digest(&self) -> Value {
        Value::Object(
            self.iter()
                .map(|(name, value)| (name.clone(), value.digest()))
                .collect(),
        )
    }
}

/// A record of the state: its keys are written here, by name, one call each.
#[derive(Default)]
pub struct Record(Map<String, Value>);

impl Record {
    /// An empty record.
    pub fn new() -> Record {
        Record::default()
    }

    /// `key` holds `value`.
    pub fn with(mut self, key: &'static str, value: impl Digest) -> Record {
        self.0.insert(key.to_string(), value.digest());
        self
    }

    /// `key` holds `value` where `written` (a key the state has left out while it holds its
    /// default, so that states from before it read as they always have).
    pub fn with_if(self, written: bool, key: &'static str, value: impl Digest) -> Record {
        if written { self.with(key, value) } else { self }
    }

    /// `key` holds a value built otherwise.
    pub fn with_value(mut self, key: &'static str, value: Value) -> Record {
        self.0.insert(key.to_string(), value);
        self
    }

    /// The record as a JSON object.
    pub fn done(self) -> Value {
        Value::Object(self.0)
    }
}

/// An enum's name in the state (its id, matched explicitly by each impl).
pub fn id(name: &'static str) -> Value {
    Value::String(name.to_string())
}

/// Whether any of the list is set (a list of flags the state leaves out while none is).
pub fn any_set(flags: &[bool]) -> bool {
    flags.iter().any(|b| *b)
}

/// Whether any of the list is Some.
pub fn any_some<T>(list: &[Option<T>]) -> bool {
    list.iter().any(Option::is_some)
}

/// Whether any of the lists has anything in it.
pub fn any_filled<T>(lists: &[Vec<T>]) -> bool {
    lists.iter().any(|l| !l.is_empty())
}

/// A die of the rules is its name (`"d6"`), as it has always been written.
impl Digest for super::Die {
    fn digest(&self) -> Value {
        Value::String(self.to_string())
    }
}

/// A task is `{name, successes, failures}`.
impl Digest for super::setup::Task {
    fn digest(&self) -> Value {
        let super::setup::Task {
            name,
            successes,
            failures,
        } = self;
        Record::new()
            .with("name", name)
            .with("successes", successes)
            .with("failures", failures)
            .done()
    }
}
