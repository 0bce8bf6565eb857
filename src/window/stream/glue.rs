//! The app's side of the server: jobs from the roll API shown at the table (one at a time, in
//! order), and what happens at the table becomes feed events. Only this module knows both the
//! table and the server. A free roll or a move comes already rolled (the server rolls it
//! through the roll path, off the frames; a move on the table this window gave for it): the
//! felt throws its recorded throws again to show them (a move applied to the table it was
//! rolled on, never another), and the job is told once its record, the same one, is in the
//! history.

use std::time::{SystemTime, UNIX_EPOCH};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::net::feed::{self, Byline, Chance, FeedDie, FeedEvent, TableInfo};
use crate::odds::dist::Prob;
use crate::online::log::Proposal;
use crate::record::RollRecord;
use crate::stream::api::{ApiError, Asker};
use crate::stream::server::{self, Job, RoomThrow, ServerOptions, TableLink};
use crate::window::table::{
    ActionRequest, Caller, HistoryEntry, RemoteDriven, Replay, RollHistory, RoomProposal,
    RoomProposals, TablePlay, TableRoll, TableSimulator, ThrowEvent, ThrowNotation,
};
use crate::window::ui::MoveDraft;
use crate::window::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Relay>();
    app.add_systems(Startup, start_server);
    app.add_systems(
        Update,
        (
            take_job.in_set(AppSystems::ReadInput),
            (
                relay_throws,
                relay_outcomes,
                relay_table,
                relay_draft,
                give_up_on_lost_jobs,
            )
                .chain()
                .in_set(AppSystems::Present),
        )
            .run_if(resource_exists::<Link>),
    );
}

/// The link to the running server.
#[derive(Resource)]
struct Link(TableLink);

/// Where the roll API and the feed listen, once the server has started (port 0 asked: the
/// port chosen).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Listening(pub std::net::SocketAddr);

/// What the relay has told the feed, and the API job at the table.
#[derive(Resource, Default)]
struct Relay {
    /// The job being thrown.
    pending: Option<Pending>,
    /// Who the throws in the air are for.
    byline: Option<Byline>,
    /// The roll in the air is a room's hidden roll: its throws, poses and outcome stay off
    /// the feed.
    withheld: bool,
    /// Rolls started since the table opened.
    roll: u64,
    /// The throw in the air within its roll.
    throw: u64,
    /// The poses last sent for each die of the throw in the air.
    sent: Vec<[f32; 7]>,
    /// History entries already sent.
    history_seen: usize,
    /// The table as last sent.
    table_sent: Option<TableInfo>,
    /// The draft as last sent.
    draft_sent: Option<String>,
}

/// An API job at the table: a roll already rolled, being shown; told once its record (this
/// digest) is in the history.
struct Pending {
    /// The record's digest.
    digest: String,
    /// Whether it is a move's (else a free roll's).
    is_move: bool,
    /// Where the answer goes.
    shown: tokio::sync::oneshot::Sender<Result<(), ApiError>>,
    byline: Byline,
    idle_frames: u32,
}

impl Pending {
    /// Whether `record` is what the job waits for.
    fn awaits(&self, record: &RollRecord) -> bool {
        self.digest == record.digest
    }

    /// Answers the job: its record came to the history.
    fn answer(self) {
        let _ = self.shown.send(Ok(()));
    }

    /// Answers the job with why it could not be shown.
    fn fail(self, why: ApiError) {
        let _ = self.shown.send(Err(why));
    }
}

