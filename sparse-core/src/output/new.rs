//! Making an output: `new` checks the encoding and the buffers and builds
//! the empty tensor; `clear` empties it again; the `Fixed` and `Owned`
//! families' `with_dims` make their own buffers.

use crate::encoding::{Encoding, StoresValues};
use crate::error::{AssembleError, Buffer as Which};
use crate::index::Index;
use crate::layout::Layout;
use crate::vocab::{LevelExpr, LevelFormat};

#[cfg(feature = "heapless")]
use super::buffer::Fixed;
#[cfg(feature = "alloc")]
use super::buffer::Owned;
use super::buffer::{Buffer, OutputBuffers};
#[cfg(feature = "alloc")]
use super::chunk;
use super::empty_size;
use super::insert::Cursor;
use super::{Fault, SparseTensorOut, State};

impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
{
    /// An empty tensor of these dimension sizes over the given buffers: one
    /// positions and one coordinates buffer per level (levels that store
    /// none of them take an empty buffer), the values, and the workspace's
    /// values, filled flags and added coordinates (empty ones when no
    /// kernel expands this output).
    ///
    /// Checks the encoding as [`SparseTensor::assemble`](crate::SparseTensor::assemble) does, that every
    /// level size fits the coordinate width (`WidthOverflow`), that the
    /// format can be written by insertion (`UnsupportedOutput`), that the
    /// encoding has no `explicitVal` (`PatternOutput`), that the empty
    /// tensor's buffers (the leading dense levels, the positions below
    /// them) could exist at all, counted in `usize` and at most
    /// `isize::MAX` bytes each (`TooLarge`: a CSR of `usize::MAX` rows,
    /// before anything is allocated), and that the buffers hold the empty
    /// tensor (`Capacity`).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        dim_sizes: [usize; DIM],
        positions: [B::Pos; LVL],
        coordinates: [B::Crd; LVL],
        values: B::Val,
        ws_values: B::Val,
        ws_filled: B::Flag,
        ws_added: B::Idx,
    ) -> Result<Self, AssembleError>
    where
        E: StoresValues,
    {
        let layout = Layout::<DIM, LVL>::decode::<E>();
        layout.check::<E>()?;
        // Insertion writes values; a pattern encoding (`explicitVal`) has none.
        if E::is_pattern() {
            return Err(AssembleError::PatternOutput);
        }
        let lvl_sizes = layout.lvl_sizes(&dim_sizes);
        let zero_len = check_output_layout::<E, DIM, LVL>(&layout, &lvl_sizes)?;
        empty_size::check_empty_size::<V, E, DIM, LVL>(&layout, &lvl_sizes)?;
        let zero =
            <E::Pos as Index>::from_usize(0).ok_or(AssembleError::InvalidEncoding { level: 0 })?;
        let first_nonunique = layout
            .levels
            .iter()
            .position(|i| i.ty.has_positions() && !i.ty.is_unique())
            .unwrap_or(LVL);
        let appends = first_nonunique == LVL
            && LVL
                .checked_sub(1)
                .and_then(|l| layout.levels.get(l))
                .is_some_and(|i| {
                    i.ty.format == LevelFormat::Compressed && i.offset == 0 && i.stride == 1
                });
        let groups = LVL.checked_sub(1).and_then(|l| {
            let info = layout.levels.get(l)?;
            match info.ty.format {
                LevelFormat::Structured { n, m } => Some((l, usize::from(n), usize::from(m))),
                _ => None,
            }
        });
        let mut out = SparseTensorOut {
            dim_sizes,
            lvl_sizes,
            layout,
            positions,
            coordinates,
            values,
            ws_values,
            ws_filled,
            ws_added,
            ws_listed_raw: false,
            zero: [zero; 2],
            zero_len,
            first_nonunique,
            state: State::Ready,
            cur: Cursor::new(),
            fault: None,
            writing: true,
            groups,
            appends,
            appendable: false,
            #[cfg(feature = "alloc")]
            scratch: chunk::Scratch::default(),
        };
        out.begin();
        out.finalize();
        out.state = State::Ready;
        if let Some(Fault::Capacity {
            level,
            buffer,
            capacity,
            ..
        }) = out.fault
        {
            let needed = match buffer {
                Which::Positions => out.cur.pos_len.get(level).copied(),
                Which::Coordinates => out
                    .cur
                    .crd_len
                    .get(level)
                    .map(|&n| <E::Crd as Index>::elements(n)),
                _ => Some(out.cur.val_len),
            };
            return Err(AssembleError::Capacity {
                level,
                buffer,
                needed: needed.unwrap_or(0),
                capacity,
            });
        }
        Ok(out)
    }

    /// Empties the tensor (a valid tensor with no stored entries: positions
    /// all 0, the zeros of dense levels), keeping every buffer's memory.
    pub fn clear(&mut self) {
        self.begin();
        self.finalize();
        self.state = State::Ready;
        self.fault = None;
        self.writing = true;
    }

    /// Every buffer emptied (not even the empty tensor's positions) and the
    /// insertion state reset, for a conversion that writes the buffers
    /// directly (`convert/fast.rs`): what [`clear`](Self::clear) leaves,
    /// without building the empty tensor first. The caller must leave a
    /// complete tensor in the buffers, or call `clear`.
    pub(crate) fn reset_for_build(&mut self) {
        for b in &mut self.positions {
            b.clear();
        }
        for b in &mut self.coordinates {
            b.clear();
        }
        self.values.clear();
        self.cur = Cursor::new();
        self.appendable = false;
        self.state = State::Ready;
        self.fault = None;
        self.writing = true;
    }

    /// `clear`, but the pending fault stays for `finish`.
    pub(super) fn clear_keeping_fault(&mut self) {
        let fault = self.fault;
        self.clear();
        self.fault = fault;
        self.state = State::Failed;
    }
}

