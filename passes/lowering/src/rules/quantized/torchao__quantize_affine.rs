//! torchao's affine quantization primitives `torchao::quantize_affine` and
//! `torchao::dequantize_affine` (torchao.quantization.quant_primitives),
//! one scale and zero point per block of `block_size`. The tensor is viewed
//! as `[n0, b0, n1, b1, ...]` (`quant_common::block_view`), the parameters
//! as `[n0, 1, n1, 1, ...]`, then:
//!
//! ```text
//! quantize:   clamp(round(x * (1.0 / scale)) + zero_point, qmin, qmax).to(dtype)
//!             (in promote(input, scale); qmin / qmax default to the dtype's range)
//! dequantize: ((q.to(out) - zero_point.to(out)) * scale).to(out)
//!             (the product in promote(out, scale): float64 scales give float64)
//! ```
//!
//! Written out with torch's dtypes and roundings (bfloat16 arithmetic
//! rounds after every op): blocks over several dims, float64 and half
//! arithmetic are beyond `QuantizeLinear`, which also divides where torch
//! multiplies by the reciprocal. A `None` zero point makes torch's quantize
//! raise (refused); the dequantize skips it.

use super::quant_common::{
    held, quantize_held, reshape, static_dims, to_int, torchao_range, view_params, Lowered, ZeroPoint,
};
use crate::{builder, Ctx, Rule};
use melior::ir::{Type, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.torchao::quantize_affine.default", quantize_affine),
    Rule::custom("aten.torchao::dequantize_affine.default", dequantize_affine),
];

fn quantize_affine<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let element = ctx.result_element(0)?;
    let (qmin, qmax) = torchao_range(ctx, element)?;
    let x = ctx.args.tensor("input")?;
    let x_type = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    if !builder::is_half_float(x_type) && x_type != ctx.b.f32_type() {
        return Err(format!("torchao quantizes float32, float16 or bfloat16 inputs, got {x_type}"));
    }
    let sizes = static_dims(x, "the input")?;
    let view = super::quant_common::block_view(&sizes, &ctx.args.ints("block_size")?)?;
    let s = view_params(ctx, ctx.args.tensor("scale")?, &view.params, "scale")?;
    let zp = ctx
        .args
        .opt_tensor("zero_point")?
        .filter(|z| static_dims(*z, "zero_point").map_or(true, |d| d.iter().product::<i64>() > 0))
        .ok_or("zero_point is None (or empty): torchao's quantize_affine adds it and raises")?;
    let zp = view_params(ctx, zp, &view.params, "zero_point")?;
    let xr = held(ctx, reshape(ctx, x, &view.split)?)?;
    let q = quantize_held(ctx, xr, held(ctx, s)?, Some(held(ctx, zp)?), ZeroPoint::AfterRound, qmin, qmax)?;
    let q = to_int(ctx, q, element, qmin, qmax)?;
    Ok(vec![reshape(ctx, q, &sizes)?])
}

fn dequantize_affine<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let q = ctx.args.tensor("input")?;
    let q_type = builder::element_type(q.r#type()).ok_or("the input is not a tensor")?;
    let input_dtype = ctx.args.dtype("input_dtype")?.ok_or("input_dtype is required")?;
    // torchao asserts `input.dtype == input_dtype` but for sub-byte unsigned
    // types (held in uint8).
    let sub_byte_uint = super::quant_common::int_kind(input_dtype).is_some_and(|(bits, signed)| bits < 8 && !signed)
        && super::quant_common::int_kind(q_type) == Some((8, false));
    if q_type != input_dtype && !sub_byte_uint {
        return Err(format!("the input is {q_type}, input_dtype says {input_dtype}"));
    }
    torchao_range(ctx, input_dtype)?;
    let out: Type<'c> = ctx.result_element(0)?;
    if !builder::is_half_float(out) && out != ctx.b.f32_type() {
        return Err(format!("torchao dequantizes to float32, float16 or bfloat16, not {out}"));
    }
    let sizes = static_dims(q, "the input")?;
    let view = super::quant_common::block_view(&sizes, &ctx.args.ints("block_size")?)?;
    let s = held(ctx, view_params(ctx, ctx.args.tensor("scale")?, &view.params, "scale")?)?;
    let mut d = held(ctx, reshape(ctx, q, &view.split)?)?.to(ctx, out)?;
    if let Some(zp) = ctx.args.opt_tensor("zero_point")? {
        let zp = held(ctx, view_params(ctx, zp, &view.params, "zero_point")?)?.to(ctx, out)?;
        d = d.sub(ctx, zp)?;
    }
    let y = d.mul(ctx, s)?;
    let y = reshape(ctx, y.value, &sizes)?;
    Ok(vec![ctx.b.cast_like_type(y, out)?])
}
