use super::tensor_common::const_index;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

/// `Tensor.unfold(dimension, size, step)`: the windows `[i*step, i*step+size)`
/// of dim `dimension` (`n = (len - size) / step + 1` of them) replace that dim,
/// and the window elements become a new last dim.
pub const RULES: &[Rule] = &[Rule::custom("aten.unfold.default", |c| {
    let x = c.args.tensor("self")?;
    let (dim, size, step) = (c.args.int("dimension")?, c.args.int("size")?, c.args.int("step")?);
    Ok(vec![unfold(c, x, dim, size, step)?])
})
.samples(&[
    "self: T[2,5]; dimension: 1; size: 2; step: 2",
    "self: T[2,5]; dimension: -1; size: 5; step: 1",
    "self: T[6,3]; dimension: 0; size: 3; step: 1",
    "self: T[7]; dimension: 0; size: 2; step: 3",
    "self: T[2,5,3]; dimension: 1; size: 1; step: 4",
    "self: T[4,3]; dimension: 0; size: 0; step: 1",
    "self: T[]; dimension: 0; size: 1; step: 1",
    "self: T[]; dimension: -1; size: 0; step: 2",
    "self: T[0,4]; dimension: 1; size: 2; step: 1",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];

/// The windows of `unfold`; the length along `dimension` may be dynamic
/// (the window starts are then a `Range`).
pub fn unfold<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, dim: i64, size: i64, step: i64) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let rank = ctx.rank(x)?;
    let d = ctx.dim(dim, rank)?;
    if step <= 0 {
        return Err(format!("unfold: step must be positive, got {step}"));
    }
    if size < 0 {
        return Err(format!("unfold: size must be non-negative, got {size}"));
    }
    if rank == 0 {
        // A 0-d tensor unfolds to `[size]` with size 0 or 1.
        if size > 1 {
            return Err(format!("unfold: size {size} is larger than 1, the length of a 0-d tensor"));
        }
        let flat = b.onnx().reshape(x, b.const_i64s(&[1])?, None).like(x)?;
        let (s, e, axes) = (b.const_i64s(&[0])?, b.const_i64s(&[size])?, b.const_i64s(&[0])?);
        return ctx.b.onnx().slice(flat, s, e, Some(axes), None).typed(ctx.result_type(0)?);
    }
    let dims = builder::dims(x.r#type()).ok_or("operand has an unknown rank")?;
    let idx = match dims[d] {
        Some(len) => {
            if size > len {
                return Err(format!("unfold: size {size} is larger than the length {len} of dim {d}"));
            }
            let n = (len - size) / step + 1;
            let values: Vec<i64> = (0..n).flat_map(|i| (0..size).map(move |j| i * step + j)).collect();
            const_index(ctx, &[n as u64, size as u64], &values)?
        }
        None => {
            // starts = Range(0, len - size + 1, step); idx = starts[:, None] + [0..size)
            let i64s = b.unranked(b.i64_type());
            let len = b.onnx().shape(x, Some(d as i64 + 1), Some(d as i64)).typed(i64s)?;
            let limit = b.onnx().sub(len, b.const_i64s(&[size - 1])?).typed(i64s)?;
            let limit = ctx.squeeze(limit, &[0])?;
            let starts = b.onnx().range(b.const_i64_scalar(0)?, limit, b.const_i64_scalar(step)?, None).typed(i64s)?;
            let starts = ctx.unsqueeze(starts, &[1])?;
            let offsets = b.const_i64s(&(0..size).collect::<Vec<_>>())?;
            b.onnx().add(starts, offsets).typed(i64s)?
        }
    };
    let gathered = b.onnx().gather(x, idx, Some(d as i64)).like(x)?;
    // [pre, n, size, post] -> [pre, n, post, size]
    let out_rank = rank as i64 + 1;
    if d + 1 == rank {
        return ctx.b.onnx().identity(gathered).typed(ctx.result_type(0)?);
    }
    let mut perm: Vec<i64> = (0..out_rank).filter(|&p| p != d as i64 + 1).collect();
    perm.push(d as i64 + 1);
    ctx.b.onnx().transpose(gathered, Some(&perm)).typed(ctx.result_type(0)?)
}
