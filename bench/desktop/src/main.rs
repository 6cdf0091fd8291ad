//! Desktop benchmarks of `sparse_kernel!` kernels against sprs,
//! nalgebra-sparse, faer and C -O3. See RESULTS.md and run.sh.
//!
//! Usage: `sparse-bench-desktop [SECTION...]` with sections `spmv`,
//! `spmv16`, `csc`, `add`, `spgemm`, `sddmm`, `transpose`, `coo`, `par`,
//! `spmv-simd` (vectorized SpMV and SELL against MKL)
//! (default: all), `par-sddmm` (the parallel SDDMM rows of `par`), or
//! `sparse-bench-desktop callgrind IMPL REPS` (one SpMV implementation on
//! the small matrix, REPS times, for instruction counting), or
//! `sparse-bench-desktop plots RUN.md OUT_DIR` (SVG charts of a saved run).
//! `BENCH_QUICK=1` shrinks every matrix and the time budget (a smoke test).

mod cache_probe;
mod callgrind;
mod ffi;
mod gen;
mod harness;
#[allow(clippy::all, unused)]
mod kernels;
mod ops;
mod par;
mod peers;
mod plots;
mod report;
mod spgemm;
mod spmv;
mod spmv_simd;
mod transpose;

use gen::Csr;
use harness::Budget;
use std::time::Duration;

