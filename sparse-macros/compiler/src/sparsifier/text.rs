//! The stable text form of a statement plan, used by snapshot tests and by
//! the doc comment of each generated function.
//!
//! One line per node, indented two spaces per nesting level; loop lines end
//! with a `//` comment giving the loop's role and, for co-iteration, whether
//! it merges a union or an intersection. Grammar:
//!
//! ```text
//! plan      := stmt-text NL ["part " stmt-text NL] ["scoped " stmt-text-with-sums NL]
//!              "order " loop " (" role ")" (", " loop " (" role ")")*
//!              ["; summed inside: " loop (", " loop)*] NL
//!              "output " tensor ": " reason NL node*
//! role      := "parallel" | "reduction"
//! node      := INDENT (for | iterate | coiterate | leaf) NL
//! for       := "for " loop " in " range "  // " role              body
//! iterate   := "iterate " loop " in " space "  // " role           body
//! coiterate := "coiterate " loop " in " space (", " space)* [", all " range]
//!              "  // " role ", " ("union" | "intersection")      phase+
//! phase     := "while " (lvl (", " lvl)* [", all"] | "all")       case+
//! case      := "case " (pattern | "all")                           body
//! pattern   := (lvl | "_") (", " (lvl | "_"))*   one slot per space of the
//!              phase: `_` = that space does not store the coordinate
//! range     := "0.." tensor ".dim" N
//! space     := lvl " " level-type [" at " subscript]
//!              e.g. a.lvl1 compressed(nonunique); `at j + l` for a level
//!              an affine subscript reads: the loop walks the window of
//!              coordinates the subscript reaches, its variable the
//!              coordinate minus the rest
//! lvl       := tensor ".lvl" N
//! leaf      := "zero " tensor                     (dense output, before the loops)
//!            | "local r = " ("0" | identity | access)   (reduction local)
//!            | "r += " expr | "r = (" combiner ")(r, " expr ")"  (custom reduce)
//!            | "local r" N " = 0" | "r" N " += " expr    (a sum scoped inside the
//!              statement, read as `r` N by the expression around it)
//!            | access (" = " | " += ") (expr | "r")
//!            | "insert " access " = " (expr | "r")
//!            | "update " access " = " (expr | "r")   (in place, at the walked entry)
//!            | "workspace w = expand " lvl | "w[" loop "] += " (expr | "r")
//!            | "w[" loop "] = (" combiner ")(w[" loop "] or " identity ", " expr ")"
//!              (custom reduce: a slot starts from the identity)
//!            | "compress w into " lvl
//! ```
//!
//! The first phase of a co-iteration runs while every listed level has
//! entries; its cases are tried in order and the first whose levels all
//! store the coordinate runs. Each later phase continues after some level
//! ran out (exhaustion), with the cases that need only its levels.

use super::graph::level_type_text;
use super::kernel::{AssignOp, Kernel, Reduce};
use super::loop_tree::{Extent, Node, Role, Space, StmtPlan, Value};
use super::merger::TensorLevel;
use std::fmt::{self, Write};

