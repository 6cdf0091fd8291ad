//! An independent dense evaluator of tensor index notation, the reference
//! of the sum-scope tests (issue 10).
//!
//! A statement `y[i] = w[i, j] * x[j] + b[i]` is an [`Expr`] tree with no
//! reduction written out. [`place_sums`] puts each reduction index (one
//! absent from the left-hand side) on the *smallest subexpression that
//! contains every use of it* (TACO's rule) as an explicit [`Expr::Sum`]
//! node: here `(sum_j w[i, j] * x[j]) + b[i]`, never `b` once per `j`.
//! [`evaluate`] then runs the placed statement by brute force: one plain
//! loop per index, every coordinate visited, every tensor dense (implicit
//! zeros are 0, duplicates of nonunique storage summed by
//! [`Dense::from_entries`]).
//!
//! Nothing here comes from the compiler (`sparse-macros`): no lattices, no
//! iteration graph, no sparsity. With `+ - *` (and `/` by a literal) over
//! dense values, plain arithmetic is what MLIR's sparse semantics compute,
//! so the kernels must agree with it exactly on the small integer values of
//! [`crate::gen`].

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

use crate::dense::Dense;

/// A math function of one or two arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    /// `sqrt(x)`.
    Sqrt,
    /// `abs(x)`.
    Abs,
    /// `max(x, y)`.
    Max,
    /// `min(x, y)`.
    Min,
}

impl Func {
    fn name(self) -> &'static str {
        match self {
            Func::Sqrt => "sqrt",
            Func::Abs => "abs",
            Func::Max => "max",
            Func::Min => "min",
        }
    }

    fn apply(self, args: &[f64]) -> f64 {
        match (self, args) {
            (Func::Sqrt, [x]) => x.sqrt(),
            (Func::Abs, [x]) => x.abs(),
            (Func::Max, [x, y]) => x.max(*y),
            (Func::Min, [x, y]) => x.min(*y),
            _ => panic!("{} takes {} arguments", self.name(), self.arity()),
        }
    }

    fn arity(self) -> usize {
        match self {
            Func::Sqrt | Func::Abs => 1,
            Func::Max | Func::Min => 2,
        }
    }
}

/// An expression of tensor index notation.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `name[i, j, ..]` (`name[]` for a scalar).
    Access(String, Vec<String>),
    /// A literal.
    Lit(f64),
    /// `l + r`.
    Add(Box<Expr>, Box<Expr>),
    /// `l - r`.
    Sub(Box<Expr>, Box<Expr>),
    /// `l * r`.
    Mul(Box<Expr>, Box<Expr>),
    /// `l / r`.
    Div(Box<Expr>, Box<Expr>),
    /// `-e`.
    Neg(Box<Expr>),
    /// `f(args)`.
    Call(Func, Vec<Expr>),
    /// `sum_index e`: `e` summed over every value of `index`.
    Sum(String, Box<Expr>),
}

/// `name[indices]`.
pub fn access(name: &str, indices: &[&str]) -> Expr {
    Expr::Access(
        name.to_string(),
        indices.iter().map(|s| s.to_string()).collect(),
    )
}

/// A literal.
pub fn lit(v: f64) -> Expr {
    Expr::Lit(v)
}

/// `f(args)`.
pub fn call(f: Func, args: Vec<Expr>) -> Expr {
    assert_eq!(args.len(), f.arity(), "{} arguments", f.name());
    Expr::Call(f, args)
}

/// `sum_index e`, written out.
pub fn sum(index: &str, e: Expr) -> Expr {
    Expr::Sum(index.to_string(), Box::new(e))
}

impl Add for Expr {
    type Output = Expr;
    fn add(self, r: Expr) -> Expr {
        Expr::Add(Box::new(self), Box::new(r))
    }
}

impl Sub for Expr {
    type Output = Expr;
    fn sub(self, r: Expr) -> Expr {
        Expr::Sub(Box::new(self), Box::new(r))
    }
}

impl Mul for Expr {
    type Output = Expr;
    fn mul(self, r: Expr) -> Expr {
        Expr::Mul(Box::new(self), Box::new(r))
    }
}

impl Div for Expr {
    type Output = Expr;
    fn div(self, r: Expr) -> Expr {
        Expr::Div(Box::new(self), Box::new(r))
    }
}

impl Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::Neg(Box::new(self))
    }
}

