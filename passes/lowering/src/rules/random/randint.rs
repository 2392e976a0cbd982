use super::random_common::uniform_f64_bits;
use crate::{Ctx, IntArg, Rule};
use melior::ir::{Type, Value};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.randint.default", |c| {
        let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
        randint(c, None, c.args.sym_int("high")?, shape)
    })
    .samples(&["high: 5; size: [2,3]"]),
    Rule::custom("aten.randint.low", |c| {
        let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
        randint(c, Some(c.args.sym_int("low")?), c.args.sym_int("high")?, shape)
    })
    .samples(&["low: -3; high: 5; size: [2,3]"]),
];

/// Integers uniform in `[low, high)` of `shape`, cast to the result type:
/// `floor(low + U * (high - low))` in double, clamped below `high`. `U` has
/// `log2(high - low) + 24` random bits (53 when the range is dynamic), so
/// each value's probability is within `2^-24` (relative) of `1 / (high - low)`.
pub fn randint<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    low: Option<IntArg<'c, 'a>>,
    high: IntArg<'c, 'a>,
    shape: Value<'c, 'a>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let f64_type = Type::float64(b.context);
    let low = low.unwrap_or(IntArg::Static(0));
    let bits = match (low, high) {
        (IntArg::Static(l), IntArg::Static(h)) => {
            if l >= h {
                return Err(format!("random_ expects 'from' to be less than 'to', but got from={l} >= to={h}"));
            }
            let span = (h as i128 - l as i128) as f64;
            (span.log2().ceil() as usize + 24).min(53)
        }
        _ => 53,
    };
    let bound = |v: IntArg<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        match v {
            IntArg::Static(v) => b.const_scalar(f64_type, v as f64),
            dynamic => ctx.int_scalar(dynamic, f64_type),
        }
    };
    let lo = bound(low)?;
    let hi = bound(high)?;
    let u = uniform_f64_bits(ctx, shape, bits)?;
    let span = b.onnx().sub(hi, lo).like(lo)?;
    let scaled = b.onnx().mul(u, span).like(u)?;
    let shifted = b.onnx().add(scaled, lo).like(u)?;
    let floored = b.onnx().floor(shifted).like(u)?;
    let one = b.const_scalar(f64_type, 1.0)?;
    let top = b.onnx().sub(hi, one).like(lo)?;
    let clamped = b.onnx().min(&[floored, top]).like(u)?;
    Ok(vec![b.cast(clamped, ctx.result_element(0)?)?])
}
