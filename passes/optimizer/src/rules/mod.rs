//! The rewrite rules, one file per family. Every rule is a [`Rule`]: a name,
//! the op type it is rooted at, the opset it needs, what it does, the
//! function that matches and rewrites, and an example module where it fires.
//! The example is what the tests run: its snapshot, its numeric check
//! (onnxruntime before vs after, `tests/integration/optimizer.rs`) and a
//! test that every rule is named in `lit-tests/onnx-eqsat.mlir`
//! (`every_eqsat_rule_has_tests`).
//!
//! A rule sees one e-node of its root op type at a time (with its e-class)
//! and may look at the e-nodes of its operands' e-classes, their types and
//! small constant values through [`Rw`]. It returns the e-class of an
//! equivalent value (existing or built), which the applier unions with the
//! root's e-class — unless their types are known to differ, in which case
//! the union is refused and recorded (a rule bug, reported by the pass).

pub mod activation;
pub mod algebra;
pub mod attention;
pub mod conv;
pub mod layout;
pub mod matmul;
pub mod normalization;
pub mod ort_activation;
pub mod ort_attention;
pub mod ort_matmul;
pub mod ort_normalization;
pub mod quant;
pub mod rotary;
pub mod weights;

use super::{
    analysis::{add_type, const_values, OnnxAnalysis, OnnxEGraph, TyInfo},
    lang::{Head, ONode, Tensor, Values},
};
use egg::{Applier, Id, PatternAst, Rewrite, SearchMatches, Searcher, Subst, Symbol, Var};
use std::sync::{Arc, Mutex};

/// One rewrite rule.
pub struct Rule {
    /// Unique within its family (`mul-by-one`).
    pub name: &'static str,
    /// The family (file) it belongs to (`algebra`).
    pub family: &'static str,
    /// The op types (default domain) of the e-nodes it starts from.
    pub roots: &'static [&'static str],
    /// The lowest opset at which the rule's output is valid.
    pub min_opset: u32,
    pub summary: &'static str,
    /// Matches one e-node (`head`, `children`) of e-class `class`; returns
    /// an e-class equal to `class`.
    pub apply: fn(&mut Rw<'_>, Id, &Head, &[Id]) -> Option<Id>,
    /// A module (onnx dialect, function `@f`) where the rule fires.
    pub example: &'static str,
}

impl Rule {
    /// `family/name`, as reported and tested.
    pub fn full_name(&self) -> String {
        format!("{}/{}", self.family, self.name)
    }

    /// The runtime the rule's output needs: the `ort_*` families produce
    /// onnxruntime's `com.microsoft` contrib ops and only run with
    /// `onnx-eqsat{target=onnxruntime}` (`aten-translate --target onnxruntime`).
    pub fn target(&self) -> Target {
        if self.family.starts_with("ort_") {
            Target::OnnxRuntime
        } else {
            Target::Standard
        }
    }
}

/// What the optimized model may contain: standard ONNX only (the default),
/// or also onnxruntime's `com.microsoft` contrib ops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    #[default]
    Standard,
    OnnxRuntime,
}

impl Target {
    /// `standard` or `onnxruntime`.
    pub fn parse(name: &str) -> Option<Target> {
        match name {
            "standard" => Some(Target::Standard),
            "onnxruntime" => Some(Target::OnnxRuntime),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Target::Standard => "standard",
            Target::OnnxRuntime => "onnxruntime",
        }
    }

    /// True when rules of target `rule` may run for this target.
    pub fn allows(self, rule: Target) -> bool {
        rule == Target::Standard || self == rule
    }
}

/// Every rule, family by family.
pub fn all_rules() -> impl Iterator<Item = &'static Rule> {
    algebra::RULES
        .iter()
        .chain(layout::RULES)
        .chain(normalization::RULES)
        .chain(activation::RULES)
        .chain(matmul::RULES)
        .chain(attention::RULES)
        .chain(weights::RULES)
        .chain(conv::RULES)
        .chain(rotary::RULES)
        .chain(quant::RULES)
        .chain(ort_normalization::RULES)
        .chain(ort_activation::RULES)
        .chain(ort_matmul::RULES)
        .chain(ort_attention::RULES)
}

/// What a rule works with: the e-graph as it was when this round's search
/// began (`view`, read: e-nodes, types, constants) and the live e-graph
/// (`egraph`, extended). Reading the round's snapshot keeps a round linear:
/// unions made earlier in the round concatenate e-classes' node lists,
/// which only the rebuild at the end of the round deduplicates (a chain of
/// 20,000 negations would otherwise be quadratic).
pub struct Rw<'a> {
    pub view: &'a OnnxEGraph,
    pub egraph: &'a mut OnnxEGraph,
    /// Identifies `view` (see [`Rw::round`]).
    round: u64,
}

