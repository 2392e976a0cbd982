use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.fmod.Tensor", fmod)
        .samples(&[
            "self: T[2,5]; other: T[5]{1..4}",
            "self: T[2,5]; other: T[2,5]{-4..-1}",
            "self: T[]; other: T[3]{1..3}",
            "self: T[0,3]; other: T[3]{1..3}",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.fmod.Scalar", fmod)
        .samples(&[
            "self: T[2,5]; other: 3",
            "self: T[2,5]; other: -2",
            "self: T[2,5]; other: 1.5",
            "self: T[]; other: 2",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];

/// C's fmod (the result takes the dividend's sign): `Mod(fmod=1)` on floats
/// and integers (onnxruntime's float `fmod(x, 0)` is NaN like torch; an
/// integer division by zero fails at run time in onnxruntime, where torch
/// raises ZeroDivisionError).
fn fmod<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let x = ctx.tensor_as("self", element)?;
    let y = ctx.tensor_as("other", element)?;
    Ok(vec![ctx.b.onnx().mod_(x, y, Some(1)).typed(ctx.result_type(0)?)?])
}
