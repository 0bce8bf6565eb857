//! Who may do what in a room: join under a name, in a role, seated as characters; propose a
//! move, a free roll or a hidden roll.

use unicode_normalization::UnicodeNormalization;

use super::{HiddenNote, Member, RoomError, RoomState};
use crate::odds::notation::Notation;
use crate::online::log::{Proposal, Role, RollMode, SecretMode};
use crate::online::seal;
use crate::rules::play::MadeBy;

/// A character players may take, as a join form lists it.
#[derive(serde::Serialize, Clone, Debug, PartialEq)]
pub struct CastSeat {
    /// The character's name, as a join names it.
    pub name: String,
    /// The member who plays it (None: free to take).
    pub played_by: Option<String>,
}

/// Bytes of a member's key.
pub const KEY_BYTES: usize = 16;

/// A name as a room keeps it: NFKC (a full-width "Ｐａｔ" is "Pat"), trimmed, 1 to 40
/// characters, shown as they are ([`crate::text::shows_as_is`]). Anything else goes: names are any script's (a name that
/// looks like a member's is refused when it is claimed, see [`RoomState::may_claim`]).
pub fn normalise_name(name: &str) -> Result<String, RoomError> {
    let name: String = name.nfkc().collect();
    let name = name.trim();
    if !crate::text::shows_as_is(name)
        || name.is_empty()
        || name.len() > crate::online::protocol::NAME_BYTES
    {
        return Err(RoomError::BadName);
    }
    Ok(name.to_string())
}

/// Whether a throw's label can be shown as it is (the same rule as names; its length is checked
/// apart): [`crate::text::shows_as_is`].
pub fn label_fits(label: &str) -> bool {
    crate::text::shows_as_is(label)
}

/// What two names that look the same have in common: the name folded to lower case, then to
/// its UTS #39 skeleton (a Cyrillic "Pаt" and a Latin "Pat" share one).
fn folded(name: &str) -> String {
    let lower: String = name.nfkc().flat_map(char::to_lowercase).collect();
    unicode_security::confusable_detection::skeleton(&lower).collect()
}

/// What a join claims, as the server decides it before logging.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// A member coming back with its key (or the game master with its passcode).
    Known,
    /// A name claimed now: the key to give its member, and the commitment to log.
    New {
        /// The key, hex: shown on every later join under the name.
        key: String,
        /// The key's commitment, logged in the `joined` entry.
        commitment: String,
    },
}

impl RoomState {
    /// The character seats of names, or why not.
    pub fn seats_of(&self, names: &[String]) -> Result<Vec<usize>, RoomError> {
        let cast = self.table.names();
        names
            .iter()
            .map(|n| {
                cast.iter()
                    .position(|c| c == n)
                    .ok_or_else(|| RoomError::NoCharacter {
                        name: n.clone(),
                        scene: self.scene.name.clone(),
                        cast: cast.join(", "),
                    })
            })
            .collect()
    }

    /// The characters players may take, in seat order, each with the member who plays it:
    /// what a join form lists, so a player picks a name instead of guessing one.
    pub fn players_cast(&self) -> Vec<CastSeat> {
        self.table
            .names()
            .iter()
            .enumerate()
            .filter(|(i, _)| self.scene.players_play(*i))
            .map(|(i, name)| CastSeat {
                name: name.to_string(),
                played_by: self
                    .members
                    .iter()
                    .find(|(_, m)| m.seats.contains(&i))
                    .map(|(who, _)| who.clone()),
            })
            .collect()
    }

