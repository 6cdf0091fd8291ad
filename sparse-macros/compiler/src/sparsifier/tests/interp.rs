//! Runs loop trees on small random tensors and compares the output with a
//! dense evaluation of the statement over every coordinate.
//!
//! The interpreter works on the abstract storage model (a sparse tensor is
//! the set of coordinates it stores), not on positions arrays: it checks the
//! plan's meaning — loop order, lattices, cases, exhaustion phases, output
//! strategy — independently of any codegen. Sparse tensors hold values at
//! every stored coordinate and nowhere else; a plan that reads a sparse
//! operand at a coordinate it does not iterate, skips a needed coordinate,
//! forgets to zero, or inserts out of order fails here.

use super::*;
use crate::sparsifier::kernel::Access;
use std::collections::BTreeMap;

/// Deterministic pseudo-random numbers (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Small integers as values, so sums are exact.
    fn value(&mut self) -> f64 {
        (self.below(9) as f64) - 4.0
    }
}

/// Tensor contents by dimension coordinates. Dense tensors hold every
/// coordinate; sparse ones only their stored entries.
type Data = BTreeMap<Vec<usize>, f64>;

fn all_coords(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for &n in shape {
        out = out
            .into_iter()
            .flat_map(|c| {
                (0..n).map(move |x| {
                    let mut c = c.clone();
                    c.push(x);
                    c
                })
            })
            .collect();
    }
    out
}

struct Machine<'a> {
    k: &'a Kernel,
    stmt: &'a Stmt,
    shapes: &'a [Vec<usize>],
    data: Vec<Data>,
    bind: Vec<usize>,
    local: f64,
    /// The locals of scoped sums, by number.
    sums: BTreeMap<u32, f64>,
    /// The range of each index variable, for the reference's sums.
    extents: BTreeMap<LoopId, usize>,
    workspace: BTreeMap<usize, f64>,
    /// Sparse output entries in insertion order (level coordinates).
    inserted: Vec<(Vec<usize>, f64)>,
}

