//! A grammar-aware generator of `sparse_kernel!` blocks: bytes from
//! `arbitrary::Unstructured` drive the choices of a hand-written generator
//! that prints a block as source text (encodings, tensor types, kernels
//! with statements in index notation).
//!
//! The choices are weighted towards *valid* blocks: encodings come mostly
//! from the formats the tests use (CSR, CSC, DCSR, COO in both layouts,
//! loose, CSF, BSR, 2:4, ...) with the occasional random level list;
//! tensor parameters take an encoding of their rank; accesses mostly index
//! in order; literals match the kernel's element type. That way most
//! blocks get past the checker into the sparsifier and codegen, while the
//! rarer choices still produce every kind of error (rank mismatches,
//! undefined names, sparse divisors, loop-order cycles, bad regions).
//!
//! Expression size is capped (see `caps`): at most `MAX_ADDITIVE` additive
//! operators per statement (past it `+`/`-` become `*`), `MAX_LOGIC`
//! choices and comparisons (past it, a leaf) and nesting at most
//! `MAX_DEPTH`, so that generated blocks stay clear of the known defects.

use arbitrary::{Result, Unstructured};

use crate::caps::{MAX_ADDITIVE, MAX_DEPTH, MAX_LOGIC};

const INDICES: [&str; 4] = ["i", "j", "k", "l"];
const INPUTS: [&str; 3] = ["a", "b", "d"];
const SCALARS: [&str; 2] = ["s", "t"];

/// Level lists by rank: the formats the tests and MLIR's examples use.
const RANK1: &[&str] = &[
    "(i) -> (i : compressed)",
    "(i) -> (i : dense)",
    "(i) -> (i : loose_compressed)",
    "(i) -> (i : compressed(nonunique))",
];
const RANK2: &[&str] = &[
    "(i, j) -> (i : dense, j : compressed)",
    "(i, j) -> (j : dense, i : compressed)",
    "(i, j) -> (i : compressed, j : compressed)",
    "(i, j) -> (j : compressed, i : compressed)",
    "(i, j) -> (i : compressed(nonunique), j : singleton)",
    "(i, j) -> (i : compressed(nonunique), j : singleton(soa))",
    "(i, j) -> (i : compressed(nonunique), j : singleton(nonunique))",
    "(i, j) -> (i : compressed(nonunique, high), j : singleton)",
    "(i, j) -> (i : dense, j : loose_compressed)",
    "(i, j) -> (i : dense, j : compressed(nonordered))",
    "(i, j) -> (i : dense, j : dense)",
    "(i, j) -> (i : batch, j : compressed)",
    "(i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed, i mod 2 : dense, j mod 2 : dense)",
    "(i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4])",
    "(i, j) -> (i : dense, c * 2 * j : dense)",
];
const RANK3: &[&str] = &[
    "(i, j, k) -> (i : compressed, j : compressed, k : compressed)",
    "(i, j, k) -> (i : dense, j : compressed, k : compressed)",
    "(i, j, k) -> (i : dense, j : dense, k : compressed)",
    "(i, j, k) -> (k : dense, i : compressed, j : compressed)",
    "(i, j, k) -> (i : compressed(nonunique), j : singleton(nonunique), k : singleton)",
    "(i, j, k) -> (i : batch, j : dense, k : compressed)",
];
const FORMATS: &[&str] = &[
    "dense",
    "compressed",
    "compressed(nonunique)",
    "compressed(nonordered)",
    "singleton",
    "singleton(soa)",
    "singleton(nonunique, soa)",
    "loose_compressed",
    "batch",
    "structured[2, 4]",
    "structured[4, 2]",
    "compressd",
];
const WIDTHS: &[&str] = &["0", "8", "16", "32", "64", "12"];
const MATH: &[(&str, usize)] = &[
    ("sqrt", 1),
    ("abs", 1),
    ("exp", 1),
    ("max", 2),
    ("min", 2),
    ("sin", 1),
    ("cos", 1),
    ("ln", 1),
    ("powi", 2),
    ("frobnicate", 1),
];

#[derive(Clone, Copy, PartialEq)]
enum Elem {
    F64,
    F32,
    I32,
    I64,
    I8,
    U8,
    U32,
    Index,
    Bool,
}

impl Elem {
    fn pick(u: &mut Unstructured<'_>) -> Result<Elem> {
        Ok(match u.int_in_range(0..=99u8)? {
            0..=59 => Elem::F64,
            60..=71 => Elem::F32,
            72..=81 => Elem::I32,
            82..=87 => Elem::I64,
            88..=90 => Elem::I8,
            91..=93 => Elem::U8,
            94..=95 => Elem::U32,
            96..=97 => Elem::Index,
            _ => Elem::Bool,
        })
    }

