use super::tensor_common::{concat, const_index, full, shape_part};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.diag_embed.default", |c| {
    let x = c.args.tensor("self")?;
    let (offset, d1, d2) = (c.args.int("offset")?, c.args.int("dim1")?, c.args.int("dim2")?);
    Ok(vec![diag_embed(c, x, offset, d1, d2)?])
})
.samples(&[
    "self: T[3]",
    "self: T[2,3]",
    "self: T[2,3]; offset: 1",
    "self: T[2,3]; offset: -2",
    "self: T[2,3]; dim1: 0; dim2: 2",
    "self: T[2,3]; offset: 1; dim1: 2; dim2: 0",
    "self: T[2,0]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];

/// The last dim of `x` (length n) becomes diagonal `offset` of new square
/// dims (size n + |offset|) at `dim1` (rows) and `dim2` (columns) of the
/// result, zeros elsewhere: `ScatterElements` into a flat `[..., m * m]`.
pub fn diag_embed<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, offset: i64, d1: i64, d2: i64) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let rank = ctx.rank(x)?;
    if rank == 0 {
        return Err("diag_embed needs a tensor of rank >= 1".into());
    }
    let out_rank = rank + 1;
    let (d1, d2) = (ctx.dim(d1, out_rank)?, ctx.dim(d2, out_rank)?);
    if d1 == d2 {
        return Err(format!("diagonal dimensions must be distinct, got {d1} and {d2}"));
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let batch = shape_part(ctx, x, 0, Some(rank as i64 - 1))?;
    // The new square's side m = n + |offset|, static or read from the shape.
    let (m, idx) = match builder::dims(x.r#type()).ok_or("unknown rank")?[rank - 1] {
        Some(n) => {
            let m = n + offset.abs();
            let positions = super::diagonal_common::diagonal_positions(m, m, offset);
            (b.const_i64s(&[m])?, const_index(ctx, &[positions.len() as u64], &positions)?)
        }
        None => {
            let i64s = b.unranked(b.i64_type());
            let n = shape_part(ctx, x, rank as i64 - 1, None)?;
            let m = b.onnx().add(n, b.const_i64s(&[offset.abs()])?).typed(i64s)?;
            (m, super::diagonal_common::dynamic_positions(ctx, m, m, offset)?)
        }
    };
    let area = b.onnx().mul(m, m).typed(b.unranked(b.i64_type()))?;
    let flat_shape = concat(ctx, &[batch, area])?;
    let zeros = full(ctx, flat_shape, element, 0.0)?;
    let x_shape = b.shape(x)?;
    let idx = b.onnx().expand(idx, x_shape).typed(b.unranked(b.i64_type()))?;
    let axis = rank as i64 - 1;
    let scattered = b.onnx().scatter_elements(zeros, idx, x, Some(axis), None).like(x)?;
    let square = concat(ctx, &[batch, m, m])?;
    let square = b.onnx().reshape(scattered, square, Some(1)).like(x)?;
    // [batch..., rows, cols] -> rows at d1, cols at d2.
    let mut perm = Vec::new();
    let mut next = 0i64;
    for p in 0..out_rank {
        if p == d1 {
            perm.push(out_rank as i64 - 2);
        } else if p == d2 {
            perm.push(out_rank as i64 - 1);
        } else {
            perm.push(next);
            next += 1;
        }
    }
    ctx.b.onnx().transpose(square, Some(&perm)).typed(ctx.result_type(0)?)
}
