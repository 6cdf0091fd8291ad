//! Accesses of a statement: the output written and the tensors read,
//! resolved to parameters and kernel-wide index variables, with the rules
//! on their subscripts (ranks, brackets, static sizes that agree, every
//! index with a range).

use syn::Ident;

use super::{Binding, Checker};
use crate::errors::Errors;
use crate::model::ValueType;
use crate::sparsifier::{Access, LoopId};
use crate::suggest::{backquoted, did_you_mean};
use crate::syntax::AccessSyntax;

impl Checker<'_> {
    /// Rule: an index variable is not also a parameter.
    /// `y[a] = a[a, j]` with a parameter `a` is an error at each `a` in
    /// brackets. Returns the kernel-wide id of the variable.
    pub(super) fn index_variable(&mut self, index: &Ident, errors: &mut Errors) -> Option<LoopId> {
        if self.binding(index).is_some() {
            errors.error(
                index.span(),
                format!(
                    "`{index}` is a parameter of `{}` and cannot also be an index variable; \
                     give the index variable its own name, e.g. `i`",
                    self.def.name
                ),
            );
            return None;
        }
        let name = index.to_string();
        if let Some(p) = self.kernel.loops.iter().position(|l| *l == name) {
            return Some(LoopId(p as u32));
        }
        self.index_spans.push(index.span());
        Some(self.kernel.index(&name))
    }

    /// The left-hand side: an output tensor's element.
    pub(super) fn check_lhs(
        &mut self,
        lhs: &AccessSyntax,
        errors: &mut Errors,
    ) -> Option<(Access, ValueType)> {
        let name = &lhs.tensor;
        match self.binding(name).cloned() {
            // Rule: only `&mut` tensors are written.
            // `x[i] = ...` with `x: &tensor<?xf64>` is an error at `x`.
            Some(Binding::Tensor { mutable: false, .. }) => {
                let declared = self
                    .params
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(name.span(), |(n, _)| n.span());
                errors.error_with_note(
                    name.span(),
                    format!(
                        "`{name}` is an input (`&tensor<...>`) and cannot be written; declare it \
                         `{name}: &mut tensor<...>` to make it an output"
                    ),
                    declared,
                    format!("`{name}` is declared here"),
                );
                None
            }
            // Rule: scalar parameters are values, not outputs.
            // `alpha = a[i]` or `alpha[] = ...` with `alpha: f32` is an error.
            Some(Binding::Scalar { prim }) => {
                let elem = prim.map_or("f64", ValueType::mlir_name);
                errors.error(
                    name.span(),
                    format!(
                        "`{name}` is a scalar parameter, passed by value, and cannot be \
                         assigned; write the result to an output tensor, e.g. \
                         `{name}: &mut tensor<{elem}>` for a single value, assigned with \
                         `{name}[] = ...;`"
                    ),
                );
                None
            }
            Some(Binding::Broken) => None,
            Some(Binding::Tensor { elem, .. }) => {
                if lhs.brackets.is_none() {
                    return self.missing_brackets(lhs, errors);
                }
                self.writing = true;
                let access = self.check_access(lhs, errors);
                self.writing = false;
                // Rule: a statement writes each output element through
                // distinct index variables. `c[i, i] = x[i]` is an error at
                // `c[i, i]`, which names the choice to write instead.
                if let Some(&(_, repeated)) = std::mem::take(&mut self.diagonals).first() {
                    let index = self.kernel.loop_name(repeated).to_string();
                    errors.error_range(
                        name.span(),
                        lhs.last_span(),
                        format!(
                            "`{}` uses `{index}` for two dimensions of the output; a statement \
                             writes each output element through distinct index variables: \
                             write the diagonal as a choice over a dense output, e.g. \
                             `{name}[{index}, j] = if {index} == j {{ .. }} else {{ 0.0 }}`",
                            lhs.text()
                        ),
                    );
                    return None;
                }
                access.map(|a| (a, elem))
            }
            None => {
                self.unknown_tensor(name, errors);
                None
            }
        }
    }

    /// `s = ...` for `s[] = ...`, `y = ...` for `y[i] = ...`.
    pub(super) fn missing_brackets<T>(&self, lhs: &AccessSyntax, errors: &mut Errors) -> Option<T> {
        let rank = match self.binding(&lhs.tensor) {
            Some(Binding::Tensor { shape, .. }) => shape.len(),
            _ => 0,
        };
        errors.error(
            lhs.tensor.span(),
            format!(
                "write the element of `{0}` that the statement assigns: `{0}[{1}]`, with one \
                 index variable per dimension (`{0}` has rank {rank})",
                lhs.tensor,
                example_indices(rank)
            ),
        );
        None
    }

    /// Rule: an access names a tensor parameter, with one index variable
    /// per dimension, and each index variable's static sizes agree.
    pub(super) fn check_access(
        &mut self,
        access: &AccessSyntax,
        errors: &mut Errors,
    ) -> Option<Access> {
        let name = &access.tensor;
        let (id, shape, sparse) = match self.binding(name) {
            Some(Binding::Tensor {
                id, shape, sparse, ..
            }) => (*id, shape.clone(), *sparse),
            Some(Binding::Broken) => return None,
            Some(Binding::Scalar { .. }) => {
                errors.error_range(
                    name.span(),
                    access.last_span(),
                    format!(
                        "`{name}` is a scalar parameter, not a tensor; use it without brackets: \
                         `{name}`"
                    ),
                );
                return None;
            }
            None => {
                self.unknown_tensor(name, errors);
                return None;
            }
        };
        // Rule: one index variable per dimension.
        // `a[i]` with `a: &tensor<?x?xf64, #CSR>` is an error at `a[i]`.
        if access.indices.len() != shape.len() {
            errors.error_range(
                name.span(),
                access.last_span(),
                format!(
                    "`{name}` has {} dimension(s) but `{}` gives {} index variable(s); write \
                     `{name}[{}]`",
                    shape.len(),
                    access.text(),
                    access.indices.len(),
                    example_indices(shape.len())
                ),
            );
            return None;
        }
        let mut indices = Vec::new();
        let mut affine = Vec::new();
        self.diagonals.clear();
        for (d, index) in access.indices.iter().enumerate() {
            if let Some(e) = access.affine_dim(d) {
                let (driving, subscript) =
                    self.affine_subscript(name, e, &indices, sparse && !self.writing, errors)?;
                indices.push(driving);
                affine.push((d, subscript));
                continue;
            }
            let mut loop_id = LoopId(self.kernel.loops.iter().position(|l| index == l)? as u32);
            // A diagonal `a[i, i]`: the repeat gets a variable of its own,
            // which the right-hand side equates with `i` (see `resolve`).
            if indices.contains(&loop_id) {
                let fresh = format!("{index}__diag{}", self.kernel.loops.len());
                self.index_spans.push(index.span());
                let repeated = loop_id;
                loop_id = self.kernel.index(&fresh);
                self.diagonals.push((loop_id, repeated));
            }
            if let Some(size) = shape[d] {
                self.bind_size(
                    loop_id,
                    size,
                    index,
                    &format!("dimension {d} of `{name}`"),
                    errors,
                );
            }
            indices.push(loop_id);
        }
        Some(Access {
            tensor: id,
            indices,
            affine,
        })
    }

    /// Rule: the static sizes an index variable ranges over agree.
    /// `y[i] = a[i, j] * x[j]` with `a: &tensor<64x300xf32, #CSR>` and
    /// `x: &tensor<200xf32>` is an error at the second `j`, with a note at
    /// the first.
    pub(super) fn bind_size(
        &mut self,
        l: LoopId,
        size: u64,
        index: &Ident,
        what: &str,
        errors: &mut Errors,
    ) {
        match self.sizes.get(&l) {
            Some((first, span, first_what)) if *first != size => errors.error_with_note(
                index.span(),
                format!(
                    "index variable `{index}` ranges over {size} here ({what}) but over {first} \
                     where it is first bound ({first_what}); the static sizes an index \
                     variable indexes must agree: fix one of the tensor types, or use `?`"
                ),
                *span,
                format!("`{index}` is first bound to size {first} here ({first_what})"),
            ),
            Some(_) => {}
            None => {
                self.sizes.insert(l, (size, index.span(), what.to_string()));
            }
        }
    }

    /// Rule: an access names a tensor parameter.
    /// `y[i] = b[i, j] * x[j]` with no parameter `b` is an error at `b`.
    pub(super) fn unknown_tensor(&self, name: &Ident, errors: &mut Errors) {
        // A parameter that failed to parse may have had this name.
        if self.def.broken {
            return;
        }
        let names = self.tensor_names();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let listed = if names.is_empty() {
            "it has no tensor parameters".to_string()
        } else {
            format!("its tensor parameters are {}", backquoted(&refs))
        };
        let hint = match did_you_mean(&name.to_string(), &refs) {
            hint if hint.is_empty() => format!(
                "; declare it as a parameter, e.g. `{name}: &tensor<?xf64>` (`&mut` for the \
                 tensor a statement writes)"
            ),
            hint => hint,
        };
        errors.error(
            name.span(),
            format!(
                "unknown tensor `{name}` in kernel `{}`: {listed}{hint}",
                self.def.name
            ),
        );
    }
}

