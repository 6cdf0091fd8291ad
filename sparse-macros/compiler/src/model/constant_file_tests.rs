//! The Matrix Market reader and value conversions of `file(..)` constants.

use super::*;

fn coo(data: FileData) -> (Vec<u64>, Vec<(Vec<u64>, Scalar)>) {
    let FileData::Coo { shape, entries } = data else {
        panic!("expected coordinate data");
    };
    let list = (0..entries.len())
        .map(|e| (entries.crd(e).to_vec(), entries.values[e]))
        .collect();
    (shape, list)
}

#[test]
fn mtx_coordinate_symmetric_mirrors_the_lower_triangle() {
    let text =
        "%%MatrixMarket matrix coordinate real symmetric\n% comment\n3 3 2\n1 1 2.5\n3 1 -1\n";
    let (shape, list) = coo(read_mtx(text, ValueType::F64, Span::call_site()).unwrap());
    assert_eq!(shape, [3, 3]);
    assert_eq!(
        list,
        [
            (vec![0, 0], Scalar::F64(2.5)),
            (vec![2, 0], Scalar::F64(-1.0)),
            (vec![0, 2], Scalar::F64(-1.0)),
        ]
    );
}

#[test]
fn mtx_skew_negates_and_pattern_is_one() {
    let text = "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n";
    let (_, list) = coo(read_mtx(text, ValueType::I32, Span::call_site()).unwrap());
    assert_eq!(
        list,
        [(vec![1, 0], Scalar::Int(3)), (vec![0, 1], Scalar::Int(-3))]
    );
    let text = "%%MatrixMarket matrix coordinate pattern general\n2 3 1\n2 3\n";
    let (shape, list) = coo(read_mtx(text, ValueType::F32, Span::call_site()).unwrap());
    assert_eq!(shape, [2, 3]);
    assert_eq!(list, [(vec![1, 2], Scalar::F32(1.0))]);
}

/// The elements of an `array` file, row-major, zeros filled in.
fn array(text: &str) -> (Vec<u64>, Vec<Scalar>) {
    let FileData::Array { shape, entries } =
        read_mtx(text, ValueType::F64, Span::call_site()).unwrap()
    else {
        panic!("expected array data");
    };
    let mut dense = vec![Scalar::F64(0.0); (shape[0] * shape[1]) as usize];
    for e in 0..entries.len() {
        let c = entries.crd(e);
        dense[(c[0] * shape[1] + c[1]) as usize] = entries.values[e];
    }
    (shape, dense)
}

#[test]
fn mtx_array_is_column_major() {
    let text = "%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n";
    let (shape, v) = array(text);
    assert_eq!(shape, [2, 3]);
    let want = [1.0, 3.0, 5.0, 2.0, 4.0, 6.0].map(Scalar::F64);
    assert_eq!(v, want);
    // Zeros are left out of the entries, `-0.0` is kept.
    let text = "%%MatrixMarket matrix array real general\n2 2\n0\n-0.0\n0.0\n2\n";
    let FileData::Array { entries, .. } =
        read_mtx(text, ValueType::F64, Span::call_site()).unwrap()
    else {
        panic!("expected array data");
    };
    assert_eq!(entries.values, [Scalar::F64(-0.0), Scalar::F64(2.0)]);
    // Symmetric and skew-symmetric arrays mirror the lower triangle.
    let sym = "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n";
    assert_eq!(array(sym).1, [1.0, 2.0, 2.0, 3.0].map(Scalar::F64));
    let skew = "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n";
    assert_eq!(
        array(skew).1,
        [0.0, -1.0, -2.0, 1.0, 0.0, -3.0, 2.0, 3.0, 0.0].map(Scalar::F64)
    );
}

/// Sizes a header claims cost nothing before values back them: no
/// `rows x cols` allocation, no walk over the columns of an array with
/// no rows; what cannot be a constant is refused with the reason.
#[test]
fn mtx_array_headers_claiming_sizes_are_refused_at_once() {
    let start = std::time::Instant::now();
    let err = |text: &str| match read_mtx(text, ValueType::F32, Span::call_site()) {
        Err(m) => m,
        Ok(_) => panic!("expected an error for {text:?}"),
    };
    let none = format!("%%MatrixMarket matrix array real general\n0 {}\n", u64::MAX);
    assert!(err(&none).contains("too large"), "{}", err(&none));
    let huge = "%%MatrixMarket matrix array real general\n65536 65536\n1.0\n";
    assert!(err(huge).starts_with("line 2: a dense file of shape 65536x65536 is too large"));
    // Within the limit, a short file is an error naming what is missing.
    let short = "%%MatrixMarket matrix array real general\n1024 1024\n1.0\n";
    assert!(err(short).contains("ends early"));
    // 0 x n within the limit is read (an empty array).
    let empty = "%%MatrixMarket matrix array real general\n0 1000\n";
    let (shape, v) = array(empty);
    assert_eq!((shape, v.len()), (vec![0, 1000], 0));
    assert!(start.elapsed().as_secs() < 5);
}

#[test]
fn mtx_errors_name_the_line() {
    let err = |text: &str, elem| match read_mtx(text, elem, Span::call_site()) {
        Err(m) => m,
        Ok(_) => panic!("expected an error for {text:?}"),
    };
    let base = "%%MatrixMarket matrix coordinate real general\n2 2 1\n";
    assert_eq!(
        err(&format!("{base}3 1 1.0\n"), ValueType::F64),
        "line 3: row 3 is outside 1..=2 (Matrix Market is 1-based)"
    );
    assert!(err(&format!("{base}1 1 x\n"), ValueType::F64).starts_with("line 3: expected a real"));
    assert!(err(&format!("{base}1 1 1.5\n"), ValueType::I32).contains("real values"));
    assert!(err(base, ValueType::F64).contains("announces 1 entries but the file has 0"));
    assert!(err(
        "%%MatrixMarket matrix coordinate complex general\n",
        ValueType::F64
    )
    .contains("unsupported field `complex`"));
}
