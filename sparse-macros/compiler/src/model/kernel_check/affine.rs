//! Affine subscripts (`a[i + k, 2 * j + l - 1]`): the linear form of each
//! subscript, and the variable whose loop drives the dimension.
//!
//! A subscript is `Σ cᵥ·v + c₀` over index variables. The sparsifier needs
//! one variable per dimension to place the dimension's level in the loop
//! nest (MLIR's sparsifier does the same for its affine `linalg` maps): the
//! *driving* variable, whose loop walks the level once the other variables
//! are bound, with coordinate `crd - (the rest)`. So on a sparse operand
//! the driving variable has coefficient 1, and is chosen among the summed
//! variables first (`i + k` in a convolution: `k` walks the row of `a`
//! under the output's `i`), then the last written.

use syn::Ident;

use super::Checker;
use crate::model::Errors;
use crate::sparsifier::{Affine, LoopId};
use crate::syntax::{AffineExpr, BinOp};

/// Coefficients and constants stay below this, so `Σ cᵥ·(nᵥ - 1)` cannot
/// overflow the `i128` arithmetic of the range checks, and the generated
/// `usize` arithmetic is meaningful.
const MAX_COEFFICIENT: i64 = 1 << 32;

/// A subscript in linear form, by variable name, before the variables get
/// ids: `(name token, coefficient)` and the constant.
struct Linear<'a> {
    terms: Vec<(&'a Ident, i64)>,
    constant: i64,
}

impl Linear<'_> {
    fn scale(&mut self, k: i64) -> Option<()> {
        for (_, c) in &mut self.terms {
            *c = c.checked_mul(k)?;
        }
        self.constant = self.constant.checked_mul(k)?;
        Some(())
    }
    /// Whether every coefficient and the constant stay below
    /// [`MAX_COEFFICIENT`].
    fn bounded(&self) -> bool {
        self.constant.abs() < MAX_COEFFICIENT
            && self.terms.iter().all(|(_, c)| c.abs() < MAX_COEFFICIENT)
    }
}

fn linearize<'a>(e: &'a AffineExpr, errors: &mut Errors) -> Option<Linear<'a>> {
    match e {
        AffineExpr::Var(v) => Some(Linear {
            terms: vec![(v, 1)],
            constant: 0,
        }),
        AffineExpr::Const(n, span) => match i64::try_from(*n) {
            Ok(n) if n < MAX_COEFFICIENT => Some(Linear {
                terms: Vec::new(),
                constant: n,
            }),
            _ => {
                errors.error(*span, format!("`{n}` is too large for a subscript"));
                None
            }
        },
        AffineExpr::Neg(inner, _) => {
            let mut l = linearize(inner, errors)?;
            l.scale(-1)?;
            Some(l)
        }
        AffineExpr::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } => {
            // Both sides first, so each reports its own errors.
            let (a, b) = (linearize(lhs, errors), linearize(rhs, errors));
            let combined = match op {
                BinOp::Add | BinOp::Sub => {
                    let (mut a, mut b) = (a?, b?);
                    if *op == BinOp::Sub {
                        b.scale(-1)?;
                    }
                    for (v, c) in b.terms {
                        match a.terms.iter_mut().find(|(x, _)| *x == v) {
                            Some((_, x)) => *x = x.checked_add(c)?,
                            None => a.terms.push((v, c)),
                        }
                    }
                    a.constant = a.constant.checked_add(b.constant)?;
                    a
                }
                BinOp::Mul => {
                    let (a, b) = (a?, b?);
                    let (mut var, k) = match (a.terms.is_empty(), b.terms.is_empty()) {
                        (true, _) => (b, a.constant),
                        (_, true) => (a, b.constant),
                        _ => {
                            errors.error(
                                *op_span,
                                format!(
                                    "`{e}` multiplies two index variables; a subscript is \
                                     affine: index variables times constants, plus a \
                                     constant (`2 * i + k`)"
                                ),
                            );
                            return None;
                        }
                    };
                    var.scale(k)?;
                    var
                }
                BinOp::FloorDiv | BinOp::CeilDiv | BinOp::Mod => {
                    errors.error(
                        *op_span,
                        format!(
                            "`{e}`: subscripts take `+`, `-` and multiplication by a constant; \
                             `floordiv`, `ceildiv` and `mod` belong in an encoding's map (a \
                             block format such as BSR)"
                        ),
                    );
                    return None;
                }
            };
            if !combined.bounded() {
                errors.error(
                    e.span(),
                    format!("the subscript `{e}` has coefficients or constants too large"),
                );
                return None;
            }
            Some(combined)
        }
    }
}

impl Checker<'_> {
    /// The affine subscript `e` of dimension `d` of `tensor`, and its
    /// driving variable; `taken` are the variables earlier dimensions of
    /// the access already use, `sparse` whether the tensor stores
    /// coordinates.
    pub(super) fn affine_subscript(
        &mut self,
        tensor: &Ident,
        e: &AffineExpr,
        taken: &[LoopId],
        sparse: bool,
        errors: &mut Errors,
    ) -> Option<(LoopId, Affine)> {
        let before = errors.len();
        let Some(linear) = linearize(e, errors) else {
            // Every refusal is reported: an overflow caught by a checked
            // operation has no message of its own.
            if errors.len() == before {
                errors.error(
                    e.span(),
                    format!("the subscript `{e}` has coefficients or constants too large"),
                );
            }
            return None;
        };
        let mut terms = Vec::new();
        for (v, c) in &linear.terms {
            if *c == 0 {
                continue;
            }
            let l = self.index_variable(v, errors)?;
            terms.push((l, *c, *v));
        }
        if terms.is_empty() {
            errors.error(
                e.span(),
                format!(
                    "the subscript `{e}` of `{tensor}` is a constant; a subscript needs an index \
                     variable (`i + 1`)"
                ),
            );
            return None;
        }
        // Summed variables first, then the last written; never one the
        // access already uses for another dimension.
        let candidates = |unit: bool| {
            terms
                .iter()
                .rev()
                .filter(|(l, c, _)| (!unit || *c == 1) && !taken.contains(l))
                .min_by_key(|(l, _, _)| self.lhs_loops.contains(l))
                .map(|(l, _, _)| *l)
        };
        let driving = match candidates(true) {
            Some(l) => l,
            None if !sparse => match candidates(false) {
                Some(l) => l,
                None => terms[terms.len() - 1].0,
            },
            None => {
                errors.error(
                    e.span(),
                    format!(
                        "the subscript `{e}` of sparse `{tensor}` needs an index variable with \
                         coefficient 1 that no other dimension of the access uses: its loop \
                         walks the stored coordinates of that dimension (`i + k`, `2 * i + k`); \
                         a strided or reversed walk of a sparse dimension is not supported, \
                         convert `{tensor}` to a dense tensor for it"
                    ),
                );
                return None;
            }
        };
        Some((
            driving,
            Affine {
                terms: terms.iter().map(|&(l, c, _)| (l, c)).collect(),
                constant: linear.constant,
                slice: None,
            },
        ))
    }
}
