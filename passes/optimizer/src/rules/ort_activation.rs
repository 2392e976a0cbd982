//! onnxruntime contrib activations (target `onnxruntime` only).
//!
//! - `quick-gelu`: `x * Sigmoid(x)` (SiLU, the gate of Llama's MLP) and
//!   `x * Sigmoid(x * alpha)` (QuickGelu proper, alpha = 1.702) ->
//!   `com.microsoft.QuickGelu(x) {alpha}`: one node instead of two (three).
//! - `fast-gelu`: `Gelu(x + b) {approximate = "tanh"}` (opset 20 on), or
//!   the tanh approximation spelled out in elementary ops (below opset 20,
//!   where the standard Gelu does not exist) -> `com.microsoft.FastGelu(x, b)`;
//! - `bias-gelu`: the exact Gelu of `x + b` spelled out in elementary ops
//!   (`0.5 * y * (1 + Erf(y / sqrt 2))`, `y = x + b`), below opset 20 ->
//!   `com.microsoft.BiasGelu(x, b)`: the bias Add of a linear layer folded
//!   into the activation, `b` a float32 `[N]` vector over the last axis.
//!
//! Where they pay (onnxruntime 1.32, CPU, one thread, interleaved against
//! the standard ops, docs/benchmarks.md): with graph optimizations enabled
//! onnxruntime fuses Add + Gelu itself (BiasGelu / FastGelu) and Sigmoid +
//! Mul (QuickGelu), so the rules change nothing there; with them disabled
//! QuickGelu runs in 0.61-0.72x the time of Sigmoid + Mul and FastGelu in
//! 0.80-0.89x of Add + Gelu(tanh), at every size measured (2 x 1..65 rows,
//! 64 and 256 wide), but BiasGelu in 1.06-1.10x of Add + Gelu from 16 rows
//! of 256 (0.87-1.0x below): the standard exact Gelu (opset 20) is not
//! replaced, only its 6-op spelled-out form of older opsets is.
//!
//! x is float32 (the only type of the CPU kernels). Checked in onnxruntime
//! 1.32 (CPU, graph optimizations off and on): QuickGelu and FastGelu of a
//! standard Gelu are bit-identical to the ops they replace, NaN, infinities
//! and signed zeros included; from the spelled-out forms (below opset 20)
//! the values differ by rounding only (the numeric check's 1e-5 tolerance,
//! NaN where NaN).

use super::{
    pattern::{PatternRule, Rhs},activation, both_orders, ort_normalization::ms_head, Apply, Rule, Rw};
use crate::lang::{dtype, AttrValue, Head};
use egg::Id;

pub static RULES: &[Rule] = &[
    Rule {
        name: "quick-gelu",
        roots: &["Mul"],
        min_opset: 1,
        summary: "x * Sigmoid(x) and x * Sigmoid(alpha * x) -> com.microsoft.QuickGelu(x) {alpha} (float32)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Mul ?x (Sigmoid ?arg))",
            when: |rw, m| is_f32(rw, m["x"]) && rw.same_type(m.root(), m["x"]) && sigmoid_scale(rw, m["arg"], m["x"]).is_some(),
            rhs: Rhs::Build(|rw, m| {
                let alpha = sigmoid_scale(rw, m["arg"], m["x"])?;
                rw.add_like(ms_head("QuickGelu", vec![("alpha", AttrValue::float(alpha))]), vec![m["x"]], m.root())
            }),
        }),
        example: r#"
