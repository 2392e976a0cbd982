use super::histogram_common::accumulate;
use super::math_common::{bool_type, elem};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.bincount.default", bincount)
    .samples(&[
        "self: T[20]{0..6}",
        "self: T[9]{0..4}; minlength: 7",
        "self: T[12]{0..5}; weights: f32[12]",
        "self: T[12]{0..5}; weights: f64[12]; minlength: 2",
        "self: T[8]{0..3}; weights: i64[8]{-3..4}",
        "self: T[0]",
        "self: T[0]; minlength: 3",
        "self: T[0]; weights: f32[0]; minlength: 2",
    ])
    .dtypes(&["i64", "i32", "u8", "i16", "i8"])];

/// torch.bincount: counts (or sums of `weights`) of each value of the 1-D
/// non-negative integer input, over `max(minlength, max(self) + 1)` bins
/// (`minlength` for an empty input): a data-dependent length. The result
/// type is int64 without weights, else the weights' float type (float64
/// for integer weights), accumulated in that type in input order like
/// torch's CPU kernel. Negative values (torch raises) are not counted.
fn bincount<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let element = elem(x)?;
    if builder::is_float(element) || builder::is_bool(element) {
        return Err("bincount needs an integer input (torch refuses others)".into());
    }
    if builder::rank(x.r#type()).is_some_and(|r| r != 1) {
        return Err("bincount only supports 1-d non-negative integral inputs".into());
    }
    let minlength = ctx.args.int("minlength")?;
    if minlength < 0 {
        return Err(format!("bincount: minlength should be >= 0, got {minlength}"));
    }
    let out = ctx.result_element(0)?;
    let i64_type = b.i64_type();
    let i64s = b.unranked(i64_type);
    let pos = b.cast(x, i64_type)?;
    // max(self) + 1, with -1 appended so that an empty input gives 0.
    let minus_one = b.const_i64s(&[-1])?;
    let padded = b.onnx().concat(&[pos, minus_one], 0).typed(i64s)?;
    let top = ctx.reduce(crate::Reduction::Max, padded, None, true, i64s)?;
    let len = b.onnx().add(top, b.const_i64s(&[1])?).typed(i64s)?;
    let len = b.onnx().max(&[len, b.const_i64s(&[minlength])?]).typed(i64s)?;
    let valid = b.onnx().greater_or_equal(pos, b.const_i64_scalar(0)?).typed(b.unranked(bool_type(ctx)))?;
    let weights = if ctx.args.is_none("weights")? {
        None
    } else {
        Some(b.cast_like_type(ctx.args.tensor("weights")?, out)?)
    };
    let hist = accumulate(ctx, pos, valid, weights, len, out)?;
    Ok(vec![ctx.b.onnx().identity(hist).typed(ctx.result_type(0)?)?])
}
