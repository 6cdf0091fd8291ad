//! `Debug`, `PartialEq` and `defmt::Format` for tensors and encodings.
//!
//! An encoding is a type (`Enc<u16, u8, (dense, compressed), (d0, d1)>`);
//! `Debug` spells it out as MLIR writes it, from its codes:
//! `#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 :
//! compressed), posWidth = 16, crdWidth = 8 }>`.

use core::fmt::{self, Debug, Display, Formatter};
use core::marker::PhantomData;

use crate::encoding::{Enc, Encoding};
use crate::index::Index;
use crate::tensor::SparseTensor;
use crate::vocab::{level_expr_at, level_type_at, LevelExpr, LevelFormat};

/// The MLIR text of encoding `E` with `dims` dimensions and `lvls` levels,
/// decoded from its type.
pub struct EncodingText<E> {
    dims: usize,
    lvls: usize,
    encoding: PhantomData<fn() -> E>,
}

impl<E: Encoding> EncodingText<E> {
    /// The text of `E` for a tensor of `dims` dimensions and `lvls` levels.
    pub const fn new(dims: usize, lvls: usize) -> Self {
        EncodingText {
            dims,
            lvls,
            encoding: PhantomData,
        }
    }
}

impl<E: Encoding> Display for EncodingText<E> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("#sparse_tensor.encoding<{ map = (")?;
        for d in 0..self.dims {
            if d > 0 {
                f.write_str(", ")?;
            }
            write!(f, "d{d}")?;
        }
        f.write_str(") -> (")?;
        for l in 0..self.lvls {
            if l > 0 {
                f.write_str(", ")?;
            }
            match level_expr_at(E::MAP, l) {
                LevelExpr::Dim(d) => write!(f, "d{d}")?,
                LevelExpr::FloorDiv { dim, divisor } => write!(f, "d{dim} floordiv {divisor}")?,
                LevelExpr::Mod { dim, modulus } => write!(f, "d{dim} mod {modulus}")?,
                LevelExpr::Counting { dim, slices } => write!(f, "c * {slices} * d{dim}")?,
            }
            f.write_str(" : ")?;
            match level_type_at(E::LEVEL_TYPES, l) {
                Some(ty) => {
                    match ty.format {
                        LevelFormat::Structured { n, m } => write!(f, "structured[{n}, {m}]")?,
                        other => f.write_str(other.name())?,
                    }
                    let mut first = true;
                    for name in ty.props.names() {
                        f.write_str(if first { "(" } else { ", " })?;
                        f.write_str(name)?;
                        first = false;
                    }
                    if !first {
                        f.write_str(")")?;
                    }
                }
                None => f.write_str("?")?,
            }
        }
        write!(
            f,
            "), posWidth = {}, crdWidth = {} }}>",
            <E::Pos as Index>::WIDTH,
            <E::Crd as Index>::WIDTH
        )
    }
}

// An encoding is a zero-sized marker: every value of it is the same, with
// no bound on its width types.
impl<P, C, L, M, const VALUES: u128> Clone for Enc<P, C, L, M, VALUES> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P, C, L, M, const VALUES: u128> Copy for Enc<P, C, L, M, VALUES> {}
impl<P, C, L, M, const VALUES: u128> Default for Enc<P, C, L, M, VALUES> {
    fn default() -> Self {
        Enc(PhantomData)
    }
}
impl<P, C, L, M, const VALUES: u128> PartialEq for Enc<P, C, L, M, VALUES> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<P, C, L, M, const VALUES: u128> Eq for Enc<P, C, L, M, VALUES> {}

impl<P, C, L, M, const VALUES: u128> Debug for Enc<P, C, L, M, VALUES>
where
    Self: Encoding,
{
    /// The encoding as MLIR writes it. The number of dimensions is not in
    /// the type: it is one more than the largest dimension the map reads.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let lvls = <Self as Encoding>::LEVELS;
        let dims = (0..lvls)
            .map(|l| level_expr_at(<Self as Encoding>::MAP, l).dim() + 1)
            .max()
            .unwrap_or(0);
        write!(f, "Enc({})", EncodingText::<Self>::new(dims, lvls))
    }
}

