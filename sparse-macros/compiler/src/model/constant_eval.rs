//! Evaluating a kernel expression when the macro expands, for constants
//! computed from other constants (`compute(|i| ..)`, see
//! `constant_compute.rs`).
//!
//! The arithmetic is the generated kernels': integers wrap at their width,
//! `/` by zero gives 0 and `MIN / -1` wraps (`sparse_core::math::int_div`),
//! shift amounts are taken modulo the width (`math::bits`), `as` converts
//! as Rust does (float to integer saturating, NaN to 0), floats round as
//! IEEE 754 `f32`/`f64` operations do on every target, and `min`/`max` on
//! floats let a NaN lose (`f32::max`). Sums add their terms in row-major
//! order of the summed indices. What would not give the target's bits is
//! refused with its own message: `f16`/`bf16`/complex values, the math
//! functions (whose results depend on the build's `libm`/`micromath`),
//! `requantize`, semiring operations, and index arithmetic that leaves
//! `0..=u32::MAX` (a `usize` wraps at the target's width).

use std::collections::HashMap;

use super::constant_value::Scalar;
use super::ValueType;
use crate::sparsifier::{Access, Expr, Kernel, LoopId};

/// How many expression nodes one constant may evaluate: the work of a
/// `compute` is bounded whatever sizes its type claims.
pub(super) const STEP_BUDGET: u64 = 1 << 24;

/// The values of an operand, by dimension coordinates.
pub(super) enum Reader {
    /// Every element, row-major.
    Dense(Vec<Scalar>),
    /// The stored entries (duplicates summed); zero elsewhere.
    Sparse(HashMap<Box<[u64]>, Scalar>),
}

/// A tensor the expression reads or writes.
pub(super) struct Operand {
    pub(super) name: String,
    pub(super) elem: ValueType,
    pub(super) shape: Vec<u64>,
    /// `None` for the output.
    pub(super) reader: Option<Reader>,
}

/// Why evaluation stopped.
#[derive(Debug)]
pub(super) enum Stop {
    /// A construct whose result at run time the macro cannot reproduce.
    Unsupported(String),
    /// More than [`STEP_BUDGET`] steps.
    Budget,
    /// A read outside the operand.
    Range(String),
}

type Result<T> = std::result::Result<T, Stop>;

/// The evaluator: the kernel, its operands by `TensorId`, the value of
/// each bound index variable.
pub(super) struct Eval<'a> {
    pub(super) kernel: &'a Kernel,
    pub(super) operands: &'a [Operand],
    pub(super) sizes: Vec<Option<u64>>,
    pub(super) env: Vec<u64>,
    steps: u64,
    key: Vec<u64>,
}

impl<'a> Eval<'a> {
    pub(super) fn new(
        kernel: &'a Kernel,
        operands: &'a [Operand],
        sizes: Vec<Option<u64>>,
    ) -> Self {
        Eval {
            kernel,
            operands,
            env: vec![0; sizes.len()],
            sizes,
            steps: 0,
            key: Vec::new(),
        }
    }

