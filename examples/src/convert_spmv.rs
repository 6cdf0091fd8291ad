//! Files and conversions: reads the Matrix Market file shipped in
//! `examples/data/` (or the one given as the first argument) into a CSR
//! tensor, converts it to CSC in caller-provided buffers (no allocator
//! involved), runs the generated SpMV kernel over both and checks them
//! against the dense product, then writes the CSC matrix back as Matrix
//! Market.
//!
//! ```text
//! cargo run -p sparse-examples --bin convert_spmv [-- path/to/matrix.mtx]
//! ```

use std::fs::File;
use std::io::BufReader;

use sparse_core::convert::{convert, to_dense};
use sparse_core::io::{read_matrix_market, write_matrix_market};
use sparse_core::{sparse_kernel, Owned, SliceBuffer, Slices};

sparse_kernel! {
    /// Compressed sparse row, 16-bit positions, 8-bit coordinates.
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    /// Compressed sparse column with the same widths.
    #CSC = #sparse_tensor.encoding<{
        map = (i, j) -> (j : dense, i : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    /// y = A x over rows.
    pub fn spmv(a: &tensor<?x?xf64, #CSR>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * x[j];
    }

    /// y = A x over columns.
    pub fn spmv_csc(a: &tensor<?x?xf64, #CSC>, x: &tensor<?xf64>, y: &mut tensor<?xf64>) {
        y[i] = a[i, j] * x[j];
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/data/laplace_4x4.mtx").to_string()
    });
    // Read: the file's symmetric triangle, expanded, into CSR (Vec storage).
    let a: CSROut<f64, Owned> = read_matrix_market(BufReader::new(File::open(&path)?))?;
    let a = a.view();
    let [m, n] = a.dim_sizes();
    let nnz = a.number_of_entries();
    println!("{path}: {m} x {n}, {nnz} stored entries");

    // Convert: CSR -> CSC into buffers of exactly the result's size (the
    // classic transpose: counts into the positions, then a scatter).
    let mut pos = vec![0u16; n + 1];
    let mut crd = vec![0u8; nnz];
    let mut val = vec![0.0f64; nnz];
    let mut b = CSCOut::<f64, Slices<'_>>::new(
        [m, n],
        [SliceBuffer::default(), SliceBuffer::new(&mut pos)],
        [SliceBuffer::default(), SliceBuffer::new(&mut crd)],
        SliceBuffer::new(&mut val),
        SliceBuffer::default(),
        SliceBuffer::default(),
        SliceBuffer::default(),
    )?;
    convert(&a, &mut b)?;
    let b = b.view();

    // Run both kernels and compare with the dense product.
    let x: Vec<f64> = (0..n).map(|j| 1.0 + j as f64 / 4.0).collect();
    let (mut y, mut y_csc) = (vec![0.0; m], vec![0.0; m]);
    spmv(&a, &x, &mut y)?;
    spmv_csc(&b, &x, &mut y_csc)?;
    let mut dense = vec![0.0; m * n];
    to_dense(&a, &mut dense)?;
    let reference: Vec<f64> = (0..m)
        .map(|i| (0..n).map(|j| dense[i * n + j] * x[j]).sum())
        .collect();
    assert_eq!(y, reference, "CSR SpMV against the dense product");
    assert_eq!(y_csc, reference, "CSC SpMV against the dense product");
    println!("y = A x = {y:?}");

    // Write the CSC matrix back: column-major order, every entry.
    let mut out = Vec::new();
    write_matrix_market(&b, &mut out)?;
    let text = String::from_utf8(out)?;
    println!("{}", text.lines().take(6).collect::<Vec<_>>().join("\n"));
    println!("... ({} entries written)", text.lines().count() - 2);
    Ok(())
}
