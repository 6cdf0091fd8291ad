//! `sort_coo_aos` / `sort_coo_soa` against `slice::sort`, and
//! `concatenate` against the dense concatenation.

use proptest::collection::vec;
use proptest::prelude::*;
use sparse_core::convert::{
    concatenate, concatenate_sum, sort_coo_aos, sort_coo_soa, ConvertError,
};
use sparse_core::{Encoding, Owned, SparseTensor, SparseTensorOut};
use sparse_tests::dense::Dense;
use sparse_tests::fixture::{self, with_tensor};
use sparse_tests::gen::{dims, entries, entries_with_duplicates};

use super::common::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn aos_sorts_like_the_standard_library(rank in 1usize..4, rows in vec(vec(0u8..4, 3), 0..40)) {
        let mut crd: Vec<u8> = rows.iter().flat_map(|r| r[..rank].to_vec()).collect();
        let mut val: Vec<usize> = (0..rows.len()).collect();
        let mut expected: Vec<(Vec<u8>, usize)> =
            rows.iter().enumerate().map(|(k, r)| (r[..rank].to_vec(), k)).collect();
        sort_coo_aos(rank, &mut crd, &mut val).unwrap();
        let mut got: Vec<(Vec<u8>, usize)> =
            crd.chunks(rank).zip(&val).map(|(c, &k)| (c.to_vec(), k)).collect();
        // Sorted by coordinates; the same (tuple, value) pairs (order of
        // equal tuples is free: the sort is not stable).
        prop_assert!(got.windows(2).all(|w| w[0].0 <= w[1].0));
        got.sort();
        expected.sort();
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn soa_sorts_like_the_standard_library(rows in vec((0u16..5, 0u16..5, 0u16..5), 0..40)) {
        let mut i: Vec<u16> = rows.iter().map(|r| r.0).collect();
        let mut j: Vec<u16> = rows.iter().map(|r| r.1).collect();
        let mut k: Vec<u16> = rows.iter().map(|r| r.2).collect();
        let mut val: Vec<i32> = (0..rows.len() as i32).collect();
        sort_coo_soa([&mut i[..], &mut j[..], &mut k[..]], &mut val).unwrap();
        let mut got: Vec<((u16, u16, u16), i32)> =
            (0..rows.len()).map(|n| ((i[n], j[n], k[n]), val[n])).collect();
        prop_assert!(got.windows(2).all(|w| w[0].0 <= w[1].0));
        let mut expected: Vec<((u16, u16, u16), i32)> =
            rows.iter().enumerate().map(|(n, &r)| (r, n as i32)).collect();
        got.sort();
        expected.sort();
        prop_assert_eq!(got, expected);
    }

    #[test]
    fn concatenation_along_each_dimension(
        (shape, parts) in dims::<2>(4).prop_flat_map(|d| {
            (Just(d), vec((0usize..4).prop_flat_map(move |n| {
                (Just(n), proptest::strategy::LazyJust::new(move || n))
            }), 1..4))
        }),
        dim in 0usize..2,
        seed in vec(entries::<i64>(&[4, 4]), 3),
    ) {
        // Part p has size `parts[p].0` along `dim`, the shape's other size.
        let sizes: Vec<[usize; 2]> = parts
            .iter()
            .map(|&(n, _)| if dim == 0 { [n, shape[1]] } else { [shape[0], n] })
            .collect();
        let pieces: Vec<Vec<(Vec<usize>, i64)>> = sizes
            .iter()
            .zip(seed.iter().cycle())
            .map(|(s, e)| {
                e.iter().filter(|(c, _)| c[0] < s[0] && c[1] < s[1]).cloned().collect()
            })
            .collect();
        let total: usize = sizes.iter().map(|s| s[dim]).sum();
        let out_dims = if dim == 0 { [total, shape[1]] } else { [shape[0], total] };
        let mut all = Vec::new();
        let mut offset = 0;
        for (s, p) in sizes.iter().zip(&pieces) {
            for (c, v) in p {
                let mut c = c.clone();
                c[dim] += offset;
                all.push((c, *v));
            }
            offset += s[dim];
        }
        let expected = Dense::from_entries(&out_dims, &all).data;
        check_concat::<Csr>(&fixture::CSR, &sizes, &pieces, dim, out_dims, &expected)?;
        check_concat::<Csc>(&fixture::CSC, &sizes, &pieces, dim, out_dims, &expected)?;
        check_concat::<Coo>(&fixture::COO, &sizes, &pieces, dim, out_dims, &expected)?;
    }

    #[test]
    fn concatenation_sums_repeats(e in entries_with_duplicates::<i64>(&[3, 3], 8)) {
        let expected = Dense::from_entries(&[6, 3], &e.iter().cloned().chain(
            e.iter().map(|(c, v)| (vec![c[0] + 3, c[1]], *v))).collect()).data;
        with_tensor::<i64, CooNu, 2, 2, _>(&fixture::COO, [3, 3], &e, |a| {
            let mut out = SparseTensorOut::<i64, Csr, Owned, 2, 2>::with_dims([6, 3]).unwrap();
            concatenate_sum(&[*a, *a], 0, &mut out).unwrap();
            prop_assert_eq!(revalidated(&out.view()), expected.clone());
            let strict = concatenate(&[*a, *a], 0, &mut out);
            if has_repeats(&e) {
                prop_assert_eq!(strict, Err(ConvertError::Duplicate));
            } else {
                prop_assert_eq!(strict, Ok(()));
            }
            Ok(())
        })?;
    }
}

