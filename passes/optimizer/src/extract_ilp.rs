//! Exact extraction by 0-1 integer linear programming
//! (`onnx-eqsat{extract=ilp}`; greedy extraction, [`super::extract`], stays
//! the default and serves as warm start and fallback).
//!
//! The model, over the e-nodes that can be part of an acyclic term and are
//! reachable from the roots through such nodes:
//!
//! ```text
//! minimize   sum_n own(n) x_n                       x_n in {0, 1}
//! subject to sum_{n in r} x_n >= 1                  each root e-class r
//!            sum_{m in d} x_m - x_n >= 0            each node n, each operand e-class d of n
//!            t_c - t_d - k x_n >= 1 - k             each node n of e-class c, operand e-class d
//!                                                   in the same strongly connected component
//!                                                   (of k e-classes) as c; 0 <= t <= k - 1
//! ```
//!
//! `own(n)` is the node's own cost from `cost.rs`, the same greedy
//! extraction uses, and the objective is the DAG cost of the choice (each
//! chosen node paid once, however many users it has): the quantity greedy
//! extraction approximates, so the two are comparable. The ordering
//! variables `t` only exist for e-classes on a cycle of the e-class graph
//! (after saturation an e-class can reach itself through other e-classes,
//! e.g. `x` and `Transpose(x)` once `transpose-transpose` merged
//! `Transpose(Transpose(x))` with `x`): a chosen node must then have a
//! smaller `t` in each of its operand e-classes of that component, which
//! forbids cyclic choices; edges between components cannot close a cycle.
//! Nodes whose own e-class is among their operands are left out (they are
//! never part of an acyclic term), and so are nodes with an operand e-class
//! that has no acyclic term (found as greedy finds them).
//!
//! The solver is `microlp` (pure Rust, branch and bound). It is warm-started
//! with greedy's choice, so its incumbent never costs more than greedy's and
//! the search prunes every branch that cannot beat it, and it has a time
//! limit (`ilp-time-limit-ms`, default [`DEFAULT_TIME_LIMIT`]). The returned
//! choice is read back from the roots, checked to be complete and acyclic,
//! and kept only when it costs less than greedy's; otherwise greedy's is
//! used, and [`IlpReport::status`] says why.

use super::{analysis::OnnxEGraph, cost, lang::ONode};
use egg::{Id, Language};
use microlp::{ComparisonOp, OptimizationDirection, Problem, SolutionStatus, SolveOptions, SolveOutcome, Variable};
use std::{
    collections::{HashMap, HashSet},
    time::{Duration, Instant},
};

/// Which extraction `onnx-eqsat` runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Extractor {
    /// [`super::extract`] (the default).
    #[default]
    Greedy,
    /// [`extract_ilp`].
    Ilp,
}

impl Extractor {
    /// `greedy` or `ilp`.
    pub fn parse(name: &str) -> Option<Extractor> {
        match name {
            "greedy" => Some(Extractor::Greedy),
            "ilp" => Some(Extractor::Ilp),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Extractor::Greedy => "greedy",
            Extractor::Ilp => "ilp",
        }
    }
}

/// The solver's default time budget per body.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_millis(1000);

/// How an ILP extraction ended.
#[derive(Clone, Debug, PartialEq)]
pub enum IlpStatus {
    /// The solver proved its choice optimal (it is used; when it costs the
    /// same as greedy's, greedy's is kept).
    Optimal,
    /// The time limit stopped the search: the cheaper of the solver's best
    /// choice (if it had one) and greedy's is used.
    TimeLimit,
    /// No usable choice from the solver (an error, an incomplete or cyclic
    /// choice): greedy's is used.
    Fallback(String),
}

impl IlpStatus {
    /// `optimal`, `time limit` or `fallback: <why>`.
    pub fn text(&self) -> String {
        match self {
            IlpStatus::Optimal => "optimal".into(),
            IlpStatus::TimeLimit => "time limit".into(),
            IlpStatus::Fallback(why) => format!("fallback: {why}"),
        }
    }
}

/// What an ILP extraction did.
#[derive(Clone, Debug)]
pub struct IlpReport {
    pub status: IlpStatus,
    /// DAG cost (own costs of the chosen nodes, each once) of greedy's choice.
    pub greedy_cost: f64,
    /// DAG cost of the choice returned (at most `greedy_cost`).
    pub cost: f64,
    /// The returned choice is the solver's (false: greedy's).
    pub used_ilp: bool,
    /// Size of the model: binary node variables, ordering variables, constraints.
    pub node_vars: usize,
    pub order_vars: usize,
    pub constraints: usize,
    /// Independent parts solved on their own.
    pub components: usize,
    /// Nodes built in every extraction (no variable).
    pub fixed: usize,
    /// Time spent (greedy extraction, model building and solving).
    pub elapsed: Duration,
}

