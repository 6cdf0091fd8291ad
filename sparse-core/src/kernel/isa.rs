//! A kernel compiled once per x86-64 vector extension, the copy chosen
//! once per call: the schedule's `vector_isa` rule wraps the body of a
//! kernel whose loops call vector routines (`#[reassociate]`'s
//! [`dot_gather`](super::gather_dot::dot_gather), the SELL SpMV) in
//! [`with_vector_isa`].
//!
//! A routine compiled for AVX2 or AVX-512 (`#[target_feature]`) is not
//! inlined into code compiled without them: called once per row, the call
//! and the registers saved around it cost about 40 instructions, more than
//! a short row's whole sum (measured in `BENCHMARKS.md`, "vectorized
//! SpMV"). So the *kernel* is compiled for the extension instead: its body
//! is a closure, inlined (`#[inline(always)]`) into a trampoline compiled
//! with the extension's features, and the vector routines inline into it.
//! The closure receives a [`VectorIsa`] token saying which copy runs, a
//! constant there, so each routine's own choice of path folds away.
//!
//! Compiling a body for more features changes no result: Rust never
//! contracts a multiply and an add into a fused one nor reorders float
//! operations, whatever the target features; the vector routines define
//! one order of their sums for every path (`gather_dot`'s module
//! documentation).
//!
//! Detection: with `std`, `is_x86_feature_detected!` (cached after the
//! first call); without it, the features the build enables (`-C
//! target-cpu=native`, `-C target-feature=+avx2`), and one copy. On other
//! architectures the body runs as written, with [`VectorIsa`] saying
//! "portable".

/// Which vector extension the running copy of a kernel was compiled for.
/// Only [`with_vector_isa`] makes one (the field is private), so a routine
/// given `Avx512` may use AVX-512 without checking again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VectorIsa(Level);

/// The extensions, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Portable,
    Avx2,
    Avx512,
}

impl VectorIsa {
    /// No vector extension: every routine takes its portable path.
    pub const PORTABLE: VectorIsa = VectorIsa(Level::Portable);

    /// AVX2 and FMA are available (x86-64-v3's vector part).
    #[inline(always)]
    pub fn avx2(self) -> bool {
        self.0 >= Level::Avx2
    }

    /// AVX-512 F, VL, BW, DQ and CD are available (x86-64-v4), and this
    /// compiler builds them.
    #[inline(always)]
    pub fn avx512(self) -> bool {
        self.0 >= Level::Avx512
    }
}

/// Runs `body` compiled for the best vector extension of the machine
/// (module documentation), passing the token of that copy.
#[inline(always)]
pub fn with_vector_isa<R>(body: impl FnOnce(VectorIsa) -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        x86::dispatch(body)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        body(VectorIsa::PORTABLE)
    }
}

#[cfg(test)]
pub(crate) use tests::every_copy;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Level, VectorIsa};

    /// The best level the machine has (with `std`: detected, cached by
    /// `std`; without: what the build enables).
    #[inline(always)]
    fn detected() -> Level {
        #[cfg(sk_avx512)]
        if has_avx512() {
            return Level::Avx512;
        }
        if has_avx2() {
            Level::Avx2
        } else {
            Level::Portable
        }
    }

    #[cfg(feature = "std")]
    #[inline(always)]
    fn has_avx2() -> bool {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }

    #[cfg(not(feature = "std"))]
    #[inline(always)]
    fn has_avx2() -> bool {
        cfg!(all(target_feature = "avx2", target_feature = "fma"))
    }

    #[cfg(all(sk_avx512, feature = "std"))]
    #[inline(always)]
    fn has_avx512() -> bool {
        has_avx2()
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512cd")
    }

    #[cfg(all(sk_avx512, not(feature = "std")))]
    #[inline(always)]
    fn has_avx512() -> bool {
        has_avx2()
            && cfg!(all(
                target_feature = "avx512f",
                target_feature = "avx512vl",
                target_feature = "avx512bw",
                target_feature = "avx512dq",
                target_feature = "avx512cd"
            ))
    }

    #[inline(always)]
    pub(super) fn dispatch<R>(body: impl FnOnce(VectorIsa) -> R) -> R {
        match detected() {
            // SAFETY: the machine has AVX-512 F/VL/BW/DQ/CD, AVX2 and FMA
            // (just detected).
            #[cfg(sk_avx512)]
            Level::Avx512 => unsafe { on_avx512(body) },
            // SAFETY: the machine has AVX2 and FMA (just detected).
            Level::Avx2 => unsafe { on_avx2(body) },
            _ => body(VectorIsa::PORTABLE),
        }
    }

    /// `body`, compiled with AVX2 and FMA.
    ///
    /// # Safety
    ///
    /// The machine has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn on_avx2<R>(body: impl FnOnce(VectorIsa) -> R) -> R {
        body(VectorIsa(Level::Avx2))
    }

    /// `body`, compiled with AVX-512 (x86-64-v4's vector part).
    ///
    /// # Safety
    ///
    /// The machine has AVX-512 F/VL/BW/DQ/CD, AVX2 and FMA.
    #[cfg(sk_avx512)]
    #[target_feature(
        enable = "avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx2,fma,bmi1,bmi2,lzcnt,popcnt"
    )]
    unsafe fn on_avx512<R>(body: impl FnOnce(VectorIsa) -> R) -> R {
        body(VectorIsa(Level::Avx512))
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    #[cfg(target_arch = "x86_64")]
    use super::Level;
    use super::{with_vector_isa, VectorIsa};

    /// Every copy this machine can run, portable first: the tests call
    /// each routine once per path.
    pub(crate) fn every_copy() -> std::vec::Vec<VectorIsa> {
        let mut all = std::vec![VectorIsa::PORTABLE];
        #[cfg(target_arch = "x86_64")]
        {
            let best = super::x86::dispatch(|isa| isa);
            if best.avx2() {
                all.push(VectorIsa(Level::Avx2));
            }
            if best.avx512() {
                all.push(VectorIsa(Level::Avx512));
            }
        }
        all
    }

    /// The copy that runs is the best the machine has, and its body's
    /// result comes back.
    #[test]
    fn the_token_names_the_machine() {
        let (isa, r) = with_vector_isa(|isa| (isa, 6 * 7));
        assert_eq!(r, 42);
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        {
            let avx2 =
                std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
            assert_eq!(isa.avx2(), avx2);
            if !cfg!(sk_avx512) {
                assert!(!isa.avx512());
            } else {
                assert_eq!(
                    isa.avx512(),
                    avx2 && std::is_x86_feature_detected!("avx512f")
                        && std::is_x86_feature_detected!("avx512vl")
                        && std::is_x86_feature_detected!("avx512bw")
                        && std::is_x86_feature_detected!("avx512dq")
                        && std::is_x86_feature_detected!("avx512cd")
                );
            }
        }
        #[cfg(all(target_arch = "x86_64", not(feature = "std")))]
        assert_eq!(
            isa.avx2(),
            cfg!(all(target_feature = "avx2", target_feature = "fma"))
        );
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(isa, VectorIsa::PORTABLE);
        assert!(!VectorIsa::PORTABLE.avx2() && !VectorIsa::PORTABLE.avx512());
    }
}
