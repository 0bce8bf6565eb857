//! A member's moves and drafted move, as the rules see them now: the move catalogue a page
//! renders (the kinds of move, the fields of the draft with the choices the table offers) and
//! the verdict the room would give the draft if it were thrown.

use super::{RoomError, RoomState};
use crate::online::log::{Proposal, Role};
use crate::rules::catalogue::{Field, KindView, same_kind};
use crate::rules::play::{MadeBy, Move, TrackerRow};

/// What a member may do now and what its draft would meet.
#[derive(Clone, Debug)]
pub struct Drafted {
    /// Every kind of move, each with why the member may not make it now.
    pub kinds: Vec<KindView>,
    /// The draft's kind among `kinds`.
    pub kind: Option<usize>,
    /// The draft (the member's, or a kind's template where it had none).
    pub draft: Move,
    /// The draft's fields.
    pub fields: Vec<Field>,
    /// Why the room would refuse the draft (None: it would throw it).
    pub refused: Option<RoomError>,
    /// The draft in words.
    pub describe: String,
    /// The turn tracker as the table stands: its heading, a row per character, the table's
    /// notes.
    pub tracker: Tracker,
}

/// The turn tracker: whose turn, and the ruleset's turn economy (Action Load, action dice,
/// shots, grit, resource dice), as the window's tracker shows it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Tracker {
    /// Whose turn (or shot, or side), the round.
    pub heading: String,
    /// One row per character, in seat order.
    pub rows: Vec<TrackerRow>,
    /// Table-wide lines (resolution order, tasks, the last check).
    pub notes: Vec<String>,
}

impl RoomState {
    /// The seats a member moves: its own, or every one for the game master.
    pub fn seats_moved_by(&self, by: &str) -> Vec<usize> {
        match self.members.get(by) {
            Some(m) if m.role == Role::Gamemaster => (0..self.table.names().len()).collect(),
            Some(m) => m.seats.clone(),
            None => Vec::new(),
        }
    }

    /// The catalogue and verdict for `by`'s draft. Without a draft (a page just joined), or
    /// with one of another ruleset, or with `fresh` and a draft the table has moved past, the
    /// draft is the first kind the member may make now.
    pub fn draft(&self, by: &str, what: Option<Move>, fresh: bool) -> Result<Drafted, RoomError> {
        if !self.members.contains_key(by) {
            return Err(RoomError::NotJoined(by.to_string()));
        }
        let seats = self.seats_moved_by(by);
        let verdict = |m: &Move| self.may(by, &Proposal::Move(m.clone())).err();
        // A player is offered the moves the rules give a player; the game master, every move.
        let gamemaster = self
            .members
            .get(by)
            .is_some_and(|m| m.role == Role::Gamemaster);
        let kinds: Vec<KindView> = self
            .table
            .kinds(&seats)
            .into_iter()
            .filter(|k| gamemaster || self.made_by(&k.template) != MadeBy::Gamemaster)
            .map(|k| KindView {
                label: k.label.to_string(),
                hint: k.hint.to_string(),
                refused: verdict(&k.template).map(|e| e.to_string()),
                template: k.template,
            })
            .collect();
        let start = kinds
            .iter()
            .find(|k| k.refused.is_none())
            .or(kinds.first())
            .map(|k| k.template.clone())
            .unwrap_or_else(|| self.table.default_move());
        let draft = match what {
            Some(m) if m.ruleset() == self.table.ruleset() && !(fresh && verdict(&m).is_some()) => {
                m
            }
            _ => start,
        };
        Ok(Drafted {
            kind: kinds.iter().position(|k| same_kind(&k.template, &draft)),
            fields: self.table.form(&draft, &seats),
            refused: verdict(&draft),
            describe: self.table.describe(&draft),
            tracker: Tracker {
                heading: self.table.heading(),
                rows: self.table.tracker(),
                notes: self.table.notes(),
            },
            kinds,
            draft,
        })
    }
}

