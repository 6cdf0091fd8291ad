//! `dot_gather` against its order written out, on every index width, row
//! lengths 0..40 at several starts, and values that make order visible
//! (magnitudes 2^-30..2^30, signed zeros, infinities, NaN).

extern crate std;
use std::{vec, vec::Vec};

use super::{dot_gather, dot_gather_increasing, GatherFloat, LANES};
use crate::index::{Index, Packed2};
use crate::kernel::isa::{every_copy, with_vector_isa};

/// `2^e`, exact (bits written out): `powi` may round differently under
/// Miri, which perturbs the results of float intrinsics.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// The definition: entry `p` into partial sum `p % 8`, every sum from
/// `+0.0`, then the halves tree.
fn reference<T: GatherFloat>(v: &[T], x: &[T]) -> T {
    let mut s = [T::ZERO; 8];
    for (p, (&a, &b)) in v.iter().zip(x).enumerate() {
        s[p % 8] = s[p % 8] + a * b;
    }
    ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]))
}

/// A deterministic sequence (an LCG's high bits).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    /// Values of widely different magnitudes and signs, some special.
    fn value(&mut self, specials: bool) -> f64 {
        let r = self.next();
        if specials {
            match r % 41 {
                0 => return -0.0,
                1 => return f64::INFINITY,
                2 => return f64::NAN,
                _ => {}
            }
        }
        let mag = (r % 61) as i32 - 30;
        let sign = if r & 1 == 0 { 1.0 } else { -1.0 };
        sign * (1.0 + (r % 1000) as f64 / 997.0) * pow2(mag)
    }
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

/// Every row `lo..lo + len` of `crd` (`n` coordinates, read through
/// `Index::get_at`), both element types, on every path this machine has
/// (the portable one under Miri), against the definition.
fn check<I: Index>(crd: &[I], n: usize, x: &[f64], val: &[f64]) {
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let val32: Vec<f32> = val.iter().map(|&v| v as f32).collect();
    let (starts, lens) = if cfg!(miri) { (0..2, 19) } else { (0..9, 41) };
    for isa in every_copy() {
        for lo in starts.clone() {
            for len in 0..lens {
                let hi = lo + len;
                if hi > n {
                    break;
                }
                let xs: Vec<usize> = (lo..hi).map(|p| I::get_at(crd, p).unwrap()).collect();
                let gx: Vec<f64> = xs.iter().map(|&c| x[c]).collect();
                let gx32: Vec<f32> = xs.iter().map(|&c| x32[c]).collect();
                // SAFETY: `lo <= hi <= n` entries, every coordinate below
                // `x.len()`; `isa` is a copy this machine runs.
                let got = unsafe { dot_gather(isa, crd, val, lo, hi, x) };
                let want = reference(&val[lo..hi], &gx);
                assert!(same(got, want), "{isa:?} f64 {lo}..{hi}: {got} vs {want}");
                // SAFETY: as above.
                let got32 = unsafe { dot_gather(isa, crd, &val32, lo, hi, &x32) };
                let want32 = reference(&val32[lo..hi], &gx32);
                assert!(
                    same(got32.into(), want32.into()),
                    "{isa:?} f32 {lo}..{hi}: {got32} vs {want32}"
                );
            }
        }
    }
}

/// Long rows (many whole steps, every partial step) on every path.
#[test]
fn long_rows() {
    let mut r = Lcg(7);
    let n = if cfg!(miri) { 40 } else { 300 };
    let x: Vec<f64> = (0..256).map(|_| r.value(false)).collect();
    let val: Vec<f64> = (0..n).map(|_| r.value(false)).collect();
    let crd: Vec<u32> = (0..n).map(|_| (r.next() % 256) as u32).collect();
    let gx: Vec<f64> = crd.iter().map(|&c| x[c as usize]).collect();
    for isa in every_copy() {
        for lo in 0..LANES {
            // SAFETY: `lo <= n` entries, every coordinate below 256.
            let got = unsafe { dot_gather(isa, &crd, &val, lo, n, &x) };
            assert!(same(got, reference(&val[lo..], &gx[lo..])), "{isa:?} {lo}");
        }
    }
}

/// The best copy, run through `with_vector_isa` as a kernel runs it.
#[test]
fn through_the_dispatch() {
    let x = [1.5f64, -2.0, 0.25, 8.0];
    let val: Vec<f64> = (0..19).map(|k| k as f64 - 7.5).collect();
    let crd: Vec<u16> = (0..19).map(|k| (k * 3 % 4) as u16).collect();
    let gx: Vec<f64> = crd.iter().map(|&c| x[c as usize]).collect();
    // SAFETY: 19 entries, coordinates below 4.
    let got = with_vector_isa(|isa| unsafe { dot_gather(isa, &crd, &val, 0, 19, &x) });
    assert!(same(got, reference(&val, &gx)));
}

fn data(specials: bool, seed: u64) -> (Vec<f64>, Vec<f64>, Vec<usize>) {
    let mut r = Lcg(seed);
    let n = if cfg!(miri) { 24 } else { 60 };
    let x: Vec<f64> = (0..256).map(|_| r.value(specials)).collect();
    let val: Vec<f64> = (0..n).map(|_| r.value(specials)).collect();
    let crd: Vec<usize> = (0..n).map(|_| (r.next() % 256) as usize).collect();
    (x, val, crd)
}

