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
//! the scores' `[Sq, Skv]`; a `[B, 1, 1, Skv]` padding mask is expanded to
//! `[B, 1, Sq, Skv]` first (`sdpa-padding-mask`), and a padding mask built
//! by GatherND (Hugging Face) is proven and rebuilt that way (`padding-mask`).
//!
//! A query row whose every key is masked: `Attention` gives 0 there, as
//! torch does; the lowering of SDPA with a mask spells that out as
//! `Where(IsInf(ReduceMax(l)), 0, Softmax(l))`, matched here too. A bare
//! `Softmax` (an imported ONNX model) gives NaN there: fusing it changes
//! that NaN to 0.
//!
//! torch.onnx (onnxscript) writes SDPA differently, and models re-optimized
//! with `--to-onnx m.onnx` come that way: Q and Kt each scaled by
//! `sqrt(scale)`, the boolean mask added as `Where(m, 0, -inf)` (given to
//! `Attention` as the boolean `m`), and the Softmax's NaN rows set to 0
//! (`Where(IsNaN(p), 0, p)`: with finite scores, the rows of all `-inf`):
//! `sdpa-nan-rows`, equal for finite Q and K only (a NaN or inf there makes
//! torch.onnx's row 0 and the fused op's NaN, as torch's own SDPA gives).
//! Its key transpose goes through 3-D (`layout/reshape-transpose-reshape`).

use super::{
    both_orders,
    mask_proof::{prove_mask, BoolMask},
    norm_axis, Apply, Rule, Rw,
};
use crate::{
    analysis::{Dim, TyInfo},
    lang::{dtype, AttrValue, Discriminant, Head, Tensor, Values},
};
use egg::{Id, Symbol};

