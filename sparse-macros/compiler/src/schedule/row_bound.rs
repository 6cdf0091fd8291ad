//! Rows written into slots reserved for their bound: when the loop whose
//! iterations append one segment of a sparse output (the schedule's
//! `segment_append`) walks or merges sparse levels, every iteration
//! advances at least one of their cursors and inserts at most one entry,
//! so the row holds at most as many entries as those levels store under
//! their parents together. The kernel reserves that many slots once per
//! row (sparse-core's `Segment::row`) and writes each entry into its slot
//! (one test for the slot count, the order and the range) instead of
//! pushing it into two buffers.
//!
//! A merge's exhaustion phase that copies one operand's entries unchanged
//! (`c = a + b` once `b`'s row has run out) appends the rest of that row
//! in one step: the coordinates and values between the cursor and the
//! row's end, copied (`Row::extend_from`).
//!
//! When the loop's coordinates are in order and in range by construction
//! (`in_order`: every walked level is an ordered, unique level of a
//! validated input storing the loop's dimension as is, and the output's
//! last level stores that dimension too, whose size the prologue checked
//! equal), the kernel vouches for them (`Row::push_in_order`,
//! `Row::extend_in_order`): each entry tests only the slot count.

use crate::plan::{KernelPlan, Kind};
use crate::sparsifier::{Access, Expr, LoopId, Node, Space, Stmt, StmtPlan, TensorId, Value};
use crate::vocab::{LevelExpr, LevelFormat};

/// A row written into reserved slots.
#[derive(Clone, Debug, PartialEq)]
pub struct RowBound {
    /// The loop over the output's last level (the segment's loop).
    pub loop_id: LoopId,
    /// The sparse output.
    pub output: TensorId,
    /// The levels the loop walks or merges: their entries under the current
    /// parents bound the row's.
    pub spaces: Vec<Space>,
    /// The levels whose exhaustion phase copies the rest of their row in
    /// one step.
    pub tails: Vec<Space>,
    /// Whether the inserted coordinates are in increasing order and below
    /// the output's level size by construction (the function `in_order` below).
    pub in_order: bool,
    /// Whether the loop inserts at most the bound by construction (the
    /// function `covered` below): then a row whose slots cover its bound
    /// needs no slot test per entry (`Row::push_reserved`).
    pub covered: bool,
}

/// The row bound of statement `stmt`, whose segment loop is `segment`:
/// `Some` when that loop walks one sparse level or merges several without
/// the whole range (a loop that visits every coordinate has only the
/// level size as a bound).
pub fn row_bound(
    kp: &KernelPlan,
    sp: &StmtPlan,
    stmt: &Stmt,
    segment: (LoopId, TensorId),
    taken: &[LoopId],
) -> Option<RowBound> {
    let (l, output) = segment;
    if taken.contains(&l) {
        return None;
    }
    let mut found = None;
    super::unroll::visit(&sp.tree, &mut |node| match node {
        Node::Iterate {
            loop_id,
            space,
            body,
            ..
        } if *loop_id == l => {
            found = Some((vec![*space], Vec::new(), at_most_one_insert(body)));
        }
        Node::CoIterate {
            loop_id,
            spaces,
            universe: None,
            phases,
            ..
        } if *loop_id == l => {
            let tails = phases
                .iter()
                .filter_map(|ph| copied_tail(kp, stmt, ph))
                .collect();
            let covered = phases
                .iter()
                .all(|ph| !ph.universal && ph.cases.iter().all(|c| at_most_one_insert(&c.body)));
            found = Some((spaces.clone(), tails, covered));
        }
        _ => {}
    });
    let (spaces, tails, covered) = found?;
    let in_order = in_order(kp, stmt, l, &spaces);
    // Every sparse input's entries come from the bounded levels (a sparse
    // operand located or walked elsewhere may insert past the bound).
    let bounded_inputs = stmt.rhs.accesses().iter().all(|a| {
        kp.tensors
            .get(a.tensor.index())
            .and_then(Option::as_ref)
            .is_none_or(|i| i.kind != Kind::Sparse)
            || spaces.iter().any(|s| s.tensor == a.tensor)
    });
    let covered =
        covered && in_order && bounded_inputs && spaces.iter().all(|s| whole_rows(kp, *s));
    Some(RowBound {
        loop_id: l,
        output,
        spaces,
        tails,
        in_order,
        covered,
    })
}

/// Whether the positions under level `space`'s parent hold every entry the
/// loop walks under the current output row: a compressed level whose
/// levels above are all unique (one parent entry per coordinate). A
/// singleton below a non-unique level (COO) walks a run of parent entries
/// whose one position range is not the row's: its bound counts one.
fn whole_rows(kp: &KernelPlan, space: Space) -> bool {
    let Some(info) = kp
        .tensors
        .get(space.tensor.index())
        .and_then(Option::as_ref)
    else {
        return false;
    };
    let lv = space.level.index();
    let compressed = info.levels.get(lv).is_some_and(|l| {
        matches!(
            l.ty.format,
            LevelFormat::Compressed | LevelFormat::LooseCompressed
        )
    });
    compressed && info.levels.iter().all(|l| l.ty.is_unique())
}