impl StmtPlan {
    /// The stable text form: header lines, then the tree indented by two
    /// spaces per level.
    pub fn text(&self, kernel: &Kernel) -> String {
        let mut s = String::new();
        if let Some(stmt) = kernel.stmts.get(self.stmt) {
            let _ = writeln!(s, "{}", kernel.show_stmt(stmt));
        }
        if let Some(part) = &self.part {
            let _ = writeln!(s, "part {}", kernel.show_stmt(part));
        }
        let order: Vec<String> = self
            .order
            .iter()
            .map(|&(l, r)| format!("{} ({})", kernel.loop_name(l), role_text(r)))
            .collect();
        let order = if order.is_empty() {
            "none".to_string()
        } else {
            order.join(", ")
        };
        if let Some(rhs) = &self.scoped {
            if let Some(stmt) = kernel.stmts.get(self.stmt) {
                let _ = writeln!(
                    s,
                    "scoped {} = {}",
                    kernel.show_access(&stmt.lhs),
                    kernel.show(rhs)
                );
            }
        }
        let summed: Vec<&str> = self.summed.iter().map(|&l| kernel.loop_name(l)).collect();
        if summed.is_empty() {
            let _ = writeln!(s, "order {order}");
        } else {
            let _ = writeln!(s, "order {order}; summed inside: {}", summed.join(", "));
        }
        let out = kernel
            .stmts
            .get(self.stmt)
            .map_or("?", |st| kernel.tensor_name(st.lhs.tensor));
        let _ = writeln!(s, "output {out}: {}", self.output.reason);
        let reduce = kernel.stmts.get(self.stmt).and_then(|s| s.reduce);
        let stmt = self.part.as_ref().or_else(|| kernel.stmts.get(self.stmt));
        let mut windows = Vec::new();
        for a in stmt.into_iter().flat_map(|s| s.rhs.accesses()) {
            let Some(desc) = kernel.tensors.get(a.tensor.index()) else {
                continue;
            };
            for (l, (_, e)) in desc.levels.iter().enumerate() {
                if let Some(sub) = a.affine_dim(e.dim()) {
                    windows.push((a.tensor, l as u32, sub.show(kernel)));
                }
            }
        }
        let mut p = Printer {
            kernel,
            out: s,
            reduce,
            produced: false,
            windows,
        };
        p.nodes(&self.tree, 0);
        p.out
    }
}

/// Displays a [`StmtPlan`] with its kernel's names.
pub struct ShowPlan<'a>(pub &'a StmtPlan, pub &'a Kernel);

impl fmt::Display for ShowPlan<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.text(self.1))
    }
}

fn role_text(r: Role) -> &'static str {
    match r {
        Role::Parallel => "parallel",
        Role::Reduction => "reduction",
    }
}

struct Printer<'a> {
    kernel: &'a Kernel,
    out: String,
    /// The statement's custom reduction, which the local starts from and
    /// folds with.
    reduce: Option<Reduce>,
    /// Whether the current local carries a "produced" flag.
    produced: bool,
    /// The levels affine subscripts read, with the subscript.
    windows: Vec<(super::TensorId, u32, String)>,
}

