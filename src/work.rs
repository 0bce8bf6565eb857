//! Fair shares of the machine's cores for the work clients ask of a server: physics, odds,
//! pictures. Each kind has a [`Pool`] of its own, bounded in threads, so one kind filling up
//! never starves another (a flood of atlases does not hold up a throw's physics), and inside a
//! pool the work is taken **round robin across clients**, one started job per client at a
//! time, so whoever asks a hundred times waits for their own hundred, not their neighbours.
//!
//! Long jobs share the cores in slices: a job calls [`pause_point`] between its steps (the
//! physics after each step of a world, the odds at each of their checks), and once it ran a
//! slice while another job waits for a core it steps aside to the back of the line. A throw
//! of 200 dice and a throw of one die thrown together both go on; the one die ends within a
//! few slices instead of after the 200.
//!
//! A job's asker can stop waiting (a page closed, a deadline passed): the job is then dropped
//! if it has not started, and one that has sees its [`Cancel`] set at its next check.
//!
//! Plain Rust and std threads, no Bevy and no runtime: a job is a closure run on a pool's
//! thread, its answer sent back over a oneshot channel that an async handler awaits.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// Shared by whoever wants a result and the work producing it: the first calls
/// [`Cancel::cancel`] when it no longer wants it, the work stops at its next check (the odds
/// ask it at each step: `odds::stop`).
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A handle not cancelled yet.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Asks the work holding a clone of this handle to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called on this handle or a clone of it.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Who asked: an address (behind a trusted proxy, the client it names).
pub type Client = IpAddr;

/// The client a server's own work is counted to (a room replaying its log, a test).
pub const SERVER: Client = IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED);

/// How a pool shares its work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// What the pool does, in words ("physics"), for its errors.
    pub kind: &'static str,
    /// Jobs started at once, each on a thread of the pool's own: running, or paused while
    /// another has the core.
    pub threads: usize,
    /// Of the started jobs, how many run at once: the cores the pool may use.
    pub running: usize,
    /// Jobs one client may have waiting or started; one more is refused as busy.
    pub per_client: usize,
    /// How long a job runs before it steps aside for a job waiting for a core.
    pub slice: Duration,
    /// How long a client refused as busy is told to wait before it asks again: about the time
    /// the pool takes to work through a client's share.
    pub retry_after: Duration,
}

/// Why a job was not done.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WorkError {
    /// The client has as many jobs of this kind waiting or started as it may.
    #[error(
        "{waiting} {kind} requests from this address are already waiting or under way: try again when one ends"
    )]
    Busy {
        /// The pool's kind.
        kind: &'static str,
        /// The client's jobs there.
        waiting: usize,
        /// How long to wait before asking again.
        retry_after: Duration,
    },
    /// The job panicked; its pool goes on.
    #[error("the {kind} work stopped before it ended")]
    Lost {
        /// The pool's kind.
        kind: &'static str,
    },
}

impl WorkError {
    /// The stable code the wire carries.
    pub fn code(&self) -> crate::errors::ErrorCode {
        match self {
            WorkError::Busy { .. } => crate::errors::ErrorCode::Busy,
            WorkError::Lost { .. } => crate::errors::ErrorCode::Internal,
        }
    }

    /// How long a refused client should wait before it asks again (None: asking again will
    /// not help).
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            WorkError::Busy { retry_after, .. } => Some(*retry_after),
            WorkError::Lost { .. } => None,
        }
    }
}

/// A bounded pool of threads taking its clients' jobs round robin.
pub struct Pool(Arc<Inner>);

struct Inner {
    shape: Shape,
    state: Mutex<State>,
    /// A job was queued, or a client's started job ended.
    job_ready: Condvar,
    /// A core was given back, or the line for one moved.
    core_ready: Condvar,
}

struct Job {
    client: Client,
    cancel: Cancel,
    run: Box<dyn FnOnce() + Send>,
}

