//! onnxruntime contrib normalizations (target `onnxruntime` only): the
//! residual Add feeding a normalization is folded into it, where that pays.
//!
//! `RMSNormalization(x + skip, w)` -> `com.microsoft.SkipSimplifiedLayerNormalization(x, skip, w)`,
//! normalizing over the last axis (the only one the contrib op normalizes)
//! of a float32 `[B, S, H]` or `[T, H]` value, `x` and `skip` of the same
//! type (the op does not broadcast `skip` the way Add does), `w` `[H]`,
//! `H <= MAX_SKIP_HIDDEN`. When the sum is also used elsewhere (the
//! residual stream of a pre-norm transformer) the op's fourth output
//! `input_skip_bias_sum` is that sum (outputs 1 and 2, mean and inverse
//! standard deviation, are `[B, S, 1]` float32, computed and unused): one
//! node for the Add and the normalization. The rule gives the one-result
//! op; the Add is replaced by the fourth output after extraction
//! (`optimizer::skip_sum`: greedy extraction settles the cheaper Add before
//! any projection of the bigger four-result op could compete with it).
//!
//! Where it pays (onnxruntime 1.32, CPU, one thread, measured interleaved
//! against Add + RMSNormalization, docs/benchmarks.md): the contrib kernel
//! is a scalar loop (a division per element), the standard ops are
//! vectorized, so the fused op only wins by the node it saves, on small
//! tensors: 0.84-0.91x at hidden 32 (2 x 1..32 rows), 0.88x / 0.93-0.98x /
//! 1.11x at hidden 64 (2 x 1 / 8 / 32 rows), 0.9x / 1.05x / 1.29x at hidden
//! 128, 1.0x / 1.13-1.2x / 1.8x at hidden 256. The rule fires up to hidden
//! 64 (decoding and short prompts of small models); a model of hidden 2048
//! would only lose.
//!
//! Not produced: `com.microsoft.SkipLayerNormalization` (`LayerNormalization(x + skip, w, b)`):
//! in onnxruntime 1.32 (CPU) it is slower than Add + LayerNormalization at
//! every size measured (1.17x at 2 x 1 x 64, 1.9-4.3x at 2 x 8..65 x 64,
//! 13-14x at 2 x 65 x 768; the 4-layer ViT ran 1.3x slower with it,
//! graph optimizations on and off); only single rows 16-32 wide came out
//! ahead (0.86-0.91x). (onnxruntime's own graph optimizations make it from
//! Add + LayerNormalization when enabled; the written graph does not.)
//!
//! Checked in onnxruntime 1.32 (CPU, graph optimizations off and on): the
//! sum output is bit-identical to Add, the normalized output within 1e-6 of
//! Add + RMSNormalization, NaN, infinities and signed zeros included.
//!
//! Helpers shared by the `ort_*` families live here too.

use super::{both_orders, norm_axis, Apply, Rule, Rw};
use crate::{
    analysis::Dim,
    lang::{dtype, AttrValue, Head, ONode},
};
use egg::{Id, Symbol};
use std::sync::Arc;

/// The contrib ops' domain.
pub const MS_DOMAIN: &str = "com.microsoft";

/// The largest normalized size (last dim) for which
/// `skip-simplified-layer-normalization` fires: past it the contrib kernel's
/// slower per-element work outweighs the node it saves (module doc).
pub const MAX_SKIP_HIDDEN: i64 = 64;