    /// Whether `name` may join as `role` seated as `seats`: a seat is one player's.
    pub fn may_join(
        &self,
        name: &str,
        role: Role,
        seats: &[String],
    ) -> Result<Vec<usize>, RoomError> {
        if name.trim().is_empty()
            || name.len() > crate::online::protocol::NAME_BYTES
            || name.chars().any(char::is_control)
        {
            return Err(RoomError::BadName);
        }
        if role == Role::Gamemaster && name != self.gamemaster {
            return Err(RoomError::NotTheGamemaster(self.gamemaster.clone()));
        }
        if role != Role::Gamemaster && name == self.gamemaster {
            return Err(RoomError::NameTaken(name.to_string()));
        }
        if role != Role::Player && !seats.is_empty() {
            return Err(RoomError::NoSeatsForRole(role));
        }
        let wanted = self.seats_of(seats)?;
        for (other, m) in &self.members {
            if other == name {
                continue;
            }
            if let Some(taken) = wanted.iter().find(|s| m.seats.contains(s)) {
                return Err(RoomError::SeatTaken {
                    character: self
                        .table
                        .names()
                        .get(*taken)
                        .copied()
                        .unwrap_or("that seat")
                        .to_string(),
                    by: other.clone(),
                });
            }
        }
        Ok(wanted)
    }

    /// Whether the seats are all the players' characters (not the game master's).
    fn players_characters(&self, seats: &[usize]) -> Result<(), RoomError> {
        match seats.iter().find(|&&s| !self.scene.players_play(s)) {
            Some(seat) => {
                let cast = self.table.names();
                let character = cast.get(*seat).copied().unwrap_or("that character");
                Err(RoomError::GamemasterCharacter(character.to_string()))
            }
            None => Ok(()),
        }
    }

    /// Whether `name` may take its place on this join, by the server's stricter rule (the log's
    /// replay checks only [`RoomState::may_join`], so logs kept before stay valid): a name in
    /// use only with its key, no look-alike of another's name, the role a member has (changing
    /// it is the game master's), players seated only as the players' characters. The seats it
    /// takes, in seat order, and the claim.
    pub fn may_claim(
        &self,
        name: &str,
        role: Role,
        seats: &[String],
        key: Option<&str>,
    ) -> Result<(Vec<usize>, Claim), RoomError> {
        let wanted = self.may_join(name, role, seats)?;
        if role == Role::Gamemaster {
            return Ok((wanted, Claim::Known));
        }
        let mine = folded(name);
        if let Some(other) = self
            .members
            .keys()
            .find(|other| other.as_str() != name && folded(other) == mine)
        {
            return Err(RoomError::NameInUse(other.clone()));
        }
        self.players_characters(&wanted)?;
        let Some(member) = self.members.get(name) else {
            return Ok((wanted, new_key()));
        };
        let shown = key
            .and_then(|k| seal::unhex(k, KEY_BYTES, "key").ok())
            .map(|k| seal::commitment(&k));
        let claim = match &member.key {
            Some(kept) if shown.as_deref() == Some(kept.as_str()) => Claim::Known,
            Some(_) => return Err(RoomError::NameInUse(name.to_string())),
            // Logged before keys were: whoever comes first with the passcode takes it now.
            None => new_key(),
        };
        if member.role != role {
            return Err(RoomError::RoleChange {
                name: name.to_string(),
                role: member.role,
            });
        }
        Ok((wanted, claim))
    }

    /// Whether `by` may seat `name` as `role` with `seats` (the game master changing a member's
    /// role or characters): the seats it may have, in seat order.
    pub fn may_seat(
        &self,
        by: &str,
        name: &str,
        role: Role,
        seats: &[String],
    ) -> Result<Vec<usize>, RoomError> {
        if self
            .members
            .get(by)
            .is_none_or(|m| m.role != Role::Gamemaster)
        {
            return Err(RoomError::NotSeater);
        }
        let wanted = self.may_join(name, role, seats)?;
        if role == Role::Gamemaster {
            return Err(RoomError::NotTheGamemaster(self.gamemaster.clone()));
        }
        self.players_characters(&wanted)?;
        Ok(wanted)
    }