/// ILP extraction: the chosen node of every e-class reachable from `roots`,
/// keyed by canonical e-class id (like [`super::extract`]), and what the
/// solver did.
pub fn extract_ilp(egraph: &OnnxEGraph, roots: &[Id], time_limit: Duration) -> (HashMap<Id, ONode>, IlpReport) {
    let start = Instant::now();
    let greedy = super::extract(egraph, roots);
    let mut nodes: Vec<(Id, ONode)> = Vec::with_capacity(egraph.total_number_of_nodes());
    for class in egraph.classes() {
        for node in &class.nodes {
            nodes.push((class.id, node.clone().map_children(|c| egraph.find(c))));
        }
    }
    let own: Vec<f64> = nodes
        .iter()
        .map(|(class, node)| {
            let inputs: Vec<&super::analysis::Data> = node.children().iter().map(|c| &egraph[*c].data).collect();
            cost::node_cost(node, &egraph[*class].data, &inputs)
        })
        .collect();
    let roots: Vec<Id> = roots.iter().map(|r| egraph.find(*r)).collect();
    let (choice, mut report) = choose(&nodes, &own, &roots, &greedy, time_limit);
    report.elapsed = start.elapsed();
    let chosen = match choice {
        Some(choice) => choice.into_iter().map(|(class, i)| (class, nodes[i].1.clone())).collect(),
        None => greedy,
    };
    (chosen, report)
}

/// The ILP choice over `nodes` (e-class, node with canonical children) of
/// own costs `own`, compared with `greedy`'s: `Some(choice by e-class)` when
/// the solver's is used, `None` when greedy's is.
pub(crate) fn choose(
    nodes: &[(Id, ONode)],
    own: &[f64],
    roots: &[Id],
    greedy: &HashMap<Id, ONode>,
    time_limit: Duration,
) -> (Option<HashMap<Id, usize>>, IlpReport) {
    let deadline = Instant::now() + time_limit;
    let mut report = IlpReport {
        status: IlpStatus::Optimal,
        greedy_cost: f64::INFINITY,
        cost: f64::INFINITY,
        used_ilp: false,
        node_vars: 0,
        order_vars: 0,
        constraints: 0,
        components: 0,
        fixed: 0,
        elapsed: Duration::ZERO,
    };
    let fallback = |mut report: IlpReport, why: String| {
        report.status = IlpStatus::Fallback(why);
        (None, report)
    };
    // Greedy's choice, as node indices, and its DAG cost.
    let by_node: HashMap<(Id, &ONode), usize> = nodes.iter().enumerate().map(|(i, (c, n))| ((*c, n), i)).collect();
    let greedy_index: Option<HashMap<Id, usize>> =
        greedy.iter().map(|(class, node)| Some((*class, *by_node.get(&(*class, node))?))).collect();
    let Some(greedy_index) = greedy_index else {
        return fallback(report, "greedy's choice is not in the e-graph".into());
    };
    match walk(nodes, own, roots, |c| greedy_index.get(&c).copied()) {
        Ok((cost, _)) => {
            report.greedy_cost = cost;
            report.cost = cost;
        }
        Err(why) => return fallback(report, format!("greedy's choice: {why}")),
    }
    let keep: HashSet<usize> = greedy_index.values().copied().collect();
    let Some(model) = Model::new(nodes, own, roots, &keep) else {
        return fallback(report, "a root has no acyclic term".into());
    };
    let values = match model.solve(nodes, own, &keep, deadline, &mut report) {
        Ok(values) => values,
        Err(why) => return fallback(report, why),
    };
    // Per e-class, the cheapest chosen node.
    let pick = |class: Id| -> Option<usize> {
        model.members[usize::from(class)]
            .iter()
            .copied()
            .filter(|&i| values[i])
            .min_by(|&a, &b| own[a].total_cmp(&own[b]).then(a.cmp(&b)))
    };
    match walk(nodes, own, roots, pick) {
        Ok((cost, choice)) if cost < report.greedy_cost => {
            // The cost model prices a Skip(Simplified)LayerNormalization as
            // if the Add beside it were gone (`cost.rs`, `skip_sum.rs`): a
            // cheaper choice can then still have more nodes. Those are kept
            // from the model (greedy's choice is used).
            let (ilp_ops, greedy_ops) = (op_count(nodes, own, &choice), op_count(nodes, own, &greedy_index));
            if ilp_ops > greedy_ops {
                return fallback(report, format!("a cheaper choice with more nodes ({ilp_ops} > {greedy_ops})"));
            }
            report.cost = cost;
            report.used_ilp = true;
            (Some(choice), report)
        }
        // Not cheaper than greedy's (optimal ties, a time limit): greedy's stays.
        Ok(_) => (None, report),
        Err(why) => fallback(report, why),
    }
}

/// The e-graph restricted to what an extraction can use.
struct Model {
    /// Usable node indices by e-class id, for the e-classes reachable from
    /// the roots (empty for the others).
    members: Vec<Vec<usize>>,
    /// Reachable e-classes, in the order found.
    classes: Vec<Id>,
    /// By e-class id: every acyclic term of the roots holds the e-class.
    mandatory: Vec<bool>,
}

