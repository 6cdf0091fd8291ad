//! Loops compiled over a constant's stored entries (`#[specialize(w =
//! W)]`, see `schedule::specialize`): each loop the schedule lists walks
//! `W`'s storage at expansion time and writes one copy of its body per
//! entry, in storage order, with the entry's coordinate, position and (at
//! the last level) value bound to constants. The body is the same code
//! the loop would run; reads of the other operands at a constant
//! coordinate become loads at a fixed offset.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{Gen, Pos, Scope};
use crate::model::{Scalar, SparseStorage};
use crate::sparsifier::{LoopId, Node, Value};
use crate::vocab::parent_range;
use crate::vocab::ValueType;

/// One stored entry of a level: its position and its level coordinate.
struct Entry {
    pos: u64,
    crd: u64,
}

impl Gen<'_> {
    /// The loop `l` (a `for` over a dense level, or a walk over a stored
    /// level) of the specialized operand, written out over the constant's
    /// entries under the parent entry the enclosing compiled loop fixed.
    pub(super) fn compiled_loop(&mut self, l: LoopId, body: &[Node], scope: &Scope) -> TokenStream {
        let Some(spec) = self.kp.specialized.as_ref() else {
            return TokenStream::new();
        };
        let t = spec.tensor;
        let levels = self.info(t).levels.len();
        // The next level of `t` without a position: the one `l` walks.
        let Some(lv) = (0..levels).find(|&lv| !scope.known.contains_key(&(t, lv))) else {
            return self
                .internal(t, "a compiled loop below the last level".to_string())
                .unwrap_or_default();
        };
        let parent = match lv {
            0 => 0,
            _ => scope.known[&(t, lv - 1)],
        };
        let Some(storage) = spec.storage() else {
            return TokenStream::new();
        };
        let Some(entries) = entries(storage, self.info(t).levels[lv].ty.format, lv, parent) else {
            let name = spec.constant.name.to_string();
            return self
                .internal(t, format!("`{name}` has no entries under parent {parent}"))
                .unwrap_or_default();
        };
        let last = lv + 1 == levels && self.walk_has_values(t, lv);
        let value_ty = super::elem_type(self.info(t).elem);
        let var = self.var(l);
        let p = self.tlocal(t, &format!("p{lv}"));
        let v = self.tlocal(t, &format!("w{lv}"));
        // The input offset folded out of the entries (`schedule::specialize`):
        // each entry adds `w * x`, the row `off * (its weights summed)`.
        let folded = match (last, self.sched.and_then(|s| s.folded_offset.clone())) {
            (true, Some((value, off))) => {
                let node = match body {
                    [Node::SumAdd { local, .. }] => Node::SumAdd {
                        local: *local,
                        value,
                    },
                    _ => Node::Accumulate { value },
                };
                Some((node, off))
            }
            _ => None,
        };
        let body_nodes: Vec<Node> = match &folded {
            Some((node, _)) => vec![node.clone()],
            None => body.to_vec(),
        };
        let mut row_sum: i32 = 0;
        let mut copies = TokenStream::new();
        for e in entries {
            if let Some(Scalar::Int(w)) = storage.values.get(e.pos as usize) {
                // `w as i32`, as the kernel casts it.
                row_sum = row_sum.wrapping_add(*w as i32);
            }
            let mut inner = scope.clone();
            if let Some(b) = inner.bound.get_mut(l.index()) {
                *b = true;
            }
            inner.pos.insert((t, lv), Pos::At(p.clone()));
            inner.known.insert((t, lv), e.pos);
            let value = if last {
                inner.walked.insert(t, v.clone());
                let value = storage
                    .values
                    .get(e.pos as usize)
                    .copied()
                    .map(crate::codegen::constant::scalar);
                value.map(|x| quote!(let #v: #value_ty = #x;))
            } else {
                None
            };
            let positions = self.bind_dense(&mut inner);
            let body = self.nodes(&body_nodes, &inner);
            let (crd, pos) = (
                Literal::usize_suffixed(e.crd as usize),
                Literal::usize_suffixed(e.pos as usize),
            );
            copies.extend(quote! {
                {
                    let #var = #crd;
                    let #p = #pos;
                    #value
                    #positions
                    #body
                }
            });
        }
        if let (Some((_, off)), true) = (folded, row_sum != 0) {
            copies.extend(self.add_folded_offset(&off, row_sum, body, scope));
        }
        copies
    }

    /// `r += off * row_sum` (wrapping), into the statement's local or the
    /// scoped sum `body` adds to.
    fn add_folded_offset(
        &mut self,
        off: &crate::sparsifier::Expr,
        row_sum: i32,
        body: &[Node],
        scope: &Scope,
    ) -> TokenStream {
        let sum = Literal::i32_suffixed(row_sum);
        let term = self.with_value(
            &Value::Expr(off.clone()),
            scope,
            |_, v| quote!(::core::primitive::i32::wrapping_mul(#v, #sum)),
        );
        let target = match body {
            [Node::SumAdd { local, .. }] => super::expr::sum_acc(*local),
            _ => super::expr::acc(),
        };
        self.add_assign(ValueType::I32, quote!(#target), term)
    }
}

/// The entries level `lv` of `storage` (of `format`) holds under entry
/// `parent` of the level above, with their level coordinates: the storage
/// rules of `sparse_vocab` applied to the constant's buffers. `None` if
/// the buffers do not have them (not for a checked constant).
fn entries(
    storage: &SparseStorage,
    format: crate::vocab::LevelFormat,
    lv: usize,
    parent: u64,
) -> Option<Vec<Entry>> {
    let size = usize::try_from(*storage.lvl_sizes.get(lv)?).ok()?;
    let level = storage.levels.get(lv)?;
    let load = |i: usize| {
        level
            .positions
            .get(i)
            .and_then(|&x| usize::try_from(x).ok())
    };
    let (lo, hi) = parent_range(format, size).resolve(usize::try_from(parent).ok()?, load)?;
    let dense = matches!(
        format,
        crate::vocab::LevelFormat::Dense | crate::vocab::LevelFormat::Batch
    );
    (lo..hi)
        .map(|p| {
            let crd = if dense {
                (p - lo) as u64
            } else {
                // A singleton fused into an AoS tuple reads the buffer of
                // the level that starts its region.
                let owner = storage.levels.get(lv.checked_sub(level.offset)?)?;
                *owner.coordinates.get(p * level.stride + level.offset)?
            };
            Some(Entry { pos: p as u64, crd })
        })
        .collect()
}