#[derive(Default)]
struct State {
    /// Each client's jobs not started yet, oldest first.
    waiting: HashMap<Client, VecDeque<Job>>,
    /// The clients with jobs waiting, in the order their turns come.
    turns: VecDeque<Client>,
    /// Jobs that go before every turn (a known member's passcode among strangers' guesses).
    first: VecDeque<Job>,
    /// Each client's jobs started and not ended (at most one).
    started: HashMap<Client, usize>,
    threads: usize,
    idle: usize,
    /// Jobs holding a core.
    running: usize,
    /// Tickets of the jobs waiting for a core, in turn.
    line: VecDeque<u64>,
    next_ticket: u64,
}

impl State {
    /// The next job to start: the first client in turn with nothing started, its oldest job;
    /// the client goes to the back of the turns if it has more. Jobs whose asker left are
    /// dropped on the way.
    fn next_job(&mut self) -> Option<Job> {
        while let Some(job) = self.first.pop_front() {
            if !job.cancel.is_cancelled() {
                *self.started.entry(job.client).or_default() += 1;
                return Some(job);
            }
        }
        loop {
            let position = self
                .turns
                .iter()
                .position(|c| self.started.get(c).copied().unwrap_or(0) == 0)?;
            let client = self.turns.remove(position)?;
            let queue = self.waiting.get_mut(&client)?;
            let job = queue.pop_front();
            if queue.is_empty() {
                self.waiting.remove(&client);
            } else {
                self.turns.push_back(client);
            }
            match job {
                Some(job) if !job.cancel.is_cancelled() => {
                    *self.started.entry(client).or_default() += 1;
                    return Some(job);
                }
                _ => continue,
            }
        }
    }

    /// The client's jobs waiting or started: a waiting job whose asker left (a draft's odds
    /// replaced by the next draft's) no longer counts, though it leaves the queue only when
    /// its turn comes.
    fn of_client(&self, client: Client) -> usize {
        let wanted = |job: &&Job| job.client == client && !job.cancel.is_cancelled();
        self.first.iter().filter(wanted).count()
            + self
                .waiting
                .get(&client)
                .map_or(0, |queue| queue.iter().filter(wanted).count())
            + self.started.get(&client).copied().unwrap_or(0)
    }
}

/// The job a thread is running, for [`pause_point`].
struct Turn {
    pool: Arc<Inner>,
    since: Instant,
}

thread_local! {
    static TURN: RefCell<Option<Turn>> = const { RefCell::new(None) };
}

/// Called between the steps of long work: once the job running on this thread has had its
/// slice and another job waits for a core, it gives its core up and waits for its next turn.
/// Off a pool's thread (the window, the command line) it does nothing.
pub fn pause_point() {
    TURN.with(|turn| {
        let mut turn = turn.borrow_mut();
        let Some(turn) = turn.as_mut() else {
            return;
        };
        if turn.since.elapsed() < turn.pool.shape.slice {
            return;
        }
        let someone_waits = !turn.pool.lock().line.is_empty();
        if someone_waits {
            turn.pool.release_core();
            turn.pool.take_core();
        }
        turn.since = Instant::now();
    });
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A job's panic is caught outside the lock, so a poisoned lock still holds whole state.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits in line for a core and takes it.
    fn take_core(&self) {
        let mut state = self.lock();
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        state.line.push_back(ticket);
        while !(state.line.front() == Some(&ticket) && state.running < self.shape.running) {
            state = self
                .core_ready
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        state.line.pop_front();
        state.running += 1;
        self.core_ready.notify_all();
    }

    fn release_core(&self) {
        let mut state = self.lock();
        state.running -= 1;
        self.core_ready.notify_all();
    }

    /// Starts a pool thread, counted in `state`.
    fn spawn_worker(self: &Arc<Self>, state: &mut State) {
        state.threads += 1;
        let inner = self.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("dicetable-{}", self.shape.kind))
            .spawn(move || inner.work());
        if spawned.is_err() {
            state.threads -= 1;
        }
    }

    /// A pool thread: takes jobs in turn for as long as the process runs.
    fn work(self: Arc<Self>) {
        loop {
            let job = {
                let mut state = self.lock();
                loop {
                    if let Some(job) = state.next_job() {
                        break job;
                    }
                    state.idle += 1;
                    state = self
                        .job_ready
                        .wait(state)
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                    state.idle -= 1;
                }
            };
            self.take_core();
            TURN.with(|turn| {
                *turn.borrow_mut() = Some(Turn {
                    pool: self.clone(),
                    since: Instant::now(),
                })
            });
            // A panic drops the job's sender: its asker hears `Lost`, the pool goes on.
            let _ = std::panic::catch_unwind(AssertUnwindSafe(job.run));
            TURN.with(|turn| turn.borrow_mut().take());
            self.release_core();
            let mut state = self.lock();
            if let Some(started) = state.started.get_mut(&job.client) {
                *started -= 1;
                if *started == 0 {
                    state.started.remove(&job.client);
                }
            }
            self.job_ready.notify_all();
        }
    }
}

