//! Quantiles shared by quantile and nanquantile. Not a rule file.

use super::math_common::{bool_type, elem};
use super::tensor_common::sort;
use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

/// torch's quantile (`ignore_nan`: nanquantile): sort along `dim` (or all
/// elements), rank `q * (n - 1)` in the input's float type, where `n` counts
/// the non-NaN elements for nanquantile (rank 0 when there are none, which
/// picks a NaN), and for quantile is the row size with the rank sent to the
/// last element (a NaN) when the row holds one; then `interpolation`:
/// lower = floor, higher = ceil, nearest = round half to even, linear /
/// midpoint = torch's lerp between the neighbours (weight `rank - floor`
/// or 0.5). A tensor `q` (0-d or 1-D) puts its dim first.
pub(super) fn quantile<'c, 'a>(ctx: &Ctx<'c, 'a>, ignore_nan: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let element = elem(x)?;
    if !builder::is_float(element) {
        return Err("quantile needs a float input (torch refuses others)".into());
    }
    let interpolation = ctx.args.string("interpolation")?;
    if !matches!(interpolation.as_str(), "linear" | "lower" | "higher" | "midpoint" | "nearest") {
        return Err(format!("quantile: unknown interpolation '{interpolation}'"));
    }
    let rank = ctx.rank(x)?;
    let keepdim = ctx.args.bool("keepdim")?;
    let dim = ctx.args.opt_int("dim")?.map(|d| ctx.dim(d, rank)).transpose()?;
    let fts = b.unranked(element);
    let i64s = b.unranked(b.i64_type());
    let bools = b.unranked(bool_type(ctx));
    // q as a 1-D vector [Q]; `q_scalar`: the result has no q dim.
    let (q, q_scalar) = match ctx.args.tensor_or_number("q")? {
        Err(n) => {
            let q = n.as_f64();
            if !(0.0..=1.0).contains(&q) {
                return Err(format!("quantile: q={q} must be in [0, 1]"));
            }
            (b.const_scalar(element, q)?, true)
        }
        Ok(t) => {
            let r = ctx.rank(t)?;
            if r > 1 {
                return Err("quantile: q must be a scalar or 1-D tensor".into());
            }
            (b.cast_like_type(t, element)?, r == 0)
        }
    };
    let q = b.onnx().reshape(q, b.const_i64s(&[-1])?, None).typed(fts)?;
    // The working tensor `w` (rank >= 1) and its axis.
    let (w, axis) = match dim {
        None => (b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?, 0usize),
        Some(_) if rank == 0 => (b.onnx().reshape(x, b.const_i64s(&[1])?, None).like(x)?, 0),
        Some(d) => (x, d),
    };
    let wrank = if dim.is_none() || rank == 0 { 1 } else { rank };
    if builder::dims(w.r#type()).and_then(|d| d.get(axis).copied().flatten()) == Some(0) {
        return Err("quantile of an empty tensor / along an empty dim is undefined (torch refuses it)".into());
    }
    let ax = axis as i64;
    let (sorted, _) = sort(ctx, w, axis, false)?;
    let nan = b.onnx().is_na_n(w).typed(bools)?;
    let nan_f = b.cast(nan, element)?;
    // `[1, ..., 1]` of the row shape: q broadcasts to [Q, rows..] (kept axis).
    let q_shape: Vec<i64> = std::iter::once(-1).chain(std::iter::repeat(1).take(wrank)).collect();
    let qv = b.onnx().reshape(q, b.const_i64s(&q_shape)?, None).typed(fts)?;
    let size = b.onnx().shape(w, Some(ax + 1), Some(ax)).typed(i64s)?;
    let size = b.cast(size, element)?;
    let one = b.const_scalar(element, 1.0)?;
    let ranks = if ignore_nan {
        let nans = ctx.reduce(crate::Reduction::Sum, nan_f, Some(&[ax]), true, fts)?;
        let count = b.onnx().sub(size, nans).typed(fts)?;
        let last = b.onnx().sub(count, one).typed(fts)?;
        let r = b.onnx().mul(qv, last).typed(fts)?;
        let zero = b.const_scalar(element, 0.0)?;
        let neg = b.onnx().less(r, zero).typed(bools)?;
        b.onnx().where_(neg, zero, r).typed(fts)?
    } else {
        let last = b.onnx().sub(size, one).typed(fts)?;
        let r = b.onnx().mul(qv, last).typed(fts)?;
        let any = ctx.reduce(crate::Reduction::Max, nan_f, Some(&[ax]), true, fts)?;
        let any = b.cast(any, bool_type(ctx))?;
        b.onnx().where_(any, last, r).typed(fts)?
    };
    // sorted as [Q, rows..] for GatherElements along axis + 1
    let qn = b.onnx().shape(q, None, None).typed(i64s)?;
    let wshape = b.shape(sorted)?;
    let full_shape = b.onnx().concat(&[qn, wshape], 0).typed(i64s)?;
    let sorted_q = ctx.unsqueeze(sorted, &[0])?;
    let sorted_q = b.onnx().expand(sorted_q, full_shape).typed(fts)?;
    // ranks have the shape [Q, rows..] with the axis kept (size 1).
    let gather = |r: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        let idx = b.cast(r, b.i64_type())?;
        b.onnx().gather_elements(sorted_q, idx, Some(ax + 1)).typed(fts)
    };
    let result = match interpolation.as_str() {
        "lower" => gather(b.onnx().floor(ranks).typed(fts)?)?,
        "higher" => gather(b.onnx().ceil(ranks).typed(fts)?)?,
        "nearest" => gather(b.onnx().round(ranks).typed(fts)?)?,
        _ => {
            let below_r = b.onnx().floor(ranks).typed(fts)?;
            let above_r = b.onnx().ceil(ranks).typed(fts)?;
            let below = gather(below_r)?;
            let above = gather(above_r)?;
            let weight = if interpolation == "midpoint" {
                b.const_scalar(element, 0.5)?
            } else {
                b.onnx().sub(ranks, below_r).typed(fts)?
            };
            lerp(ctx, below, above, weight)?
        }
    };
    // result: [Q, rows with a kept axis]
    let mut result = result;
    if dim.is_none() {
        // [Q, 1] -> [Q] or [Q, 1 x rank]
        result = ctx.squeeze(result, &[1])?;
        if keepdim && rank > 0 {
            let axes: Vec<i64> = (1..=rank as i64).collect();
            result = ctx.unsqueeze(result, &axes)?;
        }
    } else if rank == 0 || !keepdim {
        result = ctx.squeeze(result, &[ax + 1])?;
    }
    if q_scalar {
        result = ctx.squeeze(result, &[0])?;
    }
    Ok(vec![ctx.b.onnx().identity(result).typed(ctx.result_type(0)?)?])
}

/// torch's lerp: `a + w (b - a)` for `|w| < 0.5`, else `b - (b - a)(1 - w)`.
pub(super) fn lerp<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    a: Value<'c, 'a>,
    bv: Value<'c, 'a>,
    w: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let element = elem(a)?;
    let fts = b.unranked(element);
    let diff = b.onnx().sub(bv, a).typed(fts)?;
    let lo = b.onnx().add(a, b.onnx().mul(w, diff).typed(fts)?).typed(fts)?;
    let one = b.const_scalar(element, 1.0)?;
    let omw = b.onnx().sub(one, w).typed(fts)?;
    let hi = b.onnx().sub(bv, b.onnx().mul(diff, omw).typed(fts)?).typed(fts)?;
    let half = b.const_scalar(element, 0.5)?;
    let aw = b.onnx().abs(w).typed(fts)?;
    let small = b.onnx().less(aw, half).typed(b.unranked(bool_type(ctx)))?;
    b.onnx().where_(small, lo, hi).typed(fts)
}
