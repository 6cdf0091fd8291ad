//! The README's demo: MLIR encodings pasted into `sparse_kernel!`, tensors
//! assembled from plain arrays, printed in MLIR's `sparse_tensor.print`
//! layout, walked entry by entry, and malformed data rejected with a typed
//! error.

use sparse_core::{sparse_kernel, Level};

sparse_kernel! {
    /// Sorted COO, coordinates as an array of structures (as in the MLIR docs).
    #COO = #sparse_tensor.encoding<{
        map = (i, j) -> (i : compressed(nonunique), j : singleton)
    }>

    /// Compressed sparse row with 16-bit positions and 8-bit coordinates.
    #CSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i : dense, j : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    /// Compressed sparse column: the same matrix, stored by columns.
    #CSC = #sparse_tensor.encoding<{
        map = (i, j) -> (j : dense, i : compressed),
        posWidth = 16,
        crdWidth = 8
    }>

    /// Block sparse row with 2x2 blocks.
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,
                         i mod 2 : dense, j mod 2 : dense)
    }>

    /// A sparse vector: one compressed level.
    #SparseVector = #sparse_tensor.encoding<{
        map = (i) -> (i : compressed)
    }>

    /// y = A x: a dense loop over rows, a walk over each row's stored columns.
    pub fn spmv(a: &tensor<?x?xf32, #CSR>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }

    /// The same product with A stored by columns: the reduction loop is now
    /// outermost, so y is zeroed and accumulated into.
    pub fn spmv_csc(a: &tensor<?x?xf32, #CSC>, x: &tensor<?xf32>, y: &mut tensor<?xf32>) {
        y[i] = a[i, j] * x[j];
    }

    /// Dot product of two sparse vectors: co-iteration over the intersection.
    pub fn dot(a: &tensor<?xf64, #SparseVector>, b: &tensor<?xf64, #SparseVector>, s: &mut tensor<f64>) {
        s[] = a[i] * b[i];
    }

    /// Sum of two sparse vectors into a dense one: co-iteration over the union.
    pub fn add(a: &tensor<?xf64, #SparseVector>, b: &tensor<?xf64, #SparseVector>, c: &mut tensor<?xf64>) {
        c[i] = a[i] + b[i];
    }

    /// Sum of every stored entry of a COO matrix (duplicates included).
    pub fn total(a: &tensor<?x?xf64, #COO>, s: &mut tensor<f64>) {
        s[] += a[i, j];
    }
}

// A 4x8 CSR matrix kept in `static` arrays, as firmware keeps it in flash.
static CSR_POS: [u16; 5] = [0, 2, 2, 3, 5];
static CSR_CRD: [u8; 5] = [0, 2, 1, 2, 7];
static CSR_VAL: [f32; 5] = [1.0, 2.0, 3.0, 4.0, 5.0];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("# A 3x4 COO tensor (the example of MLIR's sparse_tensor.assemble)");
    let coo = COO::<f64>::assemble(
        [3, 4],
        [
            Level::compressed(&[0, 3], &[0, 0, 1, 2, 1, 3]),
            Level::fused(),
        ],
        &[1.1, 2.2, 3.3],
    )?;
    println!("{coo}");
    coo.for_each(|[i, j], v| println!("  a[{i}, {j}] = {v}"));

    println!("\n# CSR from static arrays (u16 positions, u8 coordinates)");
    let csr = CSR::<f32>::assemble(
        [4, 8],
        [Level::dense(), Level::compressed(&CSR_POS, &CSR_CRD)],
        &CSR_VAL,
    )?;
    println!("{csr}");
    let mut dense = [[0.0f32; 8]; 4];
    csr.for_each(|[i, j], v| dense[i][j] = *v);
    for row in &dense {
        println!("  {row:?}");
    }
    // The pattern as a picture: `{:#}` one character per element, `{}`
    // braille (2x4 elements per character) for larger matrices.
    println!("  spy plot ({{:#}} and {{}}):");
    for line in format!("{:#}", csr.spy(8, 4)).lines() {
        println!("    {line}");
    }
    println!("    {}", csr.spy(8, 4).to_string().trim_end());

    println!("\n# The same matrix by columns (CSC)");
    let csc = CSC::<f32>::assemble(
        [4, 8],
        [
            Level::dense(),
            Level::compressed(&[0, 1, 2, 4, 4, 4, 4, 4, 5], &[0, 2, 0, 3, 3]),
        ],
        &[1.0, 3.0, 2.0, 4.0, 5.0],
    )?;
    let mut by_columns = [[0.0f32; 8]; 4];
    csc.for_each(|[i, j], v| by_columns[i][j] = *v);
    println!("  same entries as CSR: {}", by_columns == dense);

    println!("\n# BSR with 2x2 blocks: every level printed ({{:#}})");
    let bsr = BSR::<f64>::assemble(
        [4, 6],
        [
            Level::dense(),
            Level::compressed(&[0, 2, 3], &[0, 2, 1]),
            Level::dense(),
            Level::dense(),
        ],
        &[1.0, 2.0, 0.0, 3.0, 4.0, 0.0, 0.0, 5.0, 6.0, 7.0, 8.0, 0.0],
    )?;
    println!("{bsr:#}");

    println!("\n# Malformed input is a typed error, never a panic");
    let unsorted = CSR::<f32>::assemble(
        [4, 8],
        [
            Level::dense(),
            Level::compressed(&[0, 2, 2, 3, 5], &[2, 0, 1, 2, 7]),
        ],
        &CSR_VAL,
    );
    match unsorted {
        Ok(_) => println!("  unexpectedly accepted"),
        Err(e) => println!("  rejected: {e}"),
    }
    let too_wide = CSR::<f32>::assemble(
        [4, 300],
        [Level::dense(), Level::compressed(&CSR_POS, &CSR_CRD)],
        &CSR_VAL,
    );
    if let Err(e) = too_wide {
        println!("  rejected: {e}");
    }
    kernels()
}

