//! The table server's messages: JSON text frames over a WebSocket, one message each, tagged by
//! `type`. Versioned (`v` in `create`, `join` and `welcome`). The decoder checks size first and
//! refuses unknown types and fields with a message that says what is wrong. Every `error` and
//! `refused` carries a stable `code` beside its text: clients match the code.

use serde::{Deserialize, Serialize};

use super::log::{Proposal, Role, RollMode, SecretMode};
use crate::errors::ErrorCode;
use crate::online::room::Tracker;
use crate::record::Gesture;
use crate::rules::RefusalKind;
use crate::rules::catalogue::{Field, KindView};
use crate::rules::play::Move;

/// The protocol version (2: `error` and `refused` carry a `code`; 3: a member's name is held
/// by a key given in `welcome` and shown in later `join`s, and `create` may carry the server's
/// room passcode).
pub const PROTOCOL: u32 = 3;
/// The largest message a client may send, bytes (a scene file fits many times).
pub const MAX_MESSAGE: usize = 64 * 1024;
/// The longest name a member takes, bytes (40 letters of the Latin alphabet; fewer of a script
/// of longer letters).
pub const NAME_BYTES: usize = 40;
/// The longest label of a throw, bytes.
pub const LABEL_BYTES: usize = crate::text::LABEL_BYTES;
/// The longest room name, bytes (letters, digits, `-`, `_` and `.`).
pub const ROOM_NAME_BYTES: usize = 64;

/// What a client says.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Opens a room with a scene; the sender is its game master.
    Create {
        /// The protocol version.
        v: u32,
        /// The room's name.
        room: String,
        /// The game master's name.
        name: String,
        /// The scene file's text (RON).
        scene: String,
        /// The passcode players and spectators join with.
        passcode: String,
        /// The passcode the game master comes back with.
        gm_passcode: String,
        /// The server's passcode for opening rooms, where its owner set one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room_passcode: Option<String>,
    },
    /// Joins (or comes back to) a room.
    Join {
        /// The protocol version.
        v: u32,
        /// The room's name.
        room: String,
        /// Who.
        name: String,
        /// As what.
        role: Role,
        /// The characters a player plays (by name).
        #[serde(default)]
        seats: Vec<String>,
        /// The room's passcode (the game master's own for the game master).
        passcode: String,
        /// The last entry the client has (0: none): the rest is sent.
        #[serde(default)]
        since: u64,
        /// The key `welcome` gave when the name was first taken (hex): needed to come back
        /// under the name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
    /// Proposes a throw: a move of the scene or a free roll.
    Throw {
        /// The client's number for the answer.
        id: u64,
        /// What to throw.
        what: Proposal,
        /// The commitment the client was given (it saw it before choosing its gesture).
        commitment: String,
        /// The client's random nonce, hex of 16 bytes.
        nonce: String,
        /// The hand's swing (None: drawn from the seed).
        #[serde(default)]
        gesture: Option<Gesture>,
        /// A hidden roll (a move or a free roll): only its roller sees it until it is
        /// revealed, unless `mode` says who else. A hidden move holds the table until then.
        #[serde(default)]
        hidden: bool,
        /// Who sees a hidden roll before the reveal: `self` (its roller), `gamemaster` (its
        /// roller and the game master) or `blind` (the game master alone). Given, the roll is
        /// hidden.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mode: Option<SecretMode>,
        /// What it is for.
        #[serde(default)]
        label: Option<String>,
    },
    /// Shows a hidden roll to everyone.
    Reveal {
        /// The client's number for the answer.
        id: u64,
        /// The hidden roll's `seq`.
        of: u64,
    },
    /// The game master shows every hidden roll not yet revealed (a session's end): each one's
    /// reveal in the log, oldest first; the ack names the last.
    RevealAll {
        /// The client's number for the answer.
        id: u64,
    },
    /// The game master seats a member: another role, other characters (a member keeps its
    /// role otherwise).
    Seat {
        /// The client's number for the answer.
        id: u64,
        /// The member.
        name: String,
        /// Its role from now on (player or spectator).
        role: Role,
        /// The characters it plays (players).
        #[serde(default)]
        seats: Vec<String>,
    },
    /// The game master sets the room's roll modes: the default each member's form starts at,
    /// and the modes players may use (a `modes` entry in the log).
    Modes {
        /// The client's number for the answer.
        id: u64,
        /// The room's default.
        default: RollMode,
        /// The modes players may use, each once; the default among them.
        players: Vec<RollMode>,
    },
    /// The member chooses its own dice, or a character's it plays (the game master any
    /// character's): a `dice` entry in the log.
    Dice {
        /// The client's number for the answer.
        id: u64,
        /// The character whose dice these are (absent: the member's own).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        character: Option<String>,
        /// The look (null: back to the room's own dice).
        look: Option<crate::dice::style::DiceLook>,
    },
    /// Asks what the member may do now: the move catalogue, the fields of `what` (or of the
    /// first move it may make) and the rules' verdict; the exact odds follow in `draft_odds`.
    Draft {
        /// The client's number for the answer.
        id: u64,
        /// The move being drafted (None: the first the member may make).
        #[serde(default)]
        what: Option<Move>,
        /// The table moved on: a draft it no longer allows gives way to one it does.
        #[serde(default)]
        fresh: bool,
    },
    /// Asks for a `pong`.
    Ping {
        /// The client's number for the answer.
        id: u64,
    },
}

