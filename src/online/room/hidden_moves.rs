//! Hidden moves with given faces, in each of the five rulesets and a system file: what the log
//! shows at once (who, the mode, that a move was made: the table unchanged, waiting) and what
//! its reveal shows (the move, its dice, faces, outcome and what it changed), which is then the
//! table's next state exactly as the same move made in the open (`docs/systems.md`, "Hidden
//! moves").

use super::tests::{append, join, room_built};
use super::*;
use crate::errors::ErrorCode;
use crate::online::log::{SealedRoll, SeedProof};
use crate::online::seal::{NONCE_BYTES, SECRET_BYTES};
use crate::record::{Cocked, Pose, ThrowRecord};
use crate::roll::{MoveRoll, ThrowOrder, drive};
use crate::rules::play::Move;

/// The faces given to each throw: its dice read 2, 3, 4, … in turn (never a die's highest
/// face, so no die explodes for ever; within every die's range).
fn given_faces(order: &ThrowOrder) -> Vec<u32> {
    order
        .dice
        .iter()
        .enumerate()
        .map(|(i, _)| 2 + (i as u32 + order.n) % 3)
        .collect()
}

/// Pat's first move that throws dice (as the page offers it), in a room of `file` where Gwen is
/// the game master and Pat plays the first character.
fn seated(file: &str) -> (RoomState, Move) {
    let mut room = room_built(file, &crate::record::build_id());
    let first = room.table.names()[0].to_string();
    join(&mut room, "Gwen", Role::Gamemaster, &[]);
    join(&mut room, "Pat", Role::Player, &[&first]);
    let mv = room
        .moves_with_dice("Pat")
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{file}: Pat has no move that throws dice"));
    (room, mv)
}

/// Pat's move thrown with the given faces as the room's next entry: its seed's proof, the roll
/// and what it changed, the table after.
fn thrown(room: &RoomState, mv: &Move) -> (SeedProof, RollRecord, Vec<String>, TableState) {
    let (secret, nonce) = ([7u8; SECRET_BYTES], [9u8; NONCE_BYTES]);
    let seed = seal::throw_seed(&secret, &nonce, None, &room.room, room.seq + 1);
    let proof = SeedProof {
        commitment: seal::commitment(&secret),
        secret: seal::hex(&secret),
        nonce: seal::hex(&nonce),
        gesture: None,
    };
    let roll = MoveRoll::start(&room.table, mv, seed).unwrap_or_else(|e| panic!("{e}"));
    let given = |order: &ThrowOrder| {
        let n = order.dice.len();
        Ok(ThrowRecord {
            seed: order.seed,
            tag: u64::from(order.n),
            gesture: false,
            dice: order.dice.clone(),
            faces: given_faces(order),
            rethrows: vec![0; n],
            poses: vec![
                Pose {
                    t: [0.0; 3],
                    r: [0.0, 0.0, 0.0, 1.0],
                };
                n
            ],
        })
    };
    let (roll, throws) = drive(roll, given)
        .finished()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut record = roll.record(&room.scene.name, throws, None, Cocked::default());
    record.who = Some("Pat".into());
    let mut table = room.table.clone();
    let said = roll.apply_to(&mut table).unwrap_or_else(|e| panic!("{e}"));
    (proof, record, said, table)
}

