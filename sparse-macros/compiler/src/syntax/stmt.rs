//! Statements in tensor index notation, `y[i] = a[i, j] * x[j];`, as a
//! syntax tree with spans (parsed in [`super::stmt_parse`]).

use proc_macro2::Span;
use syn::Ident;

use super::semiring::SemiringSyntax;

/// The math functions a kernel may call, with their argument counts.
pub(crate) const MATH_FUNCTIONS: [(&str, usize); 31] = [
    ("sqrt", 1),
    ("abs", 1),
    ("exp", 1),
    ("ln", 1),
    ("sin", 1),
    ("cos", 1),
    ("tanh", 1),
    ("powi", 2),
    ("powf", 2),
    ("max", 2),
    ("min", 2),
    ("tan", 1),
    ("atan", 1),
    ("exp2", 1),
    ("expm1", 1),
    ("log1p", 1),
    ("log2", 1),
    ("log10", 1),
    ("erf", 1),
    ("sigmoid", 1),
    ("rsqrt", 1),
    ("floor", 1),
    ("ceil", 1),
    ("round", 1),
    ("trunc", 1),
    ("copysign", 2),
    // `clamp(x, lo, hi)`: `min(max(x, lo), hi)`, never a panic.
    ("clamp", 3),
    // Complex numbers only (MLIR's `complex.conj`, `complex.re`,
    // `complex.im`).
    ("conj", 1),
    ("re", 1),
    ("im", 1),
    // `requantize(acc, multiplier, shift)` on `i32`: CMSIS-NN's
    // `arm_nn_requantize` (`sparse_core::quant::requantize`).
    ("requantize", 3),
];

/// The math functions of complex operands (sparse-core's `math::complex`).
pub(crate) const COMPLEX_FUNCTIONS: [&str; 11] = [
    "sqrt", "abs", "exp", "ln", "sin", "cos", "tanh", "powf", "conj", "re", "im",
];

/// What kernel expressions are made of, for "not supported" messages.
pub(crate) const SUPPORTED: &str = "kernel expressions are built from tensor accesses `a[i, j]`, \
     index variables, scalar parameters, number literals, `+ - * /`, unary `-`, parentheses, \
     `as` casts, comparisons `== != < <= > >=`, `&& || !`, the integer operators \
     `<< >> & | ^ !`, `if c { a } else { b }`, `sum(j, e)`, the math functions (`sqrt`, `abs`, \
     `exp`, `ln`, `sin`, `cos`, `tanh`, `powi`, `powf`, `max`, `min`, `clamp`, `tan`, `atan`, \
     `exp2`, `expm1`, `log1p`, `log2`, `log10`, `erf`, `sigmoid`, `rsqrt`, `floor`, `ceil`, \
     `round`, `trunc`, `copysign`, `requantize` of `i32`, and `conj`, `re`, `im` of complex \
     numbers), and the \
     semiring operations `binary`, `unary`, `select`, `reduce` (whose regions are Rust \
     closures)";

/// `lhs = rhs;` or `lhs += rhs;`.
#[derive(Clone, Debug)]
pub struct StmtSyntax {
    /// The element written.
    pub lhs: AccessSyntax,
    /// `=` or `+=`.
    pub op: AssignSyntax,
    /// Span of the operator.
    pub op_span: Span,
    /// The value.
    pub rhs: ExprSyntax,
}

/// The assignment operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignSyntax {
    /// `=`.
    Assign,
    /// `+=`.
    AddAssign,
    /// `-=`: adds the negated right-hand side.
    SubAssign,
    /// `*=`: multiplies the element by the right-hand side.
    MulAssign,
    /// `/=`: divides the element by the right-hand side.
    DivAssign,
}

impl AssignSyntax {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            AssignSyntax::Assign => "=",
            AssignSyntax::AddAssign => "+=",
            AssignSyntax::SubAssign => "-=",
            AssignSyntax::MulAssign => "*=",
            AssignSyntax::DivAssign => "/=",
        }
    }
    /// Whether the old value of the element takes part (every operator but
    /// `=`).
    pub fn reads_output(self) -> bool {
        self != AssignSyntax::Assign
    }
}

/// `a[i, j]`, `s[]`, or (left-hand side only) a bare name `s`.
#[derive(Clone, Debug)]
pub struct AccessSyntax {
    /// The tensor's name.
    pub tensor: Ident,
    /// The index variables, one per dimension; for a dimension with an
    /// affine subscript (`i + k`), the subscript's first variable.
    pub indices: Vec<Ident>,
    /// The dimensions whose subscript is not a plain index variable
    /// (`a[i + k, 2 * j]`), with the subscript as written.
    pub affine: Vec<(usize, super::AffineExpr)>,
    /// Span of the bracket group; `None` when no brackets were written.
    pub brackets: Option<Span>,
}

