use super::tensor_common::{broadcast_shape, concat, shape_part, vec_slice};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.take_along_dim.default", take_along_dim)
    .samples(&[
        "self: T[3,4]; indices: i64[3,2]{0..4}; dim: 1",
        "self: T[3,4]; indices: i64[5,4]{-3..3}; dim: 0",
        "self: T[3,4]; indices: i64[1,2]{0..4}; dim: -1",
        "self: T[1,4]; indices: i64[3,2]{0..4}; dim: 1",
        "self: T[3,4]; indices: i64[5]{0..12}",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16", "i8", "u8"])];

/// With `dim`: `self` and `indices` broadcast in every dim but `dim`, then
/// `GatherElements`. Without: `take` on the flattened tensor.
fn take_along_dim<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let idx = ctx.args.tensor("indices")?;
    let Some(dim) = ctx.args.opt_int("dim")? else {
        let minus_one = b.const_i64s(&[-1])?;
        let flat = b.onnx().reshape(x, minus_one, None).like(x)?;
        let flat_idx = b.onnx().reshape(idx, minus_one, None).like(idx)?;
        return Ok(vec![ctx.b.onnx().gather(flat, flat_idx, Some(0)).typed(ctx.result_type(0)?)?]);
    };
    let (rx, ri) = (ctx.rank(x)?, ctx.rank(idx)?);
    if rx != ri {
        return Err(format!("take_along_dim: self (rank {rx}) and indices (rank {ri}) must have the same rank"));
    }
    let rank = rx;
    let d = ctx.dim(dim, rank)? as i64;
    if rank == 0 {
        return Ok(vec![x]);
    }
    // Shapes with `dim` set to 1, broadcast together.
    let one = b.const_i64s(&[1])?;
    let with_one = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        let mut parts = Vec::new();
        if d > 0 {
            parts.push(shape_part(ctx, v, 0, Some(d))?);
        }
        parts.push(one);
        if d + 1 < rank as i64 {
            parts.push(shape_part(ctx, v, d + 1, None)?);
        }
        concat(ctx, &parts)
    };
    let (sx, si) = (with_one(x)?, with_one(idx)?);
    let zx = b.onnx().expand(b.const_i64_scalar(0)?, sx).like(idx)?;
    let zi = b.onnx().expand(b.const_i64_scalar(0)?, si).like(idx)?;
    let common = broadcast_shape(ctx, &[zx, zi])?;
    let target = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        let mut parts = Vec::new();
        if d > 0 {
            parts.push(vec_slice(ctx, common, 0, Some(d))?);
        }
        parts.push(shape_part(ctx, v, d, Some(d + 1))?);
        if d + 1 < rank as i64 {
            parts.push(vec_slice(ctx, common, d + 1, None)?);
        }
        concat(ctx, &parts)
    };
    let (tx, ti) = (target(x)?, target(idx)?);
    let x = b.onnx().expand(x, tx).like(x)?;
    let idx = b.onnx().expand(idx, ti).like(idx)?;
    Ok(vec![ctx.b.onnx().gather_elements(x, idx, Some(d)).typed(ctx.result_type(0)?)?])
}
