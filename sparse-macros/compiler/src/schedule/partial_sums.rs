//! Partial sums (`#[reassociate]`): an innermost dense loop whose body only
//! adds into a scoped sum's local (SDDMM's `sum(k, u[i, k] * vt[j, k])`
//! once `Kernel::sum_first` kept it apart) runs [`LANES`] iterations per
//! step, each adding into its own partial sum, and adds the partial sums
//! in a fixed tree at the end. The lanes are independent, so the compiler
//! turns each step into SIMD multiplies and adds over whole rows; an
//! in-order float sum cannot be, since every add waits for the previous
//! one and regrouping changes the rounding. Only where the kernel asks
//! for it: the result differs from the in-order sum in the last bits.

use crate::plan::KernelPlan;
use crate::sparsifier::{LoopId, Node, Role, StmtPlan};

/// Partial sums per loop: 8 (two AVX2 vectors of `f32`, four of `f64`;
/// enough independent adds to hide the add latency on current cores).
pub const LANES: u32 = 8;

/// A dense reduction loop summed in [`LANES`] partial sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartialSums {
    /// The loop.
    pub loop_id: LoopId,
    /// The scoped sum's local (`r<n>`) its body adds into.
    pub local: u32,
}

/// The loops of `sp` summed in partial sums under `#[reassociate]`: dense
/// reduction loops whose body is one add into a scoped sum's local, not
/// already written out, unrolled, split or compiled (`taken`).
pub fn partial_sums(kp: &KernelPlan, sp: &StmtPlan, taken: &[LoopId]) -> Vec<PartialSums> {
    if kp.def.reassociate.is_none() {
        return Vec::new();
    }
    let mut found = Vec::new();
    super::unroll::visit(&sp.tree, &mut |node| {
        if let Node::For {
            loop_id,
            role: Role::Reduction,
            body,
            ..
        } = node
        {
            if let [Node::SumAdd { local, .. }] = body.as_slice() {
                if !taken.contains(loop_id) {
                    found.push(PartialSums {
                        loop_id: *loop_id,
                        local: *local,
                    });
                }
            }
        }
    });
    found
}
