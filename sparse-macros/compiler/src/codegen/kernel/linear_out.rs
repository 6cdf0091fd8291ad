//! Dense outputs written at affine subscripts (`x[4 * i + j] = a[i, j]`,
//! the model's `kernel_check/linear_out.rs`): the sparsifier plans them as
//! a scatter (the output zeroed for `=`, each point's value added at its
//! element), the store addresses the element at the subscript's value
//! (`loads.rs`), and the prologue range-checks the subscript (`affine.rs`).
//! What is left here is where the output's sizes are read.

use proc_macro2::TokenStream;

use super::{Gen, Kind};

impl Gen<'_> {
    /// The declarations of the dimension sizes of outputs, moved ahead of
    /// the other declarations: a store at an affine subscript names the
    /// output's size (`__sk_x_dim0`, read as `x.len()`), and the
    /// declarations run in name order, which puts `__sk_x_data` (the
    /// output's `&mut` reborrow) first; the size read after it would
    /// borrow `x` while it is mutably borrowed. Read in the prologue, the
    /// sizes are plain `usize` values.
    pub(super) fn hoist_output_dims(&mut self) -> TokenStream {
        let mut out = TokenStream::new();
        for t in 0..self.k.tensors.len() {
            let t = crate::sparsifier::TensorId(t as u32);
            let info = self.info(t);
            if !info.mutable || info.kind == Kind::Sparse {
                continue;
            }
            for d in 0..info.shape.len() {
                let name = self.tlocal(t, &format!("dim{d}")).to_string();
                if let Some(decl) = self.decls.remove(&name) {
                    out.extend(decl);
                }
            }
        }
        out
    }
}