pub static RULES: &[Rule] = &[
    Rule {
        name: "skip-simplified-layer-normalization",
        roots: &["RMSNormalization"],
        min_opset: 23,
        summary: "RMSNormalization(x + skip, w) over the last axis of size <= 64 -> com.microsoft.SkipSimplifiedLayerNormalization(x, skip, w) (its 4th output is the sum when that is used elsewhere)",
        apply: Apply::Fn(skip_simplified),
        example: r#"
func.func @f(%x: tensor<?x5x16xf32, ["s0"]>, %k: tensor<?x5x16xf32, ["s0"]>, %w: tensor<16xf32>) -> (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>) {
  %s = "onnx.Add"(%x, %k) : (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %n = "onnx.RMSNormalization"(%s, %w) {axis = -1 : i64, epsilon = 1.0e-06 : f32} : (tensor<?x5x16xf32, ["s0"]>, tensor<16xf32>) -> tensor<?x5x16xf32, ["s0"]>
  %r = "onnx.Relu"(%s) : (tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  return %n, %r : tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>
}"#,
    },
];

// ------------------------------------------------------------ shared helpers

/// A `com.microsoft` op head.
pub fn ms_head(op: &str, attrs: Vec<(&str, AttrValue)>) -> Head {
    let mut head = Head::new(op, attrs);
    head.domain = Symbol::from(MS_DOMAIN);
    head
}

/// The e-nodes of `id` that are `com.microsoft` ops of type `op`.
pub fn ms_producers(rw: &Rw<'_>, id: Id, op: &str) -> Vec<(Arc<Head>, Vec<Id>)> {
    let (op, domain) = (Symbol::from(op), Symbol::from(MS_DOMAIN));
    rw.view[rw.find(id)]
        .nodes
        .iter()
        .filter_map(|n| match n {
            ONode::Op(h, c) if h.op == op && h.domain == domain => Some((h.clone(), c.clone())),
            _ => None,
        })
        .collect()
}

/// The dims of a float32 value of rank 2 or 3 whose last dim is static.
fn f32_rows(rw: &Rw<'_>, id: Id) -> Option<(Vec<Dim>, i64)> {
    let t = rw.ty(id)?;
    let dims = t.dims.clone()?;
    let last = match dims.last()? {
        Dim::Static(n) => *n,
        _ => return None,
    };
    (t.elem == Some(dtype::FLOAT) && matches!(dims.len(), 2 | 3)).then_some((dims, last))
}

/// True when `w` is a float32 `[h]` value.
fn is_vector(rw: &Rw<'_>, w: Id, h: i64) -> bool {
    rw.ty(w).is_some_and(|t| t.elem == Some(dtype::FLOAT) && t.static_shape() == Some(vec![h]))
}

/// `(x, skip)` pairs whose plain Add is `s`, both of `s`'s type.
fn skip_pairs(rw: &Rw<'_>, s: Id) -> Vec<(Id, Id)> {
    let mut out = Vec::new();
    for (h, c) in rw.producers(s, "Add") {
        if !h.attrs.is_empty() || c.len() != 2 || !rw.same_type(c[0], s) || !rw.same_type(c[1], s) {
            continue;
        }
        out.extend(both_orders(&c).into_iter().take(1));
    }
    out
}

/// True when the normalization head has only `axis` (the last of `rank`),
/// `epsilon` and `stash_type = 1`, and one result.
fn last_axis_only(head: &Head, rank: usize) -> bool {
    head.results == 1
        && norm_axis(head.int("axis").unwrap_or(-1), rank) == Some(rank - 1)
        && head.attrs.iter().all(|(k, v)| match k.as_str() {
            "axis" | "epsilon" => true,
            "stash_type" => *v == AttrValue::Int(1),
            _ => false,
        })
}

/// The one-result skip op over `x`, `skip` and `params` (gamma) in
/// place of the normalization `class`. (Its sum output replaces an Add of
/// the same operands after extraction: `optimizer::skip_sum`.)
fn skip_op(rw: &mut Rw<'_>, class: Id, op: &str, x: Id, skip: Id, params: &[Id], eps: f32) -> Option<Id> {
    let mut children = vec![x, skip];
    children.extend_from_slice(params);
    rw.add_like(ms_head(op, vec![("epsilon", AttrValue::float(eps))]), children, class)
}

fn skip_simplified(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let [s, w] = children[..] else { return None };
    let (dims, h) = f32_rows(rw, s)?;
    if h > MAX_SKIP_HIDDEN || !last_axis_only(head, dims.len()) || !is_vector(rw, w, h) || !rw.same_type(class, s) {
        return None;
    }
    let eps = head.float("epsilon").unwrap_or(1e-5);
    let (x, skip) = *skip_pairs(rw, s).first()?;
    skip_op(rw, class, "SkipSimplifiedLayerNormalization", x, skip, &[w], eps)
}
