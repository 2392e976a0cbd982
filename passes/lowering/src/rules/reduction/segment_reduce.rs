use super::math_common::{bool_type, elem};
use crate::{builder, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.segment_reduce.default", segment_reduce)
    .samples(&[
        "data: T[5]; reduce: \"sum\"; lengths: i64[4]{0..2}; unsafe: true",
        // unsafe: torch does not check that the lengths fit the data, so every
        // sample keeps sum(lengths) <= the data's size (3 lengths of at most 2).
        "data: T[6]; reduce: \"max\"; lengths: i64[3]{0..3}; unsafe: true; initial: 1",
        "data: T[6]; reduce: \"min\"; lengths: i64[3]{0..3}; unsafe: true",
        "data: T[6,3]; reduce: \"mean\"; lengths: i64[4]{0..2}; unsafe: true",
        "data: T[6,3]; reduce: \"mean\"; lengths: i64[4]{0..2}; unsafe: true; initial: 2",
        "data: T[6,2]; reduce: \"prod\"; lengths: i64[3]{0..3}; unsafe: true; initial: 2",
        "data: T[3,6]; reduce: \"sum\"; lengths: i64[3,2]{0..4}; axis: 1; unsafe: true",
        "data: T[2,3,6,2]; reduce: \"max\"; lengths: i64[2,3,2]{0..4}; axis: 2; unsafe: true",
        "data: T[7]; reduce: \"sum\"; offsets: i64[4]{0..1}; unsafe: true",
    ])
    .dtypes(&["f32", "f64"])];

