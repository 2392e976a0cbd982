use super::as_strided_common::strided_positions;
use super::tensor_common::const_index;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.as_strided.default", as_strided)
    .samples(&[
        "self: T[3,4]; size: [2,2]; stride: [1,2]",
        "self: T[3,4]; size: [4,3]; stride: [1,4]",
        "self: T[12]; size: [3,3]; stride: [3,1]; storage_offset: 2",
        "self: T[3,4]; size: [2,3]; stride: [0,1]",
        "self: T[3,4]; size: []; stride: []; storage_offset: 5",
        "self: T[3,4]; size: [0,2]; stride: [1,1]",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"])];

/// A `Gather` of constant flat indices `storage_offset + sum(i_k * stride_k)`
/// from the flattened (contiguous) input. Sizes, strides and offset must be
/// static, and the input must not be a strided view (its storage layout is
/// not the ONNX tensor's).
fn as_strided<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let (shape, indices) = strided_positions(ctx, x)?;
    let idx = const_index(ctx, &shape, &indices)?;
    let flat = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
    Ok(vec![ctx.b.onnx().gather(flat, idx, Some(0)).typed(ctx.result_type(0)?)?])
}
