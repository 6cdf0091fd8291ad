//! Hostile files and extreme sizes: each input of `tests/data/hostile/`
//! (or generated here) once panicked, wrapped silently, hung, aborted on
//! allocation failure or crashed rustc. Each now gives a typed error (or
//! the right result), in debug and release builds alike, and the readers'
//! peak memory is bounded by the entries a file really holds. See
//! `docs/SECURITY.md` for the table of input surfaces.
//!
//! `memory_capped_*` tests are `#[ignore]`d: `scripts/test-all.sh` runs
//! them under `prlimit --as` (an address-space cap), where an allocation
//! the header asks for fails for real.
//!
//! The counting global allocator below is the storage binary's: it
//! forwards to the system allocator and only counts, per thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use sparse_core::convert::{ConvertError, Coordinates};
use sparse_core::io::{read_frostt, read_matrix_market, IoError, ParseErrorKind};
use sparse_core::levels::{compressed, d0, d1, dense, nonunique, singleton};
use sparse_core::Enc;

type Csr = Enc<u32, u32, (dense, compressed), (d0, d1)>;
type Dcsr = Enc<u32, u32, (compressed, compressed), (d0, d1)>;
type Dcsr64 = Enc<u64, u64, (compressed, compressed), (d0, d1)>;

/// Counts the heap bytes each thread holds and their peak (the readers'
/// memory bound). Per thread: the storage binary runs its other tests on
/// other threads at the same time, and a reader allocates only on the
/// thread that calls it.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Adds `delta` to this thread's live bytes (and its peak). `try_with`: a
/// thread being torn down still allocates, and is simply not counted.
fn count(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get().wrapping_add(delta);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are only arithmetic on the sizes, in thread-locals that do not
// allocate (const-initialised `Cell`s).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // During a move both blocks exist: count the new one first.
            count(new_size as isize);
            count(-(layout.size() as isize));
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak of the heap bytes this thread holds above the start while `f`
/// runs.
fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let r = f();
    let peak = PEAK.with(Cell::get);
    (r, usize::try_from(peak - base).unwrap_or(0))
}

