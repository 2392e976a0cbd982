//! `quantized_decomposed::quantize_per_token` / `dequantize_per_token`: one
//! scale and zero point per token (every index of the leading dims; the
//! parameters are `[..., 1]`). torch:
//!
//! ```text
//! quantize:   (x * (1.0 / scales) + zero_points).round().clamp(quant_min, quant_max).to(dtype)
//! dequantize: ((q - zero_points) * scales).to(output_dtype)
//! ```
//!
//! in torch's dtypes: float64 scales (what `choose_qparams_per_token*`
//! return) make the whole computation float64. The zero point is added
//! BEFORE rounding, which no `QuantizeLinear` does: written out.

use super::quant_common::{check_range, dequantize_held, held, quantize_held, to_int, Lowered, ZeroPoint};
use crate::{builder, Ctx, Rule};
use melior::ir::ValueLike;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.quantized_decomposed::quantize_per_token.default", quantize_per_token),
    Rule::custom("aten.quantized_decomposed::dequantize_per_token.default", dequantize_per_token),
];

fn quantize_per_token<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let element = ctx.result_element(0)?;
    let (qmin, qmax) = (ctx.args.int("quant_min")?, ctx.args.int("quant_max")?);
    check_range(element, qmin, qmax)?;
    let x = ctx.args.tensor("input")?;
    let x_type = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    if !builder::is_float(x_type) {
        return Err(format!("quantizes float inputs, got {x_type}"));
    }
    let s = held(ctx, ctx.args.tensor("scales")?)?;
    let zp = held(ctx, ctx.args.tensor("zero_points")?)?;
    let q = quantize_held(ctx, held(ctx, x)?, s, Some(zp), ZeroPoint::BeforeRound, qmin as f64, qmax as f64)?;
    Ok(vec![to_int(ctx, q, element, qmin as f64, qmax as f64)?])
}

fn dequantize_per_token<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let q = ctx.args.tensor("input")?;
    let element = builder::element_type(q.r#type()).ok_or("the input is not a tensor")?;
    super::quant_common::int_kind(element).ok_or_else(|| format!("dequantizes integer tensors, got {element}"))?;
    let s = held(ctx, ctx.args.tensor("scales")?)?;
    let zp = held(ctx, ctx.args.tensor("zero_points")?)?;
    let y = dequantize_held(ctx, held(ctx, q)?, Some(zp), s)?;
    Ok(vec![ctx.b.cast_like_type(y.value, ctx.result_element(0)?)?])
}
