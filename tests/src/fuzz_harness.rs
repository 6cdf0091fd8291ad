//! The runtime fuzz harness: arbitrary bytes decoded into the buffers of a
//! tensor, handed to `assemble`, and, when it accepts them, every read path
//! and a few generated kernels checked against a dense reference computed
//! from `for_each`.
//!
//! It lives here, not in `fuzz/`, so that one function serves two callers:
//! the `runtime_assemble` libFuzzer target (`fuzz/fuzz_targets/`) and the
//! corpus replay test (`tests/tests/storage/fuzz.rs`), which Miri runs over
//! a committed sample to look for undefined behaviour in the unchecked
//! accessors the kernels use on what `assemble` accepted.
//!
//! The decoder needs no `arbitrary`: a few bytes pick the encoding, the
//! sizes and, per buffer, either raw values (to exercise every validation
//! error) or non-decreasing deltas (so that valid tensors, and with them the
//! kernels, are reached often). Running out of bytes reads zeros.
//!
//! Every failed check panics: that is what libFuzzer reports as a crash.
//!
//! # Caps (lift them when the compiler fixes land)
//!
//! - [`DENSE_INNER_CAP`]: all-dense tensors get dimension sizes of at most
//!   this, because a dense `[n, 0]` tensor walks its `n` outer entries
//!   (known defect); with huge `n` every input would be a timeout.
//! - [`INT_VALUE_CAP`] and [`INT_HAZARDS`]: the integer kernels read values
//!   in `-INT_VALUE_CAP..=INT_VALUE_CAP`, and the kernels that can overflow
//!   or divide by zero (`i8` SpMV and negation, `i32` division by a dense
//!   vector holding zeros) run with `INT_HAZARDS`, on now that generated
//!   integer arithmetic wraps and divides by zero to 0.

use sparse_core::levels::{compressed, d0, d1, nonunique, singleton};
use std::fmt::Write as _;

use sparse_core::vocab::LevelFormat;
use sparse_core::{
    Encoding, Fixed, Index, KernelError, Level, Owned, SparseTensor, SparseTensorOut,
};

use crate::fixture::{with_tensor, COO, CSR, LOOSE};
use crate::reference::Bsr22;

/// Largest dimension size an all-dense encoding is fuzzed with (see the
/// module docs: a known defect makes larger ones hang on `[n, 0]`).
pub const DENSE_INNER_CAP: usize = 64;

/// Bound on the values integer kernels see (see the module docs).
pub const INT_VALUE_CAP: i32 = 100;

/// Whether the integer kernels whose arithmetic can overflow or divide by
/// zero run (see the module docs). They must not panic; their values are
/// not compared, since what they should be (wrapping, an error) is for the
/// fix to decide.
pub const INT_HAZARDS: bool = true;

/// Largest dense reference the kernels are checked against; larger
/// tensors (valid with sizes up to `usize::MAX`) are only walked. Under
/// Miri, which interprets every step of the reference loops too, a smaller
/// one keeps the corpus sample within minutes.
const DENSE_LIMIT: usize = if cfg!(miri) { 64 } else { 4096 };

/// Capacity of the fixed-size sparse outputs: small, so that `Capacity`
/// errors (and the emptied output they leave) are reached too.
const FIXED_CAP: usize = 12;

