use super::math_common::unranked_bool;
use crate::{builder, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.remainder.Scalar", remainder)
        .samples(&[
            "self: T[2,5]; other: 3",
            "self: T[2,5]; other: -2",
            "self: T[2,5]; other: 0.7",
            "self: T[]; other: 2",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.remainder.Tensor", remainder)
        .samples(&[
            "self: T[2,5]; other: T[5]{1..4}",
            "self: T[2,5]; other: T[2,5]{-4..-1}",
            "self: T[]; other: T[3]{1..3}",
            "self: T[2,5]; other: f32[5]",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];

/// Python's modulo (the sign of the divisor): `Mod(fmod=0)` for integers;
/// for floats torch's own formula, `m = fmod(x, y)` plus `y` where `m` is
/// non-zero and its sign differs from `y`'s (exact, unlike
/// `x - floor(x / y) * y`). `x % 0.0` is NaN like torch; an integer modulo by
/// zero raises in torch and fails at run time in onnxruntime.
fn remainder<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let x = ctx.tensor_as("self", element)?;
    let y = ctx.tensor_as("other", element)?;
    if !builder::is_float(element) {
        return Ok(vec![ctx.b.onnx().mod_(x, y, Some(0)).typed(ctx.result_type(0)?)?]);
    }
    let b = &ctx.b;
    let m = b.onnx().mod_(x, y, Some(1)).like(x)?;
    let zero = b.const_like(x, 0.0)?;
    let m_zero = ctx.b.onnx().equal(m, zero).typed(unranked_bool(ctx))?;
    let m_nonzero = ctx.b.onnx().not(m_zero).typed(unranked_bool(ctx))?;
    let m_neg = ctx.b.onnx().less(m, zero).typed(unranked_bool(ctx))?;
    let y_neg = ctx.b.onnx().less(y, zero).typed(unranked_bool(ctx))?;
    let differ = ctx.b.onnx().xor(m_neg, y_neg).typed(unranked_bool(ctx))?;
    let fix = ctx.b.onnx().and(m_nonzero, differ).typed(unranked_bool(ctx))?;
    let my = b.onnx().add(m, y).like(x)?;
    Ok(vec![ctx.b.onnx().where_(fix, my, m).typed(ctx.result_type(0)?)?])
}
