//! A room's log as a page sees it: the room its lines make, each new line turned into the
//! overlay's feed events (a throw thrown again from its record to get its motion, then its
//! outcome), and the view a room's pages share. The page and its socket are `watch.rs`.

use std::sync::Arc;

use crate::dice::looks::DicePainter;
use crate::dice::looks::character_style;
use crate::dice::marks::FaceMarks;
use crate::dice::style::DieStyle;
use crate::net::feed::{
    Byline, Explained, FeedDie, FeedEvent, TableInfo, colour_of, flat, hex, readings, rounded,
};
use crate::online::log::{Entry, Event, HiddenRoll, Proposal, SealedRoll, SecretMode};
use crate::online::room::{Checks, RoomError, RoomState};
use crate::record::{Cocked, Gesture, Pose, RollRecord, ThrowRecord, Thrown};
use crate::roll::headless::{Motion, trace};
use crate::roll::{MoveRoll, NotationRoll, RollError, ThrowOrder, drive, recorded_throw};
use crate::rules::Outcome;
use crate::rules::table::TableState;

/// Physics steps between two samples of a throw's motion (30 a second, as the window's feed).
pub const SAMPLE_STEPS: u32 = 8;
/// Outcomes a page is sent when it connects.
pub const RECENT: usize = 20;

/// A page's view of a room: the room as its log makes it, and what the page was last told.
#[derive(Clone)]
pub struct Watch {
    room: RoomState,
    table: TableInfo,
}

impl Watch {
    /// A view of the room from its first line.
    pub fn open(first: &str) -> Result<Watch, RoomError> {
        let room = RoomState::open(first)?;
        let table = table_info(&room);
        Ok(Watch { room, table })
    }

    /// The scene and whose turn it is.
    pub fn table(&self) -> TableInfo {
        self.table.clone()
    }

    /// The room's next line, and what the page shows of it: a throw's motion (when `motion`;
    /// lines from before the page connected only give their outcomes), its outcome, a hidden
    /// roll's notice, the table when the turn moved on.
    pub fn see(&mut self, line: &str, motion: bool) -> Result<Vec<FeedEvent>, RoomError> {
        let entry = Entry::parse(line)?;
        // The acting character, the dice's colours and the rules' working come from the table
        // before the move, read back once.
        // A reveal's content, read once.
        let mut revealed = None;
        let (actor, looks, worked) = match &entry.event {
            Event::Thrown {
                by, what, record, ..
            } => {
                let actor = match what {
                    Proposal::Move(mv) => self.room.table.actor_of(mv),
                    Proposal::Notation(_) => None,
                };
                let (looks, worked) = self.looks(by, what, record)?;
                (actor, Some(looks), worked)
            }
            // A hidden move's reveal, at the table that waited for it.
            Event::Revealed { of, payload, .. } => {
                let hidden: HiddenRoll = serde_json::from_str(payload).map_err(|e| {
                    RoomError::Mismatch(format!("entry {}: the revealed roll: {e}", entry.seq))
                })?;
                let by = self.room.hidden.get(of).map(|note| note.by.as_str());
                let painter = self.room.painter(by.unwrap_or_default());
                let drawn = hidden_looks(&self.room.table, &painter, &hidden, *of)?;
                revealed = Some(hidden);
                (drawn.actor, Some(drawn.looks), drawn.worked)
            }
            _ => (None, None, None),
        };
        self.room.apply_line(line, Checks::default())?;
        let seq = entry.seq;
        let mut events = Vec::new();
        match entry.event {
            Event::Thrown {
                by, record, said, ..
            } => {
                let byline = byline(&by, actor, &record);
                if motion {
                    events.extend(motions(seq, &byline, &record, &looks.unwrap_or_default()));
                }
                let explained = Explained {
                    lines: worked.as_ref().map(|o| o.lines.clone()).unwrap_or_default(),
                    tags: worked.map(|o| o.tags).unwrap_or_default(),
                    changed: said,
                };
                events.push(outcome(seq, byline, record, explained, entry.at_ms));
            }
            Event::Revealed { of, .. } => {
                let hidden = revealed.ok_or_else(|| {
                    RoomError::Mismatch(format!("entry {seq}: the revealed roll was not read"))
                })?;
                // The roll's thrower, whoever reveals it.
                let by = self
                    .room
                    .hidden
                    .get(&of)
                    .map_or_else(|| self.room.gamemaster.clone(), |note| note.by.clone());
                let mut byline = byline(&by, actor, &hidden.record);
                byline.label = Some(format!(
                    "revealed roll {of}{}",
                    hidden
                        .record
                        .label
                        .as_ref()
                        .map(|l| format!(": {l}"))
                        .unwrap_or_default()
                ));
                if motion {
                    events.extend(motions(
                        seq,
                        &byline,
                        &hidden.record,
                        &looks.unwrap_or_default(),
                    ));
                }
                let explained = Explained {
                    lines: worked.as_ref().map(|o| o.lines.clone()).unwrap_or_default(),
                    tags: worked.map(|o| o.tags).unwrap_or_default(),
                    changed: hidden.said,
                };
                events.push(outcome(
                    seq,
                    byline,
                    Box::new(hidden.record),
                    explained,
                    entry.at_ms,
                ));
            }
            Event::Hidden {
                by,
                notation,
                label,
                mode,
                ..
            } => events.push(FeedEvent::Hidden {
                roll: seq,
                by: Byline {
                    colour: colour_of(Some(&by)),
                    // Its label only where a build before roll modes logged it in the open.
                    label: Some(label.unwrap_or_else(|| match mode {
                        SecretMode::Roller => "a hidden roll".into(),
                        SecretMode::Gamemaster => "a roll for the game master".into(),
                        SecretMode::Blind => "a blind roll".into(),
                    })),
                    who: Some(by),
                    what: notation.unwrap_or_else(|| "a move".into()),
                },
            }),
            Event::Created { .. }
            | Event::Joined { .. }
            | Event::Played { .. }
            | Event::Modes { .. }
            | Event::Dice { .. } => {}
        }
        let table = table_info(&self.room);
        if table != self.table {
            self.table = table.clone();
            events.push(FeedEvent::Table(table));
        }
        Ok(events)
    }

