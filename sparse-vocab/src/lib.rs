#![no_std]
#![deny(missing_docs)]
//! The vocabulary of sparse encodings: level formats, level properties and
//! level expressions, and their packing into the const parameters of
//! `sparse_core::Enc`.
//!
//! Both the compiler behind `sparse_kernel!` (`sparse-compiler`) and the
//! runtime (`sparse-core`, which re-exports this crate as
//! `sparse_core::vocab`) depend on this crate, so the macro and the runtime
//! agree on every code by construction and neither depends on the other.
//! Users never need it directly.
//!
//! Why codes: an encoding is part of the Rust type of a tensor (see
//! `docs/ARCHITECTURE.md`). Stable Rust allows only integers as const
//! parameters, so the level types and the dim→lvl map are packed into two
//! `u128`s: 16 bits per level, at most [`MAX_RANK`] levels, and an
//! `explicitVal` into a third ([`ExplicitValue::pack`]). The packing is
//! canonical, so the same encoding written twice gives the same type.

mod storage;
pub use storage::{coordinate_slot, groups_duplicates, parent_range, CoordinateSlot, ParentRange};

mod value_type;
pub use value_type::ValueType;

/// The largest number of dimensions or levels a tensor may have.
pub const MAX_RANK: usize = 8;

/// The largest constant (block size, modulus, slice count) a level expression
/// may carry: it must fit the 11 bits of its packed code.
pub const MAX_LEVEL_CONSTANT: u32 = (1 << 11) - 1;

/// How one level of the storage is laid out (MLIR's level formats).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LevelFormat {
    /// Every coordinate of the level is stored, linearized with its parent.
    Dense,
    /// Every coordinate is stored, not linearized (a batch dimension).
    Batch,
    /// Only stored coordinates, with a `positions` array of `parent + 1`
    /// entries delimiting each parent's segment.
    Compressed,
    /// As compressed, with a lo/hi position pair per parent, so segments may
    /// be out of order and have room between them.
    LooseCompressed,
    /// One coordinate per parent entry, no positions (the tail of COO).
    Singleton,
    /// `n` out of every `m` consecutive coordinates are stored
    /// (`structured[n, m]`; `block2_4` is the older spelling of `[2, 4]`).
    Structured {
        /// Stored entries per group.
        n: u8,
        /// Group size.
        m: u8,
    },
}

impl LevelFormat {
    /// The name used in the MLIR encoding syntax.
    pub const fn name(self) -> &'static str {
        match self {
            LevelFormat::Dense => "dense",
            LevelFormat::Batch => "batch",
            LevelFormat::Compressed => "compressed",
            LevelFormat::LooseCompressed => "loose_compressed",
            LevelFormat::Singleton => "singleton",
            LevelFormat::Structured { .. } => "structured",
        }
    }
}

/// Properties that relax a level format's defaults (unique and ordered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LevelProps(u8);

impl LevelProps {
    /// No property: unique and ordered.
    pub const NONE: LevelProps = LevelProps(0);
    /// Duplicate coordinates may appear at the level.
    pub const NONUNIQUE: LevelProps = LevelProps(1);
    /// Coordinates may appear in any order within a segment.
    pub const NONORDERED: LevelProps = LevelProps(2);
    /// A singleton level stored as its own array (structure of arrays)
    /// instead of fused into the COO region's coordinate buffer.
    pub const SOA: LevelProps = LevelProps(4);
    /// MLIR's `high` hint for batched COO; accepted and recorded, it changes
    /// neither the storage nor the generated loops.
    pub const HIGH: LevelProps = LevelProps(8);

    /// The raw bits.
    pub const fn bits(self) -> u8 {
        self.0
    }
    /// Properties from raw bits; unknown bits are dropped.
    pub const fn from_bits(bits: u8) -> LevelProps {
        LevelProps(bits & 0xF)
    }
    /// Whether every property of `other` is set here.
    pub const fn contains(self, other: LevelProps) -> bool {
        self.0 & other.0 == other.0
    }
    /// Both sets of properties.
    pub const fn union(self, other: LevelProps) -> LevelProps {
        LevelProps(self.0 | other.0)
    }
    /// Each property with its name in the encoding syntax, in the order
    /// encodings are printed (and the level markers spell them).
    pub const NAMED: [(LevelProps, &'static str); 4] = [
        (LevelProps::NONUNIQUE, "nonunique"),
        (LevelProps::NONORDERED, "nonordered"),
        (LevelProps::SOA, "soa"),
        (LevelProps::HIGH, "high"),
    ];
    /// The names of the properties set here, in [`LevelProps::NAMED`]'s
    /// order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        LevelProps::NAMED
            .into_iter()
            .filter(move |&(p, _)| self.contains(p))
            .map(|(_, name)| name)
    }
}