/// What runs once every piece is built.
type Finish<'f, S> = dyn FnMut(&[SparseTensor<'_, i64, S, 2, 2>]) -> Result<(), TestCaseError> + 'f;

/// Builds the pieces as `S` and concatenates them into CSR, DCSC and COO.
fn check_concat<S: Encoding>(
    layout: &[sparse_tests::reference::RefLevel],
    sizes: &[[usize; 2]],
    pieces: &[Vec<(Vec<usize>, i64)>],
    dim: usize,
    out_dims: [usize; 2],
    expected: &[i64],
) -> Result<(), TestCaseError> {
    fn go<S: Encoding>(
        layout: &[sparse_tests::reference::RefLevel],
        sizes: &[[usize; 2]],
        pieces: &[Vec<(Vec<usize>, i64)>],
        built: &mut Vec<SparseTensor<'_, i64, S, 2, 2>>,
        finish: &mut Finish<'_, S>,
    ) -> Result<(), TestCaseError> {
        match sizes.first() {
            None => finish(built),
            Some(&s) => with_tensor::<i64, S, 2, 2, _>(layout, s, &pieces[0], |t| {
                // Tensors borrow their buffers only inside `with_tensor`:
                // recurse inside, so all are alive at the end.
                let mut more: Vec<SparseTensor<'_, i64, S, 2, 2>> = built.clone();
                more.push(*t);
                go::<S>(layout, &sizes[1..], &pieces[1..], &mut more, finish)
            }),
        }
    }
    let mut finish = |inputs: &[SparseTensor<'_, i64, S, 2, 2>]| -> Result<(), TestCaseError> {
        let mut a = SparseTensorOut::<i64, Csr, Owned, 2, 2>::with_dims(out_dims).unwrap();
        concatenate(inputs, dim, &mut a).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(revalidated(&a.view()), expected);
        let mut b = SparseTensorOut::<i64, Dcsc, Owned, 2, 2>::with_dims(out_dims).unwrap();
        concatenate(inputs, dim, &mut b).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(revalidated(&b.view()), expected);
        let mut c = SparseTensorOut::<i64, Coo, Owned, 2, 2>::with_dims(out_dims).unwrap();
        concatenate(inputs, dim, &mut c).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(revalidated(&c.view()), expected);
        Ok(())
    };
    go::<S>(layout, sizes, pieces, &mut Vec::new(), &mut finish)
}
