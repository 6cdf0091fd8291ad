//! Closures of semiring operations, called where the loop tree evaluates
//! them.
//!
//! A closure is emitted as written, called in place: `(|x: f64, y: f64| ->
//! f64 { x + y })(__sk_a_v, __sk_b_v)`, which LLVM inlines. Its parameters
//! and result get the element types the model settled, so a body of the
//! wrong type is rustc's error on the user's own tokens. Around the call
//! the index variables the body names are bound as `usize` (MLIR's
//! `linalg.index`), and the math functions it names are imported from
//! sparse-core's `no_std` shim, so `sqrt(x)` and `x.sqrt()` work without
//! `std`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};

use super::{elem_type, zero, Gen};
use crate::model::{ClosureBody, ClosureDef, ValueType};
use crate::sparsifier::FuncId;
use crate::syntax::{COMPLEX_FUNCTIONS, MATH_FUNCTIONS};

impl Gen<'_> {
    fn closure_def(&mut self, f: FuncId) -> Option<ClosureDef> {
        let def = self.def.closures.get(f.index()).cloned();
        if def.is_none() {
            let span = self.def.name.span();
            self.error(span, format!("internal: closure #{} is missing", f.0));
        }
        def
    }

    /// The type closure `f` expects for parameter `n`, if known.
    pub(super) fn param_type(&self, f: FuncId, n: usize) -> Option<ValueType> {
        self.def
            .closures
            .get(f.index())
            .and_then(|d| d.params.get(n).copied().flatten())
    }

    /// `f(args)`: the closure called on already lowered arguments.
    pub(super) fn apply(&mut self, f: FuncId, args: &[TokenStream]) -> TokenStream {
        let Some(def) = self.closure_def(f) else {
            return quote!(0);
        };
        let body_tokens = match &def.body {
            ClosureBody::Closure(c) => c.body.to_token_stream(),
            ClosureBody::Value(t) => t.clone(),
        };
        let prelude = self.prelude(&def, body_tokens);
        let result = elem_type(def.result);
        let call = match &def.body {
            ClosureBody::Value(t) => quote!({ let __sk_value: #result = #t; __sk_value }),
            ClosureBody::Closure(c) => {
                let mut c = (**c).clone();
                for (n, input) in c.inputs.iter_mut().enumerate() {
                    let ty = def.params.get(n).copied().flatten();
                    if let (Some(ty), false) = (ty, matches!(input, syn::Pat::Type(_))) {
                        let ty: syn::Type = syn::parse2(elem_type(ty))
                            .unwrap_or(syn::Type::Verbatim(elem_type(ty)));
                        *input = syn::Pat::Type(syn::PatType {
                            attrs: Vec::new(),
                            pat: Box::new(input.clone()),
                            colon_token: Default::default(),
                            ty: Box::new(ty),
                        });
                    }
                }
                if matches!(c.output, syn::ReturnType::Default) {
                    let ty: syn::Type =
                        syn::parse2(result.clone()).unwrap_or(syn::Type::Verbatim(result.clone()));
                    c.output = syn::ReturnType::Type(Default::default(), Box::new(ty));
                    let body = &c.body;
                    let block = quote!({ #body });
                    *c.body = syn::parse2(block.clone()).unwrap_or(syn::Expr::Verbatim(block));
                }
                quote!((#c)(#(#args),*))
            }
        };
        quote!({ #prelude #call })
    }

    /// The index variables and math functions `body` names.
    fn prelude(&self, def: &ClosureDef, body: TokenStream) -> TokenStream {
        let mut names = Vec::new();
        collect_idents(body, &mut names);
        // A closure over complex values gets the complex functions (the
        // same names, MLIR's `complex` dialect); the others the real ones.
        let complex = def
            .params
            .iter()
            .flatten()
            .chain([&def.result])
            .any(|t| t.is_complex());
        let math: Vec<proc_macro2::Ident> = MATH_FUNCTIONS
            .iter()
            .map(|(f, _)| *f)
            .filter(|f| {
                if complex {
                    COMPLEX_FUNCTIONS.contains(f)
                } else {
                    !is_complex_only(f)
                }
            })
            .filter(|f| names.iter().any(|n| n == f))
            .map(|f| format_ident!("{}", f))
            .collect();
        let (module, math_trait) = if complex {
            (quote!(math::complex), quote!(ComplexMath))
        } else {
            (quote!(math), quote!(Real))
        };
        let bindings = def.indices.iter().map(|(name, l)| {
            let var = self.var(*l);
            quote!(let #name: ::core::primitive::usize = #var;)
        });
        quote! {
            #[allow(unused_imports)]
            use ::sparse_core::__private::#module::{#math_trait as _, #(#math),*};
            #(#bindings)*
        }
    }

    /// The zero a closure's parameter `n` receives where its operand has
    /// no value (a custom reduction folding an implicit zero).
    pub(super) fn zero_for(&self, f: FuncId, n: usize) -> TokenStream {
        zero(self.param_type(f, n).unwrap_or_else(|| self.out_elem()))
    }
}

/// `conj`, `re`, `im`: functions of complex numbers only.
fn is_complex_only(f: &str) -> bool {
    matches!(f, "conj" | "re" | "im")
}

fn collect_idents(tokens: TokenStream, out: &mut Vec<String>) {
    for t in tokens {
        match t {
            proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
            proc_macro2::TokenTree::Group(g) => collect_idents(g.stream(), out),
            _ => {}
        }
    }
}
