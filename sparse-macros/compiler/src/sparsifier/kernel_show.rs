//! Expressions of a [`Kernel`] printed in the kernel language, with the
//! kernel's names and the parentheses Rust would need: the form errors,
//! doc comments and the loop-tree text show.

use std::fmt;

use super::kernel::{operator_of, Access, AssignOp, Expr, Kernel, Region, Stmt};

/// An expression printed with its kernel's names and minimal parentheses.
pub struct ShowExpr<'a> {
    kernel: &'a Kernel,
    expr: &'a Expr,
}

/// Binding strength, to parenthesise only where Rust would need it.
fn precedence(e: &Expr) -> u8 {
    match e {
        Expr::Add(..) | Expr::Sub(..) => 1,
        Expr::Mul(..) | Expr::Div(..) => 2,
        Expr::Cast(..) => 3,
        Expr::Neg(..) => 4,
        _ => 5,
    }
}

impl<'a> ShowExpr<'a> {
    /// `e` with `kernel`'s names.
    pub fn new(kernel: &'a Kernel, expr: &'a Expr) -> ShowExpr<'a> {
        ShowExpr { kernel, expr }
    }
}

impl ShowExpr<'_> {
    fn list(&self, f: &mut fmt::Formatter<'_>, args: &[Expr]) -> fmt::Result {
        for (n, a) in args.iter().enumerate() {
            if n > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", self.sub(a))?;
        }
        Ok(())
    }
    fn sub<'b>(&'b self, e: &'b Expr) -> ShowExpr<'b> {
        ShowExpr {
            kernel: self.kernel,
            expr: e,
        }
    }
    /// Writes `e`, parenthesised when it binds looser than `min`.
    fn operand(&self, f: &mut fmt::Formatter<'_>, e: &Expr, min: u8) -> fmt::Result {
        if precedence(e) < min {
            write!(f, "({})", self.sub(e))
        } else {
            write!(f, "{}", self.sub(e))
        }
    }
}

impl fmt::Display for ShowExpr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.kernel;
        match self.expr {
            Expr::Access(a) => f.write_str(&k.show_access(a)),
            Expr::Literal(t) => f.write_str(t),
            Expr::Index(l) => f.write_str(k.loop_name(*l)),
            Expr::Zero => f.write_str("0"),
            Expr::Neg(e) => {
                f.write_str("-")?;
                self.operand(f, e, 4)
            }
            Expr::Cast(e, ty) => {
                self.operand(f, e, 3)?;
                write!(f, " as {ty}")
            }
            Expr::Add(l, r) | Expr::Sub(l, r) | Expr::Mul(l, r) | Expr::Div(l, r) => {
                let (sym, p) = match self.expr {
                    Expr::Add(..) => ("+", 1),
                    Expr::Sub(..) => ("-", 1),
                    Expr::Mul(..) => ("*", 2),
                    _ => ("/", 2),
                };
                // Left-associative: the right operand needs parentheses at
                // equal precedence (`a - (b - c)`).
                self.operand(f, l, p)?;
                write!(f, " {sym} ")?;
                self.operand(f, r, p + 1)
            }
            Expr::Call(name, args) => match (operator_of(name), args.as_slice()) {
                (Some("if"), [c, t, e]) => write!(
                    f,
                    "(if {} {{ {} }} else {{ {} }})",
                    self.sub(c),
                    self.sub(t),
                    self.sub(e)
                ),
                (Some(op), [x]) => {
                    f.write_str(op)?;
                    self.operand(f, x, 4)
                }
                (Some(op), [l, r]) => write!(f, "({} {op} {})", self.sub(l), self.sub(r)),
                _ => {
                    write!(f, "{name}(")?;
                    self.list(f, args)?;
                    f.write_str(")")
                }
            },
            Expr::Apply(func, args) => {
                write!(f, "({})(", k.func_text(*func))?;
                self.list(f, args)?;
                f.write_str(")")
            }
            Expr::Absent => f.write_str("none"),
            Expr::Local(n) => write!(f, "r{n}"),
            Expr::Sum(loops, e) => {
                let names: Vec<&str> = loops.iter().map(|&l| k.loop_name(l)).collect();
                write!(f, "sum({}, {})", names.join(", "), self.sub(e))
            }
            Expr::Select(func, x) => {
                write!(f, "select({}, {})", self.sub(x), k.func_text(*func))
            }
            Expr::Binary(b) => write!(
                f,
                "binary({}, {}, overlap = {}, left = {}, right = {})",
                self.sub(&b.x),
                self.sub(&b.y),
                k.show_region(b.overlap),
                k.show_region(b.left),
                k.show_region(b.right)
            ),
            Expr::Unary(u) => write!(
                f,
                "unary({}, present = {}, absent = {})",
                self.sub(&u.x),
                k.show_region(u.present),
                k.show_region(u.absent)
            ),
        }
    }
}

/// The kernel's display helpers: expressions, accesses, statements and
/// regions with its names.
impl Kernel {
    /// Displays an expression with this kernel's names.
    pub fn show<'a>(&'a self, e: &'a Expr) -> ShowExpr<'a> {
        ShowExpr::new(self, e)
    }
    /// Displays an access with this kernel's names: `a[i, j]`, `s[]`.
    pub fn show_access(&self, a: &Access) -> String {
        let idx: Vec<String> = a
            .indices
            .iter()
            .enumerate()
            .map(|(d, &l)| match a.affine_dim(d) {
                Some(x) => x.show(self),
                None => self.loop_name(l).to_string(),
            })
            .collect();
        format!("{}[{}]", self.tensor_name(a.tensor), idx.join(", "))
    }
    /// Displays a statement: `y[i] = a[i, j] * x[j]`.
    pub fn show_stmt(&self, s: &Stmt) -> String {
        let op = match s.op {
            AssignOp::Assign => "=",
            AssignOp::AddAssign => "+=",
        };
        let rhs = match &s.reduce {
            None => self.show(&s.rhs).to_string(),
            Some(r) => format!(
                "reduce({}, identity = {}, {})",
                self.show(&s.rhs),
                self.func_text(r.identity),
                self.func_text(r.combiner)
            ),
        };
        format!("{} {op} {rhs}", self.show_access(&s.lhs))
    }
    /// Displays a region: `identity`, `none` or the closure.
    pub fn show_region(&self, r: Region) -> &str {
        match r {
            Region::None => "none",
            Region::Identity => "identity",
            Region::Func(f) => self.func_text(f),
        }
    }
}
