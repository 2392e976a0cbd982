//! Attention spelled out (`MatMul(Softmax(Q Kt * scale [+ mask]), V)`),
//! fused into the standard `Attention` op (opset 23).
//!
//! Matched: 4-D float32 `Q [B, H, Sq, D]`, `Kt [B, H, D, Skv]`,
//! `V [B, H, Skv, Dv]` with the same head count (GQA head repetition is left
//! in place); the scores scaled by a one-element constant (`Mul`, either
//! side, or `Div`) or not at all; then an additive float mask (`Add`, either
//! side, not changing the scores' type), or a boolean mask applied as
//! `Where(mask, scores, -inf)`, or none; `Softmax` over the last axis. The
//! result is `Attention(Q, Transpose(Kt), V, mask) {scale}`. onnxruntime
//! broadcasts a mask over batch and heads only: its last two dims must be
//! the scores' `[Sq, Skv]` (a `[B, 1, 1, Skv]` padding mask is not fused).
//!
//! Rows whose every position is masked give NaN spelled out; the fused op
//! may give another value there (the input of such a row carries no
//! information either way). Causal and padding masks built by the common
//! model code never mask a whole row of a real token.

use super::{both_orders, Rule, Rw};
use crate::optimizer::{
    analysis::{Dim, TyInfo},
    lang::{dtype, AttrValue, Head},
};
use egg::Id;

pub static RULES: &[Rule] = &[Rule {
    name: "sdpa",
    family: "attention",
    roots: &["MatMul"],
    min_opset: 23,
    summary: "MatMul(Softmax(MatMul(Q, Kt) * scale + mask), V) -> Attention(Q, K, V, mask) {scale}",
    apply: sdpa,
    example: r#"
func.func @f(%q: tensor<2x2x5x8xf32>, %k: tensor<2x5x2x8xf32>, %v: tensor<2x2x5x8xf32>, %m: tensor<2x1x5x5xf32>) -> tensor<2x2x5x8xf32> {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 2, 3, 1>} : (tensor<2x5x2x8xf32>) -> tensor<2x2x8x5xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<2x2x5x8xf32>, tensor<2x2x8x5xf32>) -> tensor<2x2x5x5xf32>
  %c = "onnx.Constant"() {value = dense<0.353553385> : tensor<f32>} : () -> tensor<f32>
  %ss = "onnx.Mul"(%s, %c) : (tensor<2x2x5x5xf32>, tensor<f32>) -> tensor<2x2x5x5xf32>
  %l = "onnx.Add"(%ss, %m) : (tensor<2x2x5x5xf32>, tensor<2x1x5x5xf32>) -> tensor<2x2x5x5xf32>
  %p = "onnx.Softmax"(%l) {axis = -1 : i64} : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %o = "onnx.MatMul"(%p, %v) : (tensor<2x2x5x5xf32>, tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  return %o : tensor<2x2x5x8xf32>
}"#,
}];

fn rank4_f32(rw: &Rw<'_>, id: Id) -> Option<Vec<Dim>> {
    let t = rw.ty(id)?;
    (t.elem == Some(dtype::FLOAT) && t.rank() == Some(4)).then(|| t.dims.clone()).flatten()
}

/// `(scale, Q, Kt)` when `sc` is the scaled `MatMul(Q, Kt)`.
fn scaled_scores(rw: &Rw<'_>, sc: Id) -> Vec<(f64, Id, Id)> {
    let mut out = Vec::new();
    let mut products = vec![(1.0, sc)];
    for (_, c) in rw.producers(sc, "Mul") {
        for (mm, k) in both_orders(&c) {
            if let Some(s) = rw.scalar(k).filter(|_| rw.elem(k) == Some(dtype::FLOAT)) {
                products.push((s, mm));
            }
        }
    }
    for (_, c) in rw.producers(sc, "Div") {
        if let Some(d) = rw.scalar(c[1]).filter(|d| *d != 0.0 && rw.elem(c[1]) == Some(dtype::FLOAT)) {
            products.push(((1.0 / d as f32) as f64, c[0]));
        }
    }
    for (scale, mm) in products {
        if !rw.same_type(mm, sc) || !scale.is_finite() {
            continue;
        }
        for (h, qk) in rw.producers(mm, "MatMul") {
            if h.attrs.is_empty() {
                out.push((scale, qk[0], qk[1]));
            }
        }
    }
    out
}