fn start_server(
    mut commands: Commands,
    options: Res<PlayOptions>,
    wake: Option<Res<crate::window::wake::WakeBell>>,
    mut physics: NonSendMut<TableSimulator>,
) {
    let Some(addr) = options.listen else { return };
    let server_options = ServerOptions {
        addr,
        token: options.token.clone(),
        tls: options.tls.clone(),
        headers: options.headers.clone(),
        hosts: options.hosts.clone(),
    };
    match server::start(&server_options) {
        Ok((addr, link)) => {
            let scheme = server_options.scheme();
            println!("listening on {scheme}://{addr} (overlay: {scheme}://{addr}/overlay)");
            physics.keep_log();
            link.ring_on_jobs(crate::window::wake::bell(wake.as_deref()));
            if options.join.is_some() {
                link.at_a_room();
            }
            commands.insert_resource(Link(link));
            commands.insert_resource(Listening(addr));
        }
        Err(e) => eprintln!("error: {e}; the table goes on without the overlay and the API"),
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn byline(asker: &Asker, what: String) -> Byline {
    Byline {
        colour: asker
            .colour
            .clone()
            .unwrap_or_else(|| feed::colour_of(asker.who.as_deref())),
        who: asker.who.clone(),
        label: asker.label.clone(),
        what,
    }
}

fn chance(p: &Prob) -> Chance {
    let f = p.to_f64();
    Chance {
        percent: format!("{:.1}%", 100.0 * f),
        exact: p.exact(),
        p: f,
    }
}

fn caller(asker: &Asker) -> Caller {
    Caller {
        who: asker.who.clone(),
        label: asker.label.clone(),
        ..Caller::default()
    }
}

/// The table as a job finds it: free or busy, the seated scene, the drafted move; and where
/// its throw goes.
#[derive(SystemParam)]
struct TableForJobs<'w> {
    physics: NonSend<'w, TableSimulator>,
    table_roll: Res<'w, TableRoll>,
    play: ResMut<'w, TablePlay>,
    draft: Res<'w, MoveDraft>,
    /// Present when the table is a room's (`play --join`).
    remote: Option<Res<'w, RemoteDriven>>,
    /// The API's throws for the room, when at one.
    proposals: Option<ResMut<'w, RoomProposals>>,
    notations: MessageWriter<'w, ThrowNotation>,
    moves: MessageWriter<'w, ActionRequest>,
}

/// Takes the next API job when the table is free, and throws it.
fn take_job(mut link: ResMut<Link>, mut relay: ResMut<Relay>, table: TableForJobs) {
    let TableForJobs {
        physics,
        table_roll,
        mut play,
        draft,
        remote,
        proposals,
        mut notations,
        mut moves,
    } = table;
    if relay.pending.is_some() || physics.busy() || table_roll.in_flight() || play.in_flight() {
        return;
    }
    let Some(job) = link.0.next_job() else { return };
    if remote.is_some() {
        // A room's throws are seeded by its server, never by this window or its API: the API's
        // are proposed to it.
        match job {
            Job::Show { shown, .. } => {
                let _ = shown.send(Err(ApiError::AtARoom));
            }
            Job::Draft { reply, .. } => {
                let _ = reply.send(Err(ApiError::AtARoom));
            }
            Job::Propose {
                what,
                label,
                mode,
                reply,
            } => {
                let what = match what {
                    RoomThrow::Notation(n) => Proposal::Notation(n),
                    RoomThrow::DraftedMove => match draft.mv.clone() {
                        Some(mv) => Proposal::Move(mv),
                        None => {
                            let _ = reply.send(Err(ApiError::NoScene));
                            return;
                        }
                    },
                };
                let proposal = RoomProposal {
                    what,
                    label,
                    mode,
                    reply,
                };
                match proposals {
                    Some(mut waiting) => waiting.0.push(proposal),
                    None => {
                        let _ = proposal.reply.send(Err(ApiError::AtARoom));
                    }
                }
            }
        }
        return;
    }
    match job {
        Job::Propose { reply, .. } => {
            let _ = reply.send(Err(ApiError::NotAtARoom));
        }
        Job::Show {
            record,
            asker,
            on: Some(on),
            shown,
        } => {
            let Some(state) = play.state.as_ref() else {
                let _ = shown.send(Err(ApiError::NoScene));
                return;
            };
            if state.canonical_state() != on.state {
                let _ = shown.send(Err(ApiError::TableChanged));
                return;
            }
            let title = state.describe(&on.mv);
            let odds = state.odds(&on.mv).ok().flatten();
            let by = byline(&asker, title);
            let odds = odds.and_then(|o| o.p_success);
            await_shown(&link, &mut relay, by, odds.as_ref(), &record, true, shown);
            // The felt throws the move again, with the record's seed (the same throws), on the
            // table it was rolled on, and applies it.
            moves.write(ActionRequest {
                mv: on.mv,
                seed: record.seed,
                swing: record.gesture.map(Into::into),
                replay_of: None,
                caller: Caller {
                    who: record.who.clone(),
                    label: record.label.clone(),
                    ..Caller::default()
                },
            });
        }
        Job::Show {
            record,
            asker,
            on: None,
            shown,
        } => {
            let crate::record::Thrown::Notation { notation: text } = &record.what else {
                let _ = shown.send(Err(ApiError::Failed("not a free roll".into())));
                return;
            };
            let notation = match crate::roll::recorded_notation(text, &record) {
                Ok(n) => n,
                Err(e) => {
                    let _ = shown.send(Err(ApiError::BadNotation(e.into())));
                    return;
                }
            };
            let by = byline(&asker, text.clone());
            let odds = notation.p_success();
            await_shown(&link, &mut relay, by, odds.as_ref(), &record, false, shown);
            // The felt throws the record's throws again: the same seed, gesture and policy.
            notations.write(ThrowNotation {
                notation,
                seed: record.seed,
                swing: record.gesture.map(Into::into),
                cocked: record.cocked,
                caller: Caller {
                    shown_only: true,
                    ..caller(&asker)
                },
            });
        }
        Job::Draft { seed, reply } => {
            let (Some(mv), Some(state)) = (draft.mv.clone(), play.state.clone()) else {
                let _ = reply.send(Err(ApiError::NoScene));
                return;
            };
            let seed = seed.unwrap_or_else(|| play.take_seed());
            let _ = reply.send(Ok(server::Drafted {
                table: state,
                scene: play.scene.clone().unwrap_or_default(),
                mv,
                seed,
            }));
        }
    }
}

/// Announces an API job's throw on the feed (who, what, the chance of success) and waits for
/// the felt to show `record` (a move's, or a free roll's): the answer goes to `shown` then.
fn await_shown(
    link: &Link,
    relay: &mut Relay,
    by: Byline,
    p_success: Option<&Prob>,
    record: &RollRecord,
    is_move: bool,
    shown: tokio::sync::oneshot::Sender<Result<(), ApiError>>,
) {
    link.0.publish(FeedEvent::Drafted {
        by: by.clone(),
        chance: p_success.map(chance),
    });
    relay.pending = Some(Pending {
        digest: record.digest.clone(),
        is_move,
        shown,
        byline: by,
        idle_frames: 0,
    });
}

/// Who the throw in the air is for: the API job, or the window's player.
fn byline_now(relay: &Relay, table_roll: &TableRoll, play: &TablePlay) -> Byline {
    if let Some(p) = &relay.pending {
        return p.byline.clone();
    }
    let (what, caller) = match in_the_air(table_roll, play) {
        Some((what, caller)) => (what, Some(caller)),
        None => (String::new(), None),
    };
    // A throw of a room's log is its member's: named, as the room's pages name it.
    let who = caller
        .filter(|c| c.shown_only && !c.replay)
        .and_then(|c| c.who.clone());
    byline(
        &Asker {
            who,
            ..Asker::default()
        },
        what,
    )
}

/// Whether the roll in the air (the same one `byline_now` names) is a room's hidden roll.
fn withheld_now(table_roll: &TableRoll, play: &TablePlay) -> bool {
    in_the_air(table_roll, play).is_some_and(|(_, caller)| caller.withheld)
}

/// The roll whose dice are in the air: what it throws in words, and who asked for it (a free
/// roll in flight first, else the move, else the last free roll); None before any.
fn in_the_air<'a>(table_roll: &'a TableRoll, play: &'a TablePlay) -> Option<(String, &'a Caller)> {
    match (&table_roll.current, &play.current) {
        (Some(n), _) if table_roll.in_flight() => {
            Some((n.notation.source().to_string(), &n.caller))
        }
        (_, Some(m)) => Some((m.title.clone(), &m.request.caller)),
        (Some(n), None) => Some((n.notation.source().to_string(), &n.caller)),
        (None, None) => None,
    }
}

