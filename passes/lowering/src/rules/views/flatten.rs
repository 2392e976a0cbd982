use super::common::shape_slice;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.flatten.using_ints", flatten).samples(&[
    "self: T[2,3,4]; start_dim: 1",
    "self: T[2,3,4,5]; start_dim: 1; end_dim: 2",
    "self: T[2,3]",
    "self: T[]",
]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];

/// Reshape to `shape[:start] + [-1] + shape[end+1:]`.
fn flatten<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    if rank == 0 {
        let shape = ctx.b.const_i64s(&[1])?;
        return Ok(vec![ctx.b.onnx().reshape(x, shape, None).typed(ctx.result_type(0)?)?]);
    }
    let start = ctx.norm_dim(ctx.args.int("start_dim")?, rank);
    let end = ctx.norm_dim(ctx.args.int("end_dim")?, rank);
    let mut parts = Vec::new();
    if start > 0 {
        parts.push(shape_slice(ctx, x, 0, Some(start))?);
    }
    parts.push(ctx.b.const_i64s(&[-1])?);
    if end + 1 < rank as i64 {
        parts.push(shape_slice(ctx, x, end + 1, None)?);
    }
    let shape = if parts.len() == 1 {
        parts.remove(0)
    } else {
        ctx.b.onnx().concat(&parts, 0).typed(ctx.b.unranked(ctx.b.i64_type()))?
    };
    Ok(vec![ctx.b.onnx().reshape(x, shape, None).typed(ctx.result_type(0)?)?])
}
