//! A constant's storage under its encoding: the positions, coordinates and
//! values `SparseTensor::assemble` would accept, built at compile time.
//!
//! The entries are mapped to level coordinates (dim→lvl), sorted
//! lexicographically (stable: duplicates keep their written order) and laid
//! out level by level, outermost first. Each level turns the *nodes* of its
//! parent (a run of sorted entries under one parent entry) into its own:
//!
//! - `dense`/`batch`: every coordinate `0..size`, empty runs included (the
//!   zero padding of BSR blocks);
//! - `compressed`: one node per distinct coordinate (per entry if the level
//!   is `nonunique`), `pos` counting them;
//! - `loose_compressed`: the same, `lo, hi` pairs of contiguous segments;
//! - `singleton`: exactly one entry per parent (else the pattern is one
//!   the format cannot hold: an error naming both entries);
//! - `structured[n, m]`: at most `n` entries per group of `m` (else an
//!   error naming the group), padded to `n` with the lowest free
//!   coordinates holding zeros.
//!
//! The values are one per node of the last level: the entry's value, or
//! zero for padding. Repeated coordinates are an error unless the last
//! level is `nonunique`, where MLIR stores each (and reads their sum).
//! Every rule of `assemble` then holds by construction: positions count
//! nodes, coordinates come from in-range entries in sorted order, and
//! uniqueness was checked. Sizes and counts are checked against the widths.

use proc_macro2::Span;

use super::constant::{ConstContext, Entries, SparseStorage, StoredLevel};
use super::constant_layout_errors::{check_crd_width, report_overflow, width_bits};
use super::constant_value::Scalar;
use super::{Encoding, ValueType};
use crate::errors::Errors;
use crate::syntax::{LiteralValue, ScalarLit};
use crate::vocab::{coordinate_slot, LevelExpr, LevelFormat};

/// The most stored entries (values, padding included) a constant may have.
/// Sized by rustc's memory, not by the targets (2^21 `f32` values are 8
/// MiB, more than a microcontroller's flash). Measured at this limit
/// (`bench/compile/constants-memory.sh`, dev build): a splat of 2^21
/// elements 221 MB (as an array) and 332 MB (as CSR), a CSR of 2^21 rows
/// 189 MB, a `.npy` of 2^21 `f64` 450–515 MB, a shuffled `.mtx` of 2^21
/// entries 535 MB of rustc memory; at 2^26 rustc died on allocation
/// failure.
pub(crate) const MAX_STORED: usize = 1 << 21;

/// Whether a value listing every element of `shape` stays within
/// [`MAX_STORED`]: the product of the sizes, zeros left out (beside a 0,
/// a size no element backs, `0 x u64::MAX`, would still make rustc walk or
/// refuse an array type of that length).
pub(super) fn dense_within_limit(shape: &[u64]) -> bool {
    shape
        .iter()
        .filter(|&&n| n != 0)
        .try_fold(1u64, |acc, &n| {
            acc.checked_mul(n).filter(|&p| p <= MAX_STORED as u64)
        })
        .is_some()
}

/// The level coordinates of the nodes of the level being laid out, kept
/// only when another constant shares this one's levels (`levels_of`
/// reads its values at them): `depth` coordinates per node.
struct Slots {
    on: bool,
    depth: usize,
    cur: Vec<u64>,
    next: Vec<u64>,
}

impl Slots {
    /// A node of the next level under node `parent`, at coordinate `c`.
    fn push(&mut self, parent: usize, c: u64) {
        if self.on {
            let d = self.depth;
            self.next
                .extend_from_slice(&self.cur[parent * d..(parent + 1) * d]);
            self.next.push(c);
        }
    }
    /// The next level's nodes become the current ones.
    fn advance(&mut self) {
        self.cur = std::mem::take(&mut self.next);
        self.depth += 1;
    }
}

