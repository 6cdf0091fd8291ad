//! Walks are bounded by the data (issue 18, item 6): a tensor whose dense
//! sizes multiply to nothing (`[usize::MAX, 0]`) stores nothing, and
//! neither `for_each` nor a kernel reducing over it may walk its outer
//! range. Each call here would take centuries if it walked `usize::MAX`
//! outer entries, so a regression shows as a hung test.

use sparse_core::{DenseView, Level};

mod k {
    sparse_core::sparse_kernel! {
        #DD = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : dense) }>
        #DDD = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : dense, k : dense) }>

        pub fn total(a: &tensor<?x?xf64, #DD>, s: &mut tensor<f64>) {
            s[] += a[i, j];
        }
        pub fn total3(a: &tensor<?x?x?xf64, #DDD>, s: &mut tensor<f64>) {
            s[] += a[i, j, k];
        }
        pub fn total_dense(a: &tensor<?x?xf64>, s: &mut tensor<f64>) {
            s[] = a[i, j];
        }
        pub fn column_sums(a: &tensor<?x?xf64, #DD>, y: &mut tensor<?xf64>) {
            y[j] = a[i, j];
        }
    }
}

#[test]
fn an_all_dense_tensor_with_an_empty_inner_extent_is_not_walked() {
    let a = k::DD::<f64>::assemble([usize::MAX, 0], [Level::dense(), Level::dense()], &[])
        .expect("an empty all-dense tensor");
    assert_eq!(a.number_of_entries(), 0);
    let mut visits = 0;
    a.for_each(|_, _| visits += 1);
    assert_eq!(visits, 0);
    let mut s = 5.0;
    k::total(&a, &mut s).unwrap();
    assert_eq!(s, 5.0);
    // The output has no elements: nothing to write, nothing to walk.
    let mut y: [f64; 0] = [];
    k::column_sums(&a, &mut y).unwrap();

    let a3 = k::DDD::<f64>::assemble(
        [usize::MAX, 0, usize::MAX],
        [Level::dense(), Level::dense(), Level::dense()],
        &[],
    )
    .expect("an empty all-dense 3-D tensor");
    a3.for_each(|_, _| visits += 1);
    assert_eq!(visits, 0);
    k::total3(&a3, &mut s).unwrap();
    assert_eq!(s, 5.0);
}

#[test]
fn a_dense_view_with_an_empty_inner_extent_is_not_walked() {
    let empty: [f64; 0] = [];
    let d = DenseView::new(&empty, [usize::MAX, 0]).expect("an empty view");
    let mut s = 3.0;
    k::total_dense(d, &mut s).unwrap();
    assert_eq!(s, 0.0);
}
