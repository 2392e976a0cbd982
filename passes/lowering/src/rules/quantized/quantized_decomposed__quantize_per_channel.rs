//! `quantized_decomposed::quantize_per_channel` / `dequantize_per_channel`:
//! one scale and zero point per index of `axis` (PT2E's per-channel
//! weights; float zero points, `per_channel_affine_float_qparams`, are
//! computed with their fractions, written out). `QuantizeLinear` / `DequantizeLinear` with `axis` (see
//! `quant_common` for the one-step rounding difference of the quantize);
//! written out for types the QDQ ops lack. torch: `clamp(round(x * (1.0 /
//! scales)) + zero_points, quant_min, quant_max)` and `(q - zero_points) *
//! scales` (no zero points: `q * scales`).

use super::quant_common::{
    check_range, clip_to, float32_input, float_zero_point, qdq_type, quantize_exact, to_out_dtype, Lowered,
};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.quantized_decomposed::quantize_per_channel.default", quantize_per_channel),
    Rule::custom("aten.quantized_decomposed::dequantize_per_channel.default", dequantize_per_channel),
];

/// `axis` normalized against `x`'s rank; the scales must be 1-D.
fn channel_axis<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<(i64, usize), String> {
    let rank = ctx.rank(x)?;
    let axis = ctx.args.int("axis")?;
    if rank == 0 || axis >= rank as i64 || axis < -(rank as i64) {
        return Err(format!("axis {axis} is out of range for a tensor of rank {rank}"));
    }
    let axis = if axis < 0 { axis + rank as i64 } else { axis };
    let scales = ctx.args.tensor("scales")?;
    if builder::rank(scales.r#type()) != Some(1) {
        return Err("per-channel scales must be 1-D".into());
    }
    Ok((axis, rank))
}

/// `v` ([C]) reshaped to broadcast along `axis` of a rank-`rank` tensor.
fn along_axis<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, axis: i64, rank: usize) -> Result<Value<'c, 'a>, String> {
    let axes: Vec<i64> = (0..rank as i64).filter(|a| *a != axis).collect();
    if axes.is_empty() {
        return Ok(v);
    }
    ctx.unsqueeze(v, &axes)
}

fn quantize_per_channel<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let element = ctx.result_element(0)?;
    let (qmin, qmax) = (ctx.args.int("quant_min")?, ctx.args.int("quant_max")?);
    let range = check_range(element, qmin, qmax)?;
    let x = float32_input(ctx, "input")?;
    let (axis, rank) = channel_axis(ctx, x)?;
    let f32_type = ctx.b.f32_type();
    let scales = ctx.b.cast_like_type(ctx.args.tensor("scales")?, f32_type)?;
    if qdq_type(element, ctx.b.opset) && !float_zero_point(ctx, "zero_points")? {
        let zps = super::quant_common::zero_points_as(ctx, ctx.args.tensor("zero_points")?, element)?;
        let q = ctx.b.onnx().quantize_linear(x, scales, Some(zps), Some(axis), None, None, None, None).typed(ctx.result_type(0)?)?;
        return Ok(vec![clip_to(ctx, q, range, qmin, qmax)?]);
    }
    // `1.0 / scales` in the scales' own type (float32 here): a Reciprocal,
    // which onnxruntime does not fuse with the Mul (its DivMulFusion turns
    // `x * Div(1, s)` into `x / s`, another rounding).
    let inv = ctx.b.onnx().reciprocal(scales).like(scales)?;
    let inv = along_axis(ctx, inv, axis, rank)?;
    let zps = ctx.b.cast_like_type(ctx.args.tensor("zero_points")?, f32_type)?;
    let zps = along_axis(ctx, zps, axis, rank)?;
    let (lo, hi) = (ctx.b.const_scalar(f32_type, qmin as f64)?, ctx.b.const_scalar(f32_type, qmax as f64)?);
    Ok(vec![quantize_exact(ctx, x, inv, zps, lo, hi, element)?])
}

fn dequantize_per_channel<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let q = ctx.args.tensor("input")?;
    let element = builder::element_type(q.r#type()).ok_or("the input is not a tensor")?;
    super::quant_common::int_kind(element).ok_or_else(|| format!("dequantizes integer tensors, got {element}"))?;
    let (axis, rank) = channel_axis(ctx, q)?;
    let f32_type = ctx.b.f32_type();
    let scales = ctx.b.cast_like_type(ctx.args.tensor("scales")?, f32_type)?;
    let zps = ctx.args.opt_tensor("zero_points")?;
    let out_ty = builder::with_element_type(q.r#type(), f32_type).ok_or("unranked input")?;
    let y = if float_zero_point(ctx, "zero_points")? {
        // torch: `(q - zero_points) * scales` in the floats' type (float32,
        // float64 when a parameter is), the zero points' fractions kept.
        let f64_type = melior::ir::Type::float64(ctx.b.context);
        let wide = [ctx.args.tensor("zero_points")?, ctx.args.tensor("scales")?]
            .iter()
            .any(|v| builder::element_type(v.r#type()) == Some(f64_type));
        let compute = if wide { f64_type } else { f32_type };
        let zps = along_axis(ctx, ctx.b.cast_like_type(ctx.args.tensor("zero_points")?, compute)?, axis, rank)?;
        let scales = along_axis(ctx, ctx.b.cast_like_type(ctx.args.tensor("scales")?, compute)?, axis, rank)?;
        let d = ctx.b.cast(q, compute)?;
        let d = ctx.b.onnx().sub(d, zps).like(d)?;
        let y = ctx.b.onnx().mul(d, scales).like(d)?;
        ctx.b.cast_like_type(y, f32_type)?
    } else if qdq_type(element, ctx.b.opset) {
        let zps = match zps {
            Some(zps) => Some(super::quant_common::zero_points_as(ctx, zps, element)?),
            None => None,
        };
        ctx.b.onnx().dequantize_linear(q, scales, zps, Some(axis), None, None).typed(out_ty)?
    } else {
        // (q - zero_points) in int64, then times the scales in float32.
        let i64_type = ctx.b.i64_type();
        let mut d = ctx.b.cast_like_type(q, i64_type)?;
        if let Some(zps) = zps {
            let zps = along_axis(ctx, ctx.b.cast_like_type(zps, i64_type)?, axis, rank)?;
            d = ctx.b.onnx().sub(d, zps).like(d)?;
        }
        let d = ctx.b.cast(d, f32_type)?;
        let scales = along_axis(ctx, scales, axis, rank)?;
        ctx.b.onnx().mul(d, scales).like(d)?
    };
    to_out_dtype(ctx, y)
}
