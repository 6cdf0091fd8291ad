//! One slice of the SELL SpMV against each lane's in-order sum written
//! out, and the portable path against the dispatched one, with infinite
//! and NaN inputs at the padding's column 0. (Conversions and whole
//! matrices against the generated CSR kernel: sparse-tests'
//! `kernels/spmv_sell.rs`.)

extern crate std;
use std::vec::Vec;

use super::spmv::{SellValue, SliceKind};
use super::C;
use crate::kernel::isa::every_copy;

/// `2^e`, exact (bits written out): `powi` may round differently under
/// Miri, which perturbs the results of float intrinsics.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

/// The shortest lane.
fn least(lens: &[u32; C]) -> usize {
    lens.iter().copied().min().unwrap_or(0) as usize
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

#[test]
fn each_lane_sums_its_row_in_order_and_padding_adds_nothing() {
    let mut r = 7u64;
    let rounds = if cfg!(miri) { 3 } else { 200 };
    for round in 0..rounds {
        let width = (lcg(&mut r) % 12) as usize;
        let lens: [u32; C] = core::array::from_fn(|_| (lcg(&mut r) % (width as u64 + 1)) as u32);
        let mut x: Vec<f64> = (0..32)
            .map(|_| (lcg(&mut r) % 2001) as f64 / 7.0 - 140.0)
            .collect();
        // The padding reads column 0: make it poison for a multiplied zero.
        x[0] = [f64::INFINITY, f64::NAN, -0.0, 3.5][round % 4];
        let mut crd = std::vec![0u32; width * C];
        let mut val = std::vec![0.0f64; width * C];
        for (lane, &len) in lens.iter().enumerate() {
            for k in 0..len as usize {
                crd[k * C + lane] = 1 + (lcg(&mut r) % 31) as u32;
                val[k * C + lane] =
                    (lcg(&mut r) % 4001) as f64 * pow2((lcg(&mut r) % 40) as i32 - 20);
            }
        }
        let want: [f64; C] = core::array::from_fn(|lane| {
            (0..lens[lane] as usize).fold(0.0, |s, k| {
                let q = k * C + lane;
                s + val[q] * x[crd[q] as usize]
            })
        });
        let mut portable = [1.0f64; C];
        // SAFETY: `width * C` slots, lengths at most `width`, columns
        // below 32 = `x.len()`.
        unsafe {
            super::spmv::portable_for_tests(SliceKind::Gather, &crd, &val, &lens, &x, &mut portable)
        };
        for lane in 0..C {
            assert!(same(portable[lane], want[lane]));
        }
        let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let val32: Vec<f32> = val.iter().map(|&v| v as f32).collect();
        // Every path this machine has (the portable one under Miri).
        for isa in every_copy() {
            let mut got = [1.0f64; C];
            // SAFETY: as above; `isa` is a copy this machine runs.
            unsafe {
                f64::slice(
                    isa,
                    SliceKind::Gather,
                    round % 2 == 1,
                    least(&lens),
                    &crd,
                    &val,
                    &lens,
                    &x,
                    &mut got,
                )
            };
            for lane in 0..C {
                assert!(
                    same(got[lane], want[lane]),
                    "{isa:?} round {round} lane {lane}"
                );
            }
            // The same in `f32`.
            let mut got32 = [1.0f32; C];
            // SAFETY: as above.
            unsafe {
                f32::slice(
                    isa,
                    SliceKind::Gather,
                    round % 2 == 1,
                    least(&lens),
                    &crd,
                    &val32,
                    &lens,
                    &x32,
                    &mut got32,
                )
            };
            for lane in 0..C {
                let want = (0..lens[lane] as usize).fold(0.0f32, |s, k| {
                    let q = k * C + lane;
                    s + val32[q] * x32[crd[q] as usize]
                });
                assert!(
                    same(got32[lane].into(), want.into()),
                    "{isa:?} f32 round {round} lane {lane}"
                );
            }
        }
    }
}

/// A slice of a band (lane `r` reads column `crd[k] + r` at step `k`, one
/// column stored per step), whose vector paths load each step's 8 inputs,
/// against the same slice stored per slot (gathered), with bands starting
/// at every column up to the end of `x`, on every path.
#[test]
fn band_slices_load_consecutive_columns() {
    let width = 12;
    let x: Vec<f64> = (0..40)
        .map(|c| (c as f64 - 13.25) * pow2(c % 9 - 4))
        .collect();
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let lens = [width as u32; C];
    for start in 0..=(x.len() - C - width) {
        // Step `k` of lane `r` reads `start + k + r` or, every third step,
        // a column further on (any increasing columns make a band).
        let heads: Vec<u32> = (0..width)
            .map(|k| (start + k + if k % 3 == 2 { 1 } else { 0 }) as u32)
            .collect();
        let heads: Vec<u32> = heads.iter().map(|&c| c.min((x.len() - C) as u32)).collect();
        let mut crd = std::vec![0u32; width * C];
        let mut val = std::vec![0.0f64; width * C];
        for (k, &head) in heads.iter().enumerate() {
            for lane in 0..C {
                let q = k * C + lane;
                crd[q] = head + lane as u32;
                val[q] = 1.0 + (q % 13) as f64 * pow2(-(q as i32 % 7)) - (start % 5) as f64;
            }
        }
        let val32: Vec<f32> = val.iter().map(|&v| v as f32).collect();
        for isa in every_copy() {
            let (mut want, mut got) = ([0.0f64; C], [0.0f64; C]);
            let (mut want32, mut got32) = ([0.0f32; C], [0.0f32; C]);
            // SAFETY: `width * C` slots, every length `width`; per slot
            // (gathered): columns below 40 = `x.len()`; a band: `heads`
            // holds one column per step, each `+ 8 <= x.len()`; `isa` is a
            // copy this machine runs.
            unsafe {
                f64::slice(
                    isa,
                    SliceKind::Gather,
                    start % 2 == 0,
                    width,
                    &crd,
                    &val,
                    &lens,
                    &x,
                    &mut want,
                );
                f64::slice(
                    isa,
                    SliceKind::Band,
                    start % 2 == 0,
                    width,
                    &heads,
                    &val,
                    &lens,
                    &x,
                    &mut got,
                );
                f32::slice(
                    isa,
                    SliceKind::Gather,
                    start % 2 == 0,
                    width,
                    &crd,
                    &val32,
                    &lens,
                    &x32,
                    &mut want32,
                );
                f32::slice(
                    isa,
                    SliceKind::Band,
                    start % 2 == 0,
                    width,
                    &heads,
                    &val32,
                    &lens,
                    &x32,
                    &mut got32,
                );
            }
            for lane in 0..C {
                let written = (0..width).fold(0.0, |s, k| {
                    let q = k * C + lane;
                    s + val[q] * x[crd[q] as usize]
                });
                assert!(same(want[lane], written), "{isa:?} {start} lane {lane}");
                assert!(same(got[lane], written), "{isa:?} {start} lane {lane}");
                assert!(
                    same(got32[lane].into(), want32[lane].into()),
                    "{isa:?} {start} lane {lane}"
                );
            }
        }
    }
}

/// A slice of diagonals (lane `r` reads column `crd[0] + k + r` at step
/// `k`, one column stored for the slice) against the same slice stored
/// per slot (gathered) and as a band (one column per step), with the
/// diagonals starting at every column up to the end of `x`, on every
/// path, in `f64` and `f32`.
#[test]
fn diagonal_slices_load_from_one_column() {
    let x: Vec<f64> = (0..40)
        .map(|c| (c as f64 - 13.25) * pow2(c % 9 - 4))
        .collect();
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    for width in [1usize, 7, 12] {
        let lens = [width as u32; C];
        let every = if cfg!(miri) { 5 } else { 1 };
        for start in (0..=(x.len() - C - width + 1)).step_by(every) {
            let steps: Vec<u32> = (0..width).map(|k| (start + k) as u32).collect();
            let one = [start as u32];
            let mut crd = std::vec![0u32; width * C];
            let mut val = std::vec![0.0f64; width * C];
            for k in 0..width {
                for lane in 0..C {
                    let q = k * C + lane;
                    crd[q] = (start + k + lane) as u32;
                    val[q] = 1.0 + (q % 11) as f64 * pow2(-(q as i32 % 5)) - (start % 3) as f64;
                }
            }
            let val32: Vec<f32> = val.iter().map(|&v| v as f32).collect();
            for isa in every_copy() {
                let mut got = [[0.0f64; C]; 3];
                let mut got32 = [[0.0f32; C]; 3];
                let kinds = [
                    (SliceKind::Gather, &crd[..]),
                    (SliceKind::Band, &steps[..]),
                    (SliceKind::Diagonals, &one[..]),
                ];
                for (j, (kind, columns)) in kinds.into_iter().enumerate() {
                    // SAFETY: `width * C` slots, every length `width`;
                    // gathered: columns below 40 = `x.len()`; a band: one
                    // column per step, each `+ 8 <= x.len()`; diagonals:
                    // `start + width - 1 + 8 <= x.len()`; `isa` is a copy
                    // this machine runs.
                    unsafe {
                        f64::slice(
                            isa,
                            kind,
                            start % 2 == 1,
                            width,
                            columns,
                            &val,
                            &lens,
                            &x,
                            &mut got[j],
                        );
                        f32::slice(
                            isa,
                            kind,
                            start % 2 == 1,
                            width,
                            columns,
                            &val32,
                            &lens,
                            &x32,
                            &mut got32[j],
                        );
                    }
                }
                for lane in 0..C {
                    let written = (0..width).fold(0.0, |s, k| {
                        let q = k * C + lane;
                        s + val[q] * x[crd[q] as usize]
                    });
                    let written32 = (0..width).fold(0.0f32, |s, k| {
                        let q = k * C + lane;
                        s + val32[q] * x32[crd[q] as usize]
                    });
                    for j in 0..3 {
                        assert!(
                            same(got[j][lane], written),
                            "{isa:?} {width} {start} {j} lane {lane}"
                        );
                        assert!(
                            same(got32[j][lane].into(), written32.into()),
                            "{isa:?} {width} {start} {j} lane {lane}"
                        );
                    }
                }
            }
        }
    }
}

/// Whole matrices through the conversion and the SpMV (which reads the
/// slices through their heads, unchecked), against each row's in-order
/// sum: 21 rows (the last slice partial), a band of 5 with one row moved
/// over (its slice gathered) and the last rows cut short, several σ.
#[test]
fn conversion_and_spmv_against_rows_summed_in_order() {
    use super::{Sell, SellOptions};
    use crate::encoding::Enc;
    use crate::levels::{compressed, d0, d1, dense};
    use crate::tensor::Level;
    type Csr = Enc<u32, u32, (dense, compressed), (d0, d1)>;
    let (m, n) = (21usize, 30usize);
    let mut pos = std::vec![0u32];
    let (mut crd, mut val) = (Vec::new(), Vec::new());
    for i in 0..m {
        let lo = i + usize::from(i == 10);
        for j in lo..(lo + 5).min(24) {
            crd.push(j as u32);
            val.push(1.0 + (i * 7 + j) as f64 * pow2(-((i + j) as i32 % 5)));
        }
        pos.push(crd.len() as u32);
    }
    let a: crate::tensor::SparseTensor<'_, f64, Csr, 2, 2> = crate::tensor::SparseTensor::assemble(
        [m, n],
        [Level::dense(), Level::compressed(&pos, &crd)],
        &val,
    )
    .unwrap();
    let x: Vec<f64> = (0..n)
        .map(|j| (j as f64 - 9.5) * pow2(j as i32 % 3))
        .collect();
    let want: Vec<f64> = (0..m)
        .map(|i| {
            (pos[i]..pos[i + 1]).fold(0.0, |s, p| {
                s + val[p as usize] * x[crd[p as usize] as usize]
            })
        })
        .collect();
    for sigma in [1, 8, 256] {
        let opt = SellOptions {
            sigma,
            max_fill_percent: 1000,
        };
        let s = Sell::from_csr(&a, opt).unwrap();
        // Slices of rows 0..8 (a band), 8..16 (row 10 moved: gathered);
        // rows 16..21 are cut short by column 24 or missing.
        assert_eq!(s.band_slices(), 1, "sigma {sigma}");
        // Each of its rows one run, one column further than the row
        // before: whole diagonals, one column stored.
        assert_eq!(s.diagonal_slices(), 1, "sigma {sigma}");
        let mut y = std::vec![7.0; m];
        s.spmv(&x, &mut y).unwrap();
        // A clone (its values in a buffer of its own) is equal and
        // computes the same.
        let c = s.clone();
        assert!(c == s);
        let mut yc = std::vec![7.0; m];
        c.spmv(&x, &mut yc).unwrap();
        assert_eq!(y, yc);
        for i in 0..m {
            assert!(same(y[i], want[i]), "sigma {sigma} row {i}");
        }
    }
}

/// The values start on a 64-byte line, and a clone's in its own buffer
/// too, with the same values (an empty buffer has no first slot).
#[test]
fn values_start_on_a_cache_line_in_clones_too() {
    use super::values::Values;
    for n in [0usize, 1, 8, 100, 4096] {
        let mut v = Values::<f64>::zeros(n).unwrap();
        let mut w = Values::<f32>::zeros(n).unwrap();
        assert_eq!((v.as_slice().len(), w.as_slice().len()), (n, n));
        for (i, (a, b)) in v
            .as_mut_slice()
            .iter_mut()
            .zip(w.as_mut_slice())
            .enumerate()
        {
            (*a, *b) = (i as f64 + 0.5, i as f32 - 0.5);
        }
        let (vc, wc) = (v.clone(), w.clone());
        assert!(vc == v && wc == w);
        if n > 0 {
            for at in [
                v.as_slice().as_ptr() as usize,
                vc.as_slice().as_ptr() as usize,
            ] {
                assert_eq!(at % 64, 0, "f64, {n}");
            }
            for at in [
                w.as_slice().as_ptr() as usize,
                wc.as_slice().as_ptr() as usize,
            ] {
                assert_eq!(at % 64, 0, "f32, {n}");
            }
        }
    }
}
