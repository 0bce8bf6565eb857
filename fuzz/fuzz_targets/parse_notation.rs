//! Any text as dice notation: it parses or says why, within its caps (length, terms, groups'
//! depth) checked before any recursion, so no text overflows the stack; what parses lists its
//! dice and reads a face of each.
#![no_main]

use dicetable::odds::notation::{MAX_NOTATION_CHARS, Notation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Notation::parse(text) {
        Ok(n) => {
            assert!(text.chars().count() <= MAX_NOTATION_CHARS);
            // Ones on every die: no chain goes on (no die has a single side).
            let chains: Vec<Vec<u32>> = n.dice().iter().map(|_| vec![1]).collect();
            assert!(n.evaluate(&chains).is_ok(), "{text:?}");
        }
        Err(e) => assert!(e.position <= text.chars().count(), "{text:?}: {e}"),
    }
});
