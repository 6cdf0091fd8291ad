//! Files: Matrix Market and FROSTT round trips (file → tensor → file),
//! symmetric and array files against their dense meaning, corrupted
//! coordinates located by line and column.

use sparse_core::levels::{compressed, d0, d1, d2, nonunique, singleton};
use std::io::BufReader;

use proptest::prelude::*;
use sparse_core::io::{
    read_frostt, read_matrix_market, write_frostt, write_matrix_market, IoError, ParseErrorKind,
};
use sparse_core::{Enc, StoresValues};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{self, with_tensor};
use sparse_tests::gen::{sparse, Entries};

use super::common::*;

type Csf = Enc<u16, u16, (compressed, compressed, compressed), (d0, d1, d2)>;
type Coo3 =
    Enc<usize, usize, (compressed<nonunique>, singleton<nonunique>, singleton), (d2, d0, d1)>;

/// The file's dense meaning, read as `T`.
fn read_as<T: StoresValues, const L: usize>(text: &str) -> Result<Vec<i64>, IoError> {
    let t = read_matrix_market::<i64, T, _, L>(text.as_bytes())?;
    Ok(revalidated(&t.view()))
}

fn mtx_of(dims: [usize; 2], e: &Entries<i64>) -> String {
    let mut s = format!(
        "%%MatrixMarket matrix coordinate integer general\n% written by the test\n{} {} {}\n",
        dims[0],
        dims[1],
        e.len()
    );
    for (c, v) in e {
        s += &format!("{} {} {}\n", c[0] + 1, c[1] + 1, v);
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A file read into any encoding means the same matrix; written back
    /// from a CSR read, it is the CSR-ordered file, which reads back to the
    /// same buffers.
    #[test]
    fn matrix_market_round_trips((dims, e) in sparse::<i64, 2>(6)) {
        let text = mtx_of(dims, &e);
        let expected = Dense::from_entries(&dims, &e).data;
        for got in [
            read_as::<Csr, 2>(&text),
            read_as::<Csc, 2>(&text),
            read_as::<Dcsc, 2>(&text),
            read_as::<Coo, 2>(&text),
            read_as::<CooSoa, 2>(&text),
            read_as::<Bsr22, 4>(&text),
            read_as::<LooseCols, 2>(&text),
        ] {
            prop_assert_eq!(got.map_err(|e| TestCaseError::fail(e.to_string()))?, expected.clone());
        }
        let csr = read_matrix_market::<i64, Csr, _, 2>(text.as_bytes()).unwrap();
        let mut out = Vec::new();
        write_matrix_market(&csr.view(), &mut out).unwrap();
        let written = String::from_utf8(out).unwrap();
        let again = read_matrix_market::<i64, Csr, _, 2>(written.as_bytes()).unwrap();
        prop_assert_eq!(buffers(&again.view()), buffers(&csr.view()));
        let mut out2 = Vec::new();
        write_matrix_market(&again.view(), &mut out2).unwrap();
        prop_assert_eq!(String::from_utf8(out2).unwrap(), written);
        // Storage order of another encoding: the same matrix.
        with_tensor::<i64, Csc, 2, 2, _>(&fixture::CSC, dims, &e, |a| {
            let mut out = Vec::new();
            write_matrix_market(a, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            prop_assert_eq!(read_as::<Dcsr, 2>(&text).unwrap(), expected.clone());
            Ok(())
        })?;
    }

    /// Symmetric and skew-symmetric files mean their mirrored matrix.
    #[test]
    fn symmetric_files_are_expanded((dims, e) in sparse::<i64, 2>(5), skew in any::<bool>()) {
        let n = dims[0];
        let lower: Entries<i64> = e
            .into_iter()
            .filter(|(c, _)| c[1] < n && (c[1] < c[0] || (!skew && c[1] == c[0])))
            .collect();
        let kind = if skew { "skew-symmetric" } else { "symmetric" };
        let mut text = format!("%%MatrixMarket matrix coordinate integer {kind}\n{n} {n} {}\n", lower.len());
        let mut full = Dense::<i64>::zeros(&[n, n]);
        for (c, v) in &lower {
            text += &format!("{} {} {}\n", c[0] + 1, c[1] + 1, v);
            *full.at_mut(&[c[0], c[1]]) += v;
            if c[0] != c[1] {
                *full.at_mut(&[c[1], c[0]]) += if skew { -v } else { *v };
            }
        }
        prop_assert_eq!(read_as::<Csr, 2>(&text).unwrap(), full.data.clone());
        prop_assert_eq!(read_as::<Dcsc, 2>(&text).unwrap(), full.data);
    }

    /// Array files: column-major values, zeros not stored.
    #[test]
    fn array_files_drop_zeros((dims, e) in sparse::<i64, 2>(5)) {
        let d = Dense::from_entries(&dims, &e);
        let mut text = format!("%%MatrixMarket matrix array integer general\n{} {}\n", dims[0], dims[1]);
        for j in 0..dims[1] {
            for i in 0..dims[0] {
                text += &format!("{}\n", d.at(&[i, j]));
            }
        }
        let t = read_matrix_market::<i64, Coo, _, 2>(text.as_bytes()).unwrap();
        prop_assert_eq!(revalidated(&t.view()), d.data.clone());
        prop_assert_eq!(t.number_of_entries(), d.data.iter().filter(|&&x| x != 0).count());
    }

    /// A coordinate made 0, negative or too large is reported where it is.
    #[test]
    fn corrupted_coordinates_are_located(
        (dims, e) in sparse::<i64, 2>(6).prop_filter("an entry", |(_, e)| !e.is_empty()),
        pick in any::<prop::sample::Index>(),
        how in 0usize..3,
    ) {
        let k = pick.index(e.len());
        let text = mtx_of(dims, &e);
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let line = 3 + k; // banner, comment, sizes, then the entries
        let row = e[k].0[0] + 1;
        let bad = match how {
            0 => "0".to_string(),
            1 => "-2".to_string(),
            _ => (dims[1] + 1).to_string(),
        };
        lines[line] = format!("{row} {bad} {}", e[k].1);
        let column = row.to_string().len() + 2;
        let corrupted = lines.join("\n");
        let expected = match how {
            0 => ParseErrorKind::ZeroCoordinate,
            1 => ParseErrorKind::NegativeCoordinate,
            _ => ParseErrorKind::CoordinateOutOfRange { dim: 1, coordinate: dims[1] as u64 + 1, size: dims[1] },
        };
        match read_matrix_market::<i64, Csr, _, 2>(corrupted.as_bytes()) {
            Err(IoError::Parse { line: l, column: c, kind }) => {
                prop_assert_eq!((l, c, kind), (line + 1, column, expected));
            }
            Err(other) => return Err(TestCaseError::fail(format!("{other}"))),
            Ok(_) => return Err(TestCaseError::fail("a corrupted file was accepted")),
        }
    }

    /// FROSTT: tensor → file → tensor, in two encodings, through the disk.
    #[test]
    fn frostt_round_trips((dims, e) in sparse::<i64, 3>(4)) {
        let expected = Dense::from_entries(&dims, &e).data;
        with_tensor::<i64, Csf, 3, 3, _>(&fixture::CSF, dims, &e, |a| {
            let mut out = Vec::new();
            write_frostt(a, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let path = std::env::temp_dir().join(format!(
                "sparse-core-conversions-{}-{}.tns",
                std::process::id(),
                e.len() * 1000 + dims.iter().sum::<usize>()
            ));
            std::fs::write(&path, &text).unwrap();
            let file = BufReader::new(std::fs::File::open(&path).unwrap());
            let back = read_frostt::<i64, Coo3, _, 3, 3>(file).unwrap();
            std::fs::remove_file(&path).ok();
            prop_assert_eq!(back.dim_sizes(), dims);
            prop_assert_eq!(revalidated(&back.view()), expected.clone());
            let csf = read_frostt::<i64, Csf, _, 3, 3>(text.as_bytes()).unwrap();
            prop_assert_eq!(buffers(&csf.view()), buffers(a));
            let mut out2 = Vec::new();
            write_frostt(&csf.view(), &mut out2).unwrap();
            prop_assert_eq!(String::from_utf8(out2).unwrap(), text);
            Ok(())
        })?;
    }
}
