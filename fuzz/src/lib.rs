//! What the fuzz targets share: the input caps that keep known compiler
//! defects out of the way (`caps`), the grammar-aware generator
//! (`grammar`) and the seed splicer (`splice`).

use arbitrary::Unstructured;

pub mod caps;
pub mod grammar;
pub mod splice;

/// The text an `expand_grammar` input stands for: with an even first byte
/// a generated block, with an odd one a spliced seed; `None` for an empty
/// input or a failed generation.
pub fn text(data: &[u8]) -> Option<String> {
    let (&mode, rest) = data.split_first()?;
    let mut u = Unstructured::new(rest);
    if mode % 2 == 0 {
        grammar::block(&mut u).ok()
    } else {
        splice::mutate(&mut u, SEEDS).ok().flatten()
    }
}

/// The `sparse_kernel!` bodies of the repository's tests, extracted by
/// `fuzz/seed-corpus.sh` into `fuzz/corpus/expand_tokens/` and embedded by `build.rs`:
/// the material the splicing mode of `expand_grammar` recombines.
pub const SEEDS: &[&str] = include!(concat!(env!("OUT_DIR"), "/seeds.rs"));
