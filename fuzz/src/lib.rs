//! What the fuzz targets share: the input caps that keep known compiler
//! defects out of the way (`caps`), the grammar-aware generator
//! (`grammar`) and the seed splicer (`splice`).

pub mod caps;
pub mod grammar;
pub mod splice;

/// The `sparse_kernel!` bodies of the repository's tests, extracted by
/// `fuzz/seed-corpus.sh` into `fuzz/corpus/expand_tokens/` and embedded by `build.rs`:
/// the material the splicing mode of `expand_grammar` recombines.
pub const SEEDS: &[&str] = include!(concat!(env!("OUT_DIR"), "/seeds.rs"));
