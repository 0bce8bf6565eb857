//! A room's state, rebuilt from its log: the scene's table, who sits where, the hidden rolls and
//! what happened. The server, every client and `verify` apply the same entries with the same
//! code; the server also simulates proposals into entries here. Rules and physics are called,
//! never changed: a move runs through `rules::play` and a throw through `record::roll`.

use std::collections::BTreeMap;

use super::log::{Entry, Event, HiddenRoll, LOG_FORMAT, Proposal, Role, SeedProof, check_link};
use super::seal::{self, GENESIS, NONCE_BYTES, SECRET_BYTES};
use crate::dice::physical_dice;
use crate::physics::SettleRules;
use crate::record::replay::{check_record, rules_faces};
use crate::record::roll::{MAX_THROWS, record_notation, throw_once};
use crate::record::{Gesture, RollDice, RollInputs, RollRecord, ThrowRecord, Thrown};
use crate::rules::engine::Rulebook;
use crate::rules::notation::Notation;
use crate::rules::play::Move;
use crate::rules::scene::Scene;
use crate::rules::table::TableState;
use crate::rules::{Outcome, RollPlan, Step};
use crate::script::snapshot;

/// Most dice a free roll may throw in a room.
pub const MAX_ROOM_DICE: usize = 100;

/// Someone in the room.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
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
    /// The dice.
    pub notation: String,
    /// What for.
    pub label: Option<String>,
    /// The seed's commitment.
    pub commitment: String,
    /// The seal of the reveal.
    pub sealed: String,
    /// The roll, once revealed.
    pub revealed: Option<RollRecord>,
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
    /// What happened, oldest first.
    pub history: Vec<Happened>,
    /// The build that opened the room.
    pub build: String,
    /// Throws that re-simulated differently here (another platform or build, or a forged
    /// record): shown, never hidden.
    pub mismatches: Vec<String>,
}

/// The table's digest as entries carry it.
pub fn table_digest(table: &TableState) -> String {
    seal::state_digest(&snapshot(table))
}

