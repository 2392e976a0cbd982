//! The optimizer's rule language: a rule that is a pattern is written as
//! one. A [`PatternRule`] is a left-hand side in s-expression form, a
//! condition on what it bound, and a right-hand side:
//!
//! ```text
//! lhs:  (Mul ?a ?r=(Div ?one ?b))      ops, variables, `?name=` binds a sub-term
//! when: |rw, m| rw.same_type(m["r"], m["b"]) && ...
//! rhs:  (Div ?a ?b)                    a variable, a template, or a builder fn
//! ```
//!
//! - `(Op t..)` matches an e-node of op type `Op` (default domain) that has
//!   no attributes, with exactly those operands; `(Op{..} t..)` also matches
//!   nodes with attributes (the condition reads them through [`Match::head`]);
//!   a trailing `...` admits further operands.
//! - `?x` binds an e-class; a variable used twice matches the same e-class.
//! - `lhs1 | lhs2 | ..`: alternatives, tried in order (the rule's `roots`
//!   are their root ops, in that order).
//! - Commutative ops (`Add`, `Mul`, `And`, `Or`, `Xor`, `Max`, `Min`,
//!   `Equal`, the bitwise ones) match both operand orders, the written one
//!   first: rules never enumerate orders by hand.
//! - Every match is tried in order (the written operand order first, then
//!   each e-class's nodes in the e-graph's order) until the condition holds
//!   and the right-hand side gives a value, which the applier unions with
//!   the root's e-class (after checking the types agree, as for every rule).
//!
//! Matching runs over the round's snapshot ([`Rw::view`]), like the
//! hand-written rules, so a round stays linear; egg's own `Pattern` has no
//! sub-term bindings, attribute conditions or typed results, which nearly
//! every rule here needs. Rules whose left-hand side is not a fixed shape
//! (a chain of any length, a proof over the mask's construction, a set of
//! MatMuls sharing an operand) stay hand-written matchers.

use super::Rw;
use crate::lang::{default_domain, Head, ONode};
use egg::{Id, Symbol};
use std::{collections::HashMap, sync::Arc};

/// Ops whose two operands commute (as values, types included: their
/// broadcasting is symmetric).
const COMMUTATIVE: &[&str] =
    &["Add", "Mul", "And", "Or", "Xor", "Max", "Min", "Equal", "BitwiseAnd", "BitwiseOr", "BitwiseXor"];

/// Matches whose condition holds kept per root e-node (the first whose
/// right-hand side builds wins; more are only needed when a build fails).
const MATCH_LIMIT: usize = 16;

