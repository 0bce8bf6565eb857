//! `play --join ws://HOST:PORT/ROOM`: the window as a client of a table server. The room's log
//! drives the table: its scene is seated, each throw is thrown again on the felt with the
//! server's seed and gesture (the same motion and faces as on every other screen, checked
//! against the record), and the tracker follows the room. The window's own throws (button,
//! Space, gesture) go to the server as proposals. Only this module knows both the online
//! client and the table.

mod link;

use std::collections::VecDeque;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub use link::JoinOptions;
use link::{FromServer, Link, ToServer};

use crate::dice::looks::DicePainter;
use crate::online::log::{Entry, Event, HiddenRoll, Proposal, Role, RollMode};
use crate::online::room::{Checks, RoomState};
use crate::record::RollRecord;
use crate::rules::play::Move;
use crate::rules::table::TableState;
use crate::stream::api::ApiError;
use crate::window::table::{
    ActionRequest, Caller, RemoteDriven, RoomProposals, TablePlay, TableRoll, TableSimulator,
    ThrowNotation,
};
use crate::window::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<JoinDialog>();
    // Joined once the window's own dice are known: they are chosen for its member.
    app.add_systems(Startup, connect.after(crate::window::table::OwnDiceLoaded));
    app.add_systems(
        EguiPrimaryContextPass,
        draw_join_dialog.run_if(
            not(resource_exists::<Online>).and_then(|o: Res<PlayOptions>| {
                o.stream.is_none() && o.exit_after_frames.is_none()
            }),
        ),
    );
    app.add_systems(
        Update,
        (
            (forward_own_throws, forward_api_throws, forward_dice_chosen)
                .in_set(AppSystems::ReadInput),
            (take_news, finish_showing, show_next)
                .chain()
                .in_set(AppSystems::Present),
        )
            .run_if(resource_exists::<Online>),
    );
    app.add_systems(
        EguiPrimaryContextPass,
        draw_indicator.run_if(resource_exists::<Online>),
    );
}

/// The connection as the indicator shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Connection {
    /// Connecting (or reconnecting) to the server.
    Connecting(String),
    /// In the room.
    Connected,
    /// Gone for good, with why.
    Failed(String),
}

/// The window's side of the room: the link, the room as checked so far, the lines waiting to
/// be shown, and the throw being shown.
#[derive(Resource)]
struct Online {
    link: Link,
    who: String,
    room: Option<RoomState>,
    waiting: VecDeque<String>,
    showing: Option<Showing>,
    connection: Connection,
    /// Entries shown so far.
    shown: u64,
    /// What the server refused, and throws whose faces differed here: shown, never hidden.
    notices: Vec<String>,
    /// Own proposals not yet logged or refused.
    outstanding: usize,
    /// Who sees the window's own throws, as chosen in it (None: the room's default).
    mode: Option<RollMode>,
    /// Hidden rolls this member may see, thrown on the felt once their entry is shown.
    sealed: VecDeque<(u64, HiddenRoll)>,
    /// Whether the window shows what a hidden roll holds: not in stream mode, where the window
    /// itself is captured for a stream.
    shows_sealed: bool,
}

/// A throw on the felt: the record it must match.
struct Showing {
    seq: u64,
    record: RollRecord,
    started: bool,
    /// A hidden roll this member may see, thrown here alone.
    hidden: bool,
}

fn connect(
    mut commands: Commands,
    options: Res<PlayOptions>,
    wake: Option<Res<crate::window::wake::WakeBell>>,
    own: Res<crate::window::table::OwnDice>,
) {
    let Some(mut join) = options.join.clone() else {
        return;
    };
    join.dice = own.look;
    if let Err(e) = go_online(
        &mut commands,
        join,
        options.stream.is_none(),
        crate::window::wake::bell(wake.as_deref()),
    ) {
        eprintln!("error: {e}");
    }
}

