//! Why a room refuses a join or a proposal, or a log line does not apply.

use crate::errors::ErrorCode;
use crate::online::log::{LogError, Role};
use crate::online::seal::HexError;
use crate::roll::RollError;

/// Why a room refuses something, or a line of its log does not check. The text is for people;
/// [`RoomError::code`] is for programs.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RoomError {
    /// The line does not read or chain.
    #[error(transparent)]
    Log(#[from] LogError),
    /// The log does not start with a `created` entry.
    #[error("the log's first entry does not open a room")]
    NotOpened,
    /// A second `created` entry.
    #[error("a second 'created' entry")]
    OpenedTwice,
    /// A log format this build does not read.
    #[error("log format {found} is not known to this build (it reads 1 to {known})")]
    Format {
        /// The log's format.
        found: u32,
        /// This build's.
        known: u32,
    },
    /// The room's scene does not read or make sense.
    #[error("{0}")]
    Scene(String),
    /// The name is empty, too long or unprintable.
    #[error("a name is 1 to 40 printable characters")]
    BadName,
    /// The game master's role asked for under another name.
    #[error("{0} is the game master of this room; join as a player or spectator")]
    NotTheGamemaster(String),
    /// The game master's name asked for in another role.
    #[error("{0} is this room's game master")]
    NameTaken(String),
    /// A game master or spectator asking for seats.
    #[error("a {0} takes no seats")]
    NoSeatsForRole(Role),
    /// A character the scene does not have.
    #[error("there is no character '{name}' in {scene} (the cast: {cast})")]
    NoCharacter {
        /// The name asked for.
        name: String,
        /// The scene.
        scene: String,
        /// Its characters, in seat order.
        cast: String,
    },
    /// A character another player plays.
    #[error("{character} is already played by {by}")]
    SeatTaken {
        /// The character.
        character: String,
        /// Who plays it.
        by: String,
    },
    /// A name another member holds (the same, or one that looks the same).
    #[error(
        "'{0}' is taken in this room: join under it with its key (the window that took it keeps it), or choose another name"
    )]
    NameInUse(String),
    /// A member asking for another role than theirs.
    #[error("{name} is in this room as a {role}: only the game master can change that")]
    RoleChange {
        /// The member.
        name: String,
        /// Their role.
        role: Role,
    },
    /// Someone other than the game master seating a member.
    #[error("only the game master seats members")]
    NotSeater,
    /// A player asking for a character the game master plays.
    #[error("{0} is played by the game master")]
    GamemasterCharacter(String),
    /// Someone not in the room.
    #[error("{0} has not joined this room")]
    NotJoined(String),
    /// A spectator proposing a throw.
    #[error("a spectator watches; it does not throw")]
    Spectator,
    /// A player proposing the game master's move.
    #[error("only the game master makes this move ({0})")]
    GamemasterMove(String),
    /// A player moving a character it does not play.
    #[error("{by} does not play {character}")]
    NotYourSeat {
        /// The player.
        by: String,
        /// The character.
        character: String,
    },
    /// A hidden move that throws no dice: nothing to seal.
    #[error("{0} throws no dice: there is nothing to hide, so it is made in the open")]
    HiddenNoDice(String),
    /// A player's throw in a mode the game master does not let players use.
    #[error("players may not roll {0} in this room: the game master set the modes players may use")]
    ModeNotAllowed(&'static str),
    /// Roll modes without their default, or with none or one twice.
    #[error("the default mode ({0}) must be one of the modes players may use, each listed once")]
    DefaultNotAllowed(&'static str),
    /// Someone other than the game master setting the roll modes.
    #[error("only the game master sets the room's roll modes")]
    NotModeSetter,
    /// A move while the table waits for a hidden move's reveal.
    #[error(
        "the table waits for hidden move {0}: its outcome is the table's next state, so the game master (or its roller, for a roll only they see) reveals it before anyone moves; free rolls go on"
    )]
    TableHeld(u64),
    /// The roll path refuses (the rules, the notation, the dice, the physics).
    #[error(transparent)]
    Roll(#[from] RollError),
    /// A reveal of an entry that is not a hidden roll.
    #[error("entry {0} is not a hidden roll")]
    NotHidden(u64),
    /// A reveal of someone else's hidden roll.
    #[error("only {0} can reveal that roll")]
    NotYours(String),
    /// A reveal of a roll shown already.
    #[error("the hidden roll {0} is revealed already")]
    AlreadyRevealed(u64),
    /// A reveal of every hidden roll when none is left sealed.
    #[error("no hidden roll is left to reveal")]
    NoneSealed,
    /// A page asking for the dice of a hidden roll with a salt that is not the roll's.
    #[error(
        "that is not the salt of hidden roll {0}: only a page whose member sees it draws its dice"
    )]
    NotShown(u64),
    /// A proposal's nonce that is not 16 bytes of hex.
    #[error(transparent)]
    Hex(#[from] HexError),
    /// A gesture with numbers out of reach.
    #[error("a gesture is six finite numbers of at most 10000 (cm, cm/s)")]
    BadGesture,
    /// A gesture no hand over the tray makes.
    #[error(
        "a throw's hand opens over the tray (at most 7.5 cm from its middle along it, 2 cm across, 4 to 24 cm up) and moves at most 300 cm/s"
    )]
    OutOfReach,
    /// An entry that is not as the server should have made it: what differs.
    #[error("{0}")]
    Mismatch(String),
    /// One of the above, at an entry of the log.
    #[error("entry {seq}: {error}")]
    AtEntry {
        /// The entry's `seq`.
        seq: u64,
        /// What is wrong with it.
        error: Box<RoomError>,
    },
}