func.func @f(%x: tensor<?x5x16xf32, ["s0"]>) -> (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>) {
  %s = "onnx.Sigmoid"(%x) : (tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %y = "onnx.Mul"(%x, %s) : (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %a = "onnx.Constant"() {value = dense<1.702> : tensor<f32>} : () -> tensor<f32>
  %xa = "onnx.Mul"(%a, %x) : (tensor<f32>, tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %t = "onnx.Sigmoid"(%xa) : (tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %z = "onnx.Mul"(%t, %x) : (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  return %y, %z : tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "bias-gelu",
        roots: &["Mul"],
        min_opset: 1,
        summary: "below opset 20: 0.5 * y * (1 + Erf(y / sqrt 2)), y = x + b, b [N] over the last axis -> com.microsoft.BiasGelu(x, b) (float32)",
        apply: Apply::Fn(bias_gelu),
        example: r#"
// opset 18
func.func @f(%x: tensor<?x5x16xf32, ["s0"]>, %b: tensor<16xf32>) -> tensor<?x5x16xf32, ["s0"]> {
  %s = "onnx.Add"(%x, %b) : (tensor<?x5x16xf32, ["s0"]>, tensor<16xf32>) -> tensor<?x5x16xf32, ["s0"]>
  %r2 = "onnx.Constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %d = "onnx.Div"(%s, %r2) : (tensor<?x5x16xf32, ["s0"]>, tensor<f32>) -> tensor<?x5x16xf32, ["s0"]>
  %e = "onnx.Erf"(%d) : (tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%e, %one) : (tensor<?x5x16xf32, ["s0"]>, tensor<f32>) -> tensor<?x5x16xf32, ["s0"]>
  %m = "onnx.Mul"(%s, %a) : (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %y = "onnx.Mul"(%m, %half) : (tensor<?x5x16xf32, ["s0"]>, tensor<f32>) -> tensor<?x5x16xf32, ["s0"]>
  return %y : tensor<?x5x16xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "fast-gelu",
        roots: &["Gelu", "Mul"],
        min_opset: 1,
        summary:
            "Gelu(x + b) {approximate = \"tanh\"} (or its spelled-out form below opset 20), b [N] over the last axis -> com.microsoft.FastGelu(x, b) (float32)",
        apply: Apply::Fn(fast_gelu),
        example: r#"
func.func @f(%x: tensor<?x5x16xf32, ["s0"]>, %b: tensor<16xf32>) -> tensor<?x5x16xf32, ["s0"]> {
  %s = "onnx.Add"(%b, %x) : (tensor<16xf32>, tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %y = "onnx.Gelu"(%s) {approximate = "tanh"} : (tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  return %y : tensor<?x5x16xf32, ["s0"]>
}"#,
    },
];

fn is_f32(rw: &Rw<'_>, id: Id) -> bool {
    rw.elem(id) == Some(dtype::FLOAT)
}

/// `alpha` when `arg` is `x` (1.0) or `x * alpha` with `alpha` a finite
/// one-element float32 constant that does not broadcast `x`.
fn sigmoid_scale(rw: &Rw<'_>, arg: Id, x: Id) -> Option<f32> {
    if rw.find(arg) == rw.find(x) {
        return Some(1.0);
    }
    for (h, c) in rw.producers(arg, "Mul") {
        if !h.attrs.is_empty() || !rw.same_type(arg, x) {
            continue;
        }
        for (y, k) in both_orders(&c) {
            if rw.find(y) != rw.find(x) || !is_f32(rw, k) {
                continue;
            }
            if let Some(a) = rw.scalar(k).filter(|a| a.is_finite()) {
                return Some(a as f32);
            }
        }
    }
    None
}
/// `(x, b)` when `s` is `x + b` (either order) with `x` of `s`'s float32
/// type and `b` a float32 `[N]`, N the last dim of `x`.
fn biased(rw: &Rw<'_>, s: Id) -> Option<(Id, Id)> {
    for (h, c) in rw.producers(s, "Add") {
        if !h.attrs.is_empty() {
            continue;
        }
        for (x, b) in both_orders(&c) {
            let Some(xt) = rw.ty(x) else { continue };
            let last = xt.dims.as_ref().and_then(|d| d.last()).cloned();
            let fits = rw.ty(b).is_some_and(|bt| {
                bt.elem == Some(dtype::FLOAT)
                    && bt.rank() == Some(1)
                    && matches!((&bt.dims.as_ref().unwrap()[0], &last), (a, Some(l)) if a.same(l))
            });
            if fits && is_f32(rw, x) && rw.same_type(x, s) {
                return Some((x, b));
            }
        }
    }
    None
}

fn gelu_with_bias(rw: &mut Rw<'_>, class: Id, s: Id, op: &str) -> Option<Id> {
    if !rw.same_type(class, s) {
        return None;
    }
    let (x, b) = biased(rw, s)?;
    rw.add_like(ms_head(op, vec![]), vec![x, b], class)
}

/// The Gelu operand when the root is a spelled-out Gelu (a `Mul`) and the
/// opset has no standard Gelu (below 20: from 20 on `activation/gelu-*`
/// make the standard op, which the `Gelu` roots see).
fn spelled_out(rw: &Rw<'_>, class: Id, head: &Head, children: &[Id], tanh: bool) -> Option<Id> {
    if rw.opset() >= 20 || !head.attrs.is_empty() {
        return None;
    }
    activation::spelled_out_gelu(rw, class, children, tanh)
}

fn bias_gelu(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    if !head.is("Mul") {
        return None;
    }
    let s = spelled_out(rw, class, head, children, false)?;
    gelu_with_bias(rw, class, s, "BiasGelu")
}

fn fast_gelu(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let s = match head.is("Gelu") {
        true => {
            if head.attrs.len() != 1 || head.attr("approximate") != Some(&AttrValue::Str("tanh".into())) {
                return None;
            }
            let [s] = children[..] else { return None };
            s
        }
        false => spelled_out(rw, class, head, children, true)?,
    };
    gelu_with_bias(rw, class, s, "FastGelu")
}
