use super::tensor_common::{concat, shape_part};
use crate::{Ctx, IntArg, Rule};
use melior::ir::{r#type::IntegerType, Value};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.repeat_interleave.self_int", self_int)
        .samples(&[
            "self: T[2,3]; repeats: 2; dim: 0",
            "self: T[2,3]; repeats: 3; dim: -1",
            "self: T[2,3]; repeats: 2",
            "self: T[]; repeats: 3",
            "self: T[2,3]; repeats: 0; dim: 1",
            "self: T[0,3]; repeats: 2; dim: 1",
        ])
        .dtypes(&["f32", "i64", "bool", "i32", "f64"]),
    Rule::custom("aten.repeat_interleave.Tensor", |c| {
        let r = c.args.tensor("repeats")?;
        Ok(vec![repeat_indices(c, r, true)?])
    })
    .samples(&["repeats: i64[4]{0..4}", "repeats: i64[1]{1..4}", "repeats: i64[0]"])
    .dtypes(&["i64"]),
    Rule::custom("aten.repeat_interleave.self_Tensor", self_tensor)
        .samples(&[
            "self: T[3,2]; repeats: i64[3]{0..4}; dim: 0",
            "self: T[3,2]; repeats: i64[2]{0..4}; dim: -1",
            "self: T[3,2]; repeats: i64[1]{1..4}; dim: 0",
            "self: T[2,3]; repeats: i64[6]{0..3}",
        ])
        .dtypes(&["f32", "i64", "bool", "i32", "f64"]),
];

/// Each slice along `dim` repeated `repeats` times in place: unsqueeze
/// after `dim`, expand, merge. No `dim`: on the flattened tensor.
fn self_int<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let mut x = ctx.args.tensor("self")?;
    let repeats = ctx.args.sym_int("repeats")?;
    if let IntArg::Static(r) = repeats {
        if r < 0 {
            return Err(format!("repeat_interleave: repeats must be non-negative, got {r}"));
        }
    }
    let dim = match ctx.args.opt_int("dim")? {
        Some(d) => {
            let rank = ctx.rank(x)?;
            if rank == 0 {
                x = b.onnx().reshape(x, b.const_i64s(&[1])?, None).like(x)?;
                0
            } else {
                ctx.dim(d, rank)?
            }
        }
        None => {
            x = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
            0
        }
    };
    let rank = if ctx.args.opt_int("dim")?.is_some() { ctx.rank(ctx.args.tensor("self")?)?.max(1) } else { 1 };
    let d = dim as i64;
    let u = ctx.unsqueeze(x, &[d + 1])?;
    let r = ctx.int_tensor(repeats)?;
    // Tile (not Expand) so that repeats = 0 gives an empty dim.
    let mut parts = Vec::new();
    if d + 1 > 0 {
        parts.push(b.const_i64s(&vec![1; d as usize + 1])?);
    }
    parts.push(r);
    if d + 1 < rank as i64 {
        parts.push(b.const_i64s(&vec![1; rank - d as usize - 1])?);
    }
    let tiles = concat(ctx, &parts)?;
    let e = b.onnx().tile(u, tiles).like(x)?;
    let n = shape_part(ctx, x, d, Some(d + 1))?;
    let merged = b.onnx().mul(n, r).typed(b.unranked(b.i64_type()))?;
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(shape_part(ctx, x, 0, Some(d))?);
    }
    parts.push(merged);
    if d + 1 < rank as i64 {
        parts.push(shape_part(ctx, x, d + 1, None)?);
    }
    let out_shape = concat(ctx, &parts)?;
    Ok(vec![ctx.b.onnx().reshape(e, out_shape, Some(1)).typed(ctx.result_type(0)?)?])
}

/// `repeat_interleave(repeats)`: index `i` repeated `repeats[i]` times.
/// Output position `j` holds the number of running totals `<= j`.
fn repeat_indices<'c, 'a>(ctx: &Ctx<'c, 'a>, repeats: Value<'c, 'a>, typed: bool) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let i64s = b.unranked(b.i64_type());
    let r = b.cast_like_type(repeats, b.i64_type())?;
    let r = b.onnx().reshape(r, b.const_i64s(&[-1])?, None).typed(i64s)?;
    let zero = b.const_i64_scalar(0)?;
    let totals = b.onnx().cum_sum(r, zero, None, None).typed(i64s)?;
    let total = b.onnx().reduce_sum(r, Some(b.const_i64s(&[0])?), Some(0), None).typed(i64s)?;
    let j = b.onnx().range(zero, total, b.const_i64_scalar(1)?, None).typed(i64s)?;
    let t = ctx.unsqueeze(totals, &[0])?;
    let jj = ctx.unsqueeze(j, &[1])?;
    let le = b.onnx().less_or_equal(t, jj).typed(b.unranked(IntegerType::new(b.context, 1).into()))?;
    let count = b.cast(le, b.i64_type())?;
    let axes = b.const_i64s(&[1])?;
    if typed {
        b.onnx().reduce_sum(count, Some(axes), Some(0), None).typed(ctx.result_type(0)?)
    } else {
        b.onnx().reduce_sum(count, Some(axes), Some(0), None).typed(i64s)
    }
}

/// `index_select(self, dim, repeat_interleave(repeats))` (a one-element
/// `repeats` applies to every slice).
fn self_tensor<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let mut x = ctx.args.tensor("self")?;
    let dim = match ctx.args.opt_int("dim")? {
        Some(d) => ctx.dim(d, ctx.rank(x)?)?,
        None => {
            x = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
            0
        }
    };
    let repeats = ctx.args.tensor("repeats")?;
    let n = shape_part(ctx, x, dim as i64, Some(dim as i64 + 1))?;
    let r = b.cast_like_type(repeats, b.i64_type())?;
    let r = b.onnx().reshape(r, b.const_i64s(&[-1])?, None).typed(b.unranked(b.i64_type()))?;
    let r = b.onnx().expand(r, n).typed(b.unranked(b.i64_type()))?;
    let idx = repeat_indices(ctx, r, false)?;
    Ok(vec![ctx.b.onnx().gather(x, idx, Some(dim as i64)).typed(ctx.result_type(0)?)?])
}