    /// Each throw's dice looks (`by`'s, as the room's dice make them) and a move's outcome, at
    /// the room's table now ([`looks_at`]).
    fn looks(
        &self,
        by: &str,
        what: &Proposal,
        record: &RollRecord,
    ) -> Result<(Vec<Vec<DrawnDie>>, Option<Outcome>), RoomError> {
        looks_at(&self.room.table, &self.room.painter(by), what, record)
    }
}

/// Each throw's dice looks, as the window draws them: the roll path's orders read back from
/// the record (a move's from its plans and the acting character at `table`, a free roll's light
/// and dark in turn), painted with the dice the room's members chose; and a move's outcome as
/// the rules worked it out on the way.
fn looks_at(
    table: &TableState,
    painter: &DicePainter,
    what: &Proposal,
    record: &RollRecord,
) -> Result<(Vec<Vec<DrawnDie>>, Option<Outcome>), RoomError> {
    match what {
        Proposal::Notation(text) => Ok((notation_looks(text, painter, record)?, None)),
        Proposal::Move(mv) => {
            let mut looks = Vec::new();
            let roll = MoveRoll::start(table, mv, record.seed)?;
            let (roll, _) =
                drive(roll, recording(&mut looks, painter, false, record)).finished()?;
            Ok((looks, roll.outcome().cloned()))
        }
    }
}

/// A hidden roll's content as its dice are drawn, at the table it was thrown at (a hidden
/// move's; the table waits for its reveal): what was thrown, the acting character, each
/// throw's dice colours and a move's outcome.
fn hidden_looks(
    table: &TableState,
    painter: &DicePainter,
    hidden: &HiddenRoll,
    seq: u64,
) -> Result<HiddenLooks, RoomError> {
    let what = hidden.what().ok_or_else(|| {
        RoomError::Mismatch(format!("entry {seq}: the sealed roll throws nothing"))
    })?;
    let actor = match &what {
        Proposal::Move(mv) => table.actor_of(mv),
        Proposal::Notation(_) => None,
    };
    let (looks, worked) = looks_at(table, painter, &what, &hidden.record)?;
    Ok(HiddenLooks {
        actor,
        looks,
        worked,
    })
}

