//! Compile-time constants (`static NAME: tensor<...> = dense<...>;`,
//! `sparse<...>`, `file(...)`): every literal form × every storage family,
//! each checked against a hand-computed MLIR layout (`sparse_tensor.print`)
//! and used by a kernel against a dense computation.

mod constants {
    mod files;
    mod formats;
    mod forms;
    mod props;
}
