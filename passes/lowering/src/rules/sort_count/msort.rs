use super::tensor_common::sort;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.msort.default", msort)
    .samples(&["self: T[4,3]", "self: T[6]", "self: i64[7,2]{0..3}", "self: T[]", "self: T[0,2]", "self: T[2,3,2]"])
    .dtypes(&["f32", "i64", "i32", "f64", "bool"])];

/// The values of a stable ascending sort along dim 0 (NaN last); a 0-d
/// tensor is returned as is.
fn msort<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    if ctx.rank(x)? == 0 {
        return Ok(vec![ctx.b.onnx().identity(x).typed(ctx.result_type(0)?)?]);
    }
    let (values, _) = sort(ctx, x, 0, false)?;
    Ok(vec![ctx.b.onnx().identity(values).typed(ctx.result_type(0)?)?])
}
