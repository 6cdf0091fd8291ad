//! Hostile files: repeated integer entries whose sum overflows, headers
//! that claim sizes the data does not have, skew-symmetric diagonals.
//! Each case was a panic, a silent wrap, a hang or an abort before.

extern crate std;

use crate::levels::{compressed, d0, d1, dense};
use std::string::ToString;
use std::time::Instant;

use super::*;
use crate::convert::{ConvertError, Coordinates};
use crate::encoding::Enc;

type Csr = Enc<u32, u32, (dense, compressed), (d0, d1)>;
type Dcsr = Enc<u32, u32, (compressed, compressed), (d0, d1)>;
type Dcsr64 = Enc<usize, usize, (compressed, compressed), (d0, d1)>;

fn parse_kind(e: IoError) -> (usize, usize, ParseErrorKind) {
    match e {
        IoError::Parse { line, column, kind } => (line, column, kind),
        other => panic!("expected a parse error, got {other}"),
    }
}

#[test]
fn repeated_integer_entries_that_overflow_are_an_error_naming_the_element() {
    let overflow = ConvertError::SumOverflow {
        at: Coordinates::new(&[0, 1]),
    };
    // Two i8 entries of 100 at (1, 2) (1-based): 200 does not fit.
    let mtx = "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 100\n1 2 100\n";
    match read_matrix_market::<i8, Csr, _, 2>(mtx.as_bytes()) {
        Err(IoError::Convert(e)) => assert_eq!(e, overflow),
        Err(other) => panic!("expected SumOverflow, got {other:?}"),
        Ok(_) => panic!("expected SumOverflow, got a tensor"),
    }
    // The same entries as a DCSR (staged path) and from FROSTT.
    assert!(matches!(
        read_matrix_market::<i8, Dcsr, _, 2>(mtx.as_bytes()),
        Err(IoError::Convert(e)) if e == overflow
    ));
    let tns = "2 2\n2 2\n1 2 100\n1 2 100\n";
    assert!(matches!(
        read_frostt::<i8, Csr, _, 2, 2>(tns.as_bytes()),
        Err(IoError::Convert(e)) if e == overflow
    ));
    // A symmetric file whose mirror lands on a listed entry.
    let sym = "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 100\n1 2 100\n";
    assert!(matches!(
        read_matrix_market::<i8, Csr, _, 2>(sym.as_bytes()),
        Err(IoError::Convert(ConvertError::SumOverflow { .. }))
    ));
    // Sums that fit are exact; u64 at its maximum too.
    let fits = "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 100\n1 2 27\n";
    let t = read_matrix_market::<i8, Csr, _, 2>(fits.as_bytes()).unwrap();
    assert_eq!(t.view().values(), &[127]);
    let max = "%%MatrixMarket matrix coordinate integer general\n1 1 2\n1 1 18446744073709551614\n1 1 1\n";
    let t = read_matrix_market::<u64, Csr, _, 2>(max.as_bytes()).unwrap();
    assert_eq!(t.view().values(), &[u64::MAX]);
    let past = max.replace("1 1 1\n", "1 1 2\n");
    assert!(read_matrix_market::<u64, Csr, _, 2>(past.as_bytes()).is_err());
}

#[test]
fn an_array_file_with_no_rows_costs_nothing_for_its_columns() {
    // 0 x u64-sized columns: done at once (it walked every column before).
    let start = Instant::now();
    let text = std::format!(
        "%%MatrixMarket matrix array real general\n0 {}\n",
        usize::MAX
    );
    let t = read_matrix_market::<f64, Dcsr64, _, 2>(text.as_bytes()).unwrap();
    assert_eq!(t.dim_sizes(), [0, usize::MAX]);
    assert_eq!(t.number_of_entries(), 0);
    // A value in it is one too many.
    let more = std::format!("{text}1.0\n");
    let (line, _, kind) =
        parse_kind(read_matrix_market::<f64, Dcsr64, _, 2>(more.as_bytes()).expect_err("an error"));
    assert_eq!(line, 3);
    assert!(matches!(
        kind,
        ParseErrorKind::TooManyEntries { declared: 0 }
    ));
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

#[test]
fn a_header_claiming_rows_allocates_nothing_for_sparse_rows() {
    // DCSR stores only the rows that have entries: 10^18 declared rows
    // and columns, two entries, a few bytes.
    let text = "%%MatrixMarket matrix coordinate real general\n\
                1000000000000000000 1000000000000000000 2\n\
                1 1 1.0\n1000000000000000000 7 2.0\n";
    let t = read_matrix_market::<f64, Dcsr64, _, 2>(text.as_bytes()).unwrap();
    assert_eq!(
        t.view().level(0).coordinates(),
        &[0, 999_999_999_999_999_999]
    );
    assert_eq!(t.view().values(), &[1.0, 2.0]);
}

#[test]
fn a_csr_too_large_to_allocate_is_an_error_not_an_abort() {
    // usize::MAX rows need usize::MAX + 1 positions: refused, typed.
    let text = std::format!(
        "%%MatrixMarket matrix coordinate real general\n{} 1 1\n1 1 1.0\n",
        usize::MAX
    );
    type NativeCsr = Enc<usize, usize, (dense, compressed), (d0, d1)>;
    let e = read_matrix_market::<f64, NativeCsr, _, 2>(text.as_bytes()).expect_err("an error");
    assert!(
        matches!(
            e,
            IoError::Assemble(
                crate::AssembleError::Capacity { .. } | crate::AssembleError::TooLarge { .. }
            ) | IoError::Convert(ConvertError::Capacity { .. } | ConvertError::TooLarge { .. })
        ),
        "{e:?}"
    );
    // 2^60 rows: the count fits usize, its 2^63 bytes no allocation.
    let text = "%%MatrixMarket matrix coordinate real general\n1152921504606846976 1 1\n1 1 1.0\n";
    let e = read_matrix_market::<f64, NativeCsr, _, 2>(text.as_bytes()).expect_err("an error");
    assert!(
        matches!(
            e,
            IoError::Assemble(crate::AssembleError::TooLarge { level: 1 })
        ),
        "{e:?}"
    );
    // 2^58 rows: 2^61 bytes, which Rust allows and no allocator grants.
    let text = "%%MatrixMarket matrix coordinate real general\n288230376151711744 1 1\n1 1 1.0\n";
    let e = read_matrix_market::<f64, NativeCsr, _, 2>(text.as_bytes()).expect_err("an error");
    assert!(e.to_string().contains("could not allocate"), "{e}");
}

#[test]
fn skew_symmetric_diagonal_entries_are_refused_as_at_compile_time() {
    let text = "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 3.0\n2 2 1.0\n";
    let (line, column, kind) =
        parse_kind(read_matrix_market::<f64, Csr, _, 2>(text.as_bytes()).expect_err("an error"));
    assert_eq!((line, column, kind), (4, 1, ParseErrorKind::SkewDiagonal));
    // A zero listed there is refused too: the rule is about listing.
    let zero = text.replace("2 2 1.0", "1 1 0.0");
    assert!(read_matrix_market::<f64, Csr, _, 2>(zero.as_bytes()).is_err());
}
