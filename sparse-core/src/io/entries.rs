//! A file's entries, parsed, as a conversion source.

use std::vec::Vec;

use crate::convert::source::Source;
use crate::convert::{engine, Merge};
use crate::encoding::Encoding;
use crate::layout::Layout;
use crate::output::{Owned, SparseTensorOut};

use super::{FileValue, IoError};

/// Entries in file order: 0-based coordinates (checked against `dims`)
/// and values, repeats allowed.
pub(crate) struct EntryList<V, const DIM: usize> {
    pub(crate) dims: [usize; DIM],
    pub(crate) coords: Vec<[usize; DIM]>,
    pub(crate) values: Vec<V>,
}

impl<V, const DIM: usize> EntryList<V, DIM> {
    pub(crate) fn new(dims: [usize; DIM]) -> Self {
        EntryList {
            dims,
            coords: Vec::new(),
            values: Vec::new(),
        }
    }
    /// Appends an entry; an allocation failure is [`IoError::Memory`]
    /// (never an abort): the list grows with the entries the file really
    /// holds, whatever its header claims.
    pub(crate) fn push(&mut self, c: [usize; DIM], v: V) -> Result<(), IoError> {
        let entries = self.values.len().saturating_add(1);
        let grown = (self.coords.len() < self.coords.capacity()
            || self.coords.try_reserve(1).is_ok())
            && (self.values.len() < self.values.capacity() || self.values.try_reserve(1).is_ok());
        if !grown {
            return Err(IoError::Memory { entries });
        }
        self.coords.push(c);
        self.values.push(v);
        Ok(())
    }
}

impl<V, const DIM: usize> Source<V, DIM> for EntryList<V, DIM> {
    fn dims(&self) -> [usize; DIM] {
        self.dims
    }
    /// A file already in the target's order (e.g. written from the same
    /// encoding) streams; any other is staged.
    fn streams<E: Encoding, const LVL: usize>(&self) -> bool {
        let layout = Layout::<DIM, LVL>::decode::<E>();
        self.coords.windows(2).all(|w| match w {
            [a, b] => layout.dim_to_lvl(a) <= layout.dim_to_lvl(b),
            _ => true,
        })
    }
    fn each_lvl<const LVL: usize>(
        &self,
        layout: &Layout<DIM, LVL>,
        f: &mut dyn FnMut([usize; LVL], &V),
    ) {
        for (c, v) in self.coords.iter().zip(&self.values) {
            f(layout.dim_to_lvl(c), v);
        }
    }
    fn each(&self, f: &mut dyn FnMut([usize; DIM], &V)) {
        for (c, v) in self.coords.iter().zip(&self.values) {
            f(*c, v);
        }
    }
    fn may_repeat(&self) -> bool {
        true
    }
}

/// Builds `E` from the entries, repeats summed.
pub(crate) fn build<V: FileValue, E: crate::StoresValues, const DIM: usize, const LVL: usize>(
    list: &EntryList<V, DIM>,
) -> Result<SparseTensorOut<V, E, Owned, DIM, LVL>, IoError> {
    let mut out = SparseTensorOut::<V, E, Owned, DIM, LVL>::with_dims(list.dims)?;
    engine::run(list, &mut out, Merge::sum())?;
    Ok(out)
}
