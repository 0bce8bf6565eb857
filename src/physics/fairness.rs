//! The fairness lab: throws one kind of die many times, headless, and tests the faces: counts,
//! chi-square and its p-value, settle times, cocked and escaped dice, bounces, throughput, and
//! whether the result depends on the face that was up when the die left the hand.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use statrs::distribution::{ChiSquared, ContinuousCDF};

use super::headless::Simulator;
use super::throw::{self, Hand};
use super::{CockedPolicy, RollResult, SettleRules, ThrowRequest};
use crate::dice::DieKind;

/// Rolls in flight at once in each of the lab's simulators: one, as each roll is a world of its
/// own (more in flight only share the cache; measured slower).
pub const LANES: usize = 1;

/// The seed of throw `i` of a fairness run: `dicetable roll "1dN" --seed <this>` replays it.
pub fn throw_seed(seed: u64, i: u32) -> u64 {
    crate::seed::throw_seed(seed, i + 1)
}

/// What a fairness run throws: which die, how many times, from which seed, with which hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The die.
    pub kind: DieKind,
    /// How many throws.
    pub throws: u32,
    /// The run's seed: throw i is thrown with [`throw_seed`]`(seed, i)`.
    pub seed: u64,
    /// What happens to a die that lands cocked.
    pub cocked: CockedPolicy,
    /// The hand: the seed's random swing, or a gesture's softest or hardest.
    pub hand: Hand,
}

impl Run {
    /// `throws` throws of `kind` from `seed`, cocked dice thrown again, the random hand.
    pub fn new(kind: DieKind, throws: u32, seed: u64) -> Run {
        Run {
            kind,
            throws,
            seed,
            cocked: CockedPolicy::Rethrow,
            hand: Hand::Random,
        }
    }

    /// The request of throw `i`. An extreme hand's swing is drawn from the throw's seed (its
    /// own generator, apart from the one the die's turn and scatter are drawn from), so a
    /// record of the throw (its seed and that swing as the gesture) replays it.
    pub fn request(&self, i: u32) -> ThrowRequest {
        let seed = throw_seed(self.seed, i);
        ThrowRequest {
            seed,
            tag: u64::from(i),
            dice: vec![self.kind],
            swing: self.hand.swing(&mut throw::generator(!seed)),
        }
    }
}

/// The figures of a fairness run.
#[derive(Debug, Clone)]
pub struct Fairness {
    /// The die.
    pub kind: DieKind,
    /// Throws made.
    pub throws: u32,
    /// Count of each face value, by value order.
    pub counts: Vec<(u32, u64)>,
    /// Pearson's chi-square against a fair die.
    pub chi_square: f64,
    /// Its p-value (k − 1 degrees of freedom).
    pub p_value: f64,
    /// Settle times, seconds of simulated time.
    pub settle_mean: f64,
    /// Median settle time.
    pub settle_median: f64,
    /// 99th percentile settle time.
    pub settle_p99: f64,
    /// Cocked landings (each re-thrown).
    pub cocked: u64,
    /// Cocked dice nudged (with the nudge policy).
    pub nudged: u64,
    /// Dice that left the tray (each re-thrown).
    pub escaped: u64,
    /// Dice that did not settle in time (each re-thrown).
    pub timed_out: u64,
    /// Mean bounces per throw.
    pub bounces_mean: f64,
    /// Share of throws with at least one bounce.
    pub bounced_share: f64,
    /// Wall-clock throws per second.
    pub throws_per_second: f64,
    /// Threads the run used.
    pub threads: usize,
    /// Chi-square of independence between the starting face and the result.
    pub memory_chi_square: f64,
    /// Its p-value.
    pub memory_p_value: f64,
    /// Its degrees of freedom: (k − 1)², or k(k − 1) with a row for the faces a die is thrown
    /// again on.
    pub memory_degrees_of_freedom: usize,
    /// How often the result was the face that was up when the die left the hand.
    pub same_face_rate: f64,
    /// That rate for a fair die: one in its outcomes, less the share of faces it is thrown
    /// again on (a d17 starts on its d18's 18 one time in 18).
    pub fair_same_face_rate: f64,
    /// Throws again after showing a number above its size (a d17's 18).
    pub above_size: u64,
}

fn chi_square_p(x: f64, df: f64) -> f64 {
    ChiSquared::new(df).map(|d| d.sf(x)).unwrap_or(f64::NAN)
}

/// The quantile `q` of sorted values.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Throws per block. The blocks are shared out among the threads, each thrown in a simulator of
/// its own; what a throw shows depends on its seed alone (`dicetable roll "1dN" --seed S`
/// replays it), so a run's counts are the same on one core or many.
pub const BLOCK: u32 = 1024;

/// How one throw landed: what the lab counts.
#[derive(Clone, Copy, Debug)]
struct Landing {
    face: usize,
    initial_face: usize,
    settle_time: f32,
    cocked: u32,
    nudged: u32,
    escaped: u32,
    timed_out: u32,
    above_size: u32,
    bounces: u32,
}

