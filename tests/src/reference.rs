//! An independent reference for the storage tests: builds the buffers of a
//! tensor from a list of entries the simple way (map to level coordinates,
//! sort, then count), without any code from `sparse-core` beyond the
//! vocabulary types used to name formats.
//!
//! It handles the formats the storage tests use: dense, compressed (unique
//! or not), singleton (AoS or SoA), and loose compressed as the last level
//! (built as compressed, then rewritten with segments in reverse order and
//! a free slot between them).

use sparse_core::levels::{
    compressed, d0, d1, d2, dense, floordiv, loose_compressed, modulo, nonunique, singleton, soa,
};
use sparse_core::vocab::{LevelExpr, LevelFormat, LevelProps, LevelType};
use sparse_core::{Enc, Index, Level};

/// Shorthand level types for the encodings below.
pub const DENSE: LevelType = LevelType::new(LevelFormat::Dense);
/// `compressed`.
pub const COMPRESSED: LevelType = LevelType::new(LevelFormat::Compressed);
/// `compressed(nonunique)`.
pub const COMPRESSED_NU: LevelType =
    LevelType::new(LevelFormat::Compressed).with(LevelProps::NONUNIQUE);
/// `loose_compressed`.
pub const LOOSE: LevelType = LevelType::new(LevelFormat::LooseCompressed);
/// `singleton` (AoS).
pub const SINGLETON: LevelType = LevelType::new(LevelFormat::Singleton);
/// `singleton(soa)`.
pub const SINGLETON_SOA: LevelType = LevelType::new(LevelFormat::Singleton).with(LevelProps::SOA);
/// `singleton(nonunique)` (AoS).
pub const SINGLETON_NU: LevelType =
    LevelType::new(LevelFormat::Singleton).with(LevelProps::NONUNIQUE);

/// BSR with `r x c` blocks: `(i floordiv r, j floordiv c, i mod r, j mod c)`.
pub const fn bsr_map(r: u32, c: u32) -> [LevelExpr; 4] {
    [
        LevelExpr::FloorDiv { dim: 0, divisor: r },
        LevelExpr::FloorDiv { dim: 1, divisor: c },
        LevelExpr::Mod { dim: 0, modulus: r },
        LevelExpr::Mod { dim: 1, modulus: c },
    ]
}

/// `(i, j) -> (i : dense, j : compressed)`.
pub type Csr<P, C> = Enc<P, C, (dense, compressed), (d0, d1)>;
/// `(i, j) -> (j : dense, i : compressed)`.
pub type Csc<P, C> = Enc<P, C, (dense, compressed), (d1, d0)>;
/// `(i, j) -> (i : compressed, j : compressed)`.
pub type Dcsr<P, C> = Enc<P, C, (compressed, compressed), (d0, d1)>;
/// `(i, j) -> (i : compressed(nonunique), j : singleton)`: sorted COO, AoS.
pub type Coo<P, C> = Enc<P, C, (compressed<nonunique>, singleton), (d0, d1)>;
/// `(i, j) -> (i : compressed(nonunique), j : singleton(soa))`.
pub type CooSoa<P, C> = Enc<P, C, (compressed<nonunique>, singleton<soa>), (d0, d1)>;
/// `(i, j) -> (i : compressed(nonunique), j : singleton(nonunique))`:
/// COO that allows repeated coordinates.
pub type CooNu<P, C> = Enc<P, C, (compressed<nonunique>, singleton<nonunique>), (d0, d1)>;
/// `(i, j) -> (i : dense, j : loose_compressed)`.
pub type Loose<P, C> = Enc<P, C, (dense, loose_compressed), (d0, d1)>;
/// `(i, j, k) -> (i : compressed, j : compressed, k : compressed)`.
pub type Csf<P, C> = Enc<P, C, (compressed, compressed, compressed), (d0, d1, d2)>;
/// BSR with 2x3 blocks.
pub type Bsr23<P, C> = Enc<
    P,
    C,
    (dense, compressed, dense, dense),
    (
        floordiv<d0, 2>,
        floordiv<d1, 3>,
        modulo<d0, 2>,
        modulo<d1, 3>,
    ),
>;
/// BSR with 2x2 blocks (seed 001).
pub type Bsr22<P, C> = Enc<
    P,
    C,
    (dense, compressed, dense, dense),
    (
        floordiv<d0, 2>,
        floordiv<d1, 2>,
        modulo<d0, 2>,
        modulo<d1, 2>,
    ),
>;

/// How the reference builder stores one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Every coordinate below the size.
    Dense,
    /// Distinct coordinates per parent (`unique`), or one per entry.
    Compressed {
        /// Merge equal coordinates into one entry.
        unique: bool,
    },
    /// One coordinate per parent entry.
    Singleton,
    /// As compressed (unique), then segments reversed with free slots;
    /// only as the last level.
    Loose,
}

