//! What the pages take from the server instead of copying it: the protocol's version, the
//! tray as a hand over it sees it (the same numbers the physics throws by and a table server
//! checks a gesture against), and the limits of what a member types. Served as the module
//! `/contract.js`, made from this build's own constants, so a page and its server never drift.

use crate::odds::notation::MAX_NOTATION_CHARS;
use crate::online::protocol::{LABEL_BYTES, NAME_BYTES, PROTOCOL, ROOM_NAME_BYTES};
use crate::physics::throw::{FLICK_DROP, FLICK_SPEED, HAND_HEIGHT, RELEASE_REACH};
use crate::physics::tray::{INNER_DEPTH, INNER_WIDTH};

/// The text of `/contract.js`: an ES module of three constants.
pub fn contract_js() -> String {
    let tray = serde_json::json!({
        "width": INNER_WIDTH,
        "depth": INNER_DEPTH,
        "reach": [RELEASE_REACH.0, RELEASE_REACH.1],
        "height": HAND_HEIGHT,
        "speed": [FLICK_SPEED.0, FLICK_SPEED.1],
        "drop": FLICK_DROP,
    });
    let limits = serde_json::json!({
        "name": NAME_BYTES,
        "label": LABEL_BYTES,
        "room": ROOM_NAME_BYTES,
        "notation": MAX_NOTATION_CHARS,
    });
    format!(
        "// Made by the table server from its own constants (src/server/contract.rs).\n\
         /** The table server's protocol version. */\n\
         export const PROTOCOL = {PROTOCOL};\n\
         /** The tray as the hand sees it, cm: its felt, how far from the middle a hand may open \
         (along, across), the hand's height, the slowest and fastest flick, cm/s, and how fast \
         the hand drops as it opens. */\n\
         export const TRAY = {tray};\n\
         /** The longest name, label and room name, bytes, and notation, characters. */\n\
         export const LIMITS = {limits};\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contract_is_a_module_of_this_builds_numbers() {
        let js = contract_js();
        assert!(js.contains(&format!("export const PROTOCOL = {PROTOCOL};")));
        assert!(js.contains(
            r#"export const TRAY = {"depth":20.0,"drop":15.0,"height":16.0,"reach":[7.5,2.0],"speed":[45.0,170.0],"width":28.0};"#
        ), "{js}");
        assert!(
            js.contains(
                r#"export const LIMITS = {"label":200,"name":40,"notation":256,"room":64};"#
            ),
            "{js}"
        );
    }
}
