//! The e-graph optimizer behind `onnx-eqsat`.
//!
//! A block of onnx ops (a function body) becomes an [egg] e-graph
//! (`convert.rs`), in a language with one generic node for every onnx op
//! (`lang.rs`: op type, domain, attributes in a hashable form, operands as
//! children; multi-result ops through projections; block arguments as
//! leaves; initializers and constants as ops without operands). Each e-class
//! carries the value's element type, shape (static and symbolic dims) and,
//! for small constants, its contents (`analysis.rs`). The rules
//! (`rules/<family>.rs`, each named, each with an example the tests run) add
//! equivalent terms until nothing changes or a limit is hit; then a greedy
//! extraction picks, per e-class, the node of least cost (`cost.rs`) and the
//! block is rebuilt from the chosen terms.
//!
//! Limits keep the pass linear in the size of the block: at most
//! [`Limits::iterations`] rounds (each round searches every rule once, in
//! time linear in the e-graph), at most [`Limits::node_factor`] times the
//! block's op count of e-nodes (plus a floor), and a wall-clock budget. The
//! reason the run stopped (`saturated`, `iteration limit`, `node limit`,
//! `time limit`) is recorded with the counts of every rule applied.
//!
//! Extraction is greedy, in the order of Knuth's generalisation of
//! Dijkstra's algorithm: an e-class is settled with its cheapest node once
//! all of the node's operand e-classes are settled, cheapest first. The cost
//! of a node is its own cost plus, for each operand, the operand's cost
//! divided by the number of e-classes using it (a shared value is paid for
//! once, split among its users: a plain tree cost grows exponentially with
//! depth on graphs with reuse, and deep in a 32-layer model f64 could no
//! longer tell alternatives apart). A node is only considered once all its
//! operands are settled, so a node whose operands lead back to its own
//! e-class (a cycle, e.g. the `x * 1` left in x's e-class once the rule
//! merged them) is never chosen: cycles are removed by construction, and
//! the chosen terms form a DAG.

pub mod analysis;
pub mod convert;
pub mod cost;
pub mod lang;
pub mod rules;

use analysis::OnnxEGraph;
use egg::{Id, Language, Runner, SimpleScheduler, StopReason};
use lang::ONode;
use std::{
    cmp::Ordering,
    collections::{BTreeMap, BinaryHeap, HashMap},
    time::Duration,
};

/// Bounds of one saturation run.
#[derive(Clone, Debug)]
pub struct Limits {
    pub iterations: usize,
    /// E-nodes allowed per op of the block (plus [`Limits::node_floor`]).
    pub node_factor: usize,
    pub node_floor: usize,
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { iterations: 32, node_factor: 8, node_floor: 10_000, time: Duration::from_secs(10) }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub stop: String,
    pub iterations: usize,
    pub enodes: usize,
    pub eclasses: usize,
    /// Times each rule applied (changed the e-graph).
    pub applied: BTreeMap<String, usize>,
    /// Unions rules asked for between values of different types (rule bugs;
    /// not performed).
    pub refused: Vec<String>,
    /// Merges of contradicting types (must never happen).
    pub conflicts: Vec<String>,
}

/// Saturates `egraph` with the rules valid at its opset (selected by `only`).
pub fn saturate(egraph: OnnxEGraph, ops: usize, limits: &Limits, only: &[String]) -> (OnnxEGraph, Outcome) {
    let opset = egraph.analysis.opset;
    let snapshot: rules::Snapshot = Default::default();
    let rewrites = rules::rewrites(opset, only, &snapshot);
    let hook_snapshot = snapshot.clone();
    let runner: Runner<ONode, analysis::OnnxAnalysis, ()> = Runner::new(analysis::OnnxAnalysis::new(opset))
        .with_egraph(egraph)
        .with_scheduler(SimpleScheduler)
        .with_iter_limit(limits.iterations)
        .with_node_limit(limits.node_floor + limits.node_factor * ops)
        .with_time_limit(limits.time)
        .with_hook(move |runner| {
            if let Ok(mut s) = hook_snapshot.lock() {
                *s = Some(std::sync::Arc::new(runner.egraph.clone()));
            }
            Ok(())
        })
        .run(&rewrites);
    if let Ok(mut s) = snapshot.lock() {
        s.take();
    }
    let mut outcome = Outcome {
        stop: match &runner.stop_reason {
            Some(StopReason::Saturated) => "saturated".to_string(),
            Some(StopReason::IterationLimit(_)) => "iteration limit".to_string(),
            Some(StopReason::NodeLimit(_)) => "node limit".to_string(),
            Some(StopReason::TimeLimit(_)) => "time limit".to_string(),
            Some(StopReason::Other(s)) => s.clone(),
            None => "not run".to_string(),
        },
        iterations: runner.iterations.len(),
        enodes: runner.egraph.total_size(),
        eclasses: runner.egraph.number_of_classes(),
        ..Outcome::default()
    };
    for iteration in &runner.iterations {
        for (name, count) in &iteration.applied {
            *outcome.applied.entry(name.to_string()).or_insert(0) += count;
        }
    }
    let mut egraph = runner.egraph;
    outcome.refused = std::mem::take(&mut egraph.analysis.refused);
    outcome.conflicts = std::mem::take(&mut egraph.analysis.conflicts);
    (egraph, outcome)
}

