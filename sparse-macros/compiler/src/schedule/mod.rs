//! Stage 4: the schedule. The plan says *what* each loop iterates; the
//! schedule says *how* each loop runs: in parallel chunks
//! ([`parallel`]), written out (the offsets inside a small block), unrolled
//! ([`unroll`]), with fused multiply-adds. One pass over the plan decides
//! every strategy from the target-independent defaults and the kernel's
//! attributes (`#[parallel]`, `#[unroll(n)]`, `#[fma]`); codegen obeys it
//! and decides nothing of its own. The schedule is printed after the loop
//! tree in the kernel's doc comment ([`Schedule::text`]).
//!
//! A new strategy is one rule here (a file for anything larger than a few
//! lines) and the lowering codegen gives its attribute.

pub mod dual_mac;
pub mod dual_mac_2_4;
pub mod gather_dot;
pub mod parallel;
pub mod partial_sums;
pub mod row_bound;
pub mod rows;
pub mod specialize;
pub mod specialize_packed;
pub mod two_way_merge;
pub mod unroll;
pub mod vector_isa;
pub mod window_skip;

use crate::plan::KernelPlan;
use crate::sparsifier::demap::DimPart;
use crate::sparsifier::{Expr, Kernel, LoopId, Node, OutputStrategy, Stmt, StmtPlan, TensorId};
use crate::vocab::LevelFormat;

pub use dual_mac::DualMac;
pub use dual_mac_2_4::GroupMac;
pub use gather_dot::GatherDot;
pub use parallel::Chunks;
pub use row_bound::RowBound;
pub use rows::RowCursor;
pub use specialize_packed::PackedWalk;
pub use window_skip::WindowSkip;

/// The largest block size whose loop is written out (a 4x4 block's two
/// loops become 16 copies of the innermost body): LLVM keeps such short
/// loops as loops at opt-level `s`, where a 4x4 BSR SpMV then costs 3.4
/// times the hand-written C loop (`bench/firmware/RESULTS.md`).
pub const MAX_WRITTEN_OUT_BLOCK: u32 = 4;

/// Bytes of code per entry of a constant written out by `#[specialize]`
/// on a Cortex-M4 (measured: 37,558 bytes for the 4,096 int8 entries of
/// the 64x256 layer of `bench/firmware` at opt-level `s`), for the
/// estimate in the kernel's doc comment.
pub const WRITTEN_OUT_BYTES: usize = 10;

/// How every loop of one kernel runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    /// `#[fma]`: float sums accumulate with fused multiply-adds.
    pub fma: bool,
    /// `#[parallel]` was asked for (each statement says whether and how it
    /// runs in chunks).
    pub parallel: bool,
    /// Per statement plan, in the plan's order.
    pub stmts: Vec<StmtSchedule>,
    /// The body compiled once per x86-64 vector extension, the copy chosen
    /// per call ([`vector_isa`]).
    pub vector_isa: bool,
}

