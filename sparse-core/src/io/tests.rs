//! Unit tests of the file formats: every kind of file the readers accept,
//! every error with its line and column.

extern crate std;

use crate::levels::{compressed, d0, d1, d2, dense};
use std::string::String;
use std::vec::Vec;

use super::*;
use crate::convert::to_dense;
use crate::encoding::Enc;

type Csr = Enc<u8, u8, (dense, compressed), (d0, d1)>;
type Csc = Enc<u8, u8, (dense, compressed), (d1, d0)>;
type Csf = Enc<u16, u16, (compressed, compressed, compressed), (d0, d1, d2)>;

fn mtx<V: FileValue + core::ops::Add<Output = V>>(text: &str) -> Result<Vec<V>, IoError> {
    let t = read_matrix_market::<V, Csc, _, 2>(text.as_bytes())?;
    let [m, n] = t.dim_sizes();
    let mut d = std::vec![V::default(); m * n];
    to_dense(&t.view(), &mut d)?;
    Ok(d)
}

fn parse_error(e: IoError) -> (usize, usize, ParseErrorKind) {
    match e {
        IoError::Parse { line, column, kind } => (line, column, kind),
        other => panic!("expected a parse error, got {other}"),
    }
}

#[test]
fn coordinate_files_of_every_field_and_symmetry() {
    let general =
        "%%MatrixMarket matrix coordinate real general\n% c\n\n2 3 3\n1 1 1.5\n2 3 -2e0\n1 1 1\n";
    assert_eq!(
        mtx::<f64>(general).unwrap(),
        [2.5, 0.0, 0.0, 0.0, 0.0, -2.0]
    );
    let symmetric = "%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 7\n3 3 1\n";
    assert_eq!(mtx::<i32>(symmetric).unwrap(), [0, 7, 0, 7, 0, 0, 0, 0, 1]);
    let skew = "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n";
    assert_eq!(mtx::<i64>(skew).unwrap(), [0, -3, 3, 0]);
    let hermitian = "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n2 1 0.5\n";
    assert_eq!(mtx::<f32>(hermitian).unwrap(), [0.0, 0.5, 0.5, 0.0]);
    let pattern = "%%matrixmarket MATRIX Coordinate Pattern General\n2 2 2\n1 2\n2 1\n";
    assert_eq!(mtx::<u8>(pattern).unwrap(), [0, 1, 1, 0]);
}

#[test]
fn array_files_are_column_major_and_drop_zeros() {
    let general = "%%MatrixMarket matrix array real general\n2 3\n1\n0\n0\n4\n5\n0\n";
    assert_eq!(mtx::<f64>(general).unwrap(), [1.0, 0.0, 5.0, 0.0, 4.0, 0.0]);
    let t = read_matrix_market::<f64, Csr, _, 2>(general.as_bytes()).unwrap();
    assert_eq!(t.number_of_entries(), 3);
    let symmetric = "%%MatrixMarket matrix array integer symmetric\n2 2\n1\n2\n3\n";
    assert_eq!(mtx::<i32>(symmetric).unwrap(), [1, 2, 2, 3]);
    let skew = "%%MatrixMarket matrix array integer skew-symmetric\n3 3\n1\n2\n3\n";
    assert_eq!(mtx::<i32>(skew).unwrap(), [0, -1, -2, 1, 0, -3, 2, 3, 0]);
    let empty = "%%MatrixMarket matrix array real general\n0 4\n";
    assert_eq!(mtx::<f64>(empty).unwrap(), Vec::<f64>::new());
}

