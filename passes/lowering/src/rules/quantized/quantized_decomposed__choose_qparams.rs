//! `quantized_decomposed::choose_qparams.tensor` and
//! `choose_qparams_symmetric.tensor`: the scale and zero point of dynamic
//! per-tensor quantization (XNNPACK's dynamic configs), as torch's
//! `determine_qparams` computes them, in its order and types:
//!
//! ```text
//! min, max = aminmax(x)                      (float32)
//! min_neg, max_pos = min(min, 0), max(max, 0)
//! affine:    scale = max((max_pos - min_neg) / float(qmax - qmin), eps)
//!            zp = clamp(qmin - round(min_neg / scale).to(int32), qmin, qmax)
//! symmetric: scale = max(max(-min_neg, max_pos) / (float(qmax - qmin) / 2), eps)
//!            zp = 0 (int8), 128 (uint8)
//! ```
//!
//! returned as float64 and int64 tensors of shape `[1]`. An empty input is
//! refused by torch (`aminmax` of nothing); here ReduceMin of nothing is
//! +inf and the result is NaN-scaled, so a static empty input is refused.

use super::quant_common::Lowered;
use crate::{builder, Ctx, Rule};
use melior::ir::{
    r#type::{IntegerType, RankedTensorType},
    Type, Value, ValueLike,
};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.quantized_decomposed::choose_qparams.tensor", choose_qparams_affine),
    Rule::custom("aten.quantized_decomposed::choose_qparams_symmetric.tensor", choose_qparams_symmetric),
];

fn choose_qparams_affine<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    choose_qparams(ctx, false)
}

fn choose_qparams_symmetric<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    choose_qparams(ctx, true)
}

fn choose_qparams<'c, 'a>(ctx: &Ctx<'c, 'a>, symmetric: bool) -> Lowered<'c, 'a> {
    let x = ctx.args.tensor("input")?;
    let element = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    let f32_type = ctx.b.f32_type();
    if element != f32_type {
        return Err(format!("chooses parameters for float32 inputs (as torch), got {element}"));
    }
    if builder::dims(x.r#type()).is_some_and(|d| d.contains(&Some(0))) {
        return Err("the input is empty: torch's aminmax refuses it".into());
    }
    let (qmin, qmax) = (ctx.args.int("quant_min")?, ctx.args.int("quant_max")?);
    if qmin > qmax {
        return Err(format!("quant_min {qmin} is above quant_max {qmax}"));
    }
    let eps = ctx.args.float("eps")?;
    let dtype = ctx.args.dtype("dtype")?.ok_or("dtype is required")?;
    let unsigned_8 = IntegerType::try_from(dtype).is_ok_and(|t| t.width() == 8 && t.is_unsigned());
    let scalar = |element: Type<'c>| -> Type<'c> { RankedTensorType::new(&[], element, None).into() };
    let one_d = |element: Type<'c>| -> Type<'c> { RankedTensorType::new(&[1], element, None).into() };
    let min = ctx.reduce(crate::Reduction::Min, x, None, false, scalar(f32_type))?;
    let max = ctx.reduce(crate::Reduction::Max, x, None, false, scalar(f32_type))?;
    let zero = ctx.b.const_scalar(f32_type, 0.0)?;
    let min_neg = ctx.b.onnx().min(&[min, zero]).like(min)?;
    let max_pos = ctx.b.onnx().max(&[max, zero]).like(max)?;
    let eps = ctx.b.const_scalar(f32_type, eps)?;
    let i64_type = ctx.b.i64_type();
    let (scale, zp): (Value<'c, 'a>, Value<'c, 'a>) = if symmetric {
        let neg = ctx.b.onnx().neg(min_neg).like(min_neg)?;
        let m = ctx.b.onnx().max(&[neg, max_pos]).like(max_pos)?;
        let half_range = ctx.b.const_scalar(f32_type, (qmax - qmin) as f64 / 2.0)?;
        let s = ctx.b.onnx().div(m, half_range).like(m)?;
        let s = ctx.b.onnx().max(&[s, eps]).like(s)?;
        let zp = ctx.b.const_scalar(i64_type, if unsigned_8 { 128.0 } else { 0.0 })?;
        (s, zp)
    } else {
        let span = ctx.b.onnx().sub(max_pos, min_neg).like(max_pos)?;
        let range = ctx.b.const_scalar(f32_type, (qmax - qmin) as f64)?;
        let s = ctx.b.onnx().div(span, range).like(span)?;
        let s = ctx.b.onnx().max(&[s, eps]).like(s)?;
        let q = ctx.b.onnx().div(min_neg, s).like(s)?;
        let r = ctx.b.onnx().round(q).like(q)?;
        // `.to(torch.int)` then `qmin - r` and the clamp in int32.
        let i32_type: Type<'c> = IntegerType::new(ctx.b.context, 32).into();
        let r = ctx.b.cast(r, i32_type)?;
        let lo = ctx.b.const_scalar(i32_type, qmin as f64)?;
        let hi = ctx.b.const_scalar(i32_type, qmax as f64)?;
        let zp = ctx.b.onnx().sub(lo, r).like(r)?;
        let zp = ctx.b.onnx().max(&[zp, lo]).like(zp)?;
        let zp = ctx.b.onnx().min(&[zp, hi]).like(zp)?;
        (s, ctx.b.cast(zp, i64_type)?)
    };
    let f64_type = Type::float64(ctx.b.context);
    let shape = ctx.b.const_i64s(&[1])?;
    let scale = ctx.b.cast(scale, f64_type)?;
    let scale = ctx.b.onnx().reshape(scale, shape, None).typed(one_d(f64_type))?;
    let zp = ctx.b.onnx().reshape(zp, shape, None).typed(one_d(i64_type))?;
    Ok(vec![scale, zp])
}