    /// The element type as written in `tensor<..>`.
    fn mlir(self) -> &'static str {
        match self {
            Elem::F64 => "f64",
            Elem::F32 => "f32",
            Elem::I32 => "i32",
            Elem::I64 => "i64",
            Elem::I8 => "i8",
            Elem::U8 => "ui8",
            Elem::U32 => "ui32",
            Elem::Index => "index",
            Elem::Bool => "i1",
        }
    }

    /// The Rust type (casts, scalar parameters).
    fn rust(self) -> &'static str {
        match self {
            Elem::F64 => "f64",
            Elem::F32 => "f32",
            Elem::I32 => "i32",
            Elem::I64 => "i64",
            Elem::I8 => "i8",
            Elem::U8 => "u8",
            Elem::U32 => "u32",
            Elem::Index => "usize",
            Elem::Bool => "bool",
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Elem::F64 | Elem::F32)
    }
}

/// A tensor parameter of the kernel being generated.
struct Tensor {
    name: &'static str,
    rank: usize,
}

/// The generator: the bytes, the text so far, what the block has defined.
struct Gen<'u, 'a> {
    u: &'u mut Unstructured<'a>,
    out: String,
    /// Rank of each encoding `#E<n>`.
    encodings: Vec<usize>,
}

/// Generates one block as source text.
pub fn block(u: &mut Unstructured<'_>) -> Result<String> {
    let mut g = Gen {
        u,
        out: String::new(),
        encodings: Vec::new(),
    };
    for n in 0..g.u.int_in_range(0..=4u8)? {
        g.encoding(usize::from(n))?;
    }
    if g.chance(10)? {
        g.type_alias()?;
    }
    for n in 0..g.u.int_in_range(1..=3u8)? {
        g.kernel(usize::from(n))?;
    }
    Ok(g.out)
}