/// A level's format together with its properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LevelType {
    /// The storage format of the level.
    pub format: LevelFormat,
    /// Properties relaxing uniqueness and order, or choosing SoA.
    pub props: LevelProps,
}

impl LevelType {
    /// A level type with no properties.
    pub const fn new(format: LevelFormat) -> LevelType {
        LevelType {
            format,
            props: LevelProps::NONE,
        }
    }
    /// The same format with extra properties.
    pub const fn with(self, props: LevelProps) -> LevelType {
        LevelType {
            format: self.format,
            props: self.props.union(props),
        }
    }
    /// No duplicate coordinates within a segment.
    pub const fn is_unique(self) -> bool {
        !self.props.contains(LevelProps::NONUNIQUE)
    }
    /// Coordinates sorted within a segment.
    pub const fn is_ordered(self) -> bool {
        !self.props.contains(LevelProps::NONORDERED)
    }
    /// A singleton level stored as its own array.
    pub const fn is_soa(self) -> bool {
        self.props.contains(LevelProps::SOA)
    }
    /// Dense and batch levels store no positions and no coordinates.
    pub const fn is_dense(self) -> bool {
        matches!(self.format, LevelFormat::Dense | LevelFormat::Batch)
    }
    /// Compressed and loose compressed levels own a positions array.
    pub const fn has_positions(self) -> bool {
        matches!(
            self.format,
            LevelFormat::Compressed | LevelFormat::LooseCompressed
        )
    }
    /// Every level but dense and batch stores coordinates.
    pub const fn has_coordinates(self) -> bool {
        !self.is_dense()
    }

    /// Packs the level type into 16 bits: format (3), properties (4), and
    /// for `structured`, `n` (4) and `m` (5).
    pub const fn pack(self) -> u16 {
        let (tag, n, m) = match self.format {
            LevelFormat::Dense => (0u16, 0u16, 0u16),
            LevelFormat::Batch => (1, 0, 0),
            LevelFormat::Compressed => (2, 0, 0),
            LevelFormat::LooseCompressed => (3, 0, 0),
            LevelFormat::Singleton => (4, 0, 0),
            LevelFormat::Structured { n, m } => (5, n as u16 & 0xF, m as u16 & 0x1F),
        };
        tag | ((self.props.bits() as u16) << 3) | (n << 7) | (m << 11)
    }

    /// The inverse of [`LevelType::pack`]; `None` for a code no level type
    /// packs to.
    pub const fn unpack(code: u16) -> Option<LevelType> {
        let n = ((code >> 7) & 0xF) as u8;
        let m = ((code >> 11) & 0x1F) as u8;
        let format = match code & 0x7 {
            0 => LevelFormat::Dense,
            1 => LevelFormat::Batch,
            2 => LevelFormat::Compressed,
            3 => LevelFormat::LooseCompressed,
            4 => LevelFormat::Singleton,
            5 => LevelFormat::Structured { n, m },
            _ => return None,
        };
        if !matches!(format, LevelFormat::Structured { .. }) && (n != 0 || m != 0) {
            return None;
        }
        Some(LevelType {
            format,
            props: LevelProps::from_bits(((code >> 3) & 0xF) as u8),
        })
    }
}

/// One level expression of a dim→lvl map, over dimension variables `d0..`.
///
/// These are the forms MLIR's sparsifier supports: a plain dimension
/// (permutations), block maps (`floordiv`/`mod`), and the ELL counting form
/// `c * K * d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LevelExpr {
    /// The level coordinate is dimension `d`'s coordinate.
    Dim(u8),
    /// `d floordiv divisor`: the block coordinate.
    FloorDiv {
        /// The dimension.
        dim: u8,
        /// The block size.
        divisor: u32,
    },
    /// `d mod modulus`: the coordinate inside a block.
    Mod {
        /// The dimension.
        dim: u8,
        /// The block size.
        modulus: u32,
    },
    /// `c * slices * d`: counts the stored entries sharing `d` (ELL's jagged
    /// diagonals), with `slices` slices.
    Counting {
        /// The counted dimension.
        dim: u8,
        /// The number of slices.
        slices: u32,
    },
}

