//! Algebraic simplification. Only identities that hold exactly for every
//! input, NaN, infinities and signed zeros included: `x * 0` is not `0`
//! (NaN, inf), float `x + 0.0` is not `x` (`-0.0 + 0.0 = +0.0`; only
//! `x + (-0.0)` is), `x - 0.0` is. A constant operand must not broadcast the
//! result to a larger shape: every rule checks the result's type equals the
//! surviving operand's.

use super::{
    pattern::{PatternRule, Rhs},
    Apply, Rule, Rw,
};
use crate::{
    analysis::Dim,
    lang::dtype,
};
use egg::Id;

pub static RULES: &[Rule] = &[
    Rule {
        name: "mul-by-one",
        roots: &["Mul"],
        min_opset: 1,
        summary: "x * 1 -> x (either operand; the result keeps x's type)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Mul ?x ?c)",
            when: |rw, m| neutral(rw, m.root(), m["x"], m["c"], |v, _| v.all_eq(1.0)),
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "onnx.Mul"(%one, %x) : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Relu"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "add-zero",
        roots: &["Add"],
        min_opset: 1,
        summary: "x + 0 -> x for integers, x + (-0.0) -> x for floats (x + 0.0 is not x when x = -0.0)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Add ?x ?c)",
            when: |rw, m| {
                neutral(rw, m.root(), m["x"], m["c"], |v, float| if float { v.all_bits(-0.0) } else { v.all_eq(0.0) })
            },
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xi64>, %y: tensor<2x3xf32>) -> (tensor<2x3xi64>, tensor<2x3xf32>) {
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %0 = "onnx.Add"(%x, %zero) : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi64>
  %nzero = "onnx.Constant"() {value = dense<-0.0> : tensor<f32>} : () -> tensor<f32>
  %1 = "onnx.Add"(%nzero, %y) : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %pzero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "onnx.Add"(%1, %pzero) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0, %2 : tensor<2x3xi64>, tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "sub-zero",
        roots: &["Sub"],
        min_opset: 1,
        summary: "x - 0 -> x (integers, and floats with +0.0)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Sub ?x ?c)",
            when: |rw, m| {
                neutral(rw, m.root(), m["x"], m["c"], |v, float| if float { v.all_bits(0.0) } else { v.all_eq(0.0) })
            },
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = "onnx.Sub"(%x, %zero) : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Exp"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "div-by-one",
        roots: &["Div"],
        min_opset: 1,
        summary: "x / 1 -> x",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Div ?x ?c)",
            when: |rw, m| neutral(rw, m.root(), m["x"], m["c"], |v, _| v.all_eq(1.0)),
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %0 = "onnx.Div"(%x, %one) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Tanh"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "double-negation",
        roots: &["Neg"],
        min_opset: 1,
        summary: "Neg(Neg(x)) -> x",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Neg (Neg ?x))",
            when: |rw, m| rw.same_type(m.root(), m["x"]),
            rhs: Rhs::Template("?x"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "onnx.Neg"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Neg"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "onnx.Sigmoid"(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "reciprocal-mul-to-div",
        roots: &["Mul"],
        min_opset: 1,
        summary: "a * Reciprocal(b) -> a / b for a constant b whose every element is a power of two with a representable reciprocal (then both are one rounding of the same number; for any other b they differ: 1e-39 * Reciprocal(2e-39) is inf in float32, 1e-39 / 2e-39 is 0.5)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Mul ?a (Reciprocal ?b))",
            when: |rw, m| rw.elem(m["a"]).is_some() && rw.elem(m["a"]) == rw.elem(m["b"]) && exact_reciprocal(rw, m["b"]),
            rhs: Rhs::Template("(Div ?a ?b)"),
        }),
        example: r#"
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %b = "onnx.Constant"() {value = dense<[[4.0], [-0.125]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %r = "onnx.Reciprocal"(%b) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %0 = "onnx.Mul"(%a, %r) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "one-div-mul-to-div",
        roots: &["Mul"],
        min_opset: 1,
        summary: "a * (1 / b) -> a / b (float) for a constant b whose every element is a power of two with a representable reciprocal, as reciprocal-mul-to-div",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Mul ?a ?r=(Div ?one ?b))",
            when: |rw, m| {
                let b = m["b"];
                rw.elem(b).is_some_and(dtype::is_float)
                    && rw.elem(m["a"]) == rw.elem(b)
                    && rw.elem(m["one"]) == rw.elem(b)
                    && rw.values(m["one"]).is_some_and(|v| v.all_eq(1.0))
                    && rw.same_type(m["r"], b)
                    && exact_reciprocal(rw, b)
            },
            rhs: Rhs::Template("(Div ?a ?b)"),
        }),
        example: r#"
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %b = "onnx.Constant"() {value = dense<[[0.5], [1024.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %r = "onnx.Div"(%one, %b) : (tensor<f32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %0 = "onnx.Mul"(%r, %a) : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}"#,
    },
    Rule {
        name: "add-neg-to-sub",
        roots: &["Add"],
        min_opset: 1,
        summary: "x + Neg(y) -> x - y (either operand order): IEEE 754 defines x - y as x + (-y), so the two are equal for every float (NaN, infinities, signed zeros) and two's-complement integers wrap alike",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Add ?x (Neg ?y))",
            when: |rw, m| rw.elem(m["x"]).is_some() && rw.elem(m["x"]) == rw.elem(m["y"]),
            rhs: Rhs::Template("(Sub ?x ?y)"),
        }),
        example: r#"