/// Builds the storage of `entries` (dimension sizes `dims`) under `enc`.
/// `dynamic[d]` says dimension `d` was `?` in the type (its size came from
/// the value, so its coordinate width is checked here). With
/// `track_slots`, the storage records the level coordinates of every
/// stored value (padding included) in `SparseStorage::slots`.
#[allow(clippy::too_many_arguments)]
pub(super) fn build(
    enc: &Encoding,
    dims: &[u64],
    dynamic: &[bool],
    elem: ValueType,
    entries: &Entries,
    ctx: &ConstContext,
    track_slots: bool,
    errors: &mut Errors,
) -> Option<SparseStorage> {
    let before = errors.len();
    let lvl = enc.levels.len();
    let mut lvl_sizes = Vec::with_capacity(lvl);
    let mut reported_blocks = Vec::new();
    for (l, level) in enc.levels.iter().enumerate() {
        let d = level.expr.dim();
        let size = dims.get(d).copied().unwrap_or(0);
        let lsize = match level.expr {
            LevelExpr::Dim(_) => size,
            LevelExpr::FloorDiv { divisor, .. } => size.div_ceil(u64::from(divisor)),
            LevelExpr::Mod { modulus, .. } => u64::from(modulus),
            LevelExpr::Counting { .. } => {
                errors.error(
                    ctx.span,
                    format!(
                        "level {l} of `#{}` is a counting level (ELL, `c * K * d`); constants \
                         of counting encodings are not supported, use a CSR-like encoding",
                        enc.name
                    ),
                );
                return None;
            }
        };
        // A block level (`d floordiv k`, `d mod k`, `structured[n, m]`)
        // over a size that is not a multiple of the block would give the
        // last block entries past the tensor's edge.
        let block = match level.expr {
            LevelExpr::FloorDiv { divisor: k, .. } | LevelExpr::Mod { modulus: k, .. } => {
                u64::from(k)
            }
            _ => 1,
        };
        if block > 1 && size % block != 0 && !reported_blocks.contains(&d) {
            reported_blocks.push(d);
            let what = match level.ty.format {
                LevelFormat::Structured { n, m } => format!("`structured[{n}, {m}]` groups"),
                _ => format!("blocks of {block}"),
            };
            errors.error(
                ctx.span,
                format!(
                    "`#{}` stores dimension {d} in {what}, but its size {size} is not a \
                     multiple of {block}: the last block would reach past the tensor",
                    enc.name
                ),
            );
        }
        if level.ty.has_coordinates() && dynamic.get(d).copied().unwrap_or(false) {
            check_crd_width(enc, l, d, lsize, ctx, errors);
        }
        lvl_sizes.push(lsize);
    }
    if errors.len() > before {
        return None;
    }
    let n = entries.len();
    // Level coordinates, entry by entry.
    let mut lcrd = Vec::with_capacity(n * lvl);
    for e in 0..n {
        let dim = entries.crd(e);
        for level in &enc.levels {
            let x = dim.get(level.expr.dim()).copied().unwrap_or(0);
            lcrd.push(match level.expr {
                LevelExpr::FloorDiv { divisor, .. } => x / u64::from(divisor),
                LevelExpr::Mod { modulus, .. } => x % u64::from(modulus),
                _ => x,
            });
        }
    }
    let key = |e: u32| &lcrd[e as usize * lvl..(e as usize + 1) * lvl];
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by(|&a, &b| key(a).cmp(key(b)));
    let last_unique = enc.levels.last().is_none_or(|l| l.ty.is_unique());
    if last_unique {
        for w in order.windows(2) {
            if key(w[0]) == key(w[1]) {
                let (first, second) = (
                    entries.origins[w[0] as usize],
                    entries.origins[w[1] as usize],
                );
                let at = entries.describe(w[1] as usize);
                errors.error_with_note(
                    second.span,
                    format!(
                        "duplicate entry at {at}{}: the last level of `#{}` is unique, so it \
                         stores each coordinate once; make it `nonunique` to store both (kernels \
                         then read their sum)",
                        ctx.line(second),
                        enc.name
                    ),
                    first.span,
                    format!("the first entry at {at}{}", ctx.line(first)),
                );
            }
        }
        if errors.len() > before {
            return None;
        }
    }
    let crd = |k: u32, l: usize| lcrd[order[k as usize] as usize * lvl + l];

    let mut nodes: Vec<(u32, u32)> = vec![(0, n as u32)];
    let mut slots = Slots {
        on: track_slots,
        depth: 0,
        cur: Vec::new(),
        next: Vec::new(),
    };
    let mut levels = Vec::with_capacity(lvl);
    for (l, level) in enc.levels.iter().enumerate() {
        let size = lvl_sizes[l];
        let unique = level.ty.is_unique();
        let mut next: Vec<(u32, u32)> = Vec::new();
        let mut positions = Vec::new();
        let mut coordinates = Vec::new();
        // Runs of equal coordinates at `l` (one per entry if nonunique).
        let groups = |a: u32, b: u32| {
            let mut out = Vec::new();
            let mut k = a;
            while k < b {
                let mut e = k + 1;
                if unique {
                    while e < b && crd(e, l) == crd(k, l) {
                        e += 1;
                    }
                }
                out.push((k, e));
                k = e;
            }
            out
        };
        match level.ty.format {
            LevelFormat::Dense | LevelFormat::Batch => {
                let total = (nodes.len() as u128) * u128::from(size);
                if total > MAX_STORED as u128 {
                    errors.error(
                        ctx.span,
                        format!(
                            "this constant would store {total} entries at level {l} of `#{}` \
                             (dense levels store every coordinate); at most {MAX_STORED} are \
                             supported",
                            enc.name
                        ),
                    );
                    return None;
                }
                for (p, &(a, b)) in nodes.iter().enumerate() {
                    let mut k = a;
                    for c in 0..size {
                        let start = k;
                        while k < b && crd(k, l) == c {
                            k += 1;
                        }
                        next.push((start, k));
                        slots.push(p, c);
                    }
                }
            }
            LevelFormat::Compressed => {
                positions.push(0);
                for (p, &(a, b)) in nodes.iter().enumerate() {
                    for (s, e) in groups(a, b) {
                        coordinates.push(crd(s, l));
                        next.push((s, e));
                        slots.push(p, crd(s, l));
                    }
                    positions.push(next.len() as u64);
                }
            }
            LevelFormat::LooseCompressed => {
                for (p, &(a, b)) in nodes.iter().enumerate() {
                    positions.push(next.len() as u64);
                    for (s, e) in groups(a, b) {
                        coordinates.push(crd(s, l));
                        next.push((s, e));
                        slots.push(p, crd(s, l));
                    }
                    positions.push(next.len() as u64);
                }
            }
            LevelFormat::Singleton => {
                for (p, &(a, b)) in nodes.iter().enumerate() {
                    if b - a > 1 {
                        let (x, y) = (order[a as usize] as usize, order[a as usize + 1] as usize);
                        let (ox, oy) = (entries.origins[x], entries.origins[y]);
                        errors.error_with_note(
                            oy.span,
                            format!(
                                "level {l} of `#{}` is `singleton`: one entry per entry of level \
                                 {}, but {} and {} share it{}; make level {} \
                                 `compressed(nonunique)` (COO) to store both",
                                enc.name,
                                l - 1,
                                entries.describe(x),
                                entries.describe(y),
                                ctx.line(oy),
                                l - 1
                            ),
                            ox.span,
                            format!("{} is here{}", entries.describe(x), ctx.line(ox)),
                        );
                    }
                    if a == b {
                        errors.error(
                            ctx.span,
                            format!(
                                "level {l} of `#{}` is `singleton` under a level with padding; \
                                 such an encoding cannot hold a constant",
                                enc.name
                            ),
                        );
                        return None;
                    }
                    coordinates.push(crd(a, l));
                    next.push((a, a + 1));
                    slots.push(p, crd(a, l));
                }
            }
            LevelFormat::Structured { n: keep, m } => {
                // Groups with too many entries: (span, the group in words).
                let mut overflow: Vec<(Span, String)> = Vec::new();
                let d = level.expr.dim();
                for (p, &(a, b)) in nodes.iter().enumerate() {
                    let present = groups(a, b);
                    if present.len() > usize::from(keep) {
                        let extra = order[present[usize::from(keep)].0 as usize] as usize;
                        let origin = entries.origins[extra];
                        let listed: Vec<String> = present
                            .iter()
                            .map(|&(s, _)| entries.describe(order[s as usize] as usize))
                            .collect();
                        let first = entries.crd(extra).get(d).copied().unwrap_or(0);
                        let start = first - first % u64::from(m);
                        overflow.push((
                            origin.span,
                            format!(
                                "the group of dimension {d} coordinates {start}..{} holds {} \
                                 entries ({}){}",
                                start + u64::from(m),
                                present.len(),
                                listed.join(", "),
                                ctx.line(origin),
                            ),
                        ));
                        continue;
                    }
                    let used: Vec<u64> = present.iter().map(|&(s, _)| crd(s, l)).collect();
                    let mut group: Vec<(u64, (u32, u32))> =
                        present.iter().map(|&(s, e)| (crd(s, l), (s, e))).collect();
                    let mut c = 0;
                    while group.len() < usize::from(keep) {
                        if !used.contains(&c) {
                            group.push((c, (b, b)));
                        }
                        c += 1;
                    }
                    group.sort_by_key(|&(c, _)| c);
                    for (c, range) in group {
                        coordinates.push(c);
                        next.push(range);
                        slots.push(p, c);
                    }
                }
                report_overflow(
                    &overflow,
                    &format!("level {l} of `#{}`", enc.name),
                    keep,
                    m,
                    errors,
                );
            }
        }
        if level.ty.has_positions() {
            let entries_here = next.len() as u64;
            if entries_here > enc.pos_width.max_value() {
                errors.error(
                    ctx.span,
                    format!(
                        "level {l} of `#{}` stores {entries_here} entries, more than its \
                         {}-bit positions hold (at most {}); use a wider `posWidth`",
                        enc.name,
                        width_bits(enc.pos_width),
                        enc.pos_width.max_value()
                    ),
                );
            }
        }
        levels.push(StoredLevel {
            positions,
            coordinates,
            stride: 1,
            offset: 0,
        });
        nodes = next;
        slots.advance();
    }
    if errors.len() > before {
        return None;
    }
    let explicit = enc
        .explicit_val
        .as_ref()
        .and_then(|v| Scalar::convert(explicit_lit(v.literal), elem).ok());
    let mut values = Vec::with_capacity(if explicit.is_some() { 0 } else { nodes.len() });
    for &(a, b) in &nodes {
        let value = (a..b).fold(None, |acc: Option<Scalar>, k| {
            let v = entries.values[order[k as usize] as usize];
            Some(acc.map_or(v, |s| s.add(v)))
        });
        match explicit {
            None => values.push(value.unwrap_or(Scalar::zero(elem))),
            Some(x) => {
                let Some(v) = value else {
                    errors.error(
                        ctx.span,
                        format!(
                            "`#{}` is a pattern encoding (explicitVal {}): every stored entry \
                             holds that value, but its levels store padding, which would too",
                            enc.name,
                            x.describe()
                        ),
                    );
                    return None;
                };
                if v != x {
                    let e = order[a as usize] as usize;
                    let origin = entries.origins[e];
                    errors.error(
                        origin.value,
                        format!(
                            "`#{}` is a pattern encoding: every stored entry holds its \
                             explicitVal {}, but the entry at {} is {}{}",
                            enc.name,
                            x.describe(),
                            entries.describe(e),
                            v.describe(),
                            ctx.line(origin)
                        ),
                    );
                }
            }
        }
    }
    if errors.len() > before {
        return None;
    }
    fuse_coo_regions(enc, &mut levels);
    Some(SparseStorage {
        encoding: enc.name.clone(),
        lvl_sizes,
        levels,
        values,
        entries: nodes.len(),
        slots: slots.cur,
    })
}

