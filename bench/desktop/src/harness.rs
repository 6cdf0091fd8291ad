//! An interleaving timer: every round runs every competitor once (a batch
//! of calls), in an order rotated each round, so drift in clock speed or a
//! neighbour's load spreads over all competitors instead of landing on
//! whichever ran last. The figure kept is the median over rounds of the
//! time per call.
//!
//! Each batch starts from the same cache state for every competitor
//! ([`CacheState`], `BENCH_CACHE`). Without that, a kernel that runs right
//! after another one reading the same arrays finds them in the last-level
//! cache and one that follows a kernel with its own copy does not: on the
//! Xeon a 40 MB matrix reads at about 22 GB/s just after it was read and
//! 14 GB/s otherwise, which is larger than most gaps the bench measures.

use std::time::{Duration, Instant};

pub struct Competitor<'a> {
    pub name: String,
    /// Counted among the peers the targets compare against.
    pub peer: bool,
    /// Ours (a `sparse_kernel!` kernel).
    pub ours: bool,
    pub run: Box<dyn FnMut() + 'a>,
}

impl<'a> Competitor<'a> {
    pub fn ours(name: impl Into<String>, run: impl FnMut() + 'a) -> Self {
        Competitor {
            name: name.into(),
            peer: false,
            ours: true,
            run: Box::new(run),
        }
    }
    pub fn peer(name: impl Into<String>, run: impl FnMut() + 'a) -> Self {
        Competitor {
            name: name.into(),
            peer: true,
            ours: false,
            run: Box::new(run),
        }
    }
    /// Shown for reference, not a peer (e.g. a hand-written Rust loop).
    pub fn reference(name: impl Into<String>, run: impl FnMut() + 'a) -> Self {
        Competitor {
            name: name.into(),
            peer: false,
            ours: false,
            run: Box::new(run),
        }
    }
}

pub struct Timing {
    pub name: String,
    pub peer: bool,
    pub ours: bool,
    /// Median seconds per call.
    pub median: f64,
    /// Fastest round, seconds per call (the least disturbed by other load).
    pub min: f64,
    /// Spread: interquartile range / median over rounds, to flag noisy rows.
    pub spread: f64,
}

pub struct Budget {
    /// Wall time for one benchmark (all competitors, all rounds).
    pub total: Duration,
    pub min_rounds: usize,
    pub max_rounds: usize,
}

/// The cache state a timed batch starts from, for every competitor alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheState {
    /// `BENCH_CACHE=warm` (the default): one untimed call of the same
    /// competitor just before its batch, so its data are as hot as the
    /// caches allow (an iterative solver calling it in a loop).
    Warm,
    /// `BENCH_CACHE=cold`: a buffer larger than the last-level cache
    /// (`BENCH_EVICT_MB`, default 256) is read before each batch, so the
    /// first call reads its data from memory.
    Cold,
    /// `BENCH_CACHE=rotate`: no preparation; each batch finds what the
    /// previous competitor left (how runs before 2026-11-29 were timed).
    Rotate,
}

impl CacheState {
    /// The state `BENCH_CACHE` asks for (warm when unset or unknown).
    pub fn from_env() -> Self {
        match std::env::var("BENCH_CACHE").as_deref() {
            Ok("cold") => CacheState::Cold,
            Ok("rotate") => CacheState::Rotate,
            _ => CacheState::Warm,
        }
    }

    /// How a run's header names it.
    pub fn describe(self) -> String {
        match self {
            CacheState::Warm => "warm (one untimed call before each timed batch)".into(),
            CacheState::Cold => format!("cold ({} MB read before each timed batch)", evict_mb()),
            CacheState::Rotate => "as the previous competitor left it".into(),
        }
    }
}

fn evict_mb() -> usize {
    std::env::var("BENCH_EVICT_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// `n` distinct nonzero words: pages of zeros may be shared by the host
/// and then stay cached.
pub fn distinct_words(n: usize, seed: u64) -> Vec<u64> {
    (0..n as u64)
        .map(|i| (i ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
        .collect()
}

/// Reads every word of `buf` (a pure read stream; the loop vectorizes).
pub fn read_all(buf: &[u64]) -> u64 {
    std::hint::black_box(buf.iter().fold(0u64, |a, &w| a.wrapping_add(w)))
}

/// Reads a buffer larger than the last-level cache, evicting the
/// competitors' data.
struct Evictor {
    buf: Vec<u64>,
}

impl Evictor {
    fn new() -> Self {
        Evictor {
            buf: distinct_words(evict_mb() << 17, 7),
        }
    }

    fn run(&self) {
        read_all(&self.buf);
    }
}

pub fn measure(mut comps: Vec<Competitor<'_>>, budget: &Budget) -> Vec<Timing> {
    let k = comps.len();
    let cache = CacheState::from_env();
    let evictor = (cache == CacheState::Cold).then(Evictor::new);
    // Warm up (page in outputs, grow buffers) and size the batches: each
    // batch at least ~0.5 ms so the clock's resolution does not matter, and
    // short enough that most batches run without being preempted.
    let mut per_call = vec![0.0f64; k];
    for (c, slot) in comps.iter_mut().zip(&mut per_call) {
        (c.run)();
        let t = Instant::now();
        (c.run)();
        *slot = t.elapsed().as_secs_f64().max(1e-9);
    }
    // `BENCH_BATCH_MS` lengthens the batches: calls back to back, as an
    // iterative solver makes them (a parallel kernel's threads stay awake).
    let min_batch = std::env::var("BENCH_BATCH_MS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .map_or(5e-4, |ms| ms / 1e3);
    let batch: Vec<usize> = per_call
        .iter()
        .map(|&s| ((min_batch / s).ceil() as usize).max(1))
        .collect();
    let round_secs: f64 = per_call
        .iter()
        .zip(&batch)
        .map(|(s, b)| s * *b as f64)
        .sum();
    let rounds = ((budget.total.as_secs_f64() / round_secs) as usize)
        .clamp(budget.min_rounds, budget.max_rounds);
    let mut samples = vec![Vec::with_capacity(rounds); k];
    for r in 0..rounds {
        for step in 0..k {
            let i = (r + step) % k;
            let c = &mut comps[i];
            match (cache, &evictor) {
                (CacheState::Warm, _) => (c.run)(),
                (CacheState::Cold, Some(e)) => e.run(),
                _ => {}
            }
            let t = Instant::now();
            for _ in 0..batch[i] {
                (c.run)();
            }
            samples[i].push(t.elapsed().as_secs_f64() / batch[i] as f64);
        }
    }
    comps
        .into_iter()
        .zip(samples)
        .map(|(c, mut s)| {
            s.sort_by(|a, b| a.total_cmp(b));
            let median = s[s.len() / 2];
            let spread = (s[s.len() * 3 / 4] - s[s.len() / 4]) / median;
            Timing {
                name: c.name,
                peer: c.peer,
                ours: c.ours,
                median,
                min: s[0],
                spread,
            }
        })
        .collect()
}

/// The fastest peer's median.
pub fn best_peer(t: &[Timing]) -> Option<&Timing> {
    t.iter()
        .filter(|t| t.peer)
        .min_by(|a, b| a.median.total_cmp(&b.median))
}