/// A rewrite written as a pattern.
pub struct PatternRule {
    /// The left-hand side; its root op is the rule's root.
    pub lhs: &'static str,
    /// What must hold of a match (types, constants, attributes).
    pub when: fn(&Rw<'_>, &Match) -> bool,
    pub rhs: Rhs,
}

/// The right-hand side of a [`PatternRule`].
pub enum Rhs {
    /// `?x` (an existing e-class) or a template `(Op ?a (Op2 ?b))` of
    /// attribute-free ops over the bound variables; the root takes the
    /// matched value's type.
    Template(&'static str),
    /// Built by code (computed attributes, constants, several ops).
    Build(fn(&mut Rw<'_>, &Match) -> Option<Id>),
}

/// A parsed pattern term.
#[derive(Clone, Debug, PartialEq)]
enum Term {
    Var(usize),
    Op {
        op: Symbol,
        /// `Op{..}`: attributes allowed (else the node must have none).
        any_attrs: bool,
        /// `?name=(Op ..)`: the variable the matched e-class is bound to.
        bind: Option<usize>,
        children: Vec<Term>,
        /// A trailing `...`: further operands allowed.
        rest: bool,
    },
}

/// A parsed pattern with its variable names: one term, or alternatives
/// (`lhs1 | lhs2`, tried in order, sharing the variable names).
#[derive(Debug)]
pub struct Pattern {
    alternatives: Vec<Term>,
    names: Vec<String>,
}

/// What a match bound: an e-class per variable, the matched node (head and
/// operands) of each `?name=(Op ..)` binding and of the root, and which
/// alternative matched.
#[derive(Clone, Debug)]
pub struct Match {
    names: Arc<Vec<String>>,
    ids: Vec<Option<Id>>,
    /// For `?name=(Op ..)`: the matched node's head and operands.
    nodes: Vec<Option<(Arc<Head>, Vec<Id>)>>,
    root: Id,
    root_head: Arc<Head>,
    root_operands: Vec<Id>,
    alternative: usize,
}

impl Match {
    /// The e-class of the matched root (the value being rewritten).
    pub fn root(&self) -> Id {
        self.root
    }

    /// The head of the matched root node (its attributes).
    pub fn root_head(&self) -> &Head {
        &self.root_head
    }

    /// All operands of the matched root node (those a `...` admitted too).
    pub fn root_operands(&self) -> &[Id] {
        &self.root_operands
    }

    /// Which alternative of the left-hand side matched (0 for the first).
    pub fn alternative(&self) -> usize {
        self.alternative
    }

    fn slot(&self, name: &str) -> usize {
        self.names.iter().position(|n| n == name).unwrap_or_else(|| panic!("pattern has no variable ?{name}"))
    }

    fn node(&self, name: &str) -> &(Arc<Head>, Vec<Id>) {
        self.nodes[self.slot(name)].as_ref().unwrap_or_else(|| panic!("?{name} does not bind an op"))
    }

    /// The head of the node bound by `?name=(Op ..)`.
    pub fn head(&self, name: &str) -> &Head {
        &self.node(name).0
    }

    /// All operands of the node bound by `?name=(Op ..)`.
    pub fn operands(&self, name: &str) -> &[Id] {
        &self.node(name).1
    }
}

impl std::ops::Index<&str> for Match {
    type Output = Id;
    fn index(&self, name: &str) -> &Id {
        self.ids[self.slot(name)].as_ref().unwrap_or_else(|| panic!("?{name} is not bound"))
    }
}

impl Pattern {
    /// Parses `text`; errors name the problem (the rule tests parse every
    /// rule's pattern, so an error is found before any model runs).
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let spaced = text.replace('(', " ( ").replace(')', " ) ").replace('|', " | ");
        let tokens: Vec<&str> = spaced.split_whitespace().collect();
        let mut names = Vec::new();
        let mut alternatives = Vec::new();
        let mut pos = 0;
        loop {
            alternatives.push(parse_term(&tokens, &mut pos, &mut names)?);
            match tokens.get(pos) {
                None => break,
                Some(&"|") => pos += 1,
                Some(other) => return Err(format!("`{text}`: unexpected `{other}` after the pattern")),
            }
        }
        Ok(Pattern { alternatives, names })
    }

    /// The root op type of each alternative (`None` for a variable).
    pub fn root_ops(&self) -> Vec<Option<&str>> {
        self.alternatives
            .iter()
            .map(|t| match t {
                Term::Op { op, .. } => Some(op.as_str()),
                Term::Var(_) => None,
            })
            .collect()
    }

    /// The variable names, in order of first appearance.
    pub fn variables(&self) -> &[String] {
        &self.names
    }
}

fn variable(name: &str, names: &mut Vec<String>) -> Result<usize, String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("bad variable name `?{name}`"));
    }
    Ok(names.iter().position(|n| n == name).unwrap_or_else(|| {
        names.push(name.to_string());
        names.len() - 1
    }))
}

fn parse_term(tokens: &[&str], pos: &mut usize, names: &mut Vec<String>) -> Result<Term, String> {
    let token = *tokens.get(*pos).ok_or("pattern ends early")?;
    *pos += 1;
    if let Some(name) = token.strip_prefix('?') {
        if let Some(name) = name.strip_suffix('=') {
            let index = variable(name, names)?;
            let mut term = parse_term(tokens, pos, names)?;
            return match &mut term {
                Term::Op { bind, .. } => {
                    *bind = Some(index);
                    Ok(term)
                }
                Term::Var(_) => Err(format!("`?{name}=` must bind an op")),
            };
        }
        return Ok(Term::Var(variable(name, names)?));
    }
    if token != "(" {
        return Err(format!("expected `(` or a variable, found `{token}`"));
    }
    let head = *tokens.get(*pos).ok_or("pattern ends early")?;
    *pos += 1;
    let (op, any_attrs) = match head.strip_suffix("{..}") {
        Some(op) => (op, true),
        None => (head, false),
    };
    if op.is_empty() || !op.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!("bad op name `{head}`"));
    }
    let (mut children, mut rest) = (Vec::new(), false);
    loop {
        match tokens.get(*pos).copied() {
            None => return Err("unclosed `(`".to_string()),
            Some(")") => {
                *pos += 1;
                break;
            }
            Some("...") => {
                *pos += 1;
                rest = true;
                if tokens.get(*pos) != Some(&")") {
                    return Err("`...` must be the last operand".to_string());
                }
            }
            Some(_) => children.push(parse_term(tokens, pos, names)?),
        }
    }
    Ok(Term::Op { op: Symbol::from(op), any_attrs, bind: None, children, rest })
}