impl AccessSyntax {
    /// The span of the last token (the brackets, else the name).
    pub fn last_span(&self) -> Span {
        self.brackets.unwrap_or_else(|| self.tensor.span())
    }
    /// The affine subscript of dimension `d`, if it is not plain.
    pub fn affine_dim(&self, d: usize) -> Option<&super::AffineExpr> {
        self.affine.iter().find(|(x, _)| *x == d).map(|(_, e)| e)
    }
    /// Every index variable the access names, subscripts included, in the
    /// order written (repeats kept).
    pub fn vars(&self) -> Vec<&Ident> {
        let mut out = Vec::new();
        for (d, index) in self.indices.iter().enumerate() {
            match self.affine_dim(d) {
                None => out.push(index),
                Some(e) => e.vars(&mut out),
            }
        }
        out
    }
    /// The access as written, normalised: `a[i, j]`.
    pub fn text(&self) -> String {
        let names: Vec<String> = self
            .indices
            .iter()
            .enumerate()
            .map(|(d, i)| match self.affine_dim(d) {
                Some(e) => e.to_string(),
                None => i.to_string(),
            })
            .collect();
        match self.brackets {
            Some(_) => format!("{}[{}]", self.tensor, names.join(", ")),
            None => self.tensor.to_string(),
        }
    }
}

/// How tightly `as` binds: above every binary operator.
pub(super) const AS_PRECEDENCE: u8 = 10;

/// The arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `<<`
    Shl,
    /// `>>`: arithmetic for signed operands, logical for unsigned ones.
    Shr,
    /// `&` (integers and `bool`s)
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
}