/// Marks the job's cancel when its asker stops waiting (the future awaiting it is dropped).
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl Pool {
    /// A pool of this shape; its threads start as jobs come.
    pub fn new(shape: Shape) -> Pool {
        Pool(Arc::new(Inner {
            shape,
            state: Mutex::new(State::default()),
            job_ready: Condvar::new(),
            core_ready: Condvar::new(),
        }))
    }

    /// Runs `job` for `client` in its turn and gives its answer. The job is given a [`Cancel`]
    /// that is set once this future is dropped (the asker left, a deadline passed): long work
    /// asks it between steps. Refused at once with [`WorkError::Busy`] when the client has as
    /// many jobs here as the pool allows.
    pub async fn run<T, F>(&self, client: Client, job: F) -> Result<T, WorkError>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> T + Send + 'static,
    {
        self.run_in_turn(client, false, job).await
    }

    /// [`Pool::run`], the job going before every client's turn: for a client the server
    /// already trusts (a member the room knows), never held up by a crowd of strangers.
    pub async fn run_first<T, F>(&self, client: Client, job: F) -> Result<T, WorkError>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> T + Send + 'static,
    {
        self.run_in_turn(client, true, job).await
    }

    async fn run_in_turn<T, F>(&self, client: Client, first: bool, job: F) -> Result<T, WorkError>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> T + Send + 'static,
    {
        let kind = self.0.shape.kind;
        let cancel = Cancel::new();
        let _stop_when_dropped = CancelOnDrop(cancel.clone());
        let (answer, answered) = tokio::sync::oneshot::channel();
        let asked = cancel.clone();
        let run = Box::new(move || {
            let _ = answer.send(job(&asked));
        });
        self.submit(
            Job {
                client,
                cancel,
                run,
            },
            first,
        )?;
        answered.await.map_err(|_| WorkError::Lost { kind })
    }

    fn submit(&self, job: Job, first: bool) -> Result<(), WorkError> {
        let shape = self.0.shape;
        let mut state = self.0.lock();
        let waiting = state.of_client(job.client);
        if waiting >= shape.per_client {
            return Err(WorkError::Busy {
                kind: shape.kind,
                waiting,
                retry_after: shape.retry_after,
            });
        }
        let client = job.client;
        if first {
            state.first.push_back(job);
        } else {
            state.waiting.entry(client).or_default().push_back(job);
            if !state.turns.contains(&client) {
                state.turns.push_back(client);
            }
        }
        if state.idle == 0 && state.threads < shape.threads {
            self.0.spawn_worker(&mut state);
        }
        self.0.job_ready.notify_all();
        Ok(())
    }

    /// Jobs waiting or started, of every client (for tests and the measurements).
    pub fn load(&self) -> usize {
        let state = self.0.lock();
        state.first.len()
            + state.waiting.values().map(VecDeque::len).sum::<usize>()
            + state.started.values().sum::<usize>()
    }
}