impl Expr {
    /// The direct subexpressions.
    fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Access(..) | Expr::Lit(_) => Vec::new(),
            Expr::Add(l, r) | Expr::Sub(l, r) | Expr::Mul(l, r) | Expr::Div(l, r) => {
                vec![l, r]
            }
            Expr::Neg(e) | Expr::Sum(_, e) => vec![e],
            Expr::Call(_, args) => args.iter().collect(),
        }
    }

    /// The same node over new children (in [`Expr::children`]'s order).
    fn with_children(&self, mut kids: Vec<Expr>) -> Expr {
        let mut next = || Box::new(kids.remove(0));
        match self {
            Expr::Access(..) | Expr::Lit(_) => self.clone(),
            Expr::Add(..) => Expr::Add(next(), next()),
            Expr::Sub(..) => Expr::Sub(next(), next()),
            Expr::Mul(..) => Expr::Mul(next(), next()),
            Expr::Div(..) => Expr::Div(next(), next()),
            Expr::Neg(_) => Expr::Neg(next()),
            Expr::Sum(i, _) => Expr::Sum(i.clone(), next()),
            Expr::Call(f, _) => Expr::Call(*f, kids),
        }
    }

    /// The index variables used and not bound by a [`Expr::Sum`] inside.
    pub fn free_indices(&self) -> BTreeSet<String> {
        match self {
            Expr::Access(_, idx) => idx.iter().cloned().collect(),
            Expr::Sum(i, e) => {
                let mut s = e.free_indices();
                s.remove(i);
                s
            }
            _ => self
                .children()
                .into_iter()
                .flat_map(Expr::free_indices)
                .collect(),
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Access(n, idx) => write!(f, "{n}[{}]", idx.join(", ")),
            Expr::Lit(v) => write!(f, "{v:?}"),
            Expr::Add(l, r) => write!(f, "({l} + {r})"),
            Expr::Sub(l, r) => write!(f, "({l} - {r})"),
            Expr::Mul(l, r) => write!(f, "({l} * {r})"),
            Expr::Div(l, r) => write!(f, "({l} / {r})"),
            Expr::Neg(e) => write!(f, "-{e}"),
            Expr::Call(func, args) => {
                write!(f, "{}(", func.name())?;
                for (k, a) in args.iter().enumerate() {
                    if k > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{a}")?;
                }
                write!(f, ")")
            }
            Expr::Sum(i, e) => write!(f, "sum_{i} {e}"),
        }
    }
}

/// `rhs` with a [`Expr::Sum`] for every free index of it that `lhs` does
/// not name, each on the smallest subexpression containing all the uses of
/// that index (TACO's rule). Several indices placed on the same node nest
/// in alphabetical order (summation order does not change an exact sum).
pub fn place_sums(lhs: &[&str], rhs: &Expr) -> Expr {
    let reductions: BTreeSet<String> = rhs
        .free_indices()
        .into_iter()
        .filter(|i| !lhs.contains(&i.as_str()))
        .collect();
    place(rhs, &reductions)
}

/// Places each index of `pending` (all free in `e`) in `e`.
fn place(e: &Expr, pending: &BTreeSet<String>) -> Expr {
    if let Expr::Sum(i, body) = e {
        // An explicit sum binds `i`; the others go inside unchanged.
        let inner: BTreeSet<String> = pending.iter().filter(|p| *p != i).cloned().collect();
        return Expr::Sum(i.clone(), Box::new(place(body, &inner)));
    }
    let kids = e.children();
    let uses: Vec<BTreeSet<String>> = kids.iter().map(|k| k.free_indices()).collect();
    let mut here = Vec::new();
    let mut down: Vec<BTreeSet<String>> = vec![BTreeSet::new(); kids.len()];
    for i in pending {
        let holders: Vec<usize> = (0..kids.len()).filter(|&k| uses[k].contains(i)).collect();
        match holders.as_slice() {
            // Used by exactly one child: the smallest subexpression is in it.
            [k] => {
                down[*k].insert(i.clone());
            }
            // Used by several children, or by this access itself.
            _ => here.push(i.clone()),
        }
    }
    let placed = e.with_children(kids.iter().zip(&down).map(|(k, d)| place(k, d)).collect());
    here.into_iter()
        .rev()
        .fold(placed, |body, i| Expr::Sum(i, Box::new(body)))
}

