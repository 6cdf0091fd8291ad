//! End-to-end tests of the sparsifier on hand-built kernels.
