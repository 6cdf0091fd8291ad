//! One slice of the SELL SpMV: 8 rows in 8 lanes, each adding its row's
//! products in order, padding masked. The whole SpMV runs in the copy of
//! the best vector extension of the machine (`kernel/isa.rs`), and the
//! slice routine inlines into it:
//!
//! - AVX-512: each step's 8 inputs by one hardware gather, the sums kept
//!   where a lane's row has ended by the mask of live lanes
//!   (`sell/avx512.rs`);
//! - AVX2: the inputs loaded as scalars into vectors (the hardware
//!   gathers measured about 2x slower on AMD Zen 3), the sums blended
//!   where a lane's row has ended (`sell/avx2.rs`);
//! - otherwise a portable loop doing the same operations one lane at a
//!   time, so every path gives the same bits.

use core::ops::{Add, Mul};

use super::C;
use crate::kernel::isa::VectorIsa;
use crate::kernel::unchecked::load;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// How a slice stores its columns, and so how the SpMV reads its inputs
/// (the conversion decides, per slice).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceKind {
    /// One column per slot; each step's inputs gathered.
    Gather,
    /// Every row as long as the slice, lane `r`'s column at step `k`
    /// `crd[k] + r`: one column stored per step, each step's inputs one
    /// vector load.
    Band,
    /// A band whose step `k` starts at `crd[0] + k`: the slice covers
    /// `width` whole diagonals of the matrix, one column stored for the
    /// slice (no column bytes streamed per step).
    Diagonals,
}

impl SliceKind {
    /// The columns a slice of `width` steps of this kind stores.
    #[inline(always)]
    pub(super) fn columns(self, width: usize) -> usize {
        match self {
            SliceKind::Gather => width * C,
            SliceKind::Band => width,
            SliceKind::Diagonals => 1,
        }
    }

    /// `body(self)` with the kind a constant in each arm: a loop in `body`
    /// is compiled once per kind, with no test of the kind per step
    /// (which LLVM does not hoist out of these loops by itself).
    #[inline(always)]
    pub(super) fn dispatch<R>(self, body: impl FnOnce(SliceKind) -> R) -> R {
        match self {
            SliceKind::Gather => body(SliceKind::Gather),
            SliceKind::Band => body(SliceKind::Band),
            SliceKind::Diagonals => body(SliceKind::Diagonals),
        }
    }

    /// Lane `r`'s column at step `k` (slot `q = k * C + r`).
    ///
    /// # Safety
    ///
    /// `Gather`: `q < crd.len()`; `Band`: `k < crd.len()`; `Diagonals`:
    /// `crd` not empty.
    #[inline(always)]
    pub(super) unsafe fn column(self, crd: &[u32], k: usize, r: usize) -> usize {
        // SAFETY: the caller's guarantees.
        unsafe {
            match self {
                SliceKind::Gather => load(crd, k * C + r) as usize,
                SliceKind::Band => load(crd, k) as usize + r,
                SliceKind::Diagonals => load(crd, 0) as usize + k + r,
            }
        }
    }
}

/// The value types of a [`Sell`](super::Sell) matrix: `f32` and `f64`.
pub trait SellValue:
    Copy
    + Default
    + PartialEq
    + core::fmt::Debug
    + Add<Output = Self>
    + Mul<Output = Self>
    + sealed::Sealed
{
    /// `+0.0`.
    const ZERO: Self;

    /// Sums one slice into `acc` (overwritten): lane `r` is `sum over k <
    /// lens[r] of val[k * C + r] * x[crd[k * C + r]]`, in order from zero,
    /// on the path `isa` allows, lane `r`'s column at step `k` as `kind`
    /// says ([`SliceKind::column`]). In a band and in diagonals every row
    /// is as long as the slice and the vector paths load each step's
    /// inputs with one vector load.
    ///
    /// # Safety
    ///
    /// `val.len()` a multiple of [`C`]; every `lens[r] <= val.len() / C`;
    /// `min` the smallest `lens[r]`.
    /// `Gather`: `crd.len() == val.len()`, every column below `x.len()`.
    /// `Band`: `crd.len() == val.len() / C`, every `lens[r] ==
    /// crd.len()`, every `crd[k] + C <= x.len()`. `stream`: the slices'
    /// buffers stream from beyond the L2 cache, and the AVX-512 loops
    /// prefetch ahead (no other effect). `Diagonals`: `crd.len()
    /// == 1`, every `lens[r] == val.len() / C`, `crd[0] + val.len() / C -
    /// 1 + C <= x.len()`.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn slice(
        isa: VectorIsa,
        kind: SliceKind,
        stream: bool,
        min: usize,
        crd: &[u32],
        val: &[Self],
        lens: &[u32; C],
        x: &[Self],
        acc: &mut [Self; C],
    );
}