/// Runs the generated kernels and checks each against a dense computation.
fn kernels() -> Result<(), Box<dyn std::error::Error>> {
    println!("\n# Kernels compiled by sparse_kernel! (see `cargo doc` for each loop nest)");
    let a = CSR::<f32>::assemble(
        [4, 8],
        [Level::dense(), Level::compressed(&CSR_POS, &CSR_CRD)],
        &CSR_VAL,
    )?;
    let x = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let mut y = [0.0f32; 4];
    spmv(&a, &x, &mut y)?;
    println!("  spmv (CSR):     y = {y:?}");

    let a_csc = CSC::<f32>::assemble(
        [4, 8],
        [
            Level::dense(),
            Level::compressed(&[0, 1, 2, 4, 4, 4, 4, 4, 5], &[0, 2, 0, 3, 3]),
        ],
        &[1.0, 3.0, 2.0, 4.0, 5.0],
    )?;
    let mut y_csc = [f32::NAN; 4];
    spmv_csc(&a_csc, &x, &mut y_csc)?;
    println!("  spmv (CSC):     y = {y_csc:?}");
    let mut dense = [0.0f32; 4];
    a.for_each(|[i, j], v| dense[i] += v * x[j]);
    println!(
        "  dense reference y = {dense:?}  (agree: {})",
        dense == y && dense == y_csc
    );

    let u = SparseVector::<f64>::assemble(
        [10],
        [Level::compressed(&[0, 3], &[1, 4, 7])],
        &[1.0, 2.0, 3.0],
    )?;
    let v = SparseVector::<f64>::assemble(
        [10],
        [Level::compressed(&[0, 3], &[4, 7, 9])],
        &[10.0, 20.0, 30.0],
    )?;
    let mut s = 0.0;
    dot(&u, &v, &mut s)?;
    println!("  dot (intersection of {{1,4,7}} and {{4,7,9}}): {s}  (2*10 + 3*20 = 80)");
    let mut w = [f64::NAN; 10];
    add(&u, &v, &mut w)?;
    println!("  add (union): {w:?}");

    let coo = COO::<f64>::assemble(
        [3, 4],
        [
            Level::compressed(&[0, 3], &[0, 0, 1, 2, 1, 3]),
            Level::fused(),
        ],
        &[1.1, 2.2, 3.3],
    )?;
    let mut total_sum = 0.0;
    total(&coo, &mut total_sum)?;
    println!("  total of the COO tensor: {total_sum:.1}");

    let mut short = [0.0f32; 3];
    match spmv(&a, &x, &mut short) {
        Ok(()) => println!("  a 3-element y was unexpectedly accepted"),
        Err(e) => println!("  wrong sizes are a typed error: {e}"),
    }
    Ok(())
}
