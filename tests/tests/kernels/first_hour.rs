//! What a user meets in the first hour (issue 30): spy plots of a matrix's
//! pattern (braille, ASCII, SVG) against hand-drawn pictures, and sparse
//! outputs built from named buffers (`SparseTensorOut::builder`) and
//! printed with `Debug`.

use sparse_core::{sparse_kernel, AssembleError, Buffer, KernelError, Level, Owned, Slices};

sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 16 }>
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

    /// The anti-diagonal and the first row of a 10x10 matrix.
    static ANTI: tensor<10x10xf64, #CSR> = sparse<
        [[0, 0], [0, 1], [0, 2], [0, 9], [1, 8], [2, 7], [3, 6], [4, 5], [5, 4], [6, 3], [7, 2], [8, 1], [9, 0]],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]>;

    pub fn add(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = a[i, j] + b[i, j];
    }
    pub fn spgemm(a: &tensor<?x?xf64, #CSR>, b: &tensor<?x?xf64, #CSR>, c: &mut tensor<?x?xf64, #CSR>) {
        c[i, j] = a[i, k] * b[k, j];
    }
}

/// Braille code points from the dots of each character, written out as
/// Unicode numbers them: bits 0x01, 0x02, 0x04, 0x40 down the left column,
/// 0x08, 0x10, 0x20, 0x80 down the right one.
fn braille(bits: &[u32]) -> String {
    bits.iter()
        .map(|b| char::from_u32(0x2800 + b).unwrap())
        .collect()
}

#[test]
fn ascii_spy_draws_one_character_per_element() {
    let want = "\
###......#
........#.
.......#..
......#...
.....#....
....#.....
...#......
..#.......
.#........
#.........
";
    assert_eq!(format!("{:#}", ANTI.spy(80, 40)), want);
}

#[test]
fn braille_spy_packs_two_by_four_elements() {
    // 10 columns: 5 characters; 10 rows: 3 lines (the last with two rows).
    // Line 0 holds rows 0..4: (0, 0), (0, 1) fill the top row of
    // character 0 (0x01, 0x08); (0, 2) the top left of character 1; (2, 7)
    // and (3, 6) the right dot of row 2 (0x20) and the left of row 3
    // (0x40) of character 3; (0, 9) and (1, 8) the top right (0x08) and
    // the left of row 1 (0x02) of character 4.
    let line0 = braille(&[0x01 | 0x08, 0x01, 0, 0x20 | 0x40, 0x08 | 0x02]);
    // Line 1 holds rows 4..8: (4, 5) char 2 right row 0 = 0x08; (5, 4)
    // char 2 left row 1 = 0x02; (6, 3) char 1 right row 2 = 0x20; (7, 2)
    // char 1 left row 3 = 0x40.
    let line1 = braille(&[0, 0x20 | 0x40, 0x08 | 0x02, 0, 0]);
    // Line 2 holds rows 8, 9: (8, 1) char 0 right row 0 = 0x08; (9, 0)
    // char 0 left row 1 = 0x02.
    let line2 = braille(&[0x08 | 0x02, 0, 0, 0, 0]);
    assert_eq!(
        ANTI.spy(80, 40).to_string(),
        format!("{line0}\n{line1}\n{line2}\n")
    );
}

#[test]
fn small_plots_cover_bands_of_the_matrix() {
    // 10x10 into 2 ASCII characters by 2 lines: each cell covers 5x5
    // elements and is set when any of them is stored. Top-left: row 0;
    // top-right: (0, 9), (1, 8), ...; bottom-left: (5, 4) ...; the
    // bottom-right quarter (rows 5..10, columns 5..10) stores nothing.
    assert_eq!(format!("{:#}", ANTI.spy(2, 2)), "##\n#.\n");
    // One braille character: 2x4 dots, each covering 5 columns and the
    // rows `i` with `i * 4 / 10` equal (0..3, 3..5, 5..8, 8..10).
    // Row 0 sets both dots of the top row (0x01, 0x08); (1, 8) and
    // (2, 7) the right one again; (3, 6), (4, 5) the right dot of the
    // second row (0x10); (5, 4), (6, 3), (7, 2) the left dot of the third
    // (0x04); (8, 1), (9, 0) the left dot of the fourth (0x40).
    assert_eq!(
        ANTI.spy(1, 1).to_string(),
        format!("{}\n", braille(&[0x01 | 0x08 | 0x10 | 0x04 | 0x40]))
    );
}

#[test]
fn spy_shows_stored_entries_of_any_format_and_empty_matrices() {
    // CSC and COO of the same 3x4 pattern draw the same picture.
    let csc = CSC::<f64>::assemble(
        [3, 4],
        [
            Level::dense(),
            Level::compressed(&[0, 1, 2, 3, 4], &[0, 2, 0, 2]),
        ],
        &[1.0, 3.0, 2.0, 4.0],
    )
    .unwrap();
    let coo = COO::<f64>::assemble(
        [3, 4],
        [
            Level::compressed(&[0, 4], &[0, 0, 0, 2, 2, 1, 2, 3]),
            Level::fused(),
        ],
        &[1.0, 2.0, 3.0, 4.0],
    )
    .unwrap();
    let want = "#.#.\n....\n.#.#\n";
    assert_eq!(format!("{:#}", csc.spy(10, 10)), want);
    assert_eq!(format!("{:#}", coo.spy(10, 10)), want);
    // An explicit zero is stored, so it is drawn.
    let zero = CSR::<f64>::assemble(
        [2, 2],
        [Level::dense(), Level::compressed(&[0, 1, 1], &[1])],
        &[0.0],
    )
    .unwrap();
    assert_eq!(format!("{:#}", zero.spy(4, 4)), ".#\n..\n");
    let empty =
        CSR::<f64>::assemble([0, 5], [Level::dense(), Level::compressed(&[0], &[])], &[]).unwrap();
    assert_eq!(empty.spy(4, 4).to_string(), "");
    assert_eq!(ANTI.spy(0, 0).to_string(), "");
}