/// How the loops of one statement run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StmtSchedule {
    /// Under `#[parallel]`: the loop that runs in chunks, or why the
    /// statement runs on one thread.
    pub chunks: Option<Result<Chunks, String>>,
    /// Loops written out, one copy of the body per iteration, with their
    /// (constant) trip count: the offsets inside a block of at most
    /// [`MAX_WRITTEN_OUT_BLOCK`], and the `n` entries of an n:m group with
    /// `n` at most that.
    pub written_out: Vec<(LoopId, u32)>,
    /// Innermost walks unrolled, with their factor (`#[unroll(n)]`).
    pub unrolled: Vec<(LoopId, u32)>,
    /// Under `#[unroll(n)]` when no loop of the statement qualifies: why.
    pub not_unrolled: Option<String>,
    /// The loop whose iterations each append one segment of the sparse
    /// output's last level (a bulk append through sparse-core's `Segment`
    /// instead of an insertion per entry), with that output.
    pub segment_append: Option<(LoopId, TensorId)>,
    /// The segment loop's rows written into slots reserved for their bound
    /// ([`row_bound`]).
    pub row_bound: Option<RowBound>,
    /// Dense reduction loops summed in partial sums under `#[reassociate]`
    /// ([`partial_sums`]).
    pub partial_sums: Vec<partial_sums::PartialSums>,
    /// Dense loops reading their rows through a row cursor ([`rows`]).
    pub row_cursors: Vec<RowCursor>,
    /// Under `#[specialize]`: the loops written out over the constant's
    /// stored entries, one per level, outermost first ([`specialize`]),
    /// or why the statement keeps its loops; `None` where the statement
    /// does not read the constant.
    pub compiled: Option<Result<Vec<LoopId>, String>>,
    /// Under a compiled walk: its entries' value without a loop-invariant
    /// input offset, and the offset, added once per row times the row's
    /// weights summed at expansion time ([`specialize::folded_offset`]).
    pub folded_offset: Option<(Expr, Expr)>,
    /// Innermost int8 walks summed by one call to sparse-core's `dot_s8`
    /// (dual multiply-accumulates on Cortex-M4/M7, [`dual_mac`]).
    pub dual_macs: Vec<DualMac>,
    /// Under `#[specialize]` when the loops are not written out: the int8
    /// walk over the constant summed from a stream packed at expansion
    /// time by sparse-core's `dot_s8_packed` ([`specialize_packed`]).
    pub packed: Option<PackedWalk>,
    /// Dense loops over the groups of a 2:4 int8 row summed by one call to
    /// sparse-core's `dot_s8_2_4` ([`dual_mac_2_4`]).
    pub group_macs: Vec<GroupMac>,
    /// Innermost float walks summed by one call to sparse-core's
    /// `dot_gather` under `#[reassociate]` ([`gather_dot`]).
    pub gather_dots: Vec<GatherDot>,
    /// Dense loops that jump from one offset whose window of stored
    /// coordinates is nonempty to the next ([`window_skip`]).
    pub window_skips: Vec<WindowSkip>,
    /// Co-iterations of two sparse levels merged by comparing their
    /// coordinates ([`two_way_merge`]).
    pub two_way_merges: Vec<LoopId>,
}

impl StmtSchedule {
    /// The loop that runs in chunks, if one does.
    pub fn chunks(&self) -> Option<Chunks> {
        self.chunks.as_ref().and_then(|c| c.as_ref().ok().copied())
    }

    /// The trip count of loop `l`, if it is written out.
    pub fn written_out(&self, l: LoopId) -> Option<u32> {
        self.written_out
            .iter()
            .find_map(|&(m, n)| (m == l).then_some(n))
    }

    /// The row cursor of dense loop `l`, if it reads its rows through one.
    pub fn row_cursor(&self, l: LoopId) -> Option<RowCursor> {
        self.row_cursors.iter().copied().find(|c| c.loop_id == l)
    }

    /// Whether loop `l` is written out over a constant's stored entries.
    pub fn is_compiled(&self, l: LoopId) -> bool {
        matches!(&self.compiled, Some(Ok(loops)) if loops.contains(&l))
    }

    /// The `dot_s8` call that sums walk `l`, if one does.
    pub fn dual_mac(&self, l: LoopId) -> Option<&DualMac> {
        self.dual_macs.iter().find(|d| d.loop_id == l)
    }

    /// The `dot_gather` call that sums walk `l`, if one does.
    pub fn gather_dot(&self, l: LoopId) -> Option<GatherDot> {
        self.gather_dots.iter().copied().find(|d| d.loop_id == l)
    }

    /// The packed stream that sums walk `l`, if one does.
    pub fn packed(&self, l: LoopId) -> Option<&PackedWalk> {
        self.packed.as_ref().filter(|p| p.loop_id == l)
    }

    /// The `dot_s8_2_4` call that sums the groups of loop `l`, if one does.
    pub fn group_mac(&self, l: LoopId) -> Option<&GroupMac> {
        self.group_macs.iter().find(|g| g.loop_id == l)
    }

    /// The window skip of dense loop `l`, if it jumps between windows.
    pub fn window_skip(&self, l: LoopId) -> Option<&WindowSkip> {
        self.window_skips.iter().find(|w| w.loop_id == l)
    }