/// What the server says.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMsg {
    /// In the room: who you are, your first commitment, how long the log is.
    Welcome {
        /// The protocol version.
        v: u32,
        /// The room.
        room: String,
        /// You.
        name: String,
        /// Your role.
        role: Role,
        /// Your characters.
        seats: Vec<String>,
        /// The commitment to the secret of your next throw.
        commitment: String,
        /// The log's last `seq` when you joined (entries up to it follow).
        head: u64,
        /// The key to your name, when this join took it: keep it, show it to come back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
    /// The next log line, in order.
    Entry {
        /// The line, exactly as stored.
        line: String,
        /// A free roll's dice written out as the server reads the line's record
        /// (`(~2~5+6★+6★) = 17`: rerolls struck, explosions, successes), for a page to show
        /// without a notation reader of its own. Display only: what a client checks is the line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shown: Option<String>,
    },
    /// A proposal stored as entry `seq`; the commitment for the next throw.
    Ack {
        /// The proposal's `id`.
        id: u64,
        /// Its entry.
        seq: u64,
        /// The commitment to the secret of your next throw.
        commitment: String,
    },
    /// The content of a hidden roll you may see (your own, unless it is blind; any the game
    /// master may see, to the game master), sent once it is thrown and again on each join.
    Sealed {
        /// The hidden roll's entry.
        seq: u64,
        /// The seal's salt.
        salt: String,
        /// The sealed text.
        payload: String,
    },
    /// A proposal refused, with the reason; nothing was logged.
    Refused {
        /// The proposal's `id`.
        id: u64,
        /// Why, for programs.
        code: ErrorCode,
        /// Why, in words.
        reason: String,
        /// The kind of the rules' refusal, where the rules refused (code `rules_refused`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refusal_kind: Option<RefusalKind>,
    },
    /// A message that could not be read or done; the connection stays usable.
    Error {
        /// What is wrong, for programs.
        code: ErrorCode,
        /// What is wrong, in words.
        message: String,
        /// Where waiting helps (`busy`, `backing_off`): how long to wait before asking again,
        /// in ms. Clients send a `busy` join again by themselves after it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<u64>,
    },
    /// The answer to a `draft`: the kinds of move (each with why not, where the member may
    /// not make it now), the draft, its fields and the room's verdict on it.
    Moves {
        /// The `draft`'s `id`.
        id: u64,
        /// Every kind of move of the table's ruleset.
        kinds: Vec<KindView>,
        /// The draft's kind.
        kind: Option<usize>,
        /// The draft (boxed: a move is large beside the other messages).
        draft: Box<Move>,
        /// Its fields, with the choices the table offers now.
        fields: Vec<Field>,
        /// Why the room would refuse it (None: it would throw it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<Refusal>,
        /// The draft's description, for people.
        describe: String,
        /// The turn tracker as the table stands.
        tracker: Tracker,
    },
    /// The exact odds of a drafted move, once worked out (after its `moves`).
    DraftOdds {
        /// The `draft`'s `id`.
        id: u64,
        /// The odds, as `odds --json` prints them (None: the move throws nothing).
        odds: Option<serde_json::Value>,
        /// Why there are none, where they could not be worked out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// The answer to a ping.
    Pong {
        /// The ping's `id`.
        id: u64,
    },
}

impl ServerMsg {
    /// The message as a text frame.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Why the room would refuse a draft: as a `refused` would say it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    /// Why, for programs.
    pub code: ErrorCode,
    /// Why, in words.
    pub reason: String,
    /// The kind of the rules' refusal, where the rules refused (code `rules_refused`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal_kind: Option<RefusalKind>,
}

/// A message that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Over [`MAX_MESSAGE`] bytes.
    #[error("a message of {0} bytes (at most {MAX_MESSAGE})")]
    TooLarge(usize),
    /// A `type` the protocol does not have.
    #[error("unknown message type: {0} (create, join, throw, reveal, ping)")]
    UnknownType(String),
    /// Not JSON, or the wrong fields.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// A protocol version this build does not speak.
    #[error("protocol version {0} is not spoken here (this server speaks {PROTOCOL})")]
    Version(u32),
    /// The server's message does not read (the client's side).
    #[error("the server sent something unreadable: {0}")]
    Unreadable(String),
}