/// Throws starting, their poses, and their dice settling, as they happened; a room's hidden
/// roll's not at all.
fn relay_throws(
    link: Res<Link>,
    mut relay: ResMut<Relay>,
    mut physics: NonSendMut<TableSimulator>,
    table_roll: Res<TableRoll>,
    play: Res<TablePlay>,
) {
    for event in physics.take_log() {
        let event = match event {
            ThrowEvent::Started {
                number: _,
                throw,
                poses,
            } => {
                if throw.request.tag == 0 {
                    relay.withheld = withheld_now(&table_roll, &play);
                    if relay.withheld {
                        continue;
                    }
                    relay.roll += 1;
                    relay.byline = Some(byline_now(&relay, &table_roll, &play));
                }
                if relay.withheld {
                    continue;
                }
                relay.throw = throw.request.tag;
                relay.sent = poses.iter().map(feed::rounded).collect();
                FeedEvent::Throw {
                    roll: relay.roll,
                    throw: throw.request.tag,
                    by: relay.byline.clone().unwrap_or_default(),
                    dice: throw
                        .dice
                        .iter()
                        .enumerate()
                        .map(|(i, (kind, style))| {
                            let marks = throw.marks.get(i).and_then(Option::as_ref);
                            FeedDie::of(*kind, *style).marked(marks)
                        })
                        .collect(),
                    poses: poses.iter().map(feed::flat).collect(),
                }
            }
            ThrowEvent::Frame(_) | ThrowEvent::Settled { .. } if relay.withheld => continue,
            ThrowEvent::Frame(frame) => {
                let (mut dice, mut poses) = (Vec::new(), Vec::new());
                for (i, pose) in frame.poses.iter().map(feed::rounded).enumerate() {
                    if relay.sent.get(i) != Some(&pose) {
                        let len = relay.sent.len().max(i + 1);
                        relay.sent.resize(len, [0.0; 7]);
                        relay.sent[i] = pose;
                        dice.push(i);
                        poses.push(pose);
                    }
                }
                if dice.is_empty() {
                    continue;
                }
                FeedEvent::Poses {
                    roll: relay.roll,
                    throw: relay.throw,
                    step: frame.step,
                    dice,
                    poses,
                }
            }
            ThrowEvent::Settled { number: _, record } => FeedEvent::Settled {
                roll: relay.roll,
                throw: record.tag,
                faces: record.faces.clone(),
                poses: record.poses.iter().map(feed::flat).collect(),
            },
        };
        link.0.publish(event);
    }
}