/// Whether one iteration running `body` inserts at most one entry: no
/// loop inside, at most one `Insert`. A walk's iteration advances its
/// cursor, and a merge's (no phase over the whole range) at least one of
/// the merged levels' cursors, each past one entry of the rows the bound
/// counts; a tail copied in one step copies the rest of one of them. So
/// such a loop inserts at most the bound (`RowBound::covered`).
fn at_most_one_insert(body: &[Node]) -> bool {
    let mut inserts = 0usize;
    let mut loops = false;
    super::unroll::visit(body, &mut |n| match n {
        Node::Insert { .. } => inserts += 1,
        Node::For { .. } | Node::Iterate { .. } | Node::CoIterate { .. } => loops = true,
        _ => {}
    });
    !loops && inserts <= 1
}

/// Whether loop `l` over `spaces` inserts its coordinates in increasing
/// order and in range by construction: every space is an ordered, unique,
/// not segmented level of a sparse input (validated: its coordinates
/// increase under a parent and stay below its level size) that stores the
/// loop's dimension as is (a permutation level, no slice, no block, a
/// plain subscript in every access), so the walk or merge visits
/// increasing coordinates; and the output's last level stores the same
/// index plainly, so its size is that dimension's, which the kernel's
/// prologue checked equal to the inputs'.
fn in_order(kp: &KernelPlan, stmt: &Stmt, l: LoopId, spaces: &[Space]) -> bool {
    let out = stmt.lhs.tensor;
    let plain_level = |t: TensorId, lv: usize| -> Option<usize> {
        let info = kp.tensors.get(t.index())?.as_ref()?;
        let enc = kp.encoding_named(info.encoding.as_ref()?)?;
        let level = info.levels.get(lv)?;
        let expr = *enc.dim_to_lvl().get(lv)?;
        let dim = usize::from(match expr {
            LevelExpr::Dim(d) => d,
            _ => return None,
        });
        let plain = info.kind == Kind::Sparse
            && info.parts.is_none()
            && !enc.is_sliced()
            && level.dim == dim
            && level.ty.is_ordered()
            && level.ty.is_unique()
            && !info.segmented(lv);
        plain.then_some(dim)
    };
    let indexes = |a: &Access, dim: usize| a.affine.is_empty() && a.indices.get(dim) == Some(&l);
    let out_ok = kp
        .tensors
        .get(out.index())
        .and_then(Option::as_ref)
        .and_then(|info| plain_level(out, info.levels.len().checked_sub(1)?))
        .is_some_and(|d| indexes(&stmt.lhs, d));
    let accesses = stmt.rhs.accesses();
    out_ok
        && !spaces.is_empty()
        && spaces.iter().all(|s| {
            let t = s.tensor;
            t != out
                && plain_level(t, s.level.index()).is_some_and(|d| {
                    accesses
                        .iter()
                        .filter(|a| a.tensor == t)
                        .all(|a| indexes(a, d))
                })
        })
}

/// The level whose rest of the row phase `ph` copies unchanged: one level,
/// not the whole range, one case inserting exactly that tensor's value at
/// the output's own indices, read from a plain last level with a
/// coordinate buffer of its own and one value per entry, of the output's
/// element type.
fn copied_tail(kp: &KernelPlan, stmt: &Stmt, ph: &crate::sparsifier::Phase) -> Option<Space> {
    let ([space], [case], false) = (ph.spaces.as_slice(), ph.cases.as_slice(), ph.universal) else {
        return None;
    };
    let [Node::Insert {
        access,
        value: Value::Expr(Expr::Access(a)),
    }] = case.body.as_slice()
    else {
        return None;
    };
    let t = space.tensor;
    let info = kp.tensors.get(t.index())?.as_ref()?;
    let out = kp.tensors.get(access.tensor.index())?.as_ref()?;
    let last = info.levels.last()?;
    let plain = a.affine.is_empty() && access.affine.is_empty();
    let enc = kp.encoding_named(info.encoding.as_ref()?)?;
    let copies = *access == stmt.lhs
        && a.tensor == t
        && a.indices == access.indices
        && plain
        && info.kind == Kind::Sparse
        && info.elem == out.elem
        && info.parts.is_none()
        && space.level.index() + 1 == info.levels.len()
        && last.own_coordinates()
        && last.ty.is_unique()
        && !info.segmented(space.level.index())
        && enc.explicit_val.is_none()
        && !enc.is_sliced()
        && !kp.packed_coordinates(t)
        && case.present == ph.spaces;
    copies.then_some(*space)
}
