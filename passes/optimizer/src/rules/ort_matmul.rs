//! onnxruntime's `com.microsoft.FusedMatMul` (target `onnxruntime` only): a
//! MatMul that transposes the last two axes of an operand, or scales its
//! product by a constant, in one node.
//!
//! - `fused-matmul-transpose`: `MatMul(Transpose(a, [.., r-1, r-2]), b)` ->
//!   `FusedMatMul(a, b) {transA = 1}` (likewise `transB`), operands of rank
//!   >= 2 (a 1-D MatMul operand is not transposed). A transposed weight is
//!   left to `weights/transpose-initializer` (the writer transposes it for
//!   free; a MatMul stays a MatMul for `onnx-fuse-weights`), and so is a
//!   dequantized one (QDQ: onnxruntime's quantized fusions match MatMul).
//! - `fused-matmul-scale`: `MatMul(a, b) * c` or `FusedMatMul(a, b) * c`
//!   (alpha 1), `c` a one-element float32 constant that does not broadcast
//!   the product -> `FusedMatMul(a, b) {alpha = c}`.
//!
//! float32 only (the CPU kernel's float type the project writes). Checked in
//! onnxruntime 1.32 (CPU, graph optimizations off and on): bit-identical to
//! Transpose + MatMul (+ Mul), NaN, infinities and signed zeros included.

use super::{
    both_orders,
    ort_normalization::{ms_head, ms_producers},
    weights::is_weight,
    Apply, Rule, Rw,
};
use crate::lang::{dtype, AttrValue, Head};
use egg::Id;

pub static RULES: &[Rule] = &[
    Rule {
        name: "fused-matmul-transpose",
        roots: &["MatMul"],
        min_opset: 1,
        summary: "MatMul(Transpose(a) of the last two axes, b) -> com.microsoft.FusedMatMul(a, b) {transA = 1} (likewise b; float32, rank >= 2, not for weights or DequantizeLinear outputs)",
        apply: Apply::Fn(fused_transpose),
        example: r#"
func.func @f(%q: tensor<?x2x5x8xf32, ["s0"]>, %k: tensor<?x2x6x8xf32, ["s0"]>) -> tensor<?x2x5x6xf32, ["s0"]> {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<?x2x6x8xf32, ["s0"]>) -> tensor<?x2x8x6xf32, ["s0"]>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x8x6xf32, ["s0"]>) -> tensor<?x2x5x6xf32, ["s0"]>
  return %s : tensor<?x2x5x6xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "fused-matmul-scale",
        roots: &["Mul"],
        min_opset: 1,
        summary: "MatMul(a, b) * c or FusedMatMul(a, b) * c, c a one-element float32 constant -> com.microsoft.FusedMatMul(a, b) {alpha = c}",
        apply: Apply::Fn(fused_scale),
        example: r#"
func.func @f(%q: tensor<?x2x5x8xf32, ["s0"]>, %k: tensor<?x2x8x6xf32, ["s0"]>) -> tensor<?x2x5x6xf32, ["s0"]> {
  %s = "onnx.MatMul"(%q, %k) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x8x6xf32, ["s0"]>) -> tensor<?x2x5x6xf32, ["s0"]>
  %c = "onnx.Constant"() {value = dense<0.353553385> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = "onnx.Mul"(%c, %s) : (tensor<1xf32>, tensor<?x2x5x6xf32, ["s0"]>) -> tensor<?x2x5x6xf32, ["s0"]>
  return %y : tensor<?x2x5x6xf32, ["s0"]>
}"#,
    },
];

/// The rank of a float32 value of rank >= 2.
fn matrix_rank(rw: &Rw<'_>, id: Id) -> Option<usize> {
    let t = rw.ty(id)?;
    (t.elem == Some(dtype::FLOAT)).then_some(())?;
    t.rank().filter(|&r| r >= 2)
}

/// `a` when `t` is `Transpose(a)` swapping the last two axes of a
/// non-weight `a`.
fn transposed_last(rw: &Rw<'_>, t: Id) -> Option<Id> {
    let rank = matrix_rank(rw, t)?;
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(rank - 1, rank - 2);
    rw.producers(t, "Transpose").into_iter().find_map(|(h, c)| {
        let a = *c.first()?;
        let ok = match h.attr("perm") {
            Some(AttrValue::Ints(p)) => h.attrs.len() == 1 && *p == perm,
            None => h.attrs.is_empty() && rank == 2,
            _ => false,
        };
        // A dequantized operand stays a MatMul's: onnxruntime's QDQ fusions
        // (QLinearMatMul, MatMulIntegerToFloat) match MatMul only, and
        // `quant/dq-per-axis-through-transpose` moves a weight's transpose
        // into the integers.
        let dequantized = !rw.producers(a, "DequantizeLinear").is_empty();
        (ok && !is_weight(rw, a) && !dequantized).then_some(a)
    })
}

fn fused_transpose(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let [a, b] = children[..] else { return None };
    if !head.attrs.is_empty() || matrix_rank(rw, a).is_none() || matrix_rank(rw, b).is_none() {
        return None;
    }
    let (ta, tb) = (transposed_last(rw, a), transposed_last(rw, b));
    if ta.is_none() && tb.is_none() {
        return None;
    }
    let mut attrs = Vec::new();
    if ta.is_some() {
        attrs.push(("transA", AttrValue::Int(1)));
    }
    if tb.is_some() {
        attrs.push(("transB", AttrValue::Int(1)));
    }
    rw.add_like(ms_head("FusedMatMul", attrs), vec![ta.unwrap_or(a), tb.unwrap_or(b)], class)
}

fn fused_scale(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    if !head.attrs.is_empty() {
        return None;
    }
    for (m, c) in both_orders(children) {
        let scalar = rw.elem(c) == Some(dtype::FLOAT) && rw.scalar(c).is_some_and(f64::is_finite);
        if !scalar || !rw.same_type(class, m) || matrix_rank(rw, m).is_none() {
            continue;
        }
        let alpha = rw.scalar(c)? as f32;
        let mut candidates: Vec<(Vec<(String, AttrValue)>, Vec<Id>)> = Vec::new();
        for (h, ch) in rw.producers(m, "MatMul") {
            if h.attrs.is_empty()
                && ch.len() == 2
                && matrix_rank(rw, ch[0]).is_some()
                && matrix_rank(rw, ch[1]).is_some()
            {
                candidates.push((Vec::new(), ch));
            }
        }
        for (h, ch) in ms_producers(rw, m, "FusedMatMul") {
            let unscaled = h.float("alpha").is_none_or(|a| a == 1.0);
            if unscaled && h.results == 1 && ch.len() == 2 {
                let attrs = h.attrs.iter().filter(|(k, _)| k.as_str() != "alpha");
                candidates.push((attrs.map(|(k, v)| (k.as_str().to_string(), v.clone())).collect(), ch));
            }
        }
        // Every form of the product (a MatMul of a Transpose, the
        // FusedMatMul that transposes) gets its scaled op; all are equal.
        let mut fused: Option<Id> = None;
        for (attrs, ch) in candidates {
            let mut attrs: Vec<(&str, AttrValue)> = attrs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            attrs.push(("alpha", AttrValue::float(alpha)));
            let id = rw.add_like(ms_head("FusedMatMul", attrs), ch, class)?;
            if let Some(prev) = fused {
                if rw.egraph.find(prev) != rw.egraph.find(id) {
                    rw.egraph.union(prev, id);
                }
            }
            fused = Some(id);
        }
        if fused.is_some() {
            return fused;
        }
    }
    None
}