fn data(name: &str) -> std::fs::File {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/hostile")
        .join(name);
    std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn reader(name: &str) -> std::io::BufReader<std::fs::File> {
    std::io::BufReader::new(data(name))
}

#[test]
fn item1_repeated_integer_entries_that_overflow_name_the_element() {
    let want = ConvertError::SumOverflow {
        at: Coordinates::new(&[0, 1]),
    };
    let r = read_matrix_market::<i8, Csr, _, 2>(reader("i8-sum-overflow.mtx"));
    assert!(matches!(r, Err(IoError::Convert(e)) if e == want));
    let r = read_frostt::<i8, Dcsr, _, 2, 2>(reader("i8-sum-overflow.tns"));
    assert!(matches!(r, Err(IoError::Convert(e)) if e == want));
    // The same entries as i16: 200, exact.
    let t = read_matrix_market::<i16, Csr, _, 2>(reader("i8-sum-overflow.mtx")).unwrap();
    assert_eq!(t.view().values(), &[200]);
    assert_eq!(
        want.to_string(),
        "the entries stored at (0, 1) (0-based) add up to more than the element type holds"
    );
}

/// A file of two entries whose header claims `rows` rows (and 3 columns).
fn claiming_rows(rows: u64) -> String {
    format!("%%MatrixMarket matrix coordinate real general\n{rows} 3 2\n1 1 1.0\n{rows} 2 2.0\n")
}

/// Reads `text` as `E`, checks the two entries at rows 0 and `rows - 1`,
/// and returns the peak heap bytes and the time it took.
fn read_two<E>(text: &str, rows: u64) -> (usize, std::time::Duration)
where
    E: sparse_core::StoresValues,
{
    let start = std::time::Instant::now();
    let (t, peak) = peak_during(|| read_matrix_market::<f64, E, _, 2>(text.as_bytes()));
    let t = t.unwrap_or_else(|e| panic!("{rows} rows: {e}"));
    let mut seen = Vec::new();
    t.view().for_each(|d, &v| seen.push((d, v)));
    seen.sort_by_key(|e| e.0);
    let last = usize::try_from(rows - 1).unwrap();
    assert_eq!(seen, [([0, 0], 1.0), ([last, 1], 2.0)], "{rows} rows");
    (peak, start.elapsed())
}

type Dcsr64Cols = Enc<u64, u64, (compressed, compressed), (d0, d1)>;
type Coo64 = Enc<u64, u64, (compressed<nonunique>, singleton), (d0, d1)>;
type Csc64 = Enc<u64, u64, (dense, compressed), (d1, d0)>;
type NativeCsr = Enc<usize, usize, (dense, compressed), (d0, d1)>;
type Dense64 = Enc<u64, u64, (dense, dense), (d0, d1)>;

/// Formats that store nothing per declared row read a file claiming 10^9,
/// 2^32 or 10^18 rows in the memory and time of its two entries.
#[test]
fn item2_sparse_rows_cost_nothing_whatever_the_header_claims() {
    for rows in [1_000_000_000, 1 << 32, 1_000_000_000_000_000_000] {
        let text = claiming_rows(rows);
        for (name, (peak, time)) in [
            ("DCSR", read_two::<Dcsr64Cols>(&text, rows)),
            ("COO", read_two::<Coo64>(&text, rows)),
            ("CSC", read_two::<Csc64>(&text, rows)),
        ] {
            assert!(peak < 64 * 1024, "{name}, {rows} rows: peak {peak} bytes");
            assert!(time.as_secs() < 2, "{name}, {rows} rows: {time:?}");
        }
    }
    // The file of tests/data/hostile as a u32 DCSR.
    let (t, peak) =
        peak_during(|| read_matrix_market::<f64, Dcsr, _, 2>(reader("billion-rows.mtx")));
    assert_eq!(t.unwrap().view().level(0).coordinates(), &[0, 999_999_999]);
    assert!(peak < 64 * 1024, "peak {peak} bytes");
}

/// Formats whose empty tensor stores something per row (a CSR's
/// positions, a dense array) never abort: sizes no memory can hold are
/// `TooLarge` at `with_dims` (and in the reader), sizes no allocator
/// grants are "could not allocate", at once.
#[test]
fn item2_dense_rows_no_memory_can_hold_are_typed_errors() {
    use sparse_core::{AssembleError, Owned, SparseTensorOut};
    let huge = [usize::MAX, 1];
    let too_large = Some(AssembleError::TooLarge { level: 1 });
    assert_eq!(
        SparseTensorOut::<f64, NativeCsr, Owned, 2, 2>::with_dims(huge).err(),
        too_large
    );
    assert_eq!(
        SparseTensorOut::<f64, Csr, Owned, 2, 2>::with_dims(huge).err(),
        too_large
    );
    assert_eq!(
        SparseTensorOut::<f64, Dense64, Owned, 2, 2>::with_dims(huge).err(),
        too_large
    );
    let dcsr = SparseTensorOut::<f64, Dcsr64Cols, Owned, 2, 2>::with_dims(huge).unwrap();
    assert_eq!(dcsr.number_of_entries(), 0);

    let start = std::time::Instant::now();
    for rows in [u64::MAX, 1 << 60] {
        let e = read_matrix_market::<f64, NativeCsr, _, 2>(claiming_rows(rows).as_bytes())
            .expect_err("an error");
        assert!(
            matches!(e, IoError::Assemble(AssembleError::TooLarge { level: 1 })),
            "{rows} rows: {e:?}"
        );
    }
    // 2^58 rows: 2^61 bytes of positions, a size Rust allows and no
    // allocator grants.
    let e = read_matrix_market::<f64, NativeCsr, _, 2>(claiming_rows(1 << 58).as_bytes())
        .expect_err("an error");
    assert!(e.to_string().contains("could not allocate"), "{e}");
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

/// The documented bound (`docs/SECURITY.md`): reading `n` entries of `f64`
/// into a `u32` DCSR peaks below 96 bytes per entry plus 64 KiB, whatever
/// the sizes the header declares. Entries in random order, so the
/// conversion stages (the costlier path).
#[test]
fn readers_peak_memory_is_bounded_by_the_entries() {
    let n = 200_000usize;
    let mut text =
        format!("%%MatrixMarket matrix coordinate real general\n4000000000 4000000000 {n}\n");
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (i, j) = (x % 3_999_999_999 + 1, (x >> 32) % 3_999_999_999 + 1);
        text.push_str(&format!("{i} {j} 1.5\n"));
    }
    let (t, peak) = peak_during(|| read_matrix_market::<f64, Dcsr, _, 2>(text.as_bytes()));
    let t = t.unwrap();
    assert!(t.number_of_entries() <= n);
    let bound = 96 * n + 64 * 1024;
    assert!(
        peak <= bound,
        "peak {peak} bytes for {n} entries (bound {bound})"
    );
}

#[test]
fn item3_an_array_declaring_no_rows_is_read_at_once() {
    let start = std::time::Instant::now();
    let t = read_matrix_market::<f64, Dcsr64, _, 2>(reader("array-no-rows.mtx")).unwrap();
    assert_eq!(t.dim_sizes()[0], 0);
    assert_eq!(t.number_of_entries(), 0);
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

#[test]
fn item8_skew_symmetric_diagonal_is_refused_at_run_time_as_at_compile_time() {
    let e =
        read_matrix_market::<f64, Csr, _, 2>(reader("skew-diagonal.mtx")).expect_err("an error");
    assert!(
        matches!(
            e,
            IoError::Parse {
                line: 5,
                kind: ParseErrorKind::SkewDiagonal,
                ..
            }
        ),
        "{e:?}"
    );
}

/// Under `prlimit --as` (scripts/test-all.sh): a CSR of a billion rows
/// needs 4 GB of positions, of 2^32 rows 16 GB, a dense array of them 24
/// GB and more; the cap refuses the allocation and the reader says so,
/// with a typed error and at once, instead of the process aborting (or
/// being killed). DCSR, COO and CSC of the same files still read, in a few
/// bytes.
#[test]
#[ignore = "run under an address-space cap by scripts/test-all.sh"]
fn memory_capped_billion_rows() {
    let capped = |e: IoError| match e {
        e @ (IoError::Assemble(_) | IoError::Convert(_)) => {
            assert!(e.to_string().contains("could not allocate"), "{e}");
        }
        e => panic!("unexpected error {e:?}"),
    };
    let uncapped = "fit under the cap: run this under prlimit --as=2G";
    let start = std::time::Instant::now();
    match read_matrix_market::<f64, Csr, _, 2>(reader("billion-rows.mtx")) {
        Err(e) => capped(e),
        Ok(_) => panic!("4 GB of positions {uncapped}"),
    }
    for rows in [1_000_000_000, 1 << 32] {
        let text = claiming_rows(rows);
        match read_matrix_market::<f64, Csr, _, 2>(text.as_bytes()) {
            Err(e) => capped(e),
            Ok(_) => panic!("the positions of {rows} rows {uncapped}"),
        }
        match read_matrix_market::<f64, Dense64, _, 2>(text.as_bytes()) {
            Err(e) => capped(e),
            Ok(_) => panic!("a dense array of {rows} rows {uncapped}"),
        }
        let (peak, _) = read_two::<Dcsr64Cols>(&text, rows);
        assert!(peak < 64 * 1024, "peak {peak}");
        read_two::<Coo64>(&text, rows);
        read_two::<Csc64>(&text, rows);
    }
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    let t = read_matrix_market::<f64, Dcsr, _, 2>(reader("billion-rows.mtx")).unwrap();
    assert_eq!(t.number_of_entries(), 2);
}
