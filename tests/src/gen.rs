//! Proptest strategies for the kernel tests: element values, shapes
//! (0-sized dimensions included) and sparse entry lists.
//!
//! Values are small integers, or quarters of them for floats (`k / 4` with
//! `|k| <= 64`), so that every product and sum a kernel forms on the small
//! shapes used here is exact in any order: results are compared with `==`.

use core::fmt::Debug;
use core::ops::{Add, Mul, Sub};

use proptest::collection::vec;
use proptest::prelude::*;

/// Stored entries: dimension coordinates and a value.
pub type Entries<V> = Vec<(Vec<usize>, V)>;

/// The element types the kernel tests run on.
pub trait Elem:
    Copy + PartialEq + Debug + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + 'static
{
    /// The zero of the type.
    const ZERO: Self;
    /// What `=` outputs are pre-filled with, and what the free slots of
    /// loose levels hold: a kernel that forgets to zero, or reads a slot it
    /// should skip, shows it.
    const GARBAGE: Self;
    /// The `k`-th small value: `k / 4` for floats, `k` for `i32`/`i64`,
    /// `k` reduced to a few values for narrower and unsigned types.
    fn small(k: i32) -> Self;
}

macro_rules! float_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            const ZERO: Self = 0.0;
            const GARBAGE: Self = 777.25;
            fn small(k: i32) -> Self {
                k as $t / 4.0
            }
        }
    )*};
}
float_elem!(f32, f64);

macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            const ZERO: Self = 0;
            const GARBAGE: Self = 777;
            fn small(k: i32) -> Self {
                k as $t
            }
        }
    )*};
}
int_elem!(i32, i64);

// Narrow and unsigned types get values in -3..=3 (signed) or 0..=3
// (unsigned), so the sums of the few products the element-type tests form
// stay in range.
macro_rules! narrow_elem {
    ($($t:ty => $map:expr),*) => {$(
        impl Elem for $t {
            const ZERO: Self = 0;
            const GARBAGE: Self = 77;
            fn small(k: i32) -> Self {
                let map: fn(i32) -> i32 = $map;
                map(k) as $t
            }
        }
    )*};
}
narrow_elem!(
    i8 => |k| k % 4,
    i16 => |k| k % 4,
    u8 => |k| k.rem_euclid(4),
    u16 => |k| k.rem_euclid(4),
    u32 => |k| k.rem_euclid(4),
    u64 => |k| k.rem_euclid(4),
    usize => |k| k.rem_euclid(4)
);

/// One small value (zero included, so stored entries may be explicit zeros).
pub fn elem<V: Elem>() -> impl Strategy<Value = V> {
    (-64i32..=64).prop_map(V::small)
}

/// A dense vector of `len` small values.
pub fn dense_vec<V: Elem>(len: usize) -> impl Strategy<Value = Vec<V>> {
    vec(elem::<V>(), len)
}

/// `R` dimension sizes, each in `0..=max`.
pub fn dims<const R: usize>(max: usize) -> impl Strategy<Value = [usize; R]> {
    proptest::array::uniform::<_, R>(0..=max)
}

/// The coordinates of row-major linear index `at` in `dims`.
pub fn unravel(dims: &[usize], mut at: usize) -> Vec<usize> {
    let mut c = vec![0; dims.len()];
    for (slot, &n) in c.iter_mut().zip(dims).rev() {
        *slot = at % n;
        at /= n;
    }
    c
}

/// Entries with distinct coordinates in `dims`, at a random density from
/// empty to full, in row-major order.
pub fn entries<V: Elem>(dims: &[usize]) -> BoxedStrategy<Entries<V>> {
    let dims = dims.to_vec();
    let total: usize = dims.iter().product();
    (0u32..=4)
        .prop_flat_map(move |quarters| {
            let dims = dims.clone();
            // A slot holds an entry when its draw is below `quarters`: 0
            // and 4 give empty and full tensors, which come up often.
            vec((0u32..4, elem::<V>()), total).prop_map(move |slots| {
                slots
                    .into_iter()
                    .enumerate()
                    .filter(|(_, (draw, _))| *draw < quarters)
                    .map(|(at, (_, v))| (unravel(&dims, at), v))
                    .collect()
            })
        })
        .boxed()
}

/// Up to `max` entries whose coordinates may repeat (for nonunique COO), in
/// random order.
pub fn entries_with_duplicates<V: Elem>(dims: &[usize], max: usize) -> BoxedStrategy<Entries<V>> {
    let dims = dims.to_vec();
    let total: usize = dims.iter().product();
    if total == 0 {
        return Just(Vec::new()).boxed();
    }
    vec((0..total, elem::<V>()), 0..=max)
        .prop_map(move |v| {
            v.into_iter()
                .map(|(at, x)| (unravel(&dims, at), x))
                .collect()
        })
        .boxed()
}

/// A random shape with each size in `0..=max` and distinct entries in it.
pub fn sparse<V: Elem, const R: usize>(
    max: usize,
) -> impl Strategy<Value = ([usize; R], Entries<V>)> {
    dims::<R>(max).prop_flat_map(|d| (Just(d), entries::<V>(&d)))
}

/// A random shape with each size in `0..=max` and up to `n` entries whose
/// coordinates may repeat.
pub fn sparse_with_duplicates<V: Elem, const R: usize>(
    max: usize,
    n: usize,
) -> impl Strategy<Value = ([usize; R], Entries<V>)> {
    dims::<R>(max).prop_flat_map(move |d| (Just(d), entries_with_duplicates::<V>(&d, n)))
}
