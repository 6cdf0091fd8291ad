//! `Display`: MLIR's `sparse_tensor.print` layout, and with `{:#}` the
//! TACO-flavoured layout of the MLIR encoding documentation's worked examples.
//!
//! `{}` prints what MLIR's runtime prints for the COO example of the MLIR
//! `sparse_tensor` documentation
//! (`(i, j) -> (i : compressed(nonunique), j : singleton)`, 3x4):
//!
//! ```text
//! ---- Sparse Tensor ----
//! nse = 3
//! dim = ( 3, 4 )
//! lvl = ( 3, 4 )
//! pos[0] : ( 0, 3 )
//! crd[0] : ( 0, 0, 1, 2, 1, 3 )
//! values : ( 1.1, 2.2, 3.3 )
//! ----
//! ```
//!
//! `{:#}` prints the BSR layout of those worked examples, values with six
//! decimals (`{:.6}`, which integers ignore) and wrapped four to a row, as
//! they show them:
//!
//! ```text
//! positions[1]   : 0 2 3
//! coordinates[1] : 0 2 1
//! values         : 1.000000 2.000000 0.000000 3.000000
//!                  4.000000 0.000000 0.000000 5.000000
//!                  6.000000 7.000000 8.000000 0.000000
//! ```
//!
//! In both, each level prints its positions if it has a positions array and
//! its coordinates if it owns a coordinate buffer: the start of an AoS COO
//! region prints the whole interleaved buffer and the fused singleton
//! levels print nothing. Neither form ends with a newline. Elements are
//! formatted with their own `Display`; nothing allocates.

use core::fmt::{self, Display, Formatter};

use crate::encoding::Encoding;
use crate::index::Index;
use crate::layout::Layout;
use crate::tensor::SparseTensor;

/// Values per row in the `{:#}` layout (the worked examples show rows of
/// four).
const VALUES_PER_ROW: usize = 4;

/// Width of the labels in the `{:#}` layout: `coordinates[l]` with a
/// one-digit level (`LVL <= MAX_RANK = 8`).
const LABEL_WIDTH: usize = 14;

impl<V: Display, E: Encoding, const DIM: usize, const LVL: usize> Display
    for SparseTensor<'_, V, E, DIM, LVL>
{
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            self.fmt_taco(f)
        } else {
            self.fmt_mlir(f)
        }
    }
}

impl<V: Display, E: Encoding, const DIM: usize, const LVL: usize> SparseTensor<'_, V, E, DIM, LVL> {
    fn fmt_mlir(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("---- Sparse Tensor ----\n")?;
        writeln!(f, "nse = {}", self.number_of_entries())?;
        f.write_str("dim = ")?;
        tuple(f, &self.dim_sizes)?;
        f.write_str("\nlvl = ")?;
        tuple(f, &self.lvl_sizes)?;
        f.write_str("\n")?;
        let layout = Layout::<DIM, LVL>::decode::<E>();
        let counts = crate::assemble::entries_per_level(&layout, self);
        for (l, (info, st)) in layout.levels.iter().zip(&self.levels).enumerate() {
            if info.ty.has_positions() {
                write!(f, "pos[{l}] : ")?;
                tuple(f, st.positions)?;
                f.write_str("\n")?;
            }
            if info.has_coordinates() && !info.is_fused() {
                write!(f, "crd[{l}] : ")?;
                if <E::Crd as Index>::PER_ELEMENT > 1 {
                    // Packed: one number per coordinate, as MLIR prints them.
                    let n = counts.get(l).copied().unwrap_or(0);
                    let crd = (0..n).filter_map(|q| <E::Crd as Index>::get_at(st.coordinates, q));
                    tuple_iter(f, crd)?;
                } else {
                    tuple(f, st.coordinates)?;
                }
                f.write_str("\n")?;
            }
        }
        f.write_str("values : (")?;
        self.try_each_value(|i, x| {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(" ")?;
            crate::elem::write_value(f, x)
        })?;
        f.write_str(" )")?;
        f.write_str("\n----")
    }

    /// Calls `g` with the index and value of every stored entry: for a
    /// pattern tensor, its `explicitVal` once per entry, as MLIR prints the
    /// tensor after expanding it.
    fn try_each_value(&self, mut g: impl FnMut(usize, &V) -> fmt::Result) -> fmt::Result {
        if !E::is_pattern() {
            return self
                .values
                .iter()
                .enumerate()
                .try_for_each(|(i, v)| g(i, v));
        }
        match self.explicit_value() {
            Some(x) => (0..self.entries).try_for_each(|i| g(i, &x)),
            None => Ok(()),
        }
    }

    fn fmt_taco(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let layout = Layout::<DIM, LVL>::decode::<E>();
        let counts = crate::assemble::entries_per_level(&layout, self);
        let mut first = true;
        let mut line = |f: &mut Formatter<'_>, name: &str, l: usize| {
            if !core::mem::take(&mut first) {
                f.write_str("\n")?;
            }
            label(f, name, Some(l))
        };
        for (l, (info, st)) in layout.levels.iter().zip(&self.levels).enumerate() {
            if info.ty.has_positions() {
                line(f, "positions", l)?;
                st.positions.iter().try_for_each(|p| write!(f, " {p}"))?;
            }
            if info.has_coordinates() && !info.is_fused() {
                line(f, "coordinates", l)?;
                if <E::Crd as Index>::PER_ELEMENT > 1 {
                    let n = counts.get(l).copied().unwrap_or(0);
                    (0..n)
                        .filter_map(|q| <E::Crd as Index>::get_at(st.coordinates, q))
                        .try_for_each(|c| write!(f, " {c}"))?;
                } else {
                    st.coordinates.iter().try_for_each(|c| write!(f, " {c}"))?;
                }
            }
        }
        if !first {
            f.write_str("\n")?;
        }
        label(f, "values", None)?;
        self.try_each_value(|i, v| {
            if i > 0 && i % VALUES_PER_ROW == 0 {
                // Continuation rows start under the first value.
                write!(f, "\n{:width$}", "", width = LABEL_WIDTH + 2)?;
            }
            write!(f, " {:.6}", crate::elem::Mlir(v))
        })
    }
}

/// `name[l]` (or `name`) padded to the label column, then ` :`.
fn label(f: &mut Formatter<'_>, name: &str, level: Option<usize>) -> fmt::Result {
    let mut used = name.len();
    f.write_str(name)?;
    if let Some(l) = level {
        write!(f, "[{l}]")?;
        used += 2 + digits(l);
    }
    write!(
        f,
        "{:width$} :",
        "",
        width = LABEL_WIDTH.saturating_sub(used)
    )
}

fn digits(mut n: usize) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// MLIR's vector layout: `( a, b, c )`, and `( )` when empty.
fn tuple_iter(f: &mut Formatter<'_>, items: impl Iterator<Item = usize>) -> fmt::Result {
    f.write_str("(")?;
    for (i, x) in items.enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, " {x}")?;
    }
    f.write_str(" )")
}

fn tuple<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    f.write_str("(")?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, " {x}")?;
    }
    f.write_str(" )")
}