/// The parsed pattern of `text`, parsed once per thread.
fn compiled(text: &'static str) -> Arc<Pattern> {
    thread_local! {
        static CACHE: std::cell::RefCell<HashMap<&'static str, Arc<Pattern>>> = Default::default();
    }
    CACHE.with(|cache| {
        cache
            .borrow_mut()
            .entry(text)
            .or_insert_with(|| Arc::new(Pattern::parse(text).unwrap_or_else(|e| panic!("rule pattern: {e}"))))
            .clone()
    })
}

/// True when `head` is the pattern op (`op`, default domain, one result:
/// an e-class is one value; attributes as the pattern allows) with `n`
/// operands it admits.
fn op_matches(head: &Head, n: usize, op: Symbol, any_attrs: bool, arity: usize, rest: bool) -> bool {
    head.op == op
        && head.domain == default_domain()
        && head.results == 1
        && (any_attrs || head.attrs.is_empty())
        && (n == arity || (rest && n > arity))
}

struct Matcher<'r, 'a> {
    rw: &'r Rw<'a>,
    found: Vec<Match>,
}

impl Matcher<'_, '_> {
    /// Matches `terms` against the e-classes `ids` in order, then `k`.
    fn list(&mut self, terms: &[Term], ids: &[Id], m: &mut Match, k: &mut dyn FnMut(&mut Self, &mut Match)) {
        match terms.split_first() {
            None => k(self, m),
            Some((first, rest)) => {
                let (id, ids) = (ids[0], &ids[1..]);
                self.term(first, id, m, &mut |this, m| this.list(rest, ids, m, k));
            }
        }
    }

    /// Operands `children` of a matched op against its pattern operands:
    /// the written order, then (a commutative op with two) the other.
    fn operands(
        &mut self,
        op: Symbol,
        terms: &[Term],
        children: &[Id],
        m: &mut Match,
        k: &mut dyn FnMut(&mut Self, &mut Match),
    ) {
        self.list(terms, children, m, k);
        if terms.len() == 2 && children.len() == 2 && COMMUTATIVE.contains(&op.as_str()) {
            self.list(terms, &[children[1], children[0]], m, k);
        }
    }

    fn term(&mut self, term: &Term, id: Id, m: &mut Match, k: &mut dyn FnMut(&mut Self, &mut Match)) {
        if self.found.len() >= MATCH_LIMIT {
            return; // enough candidates
        }
        match term {
            Term::Var(v) => match m.ids[*v] {
                Some(bound) => {
                    if self.rw.find(bound) == self.rw.find(id) {
                        k(self, m);
                    }
                }
                None => {
                    m.ids[*v] = Some(id);
                    k(self, m);
                    m.ids[*v] = None;
                }
            },
            Term::Op { op, any_attrs, bind, children, rest } => {
                if let Some(b) = bind {
                    if m.ids[*b].is_some() {
                        return; // a binding names one sub-term
                    }
                }
                let nodes: Vec<(Arc<Head>, Vec<Id>)> = self.rw.view[id]
                    .nodes
                    .iter()
                    .filter_map(|n| match n {
                        ONode::Op(h, c) if op_matches(h, c.len(), *op, *any_attrs, children.len(), *rest) => {
                            Some((h.clone(), c.clone()))
                        }
                        _ => None,
                    })
                    .collect();
                for (head, operands) in nodes {
                    if let Some(b) = bind {
                        m.ids[*b] = Some(id);
                        m.nodes[*b] = Some((head.clone(), operands.clone()));
                    }
                    self.operands(*op, children, &operands, m, k);
                    if let Some(b) = bind {
                        m.ids[*b] = None;
                        m.nodes[*b] = None;
                    }
                }
            }
        }
    }
}

