//! The sparsifier's input: tensors, index variables and statements in tensor
//! index notation, as plain data with integer ids.
//!
//! The kernel model stage produces a [`Kernel`]; tests build one by hand with
//! the small builder methods here. Nothing in this file knows about spans:
//! errors found later name tensors and index variables by their source names.

use super::{FuncId, LoopId, TensorId};
use crate::vocab::{LevelExpr, LevelFormat, LevelType};

pub use super::kernel_show::ShowExpr;

/// One tensor operand of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorDesc {
    /// The parameter name, used in every message and in the loop-tree text.
    pub name: String,
    /// The number of dimensions (0 for a scalar).
    pub dim_count: usize,
    /// One entry per storage level, outermost first: the level type and the
    /// dimension expression it stores. Dense tensors have all-dense identity
    /// levels.
    pub levels: Vec<(LevelType, LevelExpr)>,
    /// Written by the kernel (`&mut`).
    pub is_output: bool,
}

impl TensorDesc {
    /// A tensor stored with an encoding: `levels` in storage order.
    pub fn sparse(name: &str, dim_count: usize, levels: &[(LevelType, LevelExpr)]) -> TensorDesc {
        TensorDesc {
            name: name.to_string(),
            dim_count,
            levels: levels.to_vec(),
            is_output: false,
        }
    }

    /// A dense row-major tensor (a slice or array) of rank `rank`.
    pub fn dense(name: &str, rank: usize) -> TensorDesc {
        let levels = (0..rank)
            .map(|d| (LevelType::new(LevelFormat::Dense), LevelExpr::Dim(d as u8)))
            .collect();
        TensorDesc {
            name: name.to_string(),
            dim_count: rank,
            levels,
            is_output: false,
        }
    }

    /// A rank-0 tensor.
    pub fn scalar(name: &str) -> TensorDesc {
        TensorDesc::dense(name, 0)
    }

    /// The same tensor, marked as written by the kernel.
    pub fn output(mut self) -> TensorDesc {
        self.is_output = true;
        self
    }

    /// Whether any level stores coordinates; only such tensors constrain the
    /// loop order and restrict iteration.
    pub fn is_sparse(&self) -> bool {
        self.levels.iter().any(|(lt, _)| !lt.is_dense())
    }
}

/// A tensor indexed by one index variable per dimension (`a[i, j]`), or
/// by affine subscripts (`a[i + k, 2 * j + l]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The tensor read or written.
    pub tensor: TensorId,
    /// The index variable of each dimension, in dimension order. For a
    /// dimension with an affine subscript, its *driving* variable: the one
    /// whose loop walks (or, on a dense level, locates) the level storing
    /// the dimension, once every other variable of the subscript is bound.
    pub indices: Vec<LoopId>,
    /// The dimensions whose subscript is not a plain index variable, with
    /// the subscript, in dimension order; empty for a plain access.
    pub affine: Vec<(usize, Affine)>,
}

/// An affine subscript `2 * i + k - 1`: a sum of index variables times
/// integer coefficients, plus a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Affine {
    /// `(variable, coefficient)`, each variable once, no zero coefficient,
    /// in the order written.
    pub terms: Vec<(LoopId, i64)>,
    /// The constant term.
    pub constant: i64,
    /// A run-time part of the constant: the offset of dimension `d` of the
    /// sliced operand `t` (`SliceView::offsets()[d]`), for the subscript
    /// `i + offset` a stride-1 slice is walked in place through
    /// (`reorder::read_slices_through_copies`). `None` for every subscript
    /// the kernel writes.
    pub slice: Option<(TensorId, usize)>,
}

