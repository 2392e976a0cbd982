//! Bin edges, extrema and counting shared by histogram, histc, histogramdd, bincount and embedding_renorm. Not a rule file.

use super::math_common::{bool_type, elem};
use crate::{builder, Ctx};
use melior::ir::{Type, Value, ValueLike};

/// Element `i` of a 1-D vector as a 0-d value.
pub(super) fn at<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, i: i64) -> Result<Value<'c, 'a>, String> {
    ctx.b.onnx().gather(v, ctx.b.const_i64_scalar(i)?, Some(0)).like(v)
}

/// torch's CPU linspace of `steps` points from 0-d `start` to 0-d `end`
/// in `element` arithmetic: `step = (end - start) / (steps - 1)`, the first
/// half `start + step * i`, the rest `end - step * (steps - 1 - i)`.
pub(super) fn linspace<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    start: Value<'c, 'a>,
    end: Value<'c, 'a>,
    steps: i64,
    element: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let fts = b.unranked(element);
    let c = |v: f64| b.const_scalar(element, v);
    if steps == 1 {
        return ctx.unsqueeze(start, &[0]);
    }
    let step = b.onnx().div(b.onnx().sub(end, start).typed(fts)?, c((steps - 1) as f64)?).typed(fts)?;
    let half = steps / 2;
    let first: Vec<f64> = (0..half).map(|i| i as f64).collect();
    let second: Vec<f64> = (half..steps).map(|i| (steps - 1 - i) as f64).collect();
    let first = super::tensor_common::constant(ctx, element, &[first.len() as u64], &first)?;
    let second = super::tensor_common::constant(ctx, element, &[second.len() as u64], &second)?;
    let lo = b.onnx().add(start, b.onnx().mul(step, first).typed(fts)?).typed(fts)?;
    let hi = b.onnx().sub(end, b.onnx().mul(step, second).typed(fts)?).typed(fts)?;
    b.onnx().concat(&[lo, hi], 0).typed(fts)
}

/// Sums `weight` (or 1) of the elements of `flat` with `valid` into bin
/// `pos` (int64, any value where not valid) of `nbins` bins (a 1-D int64
/// shape), in `element`.
pub(super) fn accumulate<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    pos: Value<'c, 'a>,
    valid: Value<'c, 'a>,
    weight: Option<Value<'c, 'a>>,
    nbins: Value<'c, 'a>,
    element: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let fts = b.unranked(element);
    let i64s = b.unranked(b.i64_type());
    let pos = b.onnx().where_(valid, pos, b.const_i64_scalar(0)?).typed(i64s)?;
    let one = b.const_scalar(element, 1.0)?;
    let w = weight.unwrap_or(one);
    let zero = b.const_scalar(element, 0.0)?;
    let updates = b.onnx().where_(valid, w, zero).typed(fts)?;
    let zeros = b.onnx().expand(zero, nbins).typed(fts)?;
    b.onnx().scatter_elements(zeros, pos, updates, Some(0), Some("add")).typed(fts)
}

/// Data-dependent outer edges: the min and max of `flat` (0-d each).
pub(super) fn extrema<'c, 'a>(ctx: &Ctx<'c, 'a>, flat: Value<'c, 'a>) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let fts = ctx.b.unranked(elem(flat)?);
    Ok((ctx.reduce(crate::Reduction::Min, flat, None, false, fts)?, ctx.reduce(crate::Reduction::Max, flat, None, false, fts)?))
}