impl Gen<'_, '_> {
    /// `true` with probability `percent`%.
    fn chance(&mut self, percent: u8) -> Result<bool> {
        Ok(self.u.int_in_range(0..=99u8)? < percent)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Result<T> {
        Ok(*self.u.choose(items)?)
    }

    fn encoding(&mut self, n: usize) -> Result<()> {
        let rank = match self.u.int_in_range(0..=9u8)? {
            0..=1 => 1,
            2..=7 => 2,
            _ => 3,
        };
        let map = if self.chance(12)? {
            // A random level list: orders, formats and expressions the
            // templates do not cover, most of them errors.
            let dims: Vec<&str> = INDICES[..rank].to_vec();
            let levels = self.u.int_in_range(1..=4usize)?;
            let mut parts = Vec::new();
            for _ in 0..levels {
                let d = self.pick(&dims)?;
                let expr = match self.u.int_in_range(0..=5u8)? {
                    0 => format!("{d} floordiv {}", self.u.int_in_range(0..=4u8)?),
                    1 => format!("{d} mod {}", self.u.int_in_range(0..=4u8)?),
                    _ => d.to_string(),
                };
                let format = self.pick(FORMATS)?;
                parts.push(format!("{expr} : {format}"));
            }
            format!("({}) -> ({})", dims.join(", "), parts.join(", "))
        } else {
            let templates = match rank {
                1 => RANK1,
                2 => RANK2,
                _ => RANK3,
            };
            self.pick(templates)?.to_string()
        };
        let mut fields = Vec::new();
        let garbage = if self.chance(4)? {
            self.u.int_in_range(0..=3u8)?
        } else {
            u8::MAX
        };
        match garbage {
            0 => {}
            1 => fields.push(map.replacen("->", "", 1)),
            _ => fields.push(format!("map = {map}")),
        }
        for field in ["posWidth", "crdWidth"] {
            if self.chance(30)? {
                let w = if self.chance(3)? {
                    "12"
                } else {
                    self.pick(&WIDTHS[..5])?
                };
                fields.push(format!("{field} = {w}"));
            }
        }
        if self.chance(5)? {
            let field = self.pick(&["explicitVal", "implicitVal"])?;
            let elem = Elem::pick(self.u)?;
            let lit = self.literal(elem)?;
            fields.push(format!("{field} = {lit} : {}", elem.mlir()));
        }
        match garbage {
            2 => fields.push("blockSize = 4".into()),
            3 => fields.push("posWidth = 8, posWidth = 16".into()),
            _ => {}
        }
        self.out.push_str(&format!(
            "#E{n} = #sparse_tensor.encoding<{{ {} }}>\n",
            fields.join(", ")
        ));
        self.encodings.push(rank);
        Ok(())
    }

    fn type_alias(&mut self) -> Result<()> {
        let (rank, enc) = self.sparse_type()?;
        let shape = self.shape(rank)?;
        let elem = Elem::pick(self.u)?;
        self.out
            .push_str(&format!("type T0 = tensor<{shape}{}{enc}>;\n", elem.mlir()));
        Ok(())
    }

    /// A rank and `, #E<n>` for an encoding of that rank, or a dense rank
    /// (0..=2) and nothing.
    fn sparse_type(&mut self) -> Result<(usize, String)> {
        if !self.encodings.is_empty() && self.chance(75)? {
            let n = self.u.choose_index(self.encodings.len())?;
            // Rarely a name that is not defined.
            let n_text = if self.chance(2)? { n + 7 } else { n };
            return Ok((self.encodings[n], format!(", #E{n_text}")));
        }
        Ok((self.u.int_in_range(0..=2usize)?, String::new()))
    }

    /// `?x?x` or static sizes (`4x?x`).
    fn shape(&mut self, rank: usize) -> Result<String> {
        let mut s = String::new();
        for _ in 0..rank {
            if self.chance(15)? {
                // Not 0: `0x` starts a hex literal, which does not lex.
                s.push_str(&format!("{}x", self.u.int_in_range(1..=8u8)?));
            } else {
                s.push_str("?x");
            }
        }
        Ok(s)
    }

    fn kernel(&mut self, n: usize) -> Result<()> {
        let elem = Elem::pick(self.u)?;
        let inputs = self.u.int_in_range(1..=3usize)?;
        let mut tensors = Vec::new();
        let mut params = Vec::new();
        for &name in &INPUTS[..inputs] {
            let (rank, enc) = self.sparse_type()?;
            let shape = self.shape(rank)?;
            let e = if self.chance(5)? {
                Elem::pick(self.u)?
            } else {
                elem
            };
            params.push(format!("{name}: &tensor<{shape}{}{enc}>", e.mlir()));
            tensors.push(Tensor { name, rank });
        }
        let scalars = if self.chance(20)? {
            self.u.int_in_range(1..=2usize)?
        } else {
            0
        };
        for s in &SCALARS[..scalars] {
            params.push(format!("{s}: {}", elem.rust()));
        }
        let (rank, enc) = if self.chance(35)? {
            self.sparse_type()?
        } else {
            (self.u.int_in_range(0..=2usize)?, String::new())
        };
        let shape = self.shape(rank)?;
        params.push(format!("c: &mut tensor<{shape}{}{enc}>", elem.mlir()));
        let output = Tensor { name: "c", rank };
        if self.chance(30)? {
            self.out.push_str(&format!("/// Kernel {n}.\n"));
        }
        let vis = if self.chance(50)? { "pub " } else { "" };
        self.out
            .push_str(&format!("{vis}fn k{n}({}) {{\n", params.join(", ")));
        let stmts = match self.u.int_in_range(0..=9u8)? {
            0 => 0,
            1..=6 => 1,
            7..=8 => 2,
            _ => 3,
        };
        for _ in 0..stmts {
            let lhs = self.indices(output.rank)?;
            let op = match self.u.int_in_range(0..=99u8)? {
                0..=59 => "=",
                60..=79 => "+=",
                80..=86 => "-=",
                87..=93 => "*=",
                _ => "/=",
            };
            let mut st = Stmt {
                tensors: &tensors,
                output: &output,
                scalars,
                elem,
                additive: 0,
                logic: 0,
            };
            let rhs = st.top(self)?;
            self.out
                .push_str(&format!("    {}[{lhs}] {op} {rhs};\n", output.name));
        }
        self.out.push_str("}\n");
        Ok(())
    }

    /// `rank` index variables: mostly `i, j, ..` in order, sometimes a
    /// random choice (transposes, diagonals, reductions over other names).
    fn indices(&mut self, rank: usize) -> Result<String> {
        let natural = self.chance(85)?;
        let mut out = Vec::new();
        for &natural_index in &INDICES[..rank] {
            out.push(if natural {
                natural_index
            } else {
                self.pick(&INDICES)?
            });
        }
        Ok(out.join(", "))
    }

    /// A literal of type `elem` (now and then of another type).
    fn literal(&mut self, elem: Elem) -> Result<String> {
        let v = i32::from(self.u.int_in_range(-8..=8i8)?);
        Ok(match (elem, self.u.int_in_range(0..=19u8)?) {
            (_, 0) => "300".into(),
            (_, 1) => "1e3".into(),
            (_, 2) => format!("{v}f32"),
            (Elem::Bool, _) => (v > 0).to_string(),
            (e, _) if e.is_float() => format!("{:.2}", f64::from(v) / 4.0),
            (Elem::U8 | Elem::U32 | Elem::Index, _) => v.unsigned_abs().to_string(),
            _ => v.to_string(),
        })
    }
}

/// What generating one statement knows.
struct Stmt<'k> {
    tensors: &'k [Tensor],
    output: &'k Tensor,
    scalars: usize,
    elem: Elem,
    /// `+`/`-` printed so far (capped at `MAX_ADDITIVE`).
    additive: usize,
    /// `if`s, comparisons and `||`s printed so far (capped at `MAX_LOGIC`,
    /// counted generously: a choice reserves room for its comparison).
    logic: usize,
}

