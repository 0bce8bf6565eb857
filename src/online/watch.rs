//! A room's page (`/{room}/watch`, for a browser or OBS): the room's log turned into the
//! overlay's feed events. Each throw is thrown again from its record (seed, gesture, dice) to
//! get its motion, and its dice must come to rest where the record says; the page plays the
//! motion, then shows the outcome the record holds. Nothing here decides a face.

use super::log::{Entry, Event, HiddenRoll, Proposal};
use super::room::{Checks, RoomState, run_move};
use crate::dice::looks::{character_style, dice_of_plan, notation_style};
use crate::dice::mesh::DieStyle;
use crate::record::roll::trace;
use crate::record::{Pose, RollRecord, Thrown};
use crate::stream::feed::{Byline, FeedDie, FeedEvent, TableInfo, colour_of, flat, hex, rounded};

/// Physics steps between two samples of a throw's motion (30 a second, as the window's feed).
pub const SAMPLE_STEPS: u32 = 8;
/// Outcomes a page is sent when it connects.
pub const RECENT: usize = 20;

/// A page's view of a room: the room as its log makes it, and what the page was last told.
pub struct Watch {
    room: RoomState,
    table: TableInfo,
}

impl Watch {
    /// A view of the room from its first line.
    pub fn open(first: &str) -> Result<Watch, String> {
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
    pub fn see(&mut self, line: &str, motion: bool) -> Result<Vec<FeedEvent>, String> {
        let entry = Entry::parse(line)?;
        // The acting character and the dice's colours come from the table before the move.
        let (actor, looks) = match &entry.event {
            Event::Thrown { what, record, .. } => {
                let actor = match what {
                    Proposal::Move(mv) => self.room.table.actor_of(mv),
                    Proposal::Notation(_) => None,
                };
                (actor, Some(self.looks(what, record, actor)?))
            }
            _ => (None, None),
        };
        self.room.apply_line(line, Checks::default())?;
        let seq = entry.seq;
        let mut events = Vec::new();
        match entry.event {
            Event::Thrown { by, record, .. } => {
                let byline = byline(&by, actor, &record);
                if motion {
                    events.extend(motions(seq, &byline, &record, &looks.unwrap_or_default()));
                }
                events.push(outcome(seq, byline, record, entry.at_ms));
            }
            Event::Revealed { of, payload, .. } => {
                let hidden: HiddenRoll = serde_json::from_str(&payload)
                    .map_err(|e| format!("entry {seq}: the revealed roll: {e}"))?;
                let what = Proposal::Notation(hidden.notation.clone());
                let looks = self.looks(&what, &hidden.record, None)?;
                let by = self.room.gamemaster.clone();
                let mut byline = byline(&by, None, &hidden.record);
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
                    events.extend(motions(seq, &byline, &hidden.record, &looks));
                }
                events.push(outcome(seq, byline, Box::new(hidden.record), entry.at_ms));
            }
            Event::Hidden {
                by,
                notation,
                label,
                ..
            } => events.push(FeedEvent::Hidden {
                roll: seq,
                by: Byline {
                    colour: colour_of(Some(&by)),
                    who: Some(by),
                    label: Some(label.unwrap_or_else(|| "a hidden roll".into())),
                    what: notation,
                },
            }),
            Event::Created { .. } | Event::Joined { .. } | Event::Played { .. } => {}
        }
        let table = table_info(&self.room);
        if table != self.table {
            self.table = table.clone();
            events.push(FeedEvent::Table(table));
        }
        Ok(events)
    }

    /// Each throw's dice colours, as the window draws them: a move's from its plans (the role of
    /// each die, the acting character `actor`), a free roll's light and dark in turn.
    fn looks(
        &self,
        what: &Proposal,
        record: &RollRecord,
        actor: Option<usize>,
    ) -> Result<Vec<Vec<DieStyle>>, String> {
        match what {
            Proposal::Notation(_) => Ok(record
                .throws
                .iter()
                .map(|t| {
                    t.dice
                        .iter()
                        .enumerate()
                        .map(|(i, &k)| notation_style(k, i))
                        .collect()
                })
                .collect()),
            Proposal::Move(mv) => {
                let mut looks = Vec::new();
                run_move(&self.room.table, mv, &mut |n, plan| {
                    looks.push(
                        dice_of_plan(plan, actor)?
                            .into_iter()
                            .map(|(_, style)| style)
                            .collect(),
                    );
                    record
                        .throws
                        .get(n as usize)
                        .cloned()
                        .ok_or_else(|| format!("the record has no throw {n}"))
                })?;
                Ok(looks)
            }
        }
    }
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

/// Every throw of a roll with its motion. A throw that does not re-simulate to its record here
/// (another platform or build) is shown at rest where the record says, and the server says so.
fn motions(seq: u64, by: &Byline, record: &RollRecord, looks: &[Vec<DieStyle>]) -> Vec<FeedEvent> {
    record
        .throws
        .iter()
        .enumerate()
        .map(|(n, throw)| {
            let frames = match trace(throw, record.gesture, record.cocked, SAMPLE_STEPS) {
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
            let style = |i: usize| {
                looks
                    .get(n)
                    .and_then(|l| l.get(i))
                    .copied()
                    .unwrap_or(DieStyle::IVORY)
            };
            FeedEvent::Motion {
                roll: seq,
                throw: throw.tag,
                by: by.clone(),
                dice: throw
                    .dice
                    .iter()
                    .enumerate()
                    .map(|(i, kind)| FeedDie {
                        kind: kind.id(),
                        body: hex(style(i).body),
                        ink: hex(style(i).ink),
                    })
                    .collect(),
                hz: crate::physics::STEP_HZ / f64::from(SAMPLE_STEPS),
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

fn outcome(seq: u64, by: Byline, record: Box<RollRecord>, at_ms: u64) -> FeedEvent {
    FeedEvent::Outcome {
        roll: seq,
        by,
        total: record.total,
        outcome: record.outcome.clone(),
        faces: record.faces.clone(),
        code: record.code(),
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
    TableInfo {
        scene: Some(room.scene.name.clone()),
        ruleset: Some(room.table.ruleset().to_string()),
        turn: Some(acting.join(", ")),
    }
}

/// A page's first view: the room from its stored lines, and the latest outcomes (oldest first).
pub fn catch_up(lines: &[String]) -> Result<(Watch, Vec<FeedEvent>), String> {
    let first = lines.first().ok_or("the room's log is empty")?;
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