/// Which e-classes have an acyclic term when only the nodes `allowed` may be
/// used and the e-class `without` may not (the least fixpoint greedy
/// extraction also reaches). `users[c]`: the nodes having `c` as operand;
/// `operands[i]`: node `i`'s distinct operand count, `usize::MAX` for a node
/// that is its own operand.
fn live_classes(
    nodes: &[(Id, ONode)],
    users: &[Vec<usize>],
    operands: &[usize],
    allowed: &[bool],
    without: Option<usize>,
) -> Vec<bool> {
    let mut pending: Vec<usize> = operands.to_vec();
    let mut live = vec![false; users.len()];
    let mut queue: Vec<usize> = (0..nodes.len()).filter(|&i| allowed[i] && pending[i] == 0).collect();
    while let Some(i) = queue.pop() {
        let class = usize::from(nodes[i].0);
        if live[class] || Some(class) == without {
            continue;
        }
        live[class] = true;
        for &user in &users[class] {
            if allowed[user] && pending[user] != usize::MAX {
                pending[user] -= 1;
                if pending[user] == 0 {
                    queue.push(user);
                }
            }
        }
    }
    live
}

/// At most this many node visits go into finding the mandatory e-classes
/// (one liveness pass per candidate e-class); past it only the roots count
/// as mandatory (a weaker model, still exact).
const MANDATORY_BUDGET: usize = 200_000_000;