    /// Counts `n` steps against the budget.
    fn step(&mut self, n: u64) -> Result<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > STEP_BUDGET {
            return Err(Stop::Budget);
        }
        Ok(())
    }

    /// An upper bound of the steps [`Eval::eval`] takes on `e` (both
    /// branches of a choice counted), saturating: the budget is checked
    /// before any work.
    pub(super) fn cost(&self, e: &Expr) -> u64 {
        let own = e
            .children()
            .into_iter()
            .fold(1u64, |n, c| n.saturating_add(self.cost(c)));
        match e {
            Expr::Sum(loops, _) => loops
                .iter()
                .map(|l| self.sizes[l.index()].unwrap_or(0))
                .fold(own - 1, |n, size| n.saturating_mul(size))
                .saturating_add(1),
            _ => own,
        }
    }

    /// The element type `e` computes where its operands say, by codegen's
    /// rule ([`Expr::value_type`]): tensors, casts, suffixed literals.
    fn ty(&self, e: &Expr) -> Option<ValueType> {
        e.value_type(&|leaf: &Expr| match leaf {
            Expr::Access(a) => Some(self.operands[a.tensor.index()].elem),
            Expr::Literal(text) => literal_suffix(text),
            _ => None,
        })
    }

    /// The type `e`'s arithmetic runs in, given what its parent expects:
    /// its operands' type, `index` for index arithmetic, else the parent's.
    fn run_type(&self, e: &Expr, want: ValueType) -> ValueType {
        self.ty(e).unwrap_or(if e.mentions_index() {
            ValueType::Index
        } else {
            want
        })
    }

    /// `e`'s value as `want` (the type its parent computes in).
    pub(super) fn eval(&mut self, e: &Expr, want: ValueType) -> Result<Scalar> {
        self.step(1)?;
        if !want.is_primitive() || want.is_half() {
            return Err(Stop::Unsupported(format!(
                "`{}` values (only integers, `i1`, `f32` and `f64` are computed when the \
                 macro expands)",
                want.mlir_name()
            )));
        }
        Ok(match e {
            Expr::Access(a) => self.read(a)?,
            Expr::Literal(text) => literal(text, want)?,
            Expr::Index(l) => Scalar::Int(i128::from(self.env[l.index()])),
            Expr::Zero => Scalar::zero(want),
            Expr::Neg(x) => {
                let t = self.run_type(x, want);
                match self.eval(x, t)? {
                    Scalar::F32(v) => Scalar::F32(-v),
                    Scalar::F64(v) => Scalar::F64(-v),
                    Scalar::Int(v) => self.int(t, -v)?,
                    other => return Err(unsupported_value(other)),
                }
            }
            Expr::Add(l, r) | Expr::Sub(l, r) | Expr::Mul(l, r) | Expr::Div(l, r) => {
                let t = self.run_type(e, want);
                let (a, b) = (self.eval(l, t)?, self.eval(r, t)?);
                self.arith(e, t, a, b)?
            }
            Expr::Cast(x, ty) => {
                let to = ValueType::from_name(ty)
                    .ok_or_else(|| Stop::Unsupported(format!("the cast `as {ty}`")))?;
                let from = self.ty(x).unwrap_or(if x.mentions_index() {
                    ValueType::Index
                } else {
                    literal_default(x)
                });
                let v = self.eval(x, from)?;
                cast(v, to)?
            }
            Expr::Sum(loops, body) => self.sum(loops, body, want)?,
            Expr::Call(name, args) => self.call(name, args, want)?,
            other => {
                let what = match other {
                    Expr::Binary(_) => "`binary(..)`",
                    Expr::Unary(_) => "`unary(..)`",
                    Expr::Select(..) => "`select(..)`",
                    _ => "a closure",
                };
                return Err(Stop::Unsupported(format!(
                    "{what}: semiring operations are not evaluated when the macro expands"
                )));
            }
        })
    }

    /// An integer result in `t`: wrapped to its width, or refused for
    /// index arithmetic that leaves `0..=u32::MAX`.
    fn int(&self, t: ValueType, v: i128) -> Result<Scalar> {
        if t == ValueType::Index {
            if !(0..=i128::from(u32::MAX)).contains(&v) {
                return Err(Stop::Unsupported(format!(
                    "index arithmetic giving {v}: outside 0..=4294967295, a `usize` wraps at \
                     the target's width"
                )));
            }
            return Ok(Scalar::Int(v));
        }
        Ok(Scalar::Int(wrap(v, t)))
    }

    fn arith(&self, e: &Expr, t: ValueType, a: Scalar, b: Scalar) -> Result<Scalar> {
        Ok(match (a, b) {
            (Scalar::F32(x), Scalar::F32(y)) => Scalar::F32(match e {
                Expr::Add(..) => x + y,
                Expr::Sub(..) => x - y,
                Expr::Mul(..) => x * y,
                _ => x / y,
            }),
            (Scalar::F64(x), Scalar::F64(y)) => Scalar::F64(match e {
                Expr::Add(..) => x + y,
                Expr::Sub(..) => x - y,
                Expr::Mul(..) => x * y,
                _ => x / y,
            }),
            (Scalar::Int(x), Scalar::Int(y)) => {
                let v = match e {
                    Expr::Add(..) => x + y,
                    Expr::Sub(..) => x - y,
                    // Both factors fit 64 bits: wrap them first so the
                    // product of two wrapped values fits an `i128`.
                    Expr::Mul(..) => {
                        return self.int(t, wrap_mul(x, y, t));
                    }
                    _ if y == 0 => 0,
                    // `MIN / -1` overflows the width: `wrap` takes it back.
                    _ => x / y,
                };
                self.int(t, v)?
            }
            (x, _) => return Err(unsupported_value(x)),
        })
    }

    fn sum(&mut self, loops: &[LoopId], body: &Expr, want: ValueType) -> Result<Scalar> {
        let t = self.ty(body).unwrap_or(want);
        let mut acc = Scalar::zero(t);
        let mut extents = Vec::with_capacity(loops.len());
        for &l in loops {
            let n = self.sizes[l.index()].ok_or_else(|| {
                Stop::Unsupported(format!(
                    "a sum over `{}`, which indexes no dimension and so has no size",
                    self.kernel.loop_name(l)
                ))
            })?;
            if n == 0 {
                return Ok(acc);
            }
            extents.push(n);
            self.env[l.index()] = 0;
        }
        loop {
            let term = self.eval(body, t)?;
            acc = match (acc, term) {
                (Scalar::F32(a), Scalar::F32(b)) => Scalar::F32(a + b),
                (Scalar::F64(a), Scalar::F64(b)) => Scalar::F64(a + b),
                (Scalar::Int(a), Scalar::Int(b)) => self.int(t, a + b)?,
                (a, _) => return Err(unsupported_value(a)),
            };
            // Row-major: the last summed index moves fastest.
            let mut d = loops.len();
            loop {
                if d == 0 {
                    return Ok(acc);
                }
                d -= 1;
                let l = loops[d].index();
                self.env[l] += 1;
                if self.env[l] < extents[d] {
                    break;
                }
                self.env[l] = 0;
            }
        }
    }

    fn call(&mut self, name: &str, args: &[Expr], want: ValueType) -> Result<Scalar> {
        let operand_type = args.iter().find_map(|a| self.ty(a)).unwrap_or(
            if args.iter().any(Expr::mentions_index) {
                ValueType::Index
            } else {
                want
            },
        );
        match (name, args) {
            ("choose", [c, a, b]) => {
                let t = args[1..].iter().find_map(|x| self.ty(x)).unwrap_or(want);
                return match self.eval(c, ValueType::Bool)? {
                    Scalar::Bool(true) => self.eval(a, t),
                    _ => self.eval(b, t),
                };
            }
            ("not", [x]) => {
                return match self.eval(x, ValueType::Bool)? {
                    Scalar::Bool(v) => Ok(Scalar::Bool(!v)),
                    other => Err(unsupported_value(other)),
                }
            }
            ("and" | "or", [a, b]) => {
                let (Scalar::Bool(x), Scalar::Bool(y)) = (
                    self.eval(a, ValueType::Bool)?,
                    self.eval(b, ValueType::Bool)?,
                ) else {
                    return Err(Stop::Unsupported(format!("`{name}` on numbers")));
                };
                return Ok(Scalar::Bool(if name == "and" { x && y } else { x || y }));
            }
            ("eq" | "ne" | "lt" | "le" | "gt" | "ge", [a, b]) => {
                let (x, y) = (self.eval(a, operand_type)?, self.eval(b, operand_type)?);
                return compare(name, x, y).map(Scalar::Bool);
            }
            _ => {}
        }
        let t = match name {
            "shl" | "shr" => args.first().and_then(|a| self.ty(a)).unwrap_or(want),
            _ => operand_type,
        };
        match (name, args) {
            ("shl" | "shr", [x, n]) => {
                let v = self.eval(x, t)?;
                let nt = self.run_type(n, ValueType::I32);
                let amount = self.eval(n, nt)?;
                let (Scalar::Int(v), Scalar::Int(amount)) = (v, amount) else {
                    return Err(Stop::Unsupported(format!("`{name}` on non-integers")));
                };
                Ok(Scalar::Int(shift(name == "shl", v, amount, t)))
            }
            ("bitnot", [x]) => match self.eval(x, t)? {
                Scalar::Int(v) => self.int(t, !v),
                Scalar::Bool(v) => Ok(Scalar::Bool(!v)),
                other => Err(unsupported_value(other)),
            },
            ("bitand" | "bitor" | "bitxor", [a, b]) => {
                let (x, y) = (self.eval(a, t)?, self.eval(b, t)?);
                let f = |p: i128, q: i128| match name {
                    "bitand" => p & q,
                    "bitor" => p | q,
                    _ => p ^ q,
                };
                match (x, y) {
                    (Scalar::Int(p), Scalar::Int(q)) => self.int(t, f(p, q)),
                    (Scalar::Bool(p), Scalar::Bool(q)) => {
                        Ok(Scalar::Bool(f(i128::from(p), i128::from(q)) != 0))
                    }
                    (other, _) => Err(unsupported_value(other)),
                }
            }
            ("abs", [x]) => match self.eval(x, t)? {
                Scalar::F32(v) => Ok(Scalar::F32(v.abs())),
                Scalar::F64(v) => Ok(Scalar::F64(v.abs())),
                Scalar::Int(v) => self.int(t, v.abs()),
                other => Err(unsupported_value(other)),
            },
            ("min" | "max", [a, b]) => {
                let (x, y) = (self.eval(a, t)?, self.eval(b, t)?);
                ordered(name == "max", x, y)
            }
            ("clamp", [x, lo, hi]) => {
                let (x, lo, hi) = (self.eval(x, t)?, self.eval(lo, t)?, self.eval(hi, t)?);
                ordered(false, ordered(true, x, lo)?, hi)
            }
            _ => Err(Stop::Unsupported(format!(
                "`{name}(..)`: a math function's result depends on the build's `libm` or \
                 `micromath`, so only `min`, `max`, `abs`, `clamp`, the operators and `sum` \
                 are evaluated when the macro expands"
            ))),
        }
    }

    /// The element `a` reads at the bound index variables.
    fn read(&mut self, a: &Access) -> Result<Scalar> {
        let op = &self.operands[a.tensor.index()];
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        for (d, &l) in a.indices.iter().enumerate() {
            let c = match a.affine_dim(d) {
                None => i128::from(self.env[l.index()]),
                Some(af) => af.terms.iter().fold(i128::from(af.constant), |s, &(v, k)| {
                    s + i128::from(k) * i128::from(self.env[v.index()])
                }),
            };
            match u64::try_from(c) {
                Ok(c) if c < op.shape[d] => key.push(c),
                _ => {
                    return Err(Stop::Range(format!(
                        "`{}` at {c} in dimension {d}, whose size is {}",
                        op.name, op.shape[d]
                    )))
                }
            }
        }
        let v = match &op.reader {
            Some(Reader::Dense(values)) => {
                let flat = key
                    .iter()
                    .zip(&op.shape)
                    .fold(0usize, |f, (&c, &n)| f * n as usize + c as usize);
                values.get(flat).copied().unwrap_or(Scalar::zero(op.elem))
            }
            Some(Reader::Sparse(map)) => {
                map.get(&key[..]).copied().unwrap_or(Scalar::zero(op.elem))
            }
            None => {
                return Err(Stop::Unsupported(format!(
                    "reading `{}`, the constant being computed",
                    op.name
                )))
            }
        };
        self.key = key;
        Ok(v)
    }
}

