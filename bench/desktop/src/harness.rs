//! An interleaving timer: every round runs every competitor once (a batch
//! of calls), in an order rotated each round, so drift in clock speed,
//! cache state or a neighbour's load spreads over all competitors instead
//! of landing on whichever ran last. The figure kept is the median over
//! rounds of the time per call.

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

pub fn measure(mut comps: Vec<Competitor<'_>>, budget: &Budget) -> Vec<Timing> {
    let k = comps.len();
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