impl Model {
    /// `None` when a root has no acyclic term. Nodes of `keep` (greedy's
    /// choice) are never dropped as dominated.
    fn new(nodes: &[(Id, ONode)], own: &[f64], roots: &[Id], keep: &HashSet<usize>) -> Option<Model> {
        let ids = nodes
            .iter()
            .flat_map(|(class, node)| std::iter::once(class).chain(node.children()))
            .chain(roots)
            .map(|&id| usize::from(id) + 1)
            .max()
            .unwrap_or(0);
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); ids];
        let mut operands: Vec<usize> = Vec::with_capacity(nodes.len());
        let children: Vec<Vec<Id>> = nodes.iter().map(|(_, n)| distinct(n.children())).collect();
        for (i, (class, _)) in nodes.iter().enumerate() {
            if children[i].contains(class) {
                operands.push(usize::MAX);
                continue;
            }
            for c in &children[i] {
                users[usize::from(*c)].push(i);
            }
            operands.push(children[i].len());
        }
        let all = vec![true; nodes.len()];
        let live = live_classes(nodes, &users, &operands, &all, None);
        if roots.iter().any(|r| !live[usize::from(*r)]) {
            return None;
        }
        // Usable: every operand has an acyclic term.
        let mut by_class: Vec<Vec<usize>> = vec![Vec::new(); ids];
        for (i, (class, _)) in nodes.iter().enumerate() {
            if operands[i] != usize::MAX && children[i].iter().all(|c| live[usize::from(*c)]) {
                by_class[usize::from(*class)].push(i);
            }
        }
        // Dominated nodes: another node of the e-class with a subset of the
        // operands costs no more (any choice using the first can use the
        // second instead). Ties go to the lower index.
        for members in by_class.iter_mut().filter(|m| m.len() > 1 && m.len() <= 64) {
            let dominated = |n: usize, m: usize| {
                m != n
                    && own[m] <= own[n]
                    && children[m].iter().all(|c| children[n].binary_search(c).is_ok())
                    && (own[m] < own[n] || children[m].len() < children[n].len() || m < n)
            };
            let before = members.clone();
            members.retain(|&n| keep.contains(&n) || !before.iter().any(|&m| dominated(n, m)));
        }
        // What the roots reach through the remaining nodes.
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); ids];
        let mut seen = vec![false; ids];
        let mut classes = Vec::new();
        let mut stack: Vec<Id> = roots.to_vec();
        while let Some(class) = stack.pop() {
            let c = usize::from(class);
            if seen[c] {
                continue;
            }
            seen[c] = true;
            classes.push(class);
            members[c] = std::mem::take(&mut by_class[c]);
            for &i in &members[c] {
                stack.extend(children[i].iter().copied().filter(|d| !seen[usize::from(*d)]));
            }
        }
        // Mandatory e-classes: those without which a root has no acyclic
        // term. Candidates: the e-classes of greedy's choice (an extraction).
        let mut allowed = vec![false; nodes.len()];
        for class in &classes {
            for &i in &members[usize::from(*class)] {
                allowed[i] = true;
            }
        }
        let mut mandatory = vec![false; ids];
        for r in roots {
            mandatory[usize::from(*r)] = true;
        }
        let candidates: HashSet<usize> = keep.iter().map(|&i| usize::from(nodes[i].0)).collect();
        let work = candidates.len().saturating_mul(nodes.len() + users.iter().map(Vec::len).sum::<usize>());
        if work <= MANDATORY_BUDGET {
            for &c in &candidates {
                if !mandatory[c] {
                    let live = live_classes(nodes, &users, &operands, &allowed, Some(c));
                    mandatory[c] = roots.iter().any(|r| !live[usize::from(*r)]);
                }
            }
        }
        Some(Model { members, classes, mandatory })
    }

    /// Builds and solves the ILP (independent parts on their own, smallest
    /// first, until `deadline`): whether each node is chosen, by node index.
    /// A part the time limit stopped before it had a solution keeps greedy's
    /// choice (`keep`), which meets every constraint.
    fn solve(
        &self,
        nodes: &[(Id, ONode)],
        own: &[f64],
        keep: &HashSet<usize>,
        deadline: Instant,
        report: &mut IlpReport,
    ) -> Result<Vec<bool>, String> {
        // Variables: x of every node of a non-fixed e-class (index: node
        // index), t of every e-class on a cycle (index: nodes.len() + its
        // position in `self.classes`). A fixed e-class is mandatory with one
        // node: that node is built.
        let fixed = |class: Id| self.mandatory[usize::from(class)] && self.members[usize::from(class)].len() == 1;
        let index: HashMap<Id, usize> = self.classes.iter().enumerate().map(|(k, c)| (*c, k)).collect();
        let adjacency: Vec<Vec<usize>> = self
            .classes
            .iter()
            .map(|class| {
                let mut out: Vec<usize> = self.members[usize::from(*class)]
                    .iter()
                    .flat_map(|&i| nodes[i].1.children().iter().map(|d| index[d]))
                    .collect();
                out.sort_unstable();
                out.dedup();
                out
            })
            .collect();
        let component = strongly_connected_components(&adjacency);
        let mut component_size = vec![0usize; self.classes.len()];
        for &k in &component {
            component_size[k] += 1;
        }
        let t_var = |k: usize| nodes.len() + k;
        let mut rows: Vec<Row> = Vec::new();
        for (k, class) in self.classes.iter().enumerate() {
            let members = &self.members[usize::from(*class)];
            if !fixed(*class) {
                let sum: Vec<(usize, f64)> = members.iter().map(|&m| (m, 1.0)).collect();
                if self.mandatory[usize::from(*class)] {
                    rows.push(Row { terms: sum, op: ComparisonOp::Eq, rhs: 1.0 });
                } else {
                    rows.push(Row { terms: sum, op: ComparisonOp::Le, rhs: 1.0 });
                }
            }
            // Each operand e-class: built when a node using it is (at most
            // one node of the e-class is chosen, so their sum is a 0-1).
            let mut operand_users: Vec<(Id, Vec<usize>)> = Vec::new();
            for &i in members {
                for d in distinct(nodes[i].1.children()) {
                    match operand_users.iter_mut().find(|(c, _)| *c == d) {
                        Some((_, u)) => u.push(i),
                        None => operand_users.push((d, vec![i])),
                    }
                }
            }
            for (d, users) in operand_users {
                if self.mandatory[usize::from(d)] {
                    continue; // built anyway
                }
                let (mut terms, mut rhs) = (Vec::new(), 0.0);
                for u in users {
                    if fixed(*class) {
                        rhs -= 1.0;
                    } else {
                        terms.push((u, 1.0));
                    }
                }
                terms.extend(self.members[usize::from(d)].iter().map(|&m| (m, -1.0)));
                rows.push(Row { terms, op: ComparisonOp::Le, rhs });
            }
            // Ordering inside a strongly connected component of k e-classes:
            // a chosen node's operand e-classes come first.
            if component_size[component[k]] > 1 {
                let size = component_size[component[k]] as f64;
                for &i in members {
                    for d in distinct(nodes[i].1.children()) {
                        let kd = index[&d];
                        if component[kd] != component[k] {
                            continue;
                        }
                        let row = if fixed(*class) {
                            Row { terms: vec![(t_var(k), 1.0), (t_var(kd), -1.0)], op: ComparisonOp::Ge, rhs: 1.0 }
                        } else {
                            Row {
                                terms: vec![(t_var(k), 1.0), (t_var(kd), -1.0), (i, -size)],
                                op: ComparisonOp::Ge,
                                rhs: 1.0 - size,
                            }
                        };
                        rows.push(row);
                    }
                }
            }
        }
        report.constraints = rows.len();
        // Independent parts: variables sharing a row.
        let vars = nodes.len() + self.classes.len();
        let mut parent: Vec<usize> = (0..vars).collect();
        fn find(parent: &mut [usize], mut a: usize) -> usize {
            while parent[a] != a {
                parent[a] = parent[parent[a]];
                a = parent[a];
            }
            a
        }
        for row in &rows {
            if let Some(&(first, _)) = row.terms.first() {
                for &(v, _) in &row.terms[1..] {
                    let (a, b) = (find(&mut parent, first), find(&mut parent, v));
                    parent[a] = b;
                }
            }
        }
        let mut parts: HashMap<usize, (Vec<usize>, Vec<usize>)> = HashMap::new(); // root -> (vars, rows)
        let mut values = vec![false; nodes.len()];
        for class in &self.classes {
            for &i in &self.members[usize::from(*class)] {
                if fixed(*class) {
                    values[i] = true;
                    report.fixed += 1;
                } else {
                    let root = find(&mut parent, i);
                    parts.entry(root).or_default().0.push(i);
                    report.node_vars += 1;
                }
            }
        }
        for (k, _) in self.classes.iter().enumerate() {
            if component_size[component[k]] > 1 {
                let root = find(&mut parent, t_var(k));
                parts.entry(root).or_default().0.push(t_var(k));
                report.order_vars += 1;
            }
        }
        for (r, row) in rows.iter().enumerate() {
            match row.terms.first() {
                Some(&(v, _)) => {
                    let root = find(&mut parent, v);
                    parts.entry(root).or_default().1.push(r);
                }
                None if row.holds_at_zero() => {}
                None => return Err("a constraint without variables does not hold".into()),
            }
        }
        let mut parts: Vec<(Vec<usize>, Vec<usize>)> = parts.into_values().collect();
        parts.sort_by_key(|(vars, rows)| (vars.len(), rows.len(), vars.first().copied()));
        report.components = parts.len();
        // Greedy's order of the e-classes on cycles (operands first), to
        // warm-start the ordering variables.
        let greedy_choice: HashMap<Id, usize> = keep.iter().map(|&i| (nodes[i].0, i)).collect();
        let roots: Vec<Id> = self.classes.iter().copied().filter(|c| self.mandatory[usize::from(*c)]).collect();
        let greedy_rank = post_order(nodes, &roots, &greedy_choice);
        let mut by_component: HashMap<usize, Vec<usize>> = HashMap::new();
        for (k, _) in self.classes.iter().enumerate() {
            if component_size[component[k]] > 1 {
                by_component.entry(component[k]).or_default().push(k);
            }
        }
        let mut t_start = vec![0.0; self.classes.len()];
        for members in by_component.values_mut() {
            members.sort_by_key(|&k| (greedy_rank.get(&self.classes[k]).copied().unwrap_or(usize::MAX), k));
            for (rank, &k) in members.iter().enumerate() {
                t_start[k] = rank as f64;
            }
        }
        let t_bound = |v: usize| (component_size[component[v - nodes.len()]] - 1) as f64;
        let mut timed_out = false;
        for (part_vars, part_rows) in &parts {
            let mut problem = Problem::new(OptimizationDirection::Minimize);
            let mut var: HashMap<usize, Variable> = HashMap::new();
            let mut start: Vec<(Variable, f64)> = Vec::new();
            for &v in part_vars {
                let (variable, value) = if v < nodes.len() {
                    (problem.add_binary_var(own[v]), if keep.contains(&v) { 1.0 } else { 0.0 })
                } else {
                    (problem.add_var(0.0, (0.0, t_bound(v))), t_start[v - nodes.len()])
                };
                var.insert(v, variable);
                start.push((variable, value));
            }
            for &r in part_rows {
                let row = &rows[r];
                let terms: Vec<(Variable, f64)> = row.terms.iter().map(|(v, c)| (var[v], *c)).collect();
                problem.add_constraint(terms, row.op, row.rhs);
            }
            let now = Instant::now();
            let outcome = if now >= deadline {
                None
            } else {
                let mut options = SolveOptions::default();
                options.time_limit = Some(deadline - now);
                options.warm_start = Some(start);
                match problem.solve_with(options).map_err(|e| format!("solver error: {e}"))? {
                    SolveOutcome::Solution(s) => Some(s),
                    SolveOutcome::Interrupted(_) => None,
                }
            };
            match outcome {
                Some(solution) => {
                    if solution.status() != SolutionStatus::Optimal {
                        timed_out = true;
                    }
                    for &v in part_vars.iter().filter(|&&v| v < nodes.len()) {
                        values[v] = solution.var_value(var[&v]) > 0.5;
                    }
                }
                None => {
                    timed_out = true;
                    for &v in part_vars.iter().filter(|&&v| v < nodes.len()) {
                        values[v] = keep.contains(&v);
                    }
                }
            }
        }
        report.status = if timed_out { IlpStatus::TimeLimit } else { IlpStatus::Optimal };
        Ok(values)
    }
}