/// Each finished roll: its outcome on the feed (a room's hidden roll's never), and its record
/// to the API job that asked.
fn relay_outcomes(
    link: Res<Link>,
    mut relay: ResMut<Relay>,
    history: Res<RollHistory>,
    play: Res<TablePlay>,
) {
    let settled_at_ms = now_ms();
    while relay.history_seen < history.entries.len() {
        let entry = &history.entries[relay.history_seen];
        relay.history_seen += 1;
        if entry.withheld {
            continue;
        }
        let record = entry.record.clone();
        let by = match &relay.pending {
            Some(p) if p.awaits(&record) => p.byline.clone(),
            _ => relay.byline.clone().unwrap_or_default(),
        };
        link.0.publish(FeedEvent::Outcome {
            roll: relay.roll,
            by,
            total: record.total,
            outcome: record.outcome.clone(),
            faces: record.faces.clone(),
            shown: crate::roll::read_record(&record).map(|r| r.shown),
            code: record.code(),
            readings: feed::readings(&record),
            explained: explained(entry, &play),
            record: Box::new(record.clone()),
            settled_at_ms,
        });
        if relay.pending.as_ref().is_some_and(|p| p.awaits(&record))
            && let Some(p) = relay.pending.take()
        {
            p.answer();
        }
    }
}

