//! Matrix Market and FROSTT files of complex and half-precision elements:
//! `complex` fields (general and hermitian, coordinate and array), real
//! files read into complex and half types, writes read back unchanged,
//! and the errors of a complex file read into a real type.

use sparse_core::half::f16;
use sparse_core::io::{
    read_frostt, read_matrix_market, write_frostt, write_matrix_market, IoError,
};
use sparse_core::num_complex::Complex;
use sparse_core::SparseTensor;

type C64 = Complex<f64>;

mod k {
    use sparse_core::levels::{compressed, d0, d1, d2, dense, nonunique, singleton};
    use sparse_core::Enc;

    pub type CsrEnc = Enc<u32, u32, (dense, compressed), (d0, d1)>;
    pub type Coo3Enc =
        Enc<usize, usize, (compressed<nonunique>, singleton<nonunique>, singleton), (d0, d1, d2)>;
}

fn entries<V: Copy, E: sparse_core::Encoding, const L: usize>(
    t: &SparseTensor<'_, V, E, 2, L>,
) -> Vec<([usize; 2], V)> {
    let mut out = Vec::new();
    t.for_each(|c, v| out.push((c, *v)));
    out
}

#[test]
fn complex_coordinate_files_read_write_and_read_back() {
    let text = "%%MatrixMarket matrix coordinate complex general\n% a comment\n3 4 3\n\
                1 1 1.5 -2\n2 4 0 1\n3 2 -0.25 0.5\n";
    let a = read_matrix_market::<C64, k::CsrEnc, _, 2>(text.as_bytes()).unwrap();
    let want = vec![
        ([0, 0], C64::new(1.5, -2.0)),
        ([1, 3], C64::new(0.0, 1.0)),
        ([2, 1], C64::new(-0.25, 0.5)),
    ];
    assert_eq!(entries(&a.view()), want);
    let mut written = Vec::new();
    write_matrix_market(&a.view(), &mut written).unwrap();
    let written = String::from_utf8(written).unwrap();
    assert!(
        written
            .starts_with("%%MatrixMarket matrix coordinate complex general\n3 4 3\n1 1 1.5 -2\n"),
        "{written}"
    );
    let b = read_matrix_market::<C64, k::CsrEnc, _, 2>(written.as_bytes()).unwrap();
    assert_eq!(entries(&b.view()), want);
}

#[test]
fn hermitian_files_mirror_the_conjugate() {
    let text = "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 3 0\n2 1 1 2\n";
    let a = read_matrix_market::<C64, k::CsrEnc, _, 2>(text.as_bytes()).unwrap();
    assert_eq!(
        entries(&a.view()),
        vec![
            ([0, 0], C64::new(3.0, 0.0)),
            ([0, 1], C64::new(1.0, -2.0)),
            ([1, 0], C64::new(1.0, 2.0)),
        ]
    );
    let array = "%%MatrixMarket matrix array complex hermitian\n2 2\n3 0\n1 2\n4 0\n";
    let b = read_matrix_market::<C64, k::CsrEnc, _, 2>(array.as_bytes()).unwrap();
    assert_eq!(entries(&b.view()).len(), 4);
    assert_eq!(entries(&b.view())[1], ([0, 1], C64::new(1.0, -2.0)));
}

#[test]
fn real_files_read_into_complex_and_half_types() {
    let text = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 0.1\n2 1 -3\n";
    let a = read_matrix_market::<C64, k::CsrEnc, _, 2>(text.as_bytes()).unwrap();
    assert_eq!(a.view().values(), [C64::new(0.1, 0.0), C64::new(-3.0, 0.0)]);
    let h = read_matrix_market::<f16, k::CsrEnc, _, 2>(text.as_bytes()).unwrap();
    assert_eq!(h.view().values(), [f16::from_f64(0.1), f16::from_f32(-3.0)]);
    let mut written = Vec::new();
    write_matrix_market(&h.view(), &mut written).unwrap();
    let back = read_matrix_market::<f16, k::CsrEnc, _, 2>(written.as_slice()).unwrap();
    assert_eq!(back.view().values(), h.view().values());
}

#[test]
fn a_complex_file_into_a_real_type_is_an_error_at_the_value() {
    let text = "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 1\n";
    let Err(e) = read_matrix_market::<f64, k::CsrEnc, _, 2>(text.as_bytes()) else {
        panic!("a complex file read into f64");
    };
    assert!(
        matches!(
            e,
            IoError::Parse {
                line: 3,
                column: 5,
                ..
            }
        ),
        "{e}"
    );
    let short = "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1\n";
    let Err(e) = read_matrix_market::<C64, k::CsrEnc, _, 2>(short.as_bytes()) else {
        panic!("a complex value without its imaginary part");
    };
    assert!(e.to_string().contains("imaginary part"), "{e}");
}

#[test]
fn frostt_complex_round_trip() {
    let text = "3 2\n2 3 4\n1 1 1 0.5 -1\n2 3 4 2 0\n";
    let a = read_frostt::<C64, k::Coo3Enc, _, 3, 3>(text.as_bytes()).unwrap();
    assert_eq!(a.view().values(), [C64::new(0.5, -1.0), C64::new(2.0, 0.0)]);
    let mut written = Vec::new();
    write_frostt(&a.view(), &mut written).unwrap();
    let b = read_frostt::<C64, k::Coo3Enc, _, 3, 3>(written.as_slice()).unwrap();
    assert_eq!(b.view().values(), a.view().values());
}
