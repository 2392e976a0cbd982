use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.masked_fill.Scalar", masked_fill)
        .samples(&["self: T[2,3]; mask: bool[2,3]; value: -1.5", "self: T[2,3]; mask: bool[3]; value: 0"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "bool"]),
    Rule::custom("aten.masked_fill.Tensor", masked_fill)
        .samples(&["self: T[2,3]; mask: bool[2,3]; value: T[]"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];

/// `Where(mask, value, self)`.
fn masked_fill<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let x = ctx.tensor_as("self", element)?;
    let mask = ctx.args.tensor("mask")?;
    let value = ctx.tensor_as("value", element)?;
    if crate::builder::is_bool(element) {
        // onnxruntime has no bool Where.
        let v = super::tensor_common::select(ctx, mask, value, x)?;
        return Ok(vec![ctx.b.onnx().identity(v).typed(ctx.result_type(0)?)?]);
    }
    Ok(vec![ctx.b.onnx().where_(mask, value, x).typed(ctx.result_type(0)?)?])
}
