//! A room's state, rebuilt from its log: the scene's table, who sits where, the hidden rolls and
//! what happened. The server, every client and `verify` apply the same entries with the same
//! code; the server also simulates proposals into entries here. Moves and free rolls go through
//! the one roll path (`crate::roll`), whether thrown here or read back from a record.

mod checks;
mod draft;
mod error;
#[cfg(test)]
mod hidden_moves;
mod rights;
mod simulate;

pub use draft::{Drafted, Tracker};
pub use error::RoomError;
pub use rights::{CastSeat, Claim, KEY_BYTES, label_fits, normalise_name};
pub use simulate::{Simulated, Simulation, ToSeal};

use std::collections::BTreeMap;

use super::log::{
    Entry, Event, HiddenRoll, LOG_FORMAT, Proposal, Role, RollMode, SecretMode, check_link,
    state_version,
};
use super::seal::{self, GENESIS};
use crate::dice::looks::DicePainter;
use crate::dice::style::DiceLook;
use crate::record::{Gesture, RollRecord};
use crate::roll::replay::check_record;
use crate::rules::engine::Rulebook;
use crate::rules::scene::Scene;
use crate::rules::table::TableState;

/// Someone in the room.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The commitment to the member's key (None: the game master, whose passcode is its key,
    /// or a member logged before keys were).
    pub key: Option<String>,
    /// Their role.
    pub role: Role,
    /// The seats (character indices) they move.
    pub seats: Vec<usize>,
}

/// A hidden roll as everyone knows it; `revealed` once the game master showed it.
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenNote {
    /// Who rolled.
    pub by: String,
    /// A free roll's dice; None for a move (sealed with it).
    pub notation: Option<String>,
    /// What for (as builds before roll modes logged it; sealed since).
    pub label: Option<String>,
    /// Who sees it before the reveal.
    pub mode: SecretMode,
    /// The seed's commitment.
    pub commitment: String,
    /// The seal of the reveal.
    pub sealed: String,
    /// The roll, once revealed.
    pub revealed: Option<RollRecord>,
    /// A hidden move's mover as seated when it was sealed: its reveal's rights are checked so.
    pub seated: Option<Member>,
}

/// The dice members chose: a member's own, and a character's (by the character's name).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoomDice {
    /// Each member's own dice, by name.
    pub members: BTreeMap<String, DiceLook>,
    /// Each character's dice, by its name at the table.
    pub characters: BTreeMap<String, DiceLook>,
}

/// The room's roll modes, as its game master set them.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomModes {
    /// The mode each member's form starts at.
    pub default: RollMode,
    /// The modes players may use.
    pub players: Vec<RollMode>,
}

impl Default for RoomModes {
    /// Every room opens public by default, every mode open to players.
    fn default() -> Self {
        RoomModes {
            default: RollMode::Public,
            players: RollMode::ALL.to_vec(),
        }
    }
}

/// One line of the room's history, for people.
#[derive(Clone, Debug, PartialEq)]
pub struct Happened {
    /// The entry's place in the log.
    pub seq: u64,
    /// In words.
    pub text: String,
    /// The roll, where there was one (shown).
    pub record: Option<RollRecord>,
}

/// How much of an entry a client checks beyond the chain, rights, seeds and rules.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Checks {
    /// Re-simulate every throw and compare faces and final poses bit for bit.
    pub physics: bool,
}

/// A room, as its log so far makes it.
#[derive(Clone, Debug)]
pub struct RoomState {
    /// The room's name.
    pub room: String,
    /// The game master's name.
    pub gamemaster: String,
    /// The scene.
    pub scene: Scene,
    /// The scene's table.
    pub table: TableState,
    /// Everyone who joined, by name.
    pub members: BTreeMap<String, Member>,
    /// The last entry's `seq`.
    pub seq: u64,
    /// The hash of the last line.
    pub head: String,
    /// Hidden rolls by `seq`.
    pub hidden: BTreeMap<u64, HiddenNote>,
    /// The roll modes the game master set.
    pub modes: RoomModes,
    /// The dice members chose, for themselves and for characters.
    pub dice: RoomDice,
    /// What happened, oldest first.
    pub history: Vec<Happened>,
    /// The build that opened the room.
    pub build: String,
    /// The log's format (what its entries' state digests are of: [`state_version`]).
    pub format: u32,
    /// Throws that re-simulated differently here (another platform or build, or a forged
    /// record): shown, never hidden.
    pub mismatches: Vec<String>,
}

