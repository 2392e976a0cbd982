use super::tensor_common::broadcast_shape;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.broadcast_tensors.default", broadcast_tensors)
    .samples(&[
        "tensors: (T[2,1], T[3])",
        "tensors: (T[2,3], T[], T[1,3])",
        "tensors: (T[4],)",
        "tensors: (T[0,1], T[3])",
        "tensors: (T[2,1], i64[1,4], bool[2,4])",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"])];

/// Every tensor expanded to the common broadcast shape.
fn broadcast_tensors<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let tensors = ctx.args.tensors("tensors")?;
    let shape = broadcast_shape(ctx, &tensors)?;
    tensors
        .iter()
        .enumerate()
        .map(|(i, t)| ctx.b.onnx().expand(*t, shape).typed(ctx.result_type(i)?))
        .collect()
}