/// A move's outcome as the window's Outcome panel shows it (the arithmetic, the special
/// results, what changed), when `entry` is the move the table has just finished; nothing for a
/// free roll.
fn explained(entry: &HistoryEntry, play: &TablePlay) -> feed::Explained {
    let Some(current) = play.current.as_ref().filter(|current| {
        matches!(entry.replay, Replay::Move { .. }) && current.request.seed == entry.seed
    }) else {
        return feed::Explained::default();
    };
    let Some(outcome) = current.outcome() else {
        return feed::Explained::default();
    };
    feed::Explained {
        lines: outcome.lines.clone(),
        tags: outcome.tags.clone(),
        changed: current.effects.clone(),
    }
}

/// The seated scene and whose turn it is, when they change.
fn relay_table(link: Res<Link>, mut relay: ResMut<Relay>, play: Res<TablePlay>) {
    let info = TableInfo {
        scene: play.scene.clone(),
        ruleset: play.state.as_ref().map(|s| s.ruleset().to_string()),
        game: play
            .state
            .as_ref()
            .and_then(|s| s.game())
            .map(|g| g.0.to_string()),
        about: None,
        turn: play.state.as_ref().map(|s| {
            let acting: Vec<String> = s
                .tracker()
                .into_iter()
                .filter(|r| r.acting)
                .map(|r| r.name)
                .collect();
            acting.join(", ")
        }),
    };
    if relay.table_sent.as_ref() != Some(&info) {
        relay.table_sent = Some(info.clone());
        link.0.publish(FeedEvent::Table(info));
    }
}

/// The window's drafted move and its chance of success, when it changes (nothing in the air).
fn relay_draft(
    link: Res<Link>,
    mut relay: ResMut<Relay>,
    draft: Res<MoveDraft>,
    play: Res<TablePlay>,
) {
    let (Some(mv), Some(state), Some(preview)) = (&draft.mv, &play.state, draft.preview()) else {
        return;
    };
    let title = state.describe(mv);
    if relay.draft_sent.as_deref() == Some(title.as_str()) || relay.pending.is_some() {
        return;
    }
    relay.draft_sent = Some(title.clone());
    let chance = preview
        .odds
        .as_ref()
        .ok()
        .and_then(|o| o.as_ref())
        .and_then(|o| o.p_success.as_ref())
        .map(chance);
    link.0.publish(FeedEvent::Drafted {
        by: byline(&Asker::default(), title),
        chance,
    });
}

/// A job whose throw never started or stopped is answered with the error, by its code: the
/// move's own (refused, stopped), or the free roll's (the felt did not show the record it was
/// given: another record came to the history, or its roll stopped).
fn give_up_on_lost_jobs(
    mut relay: ResMut<Relay>,
    physics: NonSend<TableSimulator>,
    table_roll: Res<TableRoll>,
    play: Res<TablePlay>,
) {
    let idle = !physics.busy() && !table_roll.in_flight() && !play.in_flight();
    let Some(p) = relay.pending.as_mut() else {
        return;
    };
    p.idle_frames = if idle { p.idle_frames + 1 } else { 0 };
    if p.idle_frames <= 3 {
        return;
    }
    let Some(p) = relay.pending.take() else {
        return;
    };
    // Rolled already: the felt did not show the record it was given (another record came to
    // the history, or its roll stopped here).
    let stopped = if p.is_move {
        play.current.as_ref().and_then(|m| m.error.clone())
    } else {
        table_roll.error.clone()
    };
    let why = match stopped {
        Some(e) => ApiError::Roll(e),
        None => ApiError::Failed("the felt did not show the roll it was given".into()),
    };
    warn!("roll API: {} ({})", why, why.code());
    p.fail(why);
}
