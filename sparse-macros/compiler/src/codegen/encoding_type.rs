//! The `Enc` type of an encoding: the widths as index types, the level
//! types and the dim→lvl map as tuples of `sparse_core::levels` markers,
//! spelled as MLIR spells the encoding (`(dense, compressed)`, `(d1,
//! d0)`), so that rustc's type-mismatch messages read as encodings.
//!
//! Each encoding has one spelling: properties in MLIR's order, the
//! map's constants as written. The runtime decodes the markers' codes,
//! packed by the same `vocab` functions the compiler uses.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::vocab::{LevelExpr, LevelFormat, LevelType};

/// `::sparse_core::__private::Enc<P, C, (levels..), (map..) VALUES>`;
/// `values` is empty or `, { code }`.
pub(crate) fn enc_type(
    pos: &TokenStream,
    crd: &TokenStream,
    types: &[LevelType],
    exprs: &[LevelExpr],
    values: &TokenStream,
) -> TokenStream {
    let types = types.iter().map(|&t| level_type(t));
    let exprs = exprs.iter().map(|&e| level_expr(e));
    quote! {
        ::sparse_core::__private::Enc<#pos, #crd, (#(#types,)*), (#(#exprs,)*) #values>
    }
}

fn marker(name: &str) -> TokenStream {
    let ident = format_ident!("{}", name);
    quote!(::sparse_core::__private::levels::#ident)
}

/// `dense`, `compressed<(nonunique, nonordered)>`, `structured<2, 4>`.
fn level_type(ty: LevelType) -> TokenStream {
    let format = match ty.format {
        LevelFormat::Structured { n, m } => {
            let (n, m) = (Literal::u8_unsuffixed(n), Literal::u8_unsuffixed(m));
            let name = marker("structured");
            return quote!(#name<#n, #m>);
        }
        other => marker(other.name()),
    };
    let props: Vec<_> = ty.props.names().map(marker).collect();
    match props.as_slice() {
        [] => format,
        [one] => quote!(#format<#one>),
        many => quote!(#format<(#(#many),*)>),
    }
}

/// `d1`, `floordiv<d0, 2>`, `modulo<d0, 2>`, `counting<d0, 3>`.
fn level_expr(expr: LevelExpr) -> TokenStream {
    let dim = |d: u8| marker(&format!("d{d}"));
    let (name, d, k) = match expr {
        LevelExpr::Dim(d) => return dim(d),
        LevelExpr::FloorDiv { dim, divisor } => ("floordiv", dim, divisor),
        LevelExpr::Mod { dim, modulus } => ("modulo", dim, modulus),
        LevelExpr::Counting { dim, slices } => ("counting", dim, slices),
    };
    let (name, d, k) = (marker(name), dim(d), Literal::u32_unsuffixed(k));
    quote!(#name<#d, #k>)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::LevelProps;

    #[test]
    fn spells_levels_and_maps_as_mlir_does() {
        let cmp = LevelType::new(LevelFormat::Compressed);
        let types = [
            LevelType::new(LevelFormat::Dense),
            cmp.with(LevelProps::NONUNIQUE.union(LevelProps::NONORDERED)),
            LevelType::new(LevelFormat::Singleton).with(LevelProps::SOA),
            LevelType::new(LevelFormat::Structured { n: 2, m: 4 }),
        ];
        let exprs = [
            LevelExpr::Dim(1),
            LevelExpr::FloorDiv { dim: 0, divisor: 2 },
            LevelExpr::Mod { dim: 0, modulus: 4 },
            LevelExpr::Counting { dim: 2, slices: 3 },
        ];
        let ty = enc_type(&quote!(u8), &quote!(u16), &types, &exprs, &quote!());
        let text = ty
            .to_string()
            .replace(":: sparse_core :: __private :: levels :: ", "");
        assert_eq!(
            text,
            ":: sparse_core :: __private :: Enc < u8 , u16 , (dense , compressed < (nonunique , \
             nonordered) > , singleton < soa > , structured < 2 , 4 > ,) , (d1 , floordiv < d0 , \
             2 > , modulo < d0 , 4 > , counting < d2 , 3 > ,) >"
        );
    }
}