/// Throws `range` (throw numbers of the run) in a simulator of its own.
fn throw_block(run: &Run, range: std::ops::Range<u32>, done: &AtomicU64) -> Vec<Landing> {
    let mut sim = Simulator::new(SettleRules {
        cocked: run.cocked,
        ..SettleRules::default()
    });
    let requests = range.clone().map(|i| run.request(i));
    let mut landings = Vec::with_capacity(range.len());
    sim.run_many(LANES, requests, |r: RollResult| {
        if let Some(d) = r.dice.first() {
            landings.push(Landing {
                face: d.face,
                initial_face: d.initial_face,
                settle_time: d.settle_time,
                cocked: d.rethrows.cocked,
                nudged: d.rethrows.nudged,
                escaped: d.rethrows.escaped,
                timed_out: d.rethrows.timed_out,
                above_size: d.rethrows.above_size,
                bounces: d.bounces,
            });
        }
        done.fetch_add(1, Ordering::Relaxed);
        true
    });
    landings
}

/// The threads a run uses by default: every core.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Throws a fairness run on `threads` threads (the same figures for any number of threads, but
/// the throughput).
pub fn measure(run: &Run, threads: usize, progress: impl FnMut(u64)) -> Fairness {
    let thrown = throw_all(run, threads, progress);
    tally(run.kind, &thrown)
}

/// Throws a fairness run and reads its throws as each of `kinds` too: dice of one solid thrown
/// alike (a d7 is the d14's body marked twice, so the d14's throws are a d7's), counted by each
/// one's marks. The run's own die first; a die of another solid or rule is refused.
pub fn measure_as(
    run: &Run,
    kinds: &[DieKind],
    threads: usize,
    progress: impl FnMut(u64),
) -> Result<Vec<Fairness>, DieKind> {
    let alike = |kind: &DieKind| {
        kind.shape() == run.kind.shape()
            && kind.thrown_again_above() == run.kind.thrown_again_above()
    };
    if let Some(other) = kinds.iter().find(|k| !alike(k)) {
        return Err(*other);
    }
    let thrown = throw_all(run, threads, progress);
    Ok(std::iter::once(run.kind)
        .chain(kinds.iter().copied())
        .map(|kind| tally(kind, &thrown))
        .collect())
}

/// The landings of a run's throws, in throw order, with the time they took and the threads.
struct Thrown {
    landings: Vec<Landing>,
    elapsed: f64,
    threads: usize,
}

/// Throws every throw of `run`, block by block, on `threads` threads.
fn throw_all(run: &Run, threads: usize, mut progress: impl FnMut(u64)) -> Thrown {
    let throws = run.throws;
    let blocks: Vec<std::ops::Range<u32>> = (0..throws)
        .step_by(BLOCK as usize)
        .map(|start| start..throws.min(start.saturating_add(BLOCK)))
        .collect();
    let results: Mutex<Vec<Option<Vec<Landing>>>> = Mutex::new(vec![None; blocks.len()]);
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let started = Instant::now();
    let threads = threads.clamp(1, blocks.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    let Some(range) = blocks.get(b) else { break };
                    let landed = throw_block(run, range.clone(), &done);
                    if let Ok(mut r) = results.lock() {
                        r[b] = Some(landed);
                    }
                }
            });
        }
        let mut shown = 0;
        loop {
            let now = done.load(Ordering::Relaxed);
            if now != shown {
                shown = now;
                progress(now);
            }
            if now >= u64::from(throws) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    });
    let landings: Vec<Landing> = results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .flatten()
        .collect();
    Thrown {
        landings,
        elapsed: started.elapsed().as_secs_f64(),
        threads,
    }
}

