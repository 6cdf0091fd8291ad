//! The evaluator's integer and conversion rules against Rust's own
//! operations on the native types (what the generated kernels run):
//! `wrapping_*`, `sparse_core::math`'s rules written out, `as`.

use proptest::prelude::*;

use super::{cast, ordered, saturate, shift, wrap, wrap_mul};
use crate::model::{Scalar, ValueType};

fn int(s: Scalar) -> i128 {
    match s {
        Scalar::Int(v) => v,
        other => panic!("not an integer: {other:?}"),
    }
}

proptest! {
    #[test]
    fn i8_arithmetic_wraps_as_rust(a in any::<i8>(), b in any::<i8>()) {
        let t = ValueType::I8;
        let (x, y) = (i128::from(a), i128::from(b));
        prop_assert_eq!(wrap(x + y, t), i128::from(a.wrapping_add(b)));
        prop_assert_eq!(wrap(x - y, t), i128::from(a.wrapping_sub(b)));
        prop_assert_eq!(wrap_mul(x, y, t), i128::from(a.wrapping_mul(b)));
        let q = if b == 0 { 0 } else { a.wrapping_div(b) };
        prop_assert_eq!(wrap(if y == 0 { 0 } else { x / y }, t), i128::from(q));
    }

    #[test]
    fn u64_and_i64_arithmetic_wraps_as_rust(a in any::<u64>(), b in any::<u64>(), c in any::<i64>(), d in any::<i64>()) {
        let (x, y) = (i128::from(a), i128::from(b));
        prop_assert_eq!(wrap(x + y, ValueType::U64), i128::from(a.wrapping_add(b)));
        prop_assert_eq!(wrap(x - y, ValueType::U64), i128::from(a.wrapping_sub(b)));
        prop_assert_eq!(wrap_mul(x, y, ValueType::U64), i128::from(a.wrapping_mul(b)));
        let (x, y) = (i128::from(c), i128::from(d));
        prop_assert_eq!(wrap_mul(x, y, ValueType::I64), i128::from(c.wrapping_mul(d)));
        prop_assert_eq!(wrap(-x, ValueType::I64), i128::from(c.wrapping_neg()));
    }

    #[test]
    fn shifts_take_the_amount_modulo_the_width(a in any::<i32>(), u in any::<u16>(), n in any::<i32>()) {
        let amount = i128::from(n);
        prop_assert_eq!(shift(true, i128::from(a), amount, ValueType::I32), i128::from(a.wrapping_shl(n as u32)));
        prop_assert_eq!(shift(false, i128::from(a), amount, ValueType::I32), i128::from(a.wrapping_shr(n as u32)));
        prop_assert_eq!(shift(true, i128::from(u), amount, ValueType::U16), i128::from(u.wrapping_shl(n as u32)));
        prop_assert_eq!(shift(false, i128::from(u), amount, ValueType::U16), i128::from(u.wrapping_shr(n as u32)));
    }

    #[test]
    fn casts_convert_as_rust(a in any::<i64>(), f in any::<f64>(), g in any::<f32>()) {
        let v = Scalar::Int(i128::from(a));
        prop_assert_eq!(int(cast(v, ValueType::I8).unwrap()), i128::from(a as i8));
        prop_assert_eq!(int(cast(v, ValueType::U16).unwrap()), i128::from(a as u16));
        prop_assert_eq!(cast(v, ValueType::F32).unwrap(), Scalar::F32(a as f32));
        prop_assert_eq!(cast(v, ValueType::F64).unwrap(), Scalar::F64(a as f64));
        prop_assert_eq!(saturate(f, ValueType::I32), i128::from(f as i32));
        prop_assert_eq!(saturate(f, ValueType::U8), i128::from(f as u8));
        prop_assert_eq!(saturate(f, ValueType::U64), i128::from(f as u64));
        prop_assert_eq!(saturate(f64::from(g), ValueType::I64), i128::from(g as i64));
        let back = cast(Scalar::F64(f), ValueType::F32).unwrap();
        prop_assert_eq!(back.describe(), Scalar::F32(f as f32).describe());
    }

    #[test]
    fn min_and_max_are_sparse_cores(a in any::<f32>(), b in any::<f32>()) {
        let max = ordered(true, Scalar::F32(a), Scalar::F32(b)).unwrap();
        let min = ordered(false, Scalar::F32(a), Scalar::F32(b)).unwrap();
        prop_assert_eq!(max.describe(), Scalar::F32(a.max(b)).describe());
        prop_assert_eq!(min.describe(), Scalar::F32(a.min(b)).describe());
    }
}

#[test]
fn edges_by_hand() {
    assert_eq!(
        wrap(i128::from(i32::MIN) / -1, ValueType::I32),
        i128::from(i32::MIN)
    );
    assert_eq!(saturate(f64::NAN, ValueType::I16), 0);
    assert_eq!(
        saturate(f64::INFINITY, ValueType::U32),
        i128::from(u32::MAX)
    );
    assert_eq!(saturate(-1.5, ValueType::U8), 0);
    assert_eq!(saturate(-1.5, ValueType::I8), -1);
    assert_eq!(shift(true, 1, 33, ValueType::I32), 2);
    assert_eq!(shift(false, -128, -1, ValueType::I8), -1);
    assert_eq!(wrap(1, ValueType::Bool), 1);
}
