//! The trapezoid rule shared by trapezoid, trapz and cumulative_trapezoid. Not a rule file.

use super::math_common::elem;
use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

/// The spacing `dx` along `dim` from sample points `x` (torch: a 1-D `x`
/// is laid along `dim`, a lower-rank `x` gets leading 1s), or `None` for the
/// scalar `dx` overloads.
pub(super) fn spacing<'c, 'a>(ctx: &Ctx<'c, 'a>, rank: usize, dim: usize, element: melior::ir::Type<'c>) -> Result<Option<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let Some(x) = (if ctx.args.schema.arg("x").is_some() { Some(ctx.args.tensor("x")?) } else { None }) else {
        return Ok(None);
    };
    let xr = ctx.rank(x)?;
    if xr > rank {
        return Err("trapezoid: x has more dims than y".into());
    }
    let x = b.cast_like_type(x, element)?;
    let x = if xr == 1 {
        let mut shape = vec![1i64; rank];
        shape[dim] = -1;
        b.onnx().reshape(x, b.const_i64s(&shape)?, None).like(x)?
    } else if xr < rank {
        ctx.unsqueeze(x, &(0..(rank - xr) as i64).collect::<Vec<_>>())?
    } else {
        x
    };
    let (left, right) = neighbours(ctx, x, dim)?;
    Ok(Some(b.onnx().sub(right, left).like(x)?))
}

/// `v[.., :-1, ..]` and `v[.., 1:, ..]` along `dim`.
pub(super) fn neighbours<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, dim: usize) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let b = &ctx.b;
    let axes = b.const_i64s(&[dim as i64])?;
    let left = b.onnx().slice(v, b.const_i64s(&[0])?, b.const_i64s(&[-1])?, Some(axes), None).like(v)?;
    let right = b.onnx().slice(v, b.const_i64s(&[1])?, b.const_i64s(&[i64::MAX])?, Some(axes), None).like(v)?;
    Ok((left, right))
}

/// trapezoid / trapz / cumulative_trapezoid with torch's formulas, in the
/// result's float type: with points `x`, `sum((l + r) * dx) / 2` (cumulative:
/// `cumsum((l + r) * dx) / 2`); with a scalar `dx`, `(sum(y) - (y0 + yn) * 0.5)
/// * dx` (cumulative: `cumsum(dx / 2 * (l + r))`). An empty `dim` integrates
/// to 0.
pub(super) fn integrate<'c, 'a>(ctx: &Ctx<'c, 'a>, cumulative: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let y = ctx.args.tensor("y")?;
    let rank = ctx.rank(y)?;
    if rank == 0 {
        return Err("trapezoid of a 0-d tensor is undefined (torch refuses it)".into());
    }
    if builder::is_bool(elem(y)?) {
        return Err("trapezoid of a bool tensor is not supported (torch refuses it)".into());
    }
    // torch forms x's differences, y's pair sums and their products in the
    // inputs' integer type, wrapping around (uint8: 3 - 5 = 254) before the
    // sum and the division: computed here in floats, 8/16-bit integers would
    // differ, so they are refused.
    for name in ["y", "x"] {
        if ctx.args.schema.arg(name).is_none() || ctx.args.is_none(name)? {
            continue;
        }
        let t = elem(ctx.args.tensor(name)?)?;
        let narrow = !builder::is_float(t)
            && melior::ir::r#type::IntegerType::try_from(t).is_ok_and(|i| i.width() > 1 && i.width() <= 16);
        if narrow {
            return Err(format!(
                "trapezoid of a {t} `{name}`: torch computes its differences and products in that integer type, \
                 wrapping around, before summing; convert it to a wider or floating-point type"
            ));
        }
    }
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let element = ctx.result_element(0)?;
    let fts = b.unranked(element);
    let y = b.cast_like_type(y, element)?;
    let d = dim as i64;
    let dx = spacing(ctx, rank, dim, element)?;
    let empty = builder::dims(y.r#type()).and_then(|s| s[dim]) == Some(0);
    if empty && !cumulative {
        return Ok(vec![ctx.reduce(crate::Reduction::Sum, y, Some(&[d]), false, ctx.result_type(0)?)?]);
    }
    let (left, right) = neighbours(ctx, y, dim)?;
    let pair = b.onnx().add(left, right).typed(fts)?;
    let two = b.const_scalar(element, 2.0)?;
    let cumsum = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> { b.onnx().cum_sum(v, b.const_i64_scalar(d)?, None, None).typed(fts) };
    let out = match (dx, cumulative) {
        (Some(dx), false) => {
            let p = b.onnx().mul(pair, dx).typed(fts)?;
            let s = ctx.reduce(crate::Reduction::Sum, p, Some(&[d]), false, fts)?;
            b.onnx().div(s, two).typed(fts)?
        }
        (Some(dx), true) => {
            let p = b.onnx().mul(pair, dx).typed(fts)?;
            b.onnx().div(cumsum(p)?, two).typed(fts)?
        }
        (None, cum) => {
            let h = if ctx.args.schema.arg("dx").is_some_and(|a| a.ty == "float") {
                ctx.args.float("dx")?
            } else {
                ctx.args.number("dx")?.as_f64()
            };
            if cum {
                let half = b.const_scalar(element, h / 2.0)?;
                cumsum(b.onnx().mul(half, pair).typed(fts)?)?
            } else {
                let total = ctx.reduce(crate::Reduction::Sum, y, Some(&[d]), false, fts)?;
                let first = b.onnx().gather(y, b.const_i64_scalar(0)?, Some(d)).typed(fts)?;
                let last = b.onnx().gather(y, b.const_i64_scalar(-1)?, Some(d)).typed(fts)?;
                let ends = b.onnx().add(first, last).typed(fts)?;
                let ends = b.onnx().mul(ends, b.const_scalar(element, 0.5)?).typed(fts)?;
                let inner = b.onnx().sub(total, ends).typed(fts)?;
                b.onnx().mul(inner, b.const_scalar(element, h)?).typed(fts)?
            }
        }
    };
    Ok(vec![ctx.b.onnx().identity(out).typed(ctx.result_type(0)?)?])
}