/// `=`, `+=`, `-=`, `*=` or `/=`.
///
/// In every case the right-hand side `e` is evaluated on its own, its
/// reductions placed by [`place_sums`] inside `e`, and then combined with
/// the old element, which is read once: `y[i] *= a[i, j] * x[j] + b[i]` is
/// `y[i] = y[i] * (sum_j (a[i, j] * x[j]) + b[i])`, never `y[i]` times a
/// sum that adds `b[i]` once per `j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assign {
    /// `=`: the output is overwritten.
    Set,
    /// `+=`: the value is added to the output's old value.
    AddTo,
    /// `-=`: the value is subtracted from the output's old value.
    SubFrom,
    /// `*=`: the output's old value is multiplied by the value.
    MulBy,
    /// `/=`: the output's old value is divided by the value.
    DivBy,
}

/// The tensors a statement reads, by name.
pub type Tensors<'a> = BTreeMap<&'a str, &'a Dense<f64>>;

/// `out[lhs] (=|+=|-=|*=|/=) rhs`, the reduction indices placed by
/// [`place_sums`] (inside `rhs`: see [`Assign`]),
/// evaluated densely into `out` (whose dimension sizes bind the indices of
/// `lhs`).
///
/// # Panics
///
/// If a tensor is missing, an index is bound to two sizes, or an index of
/// `lhs` does not occur on the right (test code).
pub fn evaluate(lhs: &[&str], assign: Assign, rhs: &Expr, tensors: &Tensors, out: &mut Dense<f64>) {
    assert_eq!(lhs.len(), out.dims.len(), "the output's rank");
    let placed = place_sums(lhs, rhs);
    let mut sizes = BTreeMap::new();
    for (i, &n) in lhs.iter().zip(&out.dims) {
        sizes.insert(i.to_string(), n);
    }
    bind_sizes(rhs, tensors, &mut sizes);
    let total: usize = out.dims.iter().product();
    for at in 0..total {
        let coords = crate::gen::unravel(&out.dims, at);
        let mut env: BTreeMap<String, usize> = lhs
            .iter()
            .zip(&coords)
            .map(|(i, &c)| (i.to_string(), c))
            .collect();
        let v = eval(&placed, tensors, &sizes, &mut env);
        let slot = &mut out.data[at];
        *slot = match assign {
            Assign::Set => v,
            Assign::AddTo => *slot + v,
            Assign::SubFrom => *slot - v,
            Assign::MulBy => *slot * v,
            Assign::DivBy => *slot / v,
        };
    }
}

/// The size of every index, from the dimensions of the tensors it indexes.
fn bind_sizes(e: &Expr, tensors: &Tensors, sizes: &mut BTreeMap<String, usize>) {
    if let Expr::Access(name, idx) = e {
        let t = tensors
            .get(name.as_str())
            .unwrap_or_else(|| panic!("no tensor {name}"));
        assert_eq!(t.dims.len(), idx.len(), "rank of {name}");
        for (i, &n) in idx.iter().zip(&t.dims) {
            let old = *sizes.entry(i.clone()).or_insert(n);
            assert_eq!(old, n, "index {i} bound to {old} and to {n} (by {name})");
        }
    }
    for k in e.children() {
        bind_sizes(k, tensors, sizes);
    }
}

fn eval(
    e: &Expr,
    tensors: &Tensors,
    sizes: &BTreeMap<String, usize>,
    env: &mut BTreeMap<String, usize>,
) -> f64 {
    match e {
        Expr::Access(name, idx) => {
            let c: Vec<usize> = idx
                .iter()
                .map(|i| *env.get(i).unwrap_or_else(|| panic!("index {i} unbound")))
                .collect();
            tensors[name.as_str()].at(&c)
        }
        Expr::Lit(v) => *v,
        Expr::Add(l, r) => eval(l, tensors, sizes, env) + eval(r, tensors, sizes, env),
        Expr::Sub(l, r) => eval(l, tensors, sizes, env) - eval(r, tensors, sizes, env),
        Expr::Mul(l, r) => eval(l, tensors, sizes, env) * eval(r, tensors, sizes, env),
        Expr::Div(l, r) => eval(l, tensors, sizes, env) / eval(r, tensors, sizes, env),
        Expr::Neg(x) => -eval(x, tensors, sizes, env),
        Expr::Call(f, args) => {
            let vs: Vec<f64> = args.iter().map(|a| eval(a, tensors, sizes, env)).collect();
            f.apply(&vs)
        }
        Expr::Sum(i, body) => {
            let n = *sizes
                .get(i)
                .unwrap_or_else(|| panic!("index {i} has no size"));
            let saved = env.remove(i);
            let mut s = 0.0;
            for v in 0..n {
                env.insert(i.clone(), v);
                s += eval(body, tensors, sizes, env);
            }
            env.remove(i);
            if let Some(v) = saved {
                env.insert(i.clone(), v);
            }
            s
        }
    }
}