impl RoomError {
    /// The stable code of the error.
    pub fn code(&self) -> ErrorCode {
        match self {
            RoomError::Log(e) => e.code(),
            RoomError::NotOpened
            | RoomError::OpenedTwice
            | RoomError::Format { .. }
            | RoomError::Mismatch(_) => ErrorCode::EntryMismatch,
            RoomError::Scene(_) => ErrorCode::BadScene,
            RoomError::BadName => ErrorCode::BadName,
            RoomError::NotTheGamemaster(_) => ErrorCode::NotTheGamemaster,
            RoomError::NameTaken(_) => ErrorCode::NameTaken,
            RoomError::NoSeatsForRole(_) => ErrorCode::NoSeatsForRole,
            RoomError::NoCharacter { .. } => ErrorCode::NoCharacter,
            RoomError::SeatTaken { .. } => ErrorCode::SeatTaken,
            RoomError::NotJoined(_) => ErrorCode::NotJoined,
            RoomError::NameInUse(_) => ErrorCode::NameInUse,
            RoomError::RoleChange { .. } => ErrorCode::RoleChange,
            RoomError::GamemasterCharacter(_) => ErrorCode::GamemasterCharacter,
            RoomError::NotSeater => ErrorCode::NotGamemaster,
            RoomError::Spectator => ErrorCode::Spectator,
            RoomError::GamemasterMove(_) => ErrorCode::GamemasterMove,
            RoomError::NotYourSeat { .. } => ErrorCode::NotYourSeat,
            RoomError::HiddenNoDice(_) => ErrorCode::HiddenNoDice,
            RoomError::TableHeld(_) => ErrorCode::TableHeld,
            RoomError::ModeNotAllowed(_) | RoomError::DefaultNotAllowed(_) => {
                ErrorCode::ModeNotAllowed
            }
            RoomError::NotModeSetter => ErrorCode::NotGamemaster,
            RoomError::Roll(e) => e.code(),
            RoomError::NotHidden(_) | RoomError::NoneSealed => ErrorCode::NotHidden,
            RoomError::NotYours(_) | RoomError::NotShown(_) => ErrorCode::NotYours,
            RoomError::AlreadyRevealed(_) => ErrorCode::AlreadyRevealed,
            RoomError::Hex(_) => ErrorCode::BadNonce,
            RoomError::BadGesture | RoomError::OutOfReach => ErrorCode::BadGesture,
            RoomError::AtEntry { error, .. } => error.code(),
        }
    }

    /// The kind of a rules' refusal, where the rules refused (`refusal_kind` on the wire).
    pub fn refusal_kind(&self) -> Option<crate::rules::RefusalKind> {
        match self {
            RoomError::Roll(e) => e.refusal_kind(),
            RoomError::AtEntry { error, .. } => error.refusal_kind(),
            _ => None,
        }
    }
}

impl From<crate::rules::RulesError> for RoomError {
    fn from(e: crate::rules::RulesError) -> Self {
        RoomError::Roll(e.into())
    }
}

impl From<crate::odds::notation::NotationError> for RoomError {
    fn from(e: crate::odds::notation::NotationError) -> Self {
        RoomError::Roll(e.into())
    }
}
