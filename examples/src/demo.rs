//! The README's demo: MLIR encodings pasted into `sparse_kernel!`, tensors
//! assembled from plain arrays, printed in MLIR's `sparse_tensor.print`
//! layout, walked entry by entry, and malformed data rejected with a typed
//! error.

use sparse_core::{sparse_kernel, AssembleError, Level};

sparse_kernel! {
    /// Sorted COO, coordinates as an array of structures (seed 000).
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

    /// Block sparse row with 2x2 blocks (seed 001).
    #BSR = #sparse_tensor.encoding<{
        map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,
                         i mod 2 : dense, j mod 2 : dense)
    }>
}

// A 4x8 CSR matrix kept in `static` arrays, as firmware keeps it in flash.
static CSR_POS: [u16; 5] = [0, 2, 2, 3, 5];
static CSR_CRD: [u8; 5] = [0, 2, 1, 2, 7];
static CSR_VAL: [f32; 5] = [1.0, 2.0, 3.0, 4.0, 5.0];

fn main() -> Result<(), AssembleError> {
    println!("# The 3x4 COO tensor of seed 000's sparse_tensor.assemble example");
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

    println!("\n# BSR with 2x2 blocks, in seed 001's layout ({{:#}})");
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
    Ok(())
}