/// Runs `rule` on the root e-node `head(children)` of e-class `class`:
/// the value of the first match whose condition holds and whose
/// right-hand side builds.
pub fn apply(rule: &PatternRule, rw: &mut Rw<'_>, class: Id, head: &Arc<Head>, children: &[Id]) -> Option<Id> {
    let pattern = compiled(rule.lhs);
    let names = Arc::new(pattern.names.clone());
    let mut found = Vec::new();
    for (alternative, root) in pattern.alternatives.iter().enumerate() {
        let Term::Op { op, any_attrs, bind, children: terms, rest } = root else { continue };
        if !op_matches(head, children.len(), *op, *any_attrs, terms.len(), *rest) {
            continue;
        }
        let mut m = Match {
            ids: vec![None; names.len()],
            nodes: vec![None; names.len()],
            names: names.clone(),
            root: class,
            root_head: head.clone(),
            root_operands: children.to_vec(),
            alternative,
        };
        if let Some(b) = bind {
            m.ids[*b] = Some(class);
            m.nodes[*b] = Some((head.clone(), children.to_vec()));
        }
        let mut matcher = Matcher { rw: &*rw, found };
        // The condition is checked as matches are found, so the limit
        // counts candidates that pass it: a rule is never starved by many
        // matches that fail it.
        matcher.operands(*op, terms, children, &mut m, &mut |this, m| {
            if this.found.len() < MATCH_LIMIT && (rule.when)(this.rw, m) {
                this.found.push(m.clone());
            }
        });
        found = matcher.found;
    }
    for m in found {
        let built = match &rule.rhs {
            Rhs::Build(build) => build(rw, &m),
            Rhs::Template(text) => instantiate(rw, &compiled(text), &m, class),
        };
        if built.is_some() {
            return built;
        }
    }
    None
}

