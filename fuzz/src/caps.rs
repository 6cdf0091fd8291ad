//! Input caps for the compiler targets.
//!
//! Each cap keeps inputs away from a known compiler defect (issue 18)
//! that the lead is fixing on main; until then every smoke run would stop
//! at the first such input instead of finding new bugs. **Lift a cap**
//! (raise its constant to `usize::MAX`) once its fix has landed; the
//! regression inputs under `fuzz/regressions/` show each defect.
//!
//! | cap | known defect |
//! | --- | --- |
//! | [`MAX_DEPTH`] | stack overflow on ~2000 nested parentheses |
//! | [`MAX_ADDITIVE`] | time and memory exponential in the number of `+`/`-` terms over dense operands (20+ terms) |
//! | [`MAX_FACTORS`] | stack overflow on ~3000-factor products |
//! | [`MAX_LITERAL`] | quadratic time parsing huge integer literals |

use proc_macro2::{Spacing, TokenStream, TokenTree};

/// Deepest nesting of delimited groups (`( [ {`).
pub const MAX_DEPTH: usize = 30;
/// Most `+` and `-` tokens in one statement (between `;`s).
pub const MAX_ADDITIVE: usize = 8;
/// Most `*` and `/` tokens in one statement.
pub const MAX_FACTORS: usize = 64;
/// Longest literal, in characters.
pub const MAX_LITERAL: usize = 40;

/// Whether `tokens` stays within every cap.
pub fn within(tokens: &TokenStream) -> bool {
    Walk::default().stream(tokens, 0)
}

#[derive(Default)]
struct Walk {
    additive: usize,
    factors: usize,
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
            if !matches!(tt, TokenTree::Punct(_)) {
                self.joint_minus = false;
            }
            let ok = match &tt {
                TokenTree::Group(g) => self.stream(&g.stream(), depth + 1),
                TokenTree::Punct(p) => {
                    match p.as_char() {
                        ';' => *self = Walk::default(),
                        '>' if self.joint_minus => self.additive -= 1,
                        '+' | '-' => self.additive += 1,
                        '*' | '/' => self.factors += 1,
                        _ => {}
                    }
                    self.joint_minus = p.as_char() == '-' && p.spacing() == Spacing::Joint;
                    // The arrow's `-` is taken back at its `>`.
                    self.additive <= MAX_ADDITIVE + usize::from(self.joint_minus)
                        && self.factors <= MAX_FACTORS
                }
                TokenTree::Literal(l) => l.to_string().len() <= MAX_LITERAL,
                TokenTree::Ident(_) => true,
            };
            if !ok {
                return false;
            }
        }
        true
    }
}