/// Rule: every index variable of a statement indexes some tensor
/// dimension by itself, which gives its range, or has a `#[range(..)]`
/// (`ranged`); one used only inside affine subscripts has none. `y[i] =
/// x[i + k]` is an error at `k`.
pub(super) fn check_plain_uses(accesses: &[&AccessSyntax], ranged: &[String], errors: &mut Errors) {
    let plain: Vec<&Ident> = accesses
        .iter()
        .flat_map(|a| {
            a.indices
                .iter()
                .enumerate()
                .filter(|(d, _)| a.affine_dim(*d).is_none())
                .map(|(_, i)| i)
        })
        .collect();
    let mut reported: Vec<&Ident> = Vec::new();
    for a in accesses {
        for (_, e) in &a.affine {
            let mut vars = Vec::new();
            e.vars(&mut vars);
            for v in vars {
                if plain.contains(&v) || reported.contains(&v) || ranged.iter().any(|r| v == r) {
                    continue;
                }
                reported.push(v);
                errors.error(
                    v.span(),
                    format!(
                        "`{v}` appears only inside subscripts (`{}`), so its range is unknown; \
                         index a tensor with `{v}` alone too, e.g. a filter `f[{v}]` in a \
                         convolution `y[i] = x[i + {v}] * f[{v}]`, or give it a size with \
                         `#[range({v} = 2)]` (a pooling window)",
                        e
                    ),
                );
            }
        }
    }
}

/// `i, j, k` for rank 3 (empty for rank 0).
pub(super) fn example_indices(rank: usize) -> String {
    const NAMES: [&str; 6] = ["i", "j", "k", "l", "m", "n"];
    (0..rank)
        .map(|d| NAMES.get(d).map_or(format!("i{d}"), |n| n.to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}