/// One level of a reference layout: its kind, its expression and whether
/// it is fused into the previous level's AoS buffer.
#[derive(Clone, Copy, Debug)]
pub struct RefLevel {
    /// The storage kind.
    pub kind: Kind,
    /// The level expression.
    pub expr: LevelExpr,
    /// A singleton whose coordinates live in the COO start's buffer.
    pub fused: bool,
}

/// A level of the reference layout.
pub const fn lvl(kind: Kind, expr: LevelExpr) -> RefLevel {
    RefLevel {
        kind,
        expr,
        fused: false,
    }
}

/// An AoS singleton level.
pub const fn fused(expr: LevelExpr) -> RefLevel {
    RefLevel {
        kind: Kind::Singleton,
        expr,
        fused: true,
    }
}

/// Owned buffers, level by level, as plain `usize`s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Built<V> {
    /// Positions per level.
    pub pos: Vec<Vec<usize>>,
    /// Coordinates per level (interleaved at an AoS start, empty when fused).
    pub crd: Vec<Vec<usize>>,
    /// The values.
    pub values: Vec<V>,
}

/// Buffers narrowed to the encoding's widths.
#[derive(Clone, Debug)]
pub struct Typed<P, C, V> {
    /// Positions per level.
    pub pos: Vec<Vec<P>>,
    /// Coordinates per level.
    pub crd: Vec<Vec<C>>,
    /// The values.
    pub values: Vec<V>,
}

impl<V: Clone> Built<V> {
    /// Narrows every buffer to `P`/`C`, panicking (in test code) if a value
    /// does not fit.
    pub fn typed<P: Index, C: Index>(&self) -> Typed<P, C, V> {
        Typed {
            pos: self.pos.iter().map(|v| narrow(v)).collect(),
            crd: self.crd.iter().map(|v| narrow(v)).collect(),
            values: self.values.clone(),
        }
    }
}

impl<P, C, V> Typed<P, C, V> {
    /// The `Level`s to pass to `assemble`.
    pub fn levels<const LVL: usize>(&self) -> [Level<'_, P, C>; LVL] {
        core::array::from_fn(|l| Level {
            positions: &self.pos[l],
            coordinates: &self.crd[l],
        })
    }
}

/// `v` narrowed element by element, panicking (in test code) on overflow.
pub fn narrow<I: Index>(v: &[usize]) -> Vec<I> {
    v.iter()
        .map(|&x| I::from_usize(x).expect("index fits the width"))
        .collect()
}

/// The level coordinates of dimension coordinates `dim`.
pub fn to_lvl(layout: &[RefLevel], dim: &[usize]) -> Vec<usize> {
    layout
        .iter()
        .map(|l| match l.expr {
            LevelExpr::Dim(d) => dim[d as usize],
            LevelExpr::FloorDiv { dim: d, divisor } => dim[d as usize] / divisor as usize,
            LevelExpr::Mod { dim: d, modulus } => dim[d as usize] % modulus as usize,
            LevelExpr::Counting { .. } => panic!("the reference builder has no counting levels"),
        })
        .collect()
}

/// The level sizes of dimension sizes `dims`.
pub fn lvl_sizes(layout: &[RefLevel], dims: &[usize]) -> Vec<usize> {
    layout
        .iter()
        .map(|l| match l.expr {
            LevelExpr::Dim(d) => dims[d as usize],
            LevelExpr::FloorDiv { dim: d, divisor } => dims[d as usize].div_ceil(divisor as usize),
            LevelExpr::Mod { modulus, .. } => modulus as usize,
            LevelExpr::Counting { .. } => panic!("the reference builder has no counting levels"),
        })
        .collect()
}

/// The entries sorted by level coordinates (stable, so duplicates keep
/// their order): the order a walk of sorted storage visits them in.
pub fn storage_order<V: Clone>(
    layout: &[RefLevel],
    entries: &[(Vec<usize>, V)],
) -> Vec<(Vec<usize>, V)> {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(|(d, _)| to_lvl(layout, d));
    sorted
}