/// The type a literal's suffix names.
fn literal_suffix(text: &str) -> Option<ValueType> {
    if let Ok(lit) = syn::parse_str::<syn::LitInt>(text) {
        return ValueType::from_name(lit.suffix());
    }
    if let Ok(lit) = syn::parse_str::<syn::LitFloat>(text) {
        return ValueType::from_name(lit.suffix());
    }
    None
}

/// The type a literal alone has in Rust (`2 as f32`: `i32`; `2.0`: `f64`).
fn literal_default(e: &Expr) -> ValueType {
    let mut text = None;
    let mut node = e;
    loop {
        match node {
            Expr::Literal(t) => {
                text = Some(t.as_str());
                break;
            }
            Expr::Neg(x) => node = x,
            _ => break,
        }
    }
    match text {
        Some(t) if t.contains('.') || t.contains(['e', 'E']) && !t.starts_with("0x") => {
            ValueType::F64
        }
        Some("true" | "false") => ValueType::Bool,
        _ => ValueType::I32,
    }
}

/// A literal's value as `want` (its suffix, if written, wins).
fn literal(text: &str, want: ValueType) -> Result<Scalar> {
    let bad = || Stop::Unsupported(format!("the literal `{text}`"));
    match text {
        "true" => return Ok(Scalar::Bool(true)),
        "false" => return Ok(Scalar::Bool(false)),
        _ => {}
    }
    let t = literal_suffix(text).unwrap_or(want);
    if let Ok(lit) = syn::parse_str::<syn::LitInt>(text) {
        let v: i128 = lit.base10_parse().map_err(|_| bad())?;
        return match t {
            ValueType::F32 => Ok(Scalar::F32(v as f32)),
            ValueType::F64 => Ok(Scalar::F64(v as f64)),
            _ => Ok(Scalar::Int(wrap(v, t))),
        };
    }
    let lit = syn::parse_str::<syn::LitFloat>(text).map_err(|_| bad())?;
    match t {
        ValueType::F32 => Ok(Scalar::F32(lit.base10_parse().map_err(|_| bad())?)),
        ValueType::F64 => Ok(Scalar::F64(lit.base10_parse().map_err(|_| bad())?)),
        _ => Err(bad()),
    }
}