func.func @f(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %n = "onnx.Neg"(%y) : (tensor<3xf32>) -> tensor<3xf32>
  %0 = "onnx.Add"(%n, %x) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}"#,
    },
];

/// `x op c` is `x` when c is all `identity` values (`accept`, given whether
/// the type is a float) and the result has x's type.
fn neutral(rw: &Rw<'_>, class: Id, x: Id, c: Id, accept: impl Fn(&crate::lang::Values, bool) -> bool) -> bool {
    let Some(elem) = rw.elem(x) else { return false };
    let Some(values) = rw.values(c) else { return false };
    rw.elem(c) == Some(elem)
        && (rw.same_type(class, x) || broadcasts_into(rw, c, x))
        && accept(values, dtype::is_float(elem))
}

/// True when `c` has no more dims than `x` and all of size 1: `x op c` has
/// x's shape whatever x's unknown dims are.
fn broadcasts_into(rw: &Rw<'_>, c: Id, x: Id) -> bool {
    match (rw.ty(c).and_then(|t| t.dims.as_ref()), rw.ty(x).and_then(|t| t.dims.as_ref())) {
        (Some(dc), Some(dx)) => dc.len() <= dx.len() && dc.iter().all(|d| *d == Dim::Static(1)),
        _ => false,
    }
}

/// True when `1 / b` is exact for every element of the constant `b`: each
/// is `±2^k` and `2^-k` is representable (normal or subnormal) in `b`'s
/// float type. Then `a * (1 / b)` and `a / b` are the same single rounding
/// of `a * 2^-k` for every `a` (NaN, infinities and subnormals included).
/// For any other divisor the two differ, in the last bit for most values
/// and completely where `1 / b` overflows or underflows.
fn exact_reciprocal(rw: &Rw<'_>, b: Id) -> bool {
    // The least and greatest exponents k of 2^k the type represents.
    let (min_exp, max_exp) = match rw.elem(b) {
        Some(dtype::FLOAT) => (-149, 127),
        Some(dtype::DOUBLE) => (-1074, 1023),
        Some(dtype::FLOAT16) => (-24, 15),
        Some(dtype::BFLOAT16) => (-133, 127),
        _ => return false,
    };
    let Some(v) = rw.values(b) else { return false };
    v.len() > 0
        && (0..v.len()).all(|i| {
            let x = v.f64_at(i).abs();
            if !x.is_finite() || x == 0.0 {
                return false;
            }
            // A power of two in f64 (every exponent above is in f64's normal range
            // but -1074, which is still exactly 2^-1074): no mantissa bits.
            let (bits, exp) = (x.to_bits() & ((1u64 << 52) - 1), (x.to_bits() >> 52) as i64 - 1023);
            let k = if exp == -1023 { 63 - bits.leading_zeros() as i64 - 1074 } else { exp };
            let power_of_two = if exp == -1023 { bits.is_power_of_two() } else { bits == 0 };
            power_of_two && (min_exp..=max_exp).contains(&k) && (min_exp..=max_exp).contains(&-k)
        })
}