/// torch's segment_reduce over `axis` (the last dim of `lengths` /
/// `offsets`; rows before it have their own segments): a dense mask
/// `start[s] <= j < end[s]` selects each segment's elements, reduced with
/// the neutral value elsewhere and then combined with `initial` like torch's
/// kernel (max / min propagate NaN; mean divides by the length, an empty
/// segment gives `initial` or NaN; sum/prod/max/min of an empty segment
/// give `initial` or 0 / 1 / -inf / +inf). Elements outside every segment
/// are ignored, as torch does.
fn segment_reduce<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let data = ctx.args.tensor("data")?;
    let element = elem(data)?;
    if !builder::is_float(element) {
        return Err("segment_reduce needs a float input (torch refuses others)".into());
    }
    if ctx.args.opt_tensor("indices")?.is_some() {
        return Err("segment_reduce: indices based reduction is not supported (torch refuses it)".into());
    }
    let reduce = ctx.args.string("reduce")?;
    if !matches!(reduce.as_str(), "sum" | "mean" | "max" | "min" | "prod") {
        return Err(format!("segment_reduce: unknown reduction '{reduce}'"));
    }
    let rank = ctx.rank(data)?;
    let axis = ctx.dim(ctx.args.int("axis")?, rank)?;
    let i64s = b.unranked(b.i64_type());
    let fts = b.unranked(element);
    let bools = b.unranked(bool_type(ctx));
    let slice = |v: Value<'c, 'a>, start: i64, end: i64| -> Result<Value<'c, 'a>, String> {
        let (starts, ends, axes) = (b.const_i64s(&[start])?, b.const_i64s(&[end])?, b.const_i64s(&[-1])?);
        b.onnx().slice(v, starts, ends, Some(axes), None).typed(i64s)
    };
    let (starts, ends, seg_rank) = match (ctx.args.opt_tensor("lengths")?, ctx.args.opt_tensor("offsets")?) {
        (Some(lengths), _) => {
            let r = ctx.rank(lengths)?;
            let lengths = b.cast_like_type(lengths, b.i64_type())?;
            let ends = b.onnx().cum_sum(lengths, b.const_i64_scalar(-1)?, None, None).typed(i64s)?;
            (b.onnx().sub(ends, lengths).typed(i64s)?, ends, r)
        }
        (None, Some(offsets)) => {
            let r = ctx.rank(offsets)?;
            let offsets = b.cast_like_type(offsets, b.i64_type())?;
            (slice(offsets, 0, -1)?, slice(offsets, 1, i64::MAX)?, r)
        }
        (None, None) => return Err("segment_reduce: either lengths or offsets must be given".into()),
    };
    if seg_rank == 0 || axis != seg_rank - 1 {
        return Err(format!("segment_reduce: axis {axis} must be the last dim of lengths / offsets (rank {seg_rank})"));
    }
    let trailing = (rank - axis - 1) as i64;
    let trail_axes = |first: i64| -> Vec<i64> { (first..first + trailing).collect() };
    // mask [lead.., S, N] (+ trailing 1s)
    let n = b.onnx().shape(data, Some(axis as i64 + 1), Some(axis as i64)).typed(i64s)?;
    let n = ctx.squeeze(n, &[0])?;
    let j = b.onnx().range(b.const_i64_scalar(0)?, n, b.const_i64_scalar(1)?, None).typed(i64s)?;
    let s_u = ctx.unsqueeze(starts, &[-1])?;
    let e_u = ctx.unsqueeze(ends, &[-1])?;
    let inside = b.onnx().and(b.onnx().less_or_equal(s_u, j).typed(bools)?, b.onnx().less(j, e_u).typed(bools)?).typed(bools)?;
    let seg_axis = axis as i64; // S in the output / the mask
    let len = b.onnx().sub(ends, starts).typed(i64s)?;
    let (mask, len) = if trailing > 0 {
        (ctx.unsqueeze(inside, &trail_axes(seg_axis + 2))?, ctx.unsqueeze(len, &trail_axes(seg_axis + 1))?)
    } else {
        (inside, len)
    };
    let data_u = ctx.unsqueeze(data, &[seg_axis])?; // [lead.., 1, N, rest..]
    let red_axis = seg_axis + 1;
    let c = |v: f64| b.const_scalar(element, v);
    let initial = if ctx.args.is_none("initial")? { None } else { Some(ctx.args.number("initial")?.as_f64()) };
    let masked = |fill: f64| b.onnx().where_(mask, data_u, c(fill)?).typed(fts);
    let out = match reduce.as_str() {
        "sum" | "mean" => {
            let s = ctx.reduce(crate::Reduction::Sum, masked(0.0)?, Some(&[red_axis]), false, fts)?;
            let s = match initial {
                Some(i) => b.onnx().add(c(i)?, s).typed(fts)?,
                None => s,
            };
            if reduce == "sum" {
                s
            } else {
                let lenf = b.cast(len, element)?;
                let mean = b.onnx().div(s, lenf).typed(fts)?;
                let zero = b.onnx().equal(len, b.const_i64_scalar(0)?).typed(bools)?;
                let empty_value = c(initial.unwrap_or(f64::NAN))?;
                b.onnx().where_(zero, empty_value, mean).typed(fts)?
            }
        }
        "prod" => {
            let p = ctx.reduce(crate::Reduction::Prod, masked(1.0)?, Some(&[red_axis]), false, fts)?;
            match initial {
                Some(i) => b.onnx().mul(c(i)?, p).typed(fts)?,
                None => p,
            }
        }
        _ => {
            let (op, neutral, combine) =
                if reduce == "max" { (crate::Reduction::Max, f64::NEG_INFINITY, "Max") } else { (crate::Reduction::Min, f64::INFINITY, "Min") };
            let m = ctx.reduce(op, masked(neutral)?, Some(&[red_axis]), false, fts)?;
            let m = match initial {
                Some(i) => b.op(combine, &[m, c(i)?], &[], fts)?,
                None => m,
            };
            // NaN inside a segment wins (onnxruntime's reductions skip it).
            let nan = b.onnx().is_na_n(data_u).typed(bools)?;
            let nan = b.onnx().and(nan, mask).typed(bools)?;
            let nan = b.cast(nan, element)?;
            let any = ctx.reduce(crate::Reduction::Max, nan, Some(&[red_axis]), false, fts)?;
            let any = b.cast(any, bool_type(ctx))?;
            b.onnx().where_(any, c(f64::NAN)?, m).typed(fts)?
        }
    };
    Ok(vec![ctx.b.onnx().identity(out).typed(ctx.result_type(0)?)?])
}