/// The figures of `kind` read from a run's landings (by its marks).
fn tally(kind: DieKind, thrown: &Thrown) -> Fairness {
    let Thrown {
        landings,
        elapsed,
        threads,
    } = thrown;
    let (elapsed, threads) = (*elapsed, *threads);
    let shape = kind.shape();
    // Faces counted by their mark: a d3's two 1s are one outcome (every mark is on as many
    // faces as any other, so a fair die shows each equally often).
    // A face a die is thrown again on (a d17's 18) is no outcome: it only starts throws, in a
    // row of the start-face table of its own.
    let mut marks: Vec<(u32, String)> = Vec::new();
    let mut group: Vec<usize> = shape
        .faces
        .iter()
        .map(|f| {
            if kind.throws_again_on(f.value) {
                return usize::MAX;
            }
            let mark = kind.label(f.value);
            match marks.iter().position(|(_, m)| *m == mark) {
                Some(i) => {
                    marks[i].0 = marks[i].0.min(f.value);
                    i
                }
                None => {
                    marks.push((f.value, mark));
                    marks.len() - 1
                }
            }
        })
        .collect();
    let k = marks.len();
    let thrown_again_faces = group.iter().filter(|&&g| g == usize::MAX).count();
    for g in &mut group {
        if *g == usize::MAX {
            *g = k;
        }
    }
    let start_groups = k + usize::from(thrown_again_faces > 0);
    // A fair die starts on an outcome face this often, and then ends on it one time in k.
    let fair_same_face_rate =
        (shape.faces.len() - thrown_again_faces) as f64 / shape.faces.len() as f64 / k as f64;
    let mut counts = vec![0u64; k];
    let mut contingency = vec![vec![0u64; k]; start_groups];
    let mut times = Vec::with_capacity(landings.len());
    let (mut cocked, mut escaped, mut timed_out, mut same) = (0, 0, 0, 0u64);
    let mut above_size = 0u64;
    let (mut bounces, mut bounced, mut nudged) = (0u64, 0u64, 0u64);
    for d in landings {
        let (start, end) = (group[d.initial_face], group[d.face]);
        counts[end] += 1;
        contingency[start][end] += 1;
        same += u64::from(start == end);
        times.push(f64::from(d.settle_time));
        cocked += u64::from(d.cocked);
        escaped += u64::from(d.escaped);
        timed_out += u64::from(d.timed_out);
        above_size += u64::from(d.above_size);
        nudged += u64::from(d.nudged);
        bounces += u64::from(d.bounces);
        bounced += u64::from(d.bounces > 0);
    }
    let done = landings.len() as u64;
    let memory_degrees_of_freedom = (start_groups - 1) * (k - 1);
    let n = done as f64;
    let expected = n / k as f64;
    let chi_square: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    // Independence of start face and result: expected cell = row total * column total / n.
    let rows: Vec<f64> = contingency
        .iter()
        .map(|r| r.iter().sum::<u64>() as f64)
        .collect();
    let mut memory_chi_square = 0.0;
    for (i, row) in contingency.iter().enumerate() {
        for (j, &c) in row.iter().enumerate() {
            let e = rows[i] * counts[j] as f64 / n;
            if e > 0.0 {
                memory_chi_square += (c as f64 - e).powi(2) / e;
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let mut by_value: Vec<(u32, u64)> = marks
        .iter()
        .map(|(value, _)| *value)
        .zip(counts.iter().copied())
        .collect();
    by_value.sort_unstable();
    Fairness {
        kind,
        throws: done as u32,
        counts: by_value,
        chi_square,
        p_value: chi_square_p(chi_square, (k - 1) as f64),
        settle_mean: times.iter().sum::<f64>() / n.max(1.0),
        settle_median: quantile(&times, 0.5),
        settle_p99: quantile(&times, 0.99),
        cocked,
        nudged,
        escaped,
        timed_out,
        bounces_mean: bounces as f64 / n.max(1.0),
        bounced_share: bounced as f64 / n.max(1.0),
        throws_per_second: n / elapsed.max(1e-9),
        threads,
        memory_chi_square,
        memory_p_value: chi_square_p(memory_chi_square, memory_degrees_of_freedom as f64),
        memory_degrees_of_freedom,
        same_face_rate: same as f64 / n.max(1.0),
        fair_same_face_rate,
        above_size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts of a run do not depend on how many threads threw it.
    #[test]
    fn one_thread_and_two_count_the_same() {
        let throws = BLOCK + 150;
        let run = Run::new(DieKind::D6, throws, 7);
        let one = measure(&run, 1, |_| {});
        let two = measure(&run, 2, |_| {});
        assert_eq!((one.threads, two.threads), (1, 2));
        assert_eq!(one.throws, throws);
        assert_eq!(one.counts, two.counts);
        assert_eq!(one.chi_square, two.chi_square);
        assert_eq!(one.memory_chi_square, two.memory_chi_square);
        assert_eq!(one.settle_median, two.settle_median);
        assert_eq!((one.cocked, one.escaped), (two.cocked, two.escaped));
    }

    /// A few hundred throws of each die: a broken die (a face that never comes up, a wrong
    /// value, a strong bias) fails here. The bound is loose on purpose.
    #[test]
    fn every_die_passes_a_small_fairness_run() {
        let others = crate::dice::OTHER_SIZES.map(|(kind, _)| kind);
        for kind in DieKind::SINGLES.into_iter().chain(others) {
            let f = measure(&Run::new(kind, 400, 2024), 2, |_| {});
            assert_eq!(f.throws, 400);
            assert!(
                f.counts.iter().all(|(_, c)| *c > 0),
                "{kind:?} {:?}",
                f.counts
            );
            assert!(
                f.p_value > 1e-4,
                "{kind:?}: chi-square {} p {}",
                f.chi_square,
                f.p_value
            );
            assert_eq!(f.escaped, 0, "{kind:?}");
            assert!(
                f.bounced_share > 0.9,
                "{kind:?} slides: {}",
                f.bounced_share
            );
            assert!(
                f.settle_median < 2.0,
                "{kind:?} median settle {}",
                f.settle_median
            );
        }
    }
}