impl<V: Debug, E: Encoding, const DIM: usize, const LVL: usize> Debug
    for SparseTensor<'_, V, E, DIM, LVL>
{
    /// The encoding in MLIR's words, the sizes, every level's buffers and
    /// the values.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        struct Levels<'t, 'a, V, E: Encoding, const DIM: usize, const LVL: usize>(
            &'t SparseTensor<'a, V, E, DIM, LVL>,
        );
        impl<V, E: Encoding, const DIM: usize, const LVL: usize> Debug for Levels<'_, '_, V, E, DIM, LVL> {
            fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
                let mut list = f.debug_list();
                for l in 0..LVL {
                    let st = self.0.level(l);
                    list.entry(&format_args!(
                        "{{ positions: {:?}, coordinates: {:?} }}",
                        st.positions(),
                        st.coordinates()
                    ));
                }
                list.finish()
            }
        }
        f.debug_struct("SparseTensor")
            .field(
                "encoding",
                &format_args!("{}", EncodingText::<E>::new(DIM, LVL)),
            )
            .field("dim_sizes", &self.dim_sizes())
            .field("lvl_sizes", &self.lvl_sizes())
            .field("levels", &Levels(self))
            .field("values", &self.values())
            .finish()
    }
}

/// Two tensors are equal when they store the same thing the same way: the
/// same dimension sizes, the same buffers level by level (positions and
/// coordinates) and the same values. (Two layouts of the same entries, say
/// with and without an explicit zero, are different tensors.)
impl<V: PartialEq, E: Encoding, const DIM: usize, const LVL: usize> PartialEq
    for SparseTensor<'_, V, E, DIM, LVL>
{
    fn eq(&self, other: &Self) -> bool {
        self.dim_sizes() == other.dim_sizes()
            && self.number_of_entries() == other.number_of_entries()
            && (0..LVL).all(|l| {
                let (a, b) = (self.level(l), other.level(l));
                a.positions() == b.positions() && a.coordinates() == b.coordinates()
            })
            && self.values() == other.values()
    }
}

#[cfg(feature = "defmt")]
impl<V, E, const DIM: usize, const LVL: usize> defmt::Format for SparseTensor<'_, V, E, DIM, LVL>
where
    V: defmt::Format,
    E: Encoding,
    E::Pos: defmt::Format,
    E::Crd: defmt::Format,
{
    /// MLIR's `sparse_tensor.print` layout, as `Display` writes it.
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(
            f,
            "---- Sparse Tensor ----\nnse = {}\ndim = {}\nlvl = {}\n",
            self.number_of_entries(),
            self.dim_sizes(),
            self.lvl_sizes()
        );
        for l in 0..LVL {
            let level = self.level(l);
            if !level.positions().is_empty() {
                defmt::write!(f, "pos[{}] : {}\n", l, level.positions());
            }
            if level.crd_offset() == 0 && !level.coordinates().is_empty() {
                defmt::write!(f, "crd[{}] : {}\n", l, level.coordinates());
            }
        }
        defmt::write!(f, "values : {}\n----", self.values());
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::format;

    use super::*;
    use crate::levels::{compressed, d0, d1, dense, floordiv, modulo, nonunique, singleton};
    use crate::Level;

    type Bsr = Enc<
        u16,
        u8,
        (dense, compressed, dense, dense),
        (
            floordiv<d0, 2>,
            floordiv<d1, 2>,
            modulo<d0, 2>,
            modulo<d1, 2>,
        ),
    >;
    type Coo = Enc<usize, u32, (compressed<nonunique>, singleton), (d0, d1)>;

    #[test]
    fn encodings_print_as_mlir_writes_them() {
        assert_eq!(
            format!("{:?}", Bsr::default()),
            "Enc(#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2 : dense, \
             d1 floordiv 2 : compressed, d0 mod 2 : dense, d1 mod 2 : dense), posWidth = 16, \
             crdWidth = 8 }>)"
        );
        assert_eq!(
            format!("{:?}", Coo::default()),
            "Enc(#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), \
             d1 : singleton), posWidth = 0, crdWidth = 32 }>)"
        );
    }

    #[test]
    fn tensors_debug_and_compare_by_storage() {
        let (pos, crd, val) = ([0u16, 1, 1], [1u8], [1.0, 2.0, 3.0, 4.0]);
        let levels = [
            Level::dense(),
            Level::compressed(&pos, &crd),
            Level::dense(),
            Level::dense(),
        ];
        let a = SparseTensor::<f64, Bsr, 2, 4>::assemble([4, 4], levels, &val).unwrap();
        let text = format!("{a:?}");
        assert!(text.starts_with(
            "SparseTensor { encoding: #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 floordiv 2"
        ), "{text}");
        assert!(
            text.contains("dim_sizes: [4, 4], lvl_sizes: [2, 2, 2, 2]"),
            "{text}"
        );
        assert!(
            text.contains("{ positions: [0, 1, 1], coordinates: [1] }"),
            "{text}"
        );
        assert!(text.ends_with("values: [1.0, 2.0, 3.0, 4.0] }"), "{text}");
        let b = a;
        assert_eq!(a, b);
        let other = [1.0, 2.0, 3.0, 5.0];
        let c = SparseTensor::<f64, Bsr, 2, 4>::assemble([4, 4], levels, &other).unwrap();
        assert_ne!(a, c);
    }
}
