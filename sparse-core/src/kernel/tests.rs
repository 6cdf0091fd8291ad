//! The error builders and messages, and the unchecked accessors.

use super::*;
extern crate std;
use std::string::ToString;

#[test]
fn out_of_line_builders_make_the_inline_errors() {
    static D: DimensionSite = DimensionSite {
        tensor: "x",
        dim: 0,
        index: "j",
        bound_by: "a",
        bound_dim: 1,
    };
    assert_eq!(
        dimension_mismatch(&D, 7, 8),
        KernelError::DimensionMismatch {
            tensor: "x",
            dim: 0,
            size: 7,
            index: "j",
            expected: 8,
            bound_by: "a",
            bound_dim: 1,
        }
    );
    static S: ShapeSite = ShapeSite {
        tensor: "a",
        dim: 1,
    };
    assert_eq!(
        shape_mismatch(&S, 5, 4),
        KernelError::ShapeMismatch {
            tensor: "a",
            dim: 1,
            size: 5,
            expected: 4,
        }
    );
}

#[test]
fn messages_name_tensor_dimension_and_index() {
    let e = KernelError::DimensionMismatch {
        tensor: "x",
        dim: 0,
        size: 7,
        index: "j",
        expected: 8,
        bound_by: "a",
        bound_dim: 1,
    };
    assert_eq!(
        e.to_string(),
        "dimension 0 of `x` has size 7, but index `j` has size 8 (from dimension 1 of `a`)"
    );
    let e = KernelError::ShapeMismatch {
        tensor: "a",
        dim: 1,
        size: 3,
        expected: 200,
    };
    assert_eq!(
        e.to_string(),
        "dimension 1 of `a` has size 3, but its type declares 200"
    );
}

#[test]
fn unchecked_accessors_read_and_write_in_range() {
    let crd: [u8; 3] = [4, 0, 255];
    let val = [1.5f32, 2.5];
    let mut out = [0i32; 2];
    // SAFETY: every index is below the slice's length.
    unsafe {
        assert_eq!(unchecked::load_index(&crd, 2), 255);
        assert_eq!(unchecked::load(&val, 1), 2.5);
        *unchecked::slot(&mut out, 1) += 3;
    }
    assert_eq!(out, [0, 3]);
}

/// Sizes of 2^63 and more: the error names the exact range, not one
/// capped at `i64::MAX` that would fit the dimension.
#[test]
fn subscript_ranges_past_i64_are_exact() {
    static S: SubscriptSite = SubscriptSite {
        tensor: "x",
        dim: 0,
        subscript: "i + k",
        coefficients: &[1, 1],
        constant: 0,
    };
    let huge = usize::MAX;
    let err = subscript_range(&S, &[huge, 2], huge).unwrap_err();
    assert_eq!(
        err,
        KernelError::SubscriptRange {
            tensor: "x",
            dim: 0,
            subscript: "i + k",
            min: 0,
            max: huge as i128,
            size: huge,
        }
    );
    assert!(err.to_string().contains(&std::format!("0..={huge}")));
    assert_eq!(subscript_range(&S, &[huge - 1, 2], huge), Ok(()));
}