/// Passcode checks one address may have waiting: a classroom behind one address (30 pupils and
/// their teacher, each page a join and its tray's feed: 62) opening the link at once, queued
/// rather than refused. Guesses are bounded by the doorkeeper's back-off, not by this: a queued
/// check asks it again when its turn comes (`net::auth::passcode_matches_async`), so a burst
/// of guesses from one address costs a few hashes before the rest are refused unhashed.
pub const PASSCODES_PER_ADDRESS: usize = 64;

/// Passcodes hashed and checked (argon2, 8 MiB and a few milliseconds each): one thread, so
/// that memory is taken once; [`PASSCODES_PER_ADDRESS`] waiting per client, a known member's
/// first.
pub fn passcodes() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        Pool::new(Shape {
            kind: "passcode",
            threads: 1,
            running: 1,
            per_client: PASSCODES_PER_ADDRESS,
            slice: Duration::from_millis(50),
            retry_after: Duration::from_millis(500),
        })
    })
}

/// The machine's cores.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Throws simulated for rooms and their pages: every core, in slices of 10 ms, and threads
/// for a few clients at once beyond (paused ones hold only their world, a few megabytes).
pub fn physics() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        Pool::new(Shape {
            kind: "physics",
            threads: (4 * cores()).max(8),
            running: cores(),
            per_client: 16,
            slice: Duration::from_millis(10),
            retry_after: Duration::from_millis(250),
        })
    })
}

/// Odds one address may have waiting: a household's six pages, each a drafted move's odds and
/// a free roll's at once (a page's older drafts, replaced, no longer count).
pub const ODDS_PER_ADDRESS: usize = 12;

/// Exact odds and estimates for pages: half the cores (at least one), so the physics always
/// has cores of its own; one at a time per client, [`ODDS_PER_ADDRESS`] waiting.
pub fn odds() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let half = (cores() / 2).max(1);
        Pool::new(Shape {
            kind: "odds",
            threads: half,
            running: half,
            per_client: ODDS_PER_ADDRESS,
            slice: Duration::from_millis(50),
            retry_after: Duration::from_millis(500),
        })
    })
}

/// Atlases one address may have waiting: every kind of die (8) in four seats' colours, the
/// most a table's first throws ask of a page at once. The pages of one person (OBS, a desktop,
/// a phone) ask for the same atlases, made once for all of them (`net::pages`).
pub const PICTURES_PER_ADDRESS: usize = 32;

