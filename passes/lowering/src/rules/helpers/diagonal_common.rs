//! Diagonal positions and views shared by diagonal, diag, diag_embed, diagonal_scatter and linalg_diagonal. Not a rule file.

use super::tensor_common::{concat, const_index, full, shape_part};
use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

/// The positions of diagonal `offset` of an `n1 x n2` matrix, as flat
/// indices `row * n2 + col` (row along dim1).
pub fn diagonal_positions(n1: i64, n2: i64, offset: i64) -> Vec<i64> {
    let (r0, c0) = if offset >= 0 { (0, offset) } else { (-offset, 0) };
    let len = (n1 - r0).min(n2 - c0).max(0);
    (0..len).map(|k| (k + r0) * n2 + k + c0).collect()
}

/// Normalised (dim1, dim2) and the permutation that moves them last.
pub fn diagonal_dims(ctx: &Ctx<'_, '_>, rank: usize, d1: i64, d2: i64) -> Result<(usize, usize, Vec<i64>), String> {
    if rank < 2 {
        return Err(format!("diagonal needs a tensor of rank >= 2, got {rank}"));
    }
    let (d1, d2) = (ctx.dim(d1, rank)?, ctx.dim(d2, rank)?);
    if d1 == d2 {
        return Err(format!("diagonal dimensions must be distinct, got {d1} and {d2}"));
    }
    let mut perm: Vec<i64> = (0..rank as i64).filter(|&d| d != d1 as i64 && d != d2 as i64).collect();
    perm.push(d1 as i64);
    perm.push(d2 as i64);
    Ok((d1, d2, perm))
}

/// `x` with dims d1, d2 moved last and merged: `[..., n1 * n2]`; also the
/// static n1, n2.
pub fn flatten_pair<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    d1: usize,
    d2: usize,
    perm: &[i64],
) -> Result<(Value<'c, 'a>, i64, i64), String> {
    let b = &ctx.b;
    let dims = builder::dims(x.r#type()).ok_or("operand has an unknown rank")?;
    let (n1, n2) = match (dims[d1], dims[d2]) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err("diagonal along a dynamic dim is not supported".into()),
    };
    let rank = dims.len();
    let xt = b.onnx().transpose(x, Some(&perm.to_vec())).like(x)?;
    let batch = shape_part(ctx, xt, 0, Some(rank as i64 - 2))?;
    let shape = concat(ctx, &[batch, b.const_i64s(&[n1 * n2])?])?;
    Ok((b.onnx().reshape(xt, shape, Some(1)).like(x)?, n1, n2))
}

/// torch.diagonal: dims d1, d2 removed, the diagonal appended last.
pub fn diagonal<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    offset: i64,
    d1: i64,
    d2: i64,
) -> Result<Value<'c, 'a>, String> {
    let rank = ctx.rank(x)?;
    let (d1, d2, perm) = diagonal_dims(ctx, rank, d1, d2)?;
    let dims = builder::dims(x.r#type()).ok_or("operand has an unknown rank")?;
    if dims[d1].is_none() || dims[d2].is_none() {
        return dynamic_diagonal(ctx, x, offset, &perm);
    }
    let (flat, n1, n2) = flatten_pair(ctx, x, d1, d2, &perm)?;
    let positions = diagonal_positions(n1, n2, offset);
    let idx = const_index(ctx, &[positions.len() as u64], &positions)?;
    ctx.b.onnx().gather(flat, idx, Some(rank as i64 - 2)).typed(ctx.result_type(0)?)
}

/// `diagonal` when dim1 or dim2 has a dynamic size: the flat positions
/// computed in the graph ([`dynamic_positions`]).
fn dynamic_diagonal<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    offset: i64,
    perm: &[i64],
) -> Result<Value<'c, 'a>, String> {
    let rank = perm.len() as i64;
    let (flat, n1, n2) = flatten_pair_dynamic(ctx, x, perm)?;
    let at = dynamic_positions(ctx, n1, n2, offset)?;
    ctx.b.onnx().gather(flat, at, Some(rank - 2)).typed(ctx.result_type(0)?)
}

/// [`flatten_pair`] with sizes read from the shape: `x` with the pair
/// moved last and merged, and the pair's sizes n1, n2 (1-D, one element).
pub fn flatten_pair_dynamic<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    perm: &[i64],
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
    let b = &ctx.b;
    let rank = perm.len() as i64;
    let i64s = b.unranked(b.i64_type());
    let xt = b.onnx().transpose(x, Some(&perm.to_vec())).like(x)?;
    let n1 = shape_part(ctx, xt, rank - 2, Some(rank - 1))?;
    let n2 = shape_part(ctx, xt, rank - 1, None)?;
    let batch = shape_part(ctx, xt, 0, Some(rank - 2))?;
    let area = b.onnx().mul(n1, n2).typed(i64s)?;
    let shape = concat(ctx, &[batch, area])?;
    Ok((b.onnx().reshape(xt, shape, Some(1)).like(x)?, n1, n2))
}

/// [`diagonal_positions`] computed in the graph from 1-D sizes n1, n2:
/// `(k + r0) * n2 + k + c0` for `k < max(0, min(n1 - r0, n2 - c0))`.
pub fn dynamic_positions<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    n1: Value<'c, 'a>,
    n2: Value<'c, 'a>,
    offset: i64,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let i64s = b.unranked(b.i64_type());
    let (r0, c0) = if offset >= 0 { (0, offset) } else { (-offset, 0) };
    let (r0v, c0v) = (b.const_i64s(&[r0])?, b.const_i64s(&[c0])?);
    let rows = b.onnx().sub(n1, r0v).typed(i64s)?;
    let cols = b.onnx().sub(n2, c0v).typed(i64s)?;
    let len = b.onnx().min(&[rows, cols]).typed(i64s)?;
    let len = b.onnx().max(&[len, b.const_i64s(&[0])?]).typed(i64s)?;
    let len = ctx.squeeze(len, &[0])?;
    let k = b.onnx().range(b.const_i64_scalar(0)?, len, b.const_i64_scalar(1)?, None).typed(i64s)?;
    let row = b.onnx().add(k, r0v).typed(i64s)?;
    let at = b.onnx().mul(row, n2).typed(i64s)?;
    let at = b.onnx().add(at, k).typed(i64s)?;
    b.onnx().add(at, c0v).typed(i64s)
}

/// The last dim of `x` (length n) becomes diagonal `offset` of new square
/// dims (size n + |offset|) at `dim1` (rows) and `dim2` (columns) of the
/// result, zeros elsewhere: `ScatterElements` into a flat `[..., m * m]`.
pub fn diag_embed<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    offset: i64,
    d1: i64,
    d2: i64,
) -> Result<Value<'c, 'a>, String> {
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
