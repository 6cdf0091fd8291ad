//! Compile-time benchmark of `sparse_kernel!`.
//!
//! `expand-time [--reps N]` times `sparse_compiler::expand` (what the proc
//! macro calls) on each kernel of `corpus`, and each stage separately
//! through the library's public functions: `syntax::parse`, `model::check`,
//! `plan::plan` (reordered copies and the sparsifier, once per kernel) and
//! `codegen::generate` (encodings, types, constants and kernels). Each is
//! repeated N times; the table gives the median and the 10th/90th percentiles in
//! microseconds. Exits 1 if a kernel does not expand without errors.
//!
//! `expand-time gen-crate DIR N (kernels|empty) SPARSE_CORE_PATH` writes a
//! library crate with N kernels (or, for `empty`, the same blocks with the
//! encodings only) for run.sh's clean-build timing.

mod corpus;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use proc_macro2::{TokenStream, TokenTree};
use sparse_compiler::{codegen, model, plan, syntax, Errors};

fn tokens(text: &str) -> TokenStream {
    match text.parse() {
        Ok(t) => t,
        Err(e) => panic!("corpus text does not tokenize: {e}"),
    }
}

fn count_tokens(ts: &TokenStream) -> usize {
    ts.clone()
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => 1 + count_tokens(&g.stream()),
            _ => 1,
        })
        .sum()
}

/// Median and 10th/90th percentiles of `reps` runs of `f`, in microseconds.
fn time<O>(reps: usize, mut f: impl FnMut() -> O) -> (f64, f64, f64) {
    // Warm up caches and the allocator.
    for _ in 0..reps.div_ceil(10) {
        drop(black_box(f()));
    }
    let mut samples: Vec<Duration> = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t0 = Instant::now();
        let out = black_box(f());
        samples.push(t0.elapsed());
        // The output is dropped outside the timed span.
        drop(out);
    }
    samples.sort();
    let us =
        |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
    (us(0.5), us(0.1), us(0.9))
}

/// The stages one after the other, as `sparse_compiler::expand` runs them.
fn stages(input: &TokenStream, reps: usize) -> [(f64, f64, f64); 4] {
    let parse = time(reps, || {
        let mut e = Errors::new();
        syntax::parse(input.clone(), &mut e)
    });
    let mut errors = Errors::new();
    let block = syntax::parse(input.clone(), &mut errors);
    let check = time(reps, || {
        let mut e = Errors::new();
        model::check(&block, &mut e)
    });
    let m = model::check(&block, &mut errors);
    let sparsify = time(reps, || {
        let mut e = Errors::new();
        plan::plan(m.clone(), &mut e)
    });
    let program = plan::plan(m, &mut errors);
    let generate = time(reps, || {
        let mut e = Errors::new();
        codegen::generate(&program, &mut e)
    });
    [parse, check, sparsify, generate]
}