mod k {
    sparse_core::sparse_kernel! {
        #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
        #CSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 8, crdWidth = 8 }>
        #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed), posWidth = 16, crdWidth = 8 }>
        #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 32 }>
        #DCSR8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 8, crdWidth = 8 }>
        #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
        #COO8 = #sparse_tensor.encoding<{
            map = (i, j) -> (i : compressed(nonunique), j : singleton), posWidth = 8, crdWidth = 8
        }>
        #COO_SOA = #sparse_tensor.encoding<{
            map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)), crdWidth = 16
        }>
        #COO_NU = #sparse_tensor.encoding<{
            map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique))
        }>
        #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed), posWidth = 8 }>
        #CSR_NO = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed(nonordered)) }>
        #DENSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : dense) }>
        #CSF = #sparse_tensor.encoding<{
            map = (i, j, k) -> (i : compressed, j : compressed, k : compressed), posWidth = 8, crdWidth = 8
        }>
        #SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed), crdWidth = 8 }>

        pub fn spmv_csr(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_csr8(a: &tensor<?x?xf64, #CSR8>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_dcsr(a: &tensor<?x?xf64, #DCSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_dcsr8(a: &tensor<?x?xf64, #DCSR8>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_coo(a: &tensor<?x?xf64, #COO>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_coo8(a: &tensor<?x?xf64, #COO8>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_coo_soa(a: &tensor<?x?xf64, #COO_SOA>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_coo_nu(a: &tensor<?x?xf64, #COO_NU>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_loose(a: &tensor<?x?xf64, #LOOSE>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_dense(a: &tensor<?x?xf64, #DENSE>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }
        pub fn spmv_csr_no(a: &tensor<?x?xf64, #CSR_NO>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j] * x[j]; }

        /// Integer SpMV and sum (values bounded by `INT_VALUE_CAP`).
        pub fn spmv_csr_i32(a: &tensor<?x?xi32, #CSR>, x: &tensor<?xi32>, y: &mut tensor<?xi32>) { y[i] = a[i, j] * x[j]; }
        pub fn sum_coo_i64(a: &tensor<?x?xi64, #COO>, s: &mut tensor<i64>) { s[] += a[i, j]; }
        pub fn rows_loose_i32(a: &tensor<?x?xi32, #LOOSE>, y: &mut tensor<?xi32>) { y[i] = a[i, j] * 3 - a[i, j]; }

        /// Integer kernels that can overflow or divide by zero (`INT_HAZARDS`).
        pub fn spmv_csr_i8(a: &tensor<?x?xi8, #CSR>, x: &tensor<?xi8>, y: &mut tensor<?xi8>) { y[i] = (a[i, j] * x[j]) as i8; }
        pub fn div_csr_i32(a: &tensor<?x?xi32, #CSR>, x: &tensor<?xi32>, y: &mut tensor<?xi32>) { y[i] = a[i, j] / x[j]; }
        pub fn neg_sv_i8(a: &tensor<?xi8, #SV>, c: &mut tensor<?xi8>) { c[i] = -a[i]; }

        /// Sparse `+` into sparse outputs (the union of the patterns).
        pub fn add_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, j] + b[i, j]; }
        pub fn add_dcsr8(a: &tensor<?x?xf64, #DCSR8>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #DCSR8>) { c[i, j] = a[i, j] + b[i, j]; }
        pub fn add_coo(a: &tensor<?x?xf64, #COO>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #COO>) { c[i, j] = a[i, j] + b[i, j]; }

        /// SpGEMM through the workspace.
        pub fn spgemm_csr(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) { c[i, j] = a[i, k] * b[k, j]; }
        pub fn spgemm_dcsr(a: &tensor<?x?xf64, #DCSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR8>) { c[i, j] = a[i, k] * b[k, j]; }

        pub fn csf_contract(a: &tensor<?x?x?xf64, #CSF>, v: &tensor<?xf64>, y: &mut tensor<?xf64>) { y[i] = a[i, j, k] * v[k]; }
        pub fn sv_scale(a: &tensor<?xf64, #SV>, c: &mut tensor<?xf64, #SV>) { c[i] = a[i] * 2.0; }
    }
}

/// A cursor over the fuzzer's bytes; past the end it reads zeros, so every
/// input decodes to something.
struct Bytes<'a> {
    data: &'a [u8],
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// A dimension size: small most of the time, and now and then one of
    /// the sizes where widths and products overflow.
    fn dim(&mut self) -> usize {
        match self.byte() {
            255 => usize::MAX,
            // 2^40 where `usize` holds it, else the largest power of two.
            254 => 1usize << (usize::BITS - 1).min(40),
            253 => 256,
            252 => 257,
            251 => 65536,
            b => usize::from(b % 9),
        }
    }

    /// An index value: small, or one of the width boundaries.
    fn index(&mut self) -> usize {
        match self.byte() {
            255 => usize::MAX,
            254 => 255,
            253 => 256,
            252 => 65535,
            251 => 65536,
            b => usize::from(b % 16),
        }
    }

    /// A buffer of `P`: a length, then either raw values or running sums
    /// of small deltas (non-decreasing, as positions and sorted
    /// coordinates are). Values that do not fit `P` saturate.
    fn buffer<P: Index>(&mut self) -> Vec<P> {
        let head = self.byte();
        let len = usize::from(head % 32);
        let mut out = Vec::with_capacity(len);
        if head & 0x80 == 0 {
            for _ in 0..len {
                out.push(saturate(self.index()));
            }
        } else {
            // Deltas: one byte holds four 2-bit steps, so a 20-entry
            // sorted buffer costs five bytes.
            let mut at = 0usize;
            let mut bits = 0u8;
            for n in 0..len {
                if n % 4 == 0 {
                    bits = self.byte();
                }
                if n > 0 || head & 0x40 != 0 {
                    at += usize::from(bits & 3);
                }
                bits >>= 2;
                out.push(saturate(at));
            }
        }
        out
    }

    /// Values: small integers (exact in `f64` through every kernel here).
    fn values(&mut self) -> Vec<f64> {
        let len = usize::from(self.byte() % 48);
        (0..len)
            .map(|_| f64::from(self.byte() as i8 % 16))
            .collect()
    }
}

fn saturate<P: Index>(v: usize) -> P {
    P::from_usize(v)
        .or_else(|| P::from_usize(usize::try_from(P::MAX).unwrap_or(usize::MAX)))
        .expect("P::MAX fits usize on a 64-bit host")
}

/// The encoding of a tensor type, so that a kernel's alias
/// (`k::CSR<'static, f64>`) names the encoding to assemble with.
trait HasEnc {
    type E: Encoding;
}
impl<E: Encoding, const D: usize, const L: usize> HasEnc for SparseTensor<'static, f64, E, D, L> {
    type E = E;
}
type EncOf<T> = <T as HasEnc>::E;

/// Sorted COO with a nonunique singleton, AoS, narrow widths: repeated
/// `(i, j)` tuples allowed.
type CooNuAos = sparse_core::Enc<u8, u8, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;

/// How far one input got: which encoding it picked (0..16, see [`run`]),
/// and whether `assemble` accepted it and a dense reference was built (the
/// kernels ran). The replay test uses it to check that its sample still
/// reaches the kernels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The encoding chosen by the first byte.
    pub encoding: u8,
    /// `assemble` accepted the buffers (every read path was checked).
    pub assembled: bool,
    /// The tensor was small enough for a dense reference: the kernels ran.
    pub kernels: bool,
}

/// Runs one fuzz input. Panics if any check fails.
///
/// The first byte picks the encoding: 0 CSR, 1 CSR with `u8` widths, 2 CSC,
/// 3 DCSR, 4 DCSR with `u8` widths, 5 COO (AoS), 6 COO with `u8` widths,
/// 7 COO (SoA), 8 COO with a nonunique singleton, 9 loose compressed,
/// 10 CSR with a nonordered level, 11 all dense, 12 CSF (3-D), 13 a sparse
/// vector, 14 BSR 2x2 (assemble and read paths only), 15 nonunique AoS COO
/// with `u8` widths (likewise).
pub fn run(data: &[u8]) -> Outcome {
    let mut b = Bytes { data };
    let which = b.byte() % 16;
    let dims = [b.dim(), b.dim()];
    let mut outcome = Outcome {
        encoding: which,
        ..Outcome::default()
    };
    let o = &mut outcome;
    match which {
        0 => assembled::<EncOf<k::CSR<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_csr);
            spmv_i32(d);
            int_hazards(d);
            add!(t, d, k::add_csr);
            spgemm!(t, d, k::spgemm_csr);
        }),
        1 => assembled::<EncOf<k::CSR8<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_csr8)
        }),
        2 => assembled::<EncOf<k::CSC<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_csc)
        }),
        3 => assembled::<EncOf<k::DCSR<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_dcsr);
            spgemm!(t, d, k::spgemm_dcsr);
        }),
        4 => assembled::<EncOf<k::DCSR8<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_dcsr8);
            add!(t, d, k::add_dcsr8);
        }),
        5 => assembled::<EncOf<k::COO<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_coo);
            sum_i64(t, d);
            add!(t, d, k::add_coo);
        }),
        6 => assembled::<EncOf<k::COO8<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_coo8)
        }),
        7 => assembled::<EncOf<k::COO_SOA<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_coo_soa)
        }),
        8 => assembled::<EncOf<k::COO_NU<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_coo_nu)
        }),
        9 => assembled::<EncOf<k::LOOSE<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_loose);
            loose_i32(d);
        }),
        10 => assembled::<EncOf<k::CSR_NO<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
            spmv(t, d, k::spmv_csr_no)
        }),
        // All dense: sizes capped (see `DENSE_INNER_CAP`).
        11 if dims.iter().all(|&n| n <= DENSE_INNER_CAP) => {
            assembled::<EncOf<k::DENSE<'static, f64>>, 2, 2>(o, &mut b, dims, |t, d| {
                spmv(t, d, k::spmv_dense)
            })
        }
        11 => {}
        12 => {
            let dims = [dims[0], dims[1], b.dim()];
            assembled::<EncOf<k::CSF<'static, f64>>, 3, 3>(o, &mut b, dims, csf)
        }
        13 => assembled::<EncOf<k::SV<'static, f64>>, 1, 1>(o, &mut b, [dims[0]], sv),
        14 => assembled::<Bsr22<u8, u8>, 2, 4>(o, &mut b, dims, |_, _| {}),
        _ => assembled::<CooNuAos, 2, 2>(o, &mut b, dims, |_, _| {}),
    }
    outcome
}