/// The smallest and largest value of the affine subscript `Σ cᵥ·v + c₀`
/// (`terms` pairs each coefficient `cᵥ` with its variable's range size
/// `nᵥ`, so `v` runs over `0..nᵥ`); `None` when some size is 0 (no
/// iteration reads the subscript). The one rule a kernel's range check
/// follows, at compile time for static sizes and at run time otherwise.
/// Coefficients below 2^33 and sizes below 2^64 keep `i128` exact.
pub fn affine_range(
    terms: impl IntoIterator<Item = (i64, u64)>,
    constant: i64,
) -> Option<(i128, i128)> {
    let (mut min, mut max) = (i128::from(constant), i128::from(constant));
    for (c, n) in terms {
        let reach = i128::from(c) * (i128::from(n.checked_sub(1)?));
        if c < 0 {
            min += reach;
        } else {
            max += reach;
        }
    }
    Some((min, max))
}

/// Whether a map's level expressions split `dim_count` dimensions in
/// order: each dimension in turn, stored whole (`d`) or as `d floordiv b`
/// followed by `d mod b` before the next dimension (`(i, j floordiv 4, j
/// mod 4)`, 2:4's map). Under such a map the lexicographic order of the
/// dimension coordinates is that of the level coordinates, so a tensor
/// stored in dimension order streams into it in one pass.
pub fn splits_dims_in_order(exprs: &[LevelExpr], dim_count: usize) -> bool {
    let mut next = 0usize;
    // An open `floordiv`: its dimension and block size.
    let mut open: Option<(usize, u32)> = None;
    for &e in exprs {
        match (e, open) {
            (LevelExpr::Dim(d), None) if usize::from(d) == next => next += 1,
            (LevelExpr::FloorDiv { dim, divisor }, None) if usize::from(dim) == next => {
                open = Some((next, divisor));
            }
            (LevelExpr::Mod { dim, modulus }, Some((d, b)))
                if usize::from(dim) == d && modulus == b =>
            {
                open = None;
                next += 1;
            }
            _ => return false,
        }
    }
    open.is_none() && next == dim_count
}

impl LevelExpr {
    /// The dimension the expression reads.
    pub const fn dim(self) -> usize {
        match self {
            LevelExpr::Dim(d)
            | LevelExpr::FloorDiv { dim: d, .. }
            | LevelExpr::Mod { dim: d, .. }
            | LevelExpr::Counting { dim: d, .. } => d as usize,
        }
    }

    /// Packs the expression into 16 bits: kind (2), dimension (3),
    /// constant (11).
    pub const fn pack(self) -> u16 {
        let (kind, dim, k) = match self {
            LevelExpr::Dim(d) => (0u16, d, 0u32),
            LevelExpr::FloorDiv { dim, divisor } => (1, dim, divisor),
            LevelExpr::Mod { dim, modulus } => (2, dim, modulus),
            LevelExpr::Counting { dim, slices } => (3, dim, slices),
        };
        kind | ((dim as u16 & 0x7) << 2) | ((k as u16 & 0x7FF) << 5)
    }

    /// The inverse of [`LevelExpr::pack`].
    pub const fn unpack(code: u16) -> LevelExpr {
        let dim = ((code >> 2) & 0x7) as u8;
        let k = (code >> 5) as u32;
        match code & 0x3 {
            0 => LevelExpr::Dim(dim),
            1 => LevelExpr::FloorDiv { dim, divisor: k },
            2 => LevelExpr::Mod { dim, modulus: k },
            _ => LevelExpr::Counting { dim, slices: k },
        }
    }

    /// The level size this expression gives for a dimension of size `dim_size`.
    pub const fn level_size(self, dim_size: usize) -> usize {
        match self {
            LevelExpr::Dim(_) => dim_size,
            LevelExpr::FloorDiv { divisor, .. } => dim_size.div_ceil(divisor as usize),
            LevelExpr::Mod { modulus, .. } => modulus as usize,
            LevelExpr::Counting { slices, .. } => slices as usize,
        }
    }
}

/// Packs up to [`MAX_RANK`] level types, 16 bits each, level 0 lowest.
pub const fn pack_level_types(levels: &[LevelType]) -> u128 {
    let mut code = 0u128;
    let mut l = 0;
    while l < levels.len() && l < MAX_RANK {
        code |= (levels[l].pack() as u128) << (16 * l);
        l += 1;
    }
    code
}

/// The type of level `l` in a code made by [`pack_level_types`].
pub const fn level_type_at(code: u128, l: usize) -> Option<LevelType> {
    if l >= MAX_RANK {
        return None;
    }
    LevelType::unpack((code >> (16 * l)) as u16)
}

