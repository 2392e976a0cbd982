//! Scatter along a dim shared by index_add, index_copy, index_fill and index_reduce. Not a rule file.

use super::tensor_common::{index_along, scatter_reduce};
use crate::Ctx;
use melior::ir::Value;

/// `self[..., index[i], ...] += alpha * source[..., i, ...]` along `dim`:
/// `ScatterElements` with reduction "add" (duplicate indices accumulate).
pub(super) fn index_add<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    // Bool tensors: `alpha = False` adds nothing (`self` as it is); a bool
    // Mul by 0 has no ONNX form (found by the in-place OpInfo sweep).
    let bool_result = crate::builder::is_bool(ctx.result_element(0)?);
    if bool_result && ctx.args.is_dynamic("alpha")? {
        return Err("a bool index_add with an alpha computed in the graph is not supported".into());
    }
    if bool_result && ctx.args.number("alpha")?.as_f64() == 0.0 {
        return Ok(vec![ctx.b.onnx().identity(ctx.args.tensor("self")?).typed(ctx.result_type(0)?)?]);
    }
    index_scatter(ctx, "sum", true, Some("alpha"))
}

/// The body of index_add / index_copy / index_reduce: `source` (times the
/// `Scalar` argument `alpha`, when named) scattered into `self` along `dim`
/// at `index` with `reduce` (0-d inputs lifted to 1 element and the result
/// reshaped back).
pub(super) fn index_scatter<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    reduce: &str,
    include_self: bool,
    alpha: Option<&str>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let element = ctx.result_element(0)?;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let src = ctx.tensor_as("source", element)?;
    let (x1, mut src, rank1) = lift_0d(ctx, x, src, rank)?;
    if let Some(alpha) = alpha {
        src = super::common::scaled_by_argument(ctx, src, alpha, element)?;
    }
    let shape = b.shape(src)?;
    let index = index_along(ctx, ctx.args.tensor("index")?, dim, rank1, shape)?;
    let r = scatter_reduce(ctx, x1, dim, index, src, reduce, include_self)?;
    finish(ctx, r, rank)
}

/// 0-d `self`/`source` as 1-element tensors (torch allows index_* on 0-d).
pub(super) fn lift_0d<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    src: Value<'c, 'a>,
    rank: usize,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, usize), String> {
    if rank > 0 {
        let src = if ctx.rank(src)? == 0 { ctx.unsqueeze(src, &[0])? } else { src };
        return Ok((x, src, rank));
    }
    let one = ctx.b.const_i64s(&[1])?;
    Ok((
        ctx.b.onnx().reshape(x, one, None).like(x)?,
        ctx.b.onnx().reshape(src, one, None).like(src)?,
        1,
    ))
}

/// The result typed like the op's, back to 0-d when `self` was.
pub(super) fn finish<'c, 'a>(ctx: &Ctx<'c, 'a>, r: Value<'c, 'a>, rank: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let shape = if rank == 0 { ctx.b.const_i64s(&[])? } else { ctx.b.shape(ctx.args.tensor("self")?)? };
    Ok(vec![ctx.b.onnx().reshape(r, shape, None).typed(ctx.result_type(0)?)?])
}