/// The positions and coordinates of one level, as decoded.
type Buffers<E> = (Vec<<E as Encoding>::Pos>, Vec<<E as Encoding>::Crd>);

/// Decodes the buffers of `L` levels and the values, assembles, and if
/// that works checks every read path, then hands the tensor and its dense
/// reference (when small enough to build one) to `then`.
fn assembled<E: Encoding, const D: usize, const L: usize>(
    outcome: &mut Outcome,
    b: &mut Bytes<'_>,
    dims: [usize; D],
    then: impl FnOnce(&SparseTensor<'_, f64, E, D, L>, Option<&Dense>),
) {
    let bufs: Vec<Buffers<E>> = (0..L).map(|_| (b.buffer(), b.buffer())).collect();
    let values = b.values();
    let levels: [Level<'_, E::Pos, E::Crd>; L] =
        std::array::from_fn(|l| Level::compressed(&bufs[l].0, &bufs[l].1));
    let Ok(t) = SparseTensor::<f64, E, D, L>::assemble(dims, levels, &values) else {
        return;
    };
    outcome.assembled = true;
    read_paths(&t, &values);
    let dense = Dense::of(&t);
    outcome.kernels = dense.is_some();
    then(&t, dense.as_ref());
}

/// `for_each_lvl`, `for_each`, `Display` and `disassemble` on an accepted
/// tensor: every entry in range, the disassembled buffers re-assembled.
fn read_paths<E: Encoding, const D: usize, const L: usize>(
    t: &SparseTensor<'_, f64, E, D, L>,
    values: &[f64],
) {
    let mut n = 0usize;
    t.for_each_lvl(|lvl, _| {
        assert!(lvl.iter().zip(t.lvl_sizes()).all(|(c, s)| *c < s));
        n += 1;
    });
    // Each stored entry is walked at most once, except that loose
    // segments may overlap (`assemble` allows it, see its docs), and then
    // an entry is walked once per segment holding it.
    let loose = (0..L).any(|l| t.level_type(l).format == LevelFormat::LooseCompressed);
    assert!(
        loose || n <= t.number_of_entries(),
        "{n} walked > {}",
        t.number_of_entries()
    );
    let dims = t.dim_sizes();
    t.for_each(|d, _| assert!(d.iter().zip(&dims).all(|(c, s)| c < s)));
    let mut text = String::new();
    write!(text, "{t} {t:#}").expect("formatting into a String");
    let (d2, l2, v2) = t.disassemble();
    assert_eq!((d2, v2), (dims, values));
    assert!(
        SparseTensor::<f64, E, D, L>::assemble(d2, l2, v2).is_ok(),
        "disassemble must round-trip"
    );
}

/// A small dense tensor, row-major: the reference the kernels are
/// compared with.
pub struct Dense {
    dims: Vec<usize>,
    data: Vec<f64>,
}

impl Dense {
    /// The tensor `for_each` describes (duplicates summed), if it has at
    /// most `DENSE_LIMIT` elements.
    fn of<E: Encoding, const D: usize, const L: usize>(
        t: &SparseTensor<'_, f64, E, D, L>,
    ) -> Option<Self> {
        let dims = t.dim_sizes();
        let mut len = 1usize;
        for &n in &dims {
            len = len.checked_mul(n)?;
        }
        if len > DENSE_LIMIT || dims.iter().any(|&n| n > DENSE_LIMIT) {
            return None;
        }
        let mut data = vec![0.0; len];
        t.for_each(|c, v| {
            let at = c.iter().zip(&dims).fold(0, |o, (c, n)| o * n + c);
            data[at] += v;
        });
        Some(Dense {
            dims: dims.to_vec(),
            data,
        })
    }

    fn rows(&self) -> usize {
        self.dims[0]
    }

    fn cols(&self) -> usize {
        self.dims[1]
    }

    fn at(&self, i: usize, j: usize) -> f64 {
        self.data[i * self.dims[1] + j]
    }

    /// The nonzero elements of a matrix as sorted entries `([i, j], f(v))`
    /// (`[j, i]` if `transpose`).
    fn entries<V>(&self, transpose: bool, f: impl Fn(f64) -> V) -> Vec<(Vec<usize>, V)> {
        let mut out = Vec::new();
        for i in 0..self.rows() {
            for j in 0..self.cols() {
                let v = self.at(i, j);
                if v != 0.0 {
                    out.push((if transpose { vec![j, i] } else { vec![i, j] }, f(v)));
                }
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

/// A vector to multiply by: a small function of the index, nonzero.
fn x_vec(n: usize) -> Vec<f64> {
    (0..n).map(|j| (j % 5) as f64 - 2.5).collect()
}

/// A value of the dense reference as an integer within `INT_VALUE_CAP`.
fn bounded(v: f64) -> i32 {
    (v as i32).clamp(-INT_VALUE_CAP, INT_VALUE_CAP)
}

type Matrix<'a, E, const L: usize> = SparseTensor<'a, f64, E, 2, L>;

/// A generated `y = a x` over a matrix of encoding `E`.
type SpmvKernel<E, const L: usize> =
    fn(&Matrix<'_, E, L>, &[f64], &mut [f64]) -> Result<(), KernelError>;

/// `y = t x` against the dense product; then a wrong output size is
/// refused before anything is written.
fn spmv<E: Encoding, const L: usize>(
    t: &Matrix<'_, E, L>,
    d: Option<&Dense>,
    kernel: SpmvKernel<E, L>,
) {
    let Some(d) = d else { return };
    let x = x_vec(d.cols());
    let mut y = vec![777.25; d.rows()];
    assert_eq!(kernel(t, &x, &mut y), Ok(()));
    for (i, got) in y.iter().enumerate() {
        let want: f64 = (0..d.cols()).map(|j| d.at(i, j) * x[j]).sum();
        assert_eq!(*got, want, "spmv row {i}");
    }
    let mut long = vec![1.0; d.rows() + 1];
    assert!(kernel(t, &x, &mut long).is_err());
    assert!(long.iter().all(|&v| v == 1.0));
}

/// Integer SpMV over the same matrix rebuilt as an `i32` CSR operand.
fn spmv_i32(d: Option<&Dense>) {
    let Some(d) = d else { return };
    let ints = d.entries(false, bounded);
    let x: Vec<i32> = (0..d.cols()).map(|j| (j % 7) as i32 - 3).collect();
    let mut y = vec![i32::MIN; d.rows()];
    let got = with_tensor(&CSR, [d.rows(), d.cols()], &ints, |a| {
        k::spmv_csr_i32(a, &x, &mut y)
    });
    assert_eq!(got, Ok(()));
    for (i, got) in y.iter().enumerate() {
        let want: i32 = ints
            .iter()
            .filter(|(c, _)| c[0] == i)
            .map(|(c, v)| v * x[c[1]])
            .sum();
        assert_eq!(*got, want, "spmv_i32 row {i}");
    }
}

/// The integer kernels that can overflow or divide by zero, on values
/// scaled to reach `i8`'s limits and a divisor vector holding zeros: they
/// must not panic (see [`INT_HAZARDS`]).
fn int_hazards(d: Option<&Dense>) {
    let Some(d) = d.filter(|_| INT_HAZARDS) else {
        return;
    };
    let wide = |v: f64| (v * 9.0).clamp(-128.0, 127.0) as i8;
    let narrow = d.entries(false, wide);
    let x: Vec<i8> = x_vec(d.cols()).into_iter().map(|v| wide(v * 8.0)).collect();
    let mut y = vec![0i8; d.rows()];
    let r = with_tensor(&CSR, [d.rows(), d.cols()], &narrow, |a| {
        k::spmv_csr_i8(a, &x, &mut y)
    });
    assert_eq!(r, Ok(()));
    let ints = d.entries(false, |v| v as i32);
    let x: Vec<i32> = (0..d.cols()).map(|j| (j % 3) as i32 - 1).collect();
    let mut y = vec![0i32; d.rows()];
    let r = with_tensor(&CSR, [d.rows(), d.cols()], &ints, |a| {
        k::div_csr_i32(a, &x, &mut y)
    });
    assert_eq!(r, Ok(()));
    // `#SV` stores `u8` coordinates.
    if d.cols() > 256 {
        return;
    }
    let row: Vec<(Vec<usize>, i8)> = narrow
        .iter()
        .filter(|(c, _)| c[0] == 0)
        .map(|(c, v)| (vec![c[1]], *v))
        .collect();
    let mut c = vec![0i8; d.cols()];
    let r = with_tensor(&crate::fixture::SV, [d.cols()], &row, |a| {
        k::neg_sv_i8(a, &mut c)
    });
    assert_eq!(r, Ok(()));
}

/// Integer sum over the stored entries of `t` as they are (duplicates
/// included), through a COO operand.
fn sum_i64(t: &Matrix<'_, impl Encoding, 2>, d: Option<&Dense>) {
    let Some(d) = d else { return };
    let mut entries: Vec<(Vec<usize>, i64)> = Vec::new();
    t.for_each(|[i, j], v| entries.push((vec![i, j], i64::from(bounded(*v)))));
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let want: i64 = entries.iter().map(|(_, v)| v).sum::<i64>() + 5;
    let mut s = 5i64;
    let got = with_tensor(&COO, [d.rows(), d.cols()], &entries, |a| {
        k::sum_coo_i64(a, &mut s)
    });
    assert_eq!(got, Ok(()));
    assert_eq!(s, want);
}

/// An integer row reduction over a loose operand (segments in reverse
/// order with free slots: the reference builder's loose layout).
fn loose_i32(d: Option<&Dense>) {
    let Some(d) = d else { return };
    let ints = d.entries(false, bounded);
    let mut y = vec![i32::MIN; d.rows()];
    let got = with_tensor(&LOOSE, [d.rows(), d.cols()], &ints, |a| {
        k::rows_loose_i32(a, &mut y)
    });
    assert_eq!(got, Ok(()));
    for (i, got) in y.iter().enumerate() {
        let want: i32 = ints
            .iter()
            .filter(|(c, _)| c[0] == i)
            .map(|(_, v)| v * 3 - v)
            .sum();
        assert_eq!(*got, want, "loose row {i}");
    }
}

/// Checks a sparse output after a kernel call: on `Ok` its view assembles
/// again, stores no coordinate outside `pattern` and holds `want`
/// everywhere; on `Err` it is a capacity error and the output is empty.
fn check_out<E: Encoding, B, const L: usize>(
    c: &SparseTensorOut<f64, E, B, 2, L>,
    result: Result<(), KernelError>,
    want: &Dense,
    what: &str,
) where
    B: sparse_core::OutputBuffers<E::Pos, E::Crd, f64>,
{
    let view = c.view();
    let (dims, levels, values) = view.disassemble();
    assert!(
        SparseTensor::<f64, E, 2, L>::assemble(dims, levels, values).is_ok(),
        "{what}: the output view must assemble"
    );
    match result {
        Ok(()) => {
            assert_eq!(dims, [want.rows(), want.cols()], "{what}: dims");
            let got = Dense::of(&view).expect("as small as the reference");
            assert_eq!(got.data, want.data, "{what}: values");
        }
        Err(KernelError::Capacity { .. }) => {
            assert_eq!(view.number_of_entries(), 0, "{what}: emptied on failure");
        }
        Err(e) => panic!("{what}: unexpected {e:?}"),
    }
}

/// `c = t + t` (the second operand rebuilt as CSR by the reference
/// builder) into an `Owned` and a `Fixed` output, twice each (the second
/// call replaces the first's result); the fixed one may run out of room.
macro_rules! add {
    ($t:expr, $d:expr, $kernel:path) => {{
        if let Some(d) = $d {
            let want = Dense {
                dims: d.dims.clone(),
                data: d.data.iter().map(|v| 2.0 * v).collect(),
            };
            let dims = [d.rows(), d.cols()];
            with_tensor(&CSR, dims, &d.entries(false, |v| v), |b| {
                if let Ok(mut c) = SparseTensorOut::<_, _, Owned, 2, _>::with_dims(dims) {
                    for _ in 0..2 {
                        let r = $kernel($t, b, &mut c);
                        check_out(&c, r, &want, "add (Owned)");
                    }
                }
                if let Ok(mut c) = SparseTensorOut::<_, _, Fixed<FIXED_CAP>, 2, _>::with_dims(dims)
                {
                    for _ in 0..2 {
                        let r = $kernel($t, b, &mut c);
                        check_out(&c, r, &want, "add (Fixed)");
                    }
                }
            });
        }
    }};
}
use add;

/// `c = t tᵀ` (the transpose rebuilt as CSR by the reference builder)
/// through the workspace, into an `Owned` and a `Fixed` output.
macro_rules! spgemm {
    ($t:expr, $d:expr, $kernel:path) => {{
        // The product is `m x m`: only as large as a dense reference may be.
        if let Some(d) = $d.filter(|d| d.rows() * d.rows() <= DENSE_LIMIT) {
            let (m, n) = (d.rows(), d.cols());
            let mut want = Dense {
                dims: vec![m, m],
                data: vec![0.0; m * m],
            };
            for i in 0..m {
                for j in 0..m {
                    want.data[i * m + j] = (0..n).map(|q| d.at(i, q) * d.at(j, q)).sum();
                }
            }
            let want = want;
            with_tensor(&CSR, [n, m], &d.entries(true, |v| v), |b| {
                if let Ok(mut c) = SparseTensorOut::<_, _, Owned, 2, _>::with_dims([m, m]) {
                    let r = $kernel($t, b, &mut c);
                    check_out(&c, r, &want, "spgemm (Owned)");
                }
                if let Ok(mut c) =
                    SparseTensorOut::<_, _, Fixed<FIXED_CAP>, 2, _>::with_dims([m, m])
                {
                    let r = $kernel($t, b, &mut c);
                    check_out(&c, r, &want, "spgemm (Fixed)");
                }
            });
        }
    }};
}
use spgemm;

/// `y[i] = sum_jk a[i, j, k] v[k]` on a CSF tensor.
fn csf(t: &SparseTensor<'_, f64, EncOf<k::CSF<'static, f64>>, 3, 3>, d: Option<&Dense>) {
    let Some(d) = d else { return };
    let [l, m, n] = [d.dims[0], d.dims[1], d.dims[2]];
    let v = x_vec(n);
    let mut y = vec![777.25; l];
    assert_eq!(k::csf_contract(t, &v, &mut y), Ok(()));
    for (i, got) in y.iter().enumerate() {
        let want: f64 = (0..m)
            .flat_map(|j| (0..n).map(move |q| (j, q)))
            .map(|(j, q)| d.data[(i * m + j) * n + q] * v[q])
            .sum();
        assert_eq!(*got, want, "csf row {i}");
    }
}

/// `c = 2 a` on a sparse vector into a fixed-size sparse output.
fn sv(t: &SparseTensor<'_, f64, EncOf<k::SV<'static, f64>>, 1, 1>, d: Option<&Dense>) {
    let Some(d) = d else { return };
    let Ok(mut c) = k::SVOut::<f64, Fixed<FIXED_CAP>>::with_dims([d.dims[0]]) else {
        return;
    };
    let r = k::sv_scale(t, &mut c);
    let view = c.view();
    match r {
        Ok(()) => {
            let got = Dense::of(&view).expect("as small as the reference");
            let want: Vec<f64> = d.data.iter().map(|v| 2.0 * v).collect();
            assert_eq!(got.data, want);
        }
        Err(KernelError::Capacity { .. }) => assert_eq!(view.number_of_entries(), 0),
        Err(e) => panic!("sv_scale: unexpected {e:?}"),
    }
}