impl Machine<'_> {
    /// The size of a dense loop's range.
    fn extent_size(&self, e: Extent) -> usize {
        match e {
            Extent::Dim { tensor, dim } => self.shapes[tensor.index()][dim],
            Extent::Range(n) => n as usize,
        }
    }
    fn access_of(&self, t: TensorId) -> Access {
        let mut all = vec![&self.stmt.lhs];
        all.extend(self.stmt.rhs.accesses());
        all.into_iter().find(|a| a.tensor == t).unwrap().clone()
    }
    fn coords(&self, a: &Access) -> Vec<usize> {
        a.indices.iter().map(|l| self.bind[l.index()]).collect()
    }
    fn perm(&self, t: TensorId) -> Vec<usize> {
        self.k.desc(t).levels.iter().map(|(_, e)| e.dim()).collect()
    }
    /// The level-`l` coordinates stored under the current bindings of the
    /// outer levels, ascending.
    fn level_coords(&self, s: &Space) -> Vec<usize> {
        let (t, l) = (s.tensor, s.level.index());
        let perm = self.perm(t);
        let access = self.access_of(t);
        let mut out: Vec<usize> = self.data[t.index()]
            .keys()
            .filter(|c| (0..l).all(|m| c[perm[m]] == self.bind[access.indices[perm[m]].index()]))
            .map(|c| c[perm[l]])
            .collect();
        out.sort();
        out.dedup();
        out
    }
    fn eval(&self, e: &Expr) -> f64 {
        match e {
            Expr::Access(a) => *self.data[a.tensor.index()]
                .get(&self.coords(a))
                .unwrap_or(&0.0),
            Expr::Literal(t) => t.parse().unwrap(),
            Expr::Index(l) => self.bind[l.index()] as f64,
            Expr::Zero => 0.0,
            Expr::Local(n) => self.sums[n],
            // The reference evaluates a scoped sum by brute force (the
            // plan lowers every sum to a local first).
            Expr::Sum(loops, body) => {
                let ranges: Vec<usize> = loops.iter().map(|l| self.extents[l]).collect();
                let mut total = 0.0;
                let mut m = Machine {
                    bind: self.bind.clone(),
                    sums: BTreeMap::new(),
                    workspace: BTreeMap::new(),
                    inserted: Vec::new(),
                    data: self.data.clone(),
                    extents: self.extents.clone(),
                    ..*self
                };
                for point in all_coords(&ranges) {
                    for (l, x) in loops.iter().zip(&point) {
                        m.bind[l.index()] = *x;
                    }
                    total += m.eval(body);
                }
                total
            }
            Expr::Neg(x) => -self.eval(x),
            Expr::Cast(x, _) => self.eval(x),
            Expr::Add(l, r) => self.eval(l) + self.eval(r),
            Expr::Sub(l, r) => self.eval(l) - self.eval(r),
            Expr::Mul(l, r) => self.eval(l) * self.eval(r),
            Expr::Div(l, r) => self.eval(l) / self.eval(r),
            Expr::Call(f, args) => {
                let v: Vec<f64> = args.iter().map(|a| self.eval(a)).collect();
                match f.as_str() {
                    "abs" => v[0].abs(),
                    "exp" => v[0].exp(),
                    "max" => v[0].max(v[1]),
                    "min" => v[0].min(v[1]),
                    _ => panic!("no reference for {f}"),
                }
            }
            // Closures are opaque here; semiring kernels are checked end to
            // end against dense references in the integration tests.
            Expr::Binary(_)
            | Expr::Unary(_)
            | Expr::Select(..)
            | Expr::Apply(..)
            | Expr::Absent => {
                panic!("the interpreter does not evaluate semiring operations")
            }
        }
    }
    fn value(&self, v: &Value) -> f64 {
        match v {
            Value::Expr(e) => self.eval(e),
            Value::Local | Value::LocalIfProduced => self.local,
        }
    }
    fn insert(&mut self, dims: Vec<usize>, v: f64) {
        let perm = self.perm(self.stmt.lhs.tensor);
        let lvl: Vec<usize> = perm.iter().map(|&d| dims[d]).collect();
        if let Some((last, _)) = self.inserted.last() {
            assert!(*last < lvl, "insertion out of order: {last:?} then {lvl:?}");
        }
        self.inserted.push((lvl, v));
    }
    fn run(&mut self, nodes: &[Node]) {
        for n in nodes {
            self.node(n);
        }
    }
    fn node(&mut self, n: &Node) {
        let out = self.stmt.lhs.tensor.index();
        match n {
            Node::Zero { tensor } => self.data[tensor.index()]
                .values_mut()
                .for_each(|v| *v = 0.0),
            Node::Local { init, .. } => {
                self.local = init
                    .as_ref()
                    .map_or(0.0, |a| self.data[out][&self.coords(a)])
            }
            Node::Accumulate { value } => self.local += self.eval(value),
            Node::SumLocal { local, .. } => {
                self.sums.insert(*local, 0.0);
            }
            Node::SumAdd { local, value } => {
                let v = self.eval(value);
                *self.sums.get_mut(local).unwrap() += v;
            }
            Node::Store { access, op, value } => {
                let v = self.value(value);
                let c = self.coords(access);
                let slot = self.data[out].get_mut(&c).unwrap();
                match op {
                    AssignOp::Assign => *slot = v,
                    AssignOp::AddAssign => *slot += v,
                }
            }
            Node::Update { access, value } => {
                let v = self.value(value);
                let c = self.coords(access);
                if let Some(slot) = self.data[out].get_mut(&c) {
                    *slot = v;
                }
            }
            Node::Insert { access, value } => {
                let v = self.value(value);
                let c = self.coords(access);
                self.insert(c, v);
            }
            Node::Expand { .. } => self.workspace.clear(),
            Node::WorkspaceAdd { index, value } => {
                let v = self.value(value);
                *self
                    .workspace
                    .entry(self.bind[index.index()])
                    .or_insert(0.0) += v;
            }
            Node::Compress { .. } => {
                let lhs = self.stmt.lhs.clone();
                let last = *lhs.indices.last().unwrap();
                for (j, v) in std::mem::take(&mut self.workspace) {
                    self.bind[last.index()] = j;
                    let c = self.coords(&lhs);
                    self.insert(c, v);
                }
            }
            Node::For {
                loop_id,
                extent,
                body,
                ..
            } => {
                for x in 0..self.extent_size(*extent) {
                    self.bind[loop_id.index()] = x;
                    self.run(body);
                }
            }
            Node::Iterate {
                loop_id,
                space,
                body,
                ..
            } => {
                for x in self.level_coords(space) {
                    self.bind[loop_id.index()] = x;
                    self.run(body);
                }
            }
            Node::CoIterate {
                loop_id,
                spaces,
                universe,
                phases,
                ..
            } => self.coiterate(*loop_id, spaces, *universe, phases),
        }
    }
    /// The merge codegen will emit: per phase, a loop while every space of
    /// the phase has entries; the coordinate is the smallest current one (or
    /// the next of the whole range); the first case whose spaces all sit on
    /// it runs; the spaces on it advance.
    fn coiterate(
        &mut self,
        l: LoopId,
        spaces: &[Space],
        universe: Option<Extent>,
        phases: &[Phase],
    ) {
        let lists: Vec<Vec<usize>> = spaces.iter().map(|s| self.level_coords(s)).collect();
        let mut pos = vec![0usize; spaces.len()];
        let end = universe.map(|e| self.extent_size(e));
        let mut u = 0;
        let slot = |s: &Space| spaces.iter().position(|x| x == s).unwrap();
        for phase in phases {
            loop {
                let ids: Vec<usize> = phase.spaces.iter().map(slot).collect();
                if ids.iter().any(|&n| pos[n] >= lists[n].len()) {
                    break;
                }
                let i = if phase.universal {
                    if u >= end.unwrap() {
                        break;
                    }
                    u
                } else {
                    ids.iter().map(|&n| lists[n][pos[n]]).min().unwrap()
                };
                let here = |n: usize| pos[n] < lists[n].len() && lists[n][pos[n]] == i;
                if let Some(case) = phase
                    .cases
                    .iter()
                    .find(|c| c.present.iter().all(|s| here(slot(s))))
                {
                    self.bind[l.index()] = i;
                    self.run(&case.body);
                }
                let advance: Vec<usize> = ids.iter().copied().filter(|&n| here(n)).collect();
                for n in advance {
                    pos[n] += 1;
                }
                u = i + 1;
            }
        }
    }
}

