//! Decoding an `explicitVal` from its code into the tensor's element type.
//!
//! `SparseTensor<V, E>` puts no bound on `V` (outputs, tests and user code
//! are generic over it), yet a pattern tensor must hand out a `V` made from
//! `E::VALUES`. So the decoding picks the Rust type the code's tag names,
//! builds that value, and moves it into `V` only if `V` is that very type;
//! otherwise the caller gets `None` and `assemble` a typed error. Nothing
//! about `V` is assumed, and no bound leaks into the API.

use core::any::TypeId;
use core::marker::PhantomData;
use core::mem::ManuallyDrop;

use crate::vocab::{values_at, ExplicitValue, ValueType, Values};

mod sealed {
    pub trait Sealed {}
}

/// The Rust types an `explicitVal` can have.
pub(crate) trait Element: sealed::Sealed + Copy + 'static {
    /// The tag its code records.
    const TYPE: ValueType;
    /// The value of `bits` (see [`ExplicitValue`]); `None` if it does not
    /// fit (an `index` above this target's `usize::MAX`).
    fn from_bits(bits: u64) -> Option<Self>;
}

macro_rules! element {
    ($($t:ty => $ty:ident, |$b:ident| $from:expr;)*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const TYPE: ValueType = ValueType::$ty;
            #[inline(always)]
            fn from_bits($b: u64) -> Option<Self> {
                $from
            }
        }
    )*};
}

// Truncating casts undo `ExplicitValue::int`'s zero-extension: the code's
// bits above the width are 0 (checked by `values_at`).
element! {
    f32 => F32, |b| Some(f32::from_bits(b as u32));
    f64 => F64, |b| Some(f64::from_bits(b));
    i8 => I8, |b| Some(b as u8 as i8);
    i16 => I16, |b| Some(b as u16 as i16);
    i32 => I32, |b| Some(b as u32 as i32);
    i64 => I64, |b| Some(b as i64);
    u8 => U8, |b| Some(b as u8);
    u16 => U16, |b| Some(b as u16);
    u32 => U32, |b| Some(b as u32);
    u64 => U64, |b| Some(b);
    bool => Bool, |b| Some(b != 0);
    usize => Index, |b| usize::try_from(b).ok();
}

/// Why a `VALUES` code gives no `V`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Undecodable {
    /// `V` is not the code's element type.
    Type(ValueType),
    /// The code is invalid, or its `index` value does not fit `usize`.
    Invalid,
}

/// The `explicitVal` of a `VALUES` code as a `V`: `Ok(None)` for code 0
/// (stored values).
pub(crate) fn decode<V>(code: u128) -> Result<Option<V>, Undecodable> {
    let x = match values_at(code) {
        Values::Stored => return Ok(None),
        Values::Invalid => return Err(Undecodable::Invalid),
        Values::Explicit(x) => x,
    };
    match x.ty {
        ValueType::F32 => as_v::<f32, V>(x),
        ValueType::F64 => as_v::<f64, V>(x),
        ValueType::I8 => as_v::<i8, V>(x),
        ValueType::I16 => as_v::<i16, V>(x),
        ValueType::I32 => as_v::<i32, V>(x),
        ValueType::I64 => as_v::<i64, V>(x),
        ValueType::U8 => as_v::<u8, V>(x),
        ValueType::U16 => as_v::<u16, V>(x),
        ValueType::U32 => as_v::<u32, V>(x),
        ValueType::U64 => as_v::<u64, V>(x),
        ValueType::Bool => as_v::<bool, V>(x),
        ValueType::Index => as_v::<usize, V>(x),
        // `values_at` decodes no code of a type that does not pack.
        ValueType::F16 | ValueType::BF16 | ValueType::Complex32 | ValueType::Complex64 => {
            Err(Undecodable::Invalid)
        }
    }
    .map(Some)
}

