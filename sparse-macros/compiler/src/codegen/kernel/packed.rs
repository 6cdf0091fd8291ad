//! A walk over a specialized constant's last level summed from a stream
//! packed at expansion time (`schedule::specialize_packed`): the stream,
//! the row table and the rows' weights summed become `static`s of the
//! walk's block, built here from the constant's storage, and the walk one
//! call to sparse-core's `dot_s8_packed` at the parent entry's range, its
//! sum folded into the reduction local as the entries would have been.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::iterate::private;
use super::{Gen, Pos, Scope};
use crate::model::{Scalar, SparseStorage};
use crate::schedule::PackedWalk;
use crate::sparsifier::{Node, Value};
use crate::vocab::ValueType;

/// The stream, its row table (word offsets, one more than rows) and the
/// rows' weights summed (`i32`, wrapping, as `w as i32` summed).
struct Stream {
    words: Vec<u32>,
    start: Vec<u64>,
    sums: Vec<i32>,
}

impl Gen<'_> {
    /// `r += dot_s8_packed(STREAM, START[p], START[p + 1], x)` for the
    /// parent entry `p`, then `r += off * SUMS[p]` with an offset.
    pub(super) fn packed_walk(
        &mut self,
        pw: &PackedWalk,
        lv: usize,
        body: &[Node],
        scope: &Scope,
    ) -> TokenStream {
        let Some(spec) = self.kp.specialized.as_ref() else {
            return TokenStream::new();
        };
        let t = spec.tensor;
        let name = spec.constant.name.to_string();
        let Some(stream) = spec.storage().and_then(|s| build(s, lv, pw.wide, pw.pairs)) else {
            return self
                .internal(t, format!("`{name}` has no packable last level"))
                .unwrap_or_default();
        };
        let parent = match lv.checked_sub(1) {
            None => quote!(0usize),
            Some(up) => match scope.pos.get(&(t, up)) {
                Some(Pos::At(p)) => quote!(#p),
                _ => {
                    return self
                        .internal(
                            t,
                            format!("level {lv} of `{name}` walked before its parent"),
                        )
                        .unwrap_or_default()
                }
            },
        };
        let x = self.data(pw.input);
        let words = stream.words.iter().map(|&w| Literal::u32_suffixed(w));
        let n_words = Literal::usize_unsuffixed(stream.words.len());
        let (start_ty, start) = if stream.words.len() <= usize::from(u16::MAX) {
            let s = stream
                .start
                .iter()
                .map(|&s| Literal::u16_suffixed(s as u16));
            (quote!(::core::primitive::u16), quote!(#(#s),*))
        } else {
            let s = stream
                .start
                .iter()
                .map(|&s| Literal::u32_suffixed(s as u32));
            (quote!(::core::primitive::u32), quote!(#(#s),*))
        };
        let n_start = Literal::usize_unsuffixed(stream.start.len());
        let (wide, pairs) = (pw.wide, pw.pairs);
        let (load, dot_fn) = (private("load"), private("dot_s8_packed"));
        let dot = self.tlocal(t, "dot");
        let input = self.info(pw.input).name.clone();
        let doc = format!(
            " SAFETY: `{parent}` is an entry of the level above `{name}`'s last, so `{parent}` + 1 \
             < the row table's length, whose entries are whole groups of the stream within its \
             length, written when the macro expanded from `{name}`'s coordinates, each below the \
             dimension size the prologue checked `{input}`'s length against.",
            parent = parent.to_string().replace(' ', "")
        );
        let call = quote! {
            let #dot: ::core::primitive::i32 = {
                static STREAM: [::core::primitive::u32; #n_words] = [#(#words),*];
                static START: [#start_ty; #n_start] = [#start];
                #[doc = #doc]
                unsafe {
                    #dot_fn::<#wide, #pairs>(
                        &STREAM,
                        #load(&START, #parent) as usize,
                        #load(&START, #parent + 1) as usize,
                        #x,
                    )
                }
            };
        };
        let fold = self.fold_dot(&dot, body);
        let folded = match &pw.offset {
            Some(off) => {
                let sums = stream.sums.iter().map(|&s| Literal::i32_suffixed(s));
                let n_sums = Literal::usize_unsuffixed(stream.sums.len());
                let sum_doc = format!(
                    " SAFETY: `{}` is an entry of the level above `{name}`'s last, one of the \
                     table's rows.",
                    parent.to_string().replace(' ', "")
                );
                let term = self.with_value(&Value::Expr(off.clone()), scope, |_, v| {
                    quote! {
                        ::core::primitive::i32::wrapping_mul(#v, {
                            static SUMS: [::core::primitive::i32; #n_sums] = [#(#sums),*];
                            #[doc = #sum_doc]
                            unsafe { #load(&SUMS, #parent) }
                        })
                    }
                });
                let target = match body {
                    [Node::SumAdd { local, .. }] => super::expr::sum_acc(*local),
                    _ => super::expr::acc(),
                };
                self.add_assign(ValueType::I32, quote!(#target), term)
            }
            None => TokenStream::new(),
        };
        quote! {
            #call
            #fold
            #folded
        }
    }
}

/// The stream of level `lv` (compressed, the last) of `storage`: per
/// parent entry its entries in groups of four, coordinates then weights
/// (`i8` bytes, or `i16` lanes of entries 0 and 2 then 1 and 3), the last
/// group padded with weight 0 at coordinate 0. `None` if the buffers are
/// not those of a checked `i8` constant.
fn build(storage: &SparseStorage, lv: usize, wide: bool, pairs: bool) -> Option<Stream> {
    let level = storage.levels.get(lv)?;
    let mut s = Stream {
        words: Vec::new(),
        start: Vec::new(),
        sums: Vec::new(),
    };
    for range in level.positions.windows(2) {
        s.start.push(s.words.len() as u64);
        let (lo, hi) = (
            usize::try_from(range[0]).ok()?,
            usize::try_from(range[1]).ok()?,
        );
        let mut sum = 0i32;
        for group in (lo..hi).collect::<Vec<_>>().chunks(4) {
            let mut crd = [0u32; 4];
            let mut val = [0i8; 4];
            for (k, &p) in group.iter().enumerate() {
                crd[k] = u32::try_from(*level.coordinates.get(p)?).ok()?;
                let Some(Scalar::Int(w)) = storage.values.get(p) else {
                    return None;
                };
                val[k] = i8::try_from(*w).ok()?;
                sum = sum.wrapping_add(i32::from(val[k]));
            }
            if wide {
                s.words.push(crd[0] | crd[1] << 16);
                s.words.push(crd[2] | crd[3] << 16);
            } else {
                s.words
                    .push(crd[0] | crd[1] << 8 | crd[2] << 16 | crd[3] << 24);
            }
            if pairs {
                let h = val.map(|w| u32::from(w as i16 as u16));
                s.words.push(h[0] | h[2] << 16);
                s.words.push(h[1] | h[3] << 16);
            } else {
                let b = val.map(|w| u32::from(w as u8));
                s.words.push(b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24);
            }
        }
        s.sums.push(sum);
    }
    s.start.push(s.words.len() as u64);
    Some(s)
}