/// `v` wrapped to `t`'s width (two's complement), as a value of `t`.
pub(super) fn wrap(v: i128, t: ValueType) -> i128 {
    let bits = match t {
        ValueType::Index => return v,
        ValueType::Bool => return v & 1,
        other => other.width(),
    };
    let m = (v as u128) & ((1u128 << bits) - 1);
    if t.is_signed() && m >> (bits - 1) == 1 {
        m as i128 - (1i128 << bits)
    } else {
        m as i128
    }
}

/// `x * y` wrapped to `t`: the factors are values of `t` (at most 64
/// bits), so the product of their low 64 bits is exact in `u128`.
fn wrap_mul(x: i128, y: i128, t: ValueType) -> i128 {
    if t == ValueType::Index {
        return x.saturating_mul(y);
    }
    let p = (x as u64 as u128).wrapping_mul(y as u64 as u128);
    wrap(p as i128, t)
}

/// `x << n` or `x >> n` in `t`, the amount modulo the width
/// (`sparse_core::math::shl`/`shr`): zeros shift in on the left, the sign
/// on the right for signed types.
fn shift(left: bool, x: i128, n: i128, t: ValueType) -> i128 {
    let bits = if t == ValueType::Index { 64 } else { t.width() };
    let s = (n as u32) % bits;
    if left {
        wrap(((x as u128) << s) as i128, t)
    } else {
        // `x` is a value of `t`: an arithmetic shift of a signed value, a
        // logical one of a non-negative unsigned value.
        x >> s
    }
}

