//! `quantized_decomposed::quantize_per_channel_group` /
//! `dequantize_per_channel_group`: groupwise quantization of a 2-D weight
//! `[M, N]`, one scale and zero point per `group_size` consecutive elements
//! of a row (row-major over the `M * N / group_size` groups). torch:
//!
//! ```text
//! g = N if group_size > N and scales.shape[-1] == 1 else group_size
//! quantize:   (x.reshape(-1, g) * (1.0 / s.reshape(-1, 1)) + zp.reshape(-1, 1))
//!                 .round().clamp(quant_min, quant_max).to(dtype).reshape_as(x)
//! dequantize: ((w.reshape(-1, g) - zp.reshape(-1, 1)) * s.reshape(-1, 1))
//!                 .reshape_as(w).to(output_dtype)          (zp None: w * s)
//! ```
//!
//! in torch's dtypes (`promote(input, scales)`: float64 scales give float64
//! arithmetic). The zero point is added BEFORE rounding, which no
//! `QuantizeLinear` does: written out. torch checks no dtype bounds here: a
//! range wider than the dtype wraps on the final cast.

use super::quant_common::{dequantize_held, held, quantize_held, reshape, to_int, Lowered, ZeroPoint};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.quantized_decomposed::quantize_per_channel_group.default", quantize_per_channel_group),
    Rule::custom("aten.quantized_decomposed::dequantize_per_channel_group.default", dequantize_per_channel_group),
];

/// torch's group size for a 2-D `x` (its checks, in its order).
fn group_size<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, scales: Value<'c, 'a>) -> Result<i64, String> {
    let mut g = ctx.args.int("group_size")?;
    if g <= 1 {
        return Err(format!("group_size {g} must be > 1"));
    }
    let dims = builder::dims(x.r#type()).ok_or("the input has an unknown rank")?;
    if dims.len() != 2 {
        return Err(format!("the input must be 2-dimensional, got rank {}", dims.len()));
    }
    let n = dims[1].ok_or("the input's last dim is dynamic: the group size depends on it")?;
    // "needed for GPTQ single column quantize"
    if g > n && builder::dims(scales.r#type()).and_then(|d| d.last().copied().flatten()) == Some(1) {
        g = n;
    }
    if n % g != 0 {
        return Err(format!("the input's last dim {n} is not divisible by group_size {g}"));
    }
    Ok(g)
}

/// `v` back in the shape of `like` (the aten result's type).
fn reshape_as<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, like: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let shape = ctx.b.shape(like)?;
    let element = builder::element_type(v.r#type()).ok_or("not a tensor")?;
    let ty = builder::with_element_type(like.r#type(), element).ok_or("unranked input")?;
    ctx.b.onnx().reshape(v, shape, None).typed(ty)
}

fn quantize_per_channel_group<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let element = ctx.result_element(0)?;
    let x = ctx.args.tensor("input")?;
    let x_type = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    if !builder::is_float(x_type) {
        return Err(format!("quantizes float inputs, got {x_type}"));
    }
    let scales = ctx.args.tensor("scales")?;
    let g = group_size(ctx, x, scales)?;
    let (qmin, qmax) = (ctx.args.int("quant_min")? as f64, ctx.args.int("quant_max")? as f64);
    let xg = held(ctx, reshape(ctx, x, &[-1, g])?)?;
    let s = held(ctx, reshape(ctx, scales, &[-1, 1])?)?;
    let zp = held(ctx, reshape(ctx, ctx.args.tensor("zero_points")?, &[-1, 1])?)?;
    let q = quantize_held(ctx, xg, s, Some(zp), ZeroPoint::BeforeRound, qmin, qmax)?;
    let q = to_int(ctx, q, element, qmin, qmax)?;
    Ok(vec![reshape_as(ctx, q, x)?])
}

fn dequantize_per_channel_group<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let w = ctx.args.tensor("input")?;
    let element = builder::element_type(w.r#type()).ok_or("the input is not a tensor")?;
    super::quant_common::int_kind(element).ok_or_else(|| format!("dequantizes integer tensors, got {element}"))?;
    let scales = ctx.args.tensor("scales")?;
    let g = group_size(ctx, w, scales)?;
    let wg = held(ctx, reshape(ctx, w, &[-1, g])?)?;
    let s = held(ctx, reshape(ctx, scales, &[-1, 1])?)?;
    // No zero points: torch subtracts a 0-d int32 zero, which keeps w's type.
    let zp = match ctx.args.opt_tensor("zero_points")? {
        Some(zp) => Some(held(ctx, reshape(ctx, zp, &[-1, 1])?)?),
        None => None,
    };
    let y = dequantize_held(ctx, wg, zp, s)?;
    let y = reshape_as(ctx, y.value, w)?;
    Ok(vec![ctx.b.cast_like_type(y, ctx.result_element(0)?)?])
}
