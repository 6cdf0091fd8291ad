//! The checking side of the sparse-output kernel tests: what a sparse
//! output must store (the exact set of lattice points that produce a value:
//! the union of the operands' stored entries for `+`, their intersection
//! for `*`, explicit zeros included), reading an output back through its
//! read-only view, and caller-owned slices to build `Slices` outputs over.
//!
//! An output is read back through `view()`, then disassembled and
//! assembled again by [`SparseTensor::assemble`]: the validating
//! constructor is the independent judge that the insertion protocol kept
//! every storage invariant (sorted, unique, positions in range).

use std::collections::BTreeMap;

use sparse_core::output::{SliceBuffer, Slices};
use sparse_core::{AssembleError, Encoding, Index, SparseTensor, SparseTensorOut, StoresValues};

use crate::dense::Dense;
use crate::gen::{Elem, Entries};

/// Stored entries by dimension coordinates.
pub type Stored<V> = BTreeMap<Vec<usize>, V>;

/// `entries` by coordinates.
///
/// # Panics
///
/// If a coordinate repeats (test code: the generators give distinct ones).
pub fn stored<V: Elem>(entries: &Entries<V>) -> Stored<V> {
    let mut m = Stored::new();
    for (c, v) in entries {
        assert!(m.insert(c.clone(), *v).is_none(), "{c:?} given twice");
    }
    m
}

/// The union of the stored coordinates of `a` and `b`, each holding
/// `op(a or 0, b or 0)`: what `+`/`-` must store, computed zeros included.
pub fn union<V: Elem>(a: &Stored<V>, b: &Stored<V>, op: fn(V, V) -> V) -> Stored<V> {
    let mut keys: Vec<&Vec<usize>> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|c| {
            let x = a.get(c).copied().unwrap_or(V::ZERO);
            let y = b.get(c).copied().unwrap_or(V::ZERO);
            (c.clone(), op(x, y))
        })
        .collect()
}

/// The coordinates stored in both `a` and `b`, each holding `op(a, b)`:
/// what `*` must store.
pub fn intersection<V: Elem>(a: &Stored<V>, b: &Stored<V>, op: fn(V, V) -> V) -> Stored<V> {
    a.iter()
        .filter_map(|(c, &x)| b.get(c).map(|&y| (c.clone(), op(x, y))))
        .collect()
}

/// `a`'s stored coordinates with `f` applied to each value.
pub fn map_values<V: Elem>(a: &Stored<V>, f: impl Fn(V) -> V) -> Stored<V> {
    a.iter().map(|(c, &v)| (c.clone(), f(v))).collect()
}

/// Every stored entry of `t` in storage order, after checking that the
/// view re-assembles through [`SparseTensor::assemble`] into a tensor with
/// the same dimension sizes and the same entries in the same order.
///
/// # Errors
///
/// What is wrong, as text.
pub fn read_back<V, E, const D: usize, const L: usize>(
    t: &SparseTensor<'_, V, E, D, L>,
) -> Result<Vec<(Vec<usize>, V)>, String>
where
    V: Elem,
    E: Encoding,
{
    let mut got = Vec::new();
    t.for_each(|c, v| got.push((c.to_vec(), *v)));
    let (dims, levels, values) = t.disassemble();
    let again = SparseTensor::<V, E, D, L>::assemble(dims, levels, values)
        .map_err(|e| format!("the output's storage does not assemble: {e}"))?;
    if again.dim_sizes() != t.dim_sizes() {
        return Err(format!(
            "re-assembled with dims {:?}, the view has {:?}",
            again.dim_sizes(),
            t.dim_sizes()
        ));
    }
    let mut again_entries = Vec::new();
    again.for_each(|c, v| again_entries.push((c.to_vec(), *v)));
    if again_entries != got {
        return Err(format!(
            "the view walks {got:?}, its re-assembled storage {again_entries:?}"
        ));
    }
    if got.len() != t.number_of_entries() {
        return Err(format!(
            "{} entries walked, number_of_entries says {}",
            got.len(),
            t.number_of_entries()
        ));
    }
    Ok(got)
}

/// Checks an output against what it must hold: exactly the coordinates of
/// `want` stored, each once, with `want`'s values, and, as a dense tensor,
/// equal to `dense` (computed independently by the test).
///
/// # Errors
///
/// What differs, as text.
pub fn check_output<V, E, const D: usize, const L: usize>(
    t: &SparseTensor<'_, V, E, D, L>,
    want: &Stored<V>,
    dense: &Dense<V>,
) -> Result<(), String>
where
    V: Elem,
    E: Encoding,
{
    if t.dim_sizes().as_slice() != dense.dims.as_slice() {
        return Err(format!(
            "the output has dims {:?}, expected {:?}",
            t.dim_sizes(),
            dense.dims
        ));
    }
    let got = read_back(t)?;
    let mut set = Stored::new();
    for (c, v) in &got {
        if set.insert(c.clone(), *v).is_some() {
            return Err(format!("{c:?} stored twice in {got:?}"));
        }
    }
    if &set != want {
        let extra: Vec<_> = set.keys().filter(|c| !want.contains_key(*c)).collect();
        let missing: Vec<_> = want.keys().filter(|c| !set.contains_key(*c)).collect();
        return Err(format!(
            "stored {set:?}, expected {want:?} (stored but not expected: {extra:?}; \
             expected but not stored: {missing:?})"
        ));
    }
    let as_dense = Dense::from_entries(&dense.dims, &got);
    if &as_dense != dense {
        return Err(format!(
            "as a dense tensor {:?}, the dense reference gives {:?}",
            as_dense.data, dense.data
        ));
    }
    Ok(())
}

