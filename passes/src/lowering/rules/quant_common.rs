//! Shared pieces of the quantization rules (`quantized_decomposed::*`, the
//! ops of PT2E-quantized programs; their semantics are torch's
//! `torch/ao/quantization/fx/_decomposed.py`).
//!
//! Static per-tensor and per-channel quantization becomes ONNX
//! `QuantizeLinear` / `DequantizeLinear` (the QDQ form onnxruntime's QDQ
//! transformer and NPU toolchains fuse into integer kernels). torch
//! computes `clamp(round(x * (1 / scale)) + zero_point, quant_min,
//! quant_max)`; `QuantizeLinear` computes `saturate(round(x / scale) +
//! zero_point)`: `x * (1 / scale)` and `x / scale` are two roundings of the
//! same quotient and differ in the last bit for a few inputs, which moves a
//! quantized value by one step only where the quotient is within a rounding
//! of a half-integer (docs/quantization.md gives the measured rates). A
//! range narrower than the type (`[-127, 127]` in int8, 4-bit values in
//! uint8) is a `Clip` after the op. Where the QDQ ops cannot express the
//! case (int32 results, a zero point outside the type), the arithmetic is
//! written out with torch's exact order of operations.

use crate::lowering::{builder, Attr, Ctx};
use melior::ir::{attribute::AttributeLike, operation::OperationLike, r#type::{IntegerType, TypeLike}, Type, Value, ValueLike};

/// A rule's result.
pub type Lowered<'c, 'a> = Result<Vec<Value<'c, 'a>>, String>;

/// `(bits, signed)` of an integer element type (not bool).
pub fn int_kind(element: Type<'_>) -> Option<(u32, bool)> {
    if builder::is_bool(element) {
        return None;
    }
    let t = IntegerType::try_from(element).ok()?;
    Some((t.width(), !t.is_unsigned()))
}

/// The value range of an integer type.
pub fn type_range(bits: u32, signed: bool) -> (i64, i64) {
    if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, ((1u128 << bits) - 1).min(i64::MAX as u128) as i64)
    }
}

/// True when `QuantizeLinear` / `DequantizeLinear` of the opset take this
/// integer type: 8-bit from opset 10, 16-bit from opset 21.
pub fn qdq_type(element: Type<'_>, opset: u32) -> bool {
    match int_kind(element) {
        Some((8, _)) => true,
        Some((16, _)) => opset >= 21,
        _ => false,
    }
}

/// Checks `quant_min <= quant_max` within the type's range, as torch does
/// before quantizing (`_quant_min_max_bounds_check`, `validate_qmin_qmax`).
pub fn check_range(element: Type<'_>, qmin: i64, qmax: i64) -> Result<(i64, i64), String> {
    let (bits, signed) = int_kind(element).ok_or_else(|| format!("the quantized type {element} is not an integer type"))?;
    let (lo, hi) = type_range(bits, signed);
    if qmin < lo || qmax > hi {
        return Err(format!("quant_min {qmin} / quant_max {qmax} outside the range [{lo}, {hi}] of {element}"));
    }
    if qmin > qmax {
        return Err(format!("quant_min {qmin} is above quant_max {qmax}"));
    }
    Ok((lo, hi))
}

/// A static scale as the float32 scalar the QDQ ops take; 0, negative or
/// non-finite scales are refused (torch divides by the scale).
pub fn static_scale<'c, 'a>(ctx: &Ctx<'c, 'a>, scale: f64) -> Result<Value<'c, 'a>, String> {
    if !(scale.is_finite() && scale > 0.0) || (scale as f32) == 0.0 || !(scale as f32).is_finite() {
        return Err(format!("scale {scale} is not a positive float32 number (torch divides by it)"));
    }
    ctx.b.const_scalar(ctx.b.f32_type(), scale)
}

/// A one-element tensor argument (`.tensor` overloads' scale or zero point)
/// as a 0-d value of `element`: the QDQ ops read a 1-element 1-D scale as
/// per-axis.
pub fn scalar_tensor<'c, 'a>(ctx: &Ctx<'c, 'a>, name: &str, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let v = ctx.args.tensor(name)?;
    let v = ctx.b.cast_like_type(v, element)?;
    match builder::dims(v.r#type()) {
        Some(d) if d.is_empty() => Ok(v),
        Some(d) if d.iter().all(|x| *x == Some(1)) => {
            let shape = ctx.b.const_i64s(&[])?;
            let ty = melior::ir::r#type::RankedTensorType::new(&[], element, None).into();
            ctx.b.op("Reshape", &[v, shape], &[], ty)
        }
        _ => Err(format!("'{name}' must hold one element (per-tensor quantization)")),
    }
}