/// The e-graph as the current round's search saw it (set by a runner hook),
/// with a number no other snapshot of the process has (see [`Rw::round`]).
pub type Snapshot = Arc<Mutex<Option<(u64, Arc<OnnxEGraph>)>>>;

/// A number for a new snapshot, unique in the process.
pub fn next_round() -> u64 {
    static ROUNDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    ROUNDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Rw<'_> {
    /// The number of the snapshot `view`: two `Rw`s with the same round read
    /// the same e-graph state, so a fact derived from `view` alone may be
    /// memoized under it (e.g. the mask proofs of `attention`).
    pub fn round(&self) -> u64 {
        self.round
    }

    pub fn opset(&self) -> u32 {
        self.egraph.analysis.opset
    }

    pub fn find(&self, id: Id) -> Id {
        self.view.find(id)
    }

    pub fn ty(&self, id: Id) -> Option<&TyInfo> {
        self.view[id].data.ty.as_ref()
    }

    /// The element type of `id`.
    pub fn elem(&self, id: Id) -> Option<i32> {
        self.ty(id)?.elem
    }

    /// True when `a` and `b` are known to have the same type.
    pub fn same_type(&self, a: Id, b: Id) -> bool {
        matches!((self.ty(a), self.ty(b)), (Some(x), Some(y)) if x.same(y))
    }

    /// The values of `id` when it is a small constant.
    pub fn values(&self, id: Id) -> Option<&Values> {
        const_values(self.view, id)
    }

    /// The values of a small integer constant.
    pub fn ints(&self, id: Id) -> Option<Vec<i64>> {
        self.values(id)?.ints().map(<[i64]>::to_vec)
    }

    /// The scalar value of a one-element constant.
    pub fn scalar(&self, id: Id) -> Option<f64> {
        let v = self.values(id)?;
        (v.len() == 1).then(|| v.f64_at(0))
    }

    /// The e-nodes of `id` that are ops of type `op` (default domain).
    pub fn producers(&self, id: Id, op: &str) -> Vec<(Arc<Head>, Vec<Id>)> {
        self.producers_of(id, Symbol::from(op))
    }

    /// [`Rw::producers`] of an interned op type.
    fn producers_of(&self, id: Id, op: Symbol) -> Vec<(Arc<Head>, Vec<Id>)> {
        let default = super::lang::default_domain();
        self.view[id]
            .nodes
            .iter()
            .filter_map(|n| match n {
                ONode::Op(h, c) if h.op == op && h.domain == default => Some((h.clone(), c.clone())),
                _ => None,
            })
            .collect()
    }

    /// `(i, tuple)` for each e-node of `id` that is result `i` of the
    /// multi-result op in e-class `tuple`.
    pub fn projections(&self, id: Id) -> Vec<(u32, Id)> {
        self.view[id]
            .nodes
            .iter()
            .filter_map(|n| match n {
                ONode::Proj(i, [t]) => Some((*i, *t)),
                _ => None,
            })
            .collect()
    }

    /// Adds an op with one result of type `ty`.
    pub fn add(&mut self, head: Head, children: Vec<Id>, ty: TyInfo) -> Id {
        let id = self.egraph.add(ONode::op(head, children));
        add_type(self.egraph, id, ty);
        id
    }

    /// Adds an op whose value is the value of `like` (the same type).
    pub fn add_like(&mut self, head: Head, children: Vec<Id>, like: Id) -> Option<Id> {
        let ty = self.ty(like)?.clone();
        Some(self.add(head, children, ty))
    }

    /// Adds a constant.
    pub fn constant(&mut self, tensor: Tensor) -> Id {
        self.egraph.add(ONode::op(
            Head::new("Constant", vec![("value", super::lang::AttrValue::Tensor(Arc::new(tensor)))]),
            vec![],
        ))
    }

    /// A 1-D int64 constant.
    pub fn const_i64s(&mut self, values: &[i64]) -> Id {
        self.constant(Tensor::scalar_like(
            super::lang::dtype::INT64,
            vec![values.len() as i64],
            Values::Ints(values.to_vec()),
        ))
    }
}

/// Finds the e-classes holding an e-node of the rule's root op type.
pub struct RuleSearcher {
    roots: Vec<Symbol>,
}