/// `explicitVal`'s literal as a tensor literal scalar.
fn explicit_lit(literal: LiteralValue) -> ScalarLit {
    match literal {
        LiteralValue::Int(n) => ScalarLit::Int(n),
        LiteralValue::Float(x) => ScalarLit::Float(x),
    }
}

/// MLIR's AoS COO: a compressed or loose level followed by a run of
/// singletons without `soa` keeps the run's coordinates as tuples in its
/// own buffer; the singletons own no buffer and read their slot (the one
/// storage rule, `sparse_vocab::coordinate_slot`, which sparse-core's
/// layout and codegen read too).
fn fuse_coo_regions(enc: &Encoding, levels: &mut [StoredLevel]) {
    let types: Vec<_> = enc.levels.iter().map(|x| x.ty).collect();
    for l in 0..levels.len() {
        let slot = coordinate_slot(&types, l);
        // Only a region's start gathers the tuples; its singletons were
        // set with it.
        if slot.stride == 1 || slot.is_fused() {
            continue;
        }
        let run = slot.stride - 1;
        let count = levels[l].coordinates.len();
        let mut tuples = Vec::with_capacity(count * (run + 1));
        for p in 0..count {
            for level in &levels[l..=l + run] {
                tuples.push(level.coordinates[p]);
            }
        }
        levels[l].coordinates = tuples;
        for (slot, level) in levels[l..=l + run].iter_mut().enumerate() {
            level.stride = run + 1;
            level.offset = slot;
            if slot > 0 {
                level.coordinates.clear();
            }
        }
    }
}

impl Scalar {
    /// The sum of two values of one type (integers wrap, as MLIR's `arith`).
    fn add(self, other: Scalar) -> Scalar {
        match (self, other) {
            (Scalar::F32(a), Scalar::F32(b)) => Scalar::F32(a + b),
            (Scalar::F64(a), Scalar::F64(b)) => Scalar::F64(a + b),
            (Scalar::Int(a), Scalar::Int(b)) => Scalar::Int(a.wrapping_add(b)),
            (Scalar::Bool(a), Scalar::Bool(b)) => Scalar::Bool(a ^ b),
            (a, _) => a,
        }
    }
}