/// One linear constraint over variable indices (see [`Model::solve`]).
struct Row {
    terms: Vec<(usize, f64)>,
    op: ComparisonOp,
    rhs: f64,
}

impl Row {
    /// A row without variables holds (`0 op rhs`).
    fn holds_at_zero(&self) -> bool {
        match self.op {
            ComparisonOp::Eq => self.rhs == 0.0,
            ComparisonOp::Le => 0.0 <= self.rhs,
            ComparisonOp::Ge => 0.0 >= self.rhs,
        }
    }
}

/// The ops a choice builds (nodes that run: own cost above a leaf's), less
/// the Adds that become the fourth output of a
/// `com.microsoft.Skip(Simplified)LayerNormalization` of the same operands
/// after extraction (`skip_sum.rs`).
fn op_count(nodes: &[(Id, ONode)], own: &[f64], choice: &HashMap<Id, usize>) -> usize {
    let runs = |i: usize| matches!(nodes[i].1, ONode::Op(..)) && !nodes[i].1.children().is_empty() && own[i] > 1.0;
    let mut adds: HashMap<(Id, Id), usize> = HashMap::new();
    for &i in choice.values() {
        if let ONode::Op(head, c) = &nodes[i].1 {
            if head.is("Add") && c.len() == 2 {
                *adds.entry((c[0].min(c[1]), c[0].max(c[1]))).or_insert(0) += 1;
            }
        }
    }
    let mut count = choice.values().filter(|&&i| runs(i)).count();
    for &i in choice.values() {
        if let ONode::Op(head, c) = &nodes[i].1 {
            let skip = matches!(head.op.as_str(), "SkipSimplifiedLayerNormalization" | "SkipLayerNormalization");
            if skip && head.domain.as_str() == "com.microsoft" && head.results == 1 && c.len() >= 2 {
                if let Some(n) = adds.get_mut(&(c[0].min(c[1]), c[0].max(c[1]))).filter(|n| **n > 0) {
                    *n -= 1;
                    count -= 1;
                }
            }
        }
    }
    count
}