impl Searcher<ONode, OnnxAnalysis> for RuleSearcher {
    fn search_eclass_with_limit(
        &self,
        egraph: &OnnxEGraph,
        eclass: Id,
        _limit: usize,
    ) -> Option<SearchMatches<'_, ONode>> {
        let has = egraph[eclass].nodes.iter().any(|n| matches!(n, ONode::Op(h, _) if self.roots.contains(&h.op)));
        has.then(|| SearchMatches { eclass, substs: vec![Subst::default()], ast: None })
    }

    fn search_with_limit(&self, egraph: &OnnxEGraph, limit: usize) -> Vec<SearchMatches<'_, ONode>> {
        super::sync_egg_clock(); // egg checks the time limit after each rule's search
        let mut classes: Vec<Id> = Vec::new();
        for root in &self.roots {
            if let Some(ids) = egraph.classes_for_op(&super::lang::Discriminant::Op(*root)) {
                classes.extend(ids);
            }
        }
        classes.sort();
        classes.dedup();
        let mut out: Vec<SearchMatches<ONode>> = Vec::new();
        for id in classes {
            if out.len() >= limit {
                break;
            }
            if let Some(m) = self.search_eclass_with_limit(egraph, id, limit) {
                out.push(m);
            }
        }
        out
    }

    fn vars(&self) -> Vec<Var> {
        Vec::new()
    }
}

/// Runs the rule on the root e-nodes of a matched e-class and unions.
pub struct RuleApplier {
    rule: &'static Rule,
    /// The rule's root op types, interned once.
    roots: Vec<Symbol>,
    snapshot: Snapshot,
}

impl Applier<ONode, OnnxAnalysis> for RuleApplier {
    fn apply_one(
        &self,
        egraph: &mut OnnxEGraph,
        eclass: Id,
        _subst: &Subst,
        _ast: Option<&PatternAst<ONode>>,
        _rule_name: Symbol,
    ) -> Vec<Id> {
        super::sync_egg_clock_sometimes(); // egg checks the time limit after each rule's applications
        let Some((round, view)) = self.snapshot.lock().ok().and_then(|s| s.clone()) else { return Vec::new() };
        let class = view.find(eclass);
        let default = super::lang::default_domain();
        // The root e-nodes, from the snapshot (which the applications do not
        // change): each root op type in turn, in the e-class's order.
        let roots = self.roots.iter().flat_map(|op| {
            view[class].nodes.iter().filter_map(move |n| match n {
                ONode::Op(h, c) if h.op == *op && h.domain == default => Some((h, c)),
                _ => None,
            })
        });
        let mut changed = Vec::new();
        for (head, children) in roots {
            let mut rw = Rw { view: &view, egraph, round };
            let Some(new) = (self.rule.apply)(&mut rw, class, head, children) else { continue };
            let (class, new) = (egraph.find(class), egraph.find(new));
            if class == new {
                continue;
            }
            if let (Some(a), Some(b)) = (&egraph[class].data.ty, &egraph[new].data.ty) {
                if !a.compatible(b) {
                    let message = format!("{}: {a:?} vs {b:?}", self.rule.full_name());
                    egraph.analysis.refused.push(message);
                    continue;
                }
            }
            if egraph.union(class, new) {
                changed.push(egraph.find(class));
            }
        }
        changed
    }
}

/// The egg rewrites of every rule valid at `opset` for `target` (and
/// selected by `only`: rule or family names; all when empty).
pub fn rewrites(opset: u32, target: Target, only: &[String], snapshot: &Snapshot) -> Vec<Rewrite<ONode, OnnxAnalysis>> {
    all_rules()
        .filter(|r| opset >= r.min_opset && target.allows(r.target()))
        .filter(|r| only.is_empty() || only.iter().any(|o| *o == r.family || *o == r.full_name()))
        .map(|rule| {
            Rewrite::new(
                rule.full_name(),
                RuleSearcher { roots: rule.roots.iter().map(|r| Symbol::from(*r)).collect() },
                RuleApplier {
                    rule,
                    roots: rule.roots.iter().map(|r| Symbol::from(*r)).collect(),
                    snapshot: snapshot.clone(),
                },
            )
            .expect("rule names are unique")
        })
        .collect()
}

// ------------------------------------------------------------ shared helpers

/// Normalises `axis` against `rank` (`-1` -> `rank - 1`).
pub fn norm_axis(axis: i64, rank: usize) -> Option<usize> {
    let a = if axis < 0 { axis + rank as i64 } else { axis };
    (0..rank as i64).contains(&a).then_some(a as usize)
}

/// The other operand of a commutative binary op when one is `id`-like: for
/// `Mul(a, b)` returns the pairs `(a, b)` and `(b, a)`.
pub fn both_orders(children: &[Id]) -> Vec<(Id, Id)> {
    match children {
        [a, b] => vec![(*a, *b), (*b, *a)],
        _ => Vec::new(),
    }
}
