//! Any text as dice notation: it parses or says why, within its caps (length, terms, depth)
//! checked before any recursion, so no text overflows the stack; what parses lists its dice,
//! and faces thrown for them (rerolls and explosions followed) read into a result.
#![no_main]

use dicetable::odds::notation::{MAX_NOTATION_CHARS, Notation};
use libfuzzer_sys::fuzz_target;

/// Most faces one die is given before the reading is skipped (rerolls of most faces).
const LONGEST: usize = 24;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Notation::parse(text) {
        Ok(n) => {
            assert!(text.chars().count() <= MAX_NOTATION_CHARS);
            // Faces walked from the text's bytes, each die thrown again while it owes a throw.
            let mut byte = data.iter().cycle();
            let mut chains = Vec::new();
            for die in n.dice() {
                let mut chain = Vec::new();
                loop {
                    let b = u32::from(*byte.next().unwrap_or(&0));
                    chain.push(1 + b % die.physical_sides());
                    if !die.needs_another(&chain) {
                        break;
                    }
                    if chain.len() >= LONGEST {
                        return;
                    }
                }
                chains.push(chain);
            }
            assert!(n.evaluate(&chains).is_ok(), "{text:?} {chains:?}");
        }
        Err(e) => assert!(e.position <= text.chars().count(), "{text:?}: {e}"),
    }
});