impl Affine {
    /// The coefficient of `l` (0 if it does not appear).
    pub fn coefficient(&self, l: LoopId) -> i64 {
        self.terms
            .iter()
            .find(|(x, _)| *x == l)
            .map_or(0, |&(_, c)| c)
    }
    /// Displays the subscript with the kernel's names: `2 * i + k - 1`.
    pub fn show(&self, kernel: &Kernel) -> String {
        let mut out = String::new();
        for (n, &(l, c)) in self.terms.iter().enumerate() {
            let name = kernel.loop_name(l);
            let (sign, mag) = if c < 0 {
                ("-", c.unsigned_abs())
            } else {
                ("+", c.unsigned_abs())
            };
            match (n, sign) {
                (0, "-") => out.push('-'),
                (0, _) => {}
                (_, s) => out.push_str(&format!(" {s} ")),
            }
            if mag == 1 {
                out.push_str(name);
            } else {
                out.push_str(&format!("{mag} * {name}"));
            }
        }
        if self.constant != 0 || self.terms.is_empty() {
            let sign = if self.constant < 0 { "-" } else { "+" };
            if self.terms.is_empty() {
                out.push_str(&self.constant.to_string());
            } else {
                out.push_str(&format!(" {sign} {}", self.constant.unsigned_abs()));
            }
        }
        if let Some((t, d)) = self.slice {
            out.push_str(&format!(" + {}.offset{d}", kernel.tensor_name(t)));
        }
        out
    }
}

impl Access {
    /// The affine subscript of dimension `d`, if it is not plain.
    pub fn affine_dim(&self, d: usize) -> Option<&Affine> {
        self.affine.iter().find(|(x, _)| *x == d).map(|(_, a)| a)
    }
    /// Every index variable the access uses, subscripts included, each once.
    pub fn loops(&self) -> Vec<LoopId> {
        let mut out: Vec<LoopId> = Vec::new();
        for (d, &l) in self.indices.iter().enumerate() {
            match self.affine_dim(d) {
                None => {
                    if !out.contains(&l) {
                        out.push(l);
                    }
                }
                Some(a) => {
                    for &(v, _) in &a.terms {
                        if !out.contains(&v) {
                            out.push(v);
                        }
                    }
                }
            }
        }
        out
    }
    /// Whether dimension `d` is indexed by a plain variable, as far as
    /// sizes go: a slice walked in place (`i + a.offset0`, see
    /// [`Affine::slice`]) is indexed by `i` over the slice's size, so it
    /// sizes `i` as a plain access does.
    pub fn is_plain(&self, d: usize) -> bool {
        self.affine_dim(d).is_none_or(|a| a.slice.is_some())
    }
}

/// The right-hand side of a statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A tensor element.
    Access(Access),
    /// A literal, kept as written (`2.0`, `3`).
    Literal(String),
    /// An index variable used as a value (MLIR's `linalg.index`).
    Index(LoopId),
    /// `-e`.
    Neg(Box<Expr>),
    /// `l + r`.
    Add(Box<Expr>, Box<Expr>),
    /// `l - r`.
    Sub(Box<Expr>, Box<Expr>),
    /// `l * r`.
    Mul(Box<Expr>, Box<Expr>),
    /// `l / r`.
    Div(Box<Expr>, Box<Expr>),
    /// `e as ty`, with the target type as written.
    Cast(Box<Expr>, String),
    /// A math function call: name and arguments.
    Call(String, Vec<Expr>),
    /// The implicit zero of the element type. Never written by users: the
    /// merger puts it where an operand is absent from a lattice point and
    /// the operation cannot simply drop it (`max(a, 0)`).
    Zero,
    /// `binary(x, y, overlap = .., left = .., right = ..)` (seed 000's
    /// `sparse_tensor.binary`): which region applies is decided by which
    /// operands are present, loop by loop.
    Binary(Box<BinaryOp>),
    /// `unary(x, present = .., absent = ..)`.
    Unary(Box<UnaryOp>),
    /// `select(x, predicate)`: `x` where the predicate holds, else no value.
    Select(FuncId, Box<Expr>),
    /// A closure applied to values: what a region computes once the
    /// presence of its operands is settled.
    Apply(FuncId, Vec<Expr>),
    /// No value: a `none` region. The output keeps its implicit zero there
    /// (a sparse output stores nothing).
    Absent,
    /// `sum(j, e)`: `e` summed over the listed index variables, which are
    /// bound only inside it. Written by users, or placed by
    /// [`super::scope`] at the smallest subexpression holding every use of
    /// a reduction index (TACO's rule).
    Sum(Vec<LoopId>, Box<Expr>),
    /// The value of loop-tree local `r<n>`, which an inner loop nest has
    /// already summed (a [`Expr::Sum`] once lowered). Never written by users.
    Local(u32),
}