/// What [`hidden_looks`] finds.
struct HiddenLooks {
    actor: Option<usize>,
    looks: Vec<Vec<DrawnDie>>,
    worked: Option<Outcome>,
}

/// How a die of a throw is drawn: its colours and material, and a game's own die's marks.
type DrawnDie = (DieStyle, Option<FaceMarks>);

/// The roll path's next throw read back from `record`, its dice's looks (a free roll's when
/// `free`) kept in `looks`.
fn recording<'a>(
    looks: &'a mut Vec<Vec<DrawnDie>>,
    painter: &'a DicePainter,
    free: bool,
    record: &'a RollRecord,
) -> impl FnMut(&ThrowOrder) -> Result<ThrowRecord, RollError> + 'a {
    move |order| {
        looks.push(
            order
                .tints
                .iter()
                .zip(&order.marks)
                .map(|(t, marks)| (painter.paint(*t, free), marks.clone()))
                .collect(),
        );
        recorded_throw(record, order)
    }
}

/// A free roll's dice looks (its thrower's own dice, else light and dark in turn), read back
/// from its record.
fn notation_looks(
    text: &str,
    painter: &DicePainter,
    record: &RollRecord,
) -> Result<Vec<Vec<DrawnDie>>, RoomError> {
    let mut looks = Vec::new();
    let notation = crate::roll::recorded_notation(text, record)?;
    let roll = NotationRoll::start(&notation, record.seed)?;
    drive(roll, recording(&mut looks, painter, true, record)).finished()?;
    Ok(looks)
}

/// What a tray whose member may see hidden roll `seq` (thrown by `by` at `table`, which waits
/// for a hidden move's reveal) is sent to draw it: each throw's motion, as any roll's, then
/// `unsealed`. Its outcome stays on the member's own page: the feed never carries it.
pub fn unsealed(
    seq: u64,
    by: &str,
    content: &SealedRoll,
    table: &TableState,
    painter: &DicePainter,
) -> Result<Vec<FeedEvent>, RoomError> {
    let hidden: HiddenRoll = serde_json::from_str(&content.payload)
        .map_err(|e| RoomError::Mismatch(format!("entry {seq}: the sealed roll: {e}")))?;
    let drawn = hidden_looks(table, painter, &hidden, seq)?;
    let byline = byline(by, drawn.actor, &hidden.record);
    let mut events = motions(seq, &byline, &hidden.record, &drawn.looks);
    events.push(FeedEvent::Unsealed {
        roll: seq,
        refused: None,
        readings: readings(&hidden.record),
    });
    Ok(events)
}

/// Who threw and what for: the acting character's colour for a move, the thrower's own for a
/// free roll.
fn byline(by: &str, actor: Option<usize>, record: &RollRecord) -> Byline {
    Byline {
        who: Some(by.to_string()),
        colour: actor
            .map(|a| hex(character_style(a).body))
            .unwrap_or_else(|| colour_of(Some(by))),
        label: record.label.clone(),
        what: match &record.what {
            Thrown::Notation { notation } => notation.clone(),
            Thrown::Move { action, .. } => action.clone(),
        },
    }
}

/// Motions worked out lately, kept for every page of every room: thirty pages of a room
/// simulate each throw once between them.
const MOTIONS_KEPT: usize = 64;

/// A throw's motion, worked out once: the first page to ask simulates it, the others wait for
/// that one and share it.
type SharedMotion = Arc<std::sync::OnceLock<Result<Motion, RollError>>>;