/// Builds the buffers of `entries` (dimension coordinates and values) for
/// `layout` with dimension sizes `dims`. Dense slots without an entry hold
/// `zero`; free slots of a loose level hold coordinate 0 and `gap`.
pub fn build<V: Clone>(
    layout: &[RefLevel],
    dims: &[usize],
    entries: &[(Vec<usize>, V)],
    zero: V,
    gap: V,
) -> Built<V> {
    let sizes = lvl_sizes(layout, dims);
    let mut rows: Vec<(Vec<usize>, V)> = entries
        .iter()
        .map(|(d, v)| (to_lvl(layout, d), v.clone()))
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Built {
        pos: vec![Vec::new(); layout.len()],
        crd: vec![Vec::new(); layout.len()],
        values: Vec::new(),
    };
    // Each parent entry is the range of sorted rows below it.
    let mut groups = vec![(0, rows.len())];
    for (l, level) in layout.iter().enumerate() {
        let mut next = Vec::new();
        match level.kind {
            Kind::Dense => {
                for &(lo, hi) in &groups {
                    let mut at = lo;
                    for c in 0..sizes[l] {
                        let start = at;
                        while at < hi && rows[at].0[l] == c {
                            at += 1;
                        }
                        next.push((start, at));
                    }
                }
            }
            Kind::Compressed { unique: false } => {
                out.pos[l].push(0);
                for &(lo, hi) in &groups {
                    for (r, row) in rows.iter().enumerate().take(hi).skip(lo) {
                        out.crd[l].push(row.0[l]);
                        next.push((r, r + 1));
                    }
                    out.pos[l].push(out.crd[l].len());
                }
            }
            Kind::Compressed { unique: true } | Kind::Loose => {
                out.pos[l].push(0);
                for &(lo, hi) in &groups {
                    let mut at = lo;
                    while at < hi {
                        let start = at;
                        while at < hi && rows[at].0[l] == rows[start].0[l] {
                            at += 1;
                        }
                        out.crd[l].push(rows[start].0[l]);
                        next.push((start, at));
                    }
                    out.pos[l].push(out.crd[l].len());
                }
            }
            Kind::Singleton => {
                for &(lo, hi) in &groups {
                    assert_eq!(
                        hi - lo,
                        1,
                        "a singleton needs exactly one row per parent entry"
                    );
                    out.crd[l].push(rows[lo].0[l]);
                    next.push((lo, hi));
                }
            }
        }
        groups = next;
    }
    out.values = groups
        .iter()
        .map(|&(lo, hi)| {
            assert!(
                hi - lo <= 1,
                "entries must be unique where the layout merges them"
            );
            if hi > lo {
                rows[lo].1.clone()
            } else {
                zero.clone()
            }
        })
        .collect();
    if layout.last().is_some_and(|l| l.kind == Kind::Loose) {
        // A free slot needs a coordinate below the level size: none when
        // the size is 0, so such a level is stored without gaps.
        let gap = (sizes[layout.len() - 1] > 0).then_some(gap);
        loosen(&mut out, layout.len() - 1, gap);
    }
    interleave_aos(&mut out, layout);
    out
}

/// Rewrites the last level's `pos` as lo/hi pairs with the segments stored
/// in reverse parent order and one free slot (holding `gap`) before each,
/// or none when `gap` is `None`.
fn loosen<V: Clone>(out: &mut Built<V>, l: usize, gap: Option<V>) {
    let pos = std::mem::take(&mut out.pos[l]);
    let crd = std::mem::take(&mut out.crd[l]);
    let values = std::mem::take(&mut out.values);
    let parents = pos.len().saturating_sub(1);
    let mut pairs = vec![0; 2 * parents];
    for p in (0..parents).rev() {
        if let Some(gap) = &gap {
            out.crd[l].push(0);
            out.values.push(gap.clone());
        }
        let lo = out.crd[l].len();
        out.crd[l].extend_from_slice(&crd[pos[p]..pos[p + 1]]);
        out.values.extend_from_slice(&values[pos[p]..pos[p + 1]]);
        pairs[2 * p] = lo;
        pairs[2 * p + 1] = out.crd[l].len();
    }
    out.pos[l] = pairs;
}

/// Moves fused singleton coordinates into their COO start's buffer.
fn interleave_aos<V>(out: &mut Built<V>, layout: &[RefLevel]) {
    let mut s = 0;
    while s < layout.len() {
        let run = layout[s + 1..].iter().take_while(|l| l.fused).count();
        if run > 0 {
            let n = out.crd[s].len();
            let mut tuples = Vec::with_capacity(n * (run + 1));
            for q in 0..n {
                for k in s..=s + run {
                    tuples.push(out.crd[k][q]);
                }
            }
            out.crd[s] = tuples;
            for k in s + 1..=s + run {
                out.crd[k].clear();
            }
        }
        s += run + 1;
    }
}

/// A dense row-major matrix of the entries (later duplicates overwrite).
pub fn dense<V: Clone>(rows: usize, cols: usize, entries: &[(Vec<usize>, V)], zero: V) -> Vec<V> {
    let mut m = vec![zero; rows * cols];
    for (d, v) in entries {
        m[d[0] * cols + d[1]] = v.clone();
    }
    m
}
