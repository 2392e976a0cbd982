//! `quantized_decomposed::dequantize_per_tensor` (`.default`, `.tensor`,
//! `.tensor2`): torch computes `(q.to(out_dtype) - zero_point) * scale`;
//! `DequantizeLinear(q, scale, zero_point)` computes `(q - zero_point) *
//! scale` with an exact integer difference and one float32 rounding, the
//! same number for 8- and 16-bit values; then a cast to `out_dtype`
//! (float16 and bfloat16: one rounding of the float32 product, as torch's
//! half arithmetic, which computes in float32). The range arguments are
//! metadata (torch does not clamp). Written out for int32 and other types.

use super::quant_common::{float_zero_point, int_kind, qdq_type, scalar_tensor, static_scale, to_out_dtype, Lowered};
use crate::{Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.quantized_decomposed::dequantize_per_tensor.default", dequantize_per_tensor),
    Rule::custom("aten.quantized_decomposed::dequantize_per_tensor.tensor", dequantize_per_tensor_tensor),
    Rule::custom("aten.quantized_decomposed::dequantize_per_tensor.tensor2", dequantize_per_tensor_tensor),
];

fn input<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<(Value<'c, 'a>, melior::ir::Type<'c>), String> {
    let q = ctx.args.tensor("input")?;
    let element = crate::builder::element_type(q.r#type()).ok_or("the input is not a tensor")?;
    int_kind(element).ok_or_else(|| format!("dequantizes integer tensors, got {element}"))?;
    Ok((q, element))
}

fn dequantize_per_tensor<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let (q, element) = input(ctx)?;
    let scale = ctx.args.float("scale")?;
    let zero_point = ctx.args.int("zero_point")?;
    let scale_value = static_scale(ctx, scale)?;
    let f32_type = ctx.b.f32_type();
    let (bits, signed) = int_kind(element).ok_or("not an integer type")?;
    let (lo, hi) = super::quant_common::type_range(bits, signed);
    let y = if qdq_type(element, ctx.b.opset) && (lo..=hi).contains(&zero_point) {
        let zp = ctx.b.const_scalar(element, zero_point as f64)?;
        let ty = crate::builder::with_element_type(q.r#type(), f32_type).ok_or("unranked input")?;
        ctx.b.onnx().dequantize_linear(q, scale_value, Some(zp), None, None, None).typed(ty)?
    } else {
        let zp = ctx.b.const_scalar(f32_type, zero_point as f64)?;
        written_out(ctx, q, zp, scale_value)?
    };
    to_out_dtype(ctx, y)
}

fn dequantize_per_tensor_tensor<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let (q, element) = input(ctx)?;
    let f32_type = ctx.b.f32_type();
    let scale = scalar_tensor(ctx, "scale", f32_type)?;
    let y = if qdq_type(element, ctx.b.opset) && !float_zero_point(ctx, "zero_point")? {
        let zp = scalar_tensor(ctx, "zero_point", element)?;
        let ty = crate::builder::with_element_type(q.r#type(), f32_type).ok_or("unranked input")?;
        ctx.b.onnx().dequantize_linear(q, scale, Some(zp), None, None, None).typed(ty)?
    } else {
        let zp = scalar_tensor(ctx, "zero_point", f32_type)?;
        written_out(ctx, q, zp, scale)?
    };
    to_out_dtype(ctx, y)
}

/// `(float32(q) - zp) * scale`, torch's order.
fn written_out<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    q: Value<'c, 'a>,
    zp: Value<'c, 'a>,
    scale: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let x = ctx.b.cast(q, ctx.b.f32_type())?;
    let d = ctx.b.onnx().sub(x, zp).like(x)?;
    ctx.b.onnx().mul(d, scale).like(x)
}