// Only the `Fixed` and `Owned` families use it (features `heapless`, `alloc`).
#[cfg(any(feature = "heapless", feature = "alloc"))]
impl<V, E, B, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, B, DIM, LVL>
where
    V: Default,
    E: Encoding,
    B: OutputBuffers<E::Pos, E::Crd, V>,
    B::Pos: Default,
    B::Crd: Default,
    B::Val: Default,
    B::Flag: Default,
    B::Idx: Default,
{
    /// [`new`](Self::new) over freshly made empty buffers: what
    /// `with_dims` of the `Fixed` and `Owned` families is.
    fn with_empty_buffers(dim_sizes: [usize; DIM]) -> Result<Self, AssembleError>
    where
        E: StoresValues,
    {
        Self::new(
            dim_sizes,
            core::array::from_fn(|_| B::Pos::default()),
            core::array::from_fn(|_| B::Crd::default()),
            B::Val::default(),
            B::Val::default(),
            B::Flag::default(),
            B::Idx::default(),
        )
    }
}

#[cfg(feature = "heapless")]
impl<V, E, const N: usize, const DIM: usize, const LVL: usize>
    SparseTensorOut<V, E, Fixed<N>, DIM, LVL>
where
    V: Default,
    E: Encoding,
{
    /// An empty tensor of these dimension sizes over `heapless::Vec`s of
    /// capacity `N` (workspace included), e.g. in a `static` or on the
    /// stack. Errors as [`new`](Self::new).
    pub fn with_dims(dim_sizes: [usize; DIM]) -> Result<Self, AssembleError>
    where
        E: StoresValues,
    {
        Self::with_empty_buffers(dim_sizes)
    }
}

#[cfg(feature = "alloc")]
impl<V, E, const DIM: usize, const LVL: usize> SparseTensorOut<V, E, Owned, DIM, LVL>
where
    V: Default,
    E: Encoding,
{
    /// An empty tensor of these dimension sizes over `Vec`s that grow as
    /// needed. Errors as [`new`](Self::new): `TooLarge` when the empty
    /// tensor's buffers cannot exist (`[usize::MAX, 1]` as a CSR or a
    /// dense array), `Capacity` (with capacity `usize::MAX`, "could not
    /// allocate") when memory for it cannot be had (a CSR of `n` rows holds
    /// `n + 1` positions), never an abort. Formats that store nothing per
    /// declared row (DCSR, COO, a CSC of few columns) cost nothing for
    /// huge sizes.
    pub fn with_dims(dim_sizes: [usize; DIM]) -> Result<Self, AssembleError>
    where
        E: StoresValues,
    {
        Self::with_empty_buffers(dim_sizes)
    }
}

/// Checks that insertion can write this layout and returns, per level, the
/// number of positions of the empty tensor of dimension sizes 0 (what
/// `view` shows during a call).
fn check_output_layout<E: Encoding, const DIM: usize, const LVL: usize>(
    layout: &Layout<DIM, LVL>,
    lvl_sizes: &[usize; LVL],
) -> Result<[usize; LVL], AssembleError> {
    let zero_sizes = layout.lvl_sizes(&[0; DIM]);
    let mut zero_len = [0; LVL];
    // Entries of the level above in the empty tensor of sizes 0.
    let mut zero_parents = 1usize;
    // Entries below one new entry of the nearest non-dense level above
    // (for the zero blocks insertion pushes).
    let mut run = 1usize;
    for (l, info) in layout.levels.iter().enumerate() {
        let unsupported = AssembleError::UnsupportedOutput { level: l };
        let size = lvl_sizes.get(l).copied().unwrap_or(0);
        let zero_size = zero_sizes.get(l).copied().unwrap_or(0);
        if matches!(info.expr, LevelExpr::Counting { .. }) {
            return Err(unsupported);
        }
        // An n:m level as the last level: every parent entry owns a group
        // of `n` slots, created with it (padding, then the insertions').
        if let LevelFormat::Structured { n, .. } = info.ty.format {
            if l + 1 != LVL {
                return Err(unsupported);
            }
            if size > 0 && (size - 1) as u64 > <E::Crd as Index>::MAX {
                return Err(AssembleError::WidthOverflow {
                    level: l,
                    buffer: Which::Coordinates,
                    value: (size - 1) as u64,
                    max: <E::Crd as Index>::MAX,
                });
            }
            zero_parents = zero_parents.saturating_mul(usize::from(n));
            continue;
        }
        if info.is_dense() {
            run = run
                .checked_mul(size)
                .ok_or(AssembleError::TooLarge { level: l })?;
            zero_parents = zero_parents.saturating_mul(zero_size);
            continue;
        }
        run = 1;
        if size > 0 && (size - 1) as u64 > <E::Crd as Index>::MAX {
            return Err(AssembleError::WidthOverflow {
                level: l,
                buffer: Which::Coordinates,
                value: (size - 1) as u64,
                max: <E::Crd as Index>::MAX,
            });
        }
        let n = match info.ty.format {
            LevelFormat::Compressed => zero_parents.saturating_add(1),
            LevelFormat::LooseCompressed => zero_parents.saturating_mul(2),
            _ => 0,
        };
        if n > 2 {
            return Err(unsupported);
        }
        if let Some(z) = zero_len.get_mut(l) {
            *z = n;
        }
        if info.ty.has_positions() {
            zero_parents = 0;
        }
    }
    // The values of that tensor must be empty too.
    if zero_parents > 0 {
        return Err(AssembleError::UnsupportedOutput {
            level: LVL.saturating_sub(1),
        });
    }
    Ok(zero_len)
}
