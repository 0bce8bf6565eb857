//! The session's history: every finished roll, free rolls and moves alike, with what is needed
//! to throw it again (the seed, the gesture, and for a move the table as it was). Each roll is
//! written to the lasting history (`crate::history`, SQLite) the moment it is pushed, before its
//! result is printed or drawn; earlier sessions are read back for the history panel.

use std::sync::Mutex;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};

use crate::history::luck::by_roller;
use crate::history::{
    HistoryStore, NewRoll, RollLuck, SessionInfo, SessionLuck, StoredRoll, roll_luck,
};
use crate::odds::notation::Notation;
use crate::physics::throw::Swing;
use crate::record::RollRecord;
use crate::rules::play::Move;
use crate::rules::table::TableState;
use crate::window::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RollHistory>();
    app.init_resource::<LuckBoard>();
    app.add_systems(PreStartup, open_lasting_history);
    app.add_systems(
        Update,
        (work_out_free_roll_luck, tally_luck)
            .chain()
            .in_set(AppSystems::Present),
    );
}

/// How to throw a roll of the history again.
#[derive(Clone, Debug, PartialEq)]
pub enum Replay {
    /// A free roll.
    Notation(Notation, Option<Swing>),
    /// A move, against the table as it was before it (a replay changes nothing at the table).
    Move {
        /// The move.
        mv: Move,
        /// The table before it.
        before: Box<TableState>,
        /// The gesture of its first throw.
        swing: Option<Swing>,
    },
}

/// One finished roll of the session.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    /// What was thrown, in words.
    pub what: String,
    /// Its seed.
    pub seed: u64,
    /// The faces of each throw (a free roll: each die's chain of faces).
    pub faces: Vec<Vec<u32>>,
    /// What it came to.
    pub result: String,
    /// How to throw it again.
    pub replay: Replay,
    /// The roll's record (its replay code: `record.code()`).
    pub record: RollRecord,
    /// Its luck: a move's from the odds computed before the throw; a free roll's is worked
    /// out off the frame after it is shown.
    pub luck: Option<RollLuck>,
    /// A replay of a roll of the history: shown, stored, but not counted in anyone's luck.
    pub is_replay: bool,
    /// Whose roll it was: a move's acting character, a free roll's caller (None: the
    /// window's own free roll).
    pub character: Option<String>,
    /// A room's hidden roll this window's member may see: kept off the OBS feed and out of
    /// the lasting history, so no stream and no later replay shows it.
    pub withheld: bool,
}

/// Who asked for a roll from outside the window (the roll API), named in its record and on the
/// overlay.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Caller {
    /// Who rolls ("Vex").
    pub who: Option<String>,
    /// What for ("attack with dagger against the Goblin").
    pub label: Option<String>,
    /// Only shown, not a new throw: an entry of a table server's log thrown again with its
    /// seed, or a replay from the history. A table driven by a server throws only these; the
    /// others become proposals to the server.
    pub shown_only: bool,
    /// A replay from the history (not a new roll of anyone's).
    pub replay: bool,
    /// A room's hidden roll this window's member may see: thrown on its felt, never on its
    /// OBS feed.
    pub withheld: bool,
    /// A room's dice for this throw (its thrower's own and its characters'), where a room
    /// drives the table; None: the table's own looks.
    pub painter: Option<crate::dice::looks::DicePainter>,
}

/// The lasting history of this window: the database and this session's number in it.
struct Lasting {
    store: Mutex<HistoryStore>,
    session: i64,
}

impl Lasting {
    /// The database (a panic elsewhere while it was held leaves it usable).
    fn store(&self) -> std::sync::MutexGuard<'_, HistoryStore> {
        self.store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Every roll of the session, oldest first (it only grows), and the lasting history.
#[derive(Resource, Default)]
pub struct RollHistory {
    /// This session's rolls.
    pub entries: Vec<HistoryEntry>,
    lasting: Option<Lasting>,
    /// Earlier sessions with rolls, newest first (read when the window opened).
    pub earlier: Vec<SessionInfo>,
    /// What went wrong with the lasting history, for the panel (a file moved aside, a write
    /// that failed).
    pub notices: Vec<String>,
}

impl RollHistory {
    /// Adds a finished roll: written to the lasting history first (committed when this
    /// returns), then kept for the panel. A failed write is a notice; the roll stays shown.
    pub fn push(&mut self, entry: HistoryEntry) {
        let n = self.entries.len() as i64 + 1;
        let mut failure = None;
        if let Some(lasting) = self.lasting.as_ref().filter(|_| !entry.withheld) {
            let store = lasting.store();
            let roll = NewRoll {
                who: entry.character.as_deref(),
                what: &entry.what,
                result: &entry.result,
                luck: entry.luck.as_ref(),
                record: &entry.record,
                replay: entry.is_replay,
            };
            match store.add_roll(lasting.session, n, &roll) {
                Ok(()) => println!(
                    "history: stored session {} roll {n} in {}",
                    lasting.session,
                    store.path().display()
                ),
                Err(e) => failure = Some(e),
            }
        }
        if let Some(e) = failure {
            self.lasting = None;
            self.notice(format!(
                "the history cannot be written ({e}): this session's rolls from now on stay in memory"
            ));
        }
        self.entries.push(entry);
    }

    /// This session's number in the lasting history (None: it is not kept).
    pub fn session(&self) -> Option<i64> {
        self.lasting.as_ref().map(|l| l.session)
    }