/// The move made in the open and the same move hidden then revealed come to the same table,
/// outcome and words; before the reveal the log names no move, no dice, no face, and the table
/// waits.
fn a_hidden_move_is_the_open_move_once_revealed(file: &str) {
    let (room, mv) = seated(file);
    let (proof, record, said, table) = thrown(&room, &mv);

    // In the open.
    let mut open = room.clone();
    let state = table_digest(&table, open.format);
    append(
        &mut open,
        Event::Thrown {
            by: "Pat".into(),
            what: Proposal::Move(mv.clone()),
            proof: proof.clone(),
            record: Box::new(record.clone()),
            said: said.clone(),
            state,
        },
    )
    .unwrap_or_else(|e| panic!("{file}: {e}"));

    // Hidden, for the game master.
    let mut hidden = room.clone();
    let (event, SealedRoll { salt, payload }) = hidden
        .seal_throw(ToSeal {
            by: "Pat",
            what: &Proposal::Move(mv.clone()),
            mode: SecretMode::Gamemaster,
            proof,
            record: record.clone(),
            said: said.clone(),
            table: &table,
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let line = append(&mut hidden, event).unwrap_or_else(|e| panic!("{file}: {e}"));
    let seq = hidden.seq;

    // The public part: who, the mode, that a move was made; its seal and commitment.
    let logged: serde_json::Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}"));
    let mut keys: Vec<&str> = logged["event"]
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["by", "commitment", "kind", "label", "mode", "sealed"],
        "{file}: {line}"
    );
    assert_eq!(logged["event"]["label"], serde_json::Value::Null);
    assert_eq!(
        hidden.history.last().map(|h| h.text.as_str()),
        Some("Pat made a move for the game master")
    );
    // The table waits: unchanged, no move (not even the game master's), free rolls go on.
    assert_eq!(
        table_digest(&hidden.table, hidden.format),
        table_digest(&room.table, room.format),
        "{file}"
    );
    assert_eq!(hidden.held_by(), Some(seq));
    let refused = |by: &str, what: &Proposal| hidden.may(by, what).err().map(|e| e.code());
    assert_eq!(
        refused("Gwen", &Proposal::Move(mv.clone())),
        Some(ErrorCode::TableHeld)
    );
    assert_eq!(refused("Pat", &Proposal::Notation("1d20".into())), None);

    // The sealed part, shown: the same table, outcome and what changed as in the open.
    append(
        &mut hidden,
        Event::Revealed {
            of: seq,
            salt,
            payload,
        },
    )
    .unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(hidden.held_by(), None);
    assert_eq!(
        table_digest(&hidden.table, hidden.format),
        table_digest(&open.table, open.format),
        "{file}"
    );
    assert_eq!(hidden.table, open.table, "{file}");
    let open_text = open
        .history
        .last()
        .map(|h| h.text.clone())
        .unwrap_or_default();
    let shown = hidden
        .history
        .last()
        .map(|h| h.text.clone())
        .unwrap_or_default();
    // "Pat: Vex attacks: Hit" in the open; "Pat revealed Vex attacks: Hit" at the reveal.
    assert_eq!(
        shown.replacen("Pat revealed ", "Pat: ", 1),
        open_text,
        "{file}"
    );
    assert_eq!(
        hidden.history.last().and_then(|h| h.record.clone()),
        Some(record)
    );
}

#[test]
fn a_hidden_d4_pool_move() {
    a_hidden_move_is_the_open_move_once_revealed("d4-pool-goblin-ambush.ron");
}

#[test]
fn a_hidden_d20_check_move() {
    a_hidden_move_is_the_open_move_once_revealed("d20-check-crypt.ron");
}

#[test]
fn a_hidden_action_dice_move() {
    a_hidden_move_is_the_open_move_once_revealed("action-dice-knight-and-magician.ron");
}

#[test]
fn a_hidden_open_d6_move() {
    a_hidden_move_is_the_open_move_once_revealed("open-d6-fred-and-peter.ron");
}

#[test]
fn a_hidden_step_dice_move() {
    a_hidden_move_is_the_open_move_once_revealed("step-dice-vault.ron");
}

#[test]
fn a_hidden_system_file_move() {
    a_hidden_move_is_the_open_move_once_revealed("system-count-sixes.ron");
}

/// A hidden move's reveal is checked as the move would be in the open: its rights (a player's
/// own character), its faces, and the table digest it sealed; one hidden move at a time.
#[test]
fn a_hidden_moves_reveal_is_checked_as_an_open_move() {
    let (room, mv) = seated("d4-pool-goblin-ambush.ron");
    let (proof, record, said, table) = thrown(&room, &mv);
    let seal = |room: &RoomState, by: &str, table: &TableState, record: &RollRecord| {
        room.seal_throw(ToSeal {
            by,
            what: &Proposal::Move(mv.clone()),
            mode: SecretMode::Blind,
            proof: proof.clone(),
            record: record.clone(),
            said: said.clone(),
            table,
        })
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let reveal = |room: &mut RoomState, content: SealedRoll| {
        let of = room.seq;
        append(
            room,
            Event::Revealed {
                of,
                salt: content.salt,
                payload: content.payload,
            },
        )
        .err()
        .map(|e| e.code())
    };

    // Sam (a player of no one here) sealing Pat's character's move: refused at the reveal.
    let mut other = room.clone();
    join(&mut other, "Sam", Role::Player, &[]);
    let (event, content) = seal(&other, "Sam", &table, &record);
    append(&mut other, event).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reveal(&mut other, content), Some(ErrorCode::NotYourSeat));

    // Another table digest sealed (the move's effects changed): refused.
    let mut changed = room.clone();
    let (event, content) = seal(&changed, "Pat", &room.table, &record);
    append(&mut changed, event).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        reveal(&mut changed, content),
        Some(ErrorCode::EntryMismatch)
    );

    // Other faces sealed: refused.
    let mut forged = room.clone();
    let mut other_faces = record.clone();
    other_faces.throws[0].faces[0] += 1;
    let (event, content) = seal(&forged, "Pat", &table, &other_faces);
    append(&mut forged, event).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reveal(&mut forged, content), Some(ErrorCode::EntryMismatch));

    // A second hidden move while the first waits: refused.
    let mut twice = room.clone();
    let (event, _) = seal(&twice, "Pat", &table, &record);
    append(&mut twice, event.clone()).unwrap_or_else(|e| panic!("{e}"));
    let again = append(&mut twice, event).err().map(|e| e.code());
    assert_eq!(again, Some(ErrorCode::TableHeld));
}
