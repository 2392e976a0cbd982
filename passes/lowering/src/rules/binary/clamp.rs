use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.clamp.default", clamp)
        .samples(&["self: T[2,3]; min: -0.5", "self: T[2,3]; max: 0.5", "self: T[2,3]; min: -1; max: 1"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.clamp.Tensor", clamp_tensor)
        .samples(&[
            "self: T[2,3]; min: T[3]{-3..-1}; max: T[2,3]{1..3}",
            "self: T[2,3]; min: T[2,3]{-1..0}",
            "self: T[]; max: T[2]",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];

/// `Clip(x, min, max)`, a missing bound left out.
fn clamp<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let x = ctx.tensor_as("self", element)?;
    let bound = |name: &str| -> Result<Value<'c, 'a>, String> {
        if ctx.args.is_none(name)? {
            ctx.none()
        } else {
            ctx.tensor_as(name, element)
        }
    };
    let (min, max) = (bound("min")?, bound("max")?);
    Ok(vec![ctx.b.onnx().clip(x, Some(min), Some(max)).typed(ctx.result_type(0)?)?])
}

/// ONNX `Clip` takes scalar bounds only: tensor bounds are `Max` then `Min`.
fn clamp_tensor<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let mut x = ctx.tensor_as("self", element)?;
    let min = if ctx.args.is_none("min")? { None } else { Some(ctx.tensor_as("min", element)?) };
    let max = if ctx.args.is_none("max")? { None } else { Some(ctx.tensor_as("max", element)?) };
    match (min, max) {
        (Some(lo), Some(hi)) => {
            x = ctx.b.onnx().max(&[x, lo]).like(x)?;
            Ok(vec![ctx.b.onnx().min(&[x, hi]).typed(ctx.result_type(0)?)?])
        }
        (Some(lo), None) => Ok(vec![ctx.b.onnx().max(&[x, lo]).typed(ctx.result_type(0)?)?]),
        (None, Some(hi)) => Ok(vec![ctx.b.onnx().min(&[x, hi]).typed(ctx.result_type(0)?)?]),
        (None, None) => Err("clamp without bounds".into()),
    }
}