/// `x` as float32 (torch quantizes float16 and bfloat16 inputs in float32;
/// other types are refused, as torch refuses them).
pub fn float32_input<'c, 'a>(ctx: &Ctx<'c, 'a>, name: &str) -> Result<Value<'c, 'a>, String> {
    let x = ctx.args.tensor(name)?;
    let element = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    if !builder::is_float(element) || element == melior::ir::r#type::Type::float64(ctx.b.context) {
        return Err(format!("quantizes float32, float16 or bfloat16 inputs, got {element}"));
    }
    ctx.b.cast_like_type(x, ctx.b.f32_type())
}

/// `Clip(q, qmin, qmax)` when the range is narrower than the type's.
pub fn clip_to<'c, 'a>(ctx: &Ctx<'c, 'a>, q: Value<'c, 'a>, range: (i64, i64), qmin: i64, qmax: i64) -> Result<Value<'c, 'a>, String> {
    if (qmin, qmax) == range {
        return Ok(q);
    }
    let element = builder::element_type(q.r#type()).ok_or("not a tensor")?;
    let lo = ctx.b.const_scalar(element, qmin as f64)?;
    let hi = ctx.b.const_scalar(element, qmax as f64)?;
    ctx.b.op_like("Clip", &[q, lo, hi], &[], q)
}

/// torch's quantization written out: `clamp(round(x * inv_scale) + zp,
/// qmin, qmax)` in float32, cast to `element`; `inv_scale` and `zp` are
/// float32 values broadcasting against `x`.
pub fn quantize_exact<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    inv_scale: Value<'c, 'a>,
    zp: Value<'c, 'a>,
    qmin: Value<'c, 'a>,
    qmax: Value<'c, 'a>,
    element: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let scaled = ctx.b.op_like("Mul", &[x, inv_scale], &[], x)?;
    let rounded = ctx.b.op_like("Round", &[scaled], &[], x)?;
    let shifted = ctx.b.op_like("Add", &[rounded, zp], &[], x)?;
    let lo = ctx.b.op_like("Max", &[shifted, qmin], &[], x)?;
    let clamped = ctx.b.op_like("Min", &[lo, qmax], &[], x)?;
    ctx.b.cast(clamped, element)
}

/// The `out_dtype` of a dequantize (float32 when absent), as a result cast.
pub fn to_out_dtype<'c, 'a>(ctx: &Ctx<'c, 'a>, y: Value<'c, 'a>) -> Lowered<'c, 'a> {
    let out = ctx.result_element(0)?;
    Ok(vec![ctx.b.cast_like_type(y, out)?])
}

/// Attributes of a per-axis QDQ op.
pub fn axis_attr(axis: i64) -> Vec<(&'static str, Attr)> {
    vec![("axis", Attr::Int(axis))]
}

/// True when `x` provably holds no NaN: a `DequantizeLinear` of integers
/// with constant finite scales (what the quantization rules write for a
/// PT2E activation), or a Reshape / Unsqueeze / Squeeze / Flatten of such a
/// value. Lowerings that spell out torch's NaN propagation (MaxPool's NaN
/// guard) skip it there: the guard is dead, and onnxruntime's QDQ
/// transformer fails to load a Q/DQ pair around it (`output_dtype INT8 does
/// not match y_zero_point type UINT8`, onnxruntime 1.32).
pub fn provably_nan_free(x: Value<'_, '_>) -> bool {
    let Some(op) = crate::ir::defining_op(x) else { return false };
    match crate::ir::op_name(op).as_str() {
        "onnx.DequantizeLinear" => {
            let Some(scale) = crate::ir::operand_at(op, 1) else { return false };
            finite_float_constant(scale)
        }
        "onnx.Reshape" | "onnx.Unsqueeze" | "onnx.Squeeze" | "onnx.Flatten" => {
            crate::ir::operand_at(op, 0).is_some_and(provably_nan_free)
        }
        _ => false,
    }
}

/// True when `v` is an `onnx.Constant` of float32 values, all finite.
fn finite_float_constant(v: Value<'_, '_>) -> bool {
    let Some(op) = crate::ir::defining_op(v) else { return false };
    if crate::ir::op_name(op) != "onnx.Constant" {
        return false;
    }
    let Ok(attr) = op.attribute("value") else { return false };
    let Some(element) = builder::element_type(v.r#type()) else { return false };
    if !unsafe { mlir_sys::mlirTypeIsAF32(element.to_raw()) } {
        return false;
    }
    let raw = attr.to_raw();
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseElements(raw) {
            return false;
        }
        let n = mlir_sys::mlirElementsAttrGetNumElements(raw);
        (0..n).all(|i| mlir_sys::mlirDenseElementsAttrGetFloatValue(raw, i as isize).is_finite())
    }
}