fn as_v<T: Element, V>(x: ExplicitValue) -> Result<V, Undecodable> {
    if type_id_of::<V>() != TypeId::of::<T>() {
        return Err(Undecodable::Type(T::TYPE));
    }
    let t = T::from_bits(x.bits).ok_or(Undecodable::Invalid)?;
    let t = ManuallyDrop::new(t);
    // SAFETY: `V` has the type id of `T`. Type ids ignore lifetimes only,
    // and `T` (a primitive) has none, so `V` is `T`: reading a `T` as a
    // `V` is reading a `T`. `t` is not dropped (nor needs to be: `T: Copy`).
    Ok(unsafe { core::mem::transmute_copy::<T, V>(&t) })
}

/// `v` as a `&T` if `V` is `T` (a type without lifetimes), else `None`:
/// how the printer finds complex values behind a `V: Display`.
#[cfg(feature = "complex")]
pub(crate) fn downcast_ref<V, T: 'static>(v: &V) -> Option<&T> {
    if type_id_of::<V>() != TypeId::of::<T>() {
        return None;
    }
    // SAFETY: `V` has the type id of `T`, which has no lifetimes, so `V`
    // is `T` (see `as_v`): the reference points to a `T`.
    Some(unsafe { &*(v as *const V).cast::<T>() })
}

/// `TypeId::of::<V>()` for a `V` that may not be `'static`, with its
/// lifetimes taken as `'static` (the technique of the `typeid` crate).
/// Sound for comparing against a type without lifetimes: no type with a
/// lifetime parameter has the id of one without.
fn type_id_of<V>() -> TypeId {
    trait NonStaticAny {
        fn get_type_id(&self) -> TypeId
        where
            Self: 'static;
    }
    impl<T: ?Sized> NonStaticAny for PhantomData<T> {
        fn get_type_id(&self) -> TypeId
        where
            Self: 'static,
        {
            TypeId::of::<T>()
        }
    }
    let phantom = PhantomData::<V>;
    let erased: &dyn NonStaticAny = &phantom;
    // SAFETY: only the lifetime bound of the trait object changes; the
    // method reads no data (a `PhantomData`) and lifetimes do not exist at
    // run time, so calling it as `'static` is the same call.
    let erased: &(dyn NonStaticAny + 'static) =
        unsafe { core::mem::transmute::<&dyn NonStaticAny, &(dyn NonStaticAny + 'static)>(erased) };
    erased.get_type_id()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(ty: ValueType, v: i128) -> u128 {
        ExplicitValue::int(ty, v).pack()
    }

    #[test]
    fn every_type_decodes_its_own_code_only() {
        assert_eq!(decode::<i64>(code(ValueType::I64, -3)), Ok(Some(-3i64)));
        assert_eq!(decode::<i8>(code(ValueType::I8, -128)), Ok(Some(-128i8)));
        assert_eq!(
            decode::<u16>(code(ValueType::U16, 65535)),
            Ok(Some(65535u16))
        );
        assert_eq!(decode::<bool>(code(ValueType::Bool, 1)), Ok(Some(true)));
        assert_eq!(decode::<usize>(code(ValueType::Index, 9)), Ok(Some(9usize)));
        let f = ExplicitValue::float(ValueType::F32, -2.5).pack();
        assert_eq!(decode::<f32>(f), Ok(Some(-2.5f32)));
        let d = ExplicitValue::float(ValueType::F64, 0.1).pack();
        assert_eq!(decode::<f64>(d), Ok(Some(0.1f64)));
        // Same bits, other type: refused, never reinterpreted.
        assert_eq!(
            decode::<f64>(code(ValueType::I64, 1)),
            Err(Undecodable::Type(ValueType::I64))
        );
        assert_eq!(
            decode::<u64>(code(ValueType::I64, 1)),
            Err(Undecodable::Type(ValueType::I64))
        );
        assert_eq!(
            decode::<&str>(code(ValueType::I64, 1)),
            Err(Undecodable::Type(ValueType::I64))
        );
        assert_eq!(decode::<i64>(0), Ok(None));
        assert_eq!(decode::<i64>(7), Err(Undecodable::Invalid));
    }

    #[test]
    fn type_ids_of_borrowed_types_differ_from_primitives() {
        assert_ne!(type_id_of::<&u8>(), TypeId::of::<u8>());
        assert_eq!(type_id_of::<u8>(), TypeId::of::<u8>());
    }
}