/// Storage levels whose position is known at a point of the tree: what
/// codegen needs to read a level (its parent's position) or a value (the
/// last level's position).
type Positioned = Vec<(TensorId, usize)>;

/// Checks that every walked level's parent is positioned and that every
/// sparse value read in a leaf has all its levels positioned: a sparse level
/// gets a position only from a loop that walks it (or a case where it is
/// present), a dense level from any loop over its index once its parent has
/// one.
fn assert_positioned(k: &Kernel, stmt: &Stmt, nodes: &[Node], known: &Positioned) {
    let parent_ok =
        |known: &Positioned, t: TensorId, l: usize| l == 0 || known.contains(&(t, l - 1));
    let bind_dense = |known: &mut Positioned, l: LoopId| {
        let mut accesses = vec![&stmt.lhs];
        accesses.extend(stmt.rhs.accesses());
        for a in accesses {
            let desc = &k.tensors[a.tensor.index()];
            for (lvl, (lt, e)) in desc.levels.iter().enumerate() {
                if lt.is_dense() && a.indices[e.dim()] == l && parent_ok(known, a.tensor, lvl) {
                    known.push((a.tensor, lvl));
                }
            }
        }
    };
    let leaf = |known: &Positioned, e: &Expr| {
        for a in e.accesses() {
            let desc = &k.tensors[a.tensor.index()];
            if desc.is_sparse() && a.tensor != stmt.lhs.tensor {
                for l in 0..desc.levels.len() {
                    assert!(
                        known.contains(&(a.tensor, l)),
                        "{} read without a position for level {l}",
                        desc.name
                    );
                }
            }
        }
    };
    for n in nodes {
        match n {
            Node::Accumulate { value } | Node::SumAdd { value, .. } => leaf(known, value),
            Node::Store {
                value: Value::Expr(e),
                ..
            }
            | Node::Insert {
                value: Value::Expr(e),
                ..
            }
            | Node::WorkspaceAdd {
                value: Value::Expr(e),
                ..
            } => leaf(known, e),
            Node::For { loop_id, body, .. } => {
                let mut inner = known.clone();
                bind_dense(&mut inner, *loop_id);
                assert_positioned(k, stmt, body, &inner);
            }
            Node::Iterate {
                loop_id,
                space,
                body,
                ..
            } => {
                let (t, l) = (space.tensor, space.level.index());
                assert!(parent_ok(known, t, l), "iterate without parent position");
                let mut inner = known.clone();
                inner.push((t, l));
                bind_dense(&mut inner, *loop_id);
                assert_positioned(k, stmt, body, &inner);
            }
            Node::CoIterate {
                loop_id,
                spaces,
                phases,
                ..
            } => {
                for s in spaces {
                    assert!(
                        parent_ok(known, s.tensor, s.level.index()),
                        "coiterate without parent position"
                    );
                }
                for case in phases.iter().flat_map(|p| &p.cases) {
                    let mut inner = known.clone();
                    inner.extend(case.present.iter().map(|s| (s.tensor, s.level.index())));
                    bind_dense(&mut inner, *loop_id);
                    assert_positioned(k, stmt, &case.body, &inner);
                }
            }
            _ => {}
        }
    }
}