impl DecodeError {
    /// The stable code of the error.
    pub fn code(&self) -> ErrorCode {
        match self {
            DecodeError::TooLarge(_) => ErrorCode::TooLarge,
            DecodeError::UnknownType(_) => ErrorCode::UnknownType,
            DecodeError::Malformed(_) | DecodeError::Unreadable(_) => ErrorCode::Malformed,
            DecodeError::Version(_) => ErrorCode::ProtocolVersion,
        }
    }
}

/// The `type` of a message, read on its own: a JSON object's `type` field, if it is text.
fn message_type(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Typed {
        #[serde(rename = "type")]
        kind: String,
    }
    serde_json::from_str::<Typed>(text).ok().map(|t| t.kind)
}

/// Reads a client's message: its size, its JSON, its type and fields; says what is wrong.
pub fn decode(text: &str) -> Result<ClientMsg, DecodeError> {
    if text.len() > MAX_MESSAGE {
        return Err(DecodeError::TooLarge(text.len()));
    }
    let msg: ClientMsg = serde_json::from_str(text).map_err(|e| {
        const TYPES: [&str; 8] = [
            "create",
            "join",
            "throw",
            "reveal",
            "reveal_all",
            "seat",
            "draft",
            "ping",
        ];
        match message_type(text) {
            Some(kind) if !TYPES.contains(&kind.as_str()) => {
                DecodeError::UnknownType(e.to_string())
            }
            _ => DecodeError::Malformed(crate::rules::data::json_error(&e)),
        }
    })?;
    match &msg {
        ClientMsg::Create { v, .. } | ClientMsg::Join { v, .. } if *v != PROTOCOL => {
            Err(DecodeError::Version(*v))
        }
        _ => Ok(msg),
    }
}

/// Which side's messages a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// What a client (a page, the window) sends: [`ClientMsg`].
    Client,
    /// What the server sends: [`ServerMsg`].
    Server,
}

impl Side {
    /// The file the schema is published as (`docs/protocol/`) and served at (`/protocol/`).
    pub fn file(self) -> &'static str {
        match self {
            Side::Client => "client.schema.json",
            Side::Server => "server.schema.json",
        }
    }
}