/// Builds a template: its root with the type of `class`, inner ops untyped
/// (the analysis learns their types when rules or extraction need them).
fn instantiate(rw: &mut Rw<'_>, template: &Pattern, m: &Match, class: Id) -> Option<Id> {
    fn build(rw: &mut Rw<'_>, term: &Term, names: &[String], m: &Match, like: Option<Id>) -> Option<Id> {
        match term {
            Term::Var(v) => Some(m[names[*v].as_str()]),
            Term::Op { op, children, .. } => {
                let ids = children.iter().map(|c| build(rw, c, names, m, None)).collect::<Option<Vec<_>>>()?;
                let head = Head::new(op.as_str(), vec![]);
                match like {
                    Some(like) => rw.add_like(head, ids, like),
                    None => Some(rw.egraph.add(ONode::op(head, ids))),
                }
            }
        }
    }
    let [root] = &template.alternatives[..] else { return None };
    build(rw, root, &template.names, m, Some(class))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ops_variables_bindings_and_rest() {
        let p = Pattern::parse("(Mul ?a ?r=(Div{..} ?one ?b ...))").unwrap();
        assert_eq!(p.root_ops(), [Some("Mul")]);
        assert_eq!(p.variables(), ["a", "r", "one", "b"]);
        let Term::Op { children, .. } = &p.alternatives[0] else { panic!() };
        assert!(matches!(&children[1], Term::Op { any_attrs: true, bind: Some(1), rest: true, .. }));
        assert_eq!(Pattern::parse("?x").unwrap().root_ops(), [None]);
        let alternatives = Pattern::parse("(Ceil ?y=(Cast{..} ?x)) | (Floor ?y=(Cast{..} ?x))").unwrap();
        assert_eq!(alternatives.root_ops(), [Some("Ceil"), Some("Floor")]);
        assert_eq!(alternatives.variables(), ["y", "x"]);
    }

    #[test]
    fn rejects_malformed_patterns() {
        for bad in ["(Mul ?a", "Mul ?a)", "(Mul ?a) ?b", "(Mul ?)", "(Mu-l ?a)", "(Mul ... ?a)", "?x=?y", "()", "(Mul ?a) |", "| (Mul ?a)"] {
            assert!(Pattern::parse(bad).is_err(), "{bad} should not parse");
        }
    }

    /// Every pattern rule's left-hand side parses, is rooted at the rule's
    /// root op type, and its template uses only variables it binds.
    #[test]
    fn every_pattern_rule_is_well_formed() {
        let mut count = 0;
        for rule in crate::rules::all_rules() {
            let crate::rules::Apply::Pattern(p) = &rule.apply else { continue };
            count += 1;
            let name = rule.full_name();
            let lhs = Pattern::parse(p.lhs).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut roots: Vec<&str> = lhs.root_ops().into_iter().map(|r| r.expect("an op at the root")).collect();
            roots.dedup();
            assert_eq!(rule.roots, roots, "{name}: roots, in the order of the alternatives");
            if let Rhs::Template(text) = &p.rhs {
                let rhs = Pattern::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
                for v in rhs.variables() {
                    assert!(lhs.variables().contains(v), "{name}: ?{v} is not bound by the left-hand side");
                }
                fn plain(t: &Term) -> bool {
                    match t {
                        Term::Var(_) => true,
                        Term::Op { any_attrs, bind, rest, children, .. } => {
                            !any_attrs && bind.is_none() && !rest && children.iter().all(plain)
                        }
                    }
                }
                assert!(
                    rhs.alternatives.len() == 1 && plain(&rhs.alternatives[0]),
                    "{name}: a template is one term of attribute-free ops without bindings"
                );
            }
        }
        assert!(count > 0);
    }

    /// Matching on a hand-built e-graph: commutative operand orders, a
    /// repeated variable, attributes only with `{..}`, sub-term bindings.
    #[test]
    fn matches_on_an_egraph() {
        use crate::{
            analysis::{OnnxAnalysis, OnnxEGraph},
            lang::AttrValue,
            rules::next_round,
        };
        let mut egraph = OnnxEGraph::new(OnnxAnalysis::new(23));
        let x = egraph.add(ONode::Leaf(1));
        let y = egraph.add(ONode::Leaf(2));
        let mul_yx = egraph.add(ONode::op(Head::new("Mul", vec![]), vec![y, x]));
        let add_xx = egraph.add(ONode::op(Head::new("Add", vec![]), vec![x, x]));
        let add_xy = egraph.add(ONode::op(Head::new("Add", vec![]), vec![x, y]));
        let softmax = egraph.add(ONode::op(Head::new("Softmax", vec![("axis", AttrValue::Int(-1))]), vec![mul_yx]));
        let neg = egraph.add(ONode::op(Head::new("Neg", vec![]), vec![softmax]));
        egraph.rebuild();
        let view = egraph.clone();
        let mut rw = Rw { view: &view, egraph: &mut egraph, round: next_round() };
        let root = |rw: &Rw<'_>, id: Id| match &rw.view[id].nodes[0] {
            ONode::Op(h, c) => (h.clone(), c.clone()),
            _ => unreachable!(),
        };
        // `?x` is the leaf 1 whichever side it is on: (Mul y x) matches
        // `(Mul ?a ?b)` with a = x only in the swapped order.
        let rule = PatternRule { lhs: "(Mul ?a ?b)", when: |_, m| m["a"] == Id::from(0usize), rhs: Rhs::Template("?b") };
        let (h, c) = root(&rw, mul_yx);
        assert_eq!(apply(&rule, &mut rw, mul_yx, &h, &c), Some(y));
        // A repeated variable: the same e-class twice.
        let same = PatternRule { lhs: "(Add ?a ?a)", when: |_, _| true, rhs: Rhs::Template("?a") };
        let (h, c) = root(&rw, add_xx);
        assert_eq!(apply(&same, &mut rw, add_xx, &h, &c), Some(x));
        let (h, c) = root(&rw, add_xy);
        assert_eq!(apply(&same, &mut rw, add_xy, &h, &c), None);
        // Attributes: `(Softmax ?s)` only matches an attribute-free node.
        let plain = PatternRule { lhs: "(Neg (Softmax ?s))", when: |_, _| true, rhs: Rhs::Template("?s") };
        let (h, c) = root(&rw, neg);
        assert_eq!(apply(&plain, &mut rw, neg, &h, &c), None);
        let any = PatternRule {
            lhs: "(Neg ?p=(Softmax{..} ?s))",
            when: |_, m| m.head("p").int("axis") == Some(-1),
            rhs: Rhs::Template("?s"),
        };
        assert_eq!(apply(&any, &mut rw, neg, &h, &c), Some(mul_yx));
    }
}
