//! Kernels writing sparse outputs (`&mut tensor<..., #ENC>`), against a
//! dense evaluation **and** the exact set of stored coordinates, over every
//! buffer family: element-wise unions and intersections (`elementwise`),
//! mixed expressions (`mixed`), SpGEMM through the workspace
//! (`workspace`; rows of every shape the workspace orders differently,
//! plus-times and min-plus, in `accumulators`), the exact capacity and `posWidth` errors (`capacity`,
//! `capacity_props`), and the compiler's sparse-output codegen snapshots
//! compiled and run (`codegen`).
//!
//! One test binary (a tier); each file below is a module of it.

mod sparse_outputs {
    mod accumulators;
    mod capacity;
    mod capacity_props;
    mod codegen;
    mod elementwise;
    mod mixed;
    mod workspace;
}
