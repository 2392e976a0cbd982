use super::math_common::{unranked_bool, is_float_value};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.div.Tensor", true_div)
        .samples(&[
            "self: T[2,3]; other: T[2,3]",
            "self: T[2,3]; other: T[3]",
            "self: T[2,1]; other: T[1,4]",
            "self: T[0,3]; other: T[3]",
            "self: T[2,3]; other: 2.5",
            "self: T[64]; other: 3.3",
            "self: T[64]; other: f32[]",
            "self: T[64]; other: i64[]{1..9}",
        ])
        .complex(super::complex_common::div)
        .complex_samples(&[
            "self: C[2,3]; other: C[2,3]",
            "self: C[2,3]; other: T[3]{pos}",
            "self: T[2,3]; other: C[2,3]",
            "self: C[2,3]; other: 2.5",
        ])
        .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.div.Scalar", true_div)
        .samples(&["self: T[2,3]; other: 2.5", "self: T[0,3]; other: 2", "self: T[]; other: -1.5", "self: T[64]; other: 3.3"])
        .complex(super::complex_common::div)
        .complex_samples(&["self: C[2,3]; other: 2.5"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.div.Tensor_mode", div_mode)
        .samples(&[
            "self: T[2,3]; other: T[2,3]{1..4}; rounding_mode: \"floor\"",
            "self: T[2,3]; other: T[2,3]{1..4}; rounding_mode: \"trunc\"",
            "self: T[2,3]; other: T[2,3]{1..4}; rounding_mode: none",
            "self: T[2,3]; other: T[3]{-4..-1}; rounding_mode: \"floor\"",
            "self: T[2,3]; other: T[3]{-4..-1}; rounding_mode: \"trunc\"",
            "self: T[]; other: T[3]{1..4}; rounding_mode: \"floor\"",
            "self: i64[2,3]{-9..10}; other: i64[2,3]{1..4}; rounding_mode: \"floor\"",
            "self: i64[2,3]{-9..10}; other: i64[2,3]{-4..-1}; rounding_mode: \"trunc\"",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.div.Scalar_mode", div_mode)
        .samples(&[
            "self: T[2,3]; other: 3; rounding_mode: \"floor\"",
            "self: T[2,3]; other: -3; rounding_mode: \"trunc\"",
            "self: T[2,3]; other: -2; rounding_mode: \"floor\"",
            "self: T[2,3]; other: 2; rounding_mode: none",
            "self: T[]; other: 2; rounding_mode: \"trunc\"",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.floor_divide.default", |c| rounded(c, Some("floor")))
        .samples(&[
            "self: T[2,3]; other: T[2,3]{1..4}",
            "self: T[2,3]; other: T[3]{-3..-1}",
            "self: T[]; other: T[2]{1..3}",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.floor_divide.Scalar", |c| rounded(c, Some("floor")))
        .samples(&["self: T[2,3]; other: 3", "self: T[2,3]; other: -2", "self: T[2,3]; other: 1.5"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];

/// `Div`; a float16/bfloat16 tensor divided by a number divides by it in
/// float32, as torch does (common::half_opmath_scalar).
fn true_div<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    if let Some(done) = super::common::half_opmath_scalar(ctx, "Div")? {
        return Ok(done);
    }
    let element = ctx.result_element(0)?;
    let lhs = ctx.tensor_as("self", element)?;
    let rhs = ctx.tensor_as("other", element)?;
    Ok(vec![ctx.b.onnx().div(lhs, rhs).typed(ctx.result_type(0)?)?])
}

fn div_mode<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let mode = if ctx.args.is_none("rounding_mode")? { None } else { Some(ctx.args.string("rounding_mode")?) };
    rounded(ctx, mode.as_deref())
}

/// True division, or division rounded toward -inf ("floor") or 0 ("trunc").
///
/// Floats: torch's floor division (below), or `sign(q) * floor(|q|)` for
/// trunc (a non-zero divided by zero gives +-inf and 0/0 NaN, like torch). Integers are divided exactly in their own type: ONNX integer `Div`
/// truncates, and floor subtracts 1 where the remainder is non-zero and its
/// sign differs from the divisor's. An integer division by zero raises
/// ZeroDivisionError in torch and fails at run time in onnxruntime
/// ("Integer division by zero").
pub(super) fn rounded<'c, 'a>(ctx: &Ctx<'c, 'a>, mode: Option<&str>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let b = &ctx.b;
    if let Some(m) = mode {
        if m != "floor" && m != "trunc" {
            return Err(format!("rounding_mode '{m}' (expected \"floor\", \"trunc\" or None)"));
        }
    }
    let lhs = ctx.tensor_as("self", element)?;
    let rhs = ctx.tensor_as("other", element)?;
    if crate::builder::is_bool(element) {
        return Err("division of bools".into());
    }
    if !is_float_value(lhs) {
        if mode.is_none() {
            return Err("true division with an integer result".into());
        }
        let q = b.onnx().div(lhs, rhs).like(lhs)?;
        if mode == Some("trunc") {
            return Ok(vec![ctx.b.onnx().identity(q).typed(ctx.result_type(0)?)?]);
        }
        let p = b.onnx().mul(q, rhs).like(lhs)?;
        let r = b.onnx().sub(lhs, p).like(lhs)?;
        let zero = b.const_like(lhs, 0.0)?;
        let r_nonzero = ctx.b.onnx().equal(r, zero).typed(unranked_bool(ctx))?;
        let r_nonzero = ctx.b.onnx().not(r_nonzero).typed(unranked_bool(ctx))?;
        let r_neg = ctx.b.onnx().less(r, zero).typed(unranked_bool(ctx))?;
        let d_neg = ctx.b.onnx().less(rhs, zero).typed(unranked_bool(ctx))?;
        let differ = ctx.b.onnx().xor(r_neg, d_neg).typed(unranked_bool(ctx))?;
        let fix = ctx.b.onnx().and(r_nonzero, differ).typed(unranked_bool(ctx))?;
        let one = b.const_like(lhs, 1.0)?;
        let q1 = b.onnx().sub(q, one).like(lhs)?;
        return Ok(vec![ctx.b.onnx().where_(fix, q1, q).typed(ctx.result_type(0)?)?]);
    }
    let q = b.onnx().div(lhs, rhs).like(lhs)?;
    let q = match mode {
        None => q,
        Some("floor") => float_floor_div(ctx, lhs, rhs, q)?,
        _ => {
            // trunc(q) = sign(q) * floor(|q|)
            let a = b.onnx().abs(q).like(q)?;
            let f = b.onnx().floor(a).like(q)?;
            let s = b.onnx().sign(q).like(q)?;
            b.onnx().mul(s, f).like(q)?
        }
    };
    Ok(vec![ctx.b.onnx().identity(q).typed(ctx.result_type(0)?)?])
}

/// torch's float floor division (`div_floor_floating`), which rounds the
/// exact quotient rather than `a / b` (`1.0 // 0.1` is 9, not
/// `floor(10.0)`): `mod = fmod(a, b)`, `div = (a - mod) / b`, minus 1 where
/// `mod` is non-zero and its sign differs from `b`'s; then `floor(div)`,
/// plus 1 where `div - floor(div) > 0.5`; `copysign(0, a / b)` where `div`
/// is 0; `a / b` where `b` is 0. `q` is `a / b`.
pub(super) fn float_floor_div<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    a: Value<'c, 'a>,
    bv: Value<'c, 'a>,
    q: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let zero = b.const_like(a, 0.0)?;
    let one = b.const_like(a, 1.0)?;
    let half = b.const_like(a, 0.5)?;
    let m = b.onnx().mod_(a, bv, Some(1)).like(a)?;
    let am = b.onnx().sub(a, m).like(a)?;
    let div = b.onnx().div(am, bv).like(a)?;
    let m_zero = ctx.b.onnx().equal(m, zero).typed(unranked_bool(ctx))?;
    let m_nonzero = ctx.b.onnx().not(m_zero).typed(unranked_bool(ctx))?;
    let m_neg = ctx.b.onnx().less(m, zero).typed(unranked_bool(ctx))?;
    let b_neg = ctx.b.onnx().less(bv, zero).typed(unranked_bool(ctx))?;
    let differ = ctx.b.onnx().xor(m_neg, b_neg).typed(unranked_bool(ctx))?;
    let fix = ctx.b.onnx().and(m_nonzero, differ).typed(unranked_bool(ctx))?;
    let div1 = b.onnx().sub(div, one).like(a)?;
    let div = b.onnx().where_(fix, div1, div).like(a)?;
    let fl = b.onnx().floor(div).like(a)?;
    let frac = b.onnx().sub(div, fl).like(a)?;
    let up = ctx.b.onnx().greater(frac, half).typed(unranked_bool(ctx))?;
    let fl1 = b.onnx().add(fl, one).like(a)?;
    let fl = b.onnx().where_(up, fl1, fl).like(a)?;
    let signed_zero = b.onnx().mul(q, zero).like(a)?;
    let div_zero = ctx.b.onnx().equal(div, zero).typed(unranked_bool(ctx))?;
    let r = b.onnx().where_(div_zero, signed_zero, fl).like(a)?;
    let b_zero = ctx.b.onnx().equal(bv, zero).typed(unranked_bool(ctx))?;
    b.onnx().where_(b_zero, q, r).like(a)
}
