//! Activations spelled out in elementary ops, fused into the standard op
//! when the target opset has it: Gelu (opset 20), exact (erf) and tanh
//! forms.
//!
//! `0.5 * x * (1 + Erf(x / sqrt(2)))` -> `Gelu(x)` and
//! `0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))` ->
//! `Gelu(x, approximate = "tanh")`, whatever the grouping of the three
//! factors of the outer product and the order of commutative operands.
//! Constants must be one-element float constants within 1e-6 (relative) of
//! the formula's; x must be a float tensor with the result's type.

use super::{
    both_orders,
    pattern::{PatternRule, Rhs},
    Apply, Rule, Rw,
};
use crate::lang::{dtype, AttrValue, Head};
use egg::Id;

pub static RULES: &[Rule] = &[
    Rule {
        name: "gelu-erf",
        roots: &["Mul"],
        min_opset: 20,
        summary: "0.5 * x * (1 + Erf(x / sqrt(2))) -> Gelu(x)",
        apply: Apply::Fn(gelu_erf),
        example: r#"
func.func @f(%x: tensor<2x?x8xf32, ["s0"]>) -> tensor<2x?x8xf32, ["s0"]> {
  %r2 = "onnx.Constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %d = "onnx.Div"(%x, %r2) : (tensor<2x?x8xf32, ["s0"]>, tensor<f32>) -> tensor<2x?x8xf32, ["s0"]>
  %e = "onnx.Erf"(%d) : (tensor<2x?x8xf32, ["s0"]>) -> tensor<2x?x8xf32, ["s0"]>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%e, %one) : (tensor<2x?x8xf32, ["s0"]>, tensor<f32>) -> tensor<2x?x8xf32, ["s0"]>
  %m = "onnx.Mul"(%x, %a) : (tensor<2x?x8xf32, ["s0"]>, tensor<2x?x8xf32, ["s0"]>) -> tensor<2x?x8xf32, ["s0"]>
  %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %y = "onnx.Mul"(%m, %half) : (tensor<2x?x8xf32, ["s0"]>, tensor<f32>) -> tensor<2x?x8xf32, ["s0"]>
  return %y : tensor<2x?x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "gelu-tanh",
        roots: &["Mul"],
        min_opset: 20,
        summary: "0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3))) -> Gelu(x, approximate = \"tanh\")",
        apply: Apply::Fn(gelu_tanh),
        example: r#"
func.func @f(%x: tensor<2x?x8xf32, ["s0"]>) -> tensor<2x?x8xf32, ["s0"]> {
  %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %h = "onnx.Mul"(%x, %half) : (tensor<2x?x8xf32, ["s0"]>, tensor<f32>) -> tensor<2x?x8xf32, ["s0"]>
  %three = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %c = "onnx.Pow"(%x, %three) : (tensor<2x?x8xf32, ["s0"]>, tensor<f32>) -> tensor<2x?x8xf32, ["s0"]>
  %k = "onnx.Constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
  %ck = "onnx.Mul"(%c, %k) : (tensor<2x?x8xf32, ["s0"]>, tensor<f32>) -> tensor<2x?x8xf32, ["s0"]>
  %s = "onnx.Add"(%x, %ck) : (tensor<2x?x8xf32, ["s0"]>, tensor<2x?x8xf32, ["s0"]>) -> tensor<2x?x8xf32, ["s0"]>
  %g = "onnx.Constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %sg = "onnx.Mul"(%s, %g) : (tensor<2x?x8xf32, ["s0"]>, tensor<f32>) -> tensor<2x?x8xf32, ["s0"]>
  %t = "onnx.Tanh"(%sg) : (tensor<2x?x8xf32, ["s0"]>) -> tensor<2x?x8xf32, ["s0"]>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%t, %one) : (tensor<2x?x8xf32, ["s0"]>, tensor<f32>) -> tensor<2x?x8xf32, ["s0"]>
  %y = "onnx.Mul"(%h, %a) : (tensor<2x?x8xf32, ["s0"]>, tensor<2x?x8xf32, ["s0"]>) -> tensor<2x?x8xf32, ["s0"]>
  return %y : tensor<2x?x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "hard-swish",
        roots: &["Mul"],
        min_opset: 14,
        summary: "x * HardSigmoid(x) {alpha = 1/6, beta = 0.5} -> HardSwish(x) (older exports of MobileNetV3)",
        // HardSwish is `x * HardSigmoid(x)` with alpha 1/6 and beta 0.5 (ONNX's
        // definition), for the same float `x` on both sides.
        apply: Apply::Pattern(PatternRule {
            lhs: "(Mul ?x ?h=(HardSigmoid{..} ?x))",
            when: |rw, m| {
                let h = m.head("h");
                let alpha = h.float("alpha").map(f64::from);
                let beta = h.float("beta").map_or(0.5, f64::from);
                let known = h.attrs.iter().all(|(k, _)| matches!(k.as_str(), "alpha" | "beta"));
                rw.elem(m["x"]).is_some_and(dtype::is_float)
                    && known
                    && alpha.is_some_and(|a| (a - 1.0 / 6.0).abs() <= 1e-6 / 6.0)
                    && beta == 0.5
                    && rw.same_type(m["h"], m["x"])
            },
            rhs: Rhs::Template("(HardSwish ?x)"),
        }),
        example: r#"
func.func @f(%x: tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32> {
  %h = "onnx.HardSigmoid"(%x) {alpha = 0.166666672 : f32} : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %y = "onnx.Mul"(%x, %h) : (tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}"#,
    },
];

/// True when `id` is a one-element float constant within 1e-6 (relative) of `want`.
fn is_const(rw: &Rw<'_>, id: Id, want: f64) -> bool {
    rw.ty(id).and_then(|t| t.elem).is_some_and(dtype::is_float)
        && rw.scalar(id).is_some_and(|v| (v - want).abs() <= 1e-6 * want.abs())
}

/// The triples `(c, x, a)` whose product is the root `Mul(children)`, in
/// every grouping: `(c*x)*a`, `c*(x*a)`, ... with commutative orders.
fn three_factors(rw: &Rw<'_>, children: &[Id]) -> Vec<[Id; 3]> {
    let mut out = Vec::new();
    for (u, v) in both_orders(children) {
        for (_, pq) in rw.producers(v, "Mul") {
            if let [p, q] = pq[..] {
                for [a, b, c] in [[u, p, q], [u, q, p], [p, u, q], [p, q, u], [q, u, p], [q, p, u]] {
                    out.push([a, b, c]);
                }
            }
        }
    }
    out
}

/// `x` when `arg` is `x / sqrt(2)` or `x * (1 / sqrt(2))`.
fn erf_argument(rw: &Rw<'_>, arg: Id) -> Vec<Id> {
    let mut out: Vec<Id> = rw
        .producers(arg, "Div")
        .into_iter()
        .filter(|(_, c)| is_const(rw, c[1], std::f64::consts::SQRT_2))
        .map(|(_, c)| c[0])
        .collect();
    for (_, c) in rw.producers(arg, "Mul") {
        for (x, k) in both_orders(&c) {
            if is_const(rw, k, std::f64::consts::FRAC_1_SQRT_2) {
                out.push(x);
            }
        }
    }
    out
}

/// `x` when `arg` is `sqrt(2/pi) * (x + 0.044715 * x^3)` (any operand order).
fn tanh_argument(rw: &Rw<'_>, arg: Id) -> Vec<Id> {
    let sqrt_2_pi = (2.0 / std::f64::consts::PI).sqrt();
    let mut out = Vec::new();
    for (_, c) in rw.producers(arg, "Mul") {
        for (s, k) in both_orders(&c) {
            if !is_const(rw, k, sqrt_2_pi) {
                continue;
            }
            for (_, add) in rw.producers(s, "Add") {
                for (x, cube_k) in both_orders(&add) {
                    for (_, m) in rw.producers(cube_k, "Mul") {
                        for (cube, k2) in both_orders(&m) {
                            let is_cube = rw.producers(cube, "Pow").iter().any(|(h, pc)| {
                                h.attrs.is_empty() && rw.find(pc[0]) == rw.find(x) && is_const(rw, pc[1], 3.0)
                            });
                            if is_cube && is_const(rw, k2, 0.044715) {
                                out.push(x);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

fn gelu(rw: &mut Rw<'_>, class: Id, children: &[Id], kind: &str, argument: fn(&Rw<'_>, Id) -> Vec<Id>) -> Option<Id> {
    let x = spelled_gelu(rw, class, children, kind, argument)?;
    let attrs = if kind == "Tanh" { vec![("approximate", AttrValue::Str("tanh".into()))] } else { vec![] };
    rw.add_like(Head::new("Gelu", attrs), vec![x], class)
}

/// `x` when the root `Mul(children)` (e-class `class`) is Gelu of `x`
/// spelled out in elementary ops: the exact (erf) form, or with `tanh` the
/// tanh approximation. (`ort_activation` uses it below opset 20.)
pub fn spelled_out_gelu(rw: &Rw<'_>, class: Id, children: &[Id], tanh: bool) -> Option<Id> {
    match tanh {
        true => spelled_gelu(rw, class, children, "Tanh", tanh_argument),
        false => spelled_gelu(rw, class, children, "Erf", erf_argument),
    }
}

fn spelled_gelu(
    rw: &Rw<'_>,
    class: Id,
    children: &[Id],
    kind: &str,
    argument: fn(&Rw<'_>, Id) -> Vec<Id>,
) -> Option<Id> {
    for [half, x, a] in three_factors(rw, children) {
        if !is_const(rw, half, 0.5) || !rw.same_type(class, x) || !rw.elem(x).is_some_and(dtype::is_float) {
            continue;
        }
        for (_, add) in rw.producers(a, "Add") {
            for (t, one) in both_orders(&add) {
                if !is_const(rw, one, 1.0) {
                    continue;
                }
                for (h, arg) in rw.producers(t, kind) {
                    if !h.attrs.is_empty() || !argument(rw, arg[0]).iter().any(|&y| rw.find(y) == rw.find(x)) {
                        continue;
                    }
                    return Some(x);
                }
            }
        }
    }
    None
}

fn gelu_erf(rw: &mut Rw<'_>, class: Id, _head: &Head, children: &[Id]) -> Option<Id> {
    gelu(rw, class, children, "Erf", erf_argument)
}

fn gelu_tanh(rw: &mut Rw<'_>, class: Id, _head: &Head, children: &[Id]) -> Option<Id> {
    gelu(rw, class, children, "Tanh", tanh_argument)
}