/// What one region of `binary`/`unary` does with its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// `none`: no value.
    None,
    /// `identity`: the operand itself.
    Identity,
    /// A closure.
    Func(FuncId),
}

impl Region {
    /// The region applied to `args` (whose presence is settled).
    pub fn apply(self, args: Vec<Expr>) -> Expr {
        match self {
            Region::None => Expr::Absent,
            Region::Identity => args.into_iter().next().unwrap_or(Expr::Absent),
            Region::Func(f) => Expr::Apply(f, args),
        }
    }
}

/// The operands and regions of a `binary`.
#[derive(Clone, Debug, PartialEq)]
pub struct BinaryOp {
    /// The left operand.
    pub x: Expr,
    /// The right operand.
    pub y: Expr,
    /// Both present.
    pub overlap: Region,
    /// Only `x` present.
    pub left: Region,
    /// Only `y` present.
    pub right: Region,
}

/// The operand and regions of a `unary`.
#[derive(Clone, Debug, PartialEq)]
pub struct UnaryOp {
    /// The operand.
    pub x: Expr,
    /// `x` present.
    pub present: Region,
    /// `x` absent (a closure without arguments, or `none`).
    pub absent: Region,
}

/// A closure of a kernel, as the sparsifier sees it: opaque, with its text
/// for the loop-tree form. Codegen has the tokens (`KernelDef::closures`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuncDesc {
    /// The closure as written, compacted: `|x, y| x + y`.
    pub text: String,
    /// Its number of parameters.
    pub arity: usize,
    /// The index variables its body names (they are uses of those indices,
    /// for the scope of a sum).
    pub indices: Vec<LoopId>,
}

/// A custom reduction: `reduce(rhs, identity = v, |acc, v| ..)`. Unlike the
/// built-in sum, it folds every coordinate of the reduction loops, implicit
/// zeros included, so its loops visit whole ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reduce {
    /// The starting value, a function without parameters.
    pub identity: FuncId,
    /// The combiner `|acc, v|`.
    pub combiner: FuncId,
}

impl Expr {
    /// `t[indices]`.
    pub fn at(tensor: TensorId, indices: &[LoopId]) -> Expr {
        Expr::Access(Access {
            tensor,
            indices: indices.to_vec(),
            affine: Vec::new(),
        })
    }
    /// A literal.
    pub fn lit(text: &str) -> Expr {
        Expr::Literal(text.to_string())
    }
    /// `e as ty`.
    pub fn cast(self, ty: &str) -> Expr {
        Expr::Cast(Box::new(self), ty.to_string())
    }
    /// `name(args)`.
    pub fn call(name: &str, args: Vec<Expr>) -> Expr {
        Expr::Call(name.to_string(), args)
    }

