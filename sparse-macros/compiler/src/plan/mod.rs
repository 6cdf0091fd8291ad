//! Stage 3: the plan. Each checked kernel is sparsified once: its
//! loop-order conflicts are first resolved by reordered copies
//! (`copies.rs`), then [`sparsify`] makes one loop tree per statement, and
//! what the sparsifier rejects becomes spanned errors (`errors.rs`) and a
//! stub of the kernel. The result, a [`KernelPlan`], is everything codegen
//! reads: the kernel as planned, its loop trees, and the encodings its
//! operands are stored in (so codegen looks nothing up by name).

mod copies;
mod errors;
pub mod specialize;
mod tensors;

pub use specialize::Specialized;
pub use tensors::{Kind, Lvl, TensorInfo};

use crate::errors::Errors;
use crate::model::{Encoding, KernelDef, Model, ParamKind};
use crate::schedule::Schedule;
use crate::sparsifier::{sparsify, Kernel, Plan, SparsifyError, TensorId};

/// One kernel, planned: what codegen lowers.
#[derive(Clone, Debug)]
pub struct KernelPlan {
    /// The checked kernel, with one workspace parameter per reordered copy
    /// the plan reads.
    pub def: KernelDef,
    /// The loop tree of every statement (empty for a stub).
    pub loops: Plan,
    /// The encoding of each tensor of [`KernelDef::kernel`] that has one,
    /// by [`TensorId`] (a reordered copy has none: its levels are its
    /// tensor's in the kernel).
    pub encodings: Vec<Option<Encoding>>,
    /// Each tensor of [`KernelPlan::kernel`] as the loops read it, by
    /// [`TensorId`]; `None` for one without a parameter (only on
    /// inconsistent input, which codegen reports).
    pub tensors: Vec<Option<TensorInfo>>,
    /// The operand `#[specialize]` binds to a constant of the block.
    pub specialized: Option<Specialized>,
    /// How each loop runs, decided by the schedule pass over this plan.
    pub schedule: Schedule,
}

impl KernelPlan {
    /// The kernel the loop trees were made over: in level space when an
    /// operand has block levels, else the kernel as written.
    pub fn kernel(&self) -> &Kernel {
        match &self.loops.level_space {
            Some((k, _)) => k,
            None => &self.def.kernel,
        }
    }

    /// The encoding tensor `t` is stored in, if it has one.
    pub fn encoding(&self, t: TensorId) -> Option<&Encoding> {
        self.encodings.get(t.index())?.as_ref()
    }

    /// The encoding called `name` among the kernel's operands'.
    pub fn encoding_named(&self, name: &syn::Ident) -> Option<&Encoding> {
        self.encodings.iter().flatten().find(|e| e.name == *name)
    }

    /// The encoding of operand `t` if it is a sliced operand walked in
    /// place (a parameter, not a copy made from one).
    pub fn sliced(&self, t: TensorId) -> Option<&Encoding> {
        let info = self.tensors.get(t.index())?.as_ref()?;
        if info.source.is_some() {
            return None;
        }
        let enc = self.encoding_named(info.encoding.as_ref()?)?;
        enc.is_sliced().then_some(enc)
    }

    /// Whether operand `t`'s coordinates are packed 2-bit ones
    /// (`crdWidth = 2`; no walk steps through them).
    pub fn packed_coordinates(&self, t: TensorId) -> bool {
        self.tensors
            .get(t.index())
            .and_then(Option::as_ref)
            .and_then(|info| self.encoding_named(info.encoding.as_ref()?))
            .is_some_and(|enc| enc.crd_width == crate::vocab::Width::W2)
    }

    /// A kernel with statements that cannot be generated: its signature
    /// and no loops (the block does not compile; call sites still check).
    fn stub(def: KernelDef, model: &Model) -> KernelPlan {
        let def = crate::model::stub(def);
        let encodings = encodings(&def, model);
        let tensors = tensors::operands(&def, &def.kernel, None);
        KernelPlan {
            def,
            loops: Plan {
                stmts: Vec::new(),
                level_space: None,
            },
            encodings,
            tensors,
            specialized: None,
            schedule: Schedule::default(),
        }
    }

    /// Whether this is a stub (nothing to run).
    pub fn is_stub(&self) -> bool {
        self.def.kernel.stmts.is_empty()
    }
}

/// The planned kernels of a block, and its checked model (encodings,
/// types, constants).
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// The checked block: encodings, types and constants (its kernels
    /// moved into [`Program::kernels`] and [`Program::stubs`]).
    pub model: Model,
    /// Kernels planned, in source order.
    pub kernels: Vec<KernelPlan>,
    /// Kernels with errors (in meaning or in planning) but a valid
    /// signature: generated with an empty body next to the errors, so call
    /// sites add no "cannot find function" errors.
    pub stubs: Vec<KernelPlan>,
}

/// Plans every kernel of `model`.
/// The model keeps its encodings, types and constants; its kernels move
/// into the plan.
pub fn plan(mut model: Model, errors: &mut Errors) -> Program {
    let mut program = Program::default();
    for def in std::mem::take(&mut model.kernels) {
        match plan_kernel(def, &model, errors) {
            Ok(planned) => program.kernels.push(planned),
            Err(stub) => program.stubs.push(*stub),
        }
    }
    for def in std::mem::take(&mut model.stubs) {
        program.stubs.push(KernelPlan::stub(def, &model));
    }
    program.model = model;
    program
}

/// Plans one checked kernel: reordered copies, then the sparsifier, once.
/// On rejection the errors are recorded and the kernel's stub returned.
pub fn plan_kernel(
    mut def: KernelDef,
    model: &Model,
    errors: &mut Errors,
) -> Result<KernelPlan, Box<KernelPlan>> {
    copies::add_reorderings(&mut def, model);
    let specialized = specialize::bind(&def, model, errors);
    sparsify_kernel(def, model, specialized).map_err(|(def, found)| {
        errors::report_all(&def, &found, errors);
        Box::new(KernelPlan::stub(def, model))
    })
}

/// Sparsifies a kernel whose reordered copies are decided (or not
/// needed): its plan, or the kernel back with the sparsifier's errors.
#[allow(clippy::result_large_err)]
pub(crate) fn sparsify_kernel(
    def: KernelDef,
    model: &Model,
    specialized: Option<Specialized>,
) -> Result<KernelPlan, (KernelDef, Vec<SparsifyError>)> {
    match sparsify(&def.kernel) {
        Ok(loops) => {
            let encodings = encodings(&def, model);
            let tensors = match &loops.level_space {
                Some((k, demap)) => tensors::operands(&def, k, Some(demap)),
                None => tensors::operands(&def, &def.kernel, None),
            };
            let mut kp = KernelPlan {
                def,
                loops,
                encodings,
                tensors,
                specialized,
                schedule: Schedule::default(),
            };
            kp.schedule = crate::schedule::schedule(&kp);
            Ok(kp)
        }
        Err(found) => Err((def, found)),
    }
}

/// The encoding of each tensor of `def`'s kernel, by id.
fn encodings(def: &KernelDef, model: &Model) -> Vec<Option<Encoding>> {
    let mut out = vec![None; def.kernel.tensors.len()];
    for p in &def.params {
        if let ParamKind::Sparse {
            tensor, encoding, ..
        } = &p.kind
        {
            if let Some(slot) = out.get_mut(tensor.index()) {
                *slot = model.encoding(&encoding.to_string()).cloned();
            }
        }
    }
    out
}