impl RoomState {
    /// The moves of `by`'s catalogue the table allows now that throw dice, in the catalogue's
    /// order: those `by` may make hidden (a move that throws nothing has nothing to seal).
    pub fn moves_with_dice(&self, by: &str) -> Result<Vec<Move>, RoomError> {
        let drafted = self.draft(by, None, false)?;
        Ok(drafted
            .kinds
            .into_iter()
            .filter(|k| k.refused.is_none())
            .map(|k| k.template)
            .filter(|m| self.table.plan(m).is_ok_and(|p| !p.dice.is_empty()))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::ErrorCode;
    use crate::online::room::Checks;
    use crate::rules::catalogue::Input;

    /// A d4-pool room two turns in: Pat plays Vex the Rogue, Sam plays Pim; Gwen is the
    /// game master. It is Bram's turn (the third).
    fn room() -> RoomState {
        let log = include_str!("../../../tests/fixtures/room-d4-pool.jsonl");
        RoomState::replay(log.lines(), Checks::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn actors(d: &Drafted) -> Vec<String> {
        match d.fields.iter().find(|f| f.label == "Who").map(|f| &f.input) {
            Some(Input::Choice { options, .. }) => {
                options.iter().map(|o| o.label.clone()).collect()
            }
            _ => vec![],
        }
    }

    #[test]
    fn a_player_drafts_for_its_own_characters_and_is_told_why_not() {
        let room = room();
        let pat = room
            .draft("Pat", None, false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pat.tracker.heading, "Round 1: Bram's turn");
        assert_eq!(
            pat.tracker
                .rows
                .iter()
                .map(|r| (r.name.as_str(), r.acting))
                .collect::<Vec<_>>(),
            [
                ("Vex the Rogue", false),
                ("Pim", false),
                ("Bram", true),
                ("Goblin", false)
            ]
        );
        assert_eq!(
            pat.kinds
                .iter()
                .map(|k| (k.label.as_str(), k.refused.as_deref()))
                .collect::<Vec<_>>(),
            [
                (
                    "Action",
                    Some(
                        "it is Bram's turn: Vex the Rogue can only respond (assist, counter, \
                         reaction, team action), not take an attack"
                    )
                ),
                // In a room of its time a player made the game master's call for a roll; the
                // end of a turn, the game master's, is not offered.
                ("GM calls a roll", None),
                ("Team action", None),
            ]
        );
        // The first move Pat may make is the draft, for Pat's own character.
        assert_eq!(pat.kind, Some(1));
        assert_eq!(actors(&pat), ["Vex the Rogue"]);
        assert!(pat.refused.is_none());
        // Pat's action, kept as drafted: refused with the rules' reason.
        let action = pat.kinds[0].template.clone();
        let kept = room
            .draft("Pat", Some(action.clone()), false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((kept.kind, kept.draft == action), (Some(0), true));
        assert_eq!(
            kept.refused.as_ref().map(RoomError::code),
            Some(ErrorCode::RulesRefused)
        );
        // The table moved on and the draft is refused: it gives way to one that is allowed.
        let fresh = room
            .draft("Pat", Some(action), true)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((fresh.kind, fresh.refused.is_none()), (Some(1), true));
        // Sam's own move, drafted for Pat's character: not Sam's seat.
        let theirs = room
            .draft("Sam", Some(pat.draft.clone()), false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(actors(&theirs), ["Vex the Rogue", "Pim"]);
        assert_eq!(
            theirs.refused.map(|e| (e.code(), e.to_string())),
            Some((
                ErrorCode::NotYourSeat,
                "Sam does not play Vex the Rogue".into()
            ))
        );
    }

    #[test]
    fn the_join_form_lists_the_players_characters_and_who_plays_them() {
        let cast: Vec<(String, Option<String>)> = room()
            .players_cast()
            .into_iter()
            .map(|c| (c.name, c.played_by))
            .collect();
        assert_eq!(
            cast,
            [
                ("Vex the Rogue".to_string(), Some("Pat".to_string())),
                ("Pim".to_string(), Some("Sam".to_string())),
                ("Bram".to_string(), None),
                ("Goblin".to_string(), None),
            ]
        );
    }

    #[test]
    fn the_game_master_drafts_for_everyone_and_a_stranger_for_no_one() {
        let room = room();
        let gm = room
            .draft("Gwen", None, false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(gm.kind, Some(0));
        assert!(gm.refused.is_none(), "{:?}", gm.refused);
        assert_eq!(actors(&gm), room.table.names());
        assert!(gm.describe.starts_with("Bram: "), "{}", gm.describe);
        assert!(
            gm.kinds.iter().all(|k| k.refused.is_none()),
            "{:?}",
            gm.kinds
        );
        assert_eq!(
            room.draft("Nobody", None, false).map(|d| d.kind).err(),
            Some(RoomError::NotJoined("Nobody".into()))
        );
    }
}
