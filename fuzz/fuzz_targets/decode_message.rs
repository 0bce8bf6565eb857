//! Any bytes a client may send: the server's decoder answers with a message or an error, and
//! never panics.
#![no_main]

use dicetable::online::protocol::{ServerMsg, decode, decode_server};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = decode(text) {
        // What decodes re-encodes and decodes to the same message.
        let again = serde_json::to_string(&msg).expect("encodes");
        assert_eq!(decode(&again).ok(), Some(msg));
    }
    // The client's side reads the server's messages with the same care.
    if let Ok(msg) = decode_server(text) {
        let _ = ServerMsg::to_text(&msg);
    }
});