/// Whether the vector paths' signed 32-bit columns and lengths hold the
/// slice's.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn fits(width: usize, cols: usize) -> bool {
    width <= i32::MAX as usize && cols <= 1 << 31
}

macro_rules! sell_value {
    ($t:ty, $simd:ident) => {
        impl SellValue for $t {
            const ZERO: Self = 0.0;

            #[inline(always)]
            unsafe fn slice(
                isa: VectorIsa,
                kind: SliceKind,
                stream: bool,
                min: usize,
                crd: &[u32],
                val: &[$t],
                lens: &[u32; C],
                x: &[$t],
                acc: &mut [$t; C],
            ) {
                #[cfg(target_arch = "x86_64")]
                if fits(val.len() / C, x.len()) {
                    #[cfg(sk_avx512)]
                    if isa.avx512() {
                        // SAFETY: the machine has AVX-512 (only
                        // `with_vector_isa` makes a token that says so); the
                        // columns and lengths fit `i32` (just checked); the
                        // caller's guarantees.
                        unsafe { super::avx512::$simd(kind, stream, min, crd, val, lens, x, acc) };
                        return;
                    }
                    if isa.avx2() {
                        // SAFETY: as above, AVX2.
                        unsafe { super::avx2::$simd(kind, min, crd, val, lens, x, acc) };
                        return;
                    }
                }
                let _ = (isa, min, stream);
                // SAFETY: the caller's guarantees, passed on.
                unsafe { portable(kind, crd, val, lens, x, acc) }
            }
        }
    };
}
sell_value!(f32, slice_f32);
sell_value!(f64, slice_f64);

/// One lane at a time.
///
/// # Safety
///
/// As [`SellValue::slice`].
#[inline(always)]
unsafe fn portable<T: SellValue>(
    kind: SliceKind,
    crd: &[u32],
    val: &[T],
    lens: &[u32; C],
    x: &[T],
    acc: &mut [T; C],
) {
    for (r, (sum, &len)) in acc.iter_mut().zip(lens).enumerate() {
        let mut s = T::ZERO;
        for k in 0..len as usize {
            let q = k * C + r;
            // SAFETY: `k < lens[r] <= val.len() / C`, so `q < val.len()`;
            // gathered: `q < crd.len()` and the column is below
            // `x.len()`; a band: `k < crd.len()` and `crd[k] + r <
            // x.len()`; diagonals: `crd[0] + k + r < x.len()`.
            let column = unsafe { kind.column(crd, k, r) };
            s = s + unsafe { load(val, q) * load(x, column) };
        }
        *sum = s;
    }
}

/// The portable path, for the tests to compare with the dispatched one.
///
/// # Safety
///
/// As [`SellValue::slice`].
#[cfg(test)]
pub(super) unsafe fn portable_for_tests<T: SellValue>(
    kind: SliceKind,
    crd: &[u32],
    val: &[T],
    lens: &[u32; C],
    x: &[T],
    acc: &mut [T; C],
) {
    // SAFETY: the caller's guarantees, passed on.
    unsafe { portable(kind, crd, val, lens, x, acc) }
}