pub static RULES: &[Rule] = &[
    Rule {
        name: "sdpa",
        roots: &["MatMul"],
        min_opset: 23,
        summary: "MatMul(Softmax(MatMul(Q, Kt) * scale + mask), V) -> Attention(Q, K, V, mask) {scale}; the scale may also be split over Q and Kt (MatMul(Q * a, Kt * b), torch.onnx's form); an additive mask Where(b, 0, lowest float) goes in with the float next to the lowest (onnxruntime zeroes a row masked by the lowest float everywhere, the softmax averages V there)",
        apply: Apply::Fn(sdpa),
        example: r#"
func.func @f(%q: tensor<2x2x5x8xf32>, %k: tensor<2x5x2x8xf32>, %v: tensor<2x2x5x8xf32>, %m: tensor<2x1x5x5xf32>) -> (tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>) {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 2, 3, 1>} : (tensor<2x5x2x8xf32>) -> tensor<2x2x8x5xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<2x2x5x8xf32>, tensor<2x2x8x5xf32>) -> tensor<2x2x5x5xf32>
  %c = "onnx.Constant"() {value = dense<0.353553385> : tensor<f32>} : () -> tensor<f32>
  %ss = "onnx.Mul"(%s, %c) : (tensor<2x2x5x5xf32>, tensor<f32>) -> tensor<2x2x5x5xf32>
  %l = "onnx.Add"(%ss, %m) : (tensor<2x2x5x5xf32>, tensor<2x1x5x5xf32>) -> tensor<2x2x5x5xf32>
  %p = "onnx.Softmax"(%l) {axis = -1 : i64} : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %o = "onnx.MatMul"(%p, %v) : (tensor<2x2x5x5xf32>, tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  %r = "onnx.Constant"() {value = dense<0.594603558> : tensor<f32>} : () -> tensor<f32>
  %qr = "onnx.Mul"(%q, %r) : (tensor<2x2x5x8xf32>, tensor<f32>) -> tensor<2x2x5x8xf32>
  %kr = "onnx.Mul"(%kt, %r) : (tensor<2x2x8x5xf32>, tensor<f32>) -> tensor<2x2x8x5xf32>
  %s2 = "onnx.MatMul"(%qr, %kr) : (tensor<2x2x5x8xf32>, tensor<2x2x8x5xf32>) -> tensor<2x2x5x5xf32>
  %l2 = "onnx.Add"(%s2, %m) : (tensor<2x2x5x5xf32>, tensor<2x1x5x5xf32>) -> tensor<2x2x5x5xf32>
  %p2 = "onnx.Softmax"(%l2) {axis = -1 : i64} : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %o2 = "onnx.MatMul"(%p2, %v) : (tensor<2x2x5x5xf32>, tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  %keep = "onnx.Constant"() {value = dense<[[false, false, false, false, false], [true, false, false, false, false], [true, true, false, false, false], [true, true, true, false, true], [true, true, true, true, true]]> : tensor<5x5xi1>} : () -> tensor<5x5xi1>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %lowest = "onnx.Constant"() {value = dense<-3.40282347E+38> : tensor<f32>} : () -> tensor<f32>
  %ml = "onnx.Where"(%keep, %zero, %lowest) : (tensor<5x5xi1>, tensor<f32>, tensor<f32>) -> tensor<5x5xf32>
  %l3 = "onnx.Add"(%ss, %ml) : (tensor<2x2x5x5xf32>, tensor<5x5xf32>) -> tensor<2x2x5x5xf32>
  %p3 = "onnx.Softmax"(%l3) {axis = -1 : i64} : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %o3 = "onnx.MatMul"(%p3, %v) : (tensor<2x2x5x5xf32>, tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  return %o, %o2, %o3 : tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>
}"#,
    },
    Rule {
        name: "sdpa-padding-mask",
        roots: &["MatMul"],
        min_opset: 23,
        summary: "MatMul(Softmax(MatMul(Q, Kt) * scale + mask), V) with a mask [B, 1, 1, Skv] broadcast along the queries (and rows of all -inf set to 0, or not) -> Attention(Q, K, V, Expand(mask, [Sq, 1])) {scale}",
        apply: Apply::Fn(sdpa_padding_mask),
        example: r#"
func.func @f(%q: tensor<?x2x5x8xf32, ["s0"]>, %k: tensor<?x2x8x5xf32, ["s0"]>, %v: tensor<?x2x5x8xf32, ["s0"]>, %m: tensor<?x1x1x5xi1, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]> {
  %s = "onnx.MatMul"(%q, %k) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x8x5xf32, ["s0"]>) -> tensor<?x2x5x5xf32, ["s0"]>
  %c = "onnx.Constant"() {value = dense<0.353553385> : tensor<f32>} : () -> tensor<f32>
  %ss = "onnx.Mul"(%s, %c) : (tensor<?x2x5x5xf32, ["s0"]>, tensor<f32>) -> tensor<?x2x5x5xf32, ["s0"]>
  %ninf = "onnx.Constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %l = "onnx.Where"(%m, %ss, %ninf) : (tensor<?x1x1x5xi1, ["s0"]>, tensor<?x2x5x5xf32, ["s0"]>, tensor<f32>) -> tensor<?x2x5x5xf32, ["s0"]>
  %sm = "onnx.Softmax"(%l) {axis = -1 : i64} : (tensor<?x2x5x5xf32, ["s0"]>) -> tensor<?x2x5x5xf32, ["s0"]>
  %ax = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %mx = "onnx.ReduceMax"(%l, %ax) {keepdims = 1 : i64} : (tensor<?x2x5x5xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x2x5x1xf32, ["s0"]>
  %none = "onnx.IsInf"(%mx) {detect_negative = 1 : i64, detect_positive = 0 : i64} : (tensor<?x2x5x1xf32, ["s0"]>) -> tensor<?x2x5x1xi1, ["s0"]>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %p = "onnx.Where"(%none, %zero, %sm) : (tensor<?x2x5x1xi1, ["s0"]>, tensor<f32>, tensor<?x2x5x5xf32, ["s0"]>) -> tensor<?x2x5x5xf32, ["s0"]>
  %o = "onnx.MatMul"(%p, %v) : (tensor<?x2x5x5xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  return %o : tensor<?x2x5x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "sdpa-nan-rows",
        roots: &["MatMul"],
        min_opset: 23,
        summary: "torch.onnx's SDPA: MatMul(Where(IsNaN(p), 0, p), V) with p = Softmax(MatMul(Q, Kt) * scale + mask), the boolean mask m possibly added as Where(m, 0, -inf), or as Where(m, 0, lowest float) when m is proven causal or all true -> Attention(Q, K, V, m) {scale}; equal for finite Q and K (with a NaN or inf there torch.onnx zeroes the row, Attention and torch give NaN)",
        apply: Apply::Fn(sdpa_nan_rows),
        example: r#"
func.func @f(%q: tensor<2x2x5x8xf32>, %k: tensor<2x2x8x5xf32>, %v: tensor<2x2x5x8xf32>, %b: tensor<2x1x5x5xi1>, %pad: tensor<2x1x1x5xi1>) -> (tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>) {
  %r = "onnx.Constant"() {value = dense<0.594603558> : tensor<f32>} : () -> tensor<f32>
  %qr = "onnx.Mul"(%q, %r) : (tensor<2x2x5x8xf32>, tensor<f32>) -> tensor<2x2x5x8xf32>
  %kr = "onnx.Mul"(%k, %r) : (tensor<2x2x8x5xf32>, tensor<f32>) -> tensor<2x2x8x5xf32>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %ninf = "onnx.Constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %mb = "onnx.Where"(%b, %zero, %ninf) : (tensor<2x1x5x5xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x5x5xf32>
  %s = "onnx.MatMul"(%qr, %kr) : (tensor<2x2x5x8xf32>, tensor<2x2x8x5xf32>) -> tensor<2x2x5x5xf32>
  %l = "onnx.Add"(%s, %mb) : (tensor<2x2x5x5xf32>, tensor<2x1x5x5xf32>) -> tensor<2x2x5x5xf32>
  %p = "onnx.Softmax"(%l) {axis = -1 : i64} : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %nan = "onnx.IsNaN"(%p) : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xi1>
  %p0 = "onnx.Where"(%nan, %zero, %p) : (tensor<2x2x5x5xi1>, tensor<f32>, tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %o = "onnx.MatMul"(%p0, %v) : (tensor<2x2x5x5xf32>, tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  %mp = "onnx.Where"(%pad, %zero, %ninf) : (tensor<2x1x1x5xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x1x5xf32>
  %l2 = "onnx.Add"(%s, %mp) : (tensor<2x2x5x5xf32>, tensor<2x1x1x5xf32>) -> tensor<2x2x5x5xf32>
  %p2 = "onnx.Softmax"(%l2) {axis = -1 : i64} : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %nan2 = "onnx.IsNaN"(%p2) : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xi1>
  %p3 = "onnx.Where"(%nan2, %zero, %p2) : (tensor<2x2x5x5xi1>, tensor<f32>, tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %o2 = "onnx.MatMul"(%p3, %v) : (tensor<2x2x5x5xf32>, tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  %i0 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %i1 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %i5 = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %pos = "onnx.Range"(%i0, %i5, %i1) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<5xi64>
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %a1 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %row = "onnx.Unsqueeze"(%pos, %a0) : (tensor<5xi64>, tensor<1xi64>) -> tensor<1x5xi64>
  %col = "onnx.Unsqueeze"(%pos, %a1) : (tensor<5xi64>, tensor<1xi64>) -> tensor<5x1xi64>
  %causal = "onnx.LessOrEqual"(%row, %col) : (tensor<1x5xi64>, tensor<5x1xi64>) -> tensor<5x5xi1>
  %lowest = "onnx.Constant"() {value = dense<-3.40282347E+38> : tensor<f32>} : () -> tensor<f32>
  %mc = "onnx.Where"(%causal, %zero, %lowest) : (tensor<5x5xi1>, tensor<f32>, tensor<f32>) -> tensor<5x5xf32>
  %l4 = "onnx.Add"(%s, %mc) : (tensor<2x2x5x5xf32>, tensor<5x5xf32>) -> tensor<2x2x5x5xf32>
  %p4 = "onnx.Softmax"(%l4) {axis = -1 : i64} : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %nan4 = "onnx.IsNaN"(%p4) : (tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xi1>
  %p5 = "onnx.Where"(%nan4, %zero, %p4) : (tensor<2x2x5x5xi1>, tensor<f32>, tensor<2x2x5x5xf32>) -> tensor<2x2x5x5xf32>
  %o3 = "onnx.MatMul"(%p5, %v) : (tensor<2x2x5x5xf32>, tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  return %o, %o2, %o3 : tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>
}"#,
    },
    Rule {
        name: "gqa",
        roots: &["Attention"],
        min_opset: 23,
        summary: "Attention(Q, repeat_kv(K), repeat_kv(V)) -> Attention(Q, K, V): the kv heads repeated by Unsqueeze/Expand/Reshape are the op's grouped-query heads; a key scaled by a constant before the repeat (yobx) gives its scale to the op",
        apply: Apply::Fn(gqa),
        example: r#"
func.func @f(%q: tensor<?x4x5x8xf32, ["s0"]>, %k: tensor<?x2x5x8xf32, ["s0"]>, %v: tensor<?x2x5x8xf32, ["s0"]>) -> (tensor<?x4x5x8xf32, ["s0"]>, tensor<?x4x5x8xf32, ["s0"]>) {
  %two = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %ones = "onnx.Constant"() {value = dense<[1, 1, 2, 1, 1]> : tensor<5xi64>} : () -> tensor<5xi64>
  %shape = "onnx.Constant"() {value = dense<[-1, 4, 5, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %k5 = "onnx.Unsqueeze"(%k, %two) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x2x1x5x8xf32, ["s0"]>
  %ke = "onnx.Expand"(%k5, %ones) : (tensor<?x2x1x5x8xf32, ["s0"]>, tensor<5xi64>) -> tensor<?x2x2x5x8xf32, ["s0"]>
  %kr = "onnx.Reshape"(%ke, %shape) : (tensor<?x2x2x5x8xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x4x5x8xf32, ["s0"]>
  %v5 = "onnx.Unsqueeze"(%v, %two) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x2x1x5x8xf32, ["s0"]>
  %ve = "onnx.Expand"(%v5, %ones) : (tensor<?x2x1x5x8xf32, ["s0"]>, tensor<5xi64>) -> tensor<?x2x2x5x8xf32, ["s0"]>
  %vr = "onnx.Reshape"(%ve, %shape) : (tensor<?x2x2x5x8xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x4x5x8xf32, ["s0"]>
  %o = "onnx.Attention"(%q, %kr, %vr) {scale = 0.353553385 : f32} : (tensor<?x4x5x8xf32, ["s0"]>, tensor<?x4x5x8xf32, ["s0"]>, tensor<?x4x5x8xf32, ["s0"]>) -> tensor<?x4x5x8xf32, ["s0"]>
  %c = "onnx.Constant"() {value = dense<0.594603558> : tensor<1xf32>} : () -> tensor<1xf32>
  %ks = "onnx.Mul"(%k, %c) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %ks5 = "onnx.Unsqueeze"(%ks, %two) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x2x1x5x8xf32, ["s0"]>
  %kse = "onnx.Expand"(%ks5, %ones) : (tensor<?x2x1x5x8xf32, ["s0"]>, tensor<5xi64>) -> tensor<?x2x2x5x8xf32, ["s0"]>
  %ksr = "onnx.Reshape"(%kse, %shape) {allowzero = 1 : i64} : (tensor<?x2x2x5x8xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x4x5x8xf32, ["s0"]>
  %o2 = "onnx.Attention"(%q, %ksr, %vr) {scale = 0.594603558 : f32} : (tensor<?x4x5x8xf32, ["s0"]>, tensor<?x4x5x8xf32, ["s0"]>, tensor<?x4x5x8xf32, ["s0"]>) -> tensor<?x4x5x8xf32, ["s0"]>
  return %o, %o2 : tensor<?x4x5x8xf32, ["s0"]>, tensor<?x4x5x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "causal-mask",
        roots: &["Attention"],
        min_opset: 23,
        summary: "Attention(q, k, v, mask) with a boolean mask proven causal from how it is built (Trilu of ones, positions compared) -> Attention(q, k, v) {is_causal = 1}; a mask proven all-true is dropped",
        apply: Apply::Fn(causal_mask),
        example: r#"
func.func @f(%q: tensor<?x2x5x8xf32, ["s0"]>, %k: tensor<?x2x5x8xf32, ["s0"]>, %v: tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]> {
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %n = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %pos = "onnx.Range"(%zero, %n, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<5xi64>
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %a1 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %row = "onnx.Unsqueeze"(%pos, %a0) : (tensor<5xi64>, tensor<1xi64>) -> tensor<1x5xi64>
  %col = "onnx.Unsqueeze"(%pos, %a1) : (tensor<5xi64>, tensor<1xi64>) -> tensor<5x1xi64>
  %le = "onnx.LessOrEqual"(%row, %col) : (tensor<1x5xi64>, tensor<5x1xi64>) -> tensor<5x5xi1>
  %t = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %m = "onnx.And"(%t, %le) : (tensor<i1>, tensor<5x5xi1>) -> tensor<5x5xi1>
  %o = "onnx.Attention"(%q, %k, %v, %m) {scale = 0.353553385 : f32} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<5x5xi1>) -> tensor<?x2x5x8xf32, ["s0"]>
  return %o : tensor<?x2x5x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "padding-mask",
        roots: &["Attention"],
        min_opset: 23,
        summary: "Attention(q, k, v, m) with m [B, 1, Sq, Skv] proven to be m[b, 0, q, k] = p[b, k] (a GatherND of a [B, Skv] boolean at batch/key indices, And-ed with all-true masks) -> the mask Expand(Unsqueeze(p, [1, 2]), [Sq, 1])",
        apply: Apply::Fn(padding_mask),
        example: r#"
func.func @f(%q: tensor<?x2x?x8xf32, ["s0", "s1"]>, %k: tensor<?x2x?x8xf32, ["s0", "s1"]>, %v: tensor<?x2x?x8xf32, ["s0", "s1"]>, %am: tensor<?x?xi64, ["s0", "s1"]>) -> tensor<?x2x?x8xf32, ["s0", "s1"]> {
  %p = "onnx.Cast"(%am) {to = 9 : i64} : (tensor<?x?xi64, ["s0", "s1"]>) -> tensor<?x?xi1, ["s0", "s1"]>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %b1 = "onnx.Shape"(%am) {end = 1 : i64, start = 0 : i64} : (tensor<?x?xi64, ["s0", "s1"]>) -> tensor<1xi64>
  %s1 = "onnx.Shape"(%am) {end = 2 : i64, start = 1 : i64} : (tensor<?x?xi64, ["s0", "s1"]>) -> tensor<1xi64>
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %b = "onnx.Squeeze"(%b1, %a0) : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %s = "onnx.Squeeze"(%s1, %a0) : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %bi = "onnx.Range"(%zero, %b, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, ["s0"]>
  %ki = "onnx.Range"(%zero, %s, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, ["s1"]>
  %ax123 = "onnx.Constant"() {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %ax012 = "onnx.Constant"() {value = dense<[0, 1, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
  %bu = "onnx.Unsqueeze"(%bi, %ax123) : (tensor<?xi64, ["s0"]>, tensor<3xi64>) -> tensor<?x1x1x1xi64, ["s0"]>
  %ku = "onnx.Unsqueeze"(%ki, %ax012) : (tensor<?xi64, ["s1"]>, tensor<3xi64>) -> tensor<1x1x1x?xi64, ["s1"]>
  %sum = "onnx.Add"(%bu, %ku) : (tensor<?x1x1x1xi64, ["s0"]>, tensor<1x1x1x?xi64, ["s1"]>) -> tensor<?x1x1x?xi64, ["s0", "s1"]>
  %shape = "onnx.Shape"(%sum) : (tensor<?x1x1x?xi64, ["s0", "s1"]>) -> tensor<4xi64>
  %be = "onnx.Expand"(%bu, %shape) : (tensor<?x1x1x1xi64, ["s0"]>, tensor<4xi64>) -> tensor<?x1x1x?xi64, ["s0", "s1"]>
  %ke = "onnx.Expand"(%ku, %shape) : (tensor<1x1x1x?xi64, ["s1"]>, tensor<4xi64>) -> tensor<?x1x1x?xi64, ["s0", "s1"]>
  %last = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %b5 = "onnx.Unsqueeze"(%be, %last) : (tensor<?x1x1x?xi64, ["s0", "s1"]>, tensor<1xi64>) -> tensor<?x1x1x?x1xi64, ["s0", "s1"]>
  %k5 = "onnx.Unsqueeze"(%ke, %last) : (tensor<?x1x1x?xi64, ["s0", "s1"]>, tensor<1xi64>) -> tensor<?x1x1x?x1xi64, ["s0", "s1"]>
  %idx = "onnx.Concat"(%b5, %k5) {axis = -1 : i64} : (tensor<?x1x1x?x1xi64, ["s0", "s1"]>, tensor<?x1x1x?x1xi64, ["s0", "s1"]>) -> tensor<?x1x1x?x2xi64, ["s0", "s1"]>
  %pad = "onnx.GatherND"(%p, %idx) : (tensor<?x?xi1, ["s0", "s1"]>, tensor<?x1x1x?x2xi64, ["s0", "s1"]>) -> tensor<?x1x1x?xi1, ["s0", "s1"]>
  %ax013 = "onnx.Constant"() {value = dense<[0, 1, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %qu = "onnx.Unsqueeze"(%ki, %ax013) : (tensor<?xi64, ["s1"]>, tensor<3xi64>) -> tensor<1x1x?x1xi64, ["s1"]>
  %ge = "onnx.GreaterOrEqual"(%qu, %zero) : (tensor<1x1x?x1xi64, ["s1"]>, tensor<i64>) -> tensor<1x1x?x1xi1, ["s1"]>
  %m = "onnx.And"(%ge, %pad) : (tensor<1x1x?x1xi1, ["s1"]>, tensor<?x1x1x?xi1, ["s0", "s1"]>) -> tensor<?x1x?x?xi1, ["s0", "s1", "s1"]>
  %o = "onnx.Attention"(%q, %k, %v, %m) {scale = 0.353553385 : f32} : (tensor<?x2x?x8xf32, ["s0", "s1"]>, tensor<?x2x?x8xf32, ["s0", "s1"]>, tensor<?x2x?x8xf32, ["s0", "s1"]>, tensor<?x1x?x?xi1, ["s0", "s1", "s1"]>) -> tensor<?x2x?x8xf32, ["s0", "s1"]>
  return %o : tensor<?x2x?x8xf32, ["s0", "s1"]>
}"#,
    },
    Rule {
        name: "attention-3d",
        roots: &["Reshape"],
        min_opset: 23,
        summary: "Reshape(Transpose(Attention(split_heads(q), split_heads(k), split_heads(v)), [0,2,1,3]), [B,S,H*Dv]) -> Attention(q, k, v) {q_num_heads, kv_num_heads}",
        apply: Apply::Fn(attention_3d),
        example: r#"
func.func @f(%q: tensor<?x5x32xf32, ["s0"]>, %k: tensor<?x5x16xf32, ["s0"]>, %v: tensor<?x5x16xf32, ["s0"]>, %m: tensor<?x1x5x5xi1, ["s0"]>) -> tensor<?x5x32xf32, ["s0"]> {
  %sq = "onnx.Constant"() {value = dense<[-1, 5, 4, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %skv = "onnx.Constant"() {value = dense<[-1, 5, 2, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %q4 = "onnx.Reshape"(%q, %sq) : (tensor<?x5x32xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x5x4x8xf32, ["s0"]>
  %k4 = "onnx.Reshape"(%k, %skv) : (tensor<?x5x16xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x5x2x8xf32, ["s0"]>
  %v4 = "onnx.Reshape"(%v, %skv) : (tensor<?x5x16xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x5x2x8xf32, ["s0"]>
  %qt = "onnx.Transpose"(%q4) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x5x4x8xf32, ["s0"]>) -> tensor<?x4x5x8xf32, ["s0"]>
  %kt = "onnx.Transpose"(%k4) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x5x2x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %vt = "onnx.Transpose"(%v4) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x5x2x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %a = "onnx.Attention"(%qt, %kt, %vt, %m) {scale = 0.353553385 : f32} : (tensor<?x4x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x1x5x5xi1, ["s0"]>) -> tensor<?x4x5x8xf32, ["s0"]>
  %t = "onnx.Transpose"(%a) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x4x5x8xf32, ["s0"]>) -> tensor<?x5x4x8xf32, ["s0"]>
  %s3 = "onnx.Constant"() {value = dense<[-1, 5, 32]> : tensor<3xi64>} : () -> tensor<3xi64>
  %o = "onnx.Reshape"(%t, %s3) : (tensor<?x5x4x8xf32, ["s0"]>, tensor<3xi64>) -> tensor<?x5x32xf32, ["s0"]>
  return %o : tensor<?x5x32xf32, ["s0"]>
}"#,
    },
];

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
            if !h.attrs.is_empty() {
                continue;
            }
            // torch.onnx scales both operands by sqrt(scale) instead.
            for (a, q) in prescaled(rw, qk[0]) {
                for (b, kt) in prescaled(rw, qk[1]) {
                    let s = scale * a * b;
                    if s.is_finite() && s != 0.0 {
                        out.push((s, q, kt));
                    }
                }
            }
        }
    }
    out
}

/// The float mask `m` to give `Attention` so that onnxruntime computes what
/// the spelled-out softmax does: a `Where(b, 0, lowest float)` (torch.onnx
/// and Hugging Face's additive masks) is rebuilt with the float next to the
/// lowest. onnxruntime's Attention gives 0 for a row whose mask is the
/// lowest float everywhere, where the softmax of that row, and the ONNX
/// definition of the op, average V; with any other value it averages too.
/// Elsewhere the two masks give the same weights (a finite score plus
/// either rounds to it, and its exp after the row's maximum is 0).
fn above_lowest(rw: &mut Rw<'_>, m: Id) -> Id {
    if rw.elem(m) != Some(dtype::FLOAT) {
        return m;
    }
    let lowest = f32::MIN as f64;
    let next = f32::from_bits(f32::MIN.to_bits() - 1) as f64;
    // Known values without the lowest float (a constant, or picked by a
    // Where from such values): as it is.
    let wheres = rw.producers(m, "Where");
    if free_of_lowest(rw, m, 2)
        || wheres.iter().any(|(_, c)| c.len() == 3 && c[1..].iter().all(|&x| free_of_lowest(rw, x, 2)))
    {
        return m;
    }
    let rebuilt = wheres.into_iter().find_map(|(_, c)| {
        let [b, zero, low] = c[..] else { return None };
        (rw.scalar(low) == Some(lowest)).then(|| (b, zero, rw.ty(low).and_then(|t| t.static_shape())))
    });
    if let Some((b, zero, Some(shape))) = rebuilt {
        let c = rw.constant(Tensor::scalar_like(dtype::FLOAT, shape, Values::from_f64s(&[next])));
        return rw.add_like(Head::new("Where", vec![]), vec![b, zero, c], m).unwrap_or(m);
    }
    // Any other float mask (an input, `(1 - m) * lowest`): its lowest
    // entries become the next float, -inf and the rest stay.
    let Some(dims) = rw.ty(m).and_then(|t| t.dims.clone()) else { return m };
    let low = rw.constant(Tensor::scalar_like(dtype::FLOAT, vec![], Values::from_f64s(&[lowest])));
    let up = rw.constant(Tensor::scalar_like(dtype::FLOAT, vec![], Values::from_f64s(&[next])));
    let is_lowest = rw.add(Head::new("Equal", vec![]), vec![m, low], TyInfo::tensor(dtype::BOOL, dims));
    rw.add_like(Head::new("Where", vec![]), vec![is_lowest, up, m], m).unwrap_or(m)
}

/// True when `x`'s values are known not to hold the lowest float: a small
/// constant without it, or a view / broadcast of one (`depth` levels).
fn free_of_lowest(rw: &Rw<'_>, x: Id, depth: usize) -> bool {
    if let Some(v) = rw.values(x) {
        return (0..v.len()).all(|i| v.f64_at(i) != f32::MIN as f64);
    }
    depth > 0
        && ["Expand", "Reshape", "Unsqueeze", "Squeeze", "Identity"]
            .iter()
            .any(|op| rw.producers(x, op).iter().any(|(_, c)| free_of_lowest(rw, c[0], depth - 1)))
}

/// `(K, c)` when `kt = Transpose(K * c, [0, 1, 3, 2])` (or of `K`, c = 1):
/// the key itself, with the scale yobx puts on it before transposing.
fn transposed_key(rw: &Rw<'_>, kt: Id) -> Option<(Id, f64)> {
    rw.producers(kt, "Transpose").into_iter().find_map(|(th, tc)| {
        if th.attrs.len() != 1 || th.ints("perm") != Some(&[0, 1, 3, 2]) {
            return None;
        }
        prescaled(rw, tc[0]).into_iter().find_map(|(c, k)| rank4_f32(rw, k).map(|_| (k, c)))
    })
}

/// `(c, y)` when `x = Mul(y, c)` (either order) with a one-element float
/// constant `c` and `y` of `x`'s type, then `(1, x)`: the first match the
/// caller fuses takes the scaling into the op.
fn prescaled(rw: &Rw<'_>, x: Id) -> Vec<(f64, Id)> {
    let mut out = Vec::new();
    for (_, c) in rw.producers(x, "Mul") {
        for (y, k) in both_orders(&c) {
            if let Some(s) = rw.scalar(k).filter(|_| rw.elem(k) == Some(dtype::FLOAT) && rw.same_type(y, x)) {
                out.push((s, y));
            }
        }
    }
    out.push((1.0, x));
    out
}

fn sdpa(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    sdpa_with(rw, class, head, children, false, false)
}

/// `sdpa` and `sdpa-padding-mask` on torch.onnx's form (the module doc):
/// the NaN rows of the Softmax set to 0, and `Where(m, 0, -inf)` read as
/// the boolean `m`. Both only differ from `Attention` when a score is NaN
/// or `+inf`, i.e. for NaN or inf in Q or K (the row becomes 0 there, NaN
/// in `Attention` and in torch), so the rule is checked on finite inputs.
fn sdpa_nan_rows(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    sdpa_with(rw, class, head, children, false, true).or_else(|| sdpa_with(rw, class, head, children, true, true))
}

/// `sdpa` for masks broadcast along the query axis (`[B, 1, 1, Skv]`, a
/// padding mask): the Add or Where broadcasts the mask's size-1 query dim
/// to `Sq`, so the mask `Expand(mask, [Sq, 1])` (`[B, 1, Sq, Skv]`, the
/// shape onnxruntime requires) gives the op the same values at every
/// position.
fn sdpa_padding_mask(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    sdpa_with(rw, class, head, children, true, false)
}

/// True when `mask` broadcasts to the scores `sc [B, H, Sq, Skv]` along the
/// query axis only where it needs expanding: rank 2 to 4, query dim 1 (and
/// `Sq` not known to be 1), key dim `Skv`, the others 1 or the scores'.
fn mask_broadcasts_q(rw: &Rw<'_>, mask: Id, sc: Id) -> bool {
    let (Some(m), Some(s)) = (rw.ty(mask).and_then(|t| t.dims.clone()), rw.ty(sc).and_then(|t| t.dims.clone())) else {
        return false;
    };
    if !(2..=4).contains(&m.len()) || s.len() != 4 || s[2] == Dim::Static(1) {
        return false;
    }
    let off = 4 - m.len();
    m.iter().enumerate().all(|(i, d)| match i + off {
        2 => *d == Dim::Static(1),
        3 => d.same(&s[3]),
        j => *d == Dim::Static(1) || d.same(&s[j]),
    })
}

/// `nan_rows`: torch.onnx's form only (`sdpa-nan-rows`), else never it.
fn sdpa_with(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id], expand_q: bool, nan_rows: bool) -> Option<Id> {
    let [p, v] = children else { return None };
    if !head.attrs.is_empty() || rank4_f32(rw, class).is_none() {
        return None;
    }
    let vd = rank4_f32(rw, *v)?;
    for (sm, l) in softmaxes(rw, *p, nan_rows) {
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
                    // An additive mask Where(b, 0, -inf) is the boolean b.
                    if nan_rows {
                        candidates.extend(boolean_of_additive(rw, m).map(|b| (sc, Some(b))));
                    }
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
            let mut mask = mask;
            match mask {
                Some(m) if expand_q && mask_broadcasts_q(rw, m, sc) => {
                    // [.., 1, Skv] -> Expand(mask, [Sq, 1]): [.., Sq, Skv].
                    let (Some(md), Some(sd)) = (rw.ty(m).cloned(), rw.ty(sc).and_then(|t| t.dims.clone())) else {
                        continue;
                    };
                    let Some(sq) = super::rotary::dim_value(rw, &sd[2]) else { continue };
                    let one = i64s(rw, &[1]);
                    let shape = rw.add(
                        Head::new("Concat", vec![("axis", AttrValue::Int(0))]),
                        vec![sq, one],
                        TyInfo::tensor(dtype::INT64, vec![Dim::Static(2)]),
                    );
                    let mut dims = md.dims.clone()?;
                    let n = dims.len();
                    dims[n - 2] = sd[2].clone();
                    let m_fused = above_lowest(rw, m);
                    let expanded = rw.add(
                        Head::new("Expand", vec![]),
                        vec![m_fused, shape],
                        TyInfo { raw: None, dims: Some(dims), ..md },
                    );
                    mask = Some(expanded);
                }
                _ if expand_q => continue,
                Some(m) if !mask_fits(rw, m, sc) => continue,
                _ => {}
            }
            for (scale, q, kt) in scaled_scores(rw, sc) {
                let (Some(qd), Some(ktd)) = (rank4_f32(rw, q), rank4_f32(rw, kt)) else { continue };
                // Q [B, H, Sq, D], Kt [B, H, D, Skv], V [B, H, Skv, Dv]: one batch, same heads, D and
                // Skv agree. The MatMuls broadcast a batch-1 (or head-1) key or value over the
                // query's (SDPA with a learned or shared memory); Attention does not: its batch and
                // head dims must be proven equal, not merely compatible.
                let batch_ok = qd[0].same(&ktd[0]) && ktd[0].same(&vd[0]);
                let heads_ok = qd[1].same(&ktd[1]) && ktd[1].same(&vd[1]);
                if !batch_ok || !heads_ok || !qd[3].same(&ktd[2]) || !ktd[3].same(&vd[2]) {
                    continue;
                }
                let (k, scale) = match transposed_key(rw, kt) {
                    Some((k, c)) => (k, scale * c),
                    None => {
                        let k_ty = TyInfo::tensor(
                            dtype::FLOAT,
                            vec![ktd[0].clone(), ktd[1].clone(), ktd[3].clone(), ktd[2].clone()],
                        );
                        let perm = vec![("perm", AttrValue::Ints(vec![0, 1, 3, 2]))];
                        (rw.add(Head::new("Transpose", perm), vec![kt], k_ty), scale)
                    }
                };
                if !scale.is_finite() || scale == 0.0 {
                    continue;
                }
                let mut operands = vec![q, k, *v];
                // (An expanded mask was built from the rebuilt one already.)
                operands.extend(mask.map(|m| if expand_q { m } else { above_lowest(rw, m) }));
                let fused = Head::new("Attention", vec![("scale", AttrValue::float(scale as f32))]);
                return rw.add_like(fused, operands, class);
            }
        }
    }
    None
}

/// The Softmax producers of the attention weights `p`: `p = Softmax(l)`,
/// or `p = Where(IsInf(ReduceMax(l)), 0, Softmax(l))`, the softmax with rows
/// of all `-inf` set to 0, as the SDPA lowering writes it when there is a
/// mask (torch's semantics for a query that sees no key, and `Attention`'s).
fn softmaxes(rw: &Rw<'_>, p: Id, nan_rows: bool) -> Vec<(std::sync::Arc<Head>, Vec<Id>)> {
    if nan_rows {
        // Only the guarded form: the plain one is `sdpa`'s.
        return rw
            .producers(p, "Where")
            .into_iter()
            .filter_map(|(_, c)| {
                let [none, zero, w] = c[..] else { return None };
                (rw.scalar(zero) == Some(0.0) && is_nan_of(rw, none, w)).then_some(w)
            })
            .flat_map(|w| rw.producers(w, "Softmax"))
            .collect();
    }
    let mut out = rw.producers(p, "Softmax");
    for (_, c) in rw.producers(p, "Where") {
        let [none, zero, w] = c[..] else { continue };
        if rw.scalar(zero) != Some(0.0) {
            continue;
        }
        for (sm, l) in rw.producers(w, "Softmax") {
            if row_max_is_neg_inf(rw, none, l[0]) {
                out.push((sm, l));
            }
        }
    }
    out
}

/// True when `none` is `IsNaN(w)`: torch.onnx's SDPA sets the NaN rows of
/// `w = Softmax(l)` to 0. With finite scores those are the rows of all
/// `-inf`, exactly the rows `Attention` sets to 0.
fn is_nan_of(rw: &Rw<'_>, none: Id, w: Id) -> bool {
    rw.producers(none, "IsNaN").iter().any(|(_, c)| rw.find(c[0]) == rw.find(w))
}

/// `b` when the float mask `m` is `Where(b, 0, -inf)` of the same shape
/// (torch.onnx's additive form of a boolean mask): `s + 0 = s` and
/// `s + -inf = -inf`, what a boolean mask does to finite scores. Also
/// `Where(b, 0, lowest float)` (torch.onnx's causal masks) when `b` is
/// proven causal with every query seeing a key (or all true): a finite
/// score below 2^104 plus the lowest float rounds to it, and its exp after
/// the row's finite maximum is subtracted is exactly 0, as for `-inf`; only
/// a row with every key masked would differ (the mean of V against 0).
fn boolean_of_additive(rw: &Rw<'_>, m: Id) -> Option<Id> {
    let dims = rw.ty(m)?.dims.clone()?;
    rw.producers(m, "Where").into_iter().find_map(|(_, c)| {
        let [b, zero, ninf] = c[..] else { return None };
        let same_shape = rw
            .ty(b)
            .and_then(|t| t.dims.as_ref())
            .is_some_and(|bd| bd.len() == dims.len() && bd.iter().zip(&dims).all(|(x, y)| x.same(y)));
        if rw.elem(b) != Some(dtype::BOOL) || rw.scalar(zero) != Some(0.0) || !same_shape {
            return None;
        }
        let fill = rw.scalar(ninf)?;
        let lowest = rw.elem(m) == Some(dtype::FLOAT) && fill == f32::MIN as f64;
        let no_empty_row = || matches!(prove_mask(rw, b), Some(BoolMask::All(true)) | Some(BoolMask::Causal(0..)));
        (fill == f64::NEG_INFINITY || lowest && no_empty_row()).then_some(b)
    })
}

/// True when `none` is `IsInf(ReduceMax(l, last axis, keepdims)) {negative only}`.
fn row_max_is_neg_inf(rw: &Rw<'_>, none: Id, l: Id) -> bool {
    let rank = rw.ty(l).and_then(|t| t.rank());
    rw.producers(none, "IsInf").iter().any(|(h, c)| {
        h.int("detect_positive") == Some(0)
            && h.int("detect_negative").unwrap_or(1) == 1
            && rw.producers(c[0], "ReduceMax").iter().any(|(r, rc)| {
                let axes = match rc.get(1) {
                    Some(a) => rw.ints(*a),
                    None => r.ints("axes").map(|a| a.to_vec()),
                };
                let last = matches!(axes.as_deref(), Some([a]) if *a == -1 || rank.is_some_and(|n| *a == n as i64 - 1));
                rw.find(rc[0]) == rw.find(l) && r.int("keepdims").unwrap_or(1) == 1 && last
            })
    })
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

/// Attributes a 4-D Attention may carry for the rules below to rebuild it.
fn plain_attention(head: &Head, children: &[Id]) -> bool {
    head.results == 1
        && (3..=4).contains(&children.len())
        && head.attrs.iter().all(|(k, _)| matches!(k.as_str(), "scale" | "is_causal" | "softcap"))
}

/// `(k, rep)` when `kr [B, H*rep, S, D]` is `Reshape(Expand(Unsqueeze(k, [2]),
/// [B, H, rep, S, D]), ..)` with `k [B, H, S, D]`: head `j` of `kr` is head
/// `j / rep` of `k`, the op's grouped-query mapping.
fn repeated_kv(rw: &Rw<'_>, kr: Id) -> Option<(Id, i64)> {
    let od = rank4_f32(rw, kr)?;
    for (rh, rc) in rw.producers(kr, "Reshape") {
        let e = rc[0];
        let Some(ed) = rw.ty(e).and_then(|t| t.dims.clone()).filter(|d| d.len() == 5) else { continue };
        let (Some(Dim::Static(h)), Some(Dim::Static(rep)), Dim::Static(total)) = (ed.get(1), ed.get(2), &od[1]) else {
            continue;
        };
        // allowzero is moot: the dims are matched through the types.
        let plain = rh.attrs.iter().all(|(k, _)| k.as_str() == "allowzero");
        if !plain || h * rep != *total || !od[0].same(&ed[0]) || !od[2].same(&ed[3]) || !od[3].same(&ed[4]) {
            continue;
        }
        for (eh, ec) in rw.producers(e, "Expand") {
            let u = ec[0];
            let Some(ud) = rw.ty(u).and_then(|t| t.dims.clone()).filter(|d| d.len() == 5) else { continue };
            let broadcast_ok = ud[2] == Dim::Static(1)
                && ud[0].same(&ed[0])
                && ud[1].same(&ed[1])
                && ud[3].same(&ed[3])
                && ud[4].same(&ed[4]);
            if !eh.attrs.is_empty() || !broadcast_ok {
                continue;
            }
            for (uh, uc) in rw.producers(u, "Unsqueeze") {
                let k = uc[0];
                let axes_ok =
                    uc.get(1).and_then(|&a| rw.ints(a)).is_some_and(|a| a.len() == 1 && norm_axis(a[0], 5) == Some(2));
                let Some(kd) = rank4_f32(rw, k) else { continue };
                if uh.attrs.is_empty()
                    && axes_ok
                    && kd[0].same(&ud[0])
                    && kd[1].same(&ud[1])
                    && kd[2].same(&ud[3])
                    && kd[3].same(&ud[4])
                {
                    return Some((k, *rep));
                }
            }
        }
    }
    None
}

fn gqa(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    if !plain_attention(head, children) {
        return None;
    }
    let qd = rank4_f32(rw, children[0])?;
    let (mut k, rk) = repeated_kv(rw, children[1])?;
    let (v, rv) = repeated_kv(rw, children[2])?;
    let mut head = head.clone();
    // A key scaled before its heads are repeated (yobx): the scale joins the op's.
    if let Some(scale) = head.float("scale") {
        if let Some((c, y)) = prescaled(rw, k).into_iter().find(|(c, _)| *c != 1.0) {
            let fused = scale as f64 * c;
            if fused.is_finite() && fused != 0.0 {
                k = y;
                head = Head {
                    attrs: head
                        .attrs
                        .iter()
                        .map(|(n, a)| {
                            (*n, if n.as_str() == "scale" { AttrValue::float(fused as f32) } else { a.clone() })
                        })
                        .collect(),
                    ..head
                };
            }
        }
    }
    let (kd, vd) = (rank4_f32(rw, k)?, rank4_f32(rw, v)?);
    let (Dim::Static(hq), Dim::Static(hk), Dim::Static(hv)) = (&qd[1], &kd[1], &vd[1]) else { return None };
    if rk != rv || hk != hv || hq % hk != 0 || hq / hk != rk {
        return None;
    }
    let mut operands = vec![children[0], k, v];
    operands.extend(children.get(3).copied());
    rw.add_like(head, operands, class)
}

fn attention_3d(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let [tr, _] = children else { return None };
    let cd = rw.ty(class).filter(|t| t.elem == Some(dtype::FLOAT)).and_then(|t| t.dims.clone())?;
    // allowzero is moot: the dims are matched through the types (a symbolic
    // dim copied by a 0 is the input's own dim at that index).
    let plain = head.attrs.iter().all(|(k, _)| k.as_str() == "allowzero");
    let td = rank4_f32(rw, *tr)?;
    let (Dim::Static(h), Dim::Static(dv), Some(Dim::Static(hdv))) = (&td[2], &td[3], cd.get(2)) else { return None };
    if !plain || cd.len() != 3 || h * dv != *hdv || !cd[0].same(&td[0]) || !cd[1].same(&td[1]) {
        return None;
    }
    for (th, tc) in rw.producers(*tr, "Transpose") {
        if th.attrs.len() != 1 || th.ints("perm") != Some(&[0, 2, 1, 3]) {
            continue;
        }
        for (ah, ac) in rw.producers(tc[0], "Attention") {
            if !plain_attention(&ah, &ac) {
                continue;
            }
            let (Some((q, hq)), Some((k, hk)), Some((v, hv))) = (
                super::rotary::split_heads_of(rw, ac[0]),
                super::rotary::split_heads_of(rw, ac[1]),
                super::rotary::split_heads_of(rw, ac[2]),
            ) else {
                continue;
            };
            if hk != hv || hq % hk != 0 || hq != *h {
                continue;
            }
            let mut attrs: Vec<(&str, AttrValue)> = ah.attrs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            attrs.push(("q_num_heads", AttrValue::Int(hq)));
            attrs.push(("kv_num_heads", AttrValue::Int(hk)));
            let mut operands = vec![q, k, v];
            operands.extend(ac.get(3).copied());
            return rw.add_like(Head::new("Attention", attrs), operands, class);
        }
    }
    None
}

/// `Attention(q, k, v, mask)` with a boolean mask provably causal (`k <= q`
/// on its last two axes, built from the indices: Trilu of all-true, or a
/// comparison of positions made by Range/Unsqueeze/Expand/GatherND...) and
/// square scores -> `Attention(q, k, v) {is_causal = 1}`; a mask provably
/// all-true is dropped.
fn causal_mask(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let [q, k, v, m] = children else { return None };
    if !plain_attention(head, children) && !three_d_attention(head, children) {
        return None;
    }
    // A boolean mask, or an additive one of the scores' type.
    let mask_elem_ok = rw.elem(*m) == Some(dtype::BOOL) || (rw.elem(*m).is_some() && rw.elem(*m) == rw.elem(*q));
    if head.int("is_causal").unwrap_or(0) != 0 || !mask_elem_ok {
        return None;
    }
    // The sequence axes: 4-D [B, H, S, D], 3-D [B, S, H*D].
    let (qd, kd) = (rw.ty(*q)?.dims.clone()?, rw.ty(*k)?.dims.clone()?);
    let seq = if qd.len() == 4 { 2 } else { 1 };
    let (sq, skv) = (qd.get(seq)?, kd.get(seq)?);
    let md = rw.ty(*m)?.dims.clone()?;
    let n = md.len();
    if n < 2 || !md[n - 2].same(sq) || !md[n - 1].same(skv) {
        return None;
    }
    let mut attrs: Vec<(&str, AttrValue)> = head.attrs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    match prove_mask(rw, *m)? {
        BoolMask::All(true) => {}
        BoolMask::Causal(0) if sq.same(skv) => {
            attrs.retain(|(k, _)| *k != "is_causal");
            attrs.push(("is_causal", AttrValue::Int(1)));
        }
        _ => return None,
    }
    rw.add_like(Head::new("Attention", attrs), vec![*q, *k, *v], class)
}

/// `Attention(q, k, v, m)` with a boolean mask `m [B, 1, Sq, Skv]` proven
/// to be a padding mask, `m[b, 0, q, k] = p[b, k]` for a `[B, Skv]` boolean
/// `p` (Hugging Face builds it with a GatherND of `p` at index tensors made
/// of aranges, And-ed with all-true masks) -> the same op with the mask
/// `Expand(Unsqueeze(p, [1, 2]), [Sq, 1])`: `[B, 1, 1, Skv]` broadcast to
/// the `[B, 1, Sq, Skv]` onnxruntime requires, equal element by element.
fn padding_mask(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let [q, k, v, m] = children else { return None };
    if !plain_attention(head, children) && !three_d_attention(head, children) {
        return None;
    }
    let mt = rw.ty(*m)?.clone();
    let md = mt.dims.clone()?;
    if mt.elem != Some(dtype::BOOL) || md.len() != 4 || md[1] != Dim::Static(1) {
        return None;
    }
    let BoolMask::Padding(p) = prove_mask(rw, *m)? else { return None };
    let pd = rw.ty(p)?.dims.clone()?;
    let unsqueezed_dims = vec![pd[0].clone(), Dim::Static(1), Dim::Static(1), pd[1].clone()];
    // The query length as a 1-element tensor: from p's own shape when it is
    // p's key length (through the Cast p is often made by), else a constant
    // or a function argument's shape.
    let sq = &md[2];
    let source = rw
        .producers(p, "Cast")
        .into_iter()
        .map(|(_, c)| c[0])
        .find(|x| rw.ty(*x).and_then(|t| t.dims.as_ref()).is_some_and(|d| d.len() == 2 && d[1].same(&pd[1])))
        .unwrap_or(p);
    let sq_value = match sq {
        Dim::Static(n) => rw.const_i64s(&[*n]),
        _ if sq.same(&pd[1]) => rw.add(
            Head::new("Shape", vec![("end", AttrValue::Int(2)), ("start", AttrValue::Int(1))]),
            vec![source],
            TyInfo::tensor(dtype::INT64, vec![Dim::Static(1)]),
        ),
        _ => super::rotary::dim_value(rw, sq)?,
    };
    let one = i64s(rw, &[1]);
    let shape = rw.add(
        Head::new("Concat", vec![("axis", AttrValue::Int(0))]),
        vec![sq_value, one],
        TyInfo::tensor(dtype::INT64, vec![Dim::Static(2)]),
    );
    let axes = i64s(rw, &[1, 2]);
    let unsqueezed =
        rw.add(Head::new("Unsqueeze", vec![]), vec![p, axes], TyInfo::tensor(dtype::BOOL, unsqueezed_dims));
    let mask = rw.add(Head::new("Expand", vec![]), vec![unsqueezed, shape], TyInfo { raw: None, ..mt });
    if rw.egraph.find(mask) == rw.egraph.find(*m) {
        return None;
    }
    rw.add_like(head.clone(), vec![*q, *k, *v, mask], class)
}

/// A 1-D int64 constant holding `values`: one the block already has, else a
/// new one (a rule's constant does not hash like an imported one).
fn i64s(rw: &mut Rw<'_>, values: &[i64]) -> Id {
    let constant = Symbol::from("Constant");
    let existing = rw.view.classes_for_op(&Discriminant::Op(constant)).and_then(|ids| {
        ids.filter(|&id| {
            rw.ints(id).as_deref() == Some(values)
                && rw.ty(id).is_some_and(|t| {
                    t.elem == Some(dtype::INT64) && t.dims.as_deref() == Some(&[Dim::Static(values.len() as i64)])
                })
        })
        .min()
    });
    match existing {
        Some(id) => id,
        None => rw.const_i64s(values),
    }
}

/// A 3-D Attention the rules made (`q_num_heads`, `kv_num_heads`).
fn three_d_attention(head: &Head, children: &[Id]) -> bool {
    head.results == 1
        && (3..=4).contains(&children.len())
        && head.int("q_num_heads").is_some()
        && head.int("kv_num_heads").is_some()
        && head
            .attrs
            .iter()
            .all(|(k, _)| matches!(k.as_str(), "scale" | "is_causal" | "softcap" | "q_num_heads" | "kv_num_heads"))
}