#[test]
fn malformed_matrix_market_files_name_line_and_column() {
    let cases: [(&str, usize, usize, ParseErrorKind); 15] = [
        ("", 1, 1, ParseErrorKind::MissingBanner),
        (
            "%%Matrix matrix coordinate real general\n",
            1,
            1,
            ParseErrorKind::MissingBanner,
        ),
        (
            "%%MatrixMarket matrix coordinate quaternion general\n",
            1,
            34,
            ParseErrorKind::Unsupported {
                what: "field",
                found: "quaternion".into(),
            },
        ),
        // A `complex` file is read (into complex types); its values do not
        // fit a real type, an error at the value.
        (
            "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1.0 2.0\n",
            3,
            5,
            ParseErrorKind::BadValue,
        ),
        (
            "%%MatrixMarket matrix coordinate pattern skew-symmetric\n",
            1,
            42,
            ParseErrorKind::Unsupported {
                what: "symmetry",
                found: "skew-symmetric".into(),
            },
        ),
        (
            "%%MatrixMarket vector coordinate real general\n",
            1,
            16,
            ParseErrorKind::Unsupported {
                what: "object",
                found: "vector".into(),
            },
        ),
        (
            "%%MatrixMarket matrix coordinate real\n",
            1,
            38,
            ParseErrorKind::MissingToken {
                expected: "a symmetry (general, symmetric, skew-symmetric or hermitian)",
            },
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n",
            2,
            1,
            ParseErrorKind::UnexpectedEnd {
                expected: "the size line",
            },
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 x 1\n",
            2,
            3,
            ParseErrorKind::NotAnInteger,
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 1\n0 1 1.0\n",
            3,
            1,
            ParseErrorKind::ZeroCoordinate,
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 1\n1  -1 1.0\n",
            3,
            4,
            ParseErrorKind::NegativeCoordinate,
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 3 1.0\n",
            3,
            3,
            ParseErrorKind::CoordinateOutOfRange {
                dim: 1,
                coordinate: 3,
                size: 2,
            },
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n",
            4,
            1,
            ParseErrorKind::UnexpectedEnd {
                expected: "another entry",
            },
        ),
        (
            "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1.0\n2 2 1\n",
            4,
            1,
            ParseErrorKind::TooManyEntries { declared: 1 },
        ),
        (
            "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n",
            2,
            1,
            ParseErrorKind::NotSquare,
        ),
    ];
    for (text, line, column, kind) in cases {
        let e = parse_error(mtx::<f64>(text).unwrap_err());
        assert_eq!(e, (line, column, kind), "{text:?}");
    }
    // Values that do not fit the element type.
    let frac = "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 0.5\n";
    assert_eq!(
        parse_error(mtx::<i32>(frac).unwrap_err()),
        (3, 5, ParseErrorKind::BadValue)
    );
    let big = "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 300\n";
    assert_eq!(
        parse_error(mtx::<u8>(big).unwrap_err()),
        (3, 5, ParseErrorKind::BadValue)
    );
    let unsigned_skew = "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n";
    assert_eq!(
        parse_error(mtx::<u32>(unsigned_skew).unwrap_err()),
        (3, 5, ParseErrorKind::BadValue)
    );
    let extra = "%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1 1\n";
    assert_eq!(
        parse_error(mtx::<f64>(extra).unwrap_err()),
        (3, 5, ParseErrorKind::ExtraToken)
    );
    let too_many = "%%MatrixMarket matrix array real general\n1 1\n1\n2\n";
    assert_eq!(
        parse_error(mtx::<f64>(too_many).unwrap_err()),
        (4, 1, ParseErrorKind::TooManyEntries { declared: 1 })
    );
}

#[test]
fn widths_of_the_encoding_are_checked() {
    // 300 columns do not fit CSC's u8 coordinates... of rows: 300 rows do.
    let wide = "%%MatrixMarket matrix coordinate real general\n300 1 1\n300 1 1\n";
    assert!(matches!(mtx::<f64>(wide), Err(IoError::Assemble(_))));
}

#[test]
fn frostt_extended_and_plain() {
    let ext = "# comment\n3 3\n2 2 2\n1 1 1 1\n2 2 2 2\n1 1 1 3\n";
    let t = read_frostt::<i32, Csf, _, 3, 3>(ext.as_bytes()).unwrap();
    assert_eq!(t.dim_sizes(), [2, 2, 2]);
    assert_eq!(t.view().values(), &[4, 2]);
    let plain = "1 2 3 1.5\n\n2 1 1 2.5\n";
    let t = read_frostt::<f64, Csf, _, 3, 3>(plain.as_bytes()).unwrap();
    assert_eq!(t.dim_sizes(), [2, 2, 3]);
    assert_eq!(t.view().values(), &[1.5, 2.5]);
    let mut out = Vec::new();
    write_frostt(&t.view(), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "3 2\n2 2 3\n1 2 3 1.5\n2 1 1 2.5\n"
    );

    let bad: [(&str, usize, usize, ParseErrorKind); 6] = [
        (
            "2 1\n",
            1,
            1,
            ParseErrorKind::RankMismatch {
                found: 2,
                expected: 3,
            },
        ),
        (
            "3 1\n2 2\n",
            2,
            4,
            ParseErrorKind::MissingToken {
                expected: "a dimension size",
            },
        ),
        (
            "3 1\n2 2 2\n1 1 3 1\n",
            3,
            5,
            ParseErrorKind::CoordinateOutOfRange {
                dim: 2,
                coordinate: 3,
                size: 2,
            },
        ),
        ("3 1\n2 2 2\n1 1 1 x\n", 3, 7, ParseErrorKind::BadValue),
        (
            "3 2\n2 2 2\n1 1 1 1\n",
            4,
            1,
            ParseErrorKind::UnexpectedEnd {
                expected: "another entry",
            },
        ),
        ("1 2 0 1\n", 1, 5, ParseErrorKind::ZeroCoordinate),
    ];
    for (text, line, column, kind) in bad {
        let Err(e) = read_frostt::<f64, Csf, _, 3, 3>(text.as_bytes()) else {
            panic!("{text:?} was accepted");
        };
        let e = parse_error(e);
        assert_eq!(e, (line, column, kind), "{text:?}");
    }
}

#[test]
fn written_files_read_back() {
    let text = "%%MatrixMarket matrix coordinate integer general\n3 2 3\n3 1 -4\n1 2 5\n2 2 6\n";
    let t = read_matrix_market::<i64, Csr, _, 2>(text.as_bytes()).unwrap();
    let mut out = Vec::new();
    write_matrix_market(&t.view(), &mut out).unwrap();
    let written = String::from_utf8(out).unwrap();
    assert_eq!(
        written,
        "%%MatrixMarket matrix coordinate integer general\n3 2 3\n1 2 5\n2 2 6\n3 1 -4\n"
    );
    let again = read_matrix_market::<i64, Csr, _, 2>(written.as_bytes()).unwrap();
    assert_eq!(again.view().values(), t.view().values());
}