/// The place of `throw`'s motion, shared with every page that asks for the same throw (a
/// place of its own when the throw cannot be told apart); the first to fill it simulates.
fn shared_trace(throw: &ThrowRecord, gesture: Option<Gesture>, cocked: Cocked) -> SharedMotion {
    static RECENT: std::sync::Mutex<Vec<(String, SharedMotion)>> =
        std::sync::Mutex::new(Vec::new());
    let (Ok(key), Ok(mut recent)) = (
        serde_json::to_string(&(throw, gesture, cocked)),
        RECENT.lock(),
    ) else {
        return SharedMotion::default();
    };
    match recent.iter().find(|(k, _)| *k == key) {
        Some((_, cell)) => cell.clone(),
        None => {
            if recent.len() >= MOTIONS_KEPT {
                recent.remove(0);
            }
            let cell = SharedMotion::default();
            recent.push((key, cell.clone()));
            cell
        }
    }
}

/// Every throw of a roll with its motion. A throw that does not re-simulate to its record here
/// (another platform or build) is shown at rest where the record says, and the server says so.
fn motions(seq: u64, by: &Byline, record: &RollRecord, looks: &[Vec<DrawnDie>]) -> Vec<FeedEvent> {
    record
        .throws
        .iter()
        .enumerate()
        .map(|(n, throw)| {
            let shared = shared_trace(throw, record.gesture, record.cocked);
            let traced =
                shared.get_or_init(|| trace(throw, record.gesture, record.cocked, SAMPLE_STEPS));
            let frames = match traced {
                Ok(motion) => {
                    let last = motion.frames.len().saturating_sub(1);
                    motion
                        .frames
                        .iter()
                        .enumerate()
                        .map(|(i, f)| sample(f, i == last))
                        .collect()
                }
                Err(e) => {
                    eprintln!("entry {seq}: {e}; the page shows where the record's dice lie");
                    vec![sample(&throw.poses, true)]
                }
            };
            let drawn = |i: usize| {
                looks
                    .get(n)
                    .and_then(|l| l.get(i))
                    .cloned()
                    .unwrap_or((DieStyle::IVORY, None))
            };
            FeedEvent::Motion {
                roll: seq,
                throw: throw.tag,
                by: by.clone(),
                dice: throw
                    .dice
                    .iter()
                    .enumerate()
                    .map(|(i, kind)| {
                        let (style, marks) = drawn(i);
                        FeedDie::of(*kind, style).marked(marks.as_ref())
                    })
                    .collect(),
                hz: crate::roll::headless::samples_per_second(SAMPLE_STEPS),
                frames,
            }
        })
        .collect()
}

fn sample(poses: &[Pose], exact: bool) -> Vec<[f32; 7]> {
    poses
        .iter()
        .map(|p| if exact { flat(p) } else { rounded(p) })
        .collect()
}

fn outcome(
    seq: u64,
    by: Byline,
    record: Box<RollRecord>,
    explained: Explained,
    at_ms: u64,
) -> FeedEvent {
    FeedEvent::Outcome {
        roll: seq,
        by,
        total: record.total,
        outcome: record.outcome.clone(),
        faces: record.faces.clone(),
        shown: crate::roll::read_record(&record).map(|r| r.shown),
        code: record.code(),
        readings: readings(&record),
        explained,
        record,
        settled_at_ms: at_ms,
    }
}

fn table_info(room: &RoomState) -> TableInfo {
    let acting: Vec<String> = room
        .table
        .tracker()
        .into_iter()
        .filter(|r| r.acting)
        .map(|r| r.name)
        .collect();
    let game = room.table.game();
    let about: Vec<&str> = [room.scene.description.as_str(), game.map_or("", |g| g.1)]
        .into_iter()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    TableInfo {
        scene: Some(room.scene.name.clone()),
        ruleset: Some(room.table.ruleset().to_string()),
        turn: Some(acting.join(", ")),
        game: game.map(|g| g.0.to_string()),
        about: (!about.is_empty()).then(|| about.join(" ")),
    }
}

/// A page's first view: the room from its stored lines, and the latest outcomes (oldest first).
pub fn catch_up(lines: &[String]) -> Result<(Watch, Vec<FeedEvent>), RoomError> {
    let first = lines.first().ok_or(crate::online::log::LogError::Empty)?;
    let mut watch = Watch::open(first)?;
    let mut recent = Vec::new();
    for line in &lines[1..] {
        for event in watch.see(line, false)? {
            if matches!(event, FeedEvent::Outcome { .. }) {
                recent.push(event);
            }
        }
    }
    let keep = recent.len().saturating_sub(RECENT);
    Ok((watch, recent.split_off(keep)))
}