    /// Who may make a move in this room: the rules' word, move by move, in a room opened by a
    /// build of [`crate::record::RIGHTS_BY_MOVE`] or later; before, a player made any move for a
    /// character they play, and the game master the table's own moves.
    pub fn made_by(&self, mv: &crate::rules::play::Move) -> MadeBy {
        if crate::record::rules_generation(&self.build) >= crate::record::RIGHTS_BY_MOVE {
            self.table.made_by(mv)
        } else {
            MadeBy::of_actor(self.table.actor_of(mv))
        }
    }

    /// Whether `name` may see hidden roll `seq` before it is revealed (its mode says who).
    pub fn may_see(&self, name: &str, seq: u64) -> bool {
        self.hidden
            .get(&seq)
            .is_some_and(|h| h.mode.shows_to(name, &h.by, &self.gamemaster))
    }

    /// The hidden rolls not yet revealed: their `seq`s, oldest first.
    pub fn unrevealed(&self) -> impl Iterator<Item = u64> + '_ {
        self.hidden
            .iter()
            .filter(|(_, h)| h.revealed.is_none())
            .map(|(seq, _)| *seq)
    }

    /// The hidden rolls, not yet revealed, that `name` may see: their `seq`s, oldest first.
    pub fn sealed_for(&self, name: &str) -> Vec<u64> {
        self.unrevealed()
            .filter(|seq| self.may_see(name, *seq))
            .collect()
    }

    /// Hidden roll `of`, still sealed; if not, why (no hidden roll, or revealed already).
    pub fn still_sealed(&self, of: u64) -> Result<&HiddenNote, RoomError> {
        let note = self.hidden.get(&of).ok_or(RoomError::NotHidden(of))?;
        if note.revealed.is_some() {
            return Err(RoomError::AlreadyRevealed(of));
        }
        Ok(note)
    }

    /// Whether `name` may reveal hidden roll `of`: the game master any, a roller its own roll
    /// that only it sees; if not, why.
    pub fn may_reveal(&self, name: &str, of: u64) -> Result<(), RoomError> {
        let note = self.still_sealed(of)?;
        let rollers = note.by == name && note.mode == SecretMode::Roller;
        if name == self.gamemaster || rollers {
            Ok(())
        } else if note.mode == SecretMode::Roller {
            Err(RoomError::NotYours(note.by.clone()))
        } else {
            Err(RoomError::NotYours("the game master".into()))
        }
    }

    /// The hidden move the table waits for, if any: its `seq`. A sealed move's outcome and its
    /// effects are the table's next state, so no other move is made before its reveal (free
    /// rolls, hidden or not, go on).
    pub fn held_by(&self) -> Option<u64> {
        self.hidden
            .iter()
            .find(|(_, note)| note.notation.is_none() && note.revealed.is_none())
            .map(|(seq, _)| *seq)
    }

    /// Whether `by` may throw in `mode`: players only in the modes the game master left them.
    pub fn may_use_mode(&self, by: &str, mode: RollMode) -> Result<(), RoomError> {
        let player = self.members.get(by).is_some_and(|m| m.role == Role::Player);
        if player && !self.modes.players.contains(&mode) {
            return Err(RoomError::ModeNotAllowed(mode.name()));
        }
        Ok(())
    }

    /// Whether `by` may set the room's roll modes to `default` and `players`: the game master
    /// alone, with at least one mode for players, each once, the default among them.
    pub fn may_set_modes(
        &self,
        by: &str,
        default: RollMode,
        players: &[RollMode],
    ) -> Result<(), RoomError> {
        if by != self.gamemaster {
            return Err(RoomError::NotModeSetter);
        }
        let mut sorted = players.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if players.is_empty() || sorted.len() != players.len() || !players.contains(&default) {
            return Err(RoomError::DefaultNotAllowed(default.name()));
        }
        Ok(())
    }

    /// Whether `by` may choose dice: a member who throws chooses its own, and a character's it
    /// plays; the game master any character's.
    pub fn may_choose_dice(&self, by: &str, character: Option<&str>) -> Result<(), RoomError> {
        let member = self
            .members
            .get(by)
            .ok_or_else(|| RoomError::NotJoined(by.to_string()))?;
        if member.role == Role::Spectator {
            return Err(RoomError::Spectator);
        }
        let Some(character) = character else {
            return Ok(());
        };
        let at = self.seats_of(&[character.to_string()])?;
        if member.role == Role::Player && !at.iter().all(|seat| member.seats.contains(seat)) {
            return Err(RoomError::NotYourSeat {
                by: by.to_string(),
                character: character.to_string(),
            });
        }
        Ok(())
    }

    /// Whether `by` may seal a move now (which move is shown by its reveal, when its rights are
    /// checked): a member who moves characters, at a table not waiting for another hidden move.
    pub(super) fn may_hide_move(&self, by: &str) -> Result<(), RoomError> {
        if let Some(seq) = self.held_by() {
            return Err(RoomError::TableHeld(seq));
        }
        match self.members.get(by) {
            None => Err(RoomError::NotJoined(by.to_string())),
            Some(m) if m.role == Role::Spectator => Err(RoomError::Spectator),
            Some(_) => Ok(()),
        }
    }

    /// Whether `by` may make a proposal (in the open or sealed in a roll mode), and if not, why:
    /// the proposal's own rights and rules, and no move while the table waits for a hidden
    /// move's reveal.
    pub fn may(&self, by: &str, what: &Proposal) -> Result<(), RoomError> {
        if let (Proposal::Move(_), Some(seq)) = (what, self.held_by()) {
            return Err(RoomError::TableHeld(seq));
        }
        self.may_now(by, what)
    }

    /// Whether `by` may make a proposal at the table as it is (a hidden move's reveal is checked
    /// so, at the table that waited for it).
    pub(super) fn may_now(&self, by: &str, what: &Proposal) -> Result<(), RoomError> {
        let member = self
            .members
            .get(by)
            .ok_or_else(|| RoomError::NotJoined(by.to_string()))?;
        self.may_as(by, member, what)
    }

    /// Whether `by`, seated as `member`, may make a proposal at the table as it is: a hidden
    /// move's reveal is checked with its mover seated as when it was sealed (the game master may
    /// have seated them otherwise since).
    pub(super) fn may_as(
        &self,
        by: &str,
        member: &Member,
        what: &Proposal,
    ) -> Result<(), RoomError> {
        match member.role {
            Role::Spectator => return Err(RoomError::Spectator),
            Role::Gamemaster => {}
            Role::Player => {
                if let Proposal::Move(mv) = what {
                    match self.made_by(mv) {
                        MadeBy::Gamemaster => {
                            return Err(RoomError::GamemasterMove(self.table.describe(mv)));
                        }
                        MadeBy::PlayerOf(actor) if !member.seats.contains(&actor) => {
                            return Err(RoomError::NotYourSeat {
                                by: by.to_string(),
                                character: self
                                    .table
                                    .names()
                                    .get(actor)
                                    .copied()
                                    .unwrap_or("that character")
                                    .to_string(),
                            });
                        }
                        MadeBy::PlayerOf(_) => {}
                    }
                }
            }
        }
        match what {
            Proposal::Notation(text) => {
                let n = Notation::parse(text)?;
                // The throw's physical dice: at least one, the one cap, dice the table has.
                crate::roll::notation_dice(&n)?;
                Ok(())
            }
            Proposal::Move(mv) => {
                // The rules' plan refuses a throw over the one cap (`too_many_dice`).
                self.table.plan(mv)?;
                Ok(())
            }
        }
    }
}

/// A fresh key and its commitment.
fn new_key() -> Claim {
    let key: [u8; KEY_BYTES] = seal::random_bytes();
    Claim::New {
        key: seal::hex(&key),
        commitment: seal::commitment(&key),
    }
}
