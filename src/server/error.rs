//! Why the table server refuses a message, a join or a proposal: every refusal it sends carries
//! the error's stable code ([`ServerError::code`]) beside its text.

use super::store::StoreError;
use crate::errors::ErrorCode;
use crate::net::auth::PasscodeError;
use crate::online::protocol::DecodeError;
use crate::online::room::RoomError;

/// Why the table server refuses something.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ServerError {
    /// The message does not read.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The room refuses (rights, rules, the roll).
    #[error(transparent)]
    Room(#[from] RoomError),
    /// The log store failed (or another server took the place: [`ServerError::Raced`]).
    #[error(transparent)]
    Store(StoreError),
    /// A passcode could not be hashed.
    #[error(transparent)]
    Passcode(#[from] PasscodeError),
    /// A room name the pages use.
    #[error("'{0}' is a name the room pages use: choose another room name")]
    ReservedRoomName(String),
    /// A room name that is not a plain path segment.
    #[error(
        "'{0}' is not a room name: 1 to {most} letters, digits, '-', '_' or '.'",
        most = crate::online::protocol::ROOM_NAME_BYTES
    )]
    BadRoomName(String),
    /// A hello naming another room than its socket's.
    #[error("this socket is room '{socket}', the message names '{named}'")]
    RoomMismatch {
        /// The socket's room.
        socket: String,
        /// The message's.
        named: String,
    },
    /// No room of that name.
    #[error("there is no room '{0}' on this server")]
    NoRoom(String),
    /// A room of that name exists.
    #[error("a room named '{0}' exists already")]
    RoomExists(String),
    /// The wrong passcode.
    #[error("wrong passcode")]
    WrongPasscode,
    /// A room's page opened without a passcode.
    #[error("this room's page needs the passcode: add #passcode=… to its address")]
    PasscodeRequired,
    /// A room opened without both passcodes.
    #[error("a room needs a passcode and a game master's passcode")]
    MissingPasscodes,
    /// The game master's passcode the same as the players'.
    #[error("the game master's passcode must differ from the players'")]
    SamePasscodes,
    /// The scene does not read or make sense.
    #[error("{0}")]
    Scene(String),
    /// The room's task stopped.
    #[error("the room stopped; connect again")]
    RoomStopped,
    /// A proposal before `create` or `join`.
    #[error("say create or join first")]
    NotJoined,
    /// No hello in time.
    #[error("say create or join first ({} s)", super::limits::HELLO_TIMEOUT.as_secs())]
    HelloTimeout,
    /// A binary frame.
    #[error("messages are JSON text")]
    NotText,
    /// Too many messages on one connection.
    #[error("too many messages: at most {} a second", super::limits::CONN_RATE)]
    TooManyMessages,
    /// Too many throws in one room.
    #[error(
        "the room is busy: at most {} throws a second",
        super::limits::ROOM_RATE
    )]
    RoomBusy,
    /// A second hello on one connection.
    #[error("already in the room: open another connection to join again")]
    AlreadyJoined,
    /// Not the commitment the server gave this connection.
    #[error("that is not the commitment you were given; use {0}")]
    WrongCommitment(String),
    /// A label over [`crate::online::protocol::LABEL_BYTES`].
    #[error("a label is at most {} bytes", crate::online::protocol::LABEL_BYTES)]
    LabelTooLong,
    /// A label with a character that cannot be shown as it is.
    #[error(
        "a label may not hold control, format or line-break characters (escape codes, direction overrides, newlines)"
    )]
    BadLabel,
    /// A hidden roll whose content the store does not have.
    #[error("the content of hidden roll {0} is not in the store")]
    SealedMissing(u64),
    /// A stored log that does not replay.
    #[error("the room's log does not replay: {0}")]
    BrokenLog(RoomError),
    /// An entry the server made that its own room does not accept.
    #[error("the server made an entry it cannot apply: {0}")]
    BadEntry(RoomError),
    /// Another table server stored that place first.
    #[error("another table server wrote to the room first: propose again")]
    Raced,
    /// The server's own work failed (a task, a lock).
    #[error("{0}")]
    Internal(String),
    /// Too many wrong passcodes from this address or at this room.
    #[error("too many wrong passcodes: wait {0} s, then try again")]
    BackingOff(u64),
    /// Opening a room needs the owner's leave.
    #[error(
        "this server opens rooms for its owner only: ask them for its room passcode (serve --room-passcode), or to open rooms to all (serve --open-rooms)"
    )]
    RoomsClosed,
    /// The client's share of the server's work is taken (`crate::work`).
    #[error(transparent)]
    Work(#[from] crate::work::WorkError),
    /// The address opened its rooms for the hour.
    #[error("this address opened {0} rooms in the last hour: wait, or use one of them")]
    RoomQuota(usize),
    /// The room's log holds its quota: nothing more is taken but reveals.
    #[error(
        "this room's log is full ({}, the most this server keeps for a room): export it (dicetable serve --export ROOM) and open a new room with its scene, or ask the server's owner for a larger --room-quota",
        size(*.0)
    )]
    RoomFull(u64),
    /// An entry longer than a log line may be (no scene makes one; a refusal, never a line
    /// readers would refuse).
    #[error("the entry would be {0} bytes, over the {most} a log line may hold", most = crate::online::log::MAX_LINE)]
    EntryTooLarge(usize),
}

