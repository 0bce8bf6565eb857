//! Any file handed to `verify` or read back from a store: the log reader and the room's replay
//! (chain, scene, rights, seed proofs, rules) answer with a room or an error, and never panic.
#![no_main]

use dicetable::online::log::read_log;
use dicetable::online::room::{Checks, RoomState};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(lines) = read_log(text) {
        let _ = RoomState::replay(lines.iter().map(|(l, _)| l.as_str()), Checks::default());
    }
});