/// A room's view as its pages last saw it, kept with the room: a page opening again reads and
/// sees only the lines stored since, not the whole log.
#[derive(Clone)]
pub struct SharedView {
    /// The lines seen.
    pub(super) since: u64,
    /// The room as the lines make it.
    pub(super) watch: Watch,
    /// The latest outcomes, oldest first.
    pub(super) recent: Vec<FeedEvent>,
}

/// `cached` brought up to date with `lines` (the lines after it), or the view of a whole log.
pub(super) fn brought_up_to_date(
    cached: Option<SharedView>,
    lines: &[String],
) -> Result<SharedView, RoomError> {
    let Some(mut view) = cached else {
        let (watch, recent) = catch_up(lines)?;
        return Ok(SharedView {
            since: lines.len() as u64,
            watch,
            recent,
        });
    };
    for line in lines {
        for event in view.watch.see(line, false)? {
            if matches!(event, FeedEvent::Outcome { .. }) {
                view.recent.push(event);
            }
        }
    }
    let keep = view.recent.len().saturating_sub(RECENT);
    view.recent.drain(..keep);
    view.since += lines.len() as u64;
    Ok(view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::log::{LOG_FORMAT, Role, SeedProof};
    use crate::online::room::{Simulated, Simulation, table_digest};
    use crate::online::seal::{self, GENESIS, NONCE_BYTES, SECRET_BYTES};
    use crate::rules::scene::Scene;

    /// The first lines of a room's log with a shipped scene: opened by Gwen, who joins as its
    /// game master.
    fn opened(file: &str) -> Vec<String> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(file);
        let (_, text) = Scene::load_text(&path).unwrap_or_else(|e| panic!("{e}"));
        let created = Entry {
            seq: 1,
            prev: GENESIS.into(),
            at_ms: 0,
            event: Event::Created {
                format: LOG_FORMAT,
                room: "explained".into(),
                gamemaster: "Gwen".into(),
                scene: text,
                table_seed: 1,
                build: crate::record::build_id(),
            },
        }
        .to_line();
        let joined = Entry {
            seq: 2,
            prev: seal::line_hash(&created),
            at_ms: 0,
            event: Event::Joined {
                name: "Gwen".into(),
                role: Role::Gamemaster,
                seats: Vec::new(),
                key: None,
            },
        }
        .to_line();
        vec![created, joined]
    }

    /// The room's default move thrown by the game master as the server throws it: its line.
    fn thrown(room: &RoomState) -> String {
        let (secret, nonce) = ([7u8; SECRET_BYTES], [9u8; NONCE_BYTES]);
        let proof = SeedProof {
            commitment: seal::commitment(&secret),
            secret: seal::hex(&secret),
            nonce: seal::hex(&nonce),
            gesture: None,
        };
        let what = Proposal::Move(room.table.default_move());
        let simulated = room
            .simulate(Simulation {
                by: "Gwen",
                what: &what,
                label: None,
                proof: proof.clone(),
                seq: room.seq + 1,
                secret: &secret,
                nonce: &nonce,
            })
            .unwrap_or_else(|e| panic!("{e}"));
        let Simulated::Throw {
            record,
            said,
            table,
        } = simulated
        else {
            panic!("the default move throws dice");
        };
        Entry {
            seq: room.seq + 1,
            prev: room.head.clone(),
            at_ms: 0,
            event: Event::Thrown {
                by: "Gwen".into(),
                what,
                proof,
                record,
                said,
                state: table_digest(&table, room.format),
            },
        }
        .to_line()
    }

    /// The dice a member chose are those a page draws, from the log alone: the game master
    /// chose stone dice for Ash, and Ash's check (her default move) comes in them, numerals and
    /// material as chosen; a page that replays the log from its start draws the same.
    #[test]
    fn a_page_draws_the_dice_the_log_chose() {
        use crate::dice::style::{DiceLook, Material, Rgb, Typeface};
        let mut lines = opened("d20-check-crypt.ron");
        let mut watch = Watch::open(&lines[0]).unwrap_or_else(|e| panic!("{e}"));
        watch
            .see(&lines[1], false)
            .unwrap_or_else(|e| panic!("{e}"));
        let stone = DiceLook {
            body: Rgb([30, 64, 170]),
            ink: Rgb([255, 255, 255]),
            material: Material::Stone,
            pips: false,
            typeface: Typeface::Sans,
        };
        let chosen = Entry {
            seq: watch.room.seq + 1,
            prev: watch.room.head.clone(),
            at_ms: 0,
            event: Event::Dice {
                by: "Gwen".into(),
                character: Some("Ash".into()),
                look: Some(stone),
            },
        }
        .to_line();
        watch.see(&chosen, true).unwrap_or_else(|e| panic!("{e}"));
        lines.push(chosen);
        let move_line = thrown(&watch.room);
        let drawn = |events: Vec<FeedEvent>| -> Vec<FeedDie> {
            events
                .into_iter()
                .filter_map(|e| match e {
                    FeedEvent::Motion { dice, .. } => Some(dice),
                    _ => None,
                })
                .flatten()
                .collect()
        };
        let dice = drawn(
            watch
                .see(&move_line, true)
                .unwrap_or_else(|e| panic!("{e}")),
        );
        assert_eq!(dice.len(), 1, "{dice:?}");
        assert_eq!(
            dice[0],
            FeedDie::of(crate::dice::DieKind::D20, stone.drawn())
        );
        assert_eq!(
            (dice[0].body.as_str(), dice[0].material),
            ("#1e40aa", Some(Material::Stone))
        );
        assert_eq!(dice[0].surface, Some(Material::Stone.surface()));
        // Replayed from the log's start by a page of its own.
        lines.push(move_line);
        let mut again = Watch::open(&lines[0]).unwrap_or_else(|e| panic!("{e}"));
        let mut replayed = Vec::new();
        for line in &lines[1..] {
            replayed.extend(drawn(
                again.see(line, true).unwrap_or_else(|e| panic!("{e}")),
            ));
        }
        assert_eq!(replayed, dice);
    }

    /// A game's own dice reach a page with their marks, from the log alone: the narrative
    /// dice in their own colours with their symbols, the bone dice in the thrower's with pips
    /// and a skull; the outcome reads each face in words, a page that replays the log from its
    /// start draws the same dice, and the log verifies.
    #[test]
    fn a_games_own_dice_reach_a_page_with_their_marks_and_the_log_verifies() {
        let games = [
            (
                "system-narrative-dice.ron",
                ["d8", "d8", "d12", "d8", "d8"].as_slice(),
                "|✶|✶|✶✶|▲|▲|✶▲|▲▲|",
                "#1f7a3a",
                "2d{Ability}+1d{Proficiency}+2d{Difficulty}: Ability ",
            ),
            (
                "system-bone-dice.ron",
                ["d6", "d6", "d6"].as_slice(),
                "☠|:2|:3|:4|:5|:6|",
                "#961824",
                "3d{Bone}: Bone ",
            ),
        ];
        for (file, kinds, first_marks, first_body, line_starts) in games {
            let mut lines = opened(file);
            let mut watch = Watch::open(&lines[0]).unwrap_or_else(|e| panic!("{e}"));
            watch
                .see(&lines[1], false)
                .unwrap_or_else(|e| panic!("{e}"));
            let move_line = thrown(&watch.room);
            let drawn = |events: &[FeedEvent]| -> Vec<FeedDie> {
                events
                    .iter()
                    .filter_map(|e| match e {
                        FeedEvent::Motion { dice, .. } => Some(dice.clone()),
                        _ => None,
                    })
                    .flatten()
                    .collect()
            };
            let events = watch
                .see(&move_line, true)
                .unwrap_or_else(|e| panic!("{e}"));
            let dice = drawn(&events);
            let drawn_kinds: Vec<&str> = dice.iter().map(|d| d.kind).collect();
            assert_eq!(drawn_kinds, kinds, "{file}");
            assert_eq!(dice[0].marks.as_deref(), Some(first_marks), "{file}");
            assert_eq!(dice[0].body, first_body, "{file}");
            assert!(
                dice.iter()
                    .all(|d| d.reads.as_ref().map(Vec::len) == Some(kind_faces(d.kind))),
                "{file}: {dice:?}"
            );
            let Some(explained) = events.iter().find_map(|e| match e {
                FeedEvent::Outcome { explained, .. } => Some(explained),
                _ => None,
            }) else {
                panic!("{file}: an outcome");
            };
            assert!(
                explained.lines[0].starts_with(line_starts),
                "{file}: {:?}",
                explained.lines
            );
            lines.push(move_line);
            let mut again = Watch::open(&lines[0]).unwrap_or_else(|e| panic!("{e}"));
            let mut replayed = Vec::new();
            for line in &lines[1..] {
                let events = again.see(line, true).unwrap_or_else(|e| panic!("{e}"));
                replayed.extend(drawn(&events));
            }
            assert_eq!(replayed, dice, "{file}");
            let log = lines.join("\n") + "\n";
            let verdict = crate::online::verify::verify_text(&log);
            assert!(
                matches!(
                    verdict,
                    crate::online::verify::Verdict::Verified { rolls: 1, .. }
                ),
                "{file}: {verdict:?}"
            );
        }
    }

    fn kind_faces(id: &str) -> usize {
        crate::dice::DieKind::from_id(id).map_or(0, |k| k.faces() as usize)
    }

    /// A page's outcome of a move holds what the window's holds: the rules' working (each step,
    /// the damage and margins), the special results and what changed, for each ruleset and a
    /// system file; the same as the rules make of the record's faces at the table before it.
    #[test]
    fn a_pages_outcome_holds_the_windows_working_for_every_ruleset() {
        let scenes = [
            ("open-d6-fred-and-peter.ron", "-> shot"),
            ("action-dice-knight-and-magician.ron", "against"),
            ("d20-check-crypt.ron", "performance"),
            ("d4-pool-goblin-ambush.ron", "− Evasion 11 = "),
            ("step-dice-vault.ron", ": marginal"),
            ("system-moves-2d6.ron", "you do it"),
        ];
        for (file, word) in scenes {
            let lines = opened(file);
            let mut watch = Watch::open(&lines[0]).unwrap_or_else(|e| panic!("{file}: {e}"));
            watch
                .see(&lines[1], false)
                .unwrap_or_else(|e| panic!("{e}"));
            let before = watch.room.table.clone();
            let line = thrown(&watch.room);
            let entry = Entry::parse(&line).unwrap_or_else(|e| panic!("{e}"));
            let Event::Thrown {
                what: Proposal::Move(mv),
                record,
                said,
                ..
            } = &entry.event
            else {
                panic!("{file}: a move's throw");
            };
            let faces: Vec<&[u32]> = record.faces.iter().map(Vec::as_slice).collect();
            let (window, changed) = crate::rules::testing::play(&mut before.clone(), mv, &faces);
            let events = watch.see(&line, false).unwrap_or_else(|e| panic!("{e}"));
            let Some(explained) = events.iter().find_map(|e| match e {
                FeedEvent::Outcome { explained, .. } => Some(explained),
                _ => None,
            }) else {
                panic!("{file}: an outcome");
            };
            assert_eq!(explained.lines, window.lines, "{file}");
            assert_eq!(explained.tags, window.tags, "{file}");
            assert_eq!(&explained.changed, said, "{file}");
            assert_eq!(explained.changed, changed, "{file}");
            // The fact that matters in each: the shots, the target, the performance, the
            // damage, the effect, the system file's outcome words.
            assert!(
                explained
                    .lines
                    .iter()
                    .chain(&explained.tags)
                    .any(|l| l.contains(word)),
                "{file}: {explained:?}"
            );
        }
    }
}