impl ArithOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Eq => "==",
            ArithOp::Ne => "!=",
            ArithOp::Lt => "<",
            ArithOp::Le => "<=",
            ArithOp::Gt => ">",
            ArithOp::Ge => ">=",
            ArithOp::And => "&&",
            ArithOp::Or => "||",
            ArithOp::Shl => "<<",
            ArithOp::Shr => ">>",
            ArithOp::BitAnd => "&",
            ArithOp::BitOr => "|",
            ArithOp::BitXor => "^",
        }
    }
    /// Binding strength, as in Rust: `||` < `&&` < comparisons < `|` <
    /// `^` < `&` < `<< >>` < `+ -` < `* /` (< `as`, [`AS_PRECEDENCE`]).
    /// So `a & b == c` is `(a & b) == c` and `x + 1 << 2` is
    /// `(x + 1) << 2`, as rustc reads them.
    pub(super) fn precedence(self) -> u8 {
        match self {
            ArithOp::Or => 1,
            ArithOp::And => 2,
            ArithOp::Eq | ArithOp::Ne | ArithOp::Lt | ArithOp::Le | ArithOp::Gt | ArithOp::Ge => 3,
            ArithOp::BitOr => 4,
            ArithOp::BitXor => 5,
            ArithOp::BitAnd => 6,
            ArithOp::Shl | ArithOp::Shr => 7,
            ArithOp::Add | ArithOp::Sub => 8,
            ArithOp::Mul | ArithOp::Div => 9,
        }
    }
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`: numbers in, a `bool` out.
    pub fn is_comparison(self) -> bool {
        self.precedence() == 3
    }
    /// `&&`, `||`: `bool`s in and out.
    pub fn is_logical(self) -> bool {
        matches!(self, ArithOp::And | ArithOp::Or)
    }
    /// `<<`, `>>`: the left operand's type out, any integer amount.
    pub fn is_shift(self) -> bool {
        matches!(self, ArithOp::Shl | ArithOp::Shr)
    }
    /// `&`, `|`, `^`: operands and result of one integer (or `bool`) type.
    pub fn is_bitwise(self) -> bool {
        matches!(self, ArithOp::BitAnd | ArithOp::BitOr | ArithOp::BitXor)
    }
}

/// The kind of a number literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitKind {
    /// `2`, `3u8`.
    Int,
    /// `2.0`, `1e-3`, `0.5f32`.
    Float,
    /// `true`, `false`.
    Bool,
}

/// An expression on the right-hand side of a statement.
#[derive(Clone, Debug)]
pub enum ExprSyntax {
    /// `a[i, j]`.
    Access(AccessSyntax),
    /// A bare name: an index variable or a scalar parameter.
    Name(Ident),
    /// A literal, kept as written.
    Literal {
        /// The text (`2.0`, `3u8`, `true`).
        text: String,
        /// What kind of number.
        kind: LitKind,
        /// The type suffix (`f32` in `2.0f32`), empty if none.
        suffix: String,
        /// The token.
        span: Span,
    },
    /// `-e`.
    Neg {
        /// Span of `-`.
        minus: Span,
        /// The operand.
        operand: Box<ExprSyntax>,
    },
    /// `l op r`.
    Binary {
        /// The operator.
        op: ArithOp,
        /// Span of the operator.
        op_span: Span,
        /// Left operand.
        left: Box<ExprSyntax>,
        /// Right operand.
        right: Box<ExprSyntax>,
    },
    /// `e as ty`.
    Cast {
        /// The operand.
        operand: Box<ExprSyntax>,
        /// The target type's name.
        ty: Ident,
    },
    /// `name(args)`.
    Call {
        /// The function.
        name: Ident,
        /// The arguments.
        args: Vec<ExprSyntax>,
        /// Span of the parenthesis group.
        parens: Span,
    },
    /// `!e`.
    Not {
        /// Span of the `!`.
        bang: Span,
        /// The operand.
        operand: Box<ExprSyntax>,
    },
    /// `if cond { then } else { els }`.
    If {
        /// Span of the `if`.
        if_span: Span,
        /// The condition.
        cond: Box<ExprSyntax>,
        /// The value where it holds.
        then: Box<ExprSyntax>,
        /// The value where it does not.
        els: Box<ExprSyntax>,
        /// Span of the last brace group.
        end: Span,
    },
    /// `(e)`.
    Paren {
        /// The inner expression.
        inner: Box<ExprSyntax>,
        /// Span of the parenthesis group.
        span: Span,
    },
    /// `binary(..)`, `unary(..)`, `select(..)` or `reduce(..)`.
    Semiring(Box<SemiringSyntax>),
}

impl ExprSyntax {
    /// The spans of the first and the last token, for error ranges.
    pub fn span_range(&self) -> (Span, Span) {
        match self {
            ExprSyntax::Access(a) => (a.tensor.span(), a.last_span()),
            ExprSyntax::Name(n) => (n.span(), n.span()),
            ExprSyntax::Literal { span, .. } | ExprSyntax::Paren { span, .. } => (*span, *span),
            ExprSyntax::Neg { minus, operand } => (*minus, operand.span_range().1),
            ExprSyntax::Not { bang, operand } => (*bang, operand.span_range().1),
            ExprSyntax::If { if_span, end, .. } => (*if_span, *end),
            ExprSyntax::Binary { left, right, .. } => (left.span_range().0, right.span_range().1),
            ExprSyntax::Cast { operand, ty } => (operand.span_range().0, ty.span()),
            ExprSyntax::Call { name, parens, .. } => (name.span(), *parens),
            ExprSyntax::Semiring(op) => (op.name.span(), op.parens),
        }
    }

    /// The expression as text, normalised (for messages).
    pub fn text(&self) -> String {
        match self {
            ExprSyntax::Access(a) => a.text(),
            ExprSyntax::Name(n) => n.to_string(),
            ExprSyntax::Literal { text, .. } => text.clone(),
            ExprSyntax::Neg { operand, .. } => format!("-{}", operand.text()),
            ExprSyntax::Not { operand, .. } => format!("!{}", operand.text()),
            ExprSyntax::If {
                cond, then, els, ..
            } => format!(
                "if {} {{ {} }} else {{ {} }}",
                cond.text(),
                then.text(),
                els.text()
            ),
            ExprSyntax::Binary {
                op, left, right, ..
            } => format!("{} {} {}", left.text(), op.symbol(), right.text()),
            ExprSyntax::Cast { operand, ty } => format!("{} as {ty}", operand.text()),
            ExprSyntax::Call { name, args, .. } => {
                let args: Vec<String> = args.iter().map(ExprSyntax::text).collect();
                format!("{name}({})", args.join(", "))
            }
            ExprSyntax::Paren { inner, .. } => format!("({})", inner.text()),
            ExprSyntax::Semiring(op) => op.text(),
        }
    }

    /// Calls `f` on every node, parents before children.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a ExprSyntax)) {
        f(self);
        match self {
            ExprSyntax::Access(_) | ExprSyntax::Name(_) | ExprSyntax::Literal { .. } => {}
            ExprSyntax::If {
                cond, then, els, ..
            } => {
                cond.visit(f);
                then.visit(f);
                els.visit(f);
            }
            ExprSyntax::Not { operand: e, .. }
            | ExprSyntax::Neg { operand: e, .. }
            | ExprSyntax::Cast { operand: e, .. }
            | ExprSyntax::Paren { inner: e, .. } => e.visit(f),
            ExprSyntax::Binary { left, right, .. } => {
                left.visit(f);
                right.visit(f);
            }
            ExprSyntax::Call { args, .. } => args.iter().for_each(|a| a.visit(f)),
            ExprSyntax::Semiring(op) => op.operands().for_each(|a| a.visit(f)),
        }
    }
}
