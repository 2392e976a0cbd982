//! Normalizations spelled out in elementary ops, fused into the standard op
//! when the target opset has it: RMSNormalization (opset 23),
//! LayerNormalization (opset 17; `d = x - ReduceMean(x)`,
//! `d / Sqrt(ReduceMean(d^2) + eps)`, then the scale and the bias).
//!
//! Conditions checked before fusing: the reduction is a ReduceMean with
//! keepdims over exactly the trailing axes (a constant axes input), the
//! square is `Pow(x, 2.0)` or `x * x` of the same `x` that is divided,
//! epsilon is a one-element constant added to the mean (either side), the
//! result has x's type, and x is float32 (the fused op's epsilon attribute
//! is a float32: other element types would round epsilon differently).

use super::{
    pattern::{PatternRule, Rhs},both_orders, norm_axis, Apply, Rule, Rw};
use crate::{
    analysis::{Dim, TyInfo},
    lang::{dtype, AttrValue, Head, Tensor, Values},
};
use egg::Id;

pub static RULES: &[Rule] = &[
    Rule {
        name: "rms-normalization",
        roots: &["Div", "Mul"],
        min_opset: 23,
        summary: "x / Sqrt(ReduceMean(x^2, trailing axes) + eps), or x * Reciprocal(Sqrt(..)), -> RMSNormalization(x, ones, axis, eps)",
        apply: Apply::Fn(rms_normalization),
        example: r#"
func.func @f(%x: tensor<?x3x8xf32, ["s0"]>) -> tensor<?x3x8xf32, ["s0"]> {
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %sq = "onnx.Pow"(%x, %two) : (tensor<?x3x8xf32, ["s0"]>, tensor<f32>) -> tensor<?x3x8xf32, ["s0"]>
  %axes = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "onnx.ReduceMean"(%sq, %axes) {keepdims = 1 : i64} : (tensor<?x3x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x3x1xf32, ["s0"]>
  %eps = "onnx.Constant"() {value = dense<1.0e-6> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%m, %eps) : (tensor<?x3x1xf32, ["s0"]>, tensor<f32>) -> tensor<?x3x1xf32, ["s0"]>
  %s = "onnx.Sqrt"(%a) : (tensor<?x3x1xf32, ["s0"]>) -> tensor<?x3x1xf32, ["s0"]>
  %r = "onnx.Reciprocal"(%s) : (tensor<?x3x1xf32, ["s0"]>) -> tensor<?x3x1xf32, ["s0"]>
  %n = "onnx.Mul"(%x, %r) : (tensor<?x3x8xf32, ["s0"]>, tensor<?x3x1xf32, ["s0"]>) -> tensor<?x3x8xf32, ["s0"]>
  return %n : tensor<?x3x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "rms-normalization-scale",
        roots: &["Mul"],
        min_opset: 23,
        summary: "RMSNormalization(x, ones) * w -> RMSNormalization(x, w) when w has the normalized shape",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Mul ?w ?n=(RMSNormalization{..} ?x ?ones))",
            when: |rw, m| {
                let (Some(v), Some(ones_ty), Some(w_ty)) = (rw.values(m["ones"]), rw.ty(m["ones"]), rw.ty(m["w"])) else {
                    return false;
                };
                let same_shape = ones_ty.static_shape().is_some() && ones_ty.static_shape() == w_ty.static_shape();
                v.all_eq(1.0) && same_shape && w_ty.elem == Some(dtype::FLOAT) && rw.same_type(m.root(), m["x"])
            },
            rhs: Rhs::Build(|rw, m| {
                let ty: TyInfo = rw.ty(m.root())?.clone();
                Some(rw.add(m.head("n").clone(), vec![m["x"], m["w"]], ty))
            }),
        }),
        example: r#"
func.func @f(%x: tensor<?x3x8xf32, ["s0"]>, %w: tensor<8xf32>) -> tensor<?x3x8xf32, ["s0"]> {
  %xx = "onnx.Mul"(%x, %x) : (tensor<?x3x8xf32, ["s0"]>, tensor<?x3x8xf32, ["s0"]>) -> tensor<?x3x8xf32, ["s0"]>
  %axes = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "onnx.ReduceMean"(%xx, %axes) : (tensor<?x3x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x3x1xf32, ["s0"]>
  %eps = "onnx.Constant"() {value = dense<1.0e-5> : tensor<1xf32>} : () -> tensor<1xf32>
  %a = "onnx.Add"(%eps, %m) : (tensor<1xf32>, tensor<?x3x1xf32, ["s0"]>) -> tensor<?x3x1xf32, ["s0"]>
  %s = "onnx.Sqrt"(%a) : (tensor<?x3x1xf32, ["s0"]>) -> tensor<?x3x1xf32, ["s0"]>
  %n = "onnx.Div"(%x, %s) : (tensor<?x3x8xf32, ["s0"]>, tensor<?x3x1xf32, ["s0"]>) -> tensor<?x3x8xf32, ["s0"]>
  %y = "onnx.Mul"(%w, %n) : (tensor<8xf32>, tensor<?x3x8xf32, ["s0"]>) -> tensor<?x3x8xf32, ["s0"]>
  return %y : tensor<?x3x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "layer-normalization",
        roots: &["Div", "Mul"],
        min_opset: 17,
        summary: "(x - mean) / Sqrt(ReduceMean((x - mean)^2) + eps), or times Reciprocal(Sqrt(..)), mean over the trailing axes -> LayerNormalization(x, ones, axis, eps)",
        apply: Apply::Fn(layer_normalization),
        example: r#"
func.func @f(%x: tensor<?x4x8xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]> {
  %axes = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %mean = "onnx.ReduceMean"(%x, %axes) {keepdims = 1 : i64} : (tensor<?x4x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x4x1xf32, ["s0"]>
  %d = "onnx.Sub"(%x, %mean) : (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x1xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %sq = "onnx.Pow"(%d, %two) : (tensor<?x4x8xf32, ["s0"]>, tensor<f32>) -> tensor<?x4x8xf32, ["s0"]>
  %var = "onnx.ReduceMean"(%sq, %axes) {keepdims = 1 : i64} : (tensor<?x4x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x4x1xf32, ["s0"]>
  %eps = "onnx.Constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%var, %eps) : (tensor<?x4x1xf32, ["s0"]>, tensor<f32>) -> tensor<?x4x1xf32, ["s0"]>
  %s = "onnx.Sqrt"(%a) : (tensor<?x4x1xf32, ["s0"]>) -> tensor<?x4x1xf32, ["s0"]>
  %n = "onnx.Div"(%d, %s) : (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x1xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  return %n : tensor<?x4x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "layer-normalization-affine",
        roots: &["Add"],
        min_opset: 17,
        summary: "LayerNormalization(x, ones) * w + b -> LayerNormalization(x, w, b) when w and b have the normalized shape",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Add (Mul ?w ?n=(LayerNormalization{..} ?x ?ones)) ?b)",
            when: |rw, m| {
                let ones = m["ones"];
                rw.values(ones).is_some_and(|v| v.all_eq(1.0))
                    && same_static_shape(rw, m["w"], ones)
                    && same_static_shape(rw, m["b"], ones)
                    && rw.same_type(m.root(), m["x"])
            },
            rhs: Rhs::Build(|rw, m| rw.add_like(m.head("n").clone(), vec![m["x"], m["w"], m["b"]], m.root())),
        }),
        example: r#"
func.func @f(%x: tensor<?x4x8xf32, ["s0"]>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<?x4x8xf32, ["s0"]> {
  %axes = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %mean = "onnx.ReduceMean"(%x, %axes) : (tensor<?x4x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x4x1xf32, ["s0"]>
  %d = "onnx.Sub"(%x, %mean) : (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x1xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  %sq = "onnx.Mul"(%d, %d) : (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x8xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  %var = "onnx.ReduceMean"(%sq, %axes) : (tensor<?x4x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x4x1xf32, ["s0"]>
  %eps = "onnx.Constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%eps, %var) : (tensor<f32>, tensor<?x4x1xf32, ["s0"]>) -> tensor<?x4x1xf32, ["s0"]>
  %s = "onnx.Sqrt"(%a) : (tensor<?x4x1xf32, ["s0"]>) -> tensor<?x4x1xf32, ["s0"]>
  %r = "onnx.Reciprocal"(%s) : (tensor<?x4x1xf32, ["s0"]>) -> tensor<?x4x1xf32, ["s0"]>
  %n = "onnx.Mul"(%d, %r) : (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x1xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  %y = "onnx.Mul"(%w, %n) : (tensor<8xf32>, tensor<?x4x8xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  %z = "onnx.Add"(%y, %b) : (tensor<?x4x8xf32, ["s0"]>, tensor<8xf32>) -> tensor<?x4x8xf32, ["s0"]>
  return %z : tensor<?x4x8xf32, ["s0"]>
}"#,
    },
];

/// The first normalized axis when `axes` (a constant) are exactly the
/// trailing axes of a rank-`rank` tensor.
fn trailing_axis(rw: &Rw<'_>, axes: Id, rank: usize) -> Option<usize> {
    let mut axes: Vec<usize> = rw.ints(axes)?.into_iter().map(|a| norm_axis(a, rank)).collect::<Option<_>>()?;
    axes.sort_unstable();
    axes.dedup();
    let first = *axes.first()?;
    (axes.len() == rank - first && axes.iter().enumerate().all(|(i, &a)| a == first + i)).then_some(first)
}

/// True when `sq` is `x^2` (`Pow(x, 2.0)` or `Mul(x, x)`).
fn is_square_of(rw: &Rw<'_>, sq: Id, x: Id) -> bool {
    let x = rw.find(x);
    rw.producers(sq, "Pow")
        .iter()
        .any(|(h, c)| h.attrs.is_empty() && rw.find(c[0]) == x && rw.scalar(c[1]) == Some(2.0))
        || rw.producers(sq, "Mul").iter().any(|(_, c)| rw.find(c[0]) == x && rw.find(c[1]) == x)
}

/// `(axis, epsilon)` when `den` is `Sqrt(ReduceMean(x^2, trailing) + eps)`.
fn rms_denominator(rw: &Rw<'_>, den: Id, x: Id, rank: usize) -> Option<(usize, f32)> {
    for (sqrt_head, s) in rw.producers(den, "Sqrt") {
        if !sqrt_head.attrs.is_empty() {
            continue;
        }
        for (_, add) in rw.producers(s[0], "Add") {
            for (mean, eps) in both_orders(&add) {
                let Some(e) = rw.scalar(eps).filter(|e| e.is_finite() && *e >= 0.0) else { continue };
                if rw.elem(eps) != Some(dtype::FLOAT) {
                    continue;
                }
                for (rm, r) in rw.producers(mean, "ReduceMean") {
                    let keepdims = rm.int("keepdims").unwrap_or(1) == 1;
                    let plain = rm.attrs.iter().all(|(k, v)| match k.as_str() {
                        "keepdims" => true,
                        "noop_with_empty_axes" => *v == AttrValue::Int(0),
                        _ => false,
                    });
                    if !keepdims || !plain || r.len() != 2 || !is_square_of(rw, r[0], x) {
                        continue;
                    }
                    if let Some(axis) = trailing_axis(rw, r[1], rank) {
                        return Some((axis, e as f32));
                    }
                }
            }
        }
    }
    None
}

/// `(numerator, denominator)` pairs of a normalization's last step: `n / d`,
/// or `n * Reciprocal(d)` or `n * (1 / d)` (either order; how `rsqrt` is
/// lowered, and the TorchScript exporter's spelling). They differ in the
/// last bit only, and the fused op rounds its own way anyway; `algebra` no
/// longer rewrites one into the other (it is not an identity).
fn quotients(rw: &Rw<'_>, head: &Head, children: &[Id]) -> Vec<(Id, Id)> {
    if !head.attrs.is_empty() || !head.domain.as_str().is_empty() {
        return vec![];
    }
    match (head.op.as_str(), children) {
        ("Div", [n, d]) => vec![(*n, *d)],
        ("Mul", _) => both_orders(children)
            .into_iter()
            .flat_map(|(n, r)| {
                let reciprocals = rw
                    .producers(r, "Reciprocal")
                    .into_iter()
                    .filter(|(h, c)| h.attrs.is_empty() && c.len() == 1)
                    .map(|(_, c)| c[0]);
                let one_over = rw
                    .producers(r, "Div")
                    .into_iter()
                    .filter(|(h, c)| {
                        h.attrs.is_empty()
                            && c.len() == 2
                            && rw.values(c[0]).is_some_and(|v| v.all_eq(1.0))
                            && rw.elem(c[0]) == rw.elem(c[1])
                            && rw.same_type(r, c[1])
                    })
                    .map(|(_, c)| c[1]);
                reciprocals.chain(one_over).map(move |d| (n, d)).collect::<Vec<_>>()
            })
            .collect(),
        _ => vec![],
    }
}

fn rms_normalization(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    quotients(rw, head, children).into_iter().find_map(|(x, den)| rms_normalization_of(rw, class, x, den))
}

fn rms_normalization_of(rw: &mut Rw<'_>, class: Id, x: Id, den: Id) -> Option<Id> {
    let ty = rw.ty(x)?.clone();
    if ty.elem != Some(dtype::FLOAT) || !rw.same_type(class, x) {
        return None;
    }
    let rank = ty.rank()?;
    let (axis, eps) = rms_denominator(rw, den, x, rank)?;
    let normalized: Vec<i64> = ty.dims.as_ref()?[axis..]
        .iter()
        .map(|d| if let Dim::Static(n) = d { Some(*n) } else { None })
        .collect::<Option<_>>()?;
    let count: i64 = normalized.iter().product();
    if count > 1 << 20 {
        return None;
    }
    let ones =
        rw.constant(Tensor::scalar_like(dtype::FLOAT, normalized, Values::from_f64s(&vec![1.0; count as usize])));
    let fused =
        Head::new("RMSNormalization", vec![("axis", AttrValue::Int(axis as i64)), ("epsilon", AttrValue::float(eps))]);
    rw.add_like(fused, vec![x, ones], class)
}
/// The ones scale of a weightless normalization of `x` (float32, static normalized dims).
fn ones_scale(rw: &mut Rw<'_>, ty: &TyInfo, axis: usize) -> Option<Id> {
    let normalized: Vec<i64> = ty.dims.as_ref()?[axis..]
        .iter()
        .map(|d| if let Dim::Static(n) = d { Some(*n) } else { None })
        .collect::<Option<_>>()?;
    let count: i64 = normalized.iter().product();
    if count > 1 << 20 {
        return None;
    }
    Some(rw.constant(Tensor::scalar_like(dtype::FLOAT, normalized, Values::from_f64s(&vec![1.0; count as usize]))))
}

fn layer_normalization(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    quotients(rw, head, children).into_iter().find_map(|(d, den)| layer_normalization_of(rw, class, d, den))
}

fn layer_normalization_of(rw: &mut Rw<'_>, class: Id, d: Id, den: Id) -> Option<Id> {
    for (sub_head, c) in rw.producers(d, "Sub") {
        let [x, mean] = c[..] else { continue };
        let Some(ty) = rw.ty(x).cloned() else { continue };
        if !sub_head.attrs.is_empty() || ty.elem != Some(dtype::FLOAT) || !rw.same_type(class, x) || !rw.same_type(d, x)
        {
            continue;
        }
        let Some(rank) = ty.rank() else { continue };
        let Some((axis, eps)) = rms_denominator(rw, den, d, rank) else { continue };
        // The mean subtracted is ReduceMean(x) over the same axes.
        let mean_ok = rw.producers(mean, "ReduceMean").iter().any(|(rm, r)| {
            r.len() == 2
                && rw.find(r[0]) == rw.find(x)
                && rm.int("keepdims").unwrap_or(1) == 1
                && rm.attrs.iter().all(|(k, v)| {
                    k.as_str() == "keepdims" || (k.as_str() == "noop_with_empty_axes" && *v == AttrValue::Int(0))
                })
                && trailing_axis(rw, r[1], rank) == Some(axis)
        });
        if !mean_ok {
            continue;
        }
        let Some(ones) = ones_scale(rw, &ty, axis) else { continue };
        let fused = Head::new(
            "LayerNormalization",
            vec![("axis", AttrValue::Int(axis as i64)), ("epsilon", AttrValue::float(eps))],
        );
        return rw.add_like(fused, vec![x, ones], class);
    }
    None
}

/// True when `w` is a float32 tensor of exactly the static shape of `like`.
fn same_static_shape(rw: &Rw<'_>, w: Id, like: Id) -> bool {
    match (rw.ty(w), rw.ty(like)) {
        (Some(a), Some(b)) => {
            a.elem == Some(dtype::FLOAT) && a.static_shape().is_some() && a.static_shape() == b.static_shape()
        }
        _ => false,
    }
}
