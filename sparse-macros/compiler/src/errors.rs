//! The error collector shared by the stages (serde_derive's `Ctxt` idea).
//!
//! Every stage keeps going after a problem so that one build reports every
//! error with its span; the pipeline looks at the collector once between
//! stages.

use std::fmt::Display;

use proc_macro2::{Punct, Spacing, Span, TokenStream, TokenTree};

/// Errors found so far, each with the span of the offending token.
#[derive(Default)]
pub struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    /// An empty collector.
    pub fn new() -> Errors {
        Errors::default()
    }

    /// Records an error at `span`.
    pub fn error(&mut self, span: Span, message: impl Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Records an error covering the tokens from `first` to `last` (rustc
    /// underlines the whole range, as for `syn::Error::new_spanned`).
    pub fn error_range(&mut self, first: Span, last: Span, message: impl Display) {
        let mut start = Punct::new('.', Spacing::Alone);
        start.set_span(first);
        let mut end = Punct::new('.', Spacing::Alone);
        end.set_span(last);
        let tokens: TokenStream = [TokenTree::from(start), TokenTree::from(end)]
            .into_iter()
            .collect();
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error together with a note at another span (the second
    /// message is emitted as its own `compile_error!` next to the first).
    pub fn error_with_note(
        &mut self,
        span: Span,
        message: impl Display,
        note_span: Span,
        note: impl Display,
    ) {
        let mut error = syn::Error::new(span, message);
        error.combine(syn::Error::new(note_span, note));
        self.errors.push(error);
    }

    /// Records an error made elsewhere (a `syn` parse error).
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// How many errors were recorded.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Whether no error was recorded.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The recorded errors, in the order they were found.
    pub fn into_vec(self) -> Vec<syn::Error> {
        self.errors
    }
}