/// `ids` sorted, without repeats.
fn distinct(ids: &[Id]) -> Vec<Id> {
    let mut out = ids.to_vec();
    out.sort_unstable();
    out.dedup();
    out
}

/// Reads a choice from the roots (`pick` gives an e-class's node): its DAG
/// cost and the node of every e-class reached. An error when an e-class
/// reached has no node or the choice has a cycle.
fn walk(
    nodes: &[(Id, ONode)],
    own: &[f64],
    roots: &[Id],
    pick: impl Fn(Id) -> Option<usize>,
) -> Result<(f64, HashMap<Id, usize>), String> {
    // 1: on the path (grey), 2: done (black).
    let mut state: HashMap<Id, (u8, usize)> = HashMap::new();
    let mut total = 0.0;
    for &root in roots {
        if state.contains_key(&root) {
            continue;
        }
        let mut stack: Vec<(Id, usize)> = Vec::new();
        let enter = |class: Id, state: &mut HashMap<Id, (u8, usize)>, stack: &mut Vec<(Id, usize)>, total: &mut f64| {
            let i = pick(class).ok_or_else(|| format!("e-class {class} has no chosen node"))?;
            state.insert(class, (1, i));
            *total += own[i];
            stack.push((class, 0));
            Ok::<(), String>(())
        };
        enter(root, &mut state, &mut stack, &mut total)?;
        while let Some(&(class, next)) = stack.last() {
            let i = state[&class].1;
            let children = nodes[i].1.children();
            if next == children.len() {
                stack.pop();
                state.insert(class, (2, i));
                continue;
            }
            stack.last_mut().expect("not empty").1 += 1;
            let child = children[next];
            match state.get(&child) {
                Some((1, _)) => return Err(format!("the choice has a cycle through e-class {child}")),
                Some(_) => {}
                None => enter(child, &mut state, &mut stack, &mut total)?,
            }
        }
    }
    Ok((total, state.into_iter().map(|(c, (_, i))| (c, i)).collect()))
}

/// Position of each e-class of an acyclic choice in a post-order from the
/// roots (operands before their users).
fn post_order(nodes: &[(Id, ONode)], roots: &[Id], choice: &HashMap<Id, usize>) -> HashMap<Id, usize> {
    let mut order: HashMap<Id, usize> = HashMap::new();
    let mut seen: std::collections::HashSet<Id> = std::collections::HashSet::new();
    for &root in roots {
        if !seen.insert(root) {
            continue;
        }
        let mut stack: Vec<(Id, usize)> = vec![(root, 0)];
        while let Some(&(class, next)) = stack.last() {
            let children = choice.get(&class).map_or(&[][..], |&i| nodes[i].1.children());
            if next == children.len() {
                stack.pop();
                let n = order.len();
                order.insert(class, n);
                continue;
            }
            stack.last_mut().expect("not empty").1 += 1;
            if seen.insert(children[next]) {
                stack.push((children[next], 0));
            }
        }
    }
    order
}

