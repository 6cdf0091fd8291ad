//! The test harness: one defmt line per check, a closing
//! `N passed, M failed`, and a failure message type that needs no allocator.

use core::fmt::{self, Write};

/// Text formatted into a fixed buffer of `N` bytes: text past the buffer
/// is cut (and shown with a trailing `...`) rather than lost altogether.
pub struct Text<const N: usize> {
    buf: [u8; N],
    len: usize,
    truncated: bool,
}

/// A failure message.
pub type Msg = Text<320>;

impl<const N: usize> Text<N> {
    pub fn new(args: fmt::Arguments<'_>) -> Self {
        let mut t = Text {
            buf: [0; N],
            len: 0,
            truncated: false,
        };
        // Writing into `Text` never fails (it truncates instead).
        let _ = t.write_fmt(args);
        t
    }

    pub fn as_str(&self) -> &str {
        // `write_str` only ever cuts at a char boundary.
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("<invalid utf-8>")
    }

    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl<const N: usize> Write for Text<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = N - self.len;
        let mut n = s.len().min(room);
        while !s.is_char_boundary(n) {
            n -= 1;
        }
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        self.truncated |= n < s.len();
        Ok(())
    }
}

impl<const N: usize> fmt::Display for Text<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())?;
        if self.truncated {
            f.write_str("...")?;
        }
        Ok(())
    }
}

/// Returns early from a check with a formatted failure message.
macro_rules! fail {
    ($($arg:tt)*) => {
        return Err($crate::report::Msg::new(format_args!($($arg)*)))
    };
}
pub(crate) use fail;

/// Fails the check unless `$got == $want`, printing both.
macro_rules! expect_eq {
    ($what:expr, $got:expr, $want:expr) => {{
        let (got, want) = (&$got, &$want);
        if got != want {
            $crate::report::fail!("{}: got {:?}, expected {:?}", $what, got, want);
        }
    }};
}
pub(crate) use expect_eq;

/// The result of one check: `Err` carries what went wrong.
pub type CheckResult = Result<(), Msg>;

/// Counts and prints check results.
pub struct Report {
    passed: u32,
    failed: u32,
}

impl Report {
    pub const fn new() -> Report {
        Report {
            passed: 0,
            failed: 0,
        }
    }

    /// Runs one check and prints `ok   name` or `FAIL name: why`.
    ///
    /// Each check runs in a frame of its own (`run_one` is not inlined),
    /// so the stack holds one check's locals at a time, not the sum of
    /// all of them: the Cortex-M0's QEMU machine has 16 KiB of RAM.
    pub fn run(&mut self, name: &str, check: impl FnOnce() -> CheckResult) {
        #[inline(never)]
        fn run_one(check: impl FnOnce() -> CheckResult) -> CheckResult {
            check()
        }
        match run_one(check) {
            Ok(()) => {
                self.passed += 1;
                defmt::info!("ok   {=str}", name);
            }
            Err(msg) => {
                self.failed += 1;
                defmt::info!("FAIL {=str}: {}", name, defmt::Display2Format(&msg));
            }
        }
    }

    /// Reports a check this machine cannot run (`skip name: why`); it
    /// counts neither as passed nor as failed.
    #[allow(dead_code)] // Only the small-RAM build skips anything.
    pub fn skip(&mut self, name: &str, why: &str) {
        defmt::info!("skip {=str}: {=str}", name, why);
    }

    pub fn passed(&self) -> u32 {
        self.passed
    }

    pub fn failed(&self) -> u32 {
        self.failed
    }
}