    /// An earlier session's rolls, read from the lasting history.
    pub fn earlier_rolls(&mut self, session: i64) -> Vec<StoredRoll> {
        let read = match &self.lasting {
            Some(lasting) => lasting.store().rolls(session),
            None => return Vec::new(),
        };
        match read {
            Ok((rolls, skipped)) => {
                for s in skipped {
                    self.notice(s);
                }
                rolls
            }
            Err(e) => {
                self.notice(format!("session {session} cannot be read: {e}"));
                Vec::new()
            }
        }
    }

    fn notice(&mut self, text: String) {
        warn!("{text}");
        println!("history: {text}");
        self.notices.push(text);
    }
}

/// Opens the lasting history before anything can be thrown, and starts this session in it.
fn open_lasting_history(options: Res<PlayOptions>, mut history: ResMut<RollHistory>) {
    let Some(dir) = &options.history_dir else {
        return;
    };
    let opened = HistoryStore::open(dir);
    if let Some(notice) = opened.notice {
        history.notice(notice);
    }
    let Some(store) = opened.store else {
        return;
    };
    let earlier = store.sessions();
    let place = match &options.join {
        Some(join) => format!("window, room {}", join.url),
        None if options.stream.is_some() => "window, stream mode".to_string(),
        None => "window".to_string(),
    };
    match (earlier, store.begin_session(&place)) {
        (Ok(earlier), Ok(session)) => {
            let rolls: i64 = earlier.iter().map(|s| s.rolls).sum();
            println!(
                "history: {} session {session} begins; earlier: {rolls} roll{} in {} session{}",
                store.path().display(),
                if rolls == 1 { "" } else { "s" },
                earlier.len(),
                if earlier.len() == 1 { "" } else { "s" }
            );
            history.earlier = earlier;
            history.lasting = Some(Lasting {
                store: Mutex::new(store),
                session,
            });
        }
        (Err(e), _) | (_, Err(e)) => history.notice(format!(
            "the history {} cannot be read ({e}): this session's rolls stay in memory",
            store.path().display()
        )),
    }
}

/// Free rolls' luck being worked out off the frame: (index of the roll, its luck).
#[derive(Default)]
struct LuckTasks(Vec<(usize, Task<Option<RollLuck>>)>);

/// Works out the luck of each new free roll off the frame (its notation's exact distribution
/// can take a moment), and keeps each with its roll, here and in the lasting history.
fn work_out_free_roll_luck(
    mut history: ResMut<RollHistory>,
    mut tasks: Local<LuckTasks>,
    mut started: Local<usize>,
) {
    // Read through `bypass_change_detection`: the history counts as changed only when a luck
    // arrives.
    let entries = &history.bypass_change_detection().entries;
    while *started < entries.len() {
        let i = *started;
        *started += 1;
        let entry = &entries[i];
        if entry.luck.is_some() {
            continue;
        }
        let (Replay::Notation(notation, _), Some(total)) = (&entry.replay, entry.record.total)
        else {
            continue;
        };
        let notation = notation.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let dist = notation.shared_distribution().ok()?;
            roll_luck(&dist, total)
        });
        tasks.0.push((i, task));
    }
    let mut done = Vec::new();
    tasks
        .0
        .retain_mut(|(i, task)| match block_on(poll_once(task)) {
            Some(luck) => {
                done.extend(luck.map(|l| (*i, l)));
                false
            }
            None => true,
        });
    for (index, luck) in done {
        let failure = history.lasting.as_ref().and_then(|lasting| {
            lasting
                .store()
                .set_luck(lasting.session, index as i64 + 1, &luck)
                .err()
        });
        if let Some(e) = failure {
            history.notice(format!("a roll's luck cannot be written: {e}"));
        }
        if let Some(entry) = history.entries.get_mut(index) {
            entry.luck = Some(luck);
        }
    }
}

/// The luck of a finished move from the odds its panel showed before the throw.
pub fn move_luck(odds: Option<&crate::rules::Odds>, charted: Option<i64>) -> Option<RollLuck> {
    roll_luck(&odds?.distribution, charted?)
}

/// Tonight's luck: per character (and the window's own free rolls), in order of first roll.
#[derive(Resource, Default)]
pub struct LuckBoard {
    /// (whose, their luck this session).
    pub rows: Vec<(String, SessionLuck)>,
}

impl LuckBoard {
    /// One character's luck this session.
    pub fn of(&self, name: &str) -> Option<&SessionLuck> {
        self.rows.iter().find(|(n, _)| n == name).map(|(_, l)| l)
    }
}

/// Tallies the session's luck again when a roll or a roll's luck arrives, and only then: the
/// panels hold the history mutably every frame, so its change flag says nothing.
fn tally_luck(
    history: Res<RollHistory>,
    mut board: ResMut<LuckBoard>,
    mut tallied: Local<Option<(usize, usize)>>,
) {
    let now = (
        history.entries.len(),
        history.entries.iter().filter(|e| e.luck.is_some()).count(),
    );
    if *tallied == Some(now) {
        return;
    }
    *tallied = Some(now);
    board.rows = tally(&history.entries);
}

/// Each character's rolls with a luck (replays left out), tallied.
pub fn tally(entries: &[HistoryEntry]) -> Vec<(String, SessionLuck)> {
    by_roller(
        entries
            .iter()
            .map(|e| (e.character.as_deref(), e.is_replay, e.luck.as_ref())),
    )
    .into_iter()
    .filter_map(|(who, luck)| Some((who, luck?)))
    .collect()
}