/// Starts the client and hands the table to the room.
fn go_online(
    commands: &mut Commands,
    join: JoinOptions,
    shows_sealed: bool,
    bell: crate::net::bell::Bell,
) -> Result<(), link::LinkError> {
    let who = join.name.clone();
    match Link::start(join, bell) {
        Ok(link) => {
            commands.insert_resource(RemoteDriven { catching_up: true });
            commands.init_resource::<RoomProposals>();
            commands.insert_resource(Online {
                link,
                who,
                room: None,
                waiting: VecDeque::new(),
                showing: None,
                connection: Connection::Connecting("connecting…".into()),
                shown: 0,
                notices: Vec::new(),
                outstanding: 0,
                mode: None,
                sealed: VecDeque::new(),
                shows_sealed,
            });
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// What the join dialog's fields lack.
#[derive(Debug, thiserror::Error)]
enum DialogError {
    /// Not a room's address.
    #[error(transparent)]
    Address(#[from] crate::online::client::ClientError),
    /// No name given.
    #[error("give your name")]
    NoName,
    /// The client did not start.
    #[error(transparent)]
    Link(#[from] link::LinkError),
}

/// The "Join a table" dialog: the room's address, your name, the passcode, your role and
/// characters (opened from the scene panel).
#[derive(Resource)]
pub struct JoinDialog {
    /// Shown.
    pub open: bool,
    url: String,
    name: String,
    passcode: String,
    role: Role,
    seats: String,
    error: Option<String>,
}

impl Default for JoinDialog {
    fn default() -> Self {
        JoinDialog {
            open: false,
            url: "ws://127.0.0.1:7480/".into(),
            name: String::new(),
            passcode: String::new(),
            role: Role::Player,
            seats: String::new(),
            error: None,
        }
    }
}

impl JoinDialog {
    /// The options the fields make, or what is missing.
    fn options(&self) -> Result<JoinOptions, DialogError> {
        crate::online::client::room_of(self.url.trim())?;
        if self.name.trim().is_empty() {
            return Err(DialogError::NoName);
        }
        Ok(JoinOptions {
            url: self.url.trim().to_string(),
            name: self.name.trim().to_string(),
            passcode: self.passcode.clone(),
            role: self.role,
            seats: self
                .seats
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            // The system's roots: a certificate of the server's own is trusted with
            // `play --join URL --trust-cert FILE`.
            trust: None,
            // The window's own dice, where the dialog's caller has them.
            dice: None,
        })
    }
}

/// The dialog, once "Join a table…" (in the scene panel) opened it.
fn draw_join_dialog(
    mut commands: Commands,
    mut contexts: EguiContexts,
    mut dialog: ResMut<JoinDialog>,
    mut play: ResMut<TablePlay>,
    wake: Option<Res<crate::window::wake::WakeBell>>,
    own: Res<crate::window::table::OwnDice>,
) -> Result {
    let bell = crate::window::wake::bell(wake.as_deref());
    let ctx = contexts.ctx_mut()?;
    if !dialog.open {
        return Ok(());
    }
    let mut join = false;
    let mut cancel = false;
    egui::Window::new("Join a table")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
        .show(ctx, |ui| {
            egui::Grid::new("join-fields")
                .num_columns(2)
                .show(ui, |ui| {
                    ui.label("Room");
                    ui.text_edit_singleline(&mut dialog.url)
                        .on_hover_text("ws://HOST:PORT/ROOM, as the game master gave it");
                    ui.end_row();
                    ui.label("Your name");
                    ui.text_edit_singleline(&mut dialog.name);
                    ui.end_row();
                    ui.label("Passcode");
                    ui.add(egui::TextEdit::singleline(&mut dialog.passcode).password(true));
                    ui.end_row();
                    ui.label("As");
                    ui.horizontal(|ui| {
                        for (role, text) in [
                            (Role::Player, "player"),
                            (Role::Gamemaster, "game master"),
                            (Role::Spectator, "spectator"),
                        ] {
                            ui.radio_value(&mut dialog.role, role, text);
                        }
                    });
                    ui.end_row();
                    if dialog.role == Role::Player {
                        ui.label("Characters");
                        ui.text_edit_singleline(&mut dialog.seats)
                            .on_hover_text("the characters you play, separated by commas");
                        ui.end_row();
                    }
                });
            if let Some(e) = &dialog.error {
                ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
            }
            ui.horizontal(|ui| {
                join = ui.button("Join").clicked();
                cancel = ui.button("Cancel").clicked();
            });
        });
    if cancel {
        dialog.open = false;
        dialog.error = None;
    }
    if join {
        match dialog
            .options()
            .map(|o| JoinOptions { dice: own.look, ..o })
            .and_then(|o| Ok(go_online(&mut commands, o, true, bell.clone())?)) // not in stream mode
        {
            Ok(()) => {
                dialog.open = false;
                dialog.error = None;
                // The room's own scene replaces the local one when its log arrives.
                play.state = None;
                play.scene = None;
                play.current = None;
            }
            Err(e) => dialog.error = Some(e.to_string()),
        }
    }
    Ok(())
}

/// The window's own throws become proposals (the table throws only what the server logged), in
/// the room's default mode.
fn forward_own_throws(
    mut online: ResMut<Online>,
    mut moves: MessageReader<ActionRequest>,
    mut notations: MessageReader<ThrowNotation>,
) {
    let mode = online
        .room
        .as_ref()
        .and_then(|r| own_mode(r, &online.who, online.mode).secret());
    for r in moves.read().filter(|r| !r.caller.shown_only) {
        online.outstanding += 1;
        online.link.send(ToServer::Throw {
            what: Proposal::Move(r.mv.clone()),
            gesture: r.swing.map(Into::into),
            label: r.caller.label.clone(),
            mode,
            reply: None,
        });
    }
    for r in notations.read().filter(|r| !r.caller.shown_only) {
        online.outstanding += 1;
        online.link.send(ToServer::Throw {
            what: Proposal::Notation(r.notation.source().to_string()),
            gesture: r.swing.map(Into::into),
            label: r.caller.label.clone(),
            mode,
            reply: None,
        });
    }
}

/// The API's throws go to the room as proposals, in the mode asked or the room's default; the
/// API answers with what the room logged.
/// The window's own dice, chosen while it is in a room: chosen for its member there too.
fn forward_dice_chosen(
    online: Option<Res<Online>>,
    mut chosen: MessageReader<crate::window::table::DiceChosen>,
) {
    for crate::window::table::DiceChosen(look) in chosen.read() {
        if let Some(online) = &online {
            online.link.send(ToServer::Dice(*look));
        }
    }
}

/// The API's throws for the room, proposed once the room has arrived: one asked for while the
/// window is still joining waits for it (a Stream Deck pressed as the window starts), and is
/// refused only when the connection has failed.
fn forward_api_throws(mut online: ResMut<Online>, mut proposals: ResMut<RoomProposals>) {
    let asked: Vec<_> = proposals.0.drain(..).collect();
    for p in asked {
        let Some(default) = online.room.as_ref().map(|r| r.modes.default) else {
            if matches!(online.connection, Connection::Failed(_)) {
                let _ = p.reply.send(Err(ApiError::NoScene));
            } else {
                proposals.0.push(p);
            }
            continue;
        };
        online.outstanding += 1;
        online.link.send(ToServer::Throw {
            what: p.what,
            gesture: None,
            label: p.label,
            mode: p.mode.unwrap_or(default).secret(),
            reply: Some(p.reply),
        });
    }
}

/// Takes what the link brought: lines to show, the connection's state, refusals.
fn take_news(
    mut online: ResMut<Online>,
    mut play: ResMut<TablePlay>,
    mut remote: ResMut<RemoteDriven>,
) {
    for news in online.link.drain() {
        match news {
            FromServer::Connection(c) => {
                if let Connection::Failed(e) = &c {
                    play.log.push(format!("the table server: {e}"));
                }
                online.connection = c;
            }
            FromServer::Line(line) => online.waiting.push_back(line),
            FromServer::Logged => online.outstanding = online.outstanding.saturating_sub(1),
            FromServer::Sealed(seq, hidden) => {
                // A hidden roll this member may see: told, and thrown on the felt after its
                // entry (never on the OBS feed). A window captured for a stream shows none of it.
                println!("{}", hidden_roll_told(seq, &hidden.record));
                if online.shows_sealed {
                    online.sealed.push_back((seq, *hidden));
                }
            }
            FromServer::Refused(reason) => {
                online.outstanding = online.outstanding.saturating_sub(1);
                println!("refused: {reason}");
                play.log.push(format!("refused: {reason}"));
                online.notices.push(format!("refused: {reason}"));
            }
        }
    }
    remote.catching_up = online.room.is_none()
        || !online.waiting.is_empty()
        || online.showing.is_some()
        || online.outstanding > 0;
}

/// A hidden roll this member may see, in words: its entry, what was thrown, what it came to.
fn hidden_roll_told(seq: u64, record: &RollRecord) -> String {
    let what = record.label.clone().unwrap_or_else(|| match &record.what {
        crate::record::Thrown::Notation { notation } => notation.clone(),
        crate::record::Thrown::Move { action, .. } => action.clone(),
    });
    let total = record.total.map(|t| t.to_string()).unwrap_or_default();
    let outcome = record
        .outcome
        .as_ref()
        .map(|o| format!(" ({o})"))
        .unwrap_or_default();
    format!("hidden roll {seq}: {what} -> {total}{outcome} (sealed: the room sees it was thrown)")
}

/// True while the felt is busy with a throw.
fn table_busy(physics: &TableSimulator, roll: &TableRoll, play: &TablePlay) -> bool {
    physics.busy() || roll.in_flight() || play.in_flight()
}

/// Once a shown throw has settled: its faces compared with the record's, the room's table
/// after it seated.
fn finish_showing(
    mut online: ResMut<Online>,
    mut play: ResMut<TablePlay>,
    roll: Res<TableRoll>,
    physics: NonSend<TableSimulator>,
) {
    let Some(showing) = online.showing.as_mut() else {
        return;
    };
    if !showing.started {
        // A roll of no dice (`0d6+3`) never makes the table busy: it is read as it is asked.
        let read_at_once = showing.record.throws.is_empty()
            && roll.total.is_some()
            && roll
                .current
                .as_ref()
                .is_some_and(|c| c.seed == showing.record.seed);
        showing.started = table_busy(&physics, &roll, &play) || read_at_once;
        if !read_at_once {
            return;
        }
    }
    if table_busy(&physics, &roll, &play) {
        return;
    }
    let (seq, expected, hidden) = (showing.seq, showing.record.faces.clone(), showing.hidden);
    let here: Vec<Vec<u32>> = match &showing.record.what {
        crate::record::Thrown::Notation { .. } => roll.chains().to_vec(),
        crate::record::Thrown::Move { .. } => play
            .current
            .as_ref()
            .map(|c| c.faces().to_vec())
            .unwrap_or_default(),
    };
    println!(
        "{} entry {seq}: faces {here:?} {}",
        if hidden { "hidden" } else { "online" },
        if here == expected {
            "as logged".to_string()
        } else {
            format!("DIFFER from the log's {expected:?}")
        }
    );
    if here != expected {
        let line = format!(
            "entry {seq}: this window's physics read {here:?}, the server's {expected:?} (another platform or build?): the server's faces stand"
        );
        play.log.push(line.clone());
        online.notices.push(line);
    }
    if let Some(room) = &online.room {
        play.state = Some(room.table.clone());
    }
    online.showing = None;
}

/// Shows the next logged entry when the felt is free: a throw is thrown again with the
/// server's seed and gesture; anything else updates the table at once. A hidden roll this
/// member may see is thrown right after its entry, on the felt alone.
fn show_next(mut online: ResMut<Online>, mut play: ResMut<TablePlay>, mut felt: Felt) {
    if online.showing.is_some() || table_busy(&felt.physics, &felt.roll, &play) {
        return;
    }
    if show_sealed(&mut online, &mut play, &mut felt) {
        return;
    }
    let Some(line) = online.waiting.pop_front() else {
        return;
    };
    let Ok(entry) = Entry::parse(&line) else {
        online
            .notices
            .push("the server sent a line that is not an entry".into());
        return;
    };
    if online.room.is_none() {
        match RoomState::open(&line) {
            Ok(room) => {
                play.state = Some(room.table.clone());
                play.scene = Some(room.scene.name.clone());
                play.current = None;
                play.log.push(format!(
                    "— {} ({}) —",
                    room.scene.name,
                    room.scene.ruleset()
                ));
                online.room = Some(room);
                online.shown = 1;
            }
            Err(e) => online
                .notices
                .push(format!("the room does not open here: {e}")),
        }
        return;
    }
    let Some(room) = online.room.as_mut() else {
        return;
    };
    let before = room.table.clone();
    if let Err(e) = room.apply_line(&line, Checks::default()) {
        let e = format!("the room's log did not check: {e}");
        play.log.push(e.clone());
        online.notices.push(e);
        online.waiting.clear();
        return;
    }
    online.shown = entry.seq;
    let said = online
        .room
        .as_ref()
        .and_then(|r| r.history.last())
        .map(|h| h.text.clone())
        .unwrap_or_default();
    // The move thrown, if a move (a public one, or a hidden one shown by its reveal).
    let (by, record, moved) = match &entry.event {
        Event::Thrown {
            by, record, what, ..
        } => (
            by.clone(),
            record.as_ref().clone(),
            match what {
                Proposal::Move(mv) => Some(mv.clone()),
                Proposal::Notation(_) => None,
            },
        ),
        Event::Revealed { payload, .. } => {
            let Ok(hidden) = serde_json::from_str::<HiddenRoll>(payload) else {
                return;
            };
            (
                hidden.record.who.clone().unwrap_or_default(),
                hidden.record,
                hidden.mv,
            )
        }
        _ => {
            play.log.push(said);
            if let Some(room) = &online.room {
                play.state = Some(room.table.clone());
            }
            return;
        }
    };
    let painter = online.room.as_ref().map(|r| r.painter(&by));
    let thrown = Thrown {
        seq: entry.seq,
        by,
        record,
        moved,
        before,
        hidden: false,
        painter,
    };
    match throw_again(thrown, &mut felt) {
        Ok(showing) => online.showing = Some(showing),
        Err(e) => online.notices.push(e),
    }
}

/// Throws the next hidden roll this member may see whose entry is shown (one revealed since is
/// left to its reveal), told in the table log after its entry; true if it threw one.
fn show_sealed(online: &mut Online, play: &mut TablePlay, felt: &mut Felt) -> bool {
    let shown = online.shown;
    let Some(at) = online.sealed.iter().position(|(seq, _)| *seq <= shown) else {
        return false;
    };
    let Some((seq, hidden)) = online.sealed.remove(at) else {
        return false;
    };
    let Some(room) = online.room.as_ref() else {
        return false;
    };
    // Not revealed since: its reveal throws it for everyone.
    let Some(note) = room.hidden.get(&seq).filter(|note| note.revealed.is_none()) else {
        return false;
    };
    let painter = room.painter(&note.by);
    let told = hidden_roll_told(seq, &hidden.record);
    play.log.push(told.clone());
    online.notices.push(told);
    let thrown = Thrown {
        seq,
        painter: Some(painter),
        by: hidden.record.who.clone().unwrap_or_default(),
        // A hidden move holds the table until its reveal: it was rolled on the table as it is.
        before: room.table.clone(),
        record: hidden.record,
        moved: hidden.mv,
        hidden: true,
    };
    match throw_again(thrown, felt) {
        Ok(showing) => {
            online.showing = Some(showing);
            true
        }
        Err(e) => {
            online.notices.push(e);
            false
        }
    }
}

/// Where a logged roll is thrown again: the felt's state and its two kinds of request.
#[derive(SystemParam)]
struct Felt<'w> {
    roll: Res<'w, TableRoll>,
    physics: NonSend<'w, TableSimulator>,
    moves: MessageWriter<'w, ActionRequest>,
    notations: MessageWriter<'w, ThrowNotation>,
}

/// A logged roll to throw again: its entry, its roller, its record, its move (None: a free
/// roll), the table it was rolled on, and whether it is a hidden roll seen here alone.
struct Thrown {
    seq: u64,
    by: String,
    record: RollRecord,
    moved: Option<Move>,
    before: TableState,
    hidden: bool,
    /// How the room paints its thrower's dice.
    painter: Option<DicePainter>,
}

/// Asks the felt to throw `thrown` again with its seed and gesture (a move on the table it was
/// rolled on, never applied there: the room's table follows the log); what it must match.
fn throw_again(thrown: Thrown, felt: &mut Felt) -> Result<Showing, String> {
    let Thrown {
        seq,
        by,
        record,
        moved,
        before,
        hidden,
        painter,
    } = thrown;
    let caller = Caller {
        who: Some(by),
        label: record.label.clone(),
        shown_only: true,
        replay: false,
        withheld: hidden,
        painter,
    };
    let swing = record.gesture.map(Into::into);
    match moved {
        Some(mv) => {
            felt.moves.write(ActionRequest {
                mv,
                seed: record.seed,
                swing,
                replay_of: Some(Box::new(before)),
                caller,
            });
        }
        None => {
            let crate::record::Thrown::Notation { notation } = &record.what else {
                return Err(format!("entry {seq}: a free roll without its notation"));
            };
            let notation = crate::roll::recorded_notation(notation, &record)
                .map_err(|e| format!("entry {seq}: {e}"))?;
            felt.notations.write(ThrowNotation {
                notation,
                seed: record.seed,
                swing,
                cocked: record.cocked,
                caller,
            });
        }
    }
    Ok(Showing {
        seq,
        record,
        started: false,
        hidden,
    })
}

/// The modes a member may throw in, by its role: the game master everyone or itself alone
/// (its hidden roll), a player those the game master left players.
fn modes_for(room: &RoomState, who: &str) -> Vec<RollMode> {
    if room
        .members
        .get(who)
        .is_some_and(|m| m.role == Role::Gamemaster)
    {
        vec![RollMode::Public, RollMode::Roller]
    } else {
        room.modes.players.clone()
    }
}

/// The mode the window's own throws go in: the one chosen in it, else the room's default,
/// where the member may use them; else the first it may (a game master's own throws when the
/// room's default is a player's mode).
fn own_mode(room: &RoomState, who: &str, chosen: Option<RollMode>) -> RollMode {
    let offered = modes_for(room, who);
    [chosen, Some(room.modes.default)]
        .into_iter()
        .flatten()
        .find(|m| offered.contains(m))
        .or(offered.first().copied())
        .unwrap_or(RollMode::Public)
}

/// A roll mode as the window's choice names it (the room page's words).
fn mode_words(mode: RollMode) -> &'static str {
    match mode {
        RollMode::Public => "Everyone, at once",
        RollMode::Gamemaster => "You and the game master",
        RollMode::Blind => "The game master alone (blind: not you)",
        RollMode::Roller => "You alone",
    }
}

/// The connection indicator: the room, who you are, connected or not, and any notice; and who
/// sees the window's own throws.
fn draw_indicator(mut contexts: EguiContexts, mut online: ResMut<Online>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (colour, state) = match &online.connection {
        Connection::Connected => (
            egui::Color32::from_rgb(90, 200, 110),
            "connected".to_string(),
        ),
        Connection::Connecting(s) => (egui::Color32::from_rgb(230, 180, 60), s.clone()),
        Connection::Failed(e) => (egui::Color32::from_rgb(230, 90, 80), e.clone()),
    };
    let room = online
        .room
        .as_ref()
        .map(|r| format!("{} · {}", r.room, r.scene.name))
        .unwrap_or_else(|| "joining…".into());
    egui::Area::new(egui::Id::new("online-indicator"))
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 6.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    // Painted: the window's fonts have no round dot.
                    let (dot, _) =
                        ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                    ui.painter().circle_filled(dot.center(), 4.5, colour);
                    ui.label(format!("{room} · {} · {state}", online.who));
                });
                if let Some(n) = online.notices.last() {
                    ui.colored_label(egui::Color32::from_rgb(230, 150, 80), n);
                }
                let choice = online.room.as_ref().map(|room| {
                    (
                        modes_for(room, &online.who),
                        own_mode(room, &online.who, online.mode),
                        room.modes.default,
                    )
                });
                if let Some((offered, mut chosen, default)) = choice {
                    egui::ComboBox::from_label("Who sees your throws")
                        .selected_text(mode_words(chosen))
                        .show_ui(ui, |ui| {
                            for m in offered {
                                ui.selectable_value(&mut chosen, m, mode_words(m));
                            }
                        });
                    // Left at the room's default, the window follows it when the game master
                    // changes it.
                    if chosen != default || online.mode.is_some() {
                        online.mode = Some(chosen);
                    }
                }
            });
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window's own throws go in the mode chosen in it, else the room's default, where the
    /// member may use it: a game master never in a player's mode, a player never in one the game
    /// master took from players.
    #[test]
    fn the_windows_own_throws_take_a_mode_its_member_may_use() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/d20-check-crypt.ron");
        let (_, scene) =
            crate::rules::scene::Scene::load_text(&path).unwrap_or_else(|e| panic!("{e}"));
        let line = |seq: u64, prev: &str, event: Event| {
            Entry {
                seq,
                prev: prev.into(),
                at_ms: 0,
                event,
            }
            .to_line()
        };
        let first = line(
            1,
            crate::online::seal::GENESIS,
            Event::Created {
                format: crate::online::log::LOG_FORMAT,
                room: "crypt".into(),
                gamemaster: "Gwen".into(),
                scene,
                table_seed: 1,
                build: crate::record::build_id(),
            },
        );
        let mut room = RoomState::open(&first).unwrap_or_else(|e| panic!("{e}"));
        for event in [
            Event::Joined {
                name: "Pat".into(),
                role: Role::Player,
                seats: vec!["Ash".into()],
                key: None,
            },
            Event::Modes {
                by: "Gwen".into(),
                default: RollMode::Gamemaster,
                players: vec![RollMode::Gamemaster, RollMode::Blind],
            },
        ] {
            let next = line(room.seq + 1, &room.head, event);
            room.apply_line(&next, Checks::default())
                .unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(own_mode(&room, "Pat", None), RollMode::Gamemaster);
        assert_eq!(
            own_mode(&room, "Pat", Some(RollMode::Blind)),
            RollMode::Blind
        );
        assert_eq!(
            own_mode(&room, "Pat", Some(RollMode::Roller)),
            RollMode::Gamemaster
        );
        assert_eq!(own_mode(&room, "Gwen", None), RollMode::Public);
        assert_eq!(
            own_mode(&room, "Gwen", Some(RollMode::Roller)),
            RollMode::Roller
        );
    }

    #[test]
    fn the_dialog_makes_the_same_options_as_the_command_line() {
        let mut dialog = JoinDialog {
            url: " ws://tables.example:7480/crypt ".into(),
            name: " Pat ".into(),
            passcode: "friends".into(),
            seats: "Ash, Bea,, ".into(),
            ..JoinDialog::default()
        };
        let o = dialog.options().expect("options");
        assert_eq!(o.url, "ws://tables.example:7480/crypt");
        assert_eq!(o.name, "Pat");
        assert_eq!(o.passcode, "friends");
        assert_eq!(o.role, Role::Player);
        assert_eq!(o.seats, vec!["Ash".to_string(), "Bea".to_string()]);
        dialog.name = "  ".into();
        assert!(matches!(dialog.options(), Err(DialogError::NoName)));
        dialog.name = "Pat".into();
        dialog.url = "ws://tables.example:7480/".into();
        assert!(dialog.options().is_err(), "an address without a room");
    }
}