fn sdpa(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let [p, v] = children else { return None };
    if !head.attrs.is_empty() || rank4_f32(rw, class).is_none() {
        return None;
    }
    let vd = rank4_f32(rw, *v)?;
    for (sm, l) in rw.producers(*p, "Softmax") {
        let axis = sm.int("axis").unwrap_or(-1);
        if !(axis == -1 || axis == 3) || sm.attrs.iter().any(|(k, _)| k.as_str() != "axis") {
            continue;
        }
        let l = l[0];
        // (scores, mask): the mask is an extra operand of Attention.
        let mut candidates: Vec<(Id, Option<Id>)> = vec![(l, None)];
        for (_, c) in rw.producers(l, "Add") {
            for (sc, m) in both_orders(&c) {
                if rw.elem(m) == Some(dtype::FLOAT) && rw.same_type(sc, l) {
                    candidates.push((sc, Some(m)));
                }
            }
        }
        for (_, c) in rw.producers(l, "Where") {
            let [b, sc, ninf] = c[..] else { continue };
            if rw.elem(b) == Some(dtype::BOOL) && rw.scalar(ninf) == Some(f64::NEG_INFINITY) && rw.same_type(sc, l) {
                candidates.push((sc, Some(b)));
            }
        }
        for (sc, mask) in candidates {
            if let Some(m) = mask {
                if !mask_fits(rw, m, sc) {
                    continue;
                }
            }
            for (scale, q, kt) in scaled_scores(rw, sc) {
                let (Some(qd), Some(ktd)) = (rank4_f32(rw, q), rank4_f32(rw, kt)) else { continue };
                // Q [B, H, Sq, D], Kt [B, H, D, Skv], V [B, H, Skv, Dv]: same heads, D and Skv agree.
                let heads_ok = qd[1].same(&ktd[1]) && ktd[1].same(&vd[1]);
                if !heads_ok || !qd[3].same(&ktd[2]) || !ktd[3].same(&vd[2]) {
                    continue;
                }
                let k_ty =
                    TyInfo::tensor(dtype::FLOAT, vec![ktd[0].clone(), ktd[1].clone(), ktd[3].clone(), ktd[2].clone()]);
                let k =
                    rw.add(Head::new("Transpose", vec![("perm", AttrValue::Ints(vec![0, 1, 3, 2]))]), vec![kt], k_ty);
                let mut operands = vec![q, k, *v];
                operands.extend(mask);
                let fused = Head::new("Attention", vec![("scale", AttrValue::float(scale as f32))]);
                return rw.add_like(fused, operands, class);
            }
        }
    }
    None
}

/// True when onnxruntime takes `mask` for scores `sc`: rank 2 to 4, the last
/// two dims those of the scores, the others 1 or the scores'.
fn mask_fits(rw: &Rw<'_>, mask: Id, sc: Id) -> bool {
    let (Some(m), Some(s)) = (rw.ty(mask).and_then(|t| t.dims.clone()), rw.ty(sc).and_then(|t| t.dims.clone())) else {
        return false;
    };
    if !(2..=4).contains(&m.len()) || s.len() != 4 {
        return false;
    }
    let off = 4 - m.len();
    m.iter().enumerate().all(|(i, d)| {
        let t = &s[i + off];
        if i + off >= 2 {
            d.same(t)
        } else {
            *d == Dim::Static(1) || d.same(t)
        }
    })
}
