//! Input caps for the compiler targets.
//!
//! Each cap kept inputs away from a compiler defect until its fix landed.
//! The fixes are in: the caps now sit past the compiler's own documented
//! limits (nesting 64, expression height 256, number literals of 128
//! characters), so generated inputs reach both sides of each limit and
//! the spanned errors, while staying far from sizes where merely building
//! or dropping the input's token trees is the cost. The regression inputs
//! under `fuzz/regressions/` show each old defect.
//!
//! | cap | known defect |
//! | --- | --- |
//! | [`MAX_DEPTH`] | stack overflow on ~2000 nested parentheses |
//! | [`MAX_ADDITIVE`] | time and memory exponential in the number of `+`/`-` terms over dense operands (20+ terms) |
//! | [`MAX_FACTORS`] | stack overflow on ~3000-factor products |
//! | [`MAX_LITERAL`] | quadratic time parsing huge integer literals |
//! | [`MAX_LOGIC`] | time exponential in nested choices, comparisons, `\|\|` and `!` (found by `expand_grammar`: 7 nested `if`s on one sparse vector take a second, see `regressions/expand_grammar/known-nested-choices`) |

use proc_macro2::{Spacing, TokenStream, TokenTree};

/// Deepest nesting of delimited groups (`( [ {`).
pub const MAX_DEPTH: usize = 100;
/// Most `+` and `-` tokens in one statement (between `;`s).
pub const MAX_ADDITIVE: usize = 300;
/// Most `*` and `/` tokens in one statement.
pub const MAX_FACTORS: usize = 300;
/// Longest number literal, in characters.
pub const MAX_LITERAL: usize = 200;
/// Most `if`s, comparisons (`<`, `>`, `==`, `!=`, `<=`, `>=`), `||`s and
/// `!`s in one statement's body.
pub const MAX_LOGIC: usize = 64;

/// Whether `tokens` stays within every cap.
pub fn within(tokens: &TokenStream) -> bool {
    Walk::default().stream(tokens, 0)
}

#[derive(Default)]
struct Walk {
    additive: usize,
    factors: usize,
    logic: usize,
    /// The previous token was a `=` or `!` joined to the next one: with a
    /// `=` it is `==`/`!=`.
    joint_eq: bool,
    /// The previous token was a `-` joined to the next one: with a `>` it
    /// is an arrow (`map = (i) -> (..)`), not a minus.
    joint_minus: bool,
}

impl Walk {
    fn stream(&mut self, tokens: &TokenStream, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        for tt in tokens.clone() {
            if depth == 0 {
                // Each top-level tree (`fn`, the parameters, the body, an
                // encoding) starts afresh: the `<` `>` of tensor types in a
                // signature are not comparisons of the next statement.
                *self = Walk::default();
            }
            if !matches!(tt, TokenTree::Punct(_)) {
                self.joint_minus = false;
                self.joint_eq = false;
            }
            let ok = match &tt {
                TokenTree::Group(g) => self.stream(&g.stream(), depth + 1),
                TokenTree::Punct(p) => {
                    let joint = p.spacing() == Spacing::Joint;
                    match p.as_char() {
                        ';' => *self = Walk::default(),
                        '>' if self.joint_minus => self.additive -= 1,
                        '+' | '-' => self.additive += 1,
                        '*' | '/' => self.factors += 1,
                        '<' | '>' => self.logic += 1,
                        '=' if self.joint_eq => self.logic += 1,
                        // `||` (a closure's `|x|` bars are not joint).
                        '|' if joint => self.logic += 1,
                        // `!x` (a `!` joined to `=` is `!=`, counted there).
                        '!' if !joint => self.logic += 1,
                        _ => {}
                    }
                    self.joint_minus = p.as_char() == '-' && joint;
                    self.joint_eq = matches!(p.as_char(), '=' | '!') && joint;
                    // The arrow's `-` is taken back at its `>`.
                    self.additive <= MAX_ADDITIVE + usize::from(self.joint_minus)
                        && self.factors <= MAX_FACTORS
                        && self.logic <= MAX_LOGIC
                }
                // Numbers only: doc comments are string literals.
                TokenTree::Literal(l) => {
                    let text = l.to_string();
                    !text.starts_with(|c: char| c.is_ascii_digit()) || text.len() <= MAX_LITERAL
                }
                TokenTree::Ident(i) => {
                    if i == "if" {
                        self.logic += 1;
                    }
                    self.logic <= MAX_LOGIC
                }
            };
            if !ok {
                return false;
            }
        }
        true
    }
}