fn bench(reps: usize) -> ExitCode {
    let mut ok = true;
    println!(
        "| kernel | expand median (µs) | p10–p90 | syntax | model | plan | codegen | tokens in → out | ≤ 5 ms |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    let mut rows: Vec<(String, TokenStream)> = corpus::KERNELS
        .iter()
        .map(|k| (k.name.to_string(), tokens(&corpus::block(k))))
        .collect();
    rows.push((
        "(encodings only: #CSR)".to_string(),
        tokens(&corpus::encodings_only(&corpus::KERNELS[0])),
    ));
    for (name, input) in &rows {
        let out = sparse_compiler::expand(input.clone());
        let text = out.to_string();
        let wants_kernel = !name.starts_with('(');
        if text.contains("compile_error") || (wants_kernel && !text.contains("fn ")) {
            eprintln!("{name}: the expansion holds errors or no kernel:\n{text}");
            ok = false;
            continue;
        }
        let (med, p10, p90) = time(reps, || sparse_compiler::expand(input.clone()));
        let [s, m, sp, g] = stages(input, reps);
        println!(
            "| {name} | {med:.0} | {p10:.0}–{p90:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {} → {} | {} |",
            s.0,
            m.0,
            sp.0,
            g.0,
            count_tokens(input),
            count_tokens(&out),
            if med <= 5000.0 { "yes" } else { "**no**" }
        );
    }
    println!();
    println!(
        "| constant | expand median (µs) | p10–p90 | stored entries | tokens in → out | ≤ 50 ms |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | --- |");
    for (name, text, entries) in corpus::constants() {
        let input = tokens(&text);
        let out = sparse_compiler::expand(input.clone());
        if out.to_string().contains("compile_error") {
            eprintln!("{name}: the expansion holds errors:\n{out}");
            ok = false;
            continue;
        }
        let (med, p10, p90) = time(reps.min(50), || sparse_compiler::expand(input.clone()));
        println!(
            "| {name} | {med:.0} | {p10:.0}–{p90:.0} | {entries} | {} → {} | {} |",
            count_tokens(&input),
            count_tokens(&out),
            if med <= 50_000.0 { "yes" } else { "**no**" }
        );
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Writes a crate with one `file(...)` constant of `n` entries (a
/// `rows x 4096` Matrix Market file, about `n / rows` entries per row) for
/// run.sh's build-time measurement of large constants.
fn gen_const_crate(dir: &str, n: usize, core: &str) -> std::io::Result<()> {
    use std::fmt::Write;
    std::fs::create_dir_all(format!("{dir}/src"))?;
    std::fs::write(
        format!("{dir}/Cargo.toml"),
        format!(
            "[package]\nname = \"const1m\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nsparse-core = {{ path = \"{core}\" }}\n\n[workspace]\n"
        ),
    )?;
    let cols = 4096usize;
    let rows = n.div_ceil(cols / 4).max(1);
    let mut mtx = String::with_capacity(n * 24);
    let _ = writeln!(mtx, "%%MatrixMarket matrix coordinate real general");
    let _ = writeln!(mtx, "{rows} {cols} {n}");
    // Every row holds a quarter of the columns (j = 4k + i mod 4).
    let mut written = 0;
    'rows: for i in 0..rows {
        for k in 0..cols / 4 {
            if written == n {
                break 'rows;
            }
            let j = 4 * k + i % 4;
            let v = ((i * 31 + j * 17) % 200) as f32 / 8.0 - 12.0;
            let _ = writeln!(mtx, "{} {} {v}", i + 1, j + 1);
            written += 1;
        }
    }
    std::fs::write(format!("{dir}/w.mtx"), mtx)?;
    std::fs::write(
        format!("{dir}/src/lib.rs"),
        "//! Generated by bench/compile (expand-time gen-const-crate).\n\
         sparse_core::sparse_kernel! {\n\
             #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 16 }>\n\
             /// The constant.\n\
             pub static W: tensor<?x?xf32, #CSR> = file(\"w.mtx\");\n\
         }\n",
    )
}

/// Writes the crate for the clean-build timing.
fn gen_crate(dir: &str, n: usize, with_kernels: bool, core: &str) -> std::io::Result<()> {
    use std::fmt::Write;
    std::fs::create_dir_all(format!("{dir}/src"))?;
    std::fs::write(
        format!("{dir}/Cargo.toml"),
        format!(
            "[package]\nname = \"kernels50\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nsparse-core = {{ path = \"{core}\" }}\n\n[workspace]\n"
        ),
    )?;
    // Ten kernels per block, in modules, as a user splits them by topic.
    let per_block = 10;
    let mut lib = String::from(
        "//! Generated by bench/compile (expand-time gen-crate).\n#![allow(missing_docs, clippy::all)]\n",
    );
    let blocks = n.div_ceil(per_block).max(1);
    for b in 0..blocks {
        let _ = writeln!(lib, "pub mod m{b} {{\n    sparse_core::sparse_kernel! {{");
        let _ = writeln!(lib, "{}", corpus::all_encodings());
        if with_kernels {
            for i in b * per_block..((b + 1) * per_block).min(n) {
                let k = &corpus::KERNELS[i % corpus::KERNELS.len()];
                let t = if k.any_float && (i / corpus::KERNELS.len()) % 2 == 1 {
                    "f32"
                } else {
                    "f64"
                };
                let _ = writeln!(lib, "{}", corpus::instantiate(k, t, &format!("_{i}")));
            }
        }
        let _ = writeln!(lib, "    }}\n}}");
    }
    std::fs::write(format!("{dir}/src/lib.rs"), lib)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen-crate") if args.len() == 5 => {
            let n = args[2].parse().unwrap_or(50);
            match gen_crate(&args[1], n, args[3] == "kernels", &args[4]) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("gen-crate: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("gen-const-crate") if args.len() == 4 => {
            let n = args[2].parse().unwrap_or(1_000_000);
            match gen_const_crate(&args[1], n, &args[3]) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("gen-const-crate: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("--reps") if args.len() == 2 => bench(args[1].parse().unwrap_or(200)),
        None => bench(200),
        _ => {
            eprintln!(
                "usage: expand-time [--reps N] | expand-time gen-crate DIR N (kernels|empty) \
                 SPARSE_CORE_PATH | expand-time gen-const-crate DIR ENTRIES SPARSE_CORE_PATH"
            );
            ExitCode::FAILURE
        }
    }
}
