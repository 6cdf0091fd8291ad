//! Malformed `static` data must be refused by `assemble` with exactly the
//! expected `AssembleError`: each input below breaks the seed 000 3x4
//! matrix (`pos = [0, 1, 3, 3]`, `crd = [0, 2, 3]`) in one place only.

use core::fmt::Debug;

use sparse_core::{AssembleError, Buffer, Level};

use crate::formats::{COO, CSR8};
use crate::report::{fail, CheckResult, Report};

static VAL3: [f64; 3] = [1.1, 2.2, 3.3];
static VAL2: [f64; 2] = [1.1, 2.2];
static POS_OK: [u8; 4] = [0, 1, 3, 3];
static CRD_OK: [u8; 3] = [0, 2, 3];
static POS_DECREASING: [u8; 4] = [0, 2, 1, 3];
static POS_SHORT: [u8; 3] = [0, 1, 3];
static CRD_TOO_BIG: [u8; 3] = [0, 2, 4];
static CRD_UNSORTED: [u8; 3] = [0, 3, 2];
static CRD_DUPLICATE: [u8; 3] = [0, 2, 2];
static POS_NOT_FROM_0: [u8; 4] = [1, 1, 3, 3];
static POS_PAST_END: [u8; 4] = [0, 1, 3, 4];
static POS_SHORT_OF_END: [u8; 4] = [0, 1, 2, 2];
static DENSE_POS: [u8; 2] = [0, 3];

/// 256 entries in one row: `posWidth = 8` cannot count them.
static ROW_256: [u8; 256] = {
    let mut crd = [0u8; 256];
    let mut j = 0;
    while j < 256 {
        crd[j] = j as u8;
        j += 1;
    }
    crd
};
static POS_ROW_256: [u8; 2] = [0, 255];
static VAL_256: [f64; 256] = [1.0; 256];

/// The COO example of seed 000 with the first two tuples swapped.
static COO_POS: [usize; 2] = [0, 3];
static COO_UNSORTED: [usize; 6] = [1, 2, 0, 0, 1, 3];

fn csr(pos: &'static [u8], crd: &'static [u8], val: &'static [f64]) -> Result<(), AssembleError> {
    CSR8::assemble([3, 4], [Level::dense(), Level::compressed(pos, crd)], val).map(|_| ())
}

fn expect_err<T: Debug>(got: Result<T, AssembleError>, want: AssembleError) -> CheckResult {
    match got {
        Err(e) if e == want => Ok(()),
        Err(e) => fail!("got {:?} ({}), expected {:?}", e, e, want),
        Ok(t) => fail!("accepted ({:?}), expected {:?}", t, want),
    }
}

/// Runs every malformed-input check.
pub fn run_all(r: &mut Report) {
    r.run("reject: values too short", || {
        expect_err(
            csr(&POS_OK, &CRD_OK, &VAL2),
            AssembleError::WrongLength {
                level: 1,
                buffer: Buffer::Values,
                expected: 3,
                found: 2,
            },
        )
    });
    r.run("reject: positions too short", || {
        expect_err(
            csr(&POS_SHORT, &CRD_OK, &VAL3),
            AssembleError::WrongLength {
                level: 1,
                buffer: Buffer::Positions,
                expected: 4,
                found: 3,
            },
        )
    });
    r.run("reject: positions decrease", || {
        expect_err(
            csr(&POS_DECREASING, &CRD_OK, &VAL3),
            AssembleError::NonMonotonePositions { level: 1, index: 1 },
        )
    });
    r.run("reject: first position not 0", || {
        expect_err(
            csr(&POS_NOT_FROM_0, &CRD_OK, &VAL3),
            AssembleError::PositionOutOfRange {
                level: 1,
                index: 0,
                position: 1,
                limit: 0,
            },
        )
    });
    r.run("reject: position past the coordinates", || {
        expect_err(
            csr(&POS_PAST_END, &CRD_OK, &VAL3),
            AssembleError::PositionOutOfRange {
                level: 1,
                index: 3,
                position: 4,
                limit: 3,
            },
        )
    });
    r.run("reject: coordinates beyond the last position", || {
        expect_err(
            csr(&POS_SHORT_OF_END, &CRD_OK, &VAL3),
            AssembleError::WrongLength {
                level: 1,
                buffer: Buffer::Coordinates,
                expected: 2,
                found: 3,
            },
        )
    });
    r.run("reject: crdWidth 8 for 300 columns", || {
        expect_err(
            CSR8::assemble(
                [3, 300],
                [Level::dense(), Level::compressed(&POS_OK, &CRD_OK)],
                &VAL3,
            )
            .map(|_| ()),
            AssembleError::WidthOverflow {
                level: 1,
                buffer: Buffer::Coordinates,
                value: 299,
                max: 255,
            },
        )
    });
    r.run("reject: posWidth 8 for 256 entries", || {
        expect_err(
            CSR8::assemble(
                [1, 256],
                [Level::dense(), Level::compressed(&POS_ROW_256, &ROW_256)],
                &VAL_256,
            )
            .map(|_| ()),
            AssembleError::WidthOverflow {
                level: 1,
                buffer: Buffer::Positions,
                value: 256,
                max: 255,
            },
        )
    });
    r.run("reject: coordinate out of range", || {
        expect_err(
            csr(&POS_OK, &CRD_TOO_BIG, &VAL3),
            AssembleError::CoordinateOutOfRange {
                level: 1,
                position: 2,
                coordinate: 4,
                size: 4,
            },
        )
    });
    r.run("reject: unsorted coordinates", || {
        expect_err(
            csr(&POS_OK, &CRD_UNSORTED, &VAL3),
            AssembleError::Unsorted {
                level: 1,
                position: 2,
            },
        )
    });
    r.run("reject: duplicate coordinates", || {
        expect_err(
            csr(&POS_OK, &CRD_DUPLICATE, &VAL3),
            AssembleError::Duplicate {
                level: 1,
                position: 2,
            },
        )
    });
    r.run("reject: positions on a dense level", || {
        expect_err(
            CSR8::assemble(
                [3, 4],
                [
                    Level::compressed(&DENSE_POS, &[]),
                    Level::compressed(&POS_OK, &CRD_OK),
                ],
                &VAL3,
            )
            .map(|_| ()),
            AssembleError::UnexpectedBuffer {
                level: 0,
                buffer: Buffer::Positions,
            },
        )
    });
    r.run("reject: unsorted COO tuples", || {
        expect_err(
            COO::assemble(
                [3, 4],
                [Level::compressed(&COO_POS, &COO_UNSORTED), Level::fused()],
                &VAL3,
            )
            .map(|_| ()),
            AssembleError::Unsorted {
                level: 0,
                position: 1,
            },
        )
    });
}