pub struct Matrices {
    pub list: Vec<(&'static str, Csr)>,
    /// Uniform with n < 65 536, for `crdWidth = 16`.
    pub narrow: (&'static str, Csr),
}

pub fn quick() -> bool {
    std::env::var("BENCH_QUICK").is_ok_and(|v| v != "0" && !v.is_empty())
}

fn matrices() -> Matrices {
    if quick() {
        Matrices {
            list: vec![
                ("uniform n=5k 10/row", Csr::uniform(5_000, 10, 11)),
                ("power-law n=5k", Csr::power_law(5_000, 12)),
                ("banded n=5k bw=16", Csr::banded(5_000, 16, 13)),
                ("small n=500 20/row", Csr::uniform(500, 20, 14)),
            ],
            narrow: ("uniform n=6k 10/row", Csr::uniform(6_000, 10, 15)),
        }
    } else {
        Matrices {
            list: vec![
                ("uniform n=100k 10/row", Csr::uniform(100_000, 10, 11)),
                ("power-law n=100k", Csr::power_law(100_000, 12)),
                ("banded n=100k bw=16", Csr::banded(100_000, 16, 13)),
                ("small n=2000 20/row", Csr::uniform(2_000, 20, 14)),
            ],
            narrow: ("uniform n=60k 10/row", Csr::uniform(60_000, 10, 15)),
        }
    }
}

/// Short rows spread over many columns: the SpGEMM case where each row's
/// few products land far apart (n = 20 000, 5 per row).
pub fn spgemm_short() -> (&'static str, Csr) {
    if quick() {
        ("uniform n=4k 5/row", Csr::uniform(4_000, 5, 17))
    } else {
        ("uniform n=20k 5/row", Csr::uniform(20_000, 5, 17))
    }
}

fn budget() -> Budget {
    if quick() {
        Budget {
            total: Duration::from_millis(150),
            min_rounds: 3,
            max_rounds: 11,
        }
    } else {
        Budget {
            total: Duration::from_secs(3),
            min_rounds: 21,
            max_rounds: 301,
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("callgrind") {
        callgrind::run(&args[1..]);
        return;
    }
    if args.first().map(String::as_str) == Some("plots") {
        plots::run(&args[1..]);
        return;
    }
    let all = [
        "spmv",
        "spmv16",
        "csc",
        "add",
        "spgemm",
        "sddmm",
        "transpose",
        "coo",
        "par",
        "spmv-simd",
    ];
    let sections: Vec<&str> = if args.is_empty() {
        all.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    // Sections run only when named (parts of a default section).
    let extra = ["par-sddmm", "cache"];
    println!(
        "\nCache state at the start of each timed batch (`BENCH_CACHE`): {}",
        harness::CacheState::from_env().describe()
    );
    // `BENCH_ONLY=text`: only the matrices whose name has it (spmv-simd,
    // spgemm).
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    for s in &sections {
        assert!(
            all.contains(s) || extra.contains(s),
            "unknown section `{s}` (known: {all:?}, {extra:?}, or `callgrind IMPL REPS`)"
        );
    }
    let b = budget();
    let mats = matrices();
    for (name, a) in mats.list.iter().chain([&mats.narrow]) {
        let maxlen = (0..a.rows)
            .map(|i| a.pos[i + 1] - a.pos[i])
            .max()
            .unwrap_or(0);
        eprintln!(
            "matrix {name}: {}x{}, {} nnz, longest row {maxlen}",
            a.rows,
            a.cols,
            a.nnz()
        );
    }
    let triad_n = if quick() { 1 << 18 } else { 1 << 23 };
    let triad = spmv::triad(
        triad_n,
        &Budget {
            total: b.total * 2,
            ..b
        },
    );
    for s in &sections {
        match *s {
            "spmv" => {
                println!("\n### CSR SpMV, u32 indices (nalgebra-sparse: usize)");
                for (name, a) in &mats.list {
                    spmv::spmv_f64(name, a, spmv::Variant::Csr32, triad, &b);
                    spmv::spmv_f32(name, a, spmv::Variant::Csr32, triad, &b);
                }
            }
            "cache" => cache_probe::run(),
            "spmv-simd" => {
                println!("\n### Vectorized SpMV: #[reassociate] and SELL-C-σ against MKL");
                for (name, a) in mats.list.iter().filter(|(n, _)| n.contains(only.as_str())) {
                    spmv_simd::spmv_simd_f64(name, a, triad, &b);
                    spmv_simd::spmv_simd_f32(name, a, triad, &b);
                }
            }
            "spmv16" => {
                println!("\n### CSR SpMV, crdWidth = 16 against crdWidth = 32 and the peers");
                let (name, a) = &mats.narrow;
                spmv::spmv_f64(name, a, spmv::Variant::Csr16, triad, &b);
                spmv::spmv_f32(name, a, spmv::Variant::Csr16, triad, &b);
                let (name, a) = &mats.list[3];
                spmv::spmv_f64(name, a, spmv::Variant::Csr16, triad, &b);
                spmv::spmv_f32(name, a, spmv::Variant::Csr16, triad, &b);
            }
            "csc" => {
                println!("\n### CSC SpMV, u32 indices (nalgebra-sparse: usize)");
                for (name, a) in &mats.list {
                    spmv::spmv_f64(name, a, spmv::Variant::Csc, triad, &b);
                    spmv::spmv_f32(name, a, spmv::Variant::Csc, triad, &b);
                }
            }
            "add" => {
                println!("\n### Sparse add C = A + B (CSR, u32 indices)");
                for (name, a) in &mats.list {
                    let bm = ops::partner(name, a);
                    ops::add_f64(name, a, &bm, &b);
                    ops::add_f32(name, a, &bm, &b);
                }
            }
            "spgemm" => {
                println!(
                    "\n### SpGEMM C = A B (CSR × CSR → CSR, u32 indices); peers: {}",
                    peers::available()
                );
                let slow = Budget {
                    total: b.total * 2,
                    min_rounds: b.min_rounds.min(7),
                    max_rounds: b.max_rounds,
                };
                let short = spgemm_short();
                for (name, a) in [&short].into_iter().chain(mats.list.iter()) {
                    if !name.contains(only.as_str()) {
                        continue;
                    }
                    let bm = ops::partner(name, a);
                    for s in [spgemm::Semiring::PlusTimes, spgemm::Semiring::MinPlus] {
                        spgemm::spgemm_f64(name, a, &bm, s, &slow);
                        spgemm::spgemm_f32(name, a, &bm, s, &slow);
                    }
                }
            }
            "sddmm" => {
                println!("\n### SDDMM C = S ⊙ (U Vᵀ) (CSR, K = 32)");
                for (name, a) in &mats.list {
                    ops::sddmm_f64(name, a, 32, &b);
                    ops::sddmm_f32(name, a, 32, &b);
                }
            }
            "transpose" => {
                println!("\n### CSR → CSC conversion (u32 indices; nalgebra-sparse: usize)");
                for (name, a) in &mats.list {
                    transpose::csr_to_csc(name, a, &b);
                }
            }
            "coo" => {
                println!("\n### COO → CSR conversion, repeats summed (u32 indices)");
                for (name, a) in &mats.list {
                    transpose::coo_to_csr(name, a, false, &b);
                    transpose::coo_to_csr(name, a, true, &b);
                }
            }
            "par" => {
                println!(
                    "\n### #[parallel] kernels on {} threads (sparse-core feature `rayon`)",
                    par::threads()
                );
                par::triad(triad_n, &b);
                par::global_pool();
                // Besides the bench matrices (the three large ones are
                // memory-bound), one that stays in the L3 cache.
                let l3 = if quick() {
                    (
                        "cache-resident n=2k 20/row",
                        gen::Csr::uniform(2_000, 20, 16),
                    )
                } else {
                    (
                        "cache-resident n=20k 20/row",
                        gen::Csr::uniform(20_000, 20, 16),
                    )
                };
                for (name, a) in mats.list.iter().chain([&l3]) {
                    par::spmv(name, a, &b);
                }
                for (name, a) in mats.list.iter().chain([&l3]) {
                    par::spmm(name, a, 16, &b);
                }
                // Sparse outputs written per row: sparse add and SpGEMM
                // (the partners of the `add` and `spgemm` sections).
                let slow = Budget {
                    total: b.total * 2,
                    min_rounds: b.min_rounds.min(7),
                    max_rounds: b.max_rounds,
                };
                for (name, a) in mats.list.iter().chain([&l3]) {
                    let bm = ops::partner(name, a);
                    par::sparse_out(par::SparseOp::Add, name, a, &bm, &b);
                }
                for (name, a) in mats.list.iter().chain([&l3]) {
                    let bm = ops::partner(name, a);
                    par::sparse_out(par::SparseOp::Spgemm, name, a, &bm, &slow);
                }
                for (name, a) in mats.list.iter().chain([&l3]) {
                    par::sddmm(name, a, 32, &slow);
                }
            }
            "par-sddmm" => {
                // The SDDMM rows of `par` alone.
                println!(
                    "\n### #[parallel] SDDMM on {} threads (sparse-core feature `rayon`)",
                    par::threads()
                );
                par::global_pool();
                let slow = Budget {
                    total: b.total * 2,
                    min_rounds: b.min_rounds.min(7),
                    max_rounds: b.max_rounds,
                };
                for (name, a) in &mats.list {
                    par::sddmm(name, a, 32, &slow);
                }
            }
            _ => {}
        }
    }
    let triad_end = spmv::triad(
        triad_n,
        &Budget {
            total: b.total * 2,
            ..b
        },
    );
    println!(
        "\n(triad at the start {:.2} GB/s, at the end {:.2} GB/s)",
        triad / 1e9,
        triad_end / 1e9
    );
}