/// How many elements each buffer of a [`SliceStore`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps<const L: usize> {
    /// Positions, per level.
    pub pos: [usize; L],
    /// Coordinates, per level.
    pub crd: [usize; L],
    /// Values.
    pub val: usize,
    /// Workspace values.
    pub ws_val: usize,
    /// Workspace filled flags.
    pub ws_filled: usize,
    /// Workspace added list.
    pub ws_added: usize,
}

impl<const L: usize> Caps<L> {
    /// `n` elements for every buffer.
    pub const fn uniform(n: usize) -> Self {
        Caps {
            pos: [n; L],
            crd: [n; L],
            val: n,
            ws_val: n,
            ws_filled: n,
            ws_added: n,
        }
    }
}

/// Caller-owned arrays for a `Slices` output, as an embedded caller would
/// have them: fixed lengths, nothing allocated by the output.
#[derive(Debug)]
pub struct SliceStore<P, C, V, const L: usize> {
    pos: [Vec<P>; L],
    crd: [Vec<C>; L],
    val: Vec<V>,
    ws_val: Vec<V>,
    ws_filled: Vec<bool>,
    ws_added: Vec<usize>,
}

impl<P: Index, C: Index, V: Elem + Default, const L: usize> SliceStore<P, C, V, L> {
    /// Arrays of the given lengths, filled with garbage (a position or
    /// coordinate of 0, [`Elem::GARBAGE`] values, `true` flags): an output
    /// must never read a slot it did not write.
    pub fn new(caps: Caps<L>) -> Self {
        let zero_p = P::from_usize(0).expect("0 fits every width");
        let zero_c = C::from_usize(0).expect("0 fits every width");
        SliceStore {
            pos: caps.pos.map(|n| vec![zero_p; n]),
            crd: caps.crd.map(|n| vec![zero_c; n]),
            val: vec![V::GARBAGE; caps.val],
            ws_val: vec![V::GARBAGE; caps.ws_val],
            ws_filled: vec![true; caps.ws_filled],
            ws_added: vec![usize::MAX; caps.ws_added],
        }
    }

    /// An empty output of `dims` over these arrays.
    ///
    /// # Panics
    ///
    /// If `SparseTensorOut::new` refuses (test code: the dims fit the
    /// widths in every test but the one calling [`SliceStore::try_out`]).
    pub fn out<E, const D: usize>(
        &mut self,
        dims: [usize; D],
    ) -> SparseTensorOut<V, E, Slices<'_>, D, L>
    where
        E: StoresValues<Pos = P, Crd = C>,
    {
        self.try_out(dims)
            .unwrap_or_else(|e| panic!("SparseTensorOut::new refused {dims:?}: {e}"))
    }

    /// What `SparseTensorOut::new` says to `dims` over these arrays.
    ///
    /// # Errors
    ///
    /// `new`'s.
    pub fn try_out<E, const D: usize>(
        &mut self,
        dims: [usize; D],
    ) -> Result<SparseTensorOut<V, E, Slices<'_>, D, L>, AssembleError>
    where
        E: StoresValues<Pos = P, Crd = C>,
    {
        let mut pos = self.pos.iter_mut();
        let mut crd = self.crd.iter_mut();
        let positions = core::array::from_fn(|_| SliceBuffer::new(pos.next().expect("L levels")));
        let coordinates = core::array::from_fn(|_| SliceBuffer::new(crd.next().expect("L levels")));
        SparseTensorOut::new(
            dims,
            positions,
            coordinates,
            SliceBuffer::new(&mut self.val),
            SliceBuffer::new(&mut self.ws_val),
            SliceBuffer::new(&mut self.ws_filled),
            SliceBuffer::new(&mut self.ws_added),
        )
    }
}

// ---- one test body on an output of every buffer family

/// Runs `$body` three times, with `$c` bound to a fresh empty
/// `SparseTensorOut` of dimension sizes `$dims` over each buffer family:
/// `Owned` (`Vec`), `Fixed<$n>` (heapless) and `Slices` over caller-owned
/// arrays of `$n` elements each ([`SliceStore`](crate::sparse_out::SliceStore)).
/// `$n` defaults to 64. The encoding and the value type come from the
/// kernel the body passes `&mut $c` to.
///
/// A generated kernel is generic over its output's buffer family, so the
/// same body instantiates it three times; a closure could not.
#[macro_export]
macro_rules! each_family {
    ($dims:expr, |$c:ident| $body:block) => {
        $crate::each_family!($dims, 64, |$c| $body)
    };
    ($dims:expr, $n:literal, |$c:ident| $body:block) => {{
        let dims = $dims;
        {
            let mut $c =
                ::sparse_core::SparseTensorOut::<_, _, ::sparse_core::output::Owned, _, _>::with_dims(
                    dims,
                )
                .expect("with_dims accepts the test's sizes");
            $body
        }
        {
            let mut $c = ::sparse_core::SparseTensorOut::<
                _,
                _,
                ::sparse_core::output::Fixed<$n>,
                _,
                _,
            >::with_dims(dims)
            .expect("with_dims accepts the test's sizes");
            $body
        }
        {
            let mut store =
                $crate::sparse_out::SliceStore::new($crate::sparse_out::Caps::uniform($n));
            let mut $c = store.out(dims);
            $body
        }
    }};
}