fn every_width(specials: bool, seed: u64) {
    let (x, val, crd) = data(specials, seed);
    let n = crd.len();
    let u8s: Vec<u8> = crd.iter().map(|&c| c as u8).collect();
    let u16s: Vec<u16> = crd.iter().map(|&c| c as u16).collect();
    let u32s: Vec<u32> = crd.iter().map(|&c| c as u32).collect();
    let u64s: Vec<u64> = crd.iter().map(|&c| c as u64).collect();
    check(&u8s, n, &x, &val);
    check(&u16s, n, &x, &val);
    check(&u32s, n, &x, &val);
    check(&u64s, n, &x, &val);
    check(&crd, n, &x, &val);
    // Packed 2-bit coordinates: the first four inputs.
    let mut packed = vec![Packed2(0); n.div_ceil(4)];
    for (p, &c) in crd.iter().enumerate() {
        assert!(Packed2::set_at(&mut packed, p, c % 4));
    }
    check(&packed, n, &x, &val);
}

#[test]
fn finite_values_every_width_and_length() {
    every_width(false, 1);
    if !cfg!(miri) {
        every_width(false, 2);
    }
}

#[test]
fn signed_zeros_infinities_and_nan() {
    every_width(true, 3);
}

#[test]
fn reassociation_is_visible() {
    // 2^53 + 1 + ... : the in-order sum and the partial sums round apart,
    // so the order test above can fail.
    let val = [1.0f64; 9];
    let x = [pow2(53), 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
    let crd: [u32; 9] = core::array::from_fn(|k| k as u32);
    let in_order = val.iter().zip(&x).fold(0.0, |t, (a, b)| t + a * b);
    // SAFETY: 9 entries, coordinates below 9.
    let got = unsafe {
        dot_gather(
            crate::kernel::isa::VectorIsa::PORTABLE,
            &crd,
            &val,
            0,
            9,
            &x,
        )
    };
    assert_eq!(got, reference(&val, &x));
    assert_ne!(got, in_order);
}

/// Rows whose columns run consecutively for 8 entries or more (a band, a
/// dense block: the AVX-512 path loads those inputs instead of gathering
/// them), runs broken in each position, on every width and path; and the
/// same increasing rows through `dot_gather_increasing` (one run test per
/// row), long and short, whole runs and broken ones.
#[test]
fn consecutive_columns() {
    let mut r = Lcg(11);
    // Finite values, so that a wrong input shows in every sum.
    let x: Vec<f64> = (0..256).map(|_| r.value(false)).collect();
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let n = if cfg!(miri) { 20 } else { 40 };
    let val: Vec<f64> = (0..n).map(|_| r.value(false)).collect();
    let val32: Vec<f32> = val.iter().map(|&v| v as f32).collect();
    for brk in 0..n {
        // Columns 100, 101, ... with one jump at entry `brk`.
        let crd: Vec<usize> = (0..n)
            .map(|p| 100 + p + usize::from(p >= brk) * 7)
            .collect();
        let gx: Vec<f64> = crd.iter().map(|&c| x[c]).collect();
        let gx32: Vec<f32> = crd.iter().map(|&c| x32[c]).collect();
        let u16s: Vec<u16> = crd.iter().map(|&c| c as u16).collect();
        let u32s: Vec<u32> = crd.iter().map(|&c| c as u32).collect();
        for isa in every_copy() {
            for lo in [0, 1, 3] {
                for hi in [n, lo + 9, lo + 5, lo + 1, lo] {
                    let want = reference(&val[lo..hi], &gx[lo..hi]);
                    let want32 = reference(&val32[lo..hi], &gx32[lo..hi]);
                    // SAFETY: `lo <= hi <= n` entries, every coordinate
                    // below 256, strictly increasing.
                    let got = unsafe {
                        [
                            dot_gather(isa, &crd, &val, lo, hi, &x),
                            dot_gather(isa, &u16s, &val, lo, hi, &x),
                            dot_gather(isa, &u32s, &val, lo, hi, &x),
                            dot_gather_increasing(isa, &crd, &val, lo, hi, &x),
                            dot_gather_increasing(isa, &u16s, &val, lo, hi, &x),
                            dot_gather_increasing(isa, &u32s, &val, lo, hi, &x),
                        ]
                    };
                    assert!(
                        got.iter().all(|&g| same(g, want)),
                        "{isa:?} {brk} {lo}..{hi}"
                    );
                    // SAFETY: as above.
                    let got32 = unsafe {
                        [
                            dot_gather(isa, &u32s, &val32, lo, hi, &x32),
                            dot_gather_increasing(isa, &u32s, &val32, lo, hi, &x32),
                            dot_gather_increasing(isa, &u16s, &val32, lo, hi, &x32),
                        ]
                    };
                    assert!(
                        got32.iter().all(|&g| same(g.into(), want32.into())),
                        "{isa:?} f32 {brk} {lo}..{hi}"
                    );
                }
            }
        }
    }
}