    /// Every access in the expression, left to right.
    pub fn accesses(&self) -> Vec<&Access> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Access(a) = e {
                out.push(a);
            }
        });
        out
    }

    /// Calls `f` on every node, parents before children, left to right.
    pub fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        for c in self.children() {
            c.visit(f);
        }
    }

    /// Whether the expression reads an index variable as a value outside
    /// a cast (`i - j`, not `i as f64`): its arithmetic then runs in
    /// `usize`.
    pub fn mentions_index(&self) -> bool {
        match self {
            Expr::Index(_) => true,
            Expr::Cast(..) => false,
            _ => self.children().into_iter().any(Expr::mentions_index),
        }
    }

    /// The direct subexpressions, left to right.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Access(_)
            | Expr::Literal(_)
            | Expr::Index(_)
            | Expr::Zero
            | Expr::Absent
            | Expr::Local(_) => Vec::new(),
            Expr::Neg(x) | Expr::Cast(x, _) | Expr::Select(_, x) | Expr::Sum(_, x) => vec![x],
            Expr::Add(l, r) | Expr::Sub(l, r) | Expr::Mul(l, r) | Expr::Div(l, r) => vec![l, r],
            Expr::Call(_, args) | Expr::Apply(_, args) => args.iter().collect(),
            Expr::Binary(b) => vec![&b.x, &b.y],
            Expr::Unary(u) => vec![&u.x],
        }
    }
}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $variant:ident) => {
        impl std::ops::$trait for Expr {
            type Output = Expr;
            fn $method(self, rhs: Expr) -> Expr {
                Expr::$variant(Box::new(self), Box::new(rhs))
            }
        }
    };
}
binary_op!(Add, add, Add);
binary_op!(Sub, sub, Sub);
binary_op!(Mul, mul, Mul);
binary_op!(Div, div, Div);

impl std::ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::Neg(Box::new(self))
    }
}

/// Operators the front end lowers to [`Expr::Call`] under these reserved
/// names (no math function has them): comparisons, logic, the choice
/// `if c { a } else { b }` (`choose`), and the integer operators (shifts,
/// bitwise `& | ^`, and `!` of an integer, `bitnot`). The merger and
/// codegen give each its operator meaning; the text form prints the
/// operator.
pub const OPERATOR_CALLS: [(&str, &str); 16] = [
    ("eq", "=="),
    ("ne", "!="),
    ("lt", "<"),
    ("le", "<="),
    ("gt", ">"),
    ("ge", ">="),
    ("and", "&&"),
    ("or", "||"),
    ("not", "!"),
    ("choose", "if"),
    ("shl", "<<"),
    ("shr", ">>"),
    ("bitand", "&"),
    ("bitor", "|"),
    ("bitxor", "^"),
    ("bitnot", "!"),
];

/// Whether a reserved call name is an integer operator, whose value has
/// its operands' type (the other operators give a `bool`, or choose).
pub fn is_integer_operator(name: &str) -> bool {
    matches!(
        name,
        "shl" | "shr" | "bitand" | "bitor" | "bitxor" | "bitnot"
    )
}

/// The operator symbol of a reserved call name.
pub fn operator_of(name: &str) -> Option<&'static str> {
    OPERATOR_CALLS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, op)| *op)
}

/// `=` overwrites the output, `+=` accumulates into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`.
    Assign,
    /// `+=`.
    AddAssign,
}

/// One statement: `lhs op rhs;`.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// The element written.
    pub lhs: Access,
    /// `=` or `+=`.
    pub op: AssignOp,
    /// The value.
    pub rhs: Expr,
    /// A custom reduction of `rhs` over the reduction loops, instead of
    /// the sum.
    pub reduce: Option<Reduce>,
}

impl Stmt {
    /// Whether the right-hand side reads the tensor the statement writes.
    pub fn reads_output(&self) -> bool {
        self.rhs
            .accesses()
            .iter()
            .any(|a| a.tensor == self.lhs.tensor)
    }
}

/// A whole kernel: its tensors, index variables and statements.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kernel {
    /// Tensors, indexed by [`TensorId`].
    pub tensors: Vec<TensorDesc>,
    /// Index variable names, indexed by [`LoopId`].
    pub loops: Vec<String>,
    /// Statements in source order.
    pub stmts: Vec<Stmt>,
    /// The closures of the statements, indexed by [`FuncId`].
    pub funcs: Vec<FuncDesc>,
    /// Index variables sized by `#[range(k = n)]` rather than by a tensor
    /// dimension (a pooling window), with their sizes.
    pub ranges: Vec<(LoopId, u64)>,
    /// A sum times a factor that reads a sparse tensor and none of the
    /// sum's indices, over a sum that reads only dense operands (SDDMM's
    /// `s[i, j] * sum(k, u[i, k] * v[k, j])`), keeps the sum first: the
    /// sum into a local, then one product (see `scope.rs`). Set for
    /// kernels whose values are all integers (the same bits either way)
    /// and under `#[reassociate]` (floats round differently).
    pub sum_first: bool,
}