/// Rust's `as`: integers wrap, floats to integers saturate (NaN to 0).
fn cast(v: Scalar, to: ValueType) -> Result<Scalar> {
    if !to.is_primitive() || to.is_half() {
        return Err(Stop::Unsupported(format!("`as {}`", to.mlir_name())));
    }
    let as_float = |x: f64| match to {
        ValueType::F32 => Scalar::F32(x as f32),
        _ => Scalar::F64(x),
    };
    Ok(match (v, to) {
        (Scalar::Int(x), ValueType::F32) => Scalar::F32(x as f32),
        (Scalar::Int(x), ValueType::F64) => Scalar::F64(x as f64),
        (Scalar::Int(x), ValueType::Bool) => Scalar::Bool(x & 1 == 1),
        (Scalar::Int(x), t) => Scalar::Int(wrap(x, t)),
        (Scalar::Bool(b), ValueType::F32 | ValueType::F64) => as_float(f64::from(u8::from(b))),
        (Scalar::Bool(b), t) => Scalar::Int(wrap(i128::from(b), t)),
        (Scalar::F32(x), ValueType::F32) => Scalar::F32(x),
        (Scalar::F32(x), ValueType::F64) => Scalar::F64(f64::from(x)),
        (Scalar::F64(x), ValueType::F32) => Scalar::F32(x as f32),
        (Scalar::F64(x), ValueType::F64) => Scalar::F64(x),
        (Scalar::F32(x), t) => Scalar::Int(saturate(f64::from(x), t)),
        (Scalar::F64(x), t) => Scalar::Int(saturate(x, t)),
        (other, _) => return Err(unsupported_value(other)),
    })
}