/// `out[lhs] = rhs` into a fresh output of `dims`: [`evaluate`] from zeros.
pub fn evaluate_new(lhs: &[&str], rhs: &Expr, tensors: &Tensors, dims: &[usize]) -> Dense<f64> {
    let mut out = Dense::zeros(dims);
    evaluate(lhs, Assign::Set, rhs, tensors, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w() -> Expr {
        access("w", &["i", "j"])
    }
    fn x() -> Expr {
        access("x", &["j"])
    }
    fn b() -> Expr {
        access("b", &["i"])
    }

    #[test]
    fn the_bias_is_added_once_not_once_per_column() {
        // w = ones(2, 3), x = ones(3), b = [10, 20]: [13, 23] (not [33, 63]).
        let wd = Dense::from_data(&[2, 3], vec![1.0; 6]);
        let xd = Dense::from_data(&[3], vec![1.0; 3]);
        let bd = Dense::from_data(&[2], vec![10.0, 20.0]);
        let t: Tensors = [("w", &wd), ("x", &xd), ("b", &bd)].into();
        let e = w() * x() + b();
        assert_eq!(
            place_sums(&["i"], &e).to_string(),
            "(sum_j (w[i, j] * x[j]) + b[i])"
        );
        assert_eq!(evaluate_new(&["i"], &e, &t, &[2]).data, [13.0, 23.0]);
        // Written with the sum around everything, b is added three times.
        let wrong = sum("j", w() * x() + b());
        assert_eq!(evaluate_new(&["i"], &wrong, &t, &[2]).data, [33.0, 63.0]);
        // `+=` adds the sum and the bias once to the old value.
        let mut y = Dense::from_data(&[2], vec![1.0, -1.0]);
        evaluate(&["i"], Assign::AddTo, &e, &t, &mut y);
        assert_eq!(y.data, [14.0, 22.0]);
    }

    #[test]
    fn compound_assignments_read_the_old_value_once() {
        // w = ones(2, 3), x = ones(3), b = [10, 20]: e = w x + b = [13, 23].
        let wd = Dense::from_data(&[2, 3], vec![1.0; 6]);
        let xd = Dense::from_data(&[3], vec![1.0; 3]);
        let bd = Dense::from_data(&[2], vec![10.0, 20.0]);
        let t: Tensors = [("w", &wd), ("x", &xd), ("b", &bd)].into();
        let e = w() * x() + b();
        let cases = [
            (Assign::SubFrom, [2.0 - 13.0, 4.0 - 23.0]),
            (Assign::MulBy, [2.0 * 13.0, 4.0 * 23.0]),
            (Assign::DivBy, [2.0 / 13.0, 4.0 / 23.0]),
        ];
        for (assign, want) in cases {
            let mut y = Dense::from_data(&[2], vec![2.0, 4.0]);
            evaluate(&["i"], assign, &e, &t, &mut y);
            assert_eq!(y.data, want, "{assign:?}");
        }
        // A reduction over nothing is 0: `*=` zeroes, `/=` gives inf/NaN.
        let wd = Dense::from_data(&[2, 0], vec![]);
        let xd = Dense::from_data(&[0], vec![]);
        let t: Tensors = [("w", &wd), ("x", &xd)].into();
        let mut y = Dense::from_data(&[2], vec![2.0, 0.0]);
        evaluate(&["i"], Assign::MulBy, &(w() * x()), &t, &mut y);
        assert_eq!(y.data, [0.0, 0.0]);
        let mut y = Dense::from_data(&[2], vec![2.0, 0.0]);
        evaluate(&["i"], Assign::DivBy, &(w() * x()), &t, &mut y);
        assert_eq!(y.data[0], f64::INFINITY);
        assert!(y.data[1].is_nan());
    }

    #[test]
    fn placement_by_hand() {
        let cases: Vec<(&[&str], Expr, &str)> = vec![
            (&["i"], b() + w() * x(), "(b[i] + sum_j (w[i, j] * x[j]))"),
            (
                &["i"],
                w() * x() + b() + lit(0.0),
                "((sum_j (w[i, j] * x[j]) + b[i]) + 0.0)",
            ),
            (
                &["i"],
                (w() * x() + access("u", &["i", "j"]) * x()) + b(),
                "(sum_j ((w[i, j] * x[j]) + (u[i, j] * x[j])) + b[i])",
            ),
            (
                &["i"],
                call(Func::Sqrt, vec![call(Func::Abs, vec![w() * x()])]) * access("c", &["i"]),
                "(sqrt(abs(sum_j (w[i, j] * x[j]))) * c[i])",
            ),
            (
                &["i"],
                w() * x() + access("c", &["i", "k"]) * access("z", &["k"]),
                "(sum_j (w[i, j] * x[j]) + sum_k (c[i, k] * z[k]))",
            ),
            (
                &["i"],
                w() * (access("v", &["j", "k"]) * access("z", &["k"]) + access("d", &["j"])),
                "sum_j (w[i, j] * (sum_k (v[j, k] * z[k]) + d[j]))",
            ),
            (
                &[],
                access("a", &["i"]) * access("b", &["i"]) + access("c", &[]),
                "(sum_i (a[i] * b[i]) + c[])",
            ),
            (&[], w(), "sum_i sum_j w[i, j]"),
            (&["i"], -(w() * x()), "-sum_j (w[i, j] * x[j])"),
            // An explicit sum stays where it is written.
            (
                &["i"],
                sum("j", w() * x() + b()),
                "sum_j ((w[i, j] * x[j]) + b[i])",
            ),
            (&["i", "j"], w() + b(), "(w[i, j] + b[i])"),
        ];
        for (lhs, e, want) in cases {
            assert_eq!(place_sums(lhs, &e).to_string(), want, "{e}");
        }
    }

    #[test]
    fn several_depths_by_hand() {
        // a = [[1, 2], [3, 4]], x = [1, -1], c = [[2, 0, 1], [0, 0, 0]],
        // z = [1, 2, 3]: y = a x + c z = [-1 + 5, -1 + 0] = [4, -1].
        let a = Dense::from_data(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]);
        let xd = Dense::from_data(&[2], vec![1.0, -1.0]);
        let c = Dense::from_data(&[2, 3], vec![2.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        let z = Dense::from_data(&[3], vec![1.0, 2.0, 3.0]);
        let t: Tensors = [("a", &a), ("x", &xd), ("c", &c), ("z", &z)].into();
        let e = access("a", &["i", "j"]) * x() + access("c", &["i", "k"]) * access("z", &["k"]);
        assert_eq!(evaluate_new(&["i"], &e, &t, &[2]).data, [4.0, -1.0]);
        // y[i] = a[i, j] * (c[j, k] * z[k] + d[j]) with c 2x3 here and
        // d = [1, 1]: inner = [5 + 1, 0 + 1] = [6, 1]; y = [6 + 2, 18 + 4].
        let d = Dense::from_data(&[2], vec![1.0, 1.0]);
        let t: Tensors = [("a", &a), ("c", &c), ("z", &z), ("d", &d)].into();
        let e = access("a", &["i", "j"])
            * (access("c", &["j", "k"]) * access("z", &["k"]) + access("d", &["j"]));
        assert_eq!(evaluate_new(&["i"], &e, &t, &[2]).data, [8.0, 22.0]);
        // Scalar: s = a . a + 2 (a flattened by two indices).
        let two = Dense::from_data(&[], vec![2.0]);
        let t: Tensors = [("a", &a), ("c", &two)].into();
        let e = access("a", &["i", "j"]) * access("a", &["i", "j"]) + access("c", &[]);
        assert_eq!(evaluate_new(&[], &e, &t, &[]).data, [32.0]);
        // sqrt(|sum|) * c: rows of a x are -1 and -1: sqrt(1) * [3, 4].
        let cv = Dense::from_data(&[2], vec![3.0, 4.0]);
        let t: Tensors = [("a", &a), ("x", &xd), ("c", &cv)].into();
        let e = call(
            Func::Sqrt,
            vec![call(Func::Abs, vec![access("a", &["i", "j"]) * x()])],
        ) * access("c", &["i"]);
        assert_eq!(evaluate_new(&["i"], &e, &t, &[2]).data, [3.0, 4.0]);
    }

    #[test]
    fn zero_sized_reductions_sum_to_zero() {
        let wd = Dense::from_data(&[2, 0], vec![]);
        let xd = Dense::from_data(&[0], vec![]);
        let bd = Dense::from_data(&[2], vec![1.0, 2.0]);
        let t: Tensors = [("w", &wd), ("x", &xd), ("b", &bd)].into();
        assert_eq!(
            evaluate_new(&["i"], &(w() * x() + b()), &t, &[2]).data,
            [1.0, 2.0]
        );
    }
}
