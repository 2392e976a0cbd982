//! `quantized_decomposed::fake_quant_per_channel(input, scales, zero_points,
//! axis, quant_min, quant_max)` (quantization-aware training's fake
//! quantization, float32 in and out). torch casts the scales to float32 and
//! the zero points to int32 first, then computes in float32:
//!
//! ```text
//! t = round(x * (1.0 / s)) + zp          (round half to even)
//! y = (clamp(t, quant_min, quant_max) - zp) * s
//! ```
//!
//! with `s` and `zp` broadcast along `axis`. Written out (the float result
//! is not a QDQ pair: `QuantizeLinear` would divide by the scale, and its
//! output type bounds the range). Negative axes are refused: torch's
//! implementation unsqueezes the scales at `range(axis)`, wrong for them.

use super::quant_common::{along_axis, Lowered};
use crate::{builder, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Type, ValueLike};

pub const RULES: &[Rule] =
    &[Rule::custom("aten.quantized_decomposed::fake_quant_per_channel.default", fake_quant_per_channel)];

fn fake_quant_per_channel<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let x = ctx.args.tensor("input")?;
    let f32_type = ctx.b.f32_type();
    let element = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    if element != f32_type {
        return Err(format!("torch fake-quantizes float32 inputs only, got {element}"));
    }
    let rank = ctx.rank(x)?;
    let axis = ctx.args.int("axis")?;
    if axis < 0 {
        return Err(format!(
            "axis {axis} is negative: torch's fake_quant_per_channel broadcasts the scales along the wrong dims for a \
             negative axis (it unsqueezes them at range(axis)); give the axis as {}",
            axis + rank as i64
        ));
    }
    if axis >= rank as i64 {
        return Err(format!("axis {axis} is out of range for a tensor of rank {rank}"));
    }
    let axis = axis as usize;
    let scales = ctx.args.tensor("scales")?;
    let zero_points = ctx.args.tensor("zero_points")?;
    if builder::rank(scales.r#type()) != Some(1) || builder::rank(zero_points.r#type()) != Some(1) {
        return Err("per-channel scales and zero points must be 1-D".into());
    }
    let (qmin, qmax) = (ctx.args.int("quant_min")?, ctx.args.int("quant_max")?);
    // `scales.to(float32)`, `zero_points.to(int32)` (int64 wraps), then the
    // zero points take part in float32 arithmetic.
    let s = ctx.b.cast_like_type(scales, f32_type)?;
    let i32_type: Type<'c> = IntegerType::new(ctx.b.context, 32).into();
    let zp = ctx.b.cast_like_type(zero_points, i32_type)?;
    let zp = ctx.b.cast(zp, f32_type)?;
    // `1.0 / s` (torch's `reciprocal`); not `Div(1, s)`, which onnxruntime's
    // DivMulFusion turns into a division of x.
    let inv = ctx.b.onnx().reciprocal(s).like(s)?;
    let inv = along_axis(ctx, inv, axis, rank)?;
    let s = along_axis(ctx, s, axis, rank)?;
    let zp = along_axis(ctx, zp, axis, rank)?;
    let scaled = ctx.b.onnx().mul(x, inv).like(x)?;
    let rounded = ctx.b.onnx().round(scaled).like(x)?;
    let t = ctx.b.onnx().add(rounded, zp).like(x)?;
    let lo = ctx.b.const_scalar(f32_type, qmin as f64)?;
    let hi = ctx.b.const_scalar(f32_type, qmax as f64)?;
    let clamped = ctx.b.onnx().max(&[t, lo]).like(x)?;
    let clamped = ctx.b.onnx().min(&[clamped, hi]).like(x)?;
    let shifted = ctx.b.onnx().sub(clamped, zp).like(x)?;
    Ok(vec![ctx.b.onnx().mul(shifted, s).typed(ctx.result_type(0)?)?])
}
