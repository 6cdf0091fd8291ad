//! The macro's layout builder against sparse-core's validating `assemble`,
//! on random entries: for every encoding below, the buffers the compiler
//! builds for a random `sparse<>` literal (duplicates included where the
//! last level is nonunique, explicit zeros included) must be accepted by
//! `assemble` as they are, and the tensor must hold exactly the literal's
//! entries (a repeated coordinate as the sum of its values).

use std::collections::BTreeMap;

use proptest::prelude::*;
use sparse_compiler::model::{ConstData, Scalar};
use sparse_core::{Encoding, Level, SparseTensor};

sparse_core::sparse_kernel! {
    #CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 8, crdWidth = 8 }>
    #CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
    #DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), posWidth = 16 }>
    #COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
    #COOSOA = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)) }>
    #NUCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed(nonunique)) }>
    #LOOSE = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : loose_compressed) }>
    #BSR = #sparse_tensor.encoding<{ map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense) }>
}

/// The encodings as the compiler reads them (the same text as above).
const ENCODINGS: [(&str, &str, bool); 8] = [
    ("CSR", "map = (i, j) -> (i : dense, j : compressed), posWidth = 8, crdWidth = 8", false),
    ("CSC", "map = (i, j) -> (j : dense, i : compressed)", false),
    ("DCSR", "map = (i, j) -> (i : compressed, j : compressed), posWidth = 16", false),
    ("COO", "map = (i, j) -> (i : compressed(nonunique), j : singleton)", false),
    ("COOSOA", "map = (i, j) -> (i : compressed(nonunique), j : singleton(soa))", false),
    ("NUCSR", "map = (i, j) -> (i : dense, j : compressed(nonunique))", true),
    ("LOOSE", "map = (i, j) -> (i : dense, j : loose_compressed)", false),
    ("BSR", "map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)", false),
];

type Dims = [usize; 2];
type Built = (Vec<Level<'static, u64, u64>>, Vec<f64>);

/// The compiler's storage for `entries` (coordinates, small-integer
/// values) under encoding `k`, buffers as `u64`.
fn build(k: usize, dims: Dims, entries: &[(Dims, i32)]) -> Built {
    let (name, text, _) = ENCODINGS[k];
    let indices: Vec<String> = entries
        .iter()
        .map(|(c, _)| format!("[{}, {}]", c[0], c[1]))
        .collect();
    let values: Vec<String> = entries.iter().map(|(_, v)| format!("{v}.0")).collect();
    let src = format!(
        "#{name} = #sparse_tensor.encoding<{{ {text} }}>\n\
         static W: tensor<{}x{}xf64, #{name}> = sparse<[{}], [{}]>;",
        dims[0],
        dims[1],
        indices.join(", "),
        values.join(", ")
    );
    let model =
        sparse_compiler::parse_and_check(src.parse().expect("tokenizes")).unwrap_or_else(|e| {
            panic!(
                "{src}: {:?}",
                e.iter().map(|e| e.to_string()).collect::<Vec<_>>()
            )
        });
    let ConstData::Sparse(storage) = &model.model.constants[0].data else {
        panic!("expected sparse storage");
    };
    let leak = |v: &[u64]| -> &'static [u64] { Box::leak(v.to_vec().into_boxed_slice()) };
    let levels = storage
        .levels
        .iter()
        .map(|l| Level::compressed(leak(&l.positions), leak(&l.coordinates)))
        .collect();
    let values = storage
        .values
        .iter()
        .map(|v| match v {
            Scalar::F64(x) => *x,
            other => panic!("unexpected value {other:?}"),
        })
        .collect();
    (levels, values)
}

/// `assemble` under `E` with the buffers converted to its widths; the
/// entries it then holds, summed per coordinate.
fn check<E: Encoding, const L: usize>(dims: Dims, built: &Built) -> BTreeMap<Dims, f64> {
    let conv_p = |v: &[u64]| -> &'static [E::Pos] {
        let out: Vec<E::Pos> = v.iter().map(|&x| sparse_tests_index::<E::Pos>(x)).collect();
        Box::leak(out.into_boxed_slice())
    };
    let conv_c = |v: &[u64]| -> &'static [E::Crd] {
        let out: Vec<E::Crd> = v.iter().map(|&x| sparse_tests_index::<E::Crd>(x)).collect();
        Box::leak(out.into_boxed_slice())
    };
    let levels: [Level<'static, E::Pos, E::Crd>; L] = std::array::from_fn(|l| {
        Level::compressed(conv_p(built.0[l].positions), conv_c(built.0[l].coordinates))
    });
    let values: &'static [f64] = Box::leak(built.1.clone().into_boxed_slice());
    let t = SparseTensor::<f64, E, 2, L>::assemble(dims, levels, values)
        .unwrap_or_else(|e| panic!("assemble refused the compiler's buffers: {e}"));
    let mut got = BTreeMap::new();
    t.for_each(|d, v| *got.entry(d).or_insert(0.0) += *v);
    got.retain(|_, v| *v != 0.0);
    got
}

/// An index of type `I` from a `u64` known to fit.
fn sparse_tests_index<I: sparse_core::Index>(x: u64) -> I {
    I::from_usize(usize::try_from(x).expect("fits usize")).expect("fits the width")
}

fn entries_strategy() -> impl Strategy<Value = (Dims, Vec<(Dims, i32)>, usize)> {
    (1usize..5, 1usize..5, 0..ENCODINGS.len()).prop_flat_map(|(r, c, k)| {
        // Even sizes for BSR's 2x2 blocks.
        let dims = if ENCODINGS[k].0 == "BSR" {
            [2 * r, 2 * c]
        } else {
            [r, c]
        };
        let entry = ((0..dims[0], 0..dims[1]), -3i32..4).prop_map(|((i, j), v)| ([i, j], v));
        (Just(dims), proptest::collection::vec(entry, 0..12), Just(k))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn compiler_layouts_are_accepted_by_assemble((dims, mut entries, k) in entries_strategy()) {
        let nonunique = ENCODINGS[k].2;
        if !nonunique {
            // Unique encodings refuse duplicates (a compile error): keep the first.
            let mut seen = std::collections::BTreeSet::new();
            entries.retain(|(c, _)| seen.insert(*c));
        }
        let built = build(k, dims, &entries);
        let got = match ENCODINGS[k].0 {
            "CSR" => check::<<CSR<'static, f64> as Tensor>::E, 2>(dims, &built),
            "CSC" => check::<<CSC<'static, f64> as Tensor>::E, 2>(dims, &built),
            "DCSR" => check::<<DCSR<'static, f64> as Tensor>::E, 2>(dims, &built),
            "COO" => check::<<COO<'static, f64> as Tensor>::E, 2>(dims, &built),
            "COOSOA" => check::<<COOSOA<'static, f64> as Tensor>::E, 2>(dims, &built),
            "NUCSR" => check::<<NUCSR<'static, f64> as Tensor>::E, 2>(dims, &built),
            "LOOSE" => check::<<LOOSE<'static, f64> as Tensor>::E, 2>(dims, &built),
            _ => check::<<BSR<'static, f64> as Tensor>::E, 4>(dims, &built),
        };
        let mut want = BTreeMap::new();
        for (c, v) in &entries {
            *want.entry(*c).or_insert(0.0) += f64::from(*v);
        }
        want.retain(|_, v| *v != 0.0);
        prop_assert_eq!(got, want);
    }
}

/// The encoding of an alias.
trait Tensor {
    type E: Encoding;
}
impl<E: Encoding, const D: usize, const L: usize> Tensor for SparseTensor<'static, f64, E, D, L> {
    type E = E;
}
