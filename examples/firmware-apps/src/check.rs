//! Comparison with the desktop reference and the one-line report per app.

use core::fmt;

use cortex_m_semihosting::hprintln;

/// The largest scaled error seen against a reference, and the mismatches.
pub struct Check {
    /// Largest `|got - want| / max(|want|, floor)`.
    pub max_err: f32,
    /// Values or results outside the tolerance.
    pub mismatches: u32,
    tol: f32,
}

impl Check {
    pub fn new(tol: f32) -> Self {
        Check {
            max_err: 0.0,
            mismatches: 0,
            tol,
        }
    }

    /// Compares `got` with `want` elementwise, the error relative to
    /// `max(|want|, floor)` (absolute below `floor`).
    pub fn close(&mut self, got: &[f32], want: &[f32], floor: f32) {
        for (g, w) in got.iter().zip(want) {
            let scale = if w.abs() > floor { w.abs() } else { floor };
            let e = (g - w).abs() / scale;
            // A NaN fails too (and becomes the max error).
            if e.is_nan() || e > self.tol {
                self.mismatches += 1;
            }
            if e.is_nan() || e > self.max_err {
                self.max_err = e;
            }
        }
    }

    /// Prints `ok`/`FAIL`, the app's line and the error; true when it passed.
    pub fn report(&self, what: fmt::Arguments<'_>) -> bool {
        let ok = self.mismatches == 0;
        hprintln!(
            "{} {} | max err {:e} (tol {:e}), {} mismatches",
            if ok { "ok  " } else { "FAIL" },
            what,
            self.max_err,
            self.tol,
            self.mismatches
        );
        ok
    }
}
