use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.triu.default", |c| trilu(c, 1))
    .samples(&["self: T[4,5]", "self: T[4,5]; diagonal: 1", "self: T[2,4,4]; diagonal: -1"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

/// `Trilu(x, k, upper)`.
pub(super) fn trilu<'c, 'a>(ctx: &Ctx<'c, 'a>, upper: i64) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let k = ctx.b.const_i64_scalar(ctx.args.int("diagonal")?)?;
    Ok(vec![ctx.b.onnx().trilu(x, Some(k), Some(upper)).typed(ctx.result_type(0)?)?])
}
