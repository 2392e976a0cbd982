//! `aten2onnx-optimizer`: the e-graph optimizer behind `onnx-eqsat`.
//! Depends on `aten2onnx-ir` only (not on the lowering); the passes crate
//! re-exports it as `aten2onnx_passes::optimizer`.
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

// The shared layer, under the names the optimizer uses (`crate::ir`, ...).
pub use aten2onnx_ir::{aten_ir, ir, onnx_ir, shape, types};

pub mod analysis;
pub mod convert;
pub mod cost;
pub mod dim_facts;
pub mod extract_ilp;
pub mod lang;
pub mod rules;
pub mod skip_sum;

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
    /// A wall-clock budget per body: `None` by default, so that the output
    /// depends only on the input (rounds and e-nodes are counts; a clock
    /// would make a loaded machine write another graph). Opt-in with the
    /// pass option `time-limit-ms`.
    pub time: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { iterations: 32, node_factor: 8, node_floor: 10_000, time: None }
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

thread_local! {
    /// The mock clock [`with_egg_clock`] installed, and when it started.
    static EGG_CLOCK: std::cell::RefCell<Option<(std::time::Instant, std::sync::Arc<quanta::Mock>)>> =
        const { std::cell::RefCell::new(None) };
    /// Calls of [`sync_egg_clock_sometimes`].
    static EGG_CLOCK_TICKS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs `f` with egg's clock replaced by one that [`sync_egg_clock`]
/// advances to the real time. egg times its runs (and checks
/// [`Limits::time`]) with `quanta::Instant`, whose first use in a process
/// calibrates quanta's TSC clock by busy-waiting until its error is below
/// 10 ns, up to 200 ms: on a loaded machine that was a third of converting
/// a 32-layer Llama. The time limit is still checked, against the time of
/// the last sync (each round, each rule's search and each application).
pub fn with_egg_clock<T>(f: impl FnOnce() -> T) -> T {
    let (clock, mock) = quanta::Clock::mock();
    let old = EGG_CLOCK.with(|c| c.replace(Some((std::time::Instant::now(), mock))));
    let out = quanta::with_clock(&clock, f);
    EGG_CLOCK.with(|c| c.replace(old));
    out
}

/// Advances the clock of [`with_egg_clock`] (if any) to the real time.
pub fn sync_egg_clock() {
    EGG_CLOCK.with(|c| {
        if let Some((start, mock)) = &*c.borrow() {
            let now = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
            let value = mock.value();
            if now > value {
                mock.increment(now - value);
            }
        }
    });
}

/// [`sync_egg_clock`] every 64th call: for the rule applier, called for
/// every matched e-class.
pub fn sync_egg_clock_sometimes() {
    let tick = EGG_CLOCK_TICKS.with(|t| {
        let n = t.get().wrapping_add(1);
        t.set(n);
        n
    });
    if tick % 64 == 0 {
        sync_egg_clock();
    }
}

/// Saturates `egraph` with the rules valid at its opset for `target`
/// (selected by `only`).
pub fn saturate(
    egraph: OnnxEGraph,
    ops: usize,
    limits: &Limits,
    target: rules::Target,
    only: &[String],
) -> (OnnxEGraph, Outcome) {
    let opset = egraph.analysis.opset;
    let snapshot: rules::Snapshot = Default::default();
    let rewrites = rules::rewrites(opset, target, only, &snapshot);
    let hook_snapshot = snapshot.clone();
    let runner: Runner<ONode, analysis::OnnxAnalysis, ()> = Runner::new(analysis::OnnxAnalysis::new(opset))
        .with_egraph(egraph)
        .with_scheduler(SimpleScheduler)
        .with_iter_limit(limits.iterations)
        .with_node_limit(limits.node_floor + limits.node_factor * ops)
        // egg's own default is 5 s: without a budget asked for, none at all.
        .with_time_limit(limits.time.unwrap_or(Duration::from_secs(365 * 86_400)))
        .with_hook(move |runner| {
            sync_egg_clock();
            if let Ok(mut s) = hook_snapshot.lock() {
                *s = Some((rules::next_round(), std::sync::Arc::new(runner.egraph.clone())));
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
    // Canonical e-class ids index the tables below (dense: below the number
    // of ids the e-graph ever made).
    let ids = nodes
        .iter()
        .flat_map(|(class, node)| std::iter::once(class).chain(node.children()))
        .chain(&roots)
        .map(|&id| usize::from(id) + 1)
        .max()
        .unwrap_or(0);
    let mut uses = users_in(nodes.iter().map(|(c, n)| (*c, n)), ids);
    let mut best_choice: Option<(f64, Vec<Option<usize>>)> = None;
    for _ in 0..3 {
        let choice = extract_pass(&nodes, &own, &uses, ids);
        let (dag_cost, reachable) = dag(&nodes, &own, &choice, &roots);
        uses = users_in(reachable.iter().enumerate().filter_map(|(c, i)| Some((Id::from(c), &nodes[(*i)?].1))), ids);
        if best_choice.as_ref().is_none_or(|(c, _)| dag_cost < *c) {
            best_choice = Some((dag_cost, reachable));
        }
    }
    best_choice
        .map(|(_, chosen)| {
            chosen.into_iter().enumerate().filter_map(|(c, i)| Some((Id::from(c), nodes[i?].1.clone()))).collect()
        })
        .unwrap_or_default()
}

/// How many distinct e-classes use each e-class, among `(class, node)`s
/// (1 for an e-class no node uses), by e-class id below `ids`.
fn users_in<'n>(nodes: impl Iterator<Item = (Id, &'n ONode)>, ids: usize) -> Vec<f64> {
    let mut parents: Vec<Vec<Id>> = vec![Vec::new(); ids];
    for (class, node) in nodes {
        for c in node.children() {
            parents[usize::from(*c)].push(class);
        }
    }
    parents
        .into_iter()
        .map(|mut p| {
            p.sort();
            p.dedup();
            p.len().max(1) as f64
        })
        .collect()
}

/// The DAG cost of a choice and the choice restricted to what the roots
/// reach (by e-class id).
fn dag(nodes: &[(Id, ONode)], own: &[f64], choice: &[Option<usize>], roots: &[Id]) -> (f64, Vec<Option<usize>>) {
    let mut reached: Vec<Option<usize>> = vec![None; choice.len()];
    let mut stack: Vec<Id> = roots.to_vec();
    let mut total = 0.0;
    while let Some(class) = stack.pop() {
        let c = usize::from(class);
        if reached[c].is_some() {
            continue;
        }
        let Some(i) = choice[c] else { continue };
        reached[c] = Some(i);
        total += own[i];
        stack.extend(nodes[i].1.children().iter().copied());
    }
    (total, reached)
}

/// One greedy pass: every e-class that has an acyclic term gets the index
/// of its cheapest node (by e-class id below `ids`).
fn extract_pass(nodes: &[(Id, ONode)], own: &[f64], uses: &[f64], ids: usize) -> Vec<Option<usize>> {
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); ids];
    let mut pending: Vec<usize> = Vec::with_capacity(nodes.len());
    let mut heap = BinaryHeap::new();
    let mut children: Vec<Id> = Vec::new();
    for (i, (class, node)) in nodes.iter().enumerate() {
        children.clear();
        children.extend_from_slice(node.children());
        children.sort();
        children.dedup();
        if children.contains(class) {
            pending.push(usize::MAX); // a self-loop is never settled
            continue;
        }
        for c in &children {
            users[usize::from(*c)].push(i);
        }
        pending.push(children.len());
        if children.is_empty() {
            heap.push(Entry(own[i], *class, i));
        }
    }
    let mut best: Vec<Option<(f64, usize)>> = vec![None; ids];
    while let Some(Entry(cost, class, i)) = heap.pop() {
        if best[usize::from(class)].is_some() {
            continue;
        }
        best[usize::from(class)] = Some((cost, i));
        for &user in &users[usize::from(class)] {
            if pending[user] == usize::MAX {
                continue;
            }
            pending[user] -= 1;
            if pending[user] == 0 {
                let (user_class, node) = &nodes[user];
                if best[usize::from(*user_class)].is_some() {
                    continue;
                }
                let total = own[user]
                    + node
                        .children()
                        .iter()
                        .map(|c| best[usize::from(*c)].expect("operands are settled").0 / uses[usize::from(*c)])
                        .sum::<f64>();
                heap.push(Entry(total, *user_class, user));
            }
        }
    }
    best.into_iter().map(|b| b.map(|(_, i)| i)).collect()
}