/// The table's digest as the entries of a log of `format` carry it: a hash of the rules'
/// versioned serialisation of the table's state ([`TableState::canonical_state_of`] of the
/// format's [`state_version`]).
pub fn table_digest(table: &TableState, format: u32) -> String {
    seal::state_digest(&table.canonical_state_of(state_version(format)))
}

impl RoomState {
    /// How `by`'s throws look now: its own dice, and each seat's (the character's own, chosen
    /// in the room or given by the scene, else its player's: `by` where `by` plays it, else the
    /// first player who does).
    pub fn painter(&self, by: &str) -> DicePainter {
        let names = self.table.names();
        let player_of = |seat: usize| {
            let plays = |m: &Member| m.role == Role::Player && m.seats.contains(&seat);
            if self.members.get(by).is_some_and(plays) {
                return Some(by);
            }
            self.members
                .iter()
                .find(|(_, m)| plays(m))
                .map(|(name, _)| name.as_str())
        };
        let seats = (0..names.len())
            .map(|seat| {
                self.dice
                    .characters
                    .get(names[seat])
                    .or_else(|| self.scene.dice.get(names[seat]))
                    .copied()
                    .or_else(|| player_of(seat).and_then(|p| self.dice.members.get(p).copied()))
            })
            .collect();
        DicePainter::new(self.dice.members.get(by).copied(), seats)
    }

    /// A room from its first line (a `created` entry).
    pub fn open(line: &str) -> Result<RoomState, RoomError> {
        let entry = Entry::parse(line)?;
        check_link(&entry, 1, GENESIS)?;
        let Event::Created {
            format,
            room,
            gamemaster,
            scene,
            table_seed,
            build,
        } = entry.event
        else {
            return Err(RoomError::NotOpened);
        };
        if !(1..=LOG_FORMAT).contains(&format) {
            return Err(RoomError::Format {
                found: format,
                known: LOG_FORMAT,
            });
        }
        let generation = crate::record::rules_generation(&build);
        let scene = Scene::parse_as_played("the room's scene", &scene, generation)
            .map_err(|e| RoomError::Scene(e.to_string()))?;
        let book = Rulebook::builtin().map_err(|e| RoomError::Scene(e.to_string()))?;
        // Played by the rules of the build that opened the room: an older log still opens.
        let table = TableState::new(&scene, &book, table_seed).played_by(generation);
        let mut members = BTreeMap::new();
        members.insert(
            gamemaster.clone(),
            Member {
                key: None,
                role: Role::Gamemaster,
                seats: Vec::new(),
            },
        );
        Ok(RoomState {
            history: vec![Happened {
                seq: 1,
                text: format!("{gamemaster} opened {room}: {}", scene.name),
                record: None,
            }],
            room,
            gamemaster,
            scene,
            table,
            members,
            seq: 1,
            head: seal::line_hash(line),
            hidden: BTreeMap::new(),
            modes: RoomModes::default(),
            dice: RoomDice::default(),
            build,
            format,
            mismatches: Vec::new(),
        })
    }