#[derive(PartialEq)]
struct Entry(f64, Id, usize);

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    /// Min-heap on cost, ties by e-class then node (deterministic).
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then_with(|| other.1.cmp(&self.1)).then_with(|| other.2.cmp(&self.2))
    }
}

/// Greedy extraction (see the module doc): the chosen node of every e-class
/// reachable from `roots`, keyed by canonical e-class id.
///
/// A first pass splits an operand's cost among every e-class using it in
/// the e-graph; two more passes split it among its users in the previous
/// pass's choice only (alternatives that were not chosen no longer make a
/// shared value look cheap). The choice with the least DAG cost (own costs
/// of the nodes built, each once) is returned.
pub fn extract(egraph: &OnnxEGraph, roots: &[Id]) -> HashMap<Id, ONode> {
    let mut nodes: Vec<(Id, ONode)> = Vec::with_capacity(egraph.total_number_of_nodes());
    for class in egraph.classes() {
        for node in &class.nodes {
            nodes.push((class.id, node.clone().map_children(|c| egraph.find(c))));
        }
    }
    let own: Vec<f64> = nodes
        .iter()
        .map(|(class, node)| {
            let inputs: Vec<&analysis::Data> = node.children().iter().map(|c| &egraph[*c].data).collect();
            cost::node_cost(node, &egraph[*class].data, &inputs)
        })
        .collect();
    let roots: Vec<Id> = roots.iter().map(|r| egraph.find(*r)).collect();
    let mut uses = users_in(nodes.iter().map(|(c, n)| (*c, n)));
    let mut best_choice: Option<(f64, HashMap<Id, usize>)> = None;
    for _ in 0..3 {
        let choice = extract_pass(&nodes, &own, &uses);
        let (dag_cost, reachable) = dag(&nodes, &own, &choice, &roots);
        if best_choice.as_ref().is_none_or(|(c, _)| dag_cost < *c) {
            best_choice = Some((dag_cost, reachable.clone()));
        }
        uses = users_in(reachable.iter().map(|(c, &i)| (*c, &nodes[i].1)));
    }
    best_choice
        .map(|(_, chosen)| chosen.into_iter().map(|(c, i)| (c, nodes[i].1.clone())).collect())
        .unwrap_or_default()
}

/// How many distinct e-classes use each e-class, among `(class, node)`s.
fn users_in<'n>(nodes: impl Iterator<Item = (Id, &'n ONode)>) -> HashMap<Id, f64> {
    let mut parents: HashMap<Id, Vec<Id>> = HashMap::new();
    for (class, node) in nodes {
        for c in node.children() {
            parents.entry(*c).or_default().push(class);
        }
    }
    parents
        .into_iter()
        .map(|(c, mut p)| {
            p.sort();
            p.dedup();
            (c, p.len().max(1) as f64)
        })
        .collect()
}

/// The DAG cost of a choice and the choice restricted to what the roots reach.
fn dag(nodes: &[(Id, ONode)], own: &[f64], choice: &HashMap<Id, usize>, roots: &[Id]) -> (f64, HashMap<Id, usize>) {
    let mut reached: HashMap<Id, usize> = HashMap::new();
    let mut stack: Vec<Id> = roots.to_vec();
    let mut total = 0.0;
    while let Some(class) = stack.pop() {
        if reached.contains_key(&class) {
            continue;
        }
        let Some(&i) = choice.get(&class) else { continue };
        reached.insert(class, i);
        total += own[i];
        stack.extend(nodes[i].1.children().iter().copied());
    }
    (total, reached)
}

/// One greedy pass: every e-class that has an acyclic term gets the index
/// of its cheapest node.
fn extract_pass(nodes: &[(Id, ONode)], own: &[f64], uses: &HashMap<Id, f64>) -> HashMap<Id, usize> {
    let mut users: HashMap<Id, Vec<usize>> = HashMap::new();
    let mut pending: Vec<usize> = Vec::with_capacity(nodes.len());
    let mut heap = BinaryHeap::new();
    for (i, (class, node)) in nodes.iter().enumerate() {
        let mut children: Vec<Id> = node.children().to_vec();
        children.sort();
        children.dedup();
        if children.contains(class) {
            pending.push(usize::MAX); // a self-loop is never settled
            continue;
        }
        for c in &children {
            users.entry(*c).or_default().push(i);
        }
        pending.push(children.len());
        if children.is_empty() {
            heap.push(Entry(own[i], *class, i));
        }
    }
    let mut best: HashMap<Id, (f64, usize)> = HashMap::new();
    while let Some(Entry(cost, class, i)) = heap.pop() {
        if best.contains_key(&class) {
            continue;
        }
        best.insert(class, (cost, i));
        for &user in users.get(&class).map(Vec::as_slice).unwrap_or(&[]) {
            if pending[user] == usize::MAX {
                continue;
            }
            pending[user] -= 1;
            if pending[user] == 0 {
                let (user_class, node) = &nodes[user];
                if best.contains_key(user_class) {
                    continue;
                }
                let total = own[user]
                    + node.children().iter().map(|c| best[c].0 / uses.get(c).copied().unwrap_or(1.0)).sum::<f64>();
                heap.push(Entry(total, *user_class, user));
            }
        }
    }
    best.into_iter().map(|(class, (_, i))| (class, i)).collect()
}
