//! The inner loop nests of scoped sums: each `sum(..)` of a value becomes
//! a local ([`Node::SumLocal`]) that a nest over the summed loops, in the
//! statement's loop order, adds its body into ([`Node::SumAdd`]).

use super::{merger, Builder, Expr, LoopId, Next, Node, Role};

impl Builder<'_> {
    /// Replaces each sum of `value` (outermost first) by the local an
    /// inner loop nest, pushed onto `out`, sums it into.
    pub(super) fn lower_sums(&mut self, value: Expr, out: &mut Vec<Node>) -> Expr {
        match value {
            Expr::Sum(loops, body) => {
                let local = self.next_local;
                self.next_local += 1;
                out.push(Node::SumLocal {
                    local,
                    body: (*body).clone(),
                });
                let order: Vec<LoopId> = self
                    .full_order
                    .iter()
                    .copied()
                    .filter(|l| loops.contains(l))
                    .collect();
                let nodes = self.gen_sum(&body, &order, 0, local);
                out.extend(nodes);
                Expr::Local(local)
            }
            other => super::super::scope::map_children(other, &mut |c| self.lower_sums(c, out)),
        }
    }

    /// The inner nest of a scoped sum from its loop `depth` inwards.
    pub(super) fn gen_sum(
        &mut self,
        expr: &Expr,
        order: &[LoopId],
        depth: usize,
        local: u32,
    ) -> Vec<Node> {
        if depth == order.len() {
            let value = merger::finalize(expr.clone());
            if value == Expr::Absent {
                return Vec::new();
            }
            let mut out = Vec::new();
            let value = self.lower_sums(value, &mut out);
            out.push(Node::SumAdd { local, value });
            return out;
        }
        let mode = merger::Mode {
            innermost: depth + 1 == order.len(),
            complete: false,
        };
        let next = Next::Sum {
            order,
            depth: depth + 1,
            local,
        };
        vec![self.loop_node(expr, order[depth], Role::Reduction, mode, &next)]
    }
}