    /// The partial sums of dense loop `l`, if it is summed in lanes.
    pub fn partial_sums(&self, l: LoopId) -> Option<partial_sums::PartialSums> {
        self.partial_sums.iter().copied().find(|p| p.loop_id == l)
    }

    /// The unroll factor of loop `l`, if it is unrolled.
    pub fn unroll_of(&self, l: LoopId) -> Option<u32> {
        self.unrolled
            .iter()
            .find_map(|&(m, n)| (m == l).then_some(n))
    }
}

/// Schedules a planned kernel: one decision per loop, once.
pub fn schedule(kp: &KernelPlan) -> Schedule {
    let def = &kp.def;
    let k = kp.kernel();
    let mut sched = Schedule {
        fma: def.fma.is_some(),
        parallel: def.parallel.is_some(),
        stmts: Vec::new(),
        vector_isa: false,
    };
    let blocks = block_offsets(kp);
    for sp in &kp.loops.stmts {
        let mut s = StmtSchedule {
            written_out: written_out(sp, &blocks),
            ..StmtSchedule::default()
        };
        let stmt = sp.part.as_ref().or_else(|| k.stmts.get(sp.stmt));
        s.segment_append = stmt.and_then(|stmt| segment_append(kp, sp, stmt));
        if let (true, Some(stmt)) = (sched.parallel, stmt) {
            s.chunks = Some(parallel::chunks(kp, sp, stmt));
        }
        if let (Some((factor, _)), Some(stmt)) = (def.unroll, stmt) {
            match unroll::innermost_walks(kp, sp, stmt, s.chunks()) {
                Ok(loops) => s.unrolled = loops.into_iter().map(|l| (l, factor)).collect(),
                Err(why) => s.not_unrolled = Some(why),
            }
        }
        if let (Some(spec), Some(stmt)) = (&kp.specialized, stmt) {
            s.compiled =
                specialize::compiled_loops(kp, sp, stmt, spec.tensor, s.chunks()).transpose();
            // A compiled loop is neither unrolled nor read by row cursors.
            if let Some(Ok(loops)) = &s.compiled {
                s.unrolled.retain(|(l, _)| !loops.contains(l));
                if let Some(&last) = loops.last() {
                    s.folded_offset = specialize::folded_offset(kp, sp, stmt, spec.tensor, last);
                }
            }
        }
        if let Some(stmt) = stmt {
            let mut taken: Vec<LoopId> = s.written_out.iter().map(|w| w.0).collect();
            taken.extend(s.unrolled.iter().map(|u| u.0));
            taken.extend(s.chunks().map(|c| c.loop_id));
            if let Some(Ok(loops)) = &s.compiled {
                taken.extend(loops);
            }
            s.dual_macs = dual_mac::dual_mac_walks(kp, sp, stmt, &taken);
            // Over the written-out budget: the constant's walk packed.
            if let Some(Err(_)) = &s.compiled {
                s.packed = specialize_packed::packed_walk(kp, &s.dual_macs);
                let packed = &s.packed;
                s.dual_macs
                    .retain(|d| packed.as_ref().is_none_or(|p| p.loop_id != d.loop_id));
            }
            s.group_macs = dual_mac_2_4::group_macs(kp, sp, stmt, &taken);
            s.gather_dots = gather_dot::gather_dots(kp, sp, stmt, &taken);
            // A group's walk inside the call is not written out.
            let groups = &s.group_macs;
            s.written_out
                .retain(|(l, _)| !groups.iter().any(|g| g.walk == *l));
            taken.extend(s.group_macs.iter().map(|g| g.loop_id));
            taken.extend(s.packed.iter().map(|p| p.loop_id));
            s.row_cursors = rows::row_cursors(kp, sp, stmt, s.chunks(), &s.unrolled);
            // A walk handed whole to `dot_s8` or `dot_gather` needs its
            // range, not a row cursor's iterator.
            let dual = &s.dual_macs;
            let groups = &s.group_macs;
            let gathers = &s.gather_dots;
            // A packed walk reads no array of the constant.
            let packed = s.packed.as_ref().and(kp.specialized.as_ref());
            s.row_cursors.retain(|c| {
                !dual.iter().any(|d| d.weights == c.tensor)
                    && !groups.iter().any(|g| g.weights == c.tensor)
                    && !gathers.iter().any(|g| g.values == c.tensor)
                    && packed.is_none_or(|spec| spec.tensor != c.tensor)
            });
            if let Some(Ok(loops)) = &s.compiled {
                s.row_cursors.retain(|c| !loops.contains(&c.loop_id));
            }
            taken.extend(s.row_cursors.iter().map(|c| c.loop_id));
            s.window_skips = window_skip::window_skips(kp, sp, stmt, &taken);
            s.two_way_merges = two_way_merge::two_way_merges(kp, sp, &compiled_loops(&s));
            s.partial_sums = partial_sums::partial_sums(kp, sp, &taken);
            s.row_bound = s
                .segment_append
                .and_then(|seg| row_bound::row_bound(kp, sp, stmt, seg, &compiled_loops(&s)));
        }
        sched.stmts.push(s);
    }
    sched.vector_isa = vector_isa::vector_isa(&sched.stmts);
    sched
}