/// Packs up to [`MAX_RANK`] level expressions, 16 bits each, level 0 lowest.
pub const fn pack_level_exprs(exprs: &[LevelExpr]) -> u128 {
    let mut code = 0u128;
    let mut l = 0;
    while l < exprs.len() && l < MAX_RANK {
        code |= (exprs[l].pack() as u128) << (16 * l);
        l += 1;
    }
    code
}

/// The expression of level `l` in a code made by [`pack_level_exprs`].
pub const fn level_expr_at(code: u128, l: usize) -> LevelExpr {
    LevelExpr::unpack((code >> (16 * (l % MAX_RANK))) as u16)
}

/// A coordinate width as written in `posWidth`/`crdWidth`: 0 means the
/// native `usize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// `usize` (written `0`).
    Native,
    /// 2-bit coordinates, only for 2:4 structured levels.
    W2,
    /// `u8`.
    W8,
    /// `u16`.
    W16,
    /// `u32`.
    W32,
    /// `u64`.
    W64,
}

impl Width {
    /// The width for a bit count as written in the encoding.
    pub const fn from_bits(bits: u64) -> Option<Width> {
        match bits {
            0 => Some(Width::Native),
            2 => Some(Width::W2),
            8 => Some(Width::W8),
            16 => Some(Width::W16),
            32 => Some(Width::W32),
            64 => Some(Width::W64),
            _ => None,
        }
    }
    /// The largest value an index of this width holds (for `Native`, the
    /// target's `usize::MAX`).
    pub const fn max_value(self) -> u64 {
        match self {
            Width::Native => usize::MAX as u64,
            Width::W2 => 3,
            Width::W8 => u8::MAX as u64,
            Width::W16 => u16::MAX as u64,
            Width::W32 => u32::MAX as u64,
            Width::W64 => u64::MAX,
        }
    }
    /// The Rust integer type name that stores it.
    pub const fn rust_type(self) -> &'static str {
        match self {
            Width::Native => "usize",
            Width::W2 | Width::W8 => "u8",
            Width::W16 => "u16",
            Width::W32 => "u32",
            Width::W64 => "u64",
        }
    }
}

/// An `explicitVal` as its type and bit pattern: a pattern tensor stores no
/// values array and every stored entry holds this value.
///
/// The bits are the value in its own width, zero-extended: `f32`/`f64`
/// through `to_bits`, integers in two's complement (`-1 : i8` is `0xFF`),
/// `i1` as 0 or 1. So two values are the same exactly when their bits are,
/// as MLIR compares attributes (`0.0` and `-0.0` differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExplicitValue {
    /// The element type.
    pub ty: ValueType,
    /// The value's bits (no bit above `ty.width()` set).
    pub bits: u64,
}

impl ExplicitValue {
    /// An integer (or `i1`) value; the bits are `value` in two's complement
    /// truncated to the type's width (the caller checked the range).
    pub const fn int(ty: ValueType, value: i128) -> ExplicitValue {
        ExplicitValue {
            ty,
            bits: value as u64 & ty.mask(),
        }
    }
    /// A floating-point value, rounded to `f32` for that type.
    pub const fn float(ty: ValueType, value: f64) -> ExplicitValue {
        let bits = match ty {
            ValueType::F32 => (value as f32).to_bits() as u64,
            _ => value.to_bits(),
        };
        ExplicitValue {
            ty,
            bits: bits & ty.mask(),
        }
    }

    /// Packs the value into the `VALUES` code of `sparse_core::Enc`: the
    /// bits in bits 0..64, the type's tag in bits 64..72.
    pub const fn pack(self) -> u128 {
        ((self.ty.tag() as u128) << 64) | (self.bits & self.ty.mask()) as u128
    }
}

/// What a `VALUES` code says about a tensor's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// Code 0: the values are stored, one per entry.
    Stored,
    /// No values array: every entry holds this `explicitVal`.
    Explicit(ExplicitValue),
    /// No code [`ExplicitValue::pack`] makes (only a hand-written `Enc`).
    Invalid,
}

/// Decodes a `VALUES` code made by [`ExplicitValue::pack`] (or 0).
pub const fn values_at(code: u128) -> Values {
    if code == 0 {
        return Values::Stored;
    }
    if code >> 72 != 0 {
        return Values::Invalid;
    }
    let Some(ty) = ValueType::from_tag((code >> 64) as u8) else {
        return Values::Invalid;
    };
    if !ty.packs() {
        return Values::Invalid;
    }
    let bits = code as u64;
    if bits & !ty.mask() != 0 {
        return Values::Invalid;
    }
    Values::Explicit(ExplicitValue { ty, bits })
}

#[cfg(test)]
mod tests;
