//! Who may do what in a room: join under a name, in a role, seated as characters; propose a
//! move, a free roll or a hidden roll.

use super::{MAX_ROOM_DICE, RoomError, RoomState};
use crate::odds::notation::Notation;
use crate::online::log::{Proposal, Role};

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

    /// Whether `name` may join as `role` seated as `seats`: a seat is one player's.
    pub fn may_join(
        &self,
        name: &str,
        role: Role,
        seats: &[String],
    ) -> Result<Vec<usize>, RoomError> {
        if name.trim().is_empty() || name.len() > 40 || name.chars().any(char::is_control) {
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

    /// Whether `by` may make a proposal, and if not, why.
    pub fn may(&self, by: &str, what: &Proposal, hidden: bool) -> Result<(), RoomError> {
        let member = self
            .members
            .get(by)
            .ok_or_else(|| RoomError::NotJoined(by.to_string()))?;
        match member.role {
            Role::Spectator => return Err(RoomError::Spectator),
            Role::Gamemaster => {}
            Role::Player if hidden => return Err(RoomError::NotGamemaster),
            Role::Player => {
                if let Proposal::Move(mv) = what {
                    match self.table.actor_of(mv) {
                        None => return Err(RoomError::GamemasterMove(self.table.describe(mv))),
                        Some(actor) if !member.seats.contains(&actor) => {
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
                        Some(_) => {}
                    }
                }
            }
        }
        if hidden && !matches!(what, Proposal::Notation(_)) {
            return Err(RoomError::HiddenNotNotation);
        }
        match what {
            Proposal::Notation(text) => {
                let n = Notation::parse(text)?;
                let dice = n.dice().len();
                if dice == 0 || dice > MAX_ROOM_DICE {
                    return Err(RoomError::TooManyDice {
                        dice,
                        limit: MAX_ROOM_DICE,
                    });
                }
                Ok(())
            }
            Proposal::Move(mv) => Ok(self.table.allowed(mv)?),
        }
    }
}
