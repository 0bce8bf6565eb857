//! The stable codes of every error a program may meet: on the table server's protocol
//! (`error` and `refused` messages), in the roll API's answers, in the feed. Each layer's error
//! type (`RulesError`, `RollError`, `RoomError`, `ApiError`...) says its code; the text beside it
//! is for people and may change, the code does not. Clients match codes, never wording.
//! A leaf: it knows nothing of the layers that use it. `docs/errors.md` lists every code.

use serde::{Deserialize, Serialize};

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident => $text:literal,)*) => {
        /// A stable, machine-readable error code (`snake_case` on the wire).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode {
            $($(#[$doc])* $variant,)*
            /// A code this build does not know (sent by a newer peer).
            #[serde(other)]
            Other,
        }

        impl ErrorCode {
            /// Every code this build knows.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The code as written on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $text,)*
                    ErrorCode::Other => "other",
                }
            }
        }
    };
}

codes! {
    // Reading what was sent.
    /// Not JSON, or JSON of the wrong shape (an unknown or missing field).
    Malformed => "malformed",
    /// Over the size limit.
    TooLarge => "too_large",
    /// A binary WebSocket frame where JSON text was due.
    NotText => "not_text",
    /// A message of a type the protocol does not have.
    UnknownType => "unknown_type",
    /// A protocol version this server does not speak.
    ProtocolVersion => "protocol_version",
    /// A request whose fields are well formed but out of range (a colour, a name too long).
    Invalid => "invalid",
    /// A plain HTTP request to a WebSocket route.
    NotASocket => "not_a_socket",
    /// Nothing at that address.
    NotFound => "not_found",
    // Limits.
    /// Too many messages or throws in a short time.
    RateLimited => "rate_limited",
    /// Too many rolls already waiting for the table.
    QueueFull => "queue_full",
    /// No `create` or `join` within the time allowed.
    HelloTimeout => "hello_timeout",
    /// Too many wrong passcodes from this address or for this room: wait, then try again.
    BackingOff => "backing_off",
    /// The server has too much work of this kind queued: try again shortly.
    Busy => "busy",
    /// Opening a room needs the server owner's leave (its room passcode).
    RoomsClosed => "rooms_closed",
    /// This address holds as many connections as it may: close one first.
    TooManyConnections => "too_many_connections",
    /// This address opened as many rooms as it may for now.
    RoomQuota => "room_quota",
    /// The room's log holds as much as the server keeps for a room: export it and open a new
    /// room (or the server's owner raises `serve --room-quota`).
    RoomFull => "room_full",
    /// The dice did not settle in time for the answer.
    Timeout => "timeout",
    /// Exact odds too large to work out (the notation may still be thrown).
    OddsTooLarge => "odds_too_large",
    // Who may.
    /// No token, or a wrong one, where the server needs one.
    Unauthorized => "unauthorized",
    /// A page of another origin.
    ForeignOrigin => "foreign_origin",
    /// A request for another host name than the address served (DNS rebinding).
    ForeignHost => "foreign_host",
    /// A body that is not `application/json`.
    NotJson => "not_json",
    /// The wrong passcode.
    WrongPasscode => "wrong_passcode",
    /// A room's page opened without its passcode.
    PasscodeRequired => "passcode_required",
    // Rooms.
    /// A room name that is not 1 to 64 letters, digits, '-', '_' or '.', or that the pages use.
    BadRoomName => "bad_room_name",
    /// A message naming another room than its socket's.
    RoomMismatch => "room_mismatch",
    /// No room of that name on the server.
    NoRoom => "no_room",
    /// A room of that name exists already.
    RoomExists => "room_exists",
    /// Passcodes missing, or the game master's the same as the players'.
    BadPasscodes => "bad_passcodes",
    /// A scene that does not read or make sense.
    BadScene => "bad_scene",
    /// The room's task stopped: connect again.
    RoomStopped => "room_stopped",
    /// Not in the room yet: `create` or `join` first.
    NotJoined => "not_joined",
    /// Already in the room on this connection.
    AlreadyJoined => "already_joined",
    // Joining.
    /// A name that is not 1 to 40 printable characters.
    BadName => "bad_name",
    /// The game master's role asked for under another name.
    NotTheGamemaster => "not_the_gamemaster",
    /// The game master's name asked for in another role.
    NameTaken => "name_taken",
    /// Seats asked for by a game master or spectator.
    NoSeatsForRole => "no_seats_for_role",
    /// A character the scene does not have.
    NoCharacter => "no_character",
    /// A character another player plays.
    SeatTaken => "seat_taken",
    /// A name another member holds (or a look-alike of it), asked for without its key.
    NameInUse => "name_in_use",
    /// A member asking for another role than theirs.
    RoleChange => "role_change",
    /// A player asking for a character the game master plays.
    GamemasterCharacter => "gamemaster_character",
    // Who may throw what.
    /// A spectator proposing a throw.
    Spectator => "spectator",
    /// A hidden roll asked for by someone who is not the game master.
    NotGamemaster => "not_gamemaster",
    /// A player proposing one of the game master's moves.
    GamemasterMove => "gamemaster_move",
    /// A player moving a character it does not play.
    NotYourSeat => "not_your_seat",
    /// A hidden move that throws no dice (nothing to seal).
    HiddenNoDice => "hidden_no_dice",
    /// A move while the table waits for a hidden move's reveal.
    TableHeld => "table_held",
    /// A player's throw in a mode the game master does not allow, or modes without their
    /// default.
    ModeNotAllowed => "mode_not_allowed",
    // Throws.
    /// Not the commitment the server gave.
    WrongCommitment => "wrong_commitment",
    /// A nonce that is not 16 bytes of hex.
    BadNonce => "bad_nonce",
    /// A gesture with numbers out of reach.
    BadGesture => "bad_gesture",
    /// A label over 200 bytes.
    LabelTooLong => "label_too_long",
    /// A label with a control, format or line-break character.
    BadLabel => "bad_label",
    /// Too many dice for one roll.
    TooManyDice => "too_many_dice",
    /// Dice notation that does not read.
    BadNotation => "bad_notation",
    /// Dice notation that throws no dice.
    NoDice => "no_dice",
    /// A die no physical die makes (a d31).
    NoSuchDie => "no_such_die",
    /// The rules do not allow the move now.
    RulesRefused => "rules_refused",
    /// A move of another ruleset than the table's.
    OtherRuleset => "other_ruleset",
    /// Faces that do not fit the dice asked for.
    BadFaces => "bad_faces",
    /// An end of turn at a table that moves on by itself.
    NoTurnToEnd => "no_turn_to_end",
    /// More throws than one roll may take.
    TooManyThrows => "too_many_throws",
    /// A throw of other dice than the roll asked for.
    OtherDice => "other_dice",
    /// A throw not seeded as its roll gives it.
    OtherSeed => "other_seed",
    /// A record with fewer throws than its roll asks for.
    MissingThrow => "missing_throw",
    /// Faces fed to a roll that is over.
    RollOver => "roll_over",
    /// The physics could not finish the throw.
    ThrowFailed => "throw_failed",
    /// A throw that re-simulates differently here.
    Differs => "differs",
    /// Nothing to throw: no scene is seated in the window.
    NoScene => "no_scene",
    /// A seed asked of a window at a table server's room (`play --join`): the room's server
    /// seeds its throws.
    AtARoom => "at_a_room",
    /// A roll mode asked of a window at no room.
    NotAtARoom => "not_at_a_room",
    /// The window closed.
    TableClosed => "table_closed",
    /// The window's table changed while the roll API rolled its drafted move: nothing applied.
    TableChanged => "table_changed",
    // Hidden rolls.
    /// A reveal of an entry that is not a hidden roll.
    NotHidden => "not_hidden",
    /// A reveal of someone else's hidden roll.
    NotYours => "not_yours",
    /// A reveal of a roll revealed already.
    AlreadyRevealed => "already_revealed",
    // The log.
    /// A log line out of its place, or not chained to the one before.
    BrokenChain => "broken_chain",
    /// A log without entries.
    EmptyLog => "empty_log",
    /// An entry that is not as the server should have made it (a forged or broken log).
    EntryMismatch => "entry_mismatch",
    /// The log store failed.
    StoreFailed => "store_failed",
    /// The log store cannot be reached for now (NATS away, a new leader being chosen): nothing
    /// was stored; try again shortly.
    StoreUnavailable => "store_unavailable",
    /// Another table server wrote to the room first.
    Raced => "raced",
    /// The server failed at something that is not the request's fault.
    Internal => "internal",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_snake_case_on_the_wire_and_unknown_ones_read_as_other() {
        for &code in ErrorCode::ALL {
            let json = serde_json::to_string(&code).expect("serialises");
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            assert_eq!(serde_json::from_str::<ErrorCode>(&json).ok(), Some(code));
            assert!(
                code.as_str()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_'),
                "{code}"
            );
        }
        assert_eq!(
            serde_json::from_str::<ErrorCode>("\"from_the_future\"").ok(),
            Some(ErrorCode::Other)
        );
    }

    #[test]
    fn every_code_is_documented() {
        let page = include_str!("../docs/errors.md");
        let missing: Vec<&str> = ErrorCode::ALL
            .iter()
            .map(|c| c.as_str())
            .filter(|c| !page.contains(&format!("| `{c}` |")))
            .collect();
        assert!(missing.is_empty(), "not in docs/errors.md: {missing:?}");
    }
}
