//! Symbolic dims proven equal by the program itself, for the e-class
//! analysis: two dims are the same when their symbols are in one class of
//! this union-find, never because of their names alone.
//!
//! The facts come from ops whose contract forces equality on every run that
//! does not fail: `MatMul(A, B)` contracts `A[.., K]` with `B[.., K, N]`
//! (ONNX has no broadcast of the contracted dim: sizes that differ are an
//! error, not a broadcast). Attention's `softmax(Q Kt) V` contracts the key
//! length of `K` with the value length of `V`, so a decoder whose past key
//! and past value came in with their own length symbols (`torch.export`
//! gives each cache tensor one, `s18 + 1` and `s70 + 1`) has them proven
//! equal here, as SDPA's own contract requires.
//!
//! The classes are installed for the conversion of one function body
//! ([`with_facts`]); `convert::ty_info` reads every symbol through them, so
//! the analysis sees one representative (the least name of its class).

use crate::{ir, shape as si};
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, ValueLike};
use std::{cell::RefCell, collections::BTreeMap};

thread_local! {
    static CLASSES: RefCell<Option<BTreeMap<String, String>>> = const { RefCell::new(None) };
}

/// The representative of symbol `name` under the installed facts.
pub fn representative(name: &str) -> Option<String> {
    CLASSES.with(|c| c.borrow().as_ref().and_then(|m| m.get(name).cloned()))
}

/// Runs `f` with the facts of `block` (and its nested regions) installed.
pub fn with_facts<T>(block: BlockRef<'_, '_>, f: impl FnOnce() -> T) -> T {
    let classes = facts(block);
    let old = CLASSES.with(|c| c.replace(Some(classes)));
    let out = f();
    CLASSES.with(|c| c.replace(old));
    out
}

/// Symbol -> representative (the least name of its class), for the symbols
/// in a class of two or more.
pub fn facts(block: BlockRef<'_, '_>) -> BTreeMap<String, String> {
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    fn find(parent: &mut BTreeMap<String, String>, x: &str) -> String {
        let mut root = x.to_string();
        while let Some(p) = parent.get(&root).filter(|p| **p != root) {
            root = p.clone();
        }
        parent.insert(x.to_string(), root.clone());
        root
    }
    let mut union = |a: &str, b: &str| {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            // The least name represents the class (deterministic).
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            parent.insert(hi, lo);
        }
    };
    let mut ops = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        ir::walk(op, &mut |o| ops.push(o));
        next = op.next_in_block();
    }
    for op in ops {
        if ir::op_name(op) != "onnx.MatMul" || op.operand_count() != 2 {
            continue;
        }
        let (Some(a), Some(b)) = (ir::operand_at(op, 0), ir::operand_at(op, 1)) else { continue };
        let (Some(a), Some(b)) = (si::shape_of(a.r#type()), si::shape_of(b.r#type())) else { continue };
        if a.len() < 2 || b.len() < 2 {
            continue;
        }
        if let (si::Dim::Sym(x), si::Dim::Sym(y)) = (&a[a.len() - 1], &b[b.len() - 2]) {
            union(x, y);
        }
    }
    let names: Vec<String> = parent.keys().cloned().collect();
    // Every symbol in a class of two or more (its representative included).
    let pairs: Vec<(String, String)> = names
        .into_iter()
        .map(|n| {
            let r = find(&mut parent, &n);
            (n, r)
        })
        .collect();
    let mut sizes: BTreeMap<String, usize> = BTreeMap::new();
    for (_, r) in &pairs {
        *sizes.entry(r.clone()).or_default() += 1;
    }
    pairs.into_iter().filter(|(_, r)| sizes[r] > 1).collect()
}