impl RoomState {
    /// A room from its first line (a `created` entry).
    pub fn open(line: &str) -> Result<RoomState, String> {
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
            return Err("the log's first entry does not open a room".into());
        };
        if format != LOG_FORMAT {
            return Err(format!(
                "log format {format} is not known to this build (it reads {LOG_FORMAT})"
            ));
        }
        let scene = Scene::parse("the room's scene", &scene).map_err(|e| e.to_string())?;
        let book = Rulebook::builtin().map_err(|e| e.to_string())?;
        let table = TableState::new(&scene, &book, table_seed);
        let mut members = BTreeMap::new();
        members.insert(
            gamemaster.clone(),
            Member {
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
            build,
            mismatches: Vec::new(),
        })
    }

    /// Rebuilds a room from its whole log (lines in order).
    pub fn replay<'a>(
        mut lines: impl Iterator<Item = &'a str>,
        checks: Checks,
    ) -> Result<RoomState, String> {
        let first = lines.next().ok_or("the room's log is empty")?;
        let mut room = RoomState::open(first)?;
        for line in lines {
            room.apply_line(line, checks)?;
        }
        Ok(room)
    }

    /// The character seats of names, or why not.
    pub fn seats_of(&self, names: &[String]) -> Result<Vec<usize>, String> {
        let cast = self.table.names();
        names
            .iter()
            .map(|n| {
                cast.iter().position(|c| c == n).ok_or_else(|| {
                    format!(
                        "there is no character '{n}' in {} (the cast: {})",
                        self.scene.name,
                        cast.join(", ")
                    )
                })
            })
            .collect()
    }

    /// Whether `name` may join as `role` seated as `seats`: a seat is one player's.
    pub fn may_join(&self, name: &str, role: Role, seats: &[String]) -> Result<Vec<usize>, String> {
        if name.trim().is_empty() || name.len() > 40 || name.chars().any(char::is_control) {
            return Err("a name is 1 to 40 printable characters".into());
        }
        if role == Role::Gamemaster && name != self.gamemaster {
            return Err(format!(
                "{} is the game master of this room; join as a player or spectator",
                self.gamemaster
            ));
        }
        if role != Role::Gamemaster && name == self.gamemaster {
            return Err(format!("{name} is this room's game master"));
        }
        if role != Role::Player && !seats.is_empty() {
            return Err(format!("a {role} takes no seats"));
        }
        let wanted = self.seats_of(seats)?;
        for (other, m) in &self.members {
            if other == name {
                continue;
            }
            if let Some(taken) = wanted.iter().find(|s| m.seats.contains(s)) {
                return Err(format!(
                    "{} is already played by {other}",
                    self.table
                        .names()
                        .get(*taken)
                        .copied()
                        .unwrap_or("that seat")
                ));
            }
        }
        Ok(wanted)
    }

    /// Whether `by` may make a proposal, and if not, why.
    pub fn may(&self, by: &str, what: &Proposal, hidden: bool) -> Result<(), String> {
        let member = self
            .members
            .get(by)
            .ok_or_else(|| format!("{by} has not joined this room"))?;
        match member.role {
            Role::Spectator => return Err("a spectator watches; it does not throw".into()),
            Role::Gamemaster => {}
            Role::Player if hidden => {
                return Err("only the game master rolls hidden".into());
            }
            Role::Player => {
                if let Proposal::Move(mv) = what {
                    let names = self.table.names();
                    match self.table.actor_of(mv) {
                        None => {
                            return Err(format!(
                                "{} is the game master's move",
                                self.table.describe(mv)
                            ));
                        }
                        Some(actor) if !member.seats.contains(&actor) => {
                            return Err(format!(
                                "{by} does not play {}",
                                names.get(actor).copied().unwrap_or("that character")
                            ));
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        if hidden && !matches!(what, Proposal::Notation(_)) {
            return Err("a hidden roll is a free roll (dice notation), not a move".into());
        }
        match what {
            Proposal::Notation(text) => {
                let n = Notation::parse(text).map_err(|e| e.to_string())?;
                let dice = n.dice().len();
                if dice == 0 || dice > MAX_ROOM_DICE {
                    return Err(format!(
                        "a room's free roll throws 1 to {MAX_ROOM_DICE} dice, not {dice}"
                    ));
                }
                Ok(())
            }
            Proposal::Move(mv) => self.table.allowed(mv),
        }
    }

    /// Applies the next log line: its place in the chain, then its event, checked as the
    /// server made it (rights, seed proof, rules; physics when asked).
    pub fn apply_line(&mut self, line: &str, checks: Checks) -> Result<Entry, String> {
        let entry = Entry::parse(line)?;
        check_link(&entry, self.seq + 1, &self.head)?;
        let seq = entry.seq;
        self.apply_event(seq, &entry.event, checks)
            .map_err(|e| format!("entry {seq}: {e}"))?;
        self.seq = seq;
        self.head = seal::line_hash(line);
        Ok(entry)
    }

    fn apply_event(&mut self, seq: u64, event: &Event, checks: Checks) -> Result<(), String> {
        match event {
            Event::Created { .. } => Err("a second 'created' entry".into()),
            Event::Joined { name, role, seats } => {
                let seats = self.may_join(name, *role, seats)?;
                self.members
                    .insert(name.clone(), Member { role: *role, seats });
                self.note(seq, format!("{name} joined as {role}"), None);
                Ok(())
            }
            Event::Played {
                by,
                mv,
                said,
                state,
            } => {
                let what = Proposal::Move(mv.clone());
                self.may(by, &what, false)?;
                let (record, done) = run_move(&self.table, mv, &mut |_, _| {
                    Err("a move that throws dice is logged as a throw".into())
                })?;
                debug_assert!(record.is_empty());
                let mut table = self.table.clone();
                let now = table.apply(mv, &[], &done)?;
                same_effects(said, &now)?;
                same_state(state, &table)?;
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
                self.may(by, what, false)?;
                self.check_proof(proof, record, seq)?;
                if checks.physics {
                    self.resimulate(seq, record);
                }
                let table = self.check_throw(what, record, said)?;
                same_state(state, &table)?;
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
                commitment,
                sealed,
            } => {
                self.may(by, &Proposal::Notation(notation.clone()), true)?;
                self.hidden.insert(
                    seq,
                    HiddenNote {
                        by: by.clone(),
                        notation: notation.clone(),
                        label: label.clone(),
                        commitment: commitment.clone(),
                        sealed: sealed.clone(),
                        revealed: None,
                    },
                );
                self.note(seq, format!("{by} rolled {notation} hidden"), None);
                Ok(())
            }
            Event::Revealed { of, salt, payload } => {
                let note = self
                    .hidden
                    .get(of)
                    .cloned()
                    .ok_or_else(|| format!("entry {of} is not a hidden roll"))?;
                if note.revealed.is_some() {
                    return Err(format!("the hidden roll {of} is revealed already"));
                }
                let salt_bytes = seal::unhex(salt, seal::SALT_BYTES, "the salt")?;
                if !seal::same(&seal::seal(&salt_bytes, payload), &note.sealed) {
                    return Err(format!(
                        "the reveal of {of} does not match its seal (the roll was changed)"
                    ));
                }
                let hidden: HiddenRoll = serde_json::from_str(payload)
                    .map_err(|e| format!("the reveal of {of} is not a hidden roll: {e}"))?;
                if hidden.notation != note.notation || hidden.proof.commitment != note.commitment {
                    return Err(format!("the reveal of {of} shows another roll"));
                }
                self.check_proof(&hidden.proof, &hidden.record, *of)?;
                if checks.physics {
                    self.resimulate(seq, &hidden.record);
                }
                self.check_throw(
                    &Proposal::Notation(hidden.notation.clone()),
                    &hidden.record,
                    &[],
                )?;
                let text = format!(
                    "{} revealed {}: {}",
                    note.by,
                    note.notation,
                    hidden.record.total.unwrap_or_default()
                );
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
        let found = match check_record(record) {
            Ok(check) => check.differences.first().cloned(),
            Err(e) => Some(e),
        };
        if let Some(d) = found {
            self.mismatches
                .push(format!("entry {seq}: re-simulated differently: {d}"));
        }
    }

    fn note(&mut self, seq: u64, text: String, record: Option<RollRecord>) {
        self.history.push(Happened { seq, text, record });
    }

    /// The seed proof: the secret behind the commitment, and the seed it and the nonce,
    /// gesture, room and place make.
    fn check_proof(&self, proof: &SeedProof, record: &RollRecord, seq: u64) -> Result<(), String> {
        let secret = seal::unhex(&proof.secret, SECRET_BYTES, "the secret")?;
        let nonce = seal::unhex(&proof.nonce, NONCE_BYTES, "the nonce")?;
        if !seal::same(&seal::commitment(&secret), &proof.commitment) {
            return Err(
                "the secret does not match the commitment published before the throw".into(),
            );
        }
        let seed = seal::throw_seed(&secret, &nonce, proof.gesture.as_ref(), &self.room, seq);
        if record.seed != seed {
            return Err(format!(
                "the roll's seed {} is not the one its proof makes ({seed})",
                record.seed
            ));
        }
        if record.gesture != proof.gesture {
            return Err("the roll's gesture is not the one its proof hashes".into());
        }
        Ok(())
    }

    /// The rules' reading of a throw's faces: the same outcome and changes; the table after.
    fn check_throw(
        &self,
        what: &Proposal,
        record: &RollRecord,
        said: &[String],
    ) -> Result<TableState, String> {
        for (n, t) in record.throws.iter().enumerate() {
            if t.faces.len() != t.dice.len() || t.poses.len() != t.dice.len() {
                return Err(format!(
                    "throw {} lists its dice, faces and poses unevenly",
                    n + 1
                ));
            }
        }
        match what {
            Proposal::Notation(text) => {
                let notation = Notation::parse(text).map_err(|e| e.to_string())?;
                if record.what
                    != (Thrown::Notation {
                        notation: text.clone(),
                    })
                {
                    return Err("the record throws another notation".into());
                }
                let result = notation.evaluate(&record.faces)?;
                if Some(result.total) != record.total {
                    return Err(format!(
                        "the faces {:?} make {}, the record says {:?}",
                        record.faces, result.total, record.total
                    ));
                }
                if !said.is_empty() {
                    return Err("a free roll changes nothing at the table".into());
                }
                Ok(self.table.clone())
            }
            Proposal::Move(mv) => {
                let mut n = 0;
                let (throws, outcome) = run_move(&self.table, mv, &mut |_, plan| {
                    let t = record
                        .throws
                        .get(n)
                        .ok_or("the record has fewer throws than the rules ask for")?;
                    if t.dice != plan_dice(plan)? {
                        return Err(format!(
                            "throw {} threw other dice than the rules ask for",
                            n + 1
                        ));
                    }
                    n += 1;
                    Ok(t.clone())
                })?;
                if throws.len() != record.throws.len() {
                    return Err("the record has more throws than the rules ask for".into());
                }
                let faces: Vec<Vec<u32>> = throws.iter().map(rules_faces).collect();
                if faces != record.faces {
                    return Err(format!(
                        "the record's faces {:?} are not its throws' {:?}",
                        record.faces, faces
                    ));
                }
                if record.outcome.as_deref() != Some(outcome.class.as_str())
                    || record.total != Some(outcome.total)
                {
                    return Err(format!(
                        "the faces {faces:?} make {} ({}), the record says {:?} ({:?})",
                        outcome.class, outcome.total, record.outcome, record.total
                    ));
                }
                let mut table = self.table.clone();
                let now = table.apply(mv, &faces, &outcome)?;
                same_effects(said, &now)?;
                Ok(table)
            }
        }
    }

    /// Simulates a proposal (the server's side): the event to log, with the seed proof given.
    #[allow(clippy::too_many_arguments)]
    pub fn simulate(
        &self,
        by: &str,
        what: &Proposal,
        label: Option<String>,
        proof: SeedProof,
        seq: u64,
        secret: &[u8],
        nonce: &[u8],
    ) -> Result<Simulated, String> {
        let gesture = proof.gesture;
        let seed = seal::throw_seed(secret, nonce, gesture.as_ref(), &self.room, seq);
        let rules = SettleRules::default();
        match what {
            Proposal::Notation(text) => {
                let notation = Notation::parse(text).map_err(|e| e.to_string())?;
                let (_, mut record) = record_notation(&rules, &notation, seed, gesture)?;
                record.who = Some(by.to_string());
                record.label = label;
                Ok(Simulated::Throw {
                    record: Box::new(record),
                    said: Vec::new(),
                    table: self.table.clone(),
                })
            }
            Proposal::Move(mv) => {
                let (throws, outcome) = run_move(&self.table, mv, &mut |n, plan| {
                    throw_once(&rules, seed, n, plan_dice(plan)?, gesture)
                })?;
                let mut table = self.table.clone();
                let faces: Vec<Vec<u32>> = throws.iter().map(rules_faces).collect();
                let said = table.apply(mv, &faces, &outcome)?;
                if throws.is_empty() {
                    return Ok(Simulated::Played { said, table });
                }
                let inputs = RollInputs {
                    dice: RollDice::Throws(throws.iter().map(|t| t.dice.clone()).collect()),
                    seed,
                    gesture,
                    cocked: rules.cocked,
                };
                let title = self.table.describe(mv);
                let mut record = RollRecord::new(
                    Thrown::Move {
                        ruleset: self.table.ruleset().to_string(),
                        scene: self.scene.name.clone(),
                        action: title.clone(),
                    },
                    &inputs,
                    throws,
                );
                record.who = Some(by.to_string());
                record.label = label.or(Some(title));
                record.faces = faces;
                record.total = Some(outcome.total);
                record.outcome = Some(outcome.class);
                Ok(Simulated::Throw {
                    record: Box::new(record),
                    said,
                    table,
                })
            }
        }
    }
}

/// What a simulated proposal came to.
#[derive(Debug)]
pub enum Simulated {
    /// A move without dice.
    Played {
        /// What changed.
        said: Vec<String>,
        /// The table after.
        table: TableState,
    },
    /// A throw.
    Throw {
        /// The roll.
        record: Box<RollRecord>,
        /// What changed.
        said: Vec<String>,
        /// The table after.
        table: TableState,
    },
}

/// The physical dice of a plan, in throw order.
fn plan_dice(plan: &RollPlan) -> Result<Vec<crate::dice::DieKind>, String> {
    let mut dice = Vec::new();
    for d in &plan.dice {
        dice.extend(physical_dice(d.sides)?);
    }
    Ok(dice)
}

/// Runs a move through the rules: each throw the plan asks for comes from `throw(n, plan)`
/// until the rules reach an outcome. The throws and the outcome (not applied).
pub fn run_move(
    table: &TableState,
    mv: &Move,
    throw: &mut dyn FnMut(u32, &RollPlan) -> Result<ThrowRecord, String>,
) -> Result<(Vec<ThrowRecord>, Outcome), String> {
    let mut plan = table.plan(mv)?;
    let mut throws: Vec<ThrowRecord> = Vec::new();
    let mut faces: Vec<Vec<u32>> = Vec::new();
    loop {
        if !plan.dice.is_empty() {
            if throws.len() >= MAX_THROWS as usize {
                return Err(format!("more than {MAX_THROWS} throws for one move"));
            }
            let t = throw(throws.len() as u32, &plan)?;
            let f = rules_faces(&t);
            plan.check_faces(&f)?;
            faces.push(f);
            throws.push(t);
        }
        match table.resolve(mv, &faces)? {
            Step::ThrowMore(next) => plan = next,
            Step::Done(outcome) => return Ok((throws, outcome)),
        }
    }
}

fn same_effects(logged: &[String], now: &[String]) -> Result<(), String> {
    if logged != now {
        return Err(format!(
            "the table changed otherwise: logged {logged:?}, the rules say {now:?}"
        ));
    }
    Ok(())
}

fn same_state(logged: &str, table: &TableState) -> Result<(), String> {
    if !seal::same(logged, &table_digest(table)) {
        return Err("the table's state after it differs from the one logged".into());
    }
    Ok(())
}

/// A gesture's sanity for a proposal: finite numbers within the tray's reach.
pub fn check_gesture(g: &Gesture) -> Result<(), String> {
    let ok = g
        .release
        .iter()
        .chain(&g.velocity)
        .all(|x| x.is_finite() && x.abs() <= 10_000.0);
    if ok {
        Ok(())
    } else {
        Err("a gesture is six finite numbers of at most 10000 (cm, cm/s)".into())
    }
}
