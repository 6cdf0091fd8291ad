//! `#[parallel]` kernels: the loop the schedule splits into chunks
//! (`schedule::parallel` says which statements qualify) runs on rayon's
//! threads (`sparse_core::__private::par`). Iteration `i` writes
//! only row `i` of the output (`i * stride .. (i + 1) * stride`), so the
//! runtime hands each chunk of iterations the disjoint `&mut` run of its
//! rows. The loop body is generated unchanged inside a closure whose
//! parameters shadow the output's data (the chunk) and, for a compressed
//! level, the walked range (the chunk's positions); only the output's
//! row-major offsets change, from `i * stride + ..` to
//! `(i - row0) * stride + ..` with `row0` the chunk's first row. Every
//! other statement, and every kernel without the attribute, is generated
//! exactly as before.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use syn::Ident;

use super::iterate::private;
use super::{elem_type, Gen};
use crate::schedule::Chunks;
use crate::sparsifier::{LoopId, TensorId};
use crate::vocab::LevelFormat;

/// No weights: chunks balanced by rows (typed, for `par`'s generic).
pub(super) fn no_weights() -> TokenStream {
    quote!(::core::option::Option::None::<&[::core::primitive::usize]>)
}

/// The return type of a chunk of a sparse output: its body may return the
/// output's error (`return c.finish("c")` when a workspace cannot be had).
fn chunk_result() -> TokenStream {
    quote!(::core::result::Result<(), ::sparse_core::__private::KernelError>)
}