impl ServerError {
    /// The HTTP status of the error, where an HTTP request meets it (a room's cast).
    pub fn http_status(&self) -> axum::http::StatusCode {
        use axum::http::StatusCode;
        match self {
            ServerError::NoRoom(_) => StatusCode::NOT_FOUND,
            ServerError::WrongPasscode | ServerError::PasscodeRequired => StatusCode::FORBIDDEN,
            ServerError::BackingOff(_)
            | ServerError::TooManyMessages
            | ServerError::RoomBusy
            | ServerError::Work(crate::work::WorkError::Busy { .. }) => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ServerError::Passcode(PasscodeError::Busy { .. })
            | ServerError::RoomStopped
            | ServerError::Store(StoreError::Unavailable(_)) => StatusCode::SERVICE_UNAVAILABLE,
            ServerError::Store(_)
            | ServerError::Passcode(_)
            | ServerError::Internal(_)
            | ServerError::BrokenLog(_)
            | ServerError::BadEntry(_)
            | ServerError::SealedMissing(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// The stable code of the error.
    pub fn code(&self) -> ErrorCode {
        match self {
            ServerError::Decode(e) => e.code(),
            ServerError::Work(e) => e.code(),
            ServerError::Room(e) => e.code(),
            ServerError::Store(StoreError::Unavailable(_)) => ErrorCode::StoreUnavailable,
            ServerError::Store(_) => ErrorCode::StoreFailed,
            ServerError::Passcode(PasscodeError::Busy { .. }) => ErrorCode::Busy,
            ServerError::Passcode(_) | ServerError::Internal(_) => ErrorCode::Internal,
            ServerError::ReservedRoomName(_) | ServerError::BadRoomName(_) => {
                ErrorCode::BadRoomName
            }
            ServerError::RoomMismatch { .. } => ErrorCode::RoomMismatch,
            ServerError::NoRoom(_) => ErrorCode::NoRoom,
            ServerError::RoomExists(_) => ErrorCode::RoomExists,
            ServerError::WrongPasscode => ErrorCode::WrongPasscode,
            ServerError::PasscodeRequired => ErrorCode::PasscodeRequired,
            ServerError::MissingPasscodes | ServerError::SamePasscodes => ErrorCode::BadPasscodes,
            ServerError::Scene(_) => ErrorCode::BadScene,
            ServerError::RoomStopped => ErrorCode::RoomStopped,
            ServerError::NotJoined => ErrorCode::NotJoined,
            ServerError::HelloTimeout => ErrorCode::HelloTimeout,
            ServerError::NotText => ErrorCode::NotText,
            ServerError::TooManyMessages | ServerError::RoomBusy => ErrorCode::RateLimited,
            ServerError::AlreadyJoined => ErrorCode::AlreadyJoined,
            ServerError::WrongCommitment(_) => ErrorCode::WrongCommitment,
            ServerError::LabelTooLong => ErrorCode::LabelTooLong,
            ServerError::BadLabel => ErrorCode::BadLabel,
            ServerError::SealedMissing(_) => ErrorCode::StoreFailed,
            ServerError::BrokenLog(_) | ServerError::BadEntry(_) => ErrorCode::EntryMismatch,
            ServerError::Raced => ErrorCode::Raced,
            ServerError::BackingOff(_) => ErrorCode::BackingOff,
            ServerError::RoomsClosed => ErrorCode::RoomsClosed,
            ServerError::RoomQuota(_) => ErrorCode::RoomQuota,
            ServerError::RoomFull(_) => ErrorCode::RoomFull,
            ServerError::EntryTooLarge(_) => ErrorCode::TooLarge,
        }
    }

    /// How long to wait before asking again, where waiting helps (`retry_after_ms` on the
    /// wire): the server's share for the address is taken for now (`busy`), or it backs off
    /// after wrong passcodes (`backing_off`). Clients retry `busy` by themselves.
    pub fn retry_after(&self) -> Option<std::time::Duration> {
        match self {
            ServerError::Work(e) => e.retry_after(),
            ServerError::Passcode(e) => e.retry_after(),
            ServerError::BackingOff(secs) => Some(std::time::Duration::from_secs(*secs)),
            _ => None,
        }
    }

    /// [`ServerError::retry_after`] in whole milliseconds, as the room's and the page's
    /// messages carry it (`retry_after_ms`).
    pub fn retry_after_ms(&self) -> Option<u64> {
        self.retry_after()
            .map(|wait| u64::try_from(wait.as_millis()).unwrap_or(u64::MAX))
    }

    /// The kind of a rules' refusal, where the rules refused (`refusal_kind` on the wire).
    pub fn refusal_kind(&self) -> Option<crate::rules::RefusalKind> {
        match self {
            ServerError::Room(e) => e.refusal_kind(),
            _ => None,
        }
    }
}

impl From<StoreError> for ServerError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict(_) => ServerError::Raced,
            StoreError::Exists(room) => ServerError::RoomExists(room),
            e => ServerError::Store(e),
        }
    }
}

impl From<crate::online::seal::HexError> for ServerError {
    fn from(e: crate::online::seal::HexError) -> Self {
        ServerError::Room(e.into())
    }
}

/// A size as the server's owner wrote it: whole MiB as MiB, else KiB.
fn size(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}