/// The loops written out over a constant's entries.
fn compiled_loops(s: &StmtSchedule) -> Vec<LoopId> {
    match &s.compiled {
        Some(Ok(loops)) => loops.clone(),
        _ => Vec::new(),
    }
}

/// The loop whose iterations append the entries of one segment of the
/// output's last level, when every insertion of the statement can go
/// through a `Segment` (sparse-core's `output/segment.rs`): direct
/// insertion, every level unique, the last compressed with its own
/// coordinates. That loop is the one over the last level's index: the
/// sparsifier puts the loops over output indices outermost in level
/// order, so inside it every outer level's coordinate is fixed.
fn segment_append(kp: &KernelPlan, sp: &StmtPlan, stmt: &Stmt) -> Option<(LoopId, TensorId)> {
    if sp.output.strategy != OutputStrategy::SparseInsert {
        return None;
    }
    let t = stmt.lhs.tensor;
    let levels = &kp.tensors.get(t.index())?.as_ref()?.levels;
    let last = levels.last()?;
    let appends = levels.iter().all(|l| l.ty.is_unique())
        && last.ty.format == LevelFormat::Compressed
        && last.own_coordinates();
    let l = *stmt.lhs.indices.get(last.dim)?;
    appends.then_some((l, t))
}

/// The loops of `sp` written out: over the offsets inside a small block
/// (`blocks`, by loop), or over the entries of a small n:m group.
fn written_out(sp: &StmtPlan, blocks: &[Option<u32>]) -> Vec<(LoopId, u32)> {
    let mut out: Vec<(LoopId, u32)> = sp
        .order
        .iter()
        .filter_map(|&(l, _)| Some((l, (*blocks.get(l.index())?)?)))
        .collect();
    unroll::visit(&sp.tree, &mut |node| {
        if let Node::Iterate { loop_id, space, .. } = node {
            if let LevelFormat::Structured { n, .. } = space.level_type.format {
                if u32::from(n) <= MAX_WRITTEN_OUT_BLOCK && !out.iter().any(|w| w.0 == *loop_id) {
                    out.push((*loop_id, u32::from(n)));
                }
            }
        }
    });
    out
}

/// For each loop, the block size when it runs over the offsets inside a
/// block ([`DimPart::Within`]) of at most [`MAX_WRITTEN_OUT_BLOCK`].
fn block_offsets(kp: &KernelPlan) -> Vec<Option<u32>> {
    bindings(kp.kernel(), &[])
        .iter()
        .map(|list| {
            list.iter().find_map(|&(t, d)| {
                let info = kp.tensors.get(t.index())?.as_ref()?;
                match info.parts.as_ref()?.get(d)? {
                    DimPart::Within { block, .. } if *block <= MAX_WRITTEN_OUT_BLOCK => {
                        Some(*block)
                    }
                    _ => None,
                }
            })
        })
        .collect()
}