/// Runs `k`'s plan on random data `trials` times against the dense reference.
pub(super) fn check(k: &Kernel, shape_of: &dyn Fn(&str) -> Vec<usize>, trials: u64) {
    let plan = sparsify(k).unwrap_or_else(|e| panic!("{e:?}"));
    // A statement split into terms has one plan per term, each checked
    // as the statement it computes.
    let stmt_of = |sp: &StmtPlan| sp.part.clone().unwrap_or_else(|| k.stmts[sp.stmt].clone());
    for sp in &plan.stmts {
        assert_positioned(k, &stmt_of(sp), &sp.tree, &Vec::new());
    }
    for seed in 0..trials {
        let mut rng = Rng(seed);
        let shapes: Vec<Vec<usize>> = k.tensors.iter().map(|t| shape_of(&t.name)).collect();
        let mut data: Vec<Data> = Vec::new();
        for (t, shape) in k.tensors.iter().zip(&shapes) {
            let mut d = Data::new();
            for c in all_coords(shape) {
                let keep = !t.is_sparse() || rng.below(100) < 40;
                if keep && !(t.is_sparse() && t.is_output) {
                    d.insert(c, rng.value());
                }
            }
            data.push(d);
        }
        for sp in &plan.stmts {
            let s = &stmt_of(sp);
            let view = check::check_stmt(k, 0, s).unwrap();
            let out = s.lhs.tensor.index();
            // Reference: sum the right-hand side over every reduction value.
            let mut expected = data[out].clone();
            if s.op == AssignOp::Assign || k.tensors[out].is_sparse() {
                expected = all_coords(&shapes[out])
                    .into_iter()
                    .map(|c| (c, 0.0))
                    .collect();
            }
            let extent = |l: LoopId| {
                let mut all = vec![&s.lhs];
                all.extend(s.rhs.accesses());
                let a = all.iter().find(|a| a.indices.contains(&l)).unwrap();
                let d = a.indices.iter().position(|&x| x == l).unwrap();
                shapes[a.tensor.index()][d]
            };
            let mut m = Machine {
                k,
                stmt: s,
                shapes: &shapes,
                data: data.clone(),
                bind: vec![0; k.loops.len()],
                local: 0.0,
                sums: BTreeMap::new(),
                extents: view.loops.iter().map(|&l| (l, extent(l))).collect(),
                workspace: BTreeMap::new(),
                inserted: Vec::new(),
            };
            // Reference: the statement with its sums scoped (TACO's rule),
            // summed over the reductions that cover all of it.
            let scoped = crate::sparsifier::scope::place_sums(k, s);
            let nested = crate::sparsifier::scope::sum_loops(&scoped);
            let main: Vec<LoopId> = view
                .loops
                .iter()
                .copied()
                .filter(|l| !nested.contains(l))
                .collect();
            let ranges: Vec<usize> = main.iter().map(|&l| extent(l)).collect();
            for point in all_coords(&ranges) {
                for (l, x) in main.iter().zip(&point) {
                    m.bind[l.index()] = *x;
                }
                let v = m.eval(&scoped);
                *expected.get_mut(&m.coords(&s.lhs)).unwrap() += v;
            }
            // Garbage in a dense output checks that `=` zeroes or overwrites.
            if s.op == AssignOp::Assign && !k.tensors[out].is_sparse() {
                m.data[out].values_mut().for_each(|v| *v = 99.0);
            }
            m.run(&sp.tree);
            let got: Data = if k.tensors[out].is_sparse() {
                let perm = m.perm(s.lhs.tensor);
                let mut got: Data = all_coords(&shapes[out])
                    .into_iter()
                    .map(|c| (c, 0.0))
                    .collect();
                for (lvl, v) in &m.inserted {
                    let mut dims = vec![0; lvl.len()];
                    for (l, &d) in perm.iter().enumerate() {
                        dims[d] = lvl[l];
                    }
                    got.insert(dims, *v);
                }
                got
            } else {
                m.data[out].clone()
            };
            assert_eq!(got, expected, "seed {seed}\n{}", sp.text(k));
            data = m.data;
        }
    }
}
