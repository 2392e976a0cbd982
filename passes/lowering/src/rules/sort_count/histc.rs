use super::histogram_common::{accumulate, extrema};
use super::math_common::{bool_type, elem};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.histc.default", histc)
    .samples(&[
        "self: T[20]",
        "self: T[4,5]; bins: 7",
        "self: T[30]; bins: 5; min: -1; max: 1.5",
        "self: T[30]; bins: 4; min: 0.5; max: 0.5",
        "self: T[3,5]; bins: 3; min: 0; max: 10",
        "self: T[]; bins: 3",
        "self: T[0]; bins: 3",
        "self: T[0]; bins: 4; min: 1; max: 3",
    ])
    .dtypes(&["f32", "f64"])];

/// torch.histc: `bins` equal bins over [min, max] (the data's min / max when
/// min == max, widened by 1 each side when still equal); the bin of x is
/// `(int)((x - min) * bins / (max - min))` in the input's type (no edge
/// search, like torch's histc), the last bin closed; elements outside (and
/// NaN) are skipped.
fn histc<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let element = elem(x)?;
    if !builder::is_float(element) {
        return Err("histc needs a float input (torch refuses others)".into());
    }
    let bins = ctx.args.int("bins")?;
    if bins <= 0 {
        return Err(format!("histc: bins must be > 0, got {bins}"));
    }
    let fts = b.unranked(element);
    let i64s = b.unranked(b.i64_type());
    let bools = b.unranked(bool_type(ctx));
    let c = |v: f64| b.const_scalar(element, v);
    let flat = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).typed(fts)?;
    let numel: Option<i64> = builder::dims(x.r#type()).and_then(|d| d.into_iter().product::<Option<i64>>());
    let (mut lo, mut hi) = (ctx.args.number("min")?.as_f64(), ctx.args.number("max")?.as_f64());
    let (l, r) = if lo != hi || numel == Some(0) {
        if lo == hi {
            lo -= 1.0;
            hi += 1.0;
        }
        if !(lo.is_finite() && hi.is_finite()) {
            return Err(format!("histc: range of [{lo}, {hi}] is not finite"));
        }
        if lo >= hi {
            return Err("histc: max must be larger than min".into());
        }
        (c(lo)?, c(hi)?)
    } else {
        if numel.is_none() {
            return Err("histc with min == max needs a static element count".into());
        }
        let (l, r) = extrema(ctx, flat)?;
        let same = b.onnx().equal(l, r).typed(bools)?;
        let l2 = b.onnx().sub(l, c(1.0)?).typed(fts)?;
        let r2 = b.onnx().add(r, c(1.0)?).typed(fts)?;
        (b.onnx().where_(same, l2, l).typed(fts)?, b.onnx().where_(same, r2, r).typed(fts)?)
    };
    let valid = b.onnx().and(b.onnx().greater_or_equal(flat, l).typed(bools)?, b.onnx().less_or_equal(flat, r).typed(bools)?).typed(bools)?;
    let t = b.onnx().mul(b.onnx().sub(flat, l).typed(fts)?, c(bins as f64)?).typed(fts)?;
    let t = b.onnx().div(t, b.onnx().sub(r, l).typed(fts)?).typed(fts)?;
    let t = b.onnx().where_(valid, t, c(0.0)?).typed(fts)?;
    let pos = b.cast(t, b.i64_type())?;
    let last = b.const_i64_scalar(bins)?;
    let top = b.onnx().equal(pos, last).typed(bools)?;
    let pos = b.onnx().where_(top, b.const_i64_scalar(bins - 1)?, pos).typed(i64s)?;
    let hist = accumulate(ctx, pos, valid, None, b.const_i64s(&[bins])?, element)?;
    Ok(vec![ctx.b.onnx().identity(hist).typed(ctx.result_type(0)?)?])
}