impl Kernel {
    /// An empty kernel.
    pub fn new() -> Kernel {
        Kernel::default()
    }
    /// The explicit range of loop `l` (`#[range(k = n)]`), if it has one.
    pub fn range_of(&self, l: LoopId) -> Option<u64> {
        self.ranges.iter().find_map(|&(m, n)| (m == l).then_some(n))
    }
    /// The same tensors, loops and closures with `stmt` as the only
    /// statement: how one statement is planned on its own.
    pub fn with_only(&self, stmt: &Stmt) -> Kernel {
        Kernel {
            tensors: self.tensors.clone(),
            loops: self.loops.clone(),
            stmts: vec![stmt.clone()],
            funcs: self.funcs.clone(),
            ranges: self.ranges.clone(),
            sum_first: self.sum_first,
        }
    }
    /// Adds a tensor operand.
    pub fn tensor(&mut self, desc: TensorDesc) -> TensorId {
        self.tensors.push(desc);
        TensorId(self.tensors.len() as u32 - 1)
    }
    /// Adds an index variable.
    pub fn index(&mut self, name: &str) -> LoopId {
        self.loops.push(name.to_string());
        LoopId(self.loops.len() as u32 - 1)
    }
    /// Adds `tensor[indices] = rhs`.
    pub fn assign(&mut self, tensor: TensorId, indices: &[LoopId], rhs: Expr) {
        self.push(tensor, indices, AssignOp::Assign, rhs);
    }
    /// Adds `tensor[indices] += rhs`.
    pub fn add_assign(&mut self, tensor: TensorId, indices: &[LoopId], rhs: Expr) {
        self.push(tensor, indices, AssignOp::AddAssign, rhs);
    }
    fn push(&mut self, tensor: TensorId, indices: &[LoopId], op: AssignOp, rhs: Expr) {
        let lhs = Access {
            tensor,
            indices: indices.to_vec(),
            affine: Vec::new(),
        };
        self.stmts.push(Stmt {
            lhs,
            op,
            rhs,
            reduce: None,
        });
    }
    /// Adds a closure that names no index variable.
    pub fn func(&mut self, text: &str, arity: usize) -> FuncId {
        self.func_using(text, arity, &[])
    }
    /// Adds a closure whose body names the index variables `indices`.
    pub fn func_using(&mut self, text: &str, arity: usize, indices: &[LoopId]) -> FuncId {
        self.funcs.push(FuncDesc {
            text: text.to_string(),
            arity,
            indices: indices.to_vec(),
        });
        FuncId(self.funcs.len() as u32 - 1)
    }
    /// The index variables closure `f` names (none for an unknown id).
    pub fn func_indices(&self, f: FuncId) -> &[LoopId] {
        self.funcs
            .get(f.index())
            .map_or(&[], |d| d.indices.as_slice())
    }
    /// The closure's text, `?` for an id the kernel lacks.
    pub fn func_text(&self, f: FuncId) -> &str {
        self.funcs.get(f.index()).map_or("?", |d| d.text.as_str())
    }

    /// The tensor's description, for ids already checked against the
    /// kernel (by `check::check_stmt`); crate-private because it indexes.
    pub(crate) fn desc(&self, t: TensorId) -> &TensorDesc {
        &self.tensors[t.index()]
    }
    /// The index variable's name, or `?N` for an id the kernel lacks (only
    /// reachable when printing an invalid kernel).
    pub fn loop_name(&self, l: LoopId) -> &str {
        self.loops.get(l.index()).map_or("?", String::as_str)
    }
    /// The tensor's name, or `?` for an id the kernel lacks.
    pub fn tensor_name(&self, t: TensorId) -> &str {
        self.tensors.get(t.index()).map_or("?", |d| d.name.as_str())
    }
}