/// For each loop of `k`, the tensor dimensions it indexes through a plain
/// subscript (which fix its size), sorted, each once; statements in
/// `unbound` (conversions written over dimensions a level space
/// reshaped) bind nothing.
pub fn bindings(k: &Kernel, unbound: &[usize]) -> Vec<Vec<(TensorId, usize)>> {
    let mut out = vec![Vec::new(); k.loops.len()];
    let mut seen = Vec::new();
    for (n, stmt) in k.stmts.iter().enumerate() {
        if unbound.contains(&n) {
            continue;
        }
        let mut all = vec![&stmt.lhs];
        all.extend(stmt.rhs.accesses());
        for a in all {
            for (d, l) in a.indices.iter().enumerate() {
                // An affine subscript's dimension does not size its variables.
                if !a.is_plain(d) {
                    continue;
                }
                if !seen.contains(&(a.tensor, d, *l)) {
                    seen.push((a.tensor, d, *l));
                }
            }
        }
    }
    seen.sort();
    for (t, d, l) in seen {
        if let Some(list) = out.get_mut(l.index()) {
            list.push((t, d));
        }
    }
    out
}

impl Schedule {
    /// The schedule's lines for the doc comment (none when every loop runs
    /// as planned, sequentially): one per strategy that changes a loop.
    pub fn text(&self, kp: &KernelPlan) -> Vec<String> {
        let k = kp.kernel();
        let mut lines = Vec::new();
        for (n, s) in self.stmts.iter().enumerate() {
            for &(l, copies) in &s.written_out {
                lines.push(format!(
                    "{}: written out, {copies} copies of its body (statement {})",
                    k.loop_name(l),
                    n + 1
                ));
            }
            for &(l, factor) in &s.unrolled {
                lines.push(format!(
                    "{}: unrolled by {factor} (statement {}), the rest of each range one at a time",
                    k.loop_name(l),
                    n + 1
                ));
            }
            for c in &s.row_cursors {
                let name = |t: TensorId| {
                    kp.tensors
                        .get(t.index())
                        .and_then(Option::as_ref)
                        .map_or_else(|| k.tensor_name(t).to_string(), |i| i.name.clone())
                };
                let slots = c.slots.map_or(String::new(), |y| {
                    format!(", `{}` through a slots cursor", name(y))
                });
                lines.push(format!(
                    "{}: rows of `{}` level 1 through a row cursor{slots} (statement {})",
                    k.loop_name(c.loop_id),
                    name(c.tensor),
                    n + 1
                ));
            }
            match (&s.compiled, &kp.specialized) {
                (Some(Ok(loops)), Some(spec)) => {
                    let names: Vec<&str> = loops.iter().map(|&l| k.loop_name(l)).collect();
                    let entries = spec.storage().map_or(0, |s| s.entries);
                    lines.push(format!(
                        "{}: written out over the {entries} stored entries of `{}` (statement \
                         {}), its coordinates and values constants in the code (about \
                         {} bytes of code on a Cortex-M4, {} per entry; no data)",
                        names.join(", "),
                        spec.constant.name,
                        n + 1,
                        entries.saturating_mul(WRITTEN_OUT_BYTES),
                        WRITTEN_OUT_BYTES,
                    ));
                    if let Some((_, off)) = &s.folded_offset {
                        lines.push(format!(
                            "statement {}: `+ {}` added once per row, times the row's weights \
                             summed at expansion time",
                            n + 1,
                            k.show(off)
                        ));
                    }
                }
                (Some(Err(why)), Some(spec)) => match &s.packed {
                    Some(p) => lines.push(format!(
                        "{}: one call to `dot_s8_packed` over `{}`'s {} entries packed at \
                         expansion time (statement {}): {} words of groups of four ({} \
                         coordinates, {} weights), {} bytes of data with the row table{}; \
                         not written out: {why}",
                        k.loop_name(p.loop_id),
                        spec.constant.name,
                        spec.storage().map_or(0, |s| s.entries),
                        n + 1,
                        p.words,
                        if p.wide { "`u16`" } else { "`u8`" },
                        if p.pairs { "`i16` pair" } else { "`i8`" },
                        p.data_bytes(),
                        if p.offset.is_some() {
                            " and the rows' weights summed (the input offset folded)"
                        } else {
                            ""
                        },
                    )),
                    None => lines.push(format!(
                        "statement {}: reads `{}` through its loops, not written out: {why}",
                        n + 1,
                        spec.constant.name
                    )),
                },
                _ => {}
            }
            for d in &s.dual_macs {
                lines.push(format!(
                    "{}: one call to `dot_s8` (int8 products in pairs, dual multiply-accumulates \
                     on Cortex-M4/M7) (statement {})",
                    k.loop_name(d.loop_id),
                    n + 1
                ));
            }
            for g in &s.group_macs {
                lines.push(format!(
                    "{}: one call to `dot_s8_2_4` (a group's two int8 products in one dual \
                     multiply-accumulate, eight groups' packed coordinates per word on \
                     Cortex-M4/M7) (statement {})",
                    k.loop_name(g.loop_id),
                    n + 1
                ));
            }
            for g in &s.gather_dots {
                lines.push(format!(
                    "{}: one call to `dot_gather` (8 partial sums added at the end, in \
                     AVX-512 or AVX2 vectors where the machine has them; `#[reassociate]`: \
                     rounds differently from the in-order sum) (statement {})",
                    k.loop_name(g.loop_id),
                    n + 1
                ));
            }
            for w in &s.window_skips {
                let name = kp
                    .tensors
                    .get(w.tensor.index())
                    .and_then(Option::as_ref)
                    .map_or_else(|| k.tensor_name(w.tensor).to_string(), |i| i.name.clone());
                lines.push(format!(
                    "{}: skips to the next offset whose window of `{name}` level {} holds a \
                     stored coordinate (statement {})",
                    k.loop_name(w.loop_id),
                    w.level,
                    n + 1
                ));
            }
            for &l in &s.two_way_merges {
                lines.push(format!(
                    "{}: two levels merged by comparing their coordinates (one arm per \
                     outcome, as a hand-written merge) (statement {})",
                    k.loop_name(l),
                    n + 1
                ));
            }
            if let Some(r) = &s.row_bound {
                let name = |t: TensorId| {
                    kp.tensors
                        .get(t.index())
                        .and_then(Option::as_ref)
                        .map_or_else(|| k.tensor_name(t).to_string(), |i| i.name.clone())
                };
                lines.push(format!(
                    "{}: each row of `{}` written into slots reserved for the entries of the \
                     rows it walks (statement {})",
                    k.loop_name(r.loop_id),
                    name(r.output),
                    n + 1
                ));
                if r.in_order {
                    lines.push(format!(
                        "{}: its coordinates in order and in range by construction (ordered \
                         levels of validated inputs, visited in order): each entry tests only \
                         the slot count (statement {})",
                        k.loop_name(r.loop_id),
                        n + 1
                    ));
                }
                if r.covered {
                    lines.push(format!(
                        "{}: at most one insert per step past an entry of the rows it walks:                          a row whose slots cover its bound is written with no slot test (64-bit                          targets) (statement {})",
                        k.loop_name(r.loop_id),
                        n + 1
                    ));
                }
                for t in &r.tails {
                    lines.push(format!(
                        "{}: the rest of `{}`'s row copied in one step once the others run out \
                         (statement {})",
                        k.loop_name(r.loop_id),
                        name(t.tensor),
                        n + 1
                    ));
                }
            }
            for p in &s.partial_sums {
                lines.push(format!(
                    "{}: summed in {} partial sums added at the end (`#[reassociate]`: \
                     rounds differently from the in-order sum) (statement {})",
                    k.loop_name(p.loop_id),
                    partial_sums::LANES,
                    n + 1
                ));
            }
            if let Some(why) = &s.not_unrolled {
                lines.push(format!("statement {}: not unrolled: {why}", n + 1));
            }
        }
        if self.fma {
            lines.push("float sums: fused multiply-add (one rounding per step)".to_string());
        }
        if self.vector_isa {
            lines.push(
                "kernel: compiled for AVX-512, for AVX2 and as written, the copy chosen per call \
                 from the machine (x86-64; the same bits on each)"
                    .to_string(),
            );
        }
        lines
    }
}