/// Pictures made on request (the dice's numbered atlases): one at a time,
/// [`PICTURES_PER_ADDRESS`] waiting per client.
pub fn pictures() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        Pool::new(Shape {
            kind: "pictures",
            threads: 1,
            running: 1,
            per_client: PICTURES_PER_ADDRESS,
            slice: Duration::from_millis(50),
            retry_after: Duration::from_millis(300),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn shape(threads: usize, running: usize) -> Shape {
        Shape {
            kind: "test",
            threads,
            running,
            per_client: 3,
            slice: Duration::from_millis(5),
            retry_after: Duration::from_millis(100),
        }
    }

    fn client(n: u8) -> Client {
        IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, n))
    }

    /// A job of 127.0.0.9 holding a one-thread pool's thread until the sender sends (or is
    /// dropped), started before this returns.
    async fn hold_the_thread(
        pool: &Arc<Pool>,
    ) -> (
        std::sync::mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<(), WorkError>>,
    ) {
        let (open, gate) = std::sync::mpsc::channel::<()>();
        let gate = Mutex::new(gate);
        let held = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run(client(9), move |_| {
                    let _ = gate.lock().map(|g| g.recv());
                })
                .await
            })
        };
        while pool.load() == 0 {
            tokio::task::yield_now().await;
        }
        (open, held)
    }

    #[tokio::test]
    async fn clients_take_turns_and_a_busy_one_is_refused() {
        let pool = Arc::new(Pool::new(shape(1, 1)));
        let order = Arc::new(Mutex::new(Vec::new()));
        // The pool's one thread held until every job is queued.
        let (open, held) = hold_the_thread(&pool).await;
        let mut jobs = Vec::new();
        for (who, n) in [(2, 0), (2, 1), (2, 2), (3, 0), (4, 0)] {
            let (queue, order) = (pool.clone(), order.clone());
            jobs.push(tokio::spawn(async move {
                queue
                    .run(client(who), move |_| {
                        if let Ok(mut o) = order.lock() {
                            o.push((who, n));
                        }
                    })
                    .await
            }));
            while pool.load() < jobs.len() + 1 {
                tokio::task::yield_now().await;
            }
        }
        // 127.0.0.2 has three waiting: a fourth is refused at once.
        assert_eq!(
            pool.run(client(2), |_| ()).await,
            Err(WorkError::Busy {
                kind: "test",
                waiting: 3,
                retry_after: Duration::from_millis(100),
            })
        );
        let _ = open.send(());
        assert_eq!(held.await.ok(), Some(Ok(())));
        for job in jobs {
            assert_eq!(job.await.ok(), Some(Ok(())));
        }
        let order = order.lock().map(|o| o.clone()).unwrap_or_default();
        assert_eq!(order, [(2, 0), (3, 0), (4, 0), (2, 1), (2, 2)]);
    }

    #[tokio::test]
    async fn a_job_whose_asker_left_does_not_count_against_its_client() {
        let pool = Arc::new(Pool::new(shape(1, 1)));
        let (open, held) = hold_the_thread(&pool).await;
        // Three drafts' odds queued for 127.0.0.2, then each replaced: their askers leave.
        let mut left = Vec::new();
        for _ in 0..3 {
            let queue = pool.clone();
            left.push(tokio::spawn(
                async move { queue.run(client(2), |_| ()).await },
            ));
            while pool.load() < left.len() + 1 {
                tokio::task::yield_now().await;
            }
        }
        for job in &left {
            job.abort();
        }
        for job in left {
            assert!(job.await.is_err_and(|e| e.is_cancelled()));
        }
        // The latest draft's odds are taken, not refused as a fourth.
        let latest = {
            let queue = pool.clone();
            tokio::spawn(async move { queue.run(client(2), |_| 7).await })
        };
        let _ = open.send(());
        assert_eq!(held.await.ok(), Some(Ok(())));
        assert_eq!(latest.await.ok(), Some(Ok(7)));
    }

    #[tokio::test]
    async fn a_long_job_steps_aside_for_a_short_one_at_its_pause_points() {
        let pool = Arc::new(Pool::new(shape(2, 1)));
        let steps = Arc::new(AtomicUsize::new(0));
        let long = {
            let (pool, steps) = (pool.clone(), steps.clone());
            tokio::spawn(async move {
                pool.run(client(2), move |cancel| {
                    while !cancel.is_cancelled() {
                        steps.fetch_add(1, Ordering::Relaxed);
                        pause_point();
                        std::thread::sleep(Duration::from_millis(1));
                    }
                })
                .await
            })
        };
        while steps.load(Ordering::Relaxed) == 0 {
            tokio::task::yield_now().await;
        }
        // The one core is the long job's; the short one gets it at the long one's next pause.
        let short = pool.run(client(3), |_| 7).await;
        assert_eq!(short, Ok(7));
        assert!(steps.load(Ordering::Relaxed) > 0);
        long.abort();
        // Dropping the long job's asker sets its cancel: it ends and gives its thread back.
        let ended = pool.clone();
        tokio::time::timeout(Duration::from_secs(5), async move {
            while ended.load() > 0 {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        })
        .await
        .ok();
        assert_eq!(pool.load(), 0);
    }

    #[tokio::test]
    async fn a_panicking_job_is_lost_and_the_pool_goes_on() {
        let pool = Pool::new(shape(1, 1));
        let lost = pool.run(client(2), |_| -> u8 { panic!("a bug") }).await;
        assert_eq!(lost, Err(WorkError::Lost { kind: "test" }));
        assert_eq!(pool.run(client(2), |_| 5).await, Ok(5));
    }
}