/// The JSON Schema (draft 2020-12) of one side's messages, made from their Rust types: the
/// written contract every client speaks (published in `docs/protocol/`, served at
/// `/protocol/`, checked against the pages' real messages by the browser tests).
pub fn schema(side: Side) -> String {
    let mut schema = match side {
        Side::Client => schemars::schema_for!(ClientMsg),
        Side::Server => schemars::schema_for!(ServerMsg),
    };
    let (what, from) = match side {
        Side::Client => ("what a client sends", "ClientMsg"),
        Side::Server => ("what the server sends", "ServerMsg"),
    };
    schema.insert(
        "title".into(),
        format!("dicetable room protocol {PROTOCOL}: {what}").into(),
    );
    schema.insert(
        "description".into(),
        format!(
            "One JSON text frame a message over the room's WebSocket. Made from the Rust \
             type online::protocol::{from}; docs/online.md says what each message does."
        )
        .into(),
    );
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// Reads a server's message (the client's side).
pub fn decode_server(text: &str) -> Result<ServerMsg, DecodeError> {
    serde_json::from_str(text).map_err(|e| DecodeError::Unreadable(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published schemas are the ones the types make (regenerate with
    /// `DICETABLE_WRITE_SCHEMA=1 cargo test --lib published_schemas`).
    #[test]
    fn the_published_schemas_are_the_types() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/protocol");
        for side in [Side::Client, Side::Server] {
            let path = dir.join(side.file());
            let made = schema(side);
            if std::env::var_os("DICETABLE_WRITE_SCHEMA").is_some() {
                std::fs::create_dir_all(&dir).expect("dir");
                std::fs::write(&path, &made).expect("written");
            }
            let published = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                published == made,
                "{} is not what the types make: DICETABLE_WRITE_SCHEMA=1 cargo test --lib \
                 published_schemas",
                path.display()
            );
        }
    }

    #[test]
    fn messages_read_and_bad_ones_say_why() {
        let m = decode(r#"{"type":"ping","id":7}"#).expect("ping");
        assert_eq!(m, ClientMsg::Ping { id: 7 });
        let t = decode(
            r#"{"type":"throw","id":1,"what":{"notation":"2d6"},"commitment":"c","nonce":"n"}"#,
        )
        .expect("throw");
        assert!(
            matches!(t, ClientMsg::Throw { what: Proposal::Notation(ref n), hidden: false, .. } if n == "2d6")
        );
        let e = decode(r#"{"type":"dance"}"#).expect_err("unknown");
        assert_eq!(e.code(), ErrorCode::UnknownType);
        assert!(
            e.to_string()
                .starts_with("unknown message type: unknown variant `dance`"),
            "{e}"
        );
        let e = decode(r#"{"type":"ping","id":1,"x":2}"#).expect_err("field");
        assert_eq!(e.code(), ErrorCode::Malformed);
        assert!(
            e.to_string()
                .starts_with("malformed message: no field `x`; the fields are `id`"),
            "{e}"
        );
        // A misspelt field of a move is refused by name, never ignored (`zone` would leave a
        // dive for cover without its zone).
        let e = decode(
            r#"{"type":"throw","id":1,"what":{"move":{"ActionDice":{"DiveForCover":
                {"actor":0,"action_dice":1,"against":1,"zone":3}}}},"commitment":"c","nonce":"n"}"#,
        )
        .expect_err("a misspelt field");
        assert_eq!(e.code(), ErrorCode::Malformed);
        assert!(
            e.to_string()
                .starts_with("malformed message: no field `zone`; did you mean `zone_m`?"),
            "{e}"
        );
        let e = decode("{").expect_err("json");
        assert!(e.to_string().starts_with("malformed message: EOF"), "{e}");
        let e = decode(&" ".repeat(MAX_MESSAGE + 1)).expect_err("size");
        assert_eq!(e, DecodeError::TooLarge(65537));
        assert_eq!(e.to_string(), "a message of 65537 bytes (at most 65536)");
        let e =
            decode(r#"{"type":"join","v":1,"room":"r","name":"n","role":"player","passcode":"p"}"#)
                .expect_err("version");
        assert_eq!(e.code(), ErrorCode::ProtocolVersion);
        assert_eq!(
            e.to_string(),
            "protocol version 1 is not spoken here (this server speaks 3)"
        );
    }

    #[test]
    fn a_draft_reads_with_or_without_a_move_and_its_answer_is_read_back() {
        assert_eq!(
            decode(r#"{"type":"draft","id":4}"#).expect("draft"),
            ClientMsg::Draft {
                id: 4,
                what: None,
                fresh: false
            }
        );
        let d = decode(r#"{"type":"draft","id":5,"what":{"StepDice":"EndTurn"},"fresh":true}"#)
            .expect("draft of a move");
        assert_eq!(
            d,
            ClientMsg::Draft {
                id: 5,
                what: Some(Move::StepDice(crate::rules::step_dice::seat::Move::EndTurn)),
                fresh: true
            }
        );
        let e = decode(r#"{"type":"draft","id":6,"what":{"StepDice":"Dance"}}"#)
            .expect_err("no such move");
        assert_eq!(e.code(), ErrorCode::Malformed);
        let moves = ServerMsg::Moves {
            id: 5,
            kinds: vec![],
            kind: None,
            draft: Box::new(Move::StepDice(crate::rules::step_dice::seat::Move::EndTurn)),
            fields: vec![],
            refused: Some(Refusal {
                code: ErrorCode::GamemasterMove,
                reason: "only the game master makes this move (Ana ends the turn)".into(),
                refusal_kind: None,
            }),
            describe: "Ana ends the turn".into(),
            tracker: Tracker {
                heading: "Round 1: Ana's turn".into(),
                rows: vec![],
                notes: vec![],
            },
        };
        let text = moves.to_text();
        assert_eq!(
            text,
            r#"{"type":"moves","id":5,"kinds":[],"kind":null,"draft":{"StepDice":"EndTurn"},"fields":[],"refused":{"code":"gamemaster_move","reason":"only the game master makes this move (Ana ends the turn)"},"describe":"Ana ends the turn","tracker":{"heading":"Round 1: Ana's turn","rows":[],"notes":[]}}"#
        );
        assert_eq!(
            serde_json::from_str::<ServerMsg>(&text).expect("reads back"),
            moves
        );
    }
}