/// Tarjan's algorithm, iterative: the component of every vertex.
fn strongly_connected_components(adjacency: &[Vec<usize>]) -> Vec<usize> {
    let n = adjacency.len();
    let unvisited = usize::MAX;
    let mut index = vec![unvisited; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut component = vec![unvisited; n];
    let mut next_index = 0;
    let mut components = 0;
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for start in 0..n {
        if index[start] != unvisited {
            continue;
        }
        index[start] = next_index;
        low[start] = next_index;
        next_index += 1;
        stack.push(start);
        on_stack[start] = true;
        calls.push((start, 0));
        while let Some(&(v, edge)) = calls.last() {
            if edge < adjacency[v].len() {
                calls.last_mut().expect("not empty").1 += 1;
                let w = adjacency[v][edge];
                if index[w] == unvisited {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = components;
                    if w == v {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Head;

    fn op(name: &str, children: &[usize]) -> ONode {
        ONode::op(Head::new(name, vec![]), children.iter().map(|&c| Id::from(c)).collect())
    }

    /// Greedy extraction (`super::super::extract`'s passes) over hand-made
    /// nodes and costs.
    fn greedy(nodes: &[(Id, ONode)], own: &[f64], roots: &[Id]) -> HashMap<Id, ONode> {
        use crate::{dag, extract_pass, users_in};
        let ids = nodes.iter().map(|(c, _)| usize::from(*c) + 1).max().unwrap_or(0);
        let mut uses = users_in(nodes.iter().map(|(c, n)| (*c, n)), ids);
        let mut best: Option<(f64, Vec<Option<usize>>)> = None;
        for _ in 0..3 {
            let choice = extract_pass(nodes, own, &uses, ids);
            let (cost, reachable) = dag(nodes, own, &choice, roots);
            uses =
                users_in(reachable.iter().enumerate().filter_map(|(c, i)| Some((Id::from(c), &nodes[(*i)?].1))), ids);
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, reachable));
            }
        }
        best.map(|(_, chosen)| {
            chosen.into_iter().enumerate().filter_map(|(c, i)| Some((Id::from(c), nodes[i?].1.clone()))).collect()
        })
        .unwrap_or_default()
    }

    fn graph(spec: &[(usize, ONode, f64)]) -> (Vec<(Id, ONode)>, Vec<f64>) {
        (spec.iter().map(|(c, n, _)| (Id::from(*c), n.clone())).collect(), spec.iter().map(|s| s.2).collect())
    }

    fn dag_cost(nodes: &[(Id, ONode)], own: &[f64], roots: &[Id], choice: &HashMap<Id, ONode>) -> f64 {
        walk(nodes, own, roots, |c| {
            let node = choice.get(&c)?;
            nodes.iter().position(|(k, n)| *k == c && n == node)
        })
        .expect("an acyclic complete choice")
        .0
    }

    fn leaf_r2_graph() -> (Vec<(Id, ONode)>, Vec<f64>) {
        // r1 = f(B) (no alternative) builds B = h(S), S = s(L) (cost 100).
        // r2 is u(B) or v(P), P = p(L) (cost 30).
        graph(&[
            (0, op("f", &[2]), 1.0),
            (1, op("u", &[2]), 1.0),
            (1, op("v", &[4]), 1.0),
            (2, op("h", &[3]), 1.0),
            (3, op("s", &[5]), 100.0),
            (4, op("p", &[5]), 30.0),
            (5, ONode::Leaf(0), 1.0),
        ])
    }

    /// The classic case: a shared value greedy does not see as shared. B
    /// is built for r1 anyway, so r2 gets it for free; greedy splits B's
    /// cost (101.5 with its operands) between its two users and sees
    /// `u(B)` at 1 + 50.75 against `v(P)` at 1 + 30.5: it builds P too
    /// (DAG cost 134; its later passes count B's chosen users, now only r1,
    /// and see it dearer still). The ILP shares B: 104.
    #[test]
    fn ilp_beats_greedy_on_a_shared_subterm() {
        let (nodes, own) = leaf_r2_graph();
        let roots = [Id::from(0), Id::from(1)];
        let g = greedy(&nodes, &own, &roots);
        assert_eq!(g[&Id::from(1)], op("v", &[4]), "greedy takes the private operand");
        assert_eq!(dag_cost(&nodes, &own, &roots, &g), 134.0);
        let (choice, report) = choose(&nodes, &own, &roots, &g, Duration::from_secs(10));
        assert_eq!(report.status, IlpStatus::Optimal, "{report:?}");
        assert_eq!(report.greedy_cost, 134.0);
        assert_eq!(report.cost, 104.0);
        assert!(report.used_ilp);
        let choice = choice.expect("the ILP's choice is used");
        assert_eq!(nodes[choice[&Id::from(1)]].1, op("u", &[2]));
        assert!(!choice.contains_key(&Id::from(4)), "P is not built");
        assert_eq!(report.order_vars, 0, "no cycle, no ordering variable");
    }

    /// The same through the public entry's fallback: with no time at all,
    /// the solver stops before proving anything and greedy's choice stays.
    #[test]
    fn a_time_limit_keeps_greedy_s_choice() {
        let (nodes, own) = leaf_r2_graph();
        let roots = [Id::from(0), Id::from(1)];
        let g = greedy(&nodes, &own, &roots);
        let (choice, report) = choose(&nodes, &own, &roots, &g, Duration::ZERO);
        if report.status == IlpStatus::TimeLimit {
            assert!(choice.is_none() || report.cost < report.greedy_cost, "{report:?}");
        } else {
            // A problem this small may be solved at the root before any check.
            assert_eq!(report.status, IlpStatus::Optimal, "{report:?}");
        }
        assert!(report.cost <= report.greedy_cost);
    }

    /// Cycles: after `Transpose(Transpose(x)) = x`, x's e-class holds
    /// `t(T)` where T = `t(x)`'s e-class: x -> T -> x. Without ordering
    /// constraints the cheapest "choice" is the cycle `x = t(T), T = t(x)`
    /// (cost 2); the ILP must take an acyclic one.
    #[test]
    fn ilp_choices_are_acyclic() {
        let (nodes, own) = graph(&[
            (0, op("g", &[1, 2]), 1.0),
            (1, op("e", &[3]), 50.0),
            (1, op("t", &[2]), 1.0),
            (2, op("t", &[1]), 1.0),
            (2, op("f", &[3]), 60.0),
            (3, ONode::Leaf(0), 1.0),
        ]);
        let roots = [Id::from(0)];
        let g = greedy(&nodes, &own, &roots);
        let (choice, report) = choose(&nodes, &own, &roots, &g, Duration::from_secs(10));
        assert_eq!(report.status, IlpStatus::Optimal, "{report:?}");
        assert_eq!(report.order_vars, 2, "x and T are one strongly connected component");
        // x = e(L), T = t(x): 1 + 50 + 1 + 1.
        assert_eq!(report.cost, 53.0);
        assert_eq!(report.greedy_cost, 53.0);
        assert!(choice.is_none());
        // Forcing the question: with T's only acyclic way through x, and x
        // cheaper through T once T is cheap, a choice must still break the
        // cycle.
        let (nodes, own) = graph(&[
            (0, op("g", &[1]), 1.0),
            (0, op("g2", &[2]), 1.0),
            (1, op("e", &[3]), 50.0),
            (1, op("t", &[2]), 1.0),
            (2, op("t", &[1]), 1.0),
            (2, op("f", &[3]), 40.0),
            (3, ONode::Leaf(0), 1.0),
        ]);
        let g = greedy(&nodes, &own, &roots);
        let (choice, report) = choose(&nodes, &own, &roots, &g, Duration::from_secs(10));
        assert_eq!(report.status, IlpStatus::Optimal, "{report:?}");
        // r = g2(T), T = f(L): 1 + 40 + 1.
        assert_eq!(report.cost, 42.0, "{report:?}");
        let pick = |c: Id| match &choice {
            Some(ch) => ch.get(&c).copied(),
            None => nodes.iter().position(|(k, n)| *k == c && Some(n) == g.get(&c)),
        };
        assert!(walk(&nodes, &own, &roots, pick).is_ok());
    }

    /// An Add beside a com.microsoft Skip(Simplified)LayerNormalization of
    /// the same operands (either order) is not counted: `skip_sum.rs`
    /// makes it the op's fourth output.
    #[test]
    fn op_count_leaves_out_adds_a_skip_normalization_absorbs() {
        let mut skip = Head::new("SkipSimplifiedLayerNormalization", vec![]);
        skip.domain = egg::Symbol::from("com.microsoft");
        let (nodes, own) = graph(&[
            (0, ONode::op(skip, vec![Id::from(2), Id::from(3), Id::from(4)]), 5000.0),
            (1, op("Add", &[3, 2]), 5000.0),
            (2, ONode::Leaf(0), 1.0),
            (3, ONode::Leaf(1), 1.0),
            (4, op("initializer", &[]), 1.0),
            (5, op("Relu", &[1]), 5000.0),
        ]);
        let choice: HashMap<Id, usize> = (0..6).map(|i| (Id::from(i), i)).collect();
        assert_eq!(op_count(&nodes, &own, &choice), 2, "Skip and Relu; the Add is absorbed");
        let without_skip: HashMap<Id, usize> = [1, 2, 3, 5].into_iter().map(|i| (Id::from(i), i)).collect();
        assert_eq!(op_count(&nodes, &own, &without_skip), 2, "Add and Relu");
    }

    #[test]
    fn strongly_connected_components_of_a_small_graph() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3, 3 -> 4 -> 3, 5 alone.
        let c = strongly_connected_components(&[vec![1], vec![2], vec![0, 3], vec![4], vec![3], vec![]]);
        assert_eq!(c[0], c[1]);
        assert_eq!(c[1], c[2]);
        assert_eq!(c[3], c[4]);
        assert_ne!(c[0], c[3]);
        assert_ne!(c[5], c[0]);
        assert_ne!(c[5], c[3]);
    }

    #[test]
    fn walk_finds_cycles_and_holes() {
        let (nodes, own) = graph(&[(0, op("a", &[1]), 1.0), (1, op("b", &[0]), 1.0)]);
        assert!(walk(&nodes, &own, &[Id::from(0)], |c| Some(usize::from(c))).unwrap_err().contains("cycle"));
        assert!(walk(&nodes, &own, &[Id::from(0)], |c| (c == Id::from(0)).then_some(0))
            .unwrap_err()
            .contains("no chosen node"));
    }
}