impl Stmt<'_> {
    /// A right-hand side: sometimes a semiring operation or a sum at the
    /// top (where they are allowed), otherwise an expression.
    fn top(&mut self, g: &mut Gen<'_, '_>) -> Result<String> {
        let soft = g.u.int_in_range(1..=4usize)?;
        match g.u.int_in_range(0..=99u8)? {
            0..=7 => self.semiring(g, 1, soft),
            8..=11 => {
                let idx = g.pick(&INDICES[1..])?;
                let body = self.expr(g, 1, soft)?;
                Ok(format!("sum({idx}, {body})"))
            }
            _ => self.expr(g, 0, soft),
        }
    }

    /// An expression; deeper than `soft` it prefers leaves, at `MAX_DEPTH`
    /// it must be one.
    fn expr(&mut self, g: &mut Gen<'_, '_>, depth: usize, soft: usize) -> Result<String> {
        if depth >= MAX_DEPTH || (depth >= soft && g.chance(85)?) {
            return self.leaf(g);
        }
        let d = depth + 1;
        Ok(match g.u.int_in_range(0..=99u8)? {
            0..=29 => self.leaf(g)?,
            30..=64 => {
                let mut op = g.pick(&["+", "-", "*", "*", "/"])?;
                if matches!(op, "+" | "-") {
                    if self.additive >= MAX_ADDITIVE {
                        op = "*";
                    } else {
                        self.additive += 1;
                    }
                }
                let l = self.expr(g, d, soft)?;
                let r = self.expr(g, d, soft)?;
                format!("{l} {op} {r}")
            }
            65..=69 => format!("-{}", self.expr(g, d, soft)?),
            70..=76 => format!("({})", self.expr(g, d, soft)?),
            77..=79 => {
                let e = self.expr(g, d, soft)?;
                let t = if g.chance(70)? {
                    self.elem
                } else {
                    Elem::pick(g.u)?
                };
                format!("({e} as {})", t.rust())
            }
            80..=86 => {
                let (f, arity) = g.pick(MATH)?;
                let mut args = Vec::new();
                for _ in 0..arity {
                    args.push(self.expr(g, d, soft)?);
                }
                format!("{f}({})", args.join(", "))
            }
            87..=88 => {
                let idx = g.pick(&INDICES)?;
                format!("sum({idx}, {})", self.expr(g, d, soft)?)
            }
            89..=97 if self.logic + 4 > MAX_LOGIC => self.leaf(g)?,
            89..=93 => {
                self.logic += 1;
                let c = self.condition(g, d, soft)?;
                let a = self.expr(g, d, soft)?;
                let b = self.expr(g, d, soft)?;
                format!("if {c} {{ {a} }} else {{ {b} }}")
            }
            94..=97 => format!("({})", self.condition(g, d, soft)?),
            _ => self.semiring(g, d, soft)?,
        })
    }

    /// A comparison, sometimes combined with `&&`, `||` or `!`.
    fn condition(&mut self, g: &mut Gen<'_, '_>, d: usize, soft: usize) -> Result<String> {
        let op = g.pick(&["==", "!=", "<", "<=", ">", ">="])?;
        self.logic += 1;
        let l = self.expr(g, d, soft)?;
        let r = self.expr(g, d, soft)?;
        let cmp = format!("{l} {op} {r}");
        Ok(match g.u.int_in_range(0..=9u8)? {
            0 => {
                self.logic += 1;
                format!("!({cmp})")
            }
            1..=2 if self.logic + 4 > MAX_LOGIC => cmp,
            1 => {
                let other = self.condition(g, d + 1, soft)?;
                format!("{cmp} && {other}")
            }
            2 => {
                self.logic += 1;
                let other = self.condition(g, d + 1, soft)?;
                format!("{cmp} || {other}")
            }
            _ => cmp,
        })
    }

    fn leaf(&mut self, g: &mut Gen<'_, '_>) -> Result<String> {
        Ok(match g.u.int_in_range(0..=99u8)? {
            0..=77 => {
                let t = &self.tensors[g.u.choose_index(self.tensors.len())?];
                let idx = g.indices(t.rank)?;
                format!("{}[{idx}]", t.name)
            }
            78..=79 => {
                let idx = g.indices(self.output.rank)?;
                format!("{}[{idx}]", self.output.name)
            }
            80..=89 => g.literal(self.elem)?,
            90..=94 if self.scalars > 0 => SCALARS[g.u.choose_index(self.scalars)?].to_string(),
            _ => format!("({} as {})", g.pick(&INDICES)?, self.elem.rust()),
        })
    }

    /// `binary(..)`, `unary(..)`, `select(..)` or `reduce(..)` with
    /// regions of the right arity most of the time.
    fn semiring(&mut self, g: &mut Gen<'_, '_>, d: usize, soft: usize) -> Result<String> {
        let x = self.expr(g, d + 1, soft)?;
        Ok(match g.u.int_in_range(0..=3u8)? {
            0 => {
                let y = self.expr(g, d + 1, soft)?;
                let overlap = self.region(g, 2)?;
                let left = self.region(g, 1)?;
                let right = self.region(g, 1)?;
                format!("binary({x}, {y}, overlap = {overlap}, left = {left}, right = {right})")
            }
            1 => {
                let present = self.region(g, 1)?;
                let absent = self.region(g, 0)?;
                format!("unary({x}, present = {present}, absent = {absent})")
            }
            2 => {
                let pred = self.closure(g, 1, true)?;
                format!("select({x}, {pred})")
            }
            _ => {
                let identity = g.literal(self.elem)?;
                let f = self.closure(g, 2, false)?;
                format!("reduce({x}, identity = {identity}, {f})")
            }
        })
    }

    fn region(&mut self, g: &mut Gen<'_, '_>, arity: usize) -> Result<String> {
        Ok(match g.u.int_in_range(0..=9u8)? {
            0..=2 => "none".into(),
            3..=4 if arity != 0 => "identity".into(),
            _ => self.closure(g, arity, false)?,
        })
    }

    /// `|x, y| body`: `arity` parameters most of the time; a predicate's
    /// body is a comparison.
    fn closure(&mut self, g: &mut Gen<'_, '_>, arity: usize, predicate: bool) -> Result<String> {
        let n = if g.chance(5)? {
            g.u.int_in_range(0..=3usize)?
        } else {
            arity
        };
        let names = &["x", "y", "z"][..n];
        let body = if predicate {
            let l = self.closure_expr(g, names, 0)?;
            let r = self.closure_expr(g, names, 0)?;
            format!("{l} {} {r}", g.pick(&["<", ">", ">=", "!=", "=="])?)
        } else {
            self.closure_expr(g, names, 0)?
        };
        Ok(format!("|{}| {body}", names.join(", ")))
    }

    /// Rust in a closure body: its parameters, index values, scalar
    /// parameters, literals, a few operators and calls.
    fn closure_expr(
        &mut self,
        g: &mut Gen<'_, '_>,
        names: &[&str],
        depth: usize,
    ) -> Result<String> {
        let leaf = depth >= 4 || g.chance(50)?;
        if leaf {
            return Ok(match g.u.int_in_range(0..=9u8)? {
                0..=5 if !names.is_empty() => g.pick(names)?.to_string(),
                6 => format!("({} as {})", g.pick(&INDICES)?, self.elem.rust()),
                7 if self.scalars > 0 => SCALARS[0].to_string(),
                _ => g.literal(self.elem)?,
            });
        }
        let d = depth + 1;
        Ok(match g.u.int_in_range(0..=9u8)? {
            0..=5 => {
                let op = g.pick(&["+", "-", "*", "/"])?;
                let l = self.closure_expr(g, names, d)?;
                let r = self.closure_expr(g, names, d)?;
                format!("({l} {op} {r})")
            }
            6..=7 => {
                let (f, arity) = g.pick(MATH)?;
                let mut args = Vec::new();
                for _ in 0..arity {
                    args.push(self.closure_expr(g, names, d)?);
                }
                format!("{f}({})", args.join(", "))
            }
            8 => {
                let c = self.closure_expr(g, names, d)?;
                let a = self.closure_expr(g, names, d)?;
                let b = self.closure_expr(g, names, d)?;
                format!("if {c} > {a} {{ {a} }} else {{ {b} }}")
            }
            _ => {
                let e = self.closure_expr(g, names, d)?;
                format!("({e} as {})", self.elem.rust())
            }
        })
    }
}