/// torch.histogram: equal-width bins over `range` (or the data's min/max,
/// widened by 0.5 each side when equal; [0, 1] for an empty input) or the
/// given edges; an element goes to the bin of the last edge <= it (the last
/// bin includes its right edge; out-of-range and NaN elements are skipped),
/// with its weight; density divides by the total and the bin widths.
pub(super) fn histogram<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let element = elem(x)?;
    if !builder::is_float(element) {
        return Err("histogram needs a float input (torch refuses others)".into());
    }
    let fts = b.unranked(element);
    let i64s = b.unranked(b.i64_type());
    let bools = b.unranked(bool_type(ctx));
    let flat = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).typed(fts)?;
    let numel: Option<i64> = builder::dims(x.r#type()).and_then(|d| d.into_iter().product::<Option<i64>>());
    let edges = match ctx.args.schema.arg("bins").is_some_and(|a| a.ty == "Tensor") {
        true => {
            let bins = ctx.args.tensor("bins")?;
            if ctx.rank(bins)? != 1 {
                return Err("histogram: bins must be a 1-D tensor".into());
            }
            b.cast_like_type(bins, element)?
        }
        false => {
            let n = ctx.args.int("bins")?;
            if n <= 0 {
                return Err(format!("histogram: bins must be > 0, got {n}"));
            }
            let c = |v: f64| b.const_scalar(element, v);
            let (l, r) = if !ctx.args.is_none("range")? {
                let range = ctx.args.floats("range")?;
                if range.len() != 2 {
                    return Err("histogram: range must have two elements".into());
                }
                let (mut l, mut r) = (range[0], range[1]);
                if !(l.is_finite() && r.is_finite()) {
                    return Err("histogram: range is not finite".into());
                }
                if l > r {
                    return Err("histogram: min should not exceed max".into());
                }
                if l == r {
                    l -= 0.5;
                    r += 0.5;
                }
                (c(l)?, c(r)?)
            } else if numel == Some(0) {
                (c(0.0)?, c(1.0)?)
            } else {
                if numel.is_none() {
                    return Err("histogram without a range needs a static element count".into());
                }
                let (l, r) = extrema(ctx, flat)?;
                let same = b.onnx().equal(l, r).typed(bools)?;
                let l2 = b.onnx().sub(l, c(0.5)?).typed(fts)?;
                let r2 = b.onnx().add(r, c(0.5)?).typed(fts)?;
                (b.onnx().where_(same, l2, l).typed(fts)?, b.onnx().where_(same, r2, r).typed(fts)?)
            };
            linspace(ctx, l, r, n + 1, element)?
        }
    };
    // bin of each element: (#edges <= x) - 1, the last bin closed.
    let nedges = b.onnx().shape(edges, None, None).typed(i64s)?;
    let nbins = b.onnx().sub(nedges, b.const_i64s(&[1])?).typed(i64s)?;
    let xe = ctx.unsqueeze(flat, &[-1])?;
    let le = b.onnx().less_or_equal(edges, xe).typed(bools)?;
    let le = b.cast(le, b.i64_type())?;
    let count = ctx.reduce(crate::Reduction::Sum, le, Some(&[-1]), false, i64s)?;
    let pos = b.onnx().sub(count, b.const_i64_scalar(1)?).typed(i64s)?;
    let last = ctx.squeeze(nbins, &[0])?;
    let top = b.onnx().equal(pos, last).typed(bools)?;
    let pos = b.onnx().where_(top, b.onnx().sub(last, b.const_i64_scalar(1)?).typed(i64s)?, pos).typed(i64s)?;
    let lo = at(ctx, edges, 0)?;
    let hi = at(ctx, edges, -1)?;
    let valid = b.onnx().and(b.onnx().greater_or_equal(flat, lo).typed(bools)?, b.onnx().less_or_equal(flat, hi).typed(bools)?).typed(bools)?;
    let weight = match ctx.args.opt_tensor("weight")? {
        Some(w) => Some(b.onnx().reshape(b.cast_like_type(w, element)?, b.const_i64s(&[-1])?, None).typed(fts)?),
        None => None,
    };
    let mut hist = accumulate(ctx, pos, valid, weight, nbins, element)?;
    if ctx.args.bool("density")? {
        let total = ctx.reduce(crate::Reduction::Sum, hist, None, false, fts)?;
        hist = b.onnx().div(hist, total).typed(fts)?;
        let widths = b.onnx().sub(slice1(ctx, edges, 1, None)?, slice1(ctx, edges, 0, Some(-1))?).typed(fts)?;
        hist = b.onnx().div(hist, widths).typed(fts)?;
    }
    Ok(vec![b.onnx().identity(hist).typed(ctx.result_type(0)?)?, b.onnx().identity(edges).typed(ctx.result_type(1)?)?])
}

/// `v[start..end]` of a 1-D vector.
pub(super) fn slice1<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, start: i64, end: Option<i64>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let (starts, ends, axes) = (b.const_i64s(&[start])?, b.const_i64s(&[end.unwrap_or(i64::MAX)])?, b.const_i64s(&[0])?);
    b.onnx().slice(v, starts, ends, Some(axes), None).like(v)
}
