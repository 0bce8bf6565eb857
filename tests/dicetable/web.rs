//! The pages' pure parts under node's own test runner (`web/tests/unit/`): check.js on the
//! log's shared vectors and a stored room log, gesture.js against the tray of this build's
//! `/contract.js`, entries.js telling a stored room log, the protocol's published schemas on
//! messages it takes and refuses, the room page's move fields (fields.js), odds bars
//! (odds-chart.js), the order it tells its log in (tray-queue.js), its questions about a
//! draft (draft-asker.js) and a free roll's odds as it is written (notation-odds.js).

use std::process::Command;

use super::driven::available;

#[test]
fn the_pages_pure_parts_pass_their_unit_tests() {
    let _lane = crate::beside_real_time();
    if !available("node") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have node: ./check installs it"
        );
        eprintln!("skipped: node missing (./check installs it)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("dicetable-web-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let contract = dir.join("contract.mjs");
    std::fs::write(&contract, dicetable::server::contract::contract_js()).expect("written");
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("node")
        .args(["--test", "web/tests/unit/"])
        .current_dir(root)
        .env("CONTRACT", &contract)
        .output()
        .expect("node runs");
    let _ = std::fs::remove_dir_all(&dir);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    // Every file ran: the two suites' tests, none skipped.
    assert!(text.contains("# pass 53"), "{text}");
    assert!(text.contains("# fail 0"), "{text}");
}
