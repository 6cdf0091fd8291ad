//! Markdown tables for the timings.

use crate::harness::{best_peer, Timing};

/// What a row's work is, for ns/nnz and bandwidth.
pub struct Work {
    /// Nonzeros the kernel touches (for ns per nonzero).
    pub nnz: usize,
    /// Bytes a perfect implementation must move (each array once), if
    /// bandwidth is meaningful for this kernel.
    pub bytes: Option<f64>,
}

/// Prints one table; `triad` is the triad bandwidth in bytes/s.
pub fn table(title: &str, t: &[Timing], work: &Work, triad: Option<f64>) {
    println!("\n#### {title}\n");
    let best = best_peer(t);
    let bw = work.bytes.is_some() && triad.is_some();
    let best_min = t
        .iter()
        .filter(|t| t.peer)
        .map(|t| t.min)
        .fold(f64::INFINITY, f64::min);
    print!("| implementation | median µs | ns/nnz | × best peer | min µs | × best peer (min) |");
    if bw {
        print!(" GB/s | % triad |");
    }
    println!(" IQR/median |");
    print!("|---|---:|---:|---:|---:|---:|");
    if bw {
        print!("---:|---:|");
    }
    println!("---:|");
    for r in t {
        let tag = if r.ours {
            " **(ours)**"
        } else if r.peer {
            ""
        } else {
            " (ref)"
        };
        let ratio = best.map(|b| r.median / b.median).unwrap_or(f64::NAN);
        let mark = if best.is_some_and(|b| core::ptr::eq(b, r)) {
            " ←best peer"
        } else {
            ""
        };
        // A table of our kernels alone (sequential against parallel) has
        // no peer to divide by.
        let (ratio, ratio_min) = match best {
            Some(_) => (format!("{ratio:.3}"), format!("{:.3}", r.min / best_min)),
            None => ("—".to_string(), "—".to_string()),
        };
        print!(
            "| {}{} | {:.1} | {:.3} | {}{} | {:.1} | {} |",
            r.name,
            tag,
            r.median * 1e6,
            r.median * 1e9 / work.nnz as f64,
            ratio,
            mark,
            r.min * 1e6,
            ratio_min
        );
        if let (Some(bytes), Some(triad)) = (work.bytes, triad) {
            let gbs = bytes / r.median;
            print!(" {:.2} | {:.0}% |", gbs / 1e9, 100.0 * gbs / triad);
        }
        println!(" {:.0}% |", 100.0 * r.spread);
    }
}

/// Checks `got` against `want` within `tol` relative to `scale[i]` (the sum
/// of the magnitudes that went into element `i`).
pub fn check_close(what: &str, got: &[f64], want: &[f64], scale: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, ((g, w), s)) in got.iter().zip(want).zip(scale).enumerate() {
        let err = (g - w).abs();
        assert!(
            err <= tol * s.max(1e-30),
            "{what}: element {i}: got {g}, want {w} (error {err}, scale {s})"
        );
    }
}
