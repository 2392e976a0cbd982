//! `quantized_decomposed::quantize_per_tensor` (`.default`: Python scale and
//! zero point; `.tensor`: one-element tensors; `.tensor2`: the range too):
//! `QuantizeLinear(x, scale, zero_point)`, a `Clip` for a range narrower
//! than the type (see `quant_common`); written out for int32 results, a
//! zero point outside the type, or tensor ranges.

use super::quant_common::{
    check_range, clip_to, float32_input, float_zero_point, int_kind, qdq_type, quantize_exact, scalar_tensor, static_scale,
    Lowered,
};
use crate::{Ctx, Rule};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.quantized_decomposed::quantize_per_tensor.default", quantize_per_tensor),
    Rule::custom("aten.quantized_decomposed::quantize_per_tensor.tensor", quantize_per_tensor_tensor),
    Rule::custom("aten.quantized_decomposed::quantize_per_tensor.tensor2", quantize_per_tensor_tensor2),
];

fn quantize_per_tensor<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let element = ctx.result_element(0)?;
    let (qmin, qmax) = (ctx.args.int("quant_min")?, ctx.args.int("quant_max")?);
    let range = check_range(element, qmin, qmax)?;
    let x = float32_input(ctx, "input")?;
    let scale = ctx.args.float("scale")?;
    let zero_point = ctx.args.int("zero_point")?;
    let scale_value = static_scale(ctx, scale)?;
    if qdq_type(element, ctx.b.opset) && (range.0..=range.1).contains(&zero_point) {
        let zp = ctx.b.const_scalar(element, zero_point as f64)?;
        let q = ctx.b.onnx().quantize_linear(x, scale_value, Some(zp), None, None, None, None, None).typed(ctx.result_type(0)?)?;
        return Ok(vec![clip_to(ctx, q, range, qmin, qmax)?]);
    }
    // torch: `inv_scale = 1.0 / scale` in double, used as a float32 scalar.
    let f32_type = ctx.b.f32_type();
    let inv = ctx.b.const_scalar(f32_type, 1.0 / scale)?;
    let zp = ctx.b.const_scalar(f32_type, zero_point as f64)?;
    let (lo, hi) = (ctx.b.const_scalar(f32_type, qmin as f64)?, ctx.b.const_scalar(f32_type, qmax as f64)?);
    Ok(vec![quantize_exact(ctx, x, inv, zp, lo, hi, element)?])
}

/// Scale and zero point from tensors (dynamic quantization: computed by a
/// `choose_qparams` op). The zero point is cast to the type: torch's
/// `choose_qparams` keeps it within `[quant_min, quant_max]`.
fn quantize_per_tensor_tensor<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let element = ctx.result_element(0)?;
    let (qmin, qmax) = (ctx.args.int("quant_min")?, ctx.args.int("quant_max")?);
    let range = check_range(element, qmin, qmax)?;
    let x = float32_input(ctx, "input")?;
    let f32_type = ctx.b.f32_type();
    // A float zero point keeps its fraction (torch adds it to the rounded
    // value): written out.
    if qdq_type(element, ctx.b.opset) && !float_zero_point(ctx, "zero_point")? {
        let scale = scalar_tensor(ctx, "scale", f32_type)?;
        let zp = scalar_tensor(ctx, "zero_point", element)?;
        let q = ctx.b.onnx().quantize_linear(x, scale, Some(zp), None, None, None, None, None).typed(ctx.result_type(0)?)?;
        return Ok(vec![clip_to(ctx, q, range, qmin, qmax)?]);
    }
    let lo = ctx.b.const_scalar(f32_type, qmin as f64)?;
    let hi = ctx.b.const_scalar(f32_type, qmax as f64)?;
    exact_from_tensors(ctx, x, lo, hi)
}

fn quantize_per_tensor_tensor2<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let element = ctx.result_element(0)?;
    int_kind(element).ok_or("the quantized type is not an integer type")?;
    let x = float32_input(ctx, "input")?;
    let f32_type = ctx.b.f32_type();
    let lo = scalar_tensor(ctx, "quant_min", f32_type)?;
    let hi = scalar_tensor(ctx, "quant_max", f32_type)?;
    exact_from_tensors(ctx, x, lo, hi)
}

/// torch's arithmetic with the scale and zero point of tensors: the scale
/// (float32 or float64) is read as a Python float, its reciprocal taken in
/// double and used as a float32 scalar.
fn exact_from_tensors<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: melior::ir::Value<'c, 'a>,
    lo: melior::ir::Value<'c, 'a>,
    hi: melior::ir::Value<'c, 'a>,
) -> Lowered<'c, 'a> {
    let element = ctx.result_element(0)?;
    let (f32_type, f64_type) = (ctx.b.f32_type(), melior::ir::r#type::Type::float64(ctx.b.context));
    let scale = scalar_tensor(ctx, "scale", f64_type)?;
    let one = ctx.b.const_scalar(f64_type, 1.0)?;
    let inv = ctx.b.onnx().div(one, scale).like(scale)?;
    let inv = ctx.b.cast(inv, f32_type)?;
    let zp = scalar_tensor(ctx, "zero_point", f32_type)?;
    Ok(vec![quantize_exact(ctx, x, inv, zp, lo, hi, element)?])
}