    /// Rebuilds a room from its whole log (lines in order).
    pub fn replay<'a>(
        mut lines: impl Iterator<Item = &'a str>,
        checks: Checks,
    ) -> Result<RoomState, RoomError> {
        let first = lines.next().ok_or(super::log::LogError::Empty)?;
        let mut room = RoomState::open(first)?;
        for line in lines {
            room.apply_line(line, checks)?;
        }
        Ok(room)
    }

    /// Applies the next log line: its place in the chain, then its event, checked as the
    /// server made it (rights, seed proof, rules; physics when asked).
    pub fn apply_line(&mut self, line: &str, checks: Checks) -> Result<Entry, RoomError> {
        let entry = Entry::parse(line)?;
        check_link(&entry, self.seq + 1, &self.head)?;
        let seq = entry.seq;
        self.apply_event(seq, &entry.event, checks)
            .map_err(|e| RoomError::AtEntry {
                seq,
                error: Box::new(e),
            })?;
        self.seq = seq;
        self.head = seal::line_hash(line);
        Ok(entry)
    }

    fn apply_event(&mut self, seq: u64, event: &Event, checks: Checks) -> Result<(), RoomError> {
        match event {
            Event::Created { .. } => Err(RoomError::OpenedTwice),
            Event::Joined {
                name,
                role,
                seats,
                key,
            } => {
                let seats = self.may_join(name, *role, seats)?;
                let key = key
                    .clone()
                    .or_else(|| self.members.get(name).and_then(|m| m.key.clone()));
                let member = Member {
                    key,
                    role: *role,
                    seats,
                };
                self.members.insert(name.clone(), member);
                self.note(seq, format!("{name} joined as {role}"), None);
                Ok(())
            }
            Event::Played {
                by,
                mv,
                said,
                state,
            } => {
                self.may(by, &Proposal::Move(mv.clone()))?;
                let mut table = self.table.clone();
                let now = crate::roll::play_without_dice(&mut table, mv)?;
                self.same_effects(said, &now)?;
                self.same_state(state, &table)?;
                let text = format!("{by}: {}", self.table.describe(mv));
                self.table = table;
                self.note(seq, text, None);
                Ok(())
            }
            Event::Thrown {
                by,
                what,
                proof,
                record,
                said,
                state,
            } => {
                self.may(by, what)?;
                self.may_use_mode(by, RollMode::Public)?;
                self.check_proof(proof, record, seq)?;
                if checks.physics {
                    self.resimulate(seq, record);
                }
                let table = self.check_throw(what, record, said)?;
                self.same_state(state, &table)?;
                let text = match what {
                    Proposal::Move(mv) => self.table.describe(mv),
                    Proposal::Notation(n) => n.clone(),
                };
                self.table = table;
                let shown = format!(
                    "{by}: {text}: {}",
                    record
                        .outcome
                        .clone()
                        .unwrap_or_else(|| record.total.map(|t| t.to_string()).unwrap_or_default())
                );
                self.note(seq, shown, Some(record.as_ref().clone()));
                Ok(())
            }
            Event::Hidden {
                by,
                notation,
                label,
                mode,
                commitment,
                sealed,
            } => {
                match notation {
                    Some(n) => self.may(by, &Proposal::Notation(n.clone()))?,
                    None => self.may_hide_move(by)?,
                }
                self.may_use_mode(by, RollMode::of(Some(*mode)))?;
                self.hidden.insert(
                    seq,
                    HiddenNote {
                        by: by.clone(),
                        notation: notation.clone(),
                        label: label.clone(),
                        mode: *mode,
                        commitment: commitment.clone(),
                        sealed: sealed.clone(),
                        revealed: None,
                        seated: notation
                            .is_none()
                            .then(|| self.members.get(by).cloned())
                            .flatten(),
                    },
                );
                let did = match notation {
                    Some(n) => format!("{by} rolled {n}"),
                    None => format!("{by} made a move"),
                };
                let text = match mode {
                    SecretMode::Roller => format!("{did} hidden"),
                    SecretMode::Gamemaster => format!("{did} for the game master"),
                    SecretMode::Blind => format!("{did} blind"),
                };
                self.note(seq, text, None);
                Ok(())
            }
            Event::Modes {
                by,
                default,
                players,
            } => {
                self.may_set_modes(by, *default, players)?;
                self.modes = RoomModes {
                    default: *default,
                    players: players.clone(),
                };
                let names: Vec<&str> = players.iter().map(|m| m.name()).collect();
                let text = format!(
                    "{by} set the roll modes: {} by default; players may roll {}",
                    default.name(),
                    names.join(", ")
                );
                self.note(seq, text, None);
                Ok(())
            }
            Event::Dice {
                by,
                character,
                look,
            } => {
                self.may_choose_dice(by, character.as_deref())?;
                let chosen = match character {
                    Some(_) => &mut self.dice.characters,
                    None => &mut self.dice.members,
                };
                let key = character.clone().unwrap_or_else(|| by.clone());
                match look {
                    Some(look) => chosen.insert(key, *look),
                    None => chosen.remove(&key),
                };
                let whose = character
                    .as_ref()
                    .map(|c| format!(" for {c}"))
                    .unwrap_or_default();
                let text = match look {
                    Some(look) => format!(
                        "{by} chose {} dice{whose}: {}",
                        look.material.name(),
                        look.colours()
                    ),
                    None => format!("{by} went back to the room's dice{whose}"),
                };
                self.note(seq, text, None);
                Ok(())
            }
            Event::Revealed { of, salt, payload } => {
                let note = self.still_sealed(*of)?.clone();
                let salt_bytes =
                    seal::unhex(salt, seal::SALT_BYTES, "the salt").map_err(checks::mismatch)?;
                if !seal::same(&seal::seal(&salt_bytes, payload), &note.sealed) {
                    return Err(RoomError::Mismatch(format!(
                        "the reveal of {of} does not match its seal (the roll was changed)"
                    )));
                }
                let hidden: HiddenRoll = serde_json::from_str(payload).map_err(|e| {
                    RoomError::Mismatch(format!("the reveal of {of} is not a hidden roll: {e}"))
                })?;
                let what = hidden
                    .what()
                    .filter(|_| hidden.notation == note.notation)
                    .filter(|_| hidden.proof.commitment == note.commitment)
                    .ok_or_else(|| {
                        RoomError::Mismatch(format!("the reveal of {of} shows another roll"))
                    })?;
                // A move's rights, checked now that it is shown, at the table that waited for it
                // and with its mover seated as when it was sealed.
                // (A free roll's rights were checked whole when it was sealed.)
                match (&what, &note.seated) {
                    (Proposal::Move(_), Some(member)) => self.may_as(&note.by, member, &what)?,
                    (Proposal::Move(_), None) => {
                        return Err(RoomError::NotJoined(note.by.clone()));
                    }
                    (Proposal::Notation(_), _) => {}
                }
                self.check_proof(&hidden.proof, &hidden.record, *of)?;
                if checks.physics {
                    self.resimulate(seq, &hidden.record);
                }
                let table = self.check_throw(&what, &hidden.record, &hidden.said)?;
                let described = match &what {
                    Proposal::Move(mv) => {
                        let state = hidden.state.as_deref().ok_or_else(|| {
                            RoomError::Mismatch(format!(
                                "the reveal of move {of} has no table digest"
                            ))
                        })?;
                        self.same_state(state, &table)?;
                        self.table.describe(mv)
                    }
                    Proposal::Notation(n) => n.clone(),
                };
                self.table = table;
                let shown = hidden.record.outcome.clone().unwrap_or_else(|| {
                    hidden.record.total.map_or(String::new(), |t| t.to_string())
                });
                let text = format!("{} revealed {described}: {shown}", note.by);
                if let Some(n) = self.hidden.get_mut(of) {
                    n.revealed = Some(hidden.record.clone());
                }
                self.note(seq, text, Some(hidden.record));
                Ok(())
            }
        }
    }

    /// Re-simulates a roll: a difference is noted in `mismatches`.
    fn resimulate(&mut self, seq: u64, record: &RollRecord) {
        // A difference names the builds when they differ: physics is exact within one build.
        let found = match check_record(record) {
            Ok(check) => check.differences.first().map(|d| {
                std::iter::once(d)
                    .chain(&check.notes)
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join("; ")
            }),
            Err(e) => Some(e.to_string()),
        };
        if let Some(d) = found {
            self.mismatches
                .push(format!("entry {seq}: re-simulated differently: {d}"));
        }
    }

    fn note(&mut self, seq: u64, text: String, record: Option<RollRecord>) {
        self.history.push(Happened { seq, text, record });
    }
}