impl Printer<'_> {
    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{:width$}{text}", "", width = 2 * depth);
    }
    fn level(&self, tl: TensorLevel) -> String {
        format!("{}.lvl{}", self.kernel.tensor_name(tl.tensor), tl.level.0)
    }
    fn space(&self, s: &Space) -> String {
        let window = self
            .windows
            .iter()
            .find(|(t, l, _)| *t == s.tensor && *l == s.level.0)
            .map_or(String::new(), |(_, _, sub)| format!(" at {sub}"));
        format!(
            "{} {}{window}",
            self.level(TensorLevel {
                tensor: s.tensor,
                level: s.level
            }),
            level_type_text(s.level_type)
        )
    }
    fn space_name(&self, s: &Space) -> String {
        self.level(TensorLevel {
            tensor: s.tensor,
            level: s.level,
        })
    }
    fn extent(&self, e: Extent) -> String {
        match e {
            Extent::Dim { tensor, dim } => {
                format!("0..{}.dim{dim}", self.kernel.tensor_name(tensor))
            }
            Extent::Range(n) => format!("0..{n}"),
        }
    }
    fn value(&self, v: &Value) -> String {
        match v {
            Value::Expr(e) => self.kernel.show(e).to_string(),
            Value::Local => "r".to_string(),
            Value::LocalIfProduced => "r if produced".to_string(),
        }
    }
    fn nodes(&mut self, nodes: &[Node], depth: usize) {
        for n in nodes {
            self.node(n, depth);
        }
    }
    fn node(&mut self, n: &Node, d: usize) {
        let k = self.kernel;
        match n {
            Node::Zero { tensor } => self.line(d, &format!("zero {}", k.tensor_name(*tensor))),
            Node::Local { init, produced } => {
                let start = self
                    .reduce
                    .map_or("0".to_string(), |r| k.func_text(r.identity).to_string());
                let init = init.as_ref().map_or(start, |a| k.show_access(a));
                self.produced = *produced;
                let flag = if *produced { ", produced = false" } else { "" };
                self.line(d, &format!("local r = {init}{flag}"))
            }
            Node::Accumulate { value } => {
                let text = match self.reduce {
                    Some(r) => format!("r = ({})(r, {})", k.func_text(r.combiner), k.show(value)),
                    None => format!("r += {}", k.show(value)),
                };
                let text = if self.produced {
                    format!("{text}, produced = true")
                } else {
                    text
                };
                self.line(d, &text)
            }
            Node::SumLocal { local, .. } => self.line(d, &format!("local r{local} = 0")),
            Node::SumAdd { local, value } => {
                self.line(d, &format!("r{local} += {}", k.show(value)))
            }
            Node::Store { access, op, value } => {
                let op = if *op == AssignOp::Assign { "=" } else { "+=" };
                self.line(
                    d,
                    &format!("{} {op} {}", k.show_access(access), self.value(value)),
                )
            }
            Node::Update { access, value } => self.line(
                d,
                &format!("update {} = {}", k.show_access(access), self.value(value)),
            ),
            Node::Insert { access, value } => self.line(
                d,
                &format!("insert {} = {}", k.show_access(access), self.value(value)),
            ),
            Node::Expand { level } => {
                self.line(d, &format!("workspace w = expand {}", self.level(*level)))
            }
            Node::WorkspaceAdd { index, value } => {
                let j = k.loop_name(*index);
                let text = match self.reduce {
                    Some(r) => format!(
                        "w[{j}] = ({})(w[{j}] or {}, {})",
                        k.func_text(r.combiner),
                        k.func_text(r.identity),
                        self.value(value)
                    ),
                    None => format!("w[{j}] += {}", self.value(value)),
                };
                self.line(d, &text)
            }
            Node::Compress { level } => {
                self.line(d, &format!("compress w into {}", self.level(*level)))
            }
            Node::For {
                loop_id,
                role,
                extent,
                body,
                ..
            } => {
                let text = format!(
                    "for {} in {}  // {}",
                    k.loop_name(*loop_id),
                    self.extent(*extent),
                    role_text(*role)
                );
                self.line(d, &text);
                self.nodes(body, d + 1);
            }
            Node::Iterate {
                loop_id,
                role,
                space,
                body,
                ..
            } => {
                let text = format!(
                    "iterate {} in {}  // {}",
                    k.loop_name(*loop_id),
                    self.space(space),
                    role_text(*role)
                );
                self.line(d, &text);
                self.nodes(body, d + 1);
            }
            Node::CoIterate {
                loop_id,
                role,
                spaces,
                universe,
                phases,
                ..
            } => {
                let mut list: Vec<String> = spaces.iter().map(|s| self.space(s)).collect();
                if let Some(e) = universe {
                    list.push(format!("all {}", self.extent(*e)));
                }
                let merge = if phases.len() == 1 && universe.is_none() {
                    "intersection"
                } else {
                    "union"
                };
                let text = format!(
                    "coiterate {} in {}  // {}, {merge}",
                    k.loop_name(*loop_id),
                    list.join(", "),
                    role_text(*role)
                );
                self.line(d, &text);
                for phase in phases {
                    let mut names: Vec<String> =
                        phase.spaces.iter().map(|s| self.space_name(s)).collect();
                    if phase.universal {
                        names.push("all".to_string());
                    }
                    self.line(d + 1, &format!("while {}", names.join(", ")));
                    for case in &phase.cases {
                        let pattern: Vec<String> = phase
                            .spaces
                            .iter()
                            .map(|s| {
                                if case.present.contains(s) {
                                    self.space_name(s)
                                } else {
                                    "_".to_string()
                                }
                            })
                            .collect();
                        let pattern = if pattern.is_empty() {
                            "all".to_string()
                        } else {
                            pattern.join(", ")
                        };
                        self.line(d + 2, &format!("case {pattern}"));
                        self.nodes(&case.body, d + 3);
                    }
                }
            }
        }
    }
}