/// A float converted to integer type `t` as Rust's `as` does.
fn saturate(x: f64, t: ValueType) -> i128 {
    let (lo, hi) = match t {
        ValueType::Index => (0, i128::from(u32::MAX)),
        ValueType::Bool => (0, 1),
        _ => t.int_range().unwrap_or((0, 0)),
    };
    if x.is_nan() {
        0
    } else if x <= lo as f64 {
        lo
    } else if x >= hi as f64 {
        hi
    } else {
        x.trunc() as i128
    }
}

fn compare(op: &str, x: Scalar, y: Scalar) -> Result<bool> {
    use std::cmp::Ordering::*;
    let ord = match (x, y) {
        (Scalar::F32(a), Scalar::F32(b)) => a.partial_cmp(&b),
        (Scalar::F64(a), Scalar::F64(b)) => a.partial_cmp(&b),
        (Scalar::Int(a), Scalar::Int(b)) => Some(a.cmp(&b)),
        (Scalar::Bool(a), Scalar::Bool(b)) => Some(a.cmp(&b)),
        (other, _) => return Err(unsupported_value(other)),
    };
    Ok(match op {
        "eq" => ord == Some(Equal),
        "ne" => ord != Some(Equal),
        "lt" => ord == Some(Less),
        "le" => matches!(ord, Some(Less | Equal)),
        "gt" => ord == Some(Greater),
        _ => matches!(ord, Some(Greater | Equal)),
    })
}

/// `max(x, y)` (or `min`) as `sparse_core::math` defines it: floats let a
/// NaN lose (`f32::max`), integers compare.
fn ordered(max: bool, x: Scalar, y: Scalar) -> Result<Scalar> {
    Ok(match (x, y) {
        (Scalar::F32(a), Scalar::F32(b)) => Scalar::F32(if max { a.max(b) } else { a.min(b) }),
        (Scalar::F64(a), Scalar::F64(b)) => Scalar::F64(if max { a.max(b) } else { a.min(b) }),
        (Scalar::Int(a), Scalar::Int(b)) => Scalar::Int(if max { a.max(b) } else { a.min(b) }),
        (other, _) => return Err(unsupported_value(other)),
    })
}

fn unsupported_value(v: Scalar) -> Stop {
    Stop::Unsupported(format!("the value {}", v.describe()))
}

#[cfg(test)]
#[path = "constant_eval_tests.rs"]
mod tests;