#[test]
fn svg_spy_is_one_rectangle_per_run_of_entries() {
    let svg = ANTI.spy_svg(4.0);
    let mut want = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\" \
         viewBox=\"0 0 10 10\" shape-rendering=\"crispEdges\">\n\
         <rect width=\"10\" height=\"10\" fill=\"white\" stroke=\"#888\" stroke-width=\"0.25\"/>\n\
         <g fill=\"black\">\n\
         <rect x=\"0\" y=\"0\" width=\"3\" height=\"1\"/>\n\
         <rect x=\"9\" y=\"0\" width=\"1\" height=\"1\"/>\n",
    );
    for i in 1..10 {
        want.push_str(&format!(
            "<rect x=\"{}\" y=\"{i}\" width=\"1\" height=\"1\"/>\n",
            9 - i
        ));
    }
    want.push_str("</g>\n</svg>\n");
    assert_eq!(svg, want);
}

#[test]
fn builder_names_buffers_and_matches_new() {
    // | 1 . 2 |   | . . 3 |
    // | . 4 . | + | 5 . . |
    let a = CSR::<f64>::assemble(
        [2, 3],
        [Level::dense(), Level::compressed(&[0, 2, 3], &[0, 2, 1])],
        &[1.0, 2.0, 4.0],
    )
    .unwrap();
    let b = CSR::<f64>::assemble(
        [2, 3],
        [Level::dense(), Level::compressed(&[0, 1, 2], &[2, 0])],
        &[3.0, 5.0],
    )
    .unwrap();
    let (mut pos, mut crd, mut val) = ([0u16; 3], [0u16; 4], [0.0f64; 4]);
    let mut c = CSROut::<f64, Slices<'_>>::builder([2, 3])
        .positions(1, &mut pos)
        .coordinates(1, &mut crd[..])
        .values(&mut val)
        .build()
        .unwrap();
    add(&a, &b, &mut c).unwrap();
    let v = c.view();
    assert_eq!(v.level(1).positions(), &[0, 2, 4]);
    assert_eq!(v.level(1).coordinates(), &[0, 2, 0, 1]);
    assert_eq!(v.values(), &[1.0, 5.0, 5.0, 4.0]);
    assert_eq!(
        format!("{c:?}"),
        format!(
            "SparseTensorOut {{ tensor: {:?}, positions_capacity: [0, 3], \
             coordinates_capacity: [0, 4], values_capacity: 4, workspace_capacity: 0 }}",
            c.view()
        )
    );

    // SpGEMM needs the workspace: named too, with `Vec`s lent as slices.
    let (mut pos, mut crd, mut val) = ([0u16; 3], vec![0u16; 6], vec![0.0f64; 6]);
    let (mut wv, mut wf, mut wa) = (vec![0.0f64; 3], vec![false; 3], vec![0usize; 3]);
    let mut p = CSROut::<f64, Slices<'_>>::builder([2, 3])
        .positions(1, &mut pos)
        .coordinates(1, &mut crd)
        .values(&mut val)
        .workspace(&mut wv, &mut wf, &mut wa)
        .build()
        .unwrap();
    let square = CSR::<f64>::assemble(
        [3, 3],
        [Level::dense(), Level::compressed(&[0, 1, 2, 3], &[1, 2, 0])],
        &[2.0, 3.0, 4.0],
    )
    .unwrap();
    spgemm(&a, &square, &mut p).unwrap();
    // Row 0: 1 * row 0 of `square` (2 at column 1) + 2 * row 2 (4 at 0);
    // row 1: 4 * row 1 (3 at column 2).
    assert_eq!(p.view().level(1).coordinates(), &[0, 1, 2]);
    assert_eq!(p.view().values(), &[8.0, 2.0, 12.0]);

    // Without the workspace the same call reports it, by name and size.
    let (mut pos, mut crd, mut val) = ([0u16; 3], [0u16; 6], [0.0f64; 6]);
    let mut q = CSROut::<f64, Slices<'_>>::builder([2, 3])
        .positions(1, &mut pos)
        .coordinates(1, &mut crd)
        .values(&mut val)
        .build()
        .unwrap();
    assert!(matches!(
        spgemm(&a, &square, &mut q),
        Err(KernelError::Capacity {
            tensor: "c",
            buffer: Buffer::Workspace,
            needed: 3,
            capacity: 0,
            ..
        })
    ));
}

#[test]
fn builder_refuses_a_level_the_tensor_does_not_have() {
    let mut crd = [0u16; 4];
    let err = CSROut::<f64, Slices<'_>>::builder([2, 3])
        .coordinates(2, &mut crd)
        .build()
        .err();
    assert_eq!(
        err,
        Some(AssembleError::UnexpectedBuffer {
            level: 2,
            buffer: Buffer::Coordinates
        })
    );
    // Too few positions for the empty tensor: `new`'s error, unchanged.
    let mut pos = [0u16; 2];
    let err = CSROut::<f64, Slices<'_>>::builder([2, 3])
        .positions(1, &mut pos)
        .build()
        .err();
    assert!(
        matches!(
            err,
            Some(AssembleError::Capacity {
                level: 1,
                buffer: Buffer::Positions,
                needed: 3,
                capacity: 2
            })
        ),
        "{err:?}"
    );
    // `Owned` buffers need no naming at all.
    let c = CSROut::<f64, Owned>::builder([2, 3]).build().unwrap();
    assert_eq!(c.number_of_entries(), 0);
}
