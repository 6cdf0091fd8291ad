//! The kernels timed, as a user writes them inside `sparse_kernel! { ... }`,
//! taken from tests/tests/kernels_*.rs and the codegen snapshots: each with
//! the encodings it uses, `{T}` standing for the element type and `{N}` for
//! a suffix that keeps names unique in the generated 50-kernel crate.

/// One kernel: a name, the encodings it needs and its text.
pub struct Kernel {
    pub name: &'static str,
    pub encodings: &'static [&'static str],
    pub text: &'static str,
    /// Whether `{T}` may be f32 as well as f64 in the generated crate.
    pub any_float: bool,
}

/// Encodings by name, as in the tests.
pub const ENCODINGS: &[(&str, &str)] = &[
    (
        "CSR",
        "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>",
    ),
    (
        "CSR16_8",
        "#CSR16_8 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>",
    ),
    (
        "CSC",
        "#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>",
    ),
    (
        "CSF",
        "#CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>",
    ),
];

pub const KERNELS: &[Kernel] = &[
    Kernel {
        name: "spmv_csr",
        encodings: &["CSR"],
        text: "pub fn spmv_csr{N}(a: &tensor<?x?x{T}, #CSR>, x: &tensor<?x{T}>, y: &mut tensor<?x{T}>) {
            y[i] = a[i, j] * x[j];
        }",
        any_float: true,
    },
    Kernel {
        name: "spmv_csr_m4",
        encodings: &["CSR16_8"],
        text: "pub fn spmv_csr_m4{N}(a: &tensor<64x64xf32, #CSR16_8>, x: &tensor<64xf32>, y: &mut tensor<64xf32>) {
            y[i] = a[i, j] * x[j];
        }",
        any_float: false,
    },
    Kernel {
        name: "spmv_csc",
        encodings: &["CSC"],
        text: "pub fn spmv_csc{N}(a: &tensor<?x?x{T}, #CSC>, x: &tensor<?x{T}>, y: &mut tensor<?x{T}>) {
            y[i] = a[i, j] * x[j];
        }",
        any_float: true,
    },
    Kernel {
        name: "spmm_csr",
        encodings: &["CSR"],
        text: "pub fn spmm_csr{N}(a: &tensor<?x?x{T}, #CSR>, b: &tensor<?x?x{T}>, c: &mut tensor<?x?x{T}>) {
            c[i, j] = a[i, k] * b[k, j];
        }",
        any_float: true,
    },
    Kernel {
        name: "sddmm_csr",
        encodings: &["CSR"],
        text: "pub fn sddmm_csr{N}(s: &tensor<?x?x{T}, #CSR>, u: &tensor<?x?x{T}>, v: &tensor<?x?x{T}>, c: &mut tensor<?x?x{T}>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }",
        any_float: true,
    },
    Kernel {
        name: "sddmm_sparse_out",
        encodings: &["CSR"],
        text: "pub fn sddmm_sparse_out{N}(s: &tensor<?x?x{T}, #CSR>, u: &tensor<?x?x{T}>, v: &tensor<?x?x{T}>, c: &mut tensor<?x?x{T}, #CSR>) {
            c[i, j] = s[i, j] * (u[i, k] * v[k, j]);
        }",
        any_float: true,
    },
    Kernel {
        name: "add_csr_sparse_out",
        encodings: &["CSR"],
        text: "pub fn add_csr_sparse_out{N}(a: &tensor<?x?x{T}, #CSR>, b: &tensor<?x?x{T}, #CSR>, c: &mut tensor<?x?x{T}, #CSR>) {
            c[i, j] = a[i, j] + b[i, j];
        }",
        any_float: true,
    },
    Kernel {
        name: "spgemm_csr",
        encodings: &["CSR"],
        text: "pub fn spgemm_csr{N}(a: &tensor<?x?x{T}, #CSR>, b: &tensor<?x?x{T}, #CSR>, c: &mut tensor<?x?x{T}, #CSR>) {
            c[i, j] = a[i, k] * b[k, j];
        }",
        any_float: true,
    },
    Kernel {
        name: "mttkrp_csf",
        encodings: &["CSF"],
        text: "pub fn mttkrp_csf{N}(a: &tensor<?x?x?x{T}, #CSF>, b: &tensor<?x?x{T}>, c: &tensor<?x?x{T}>, d: &mut tensor<?x?x{T}>) {
            d[i, j] = a[i, k, l] * b[k, j] * c[l, j];
        }",
        any_float: true,
    },
];

/// The encodings' text, all of them (for the generated crate's blocks).
pub fn all_encodings() -> String {
    ENCODINGS
        .iter()
        .map(|(_, e)| *e)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text of `k` with element type `t` and name suffix `n`.
pub fn instantiate(k: &Kernel, t: &str, n: &str) -> String {
    k.text.replace("{T}", t).replace("{N}", n)
}

/// The block body for timing `k` alone: its encodings and the kernel (f64).
pub fn block(k: &Kernel) -> String {
    let mut s = String::new();
    for name in k.encodings {
        if let Some((_, e)) = ENCODINGS.iter().find(|(n, _)| n == name) {
            s.push_str(e);
            s.push('\n');
        }
    }
    s.push_str(&instantiate(k, "f64", ""));
    s
}

/// The block body with the encodings of `k` and no kernel (the baseline).
pub fn encodings_only(k: &Kernel) -> String {
    let mut s = String::new();
    for name in k.encodings {
        if let Some((_, e)) = ENCODINGS.iter().find(|(n, _)| n == name) {
            s.push_str(e);
            s.push('\n');
        }
    }
    s
}

/// Constants timed: (name, block text, stored entries). A 64x256 pruned
/// layer (about 1 in 8 weights kept, deterministic) as a `dense<>`
/// literal and as a `sparse<>` literal, both into CSR, and a dense splat.
pub fn constants() -> Vec<(String, String, usize)> {
    use std::fmt::Write;
    let (rows, cols) = (64usize, 256usize);
    let weight = |i: usize, j: usize| -> Option<f32> {
        let h = (i * 7919 + j * 104_729) % 8;
        (h == 0).then(|| ((i * 31 + j * 17) % 200) as f32 / 8.0 - 12.5)
    };
    let enc = "#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 16, crdWidth = 8 }>";
    let mut dense = String::new();
    let mut indices = String::new();
    let mut values = String::new();
    let mut nnz = 0;
    for i in 0..rows {
        dense.push_str(if i == 0 { "[" } else { ", [" });
        for j in 0..cols {
            let v = weight(i, j);
            let _ = write!(
                dense,
                "{}{:?}",
                if j == 0 { "" } else { ", " },
                v.unwrap_or(0.0)
            );
            if let Some(v) = v {
                let sep = if nnz == 0 { "" } else { ", " };
                let _ = write!(indices, "{sep}[{i}, {j}]");
                let _ = write!(values, "{sep}{v:?}");
                nnz += 1;
            }
        }
        dense.push(']');
    }
    vec![
        (
            "dense<> 64x256 f32 → CSR".to_string(),
            format!("{enc}\nstatic W: tensor<64x256xf32, #CSR> = dense<[{dense}]>;"),
            nnz,
        ),
        (
            "sparse<> 64x256 f32 → CSR".to_string(),
            format!("{enc}\nstatic W: tensor<64x256xf32, #CSR> = sparse<[{indices}], [{values}]>;"),
            nnz,
        ),
        (
            "dense<1.0> splat 64x256 → CSR".to_string(),
            format!("{enc}\nstatic W: tensor<64x256xf32, #CSR> = dense<1.0>;"),
            rows * cols,
        ),
    ]
}