/// A gesture's sanity for a proposal: finite numbers within the tray's reach.
pub fn check_gesture(g: &Gesture) -> Result<(), RoomError> {
    let ok = g
        .release
        .iter()
        .chain(&g.velocity)
        .all(|x| x.is_finite() && x.abs() <= 10_000.0);
    if ok {
        Ok(())
    } else {
        Err(RoomError::BadGesture)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testing::{play, scene};

    /// A room opened with a shipped scene as the front page shares it.
    fn room_of(file: &str) -> RoomState {
        room_built(file, "test")
    }

    /// [`room_of`], opened by `build`.
    pub(super) fn room_built(file: &str, build: &str) -> RoomState {
        room_of_text(&scene_text(file), build)
    }

    /// The text of shipped scene `file`.
    fn scene_text(file: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(file);
        Scene::load_text(&path).unwrap_or_else(|e| panic!("{e}")).1
    }

    /// A room opened by Gwen with the scene `text`.
    fn room_of_text(text: &str, build: &str) -> RoomState {
        let text = text.to_string();
        let line = Entry {
            seq: 1,
            prev: GENESIS.into(),
            at_ms: 0,
            event: Event::Created {
                format: LOG_FORMAT,
                room: "vault".into(),
                gamemaster: "Gwen".into(),
                scene: text,
                table_seed: 1,
                build: build.into(),
            },
        }
        .to_line();
        RoomState::open(&line).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_room_plays_by_its_scenes_own_rules() {
        // The room's log holds the scene with its rules written in: the room (and so the
        // server resolving a throw, and verify replaying the log) plays by them.
        let dangerous = room_of("step-dice-vault-dangerous.ron");
        assert_eq!(dangerous.scene, scene("step-dice-vault-dangerous.ron"));
        let tie: crate::rules::play::Move = crate::rules::data::parse_ron(
            "move",
            r#"StepDice(Act(actor: 0, skill: "Locks", difficulty: "Hard"))"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let success = |mut room: RoomState| play(&mut room.table, &tie, &[&[5, 5]]).0.success;
        assert_eq!(success(dangerous), Some(false));
        assert_eq!(success(room_of("step-dice-vault.ron")), Some(true));
    }

    /// Appends `event` to the room's log: the line, or why the room refused it.
    pub(super) fn append(room: &mut RoomState, event: Event) -> Result<String, RoomError> {
        let line = Entry {
            seq: room.seq + 1,
            prev: room.head.clone(),
            at_ms: 0,
            event,
        }
        .to_line();
        room.apply_line(&line, Checks::default()).map(|_| line)
    }

    /// Appends a join to the room's log: `name` as `role`, playing `seats`.
    pub(super) fn join(room: &mut RoomState, name: &str, role: Role, seats: &[&str]) {
        let joined = Event::Joined {
            name: name.into(),
            role,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            key: None,
        };
        append(room, joined).unwrap_or_else(|e| panic!("{e}"));
    }

    /// The game master sets a default and the modes players may use: a player's throw in
    /// another mode is refused (as the server refuses it, and as a client reading the log
    /// refuses an entry that broke it); the game master is not bound; only the game master
    /// sets them, with the default among the modes and each once.
    #[test]
    fn the_game_master_sets_the_roll_modes() {
        use crate::errors::ErrorCode;
        let mut room = room_built("d20-check-crypt.ron", &crate::record::build_id());
        join(&mut room, "Gwen", Role::Gamemaster, &[]);
        join(&mut room, "Pat", Role::Player, &["Ash"]);
        assert_eq!(room.modes, RoomModes::default());
        let set = |room: &mut RoomState, by: &str, default: RollMode, players: &[RollMode]| {
            let modes = Event::Modes {
                by: by.into(),
                default,
                players: players.to_vec(),
            };
            append(room, modes).err().map(|e| e.code())
        };
        let (gm, blind) = (RollMode::Gamemaster, RollMode::Blind);
        assert_eq!(
            set(&mut room, "Pat", gm, &[gm]),
            Some(ErrorCode::NotGamemaster)
        );
        assert_eq!(
            set(&mut room, "Gwen", RollMode::Public, &[gm, blind]),
            Some(ErrorCode::ModeNotAllowed)
        );
        assert_eq!(
            set(&mut room, "Gwen", gm, &[gm, gm]),
            Some(ErrorCode::ModeNotAllowed)
        );
        assert_eq!(
            set(&mut room, "Gwen", gm, &[]),
            Some(ErrorCode::ModeNotAllowed)
        );
        assert_eq!(set(&mut room, "Gwen", gm, &[blind, gm]), None);
        assert_eq!(room.modes.default, gm);
        assert_eq!(
            room.history.last().map(|h| h.text.as_str()),
            Some(
                "Gwen set the roll modes: gamemaster by default; players may roll blind, gamemaster"
            )
        );
        let code = |room: &RoomState, by: &str, mode: RollMode| {
            room.may_use_mode(by, mode).err().map(|e| e.code())
        };
        assert_eq!(code(&room, "Pat", gm), None);
        assert_eq!(code(&room, "Pat", blind), None);
        assert_eq!(
            code(&room, "Pat", RollMode::Public),
            Some(ErrorCode::ModeNotAllowed)
        );
        assert_eq!(
            code(&room, "Pat", RollMode::Roller),
            Some(ErrorCode::ModeNotAllowed)
        );
        assert_eq!(code(&room, "Gwen", RollMode::Public), None);
        assert_eq!(code(&room, "Gwen", RollMode::Roller), None);
    }

    /// A member chooses its own dice and a character's it plays (the game master any
    /// character's); a spectator, a player for another's character and a character the scene
    /// lacks are refused. The room paints a thrower's free roll in its own dice, a move's
    /// character dice in the character's own (else its player's), numerals made readable; the
    /// challenge dice and dice nobody chose keep the room's look.
    #[test]
    fn members_choose_their_dice_and_the_room_paints_throws_with_them() {
        use crate::dice::looks::{Tint, character_style};
        use crate::dice::style::DieStyle;
        use crate::dice::style::{MIN_CONTRAST, Material, Rgb, Typeface};
        use crate::errors::ErrorCode;
        let mut room = room_built("d20-check-crypt.ron", &crate::record::build_id());
        join(&mut room, "Gwen", Role::Gamemaster, &[]);
        join(&mut room, "Pat", Role::Player, &["Ash"]);
        join(&mut room, "Sam", Role::Player, &["Bea"]);
        join(&mut room, "Vi", Role::Spectator, &[]);
        assert_eq!(room.table.names()[..2], ["Ash", "Bea"]);
        let look = |body: &str, ink: &str, material| DiceLook {
            body: Rgb::parse(body).expect("a colour"),
            ink: Rgb::parse(ink).expect("a colour"),
            material,
            pips: false,
            typeface: Typeface::Sans,
        };
        let stone = look("#1e40aa", "#ffffff", Material::Stone);
        let gold = look("#ffffff", "#ffff00", Material::Metal);
        let wood = look("#6b3e1f", "#f0e0c0", Material::Wood);
        let choose = |room: &mut RoomState, by: &str, character: Option<&str>, look| {
            let chosen = Event::Dice {
                by: by.into(),
                character: character.map(str::to_string),
                look,
            };
            append(room, chosen).err().map(|e| e.code())
        };
        assert_eq!(
            choose(&mut room, "Vi", None, Some(stone)),
            Some(ErrorCode::Spectator)
        );
        assert_eq!(
            choose(&mut room, "Pat", Some("Bea"), Some(stone)),
            Some(ErrorCode::NotYourSeat)
        );
        assert_eq!(
            choose(&mut room, "Pat", Some("Nobody"), Some(stone)),
            Some(ErrorCode::NoCharacter)
        );
        assert_eq!(choose(&mut room, "Pat", None, Some(stone)), None);
        assert_eq!(
            room.history.last().map(|h| h.text.as_str()),
            Some("Pat chose stone dice: #1e40aa with #ffffff numerals")
        );
        assert_eq!(choose(&mut room, "Gwen", Some("Bea"), Some(gold)), None);
        assert_eq!(
            room.history.last().map(|h| h.text.as_str()),
            Some("Gwen chose metal dice for Bea: #ffffff with #ffff00 numerals")
        );
        assert_eq!(choose(&mut room, "Sam", None, Some(wood)), None);

        let pat = room.painter("Pat");
        // Pat's free roll: every die Pat's own, light or dark.
        assert_eq!(pat.paint(Tint::Light, true), stone.drawn());
        assert_eq!(pat.paint(Tint::Dark, true), stone.drawn());
        // A move: Ash (Pat's) in Pat's dice; Bea in her own, over Sam's, yellow numerals on
        // white drawn dark enough to read.
        assert_eq!(pat.paint(Tint::Character(0), false), stone.drawn());
        let bea = pat.paint(Tint::Character(1), false);
        assert_eq!((bea.body, bea.material), ([255, 255, 255], Material::Metal));
        assert!(
            Rgb(bea.body).contrast(Rgb(bea.ink)) >= MIN_CONTRAST,
            "{bea:?}"
        );
        // The challenge dice, and a character nobody chose for, keep the room's look.
        assert_eq!(pat.paint(Tint::Dark, false), DieStyle::ONYX);
        assert_eq!(pat.paint(Tint::Character(2), false), character_style(2));
        // Sam's free roll in wood; the game master chose no dice of her own.
        assert_eq!(room.painter("Sam").paint(Tint::Light, true), wood.drawn());
        assert_eq!(
            room.painter("Gwen").paint(Tint::Light, true),
            DieStyle::IVORY
        );
        // Back to the room's dice.
        assert_eq!(choose(&mut room, "Pat", None, None), None);
        assert_eq!(
            room.history.last().map(|h| h.text.as_str()),
            Some("Pat went back to the room's dice")
        );
        assert_eq!(
            room.painter("Pat").paint(Tint::Light, true),
            DieStyle::IVORY
        );
    }

    /// A scene gives its characters dice: the room draws Bea's move in them, over her player's
    /// own, until a member chooses others for her; a scene naming a character it lacks is
    /// refused.
    #[test]
    fn a_scenes_dice_are_its_characters_until_the_room_chooses_others() {
        use crate::dice::looks::Tint;
        use crate::dice::style::{Material, Rgb, Typeface};
        let crypt = scene_text("d20-check-crypt.ron");
        let end = crypt.rfind(')').expect("a scene's closing parenthesis");
        let with = |dice: &str| format!("{}    dice: {{{dice}}},\n)", &crypt[..end]);
        let text = with(r##""Bea": (body: "#2e8b57", ink: "#ffffff", material: translucent)"##);
        let mut room = room_of_text(&text, &crate::record::build_id());
        join(&mut room, "Gwen", Role::Gamemaster, &[]);
        join(&mut room, "Sam", Role::Player, &["Bea"]);
        let glass = DiceLook {
            body: Rgb([46, 139, 87]),
            ink: Rgb([255, 255, 255]),
            material: Material::Translucent,
            pips: false,
            typeface: Typeface::Sans,
        };
        let wood = DiceLook {
            body: Rgb([107, 62, 31]),
            ink: Rgb([240, 224, 192]),
            material: Material::Wood,
            pips: false,
            typeface: Typeface::Sans,
        };
        let sams_own = Event::Dice {
            by: "Sam".into(),
            character: None,
            look: Some(wood),
        };
        append(&mut room, sams_own).unwrap_or_else(|e| panic!("{e}"));
        let bea = Tint::Character(1);
        assert_eq!(room.painter("Sam").paint(bea, false), glass.drawn());
        assert_eq!(room.painter("Sam").paint(Tint::Light, true), wood.drawn());
        let chosen = Event::Dice {
            by: "Gwen".into(),
            character: Some("Bea".into()),
            look: Some(wood),
        };
        append(&mut room, chosen).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(room.painter("Sam").paint(bea, false), wood.drawn());

        let stranger = with(r##""Nobody": (body: "#000000", ink: "#ffffff")"##);
        let refused = Scene::parse("crypt.ron", &stranger).expect_err("a stranger's dice");
        assert!(
            refused
                .to_string()
                .contains("dice: Nobody is not in the cast (Ash, Bea"),
            "{refused}"
        );
    }

    fn parsed(ron: &str) -> crate::rules::play::Move {
        crate::rules::data::parse_ron("move", ron).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Who may make a move is the rules' word, move by move: a player is refused (and not
    /// offered) what the rules give the game master: a resource changed by hand, a call for a
    /// roll, an easy challenge; the acting character's player ends their own turn in a system
    /// file's turn order. A room opened before keeps the rights of its time.
    #[test]
    fn the_rules_say_who_makes_each_move() {
        let labels = |room: &RoomState, by: &str| -> Vec<String> {
            let drafted = room
                .draft(by, None, false)
                .unwrap_or_else(|e| panic!("{e}"));
            drafted.kinds.iter().map(|k| k.label.clone()).collect()
        };
        let code = |room: &RoomState, by: &str, mv: &crate::rules::play::Move| {
            room.may(by, &Proposal::Move(mv.clone()))
                .err()
                .map(|e| e.code())
        };
        let build = crate::record::build_id();

        // The derelict (a system file, turns in the scene's order): Okoye acts first.
        let mut derelict = room_built("system-count-sixes.ron", &build);
        join(&mut derelict, "Gwen", Role::Gamemaster, &[]);
        join(&mut derelict, "Pat", Role::Player, &["Okoye"]);
        join(&mut derelict, "Sam", Role::Player, &["Lind"]);
        assert!(labels(&derelict, "Gwen").contains(&"Change a resource".to_string()));
        assert!(!labels(&derelict, "Pat").contains(&"Change a resource".to_string()));
        let strain = parsed(r#"SystemFile(Adjust(actor: Some(0), resource: "strain", by: 1))"#);
        assert_eq!(
            code(&derelict, "Pat", &strain),
            Some(crate::errors::ErrorCode::GamemasterMove)
        );
        assert_eq!(code(&derelict, "Gwen", &strain), None);
        let end = parsed("SystemFile(EndTurn)");
        assert!(
            derelict.table.heading().contains("Okoye"),
            "{}",
            derelict.table.heading()
        );
        assert_eq!(
            code(&derelict, "Pat", &end),
            None,
            "Okoye's player ends Okoye's turn"
        );
        assert_eq!(
            code(&derelict, "Sam", &end),
            Some(crate::errors::ErrorCode::NotYourSeat)
        );
        assert_eq!(code(&derelict, "Gwen", &end), None);

        // The ambush (d4-pool): the game master calls for a roll.
        let mut ambush = room_built("d4-pool-goblin-ambush.ron", &build);
        join(&mut ambush, "Gwen", Role::Gamemaster, &[]);
        join(&mut ambush, "Pat", Role::Player, &["Vex the Rogue"]);
        let call = parsed(r#"D4Pool(GmCall(actor: 0, aspect: "Finesse"))"#);
        assert!(!labels(&ambush, "Pat").contains(&"GM calls a roll".to_string()));
        assert!(labels(&ambush, "Gwen").contains(&"GM calls a roll".to_string()));
        assert_eq!(
            code(&ambush, "Pat", &call),
            Some(crate::errors::ErrorCode::GamemasterMove)
        );
        // Opened by a build of its time, the same room let a player call the roll.
        let mut before = room_built("d4-pool-goblin-ambush.ron", "test");
        join(&mut before, "Pat", Role::Player, &["Vex the Rogue"]);
        assert_ne!(
            code(&before, "Pat", &call),
            Some(crate::errors::ErrorCode::GamemasterMove)
        );

        // The vault (step dice): whether a challenge is easy is the game master's call.
        let mut vault = room_built("step-dice-vault.ron", &build);
        join(&mut vault, "Pat", Role::Player, &["Ana"]);
        let easy = parsed("StepDice(Easy(actor: 0))");
        assert_eq!(
            code(&vault, "Pat", &easy),
            Some(crate::errors::ErrorCode::GamemasterMove)
        );
        assert!(!labels(&vault, "Pat").contains(&"Easy action".to_string()));
    }
}