impl<'a> Gen<'a> {
    /// The output elements per iteration of the split loop: the product of
    /// the output's sizes after the first.
    fn row_stride(&self, out: TensorId) -> TokenStream {
        let Some(stmt) = self.stmt else {
            return quote!(1usize);
        };
        let mut factors = Vec::new();
        for (d, &l) in stmt.lhs.indices.iter().enumerate().skip(1) {
            factors.push(match self.static_dim(out, d) {
                Some(n) => {
                    let n = Literal::u64_unsuffixed(n);
                    quote!(#n)
                }
                None => {
                    let n = self.size(l);
                    quote!(#n)
                }
            });
        }
        let mut factors = factors.into_iter();
        match factors.next() {
            None => quote!(1usize),
            Some(first) => factors.fold(first, |acc, f| quote!(#acc * #f)),
        }
    }

    /// `Some(pos)` for the positions array that balances the chunks: level
    /// 1 of the walked tensor when it is compressed (its entries under each
    /// iteration), else of the first sparse input whose level 0 is dense and
    /// indexed by the loop; `None` (typed) to balance by iterations.
    pub(super) fn weights(&mut self, l: LoopId, walked: Option<TensorId>) -> TokenStream {
        // A slice walked in place starts its rows at an offset: its
        // positions do not weigh the loop's rows.
        let compressed_below = |g: &Gen<'_>, t: TensorId| {
            g.info(t)
                .levels
                .get(1)
                .is_some_and(|x| x.ty.format == LevelFormat::Compressed)
                && g.sliced(t).is_none()
        };
        let chosen = match walked {
            Some(t) => compressed_below(self, t).then_some(t),
            None => self.sparse_accesses().into_iter().find_map(|a| {
                let lvl = *self.info(a.tensor).levels.first()?;
                let dense_here = lvl.ty.is_dense() && a.indices.get(lvl.dim) == Some(&l);
                (dense_here && compressed_below(self, a.tensor)).then_some(a.tensor)
            }),
        };
        match chosen {
            Some(t) => {
                let pos = self.positions(t, 1);
                quote!(::core::option::Option::Some(#pos))
            }
            None => no_weights(),
        }
    }

    /// The chunk closure's first parameter names: the chunk's first row
    /// (`__sk_i_row0`) and the output data it shadows.
    fn chunk_names(&mut self, par: Chunks) -> (Ident, Ident, TokenStream) {
        let row0 = format_ident!("__sk_{}_row0", self.loop_name(par.loop_id));
        let data = self.data(par.output);
        let elem = elem_type(self.info(par.output).elem);
        (row0, data, quote!(&mut [#elem]))
    }

    /// `for i in 0..n { body }` as chunks: `par::dense` hands each chunk
    /// `lo..hi` and its rows of the output; `body` was generated with the
    /// output's offsets relative to `lo`, and `cursors` (row cursors, see
    /// `rows.rs`) start at the chunk's first row.
    pub(super) fn parallel_for(
        &mut self,
        par: Chunks,
        var: &Ident,
        cursors: TokenStream,
        body: TokenStream,
    ) -> TokenStream {
        let (row0, hi) = self.chunk_rows(par);
        let weights = self.weights(par.loop_id, None);
        self.parallel_rows(
            par,
            weights,
            quote! {
                #cursors
                for #var in #row0..#hi {
                    #body
                }
            },
        )
    }

    /// A loop over the rows `0..n` of the split loop as chunks of rows:
    /// `par::dense` (or `par::sparse_dense` for a sparse output) runs
    /// `chunk` once per chunk with `row0..hi` (see [`Gen::chunk_rows`]) its
    /// rows and the output's rows from `row0` in its place. `chunk` walks
    /// only those rows: a dense loop over them, or the walks of level 0
    /// narrowed to their coordinates ([`Gen::narrow_to_rows`]).
    pub(super) fn parallel_rows(
        &mut self,
        par: Chunks,
        weights: TokenStream,
        chunk: TokenStream,
    ) -> TokenStream {
        let n = self.size(par.loop_id);
        let (row0, hi) = self.chunk_rows(par);
        let run = private("par");
        let usize_ty = quote!(::core::primitive::usize);
        if par.sparse {
            let c = self.info(par.output).ident.clone();
            let result = chunk_result();
            return quote! {
                #run::sparse_dense(#c, #n, #weights, |#row0: #usize_ty, #hi: #usize_ty, #c| -> #result {
                    #chunk
                    ::core::result::Result::Ok(())
                })?;
            };
        }
        let (_, data, ty) = self.chunk_names(par);
        let stride = self.row_stride(par.output);
        let zero = self.chunk_zero(par);
        quote! {
            #run::dense(#data, #stride, #n, #weights, |#row0: #usize_ty, #hi: #usize_ty, #data: #ty| {
                #zero
                #chunk
            });
        }
    }

    /// The first row of the chunk and the end of its rows, inside a chunk
    /// of rows.
    pub(super) fn chunk_rows(&self, par: Chunks) -> (Ident, Ident) {
        let name = self.loop_name(par.loop_id);
        (
            format_ident!("__sk_{}_row0", name),
            format_ident!("__sk_{}_hi", name),
        )
    }

    /// Narrows `lo..hi`, the entries of level `l` of `t` (a sorted level
    /// 0, walked by the split loop), to those whose coordinates are the
    /// chunk's rows `row0..row_hi` (shifted by the level's window, if an
    /// affine subscript or a slice reads it): two binary searches per
    /// chunk. The chunks' rows partition the loop's, so the narrowed walks
    /// partition the level's entries.
    pub(super) fn narrow_to_rows(
        &mut self,
        par: Chunks,
        t: TensorId,
        l: usize,
        (lo, hi): (&Ident, &Ident),
    ) -> TokenStream {
        let (row0, row_hi) = self.chunk_rows(par);
        let rows = match self.window_offset(t, l) {
            Some(off) => (
                quote!(#off.wrapping_add(#row0)),
                quote!(#off.wrapping_add(#row_hi)),
            ),
            None => (quote!(#row0), quote!(#row_hi)),
        };
        self.narrow(t, l, (lo, hi), rows)
    }

    /// A walk over compressed level 0 of `t` as chunks: `par::compressed`
    /// hands each chunk a sub-range `lo..hi` of the level's entries (cut
    /// where the coordinate grows) and its rows of the output from `row0`;
    /// `walk` (the sequential walk over `lo..hi`) runs unchanged inside.
    pub(super) fn parallel_walk(
        &mut self,
        par: Chunks,
        t: TensorId,
        (lo, hi): (&Ident, &Ident),
        walk: TokenStream,
    ) -> TokenStream {
        let weights = self.weights(par.loop_id, Some(t));
        let n = self.size(par.loop_id);
        let crd = self.coordinates(t, 0);
        let (cs, co) = self
            .info(t)
            .levels
            .first()
            .map_or((1, 0), |x| (x.stride, x.offset));
        let (cs, co) = (Literal::usize_unsuffixed(cs), Literal::usize_unsuffixed(co));
        let run = private("par");
        let usize_ty = quote!(::core::primitive::usize);
        if par.sparse {
            let row0 = self.chunk_row(par);
            let c = self.info(par.output).ident.clone();
            let result = chunk_result();
            return quote! {
                #run::sparse_compressed(
                    #c,
                    #n,
                    #run::Coordinates { crd: #crd, stride: #cs, offset: #co },
                    (#lo, #hi),
                    #weights,
                    |#lo: #usize_ty, #hi: #usize_ty, #row0: #usize_ty, #c| -> #result {
                        #walk
                        ::core::result::Result::Ok(())
                    },
                )?;
            };
        }
        let (row0, data, ty) = self.chunk_names(par);
        let stride = self.row_stride(par.output);
        let zero = self.chunk_zero(par);
        quote! {
            #run::compressed(
                #data,
                #stride,
                #n,
                #run::Coordinates { crd: #crd, stride: #cs, offset: #co },
                (#lo, #hi),
                #weights,
                |#lo: #usize_ty, #hi: #usize_ty, #row0: #usize_ty, #data: #ty| {
                    #zero
                    #walk
                },
            );
        }
    }

    /// `rows.fill(0)` at the start of a chunk when the statement zeroes its
    /// output first: the chunks' rows partition the output, so every
    /// element is zeroed once, by the thread that then writes it.
    fn chunk_zero(&mut self, par: Chunks) -> TokenStream {
        if self.chunk_zeroes(par.output) {
            self.zero(par.output)
        } else {
            TokenStream::new()
        }
    }

    /// Inside a chunk: the output and its first row, for
    /// [`Gen::dense_offset`].
    pub(super) fn chunk_row(&self, par: Chunks) -> Ident {
        format_ident!("__sk_{}_row0", self.loop_name(par.loop_id))
    }

    /// The doc paragraph of a `#[parallel]` kernel: which loop of which
    /// statement runs in chunks, and why the others do not.
    pub(super) fn parallel_docs(&self) -> Vec<String> {
        if !self.kp.schedule.parallel {
            return Vec::new();
        }
        let mut lines = vec![
            String::new(),
            " `#[parallel]` (sparse-core feature `rayon`):".to_string(),
        ];
        for (sp, sched) in self.kp.loops.stmts.iter().zip(&self.kp.schedule.stmts) {
            let Some(stmt) = sp.part.as_ref().or_else(|| self.k.stmts.get(sp.stmt)) else {
                continue;
            };
            let shown = self.k.show_stmt(stmt);
            match &sched.chunks {
                Some(Ok(par)) => {
                    let how = if par.sparse {
                        " (each chunk inserts its rows into an output of its own; the chunks \
                         are joined in row order)"
                    } else {
                        ""
                    };
                    lines.push(format!(
                        " - `{shown}`: the loop over `{}` runs in chunks of rows of `{}`, in \
                         parallel{how}.",
                        self.k.loop_name(par.loop_id),
                        self.info(par.output).name
                    ));
                }
                Some(Err(why)) => lines.push(format!(" - `{shown}` runs on one thread: {why}.")),
                None => {}
            }
        }
        lines.push(String::new());
        lines.push(
            " Chunks are balanced by stored entries; a small call (less work than the \
             threshold of the guide's `parallel` chapter) runs on the calling thread. The \
             result is the sequential kernel's, bit for bit: no sum crosses a chunk."
                .to_string(),
        );
        lines
    }
}
