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

use crate::{builder, Ctx};
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
            ctx.b.onnx().reshape(v, shape, None).typed(ty)
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
    ctx.b.onnx().clip(q, Some(lo), Some(hi)).like(q)
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
    let scaled = ctx.b.onnx().mul(x, inv_scale).like(x)?;
    let rounded = ctx.b.onnx().round(scaled).like(x)?;
    let shifted = ctx.b.onnx().add(rounded, zp).like(x)?;
    let lo = ctx.b.onnx().max(&[shifted, qmin]).like(x)?;
    let clamped = ctx.b.onnx().min(&[lo, qmax]).like(x)?;
    ctx.b.cast(clamped, element)
}

/// The `out_dtype` of a dequantize (float32 when absent), as a result cast.
pub fn to_out_dtype<'c, 'a>(ctx: &Ctx<'c, 'a>, y: Value<'c, 'a>) -> Lowered<'c, 'a> {
    let out = ctx.result_element(0)?;
    Ok(vec![ctx.b.cast_like_type(y, out)?])
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

// ==========================================================================
// torch's arithmetic written out op by op (per-token, per-group, fake
// quantization and torchao's primitives): the dtypes torch promotes to, and
// the roundings of float16 / bfloat16 ops
// ==========================================================================

/// A value as torch holds it: `value` is in `compute_type(dtype)` (a
/// float16 / bfloat16 tensor is carried in float32, its values exactly
/// those of the half type), `dtype` is the torch dtype.
#[derive(Clone, Copy)]
pub struct Held<'c, 'a> {
    pub value: Value<'c, 'a>,
    pub dtype: Type<'c>,
}

/// The element type torch computes a dtype's ops in: float32 for float16 and
/// bfloat16 (the CPU kernels compute half ops in float32 and round each op's
/// result to the half type), the dtype itself otherwise.
pub fn compute_type<'c>(ctx: &Ctx<'c, '_>, dtype: Type<'c>) -> Type<'c> {
    if builder::is_half_float(dtype) {
        ctx.b.f32_type()
    } else {
        dtype
    }
}

/// `v` (in `compute_type(dtype)`) rounded as a torch op's result of `dtype`
/// is: a float32 -> half -> float32 round trip for the half types.
pub fn round_to<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, dtype: Type<'c>) -> Result<Value<'c, 'a>, String> {
    if !builder::is_half_float(dtype) {
        return Ok(v);
    }
    let half = ctx.b.cast(v, dtype)?;
    ctx.b.cast(half, ctx.b.f32_type())
}

/// An onnx value as torch holds it (half types widened, exactly).
pub fn held<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>) -> Result<Held<'c, 'a>, String> {
    let dtype = builder::element_type(v.r#type()).ok_or("not a tensor")?;
    Ok(Held { value: ctx.b.cast_like_type(v, compute_type(ctx, dtype))?, dtype })
}

/// A Python number in a torch op of `dtype` (in its compute type: torch
/// keeps the numbers of half ops in float32; the integers used here are
/// exact in every type).
pub fn number_in<'c, 'a>(ctx: &Ctx<'c, 'a>, value: f64, dtype: Type<'c>) -> Result<Held<'c, 'a>, String> {
    Ok(Held { value: ctx.b.const_scalar(compute_type(ctx, dtype), value)?, dtype })
}

/// True for the integer types (not bool).
fn is_int(t: Type<'_>) -> bool {
    int_kind(t).is_some()
}

/// torch's result dtype of a binary op on two dimensioned tensors: a float
/// wins over an integer, the wider float wins, float16 with bfloat16 gives
/// float32; two integer types give the wider one (signed when widths tie).
pub fn promote<'c>(ctx: &Ctx<'c, '_>, a: Type<'c>, b: Type<'c>) -> Result<Type<'c>, String> {
    if a == b {
        return Ok(a);
    }
    let f64_type = Type::float64(ctx.b.context);
    match (builder::is_float(a), builder::is_float(b)) {
        (true, false) if is_int(b) || builder::is_bool(b) => Ok(a),
        (false, true) if is_int(a) || builder::is_bool(a) => Ok(b),
        (true, true) if a == f64_type || b == f64_type => Ok(f64_type),
        (true, true) => Ok(ctx.b.f32_type()),
        _ => match (int_kind(a), int_kind(b)) {
            // A signed type holds an unsigned one of fewer bits; uint8 with
            // int8 gives int16 (torch's table).
            (Some((wa, sa)), Some((wb, sb))) if sa == sb || (sa && wa > wb) || (sb && wb > wa) => {
                Ok(if wa >= wb { a } else { b })
            }
            (Some((wa, _)), Some((wb, _))) => {
                let width = (2 * wa.max(wb)).min(64);
                Ok(IntegerType::new(ctx.b.context, width).into())
            }
            _ => Err(format!("no common type of {a} and {b}")),
        },
    }
}

impl<'c, 'a> Held<'c, 'a> {
    /// torch's `.to(dtype)` (float to int truncates toward zero).
    pub fn to(self, ctx: &Ctx<'c, 'a>, dtype: Type<'c>) -> Result<Held<'c, 'a>, String> {
        if dtype == self.dtype {
            return Ok(self);
        }
        if builder::is_float(dtype) {
            let wide = ctx.b.cast_like_type(self.value, compute_type(ctx, dtype))?;
            return Ok(Held { value: round_to(ctx, wide, dtype)?, dtype });
        }
        Ok(Held { value: ctx.b.cast_like_type(self.value, dtype)?, dtype })
    }

    /// The result `v` of a one-operand op of torch, rounded to the value's dtype.
    fn unary_result(self, ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        Ok(Held { value: round_to(ctx, v, self.dtype)?, dtype: self.dtype })
    }

    pub fn round(self, ctx: &Ctx<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        self.unary_result(ctx, ctx.b.onnx().round(self.value).like(self.value)?)
    }

    pub fn abs(self, ctx: &Ctx<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        self.unary_result(ctx, ctx.b.onnx().abs(self.value).like(self.value)?)
    }

    pub fn neg(self, ctx: &Ctx<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        self.unary_result(ctx, ctx.b.onnx().neg(self.value).like(self.value)?)
    }

    pub fn reciprocal(self, ctx: &Ctx<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        self.unary_result(ctx, ctx.b.onnx().reciprocal(self.value).like(self.value)?)
    }

    /// The operands of `self <op> other` as torch computes it: both converted
    /// to the promoted dtype (returned), in its compute type; integer ops run
    /// in int64.
    fn operands(self, ctx: &Ctx<'c, 'a>, other: Held<'c, 'a>) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Type<'c>), String> {
        let dtype = promote(ctx, self.dtype, other.dtype)?;
        if is_int(dtype) {
            let i64_type = ctx.b.i64_type();
            let (l, r) = (ctx.b.cast_like_type(self.value, i64_type)?, ctx.b.cast_like_type(other.value, i64_type)?);
            return Ok((l, r, dtype));
        }
        let (l, r) = (self.to(ctx, dtype)?, other.to(ctx, dtype)?);
        Ok((l.value, r.value, dtype))
    }

    /// The result `v` of a binary op on [`Held::operands`], back in `dtype`:
    /// integers wrap to it, floats are rounded to it.
    fn binary_result(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, dtype: Type<'c>) -> Result<Held<'c, 'a>, String> {
        if is_int(dtype) {
            return Ok(Held { value: ctx.b.cast_like_type(v, dtype)?, dtype });
        }
        Ok(Held { value: round_to(ctx, v, dtype)?, dtype })
    }

    pub fn add(self, ctx: &Ctx<'c, 'a>, other: Held<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        let (l, r, dtype) = self.operands(ctx, other)?;
        Self::binary_result(ctx, ctx.b.onnx().add(l, r).like(l)?, dtype)
    }

    pub fn sub(self, ctx: &Ctx<'c, 'a>, other: Held<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        let (l, r, dtype) = self.operands(ctx, other)?;
        Self::binary_result(ctx, ctx.b.onnx().sub(l, r).like(l)?, dtype)
    }

    pub fn mul(self, ctx: &Ctx<'c, 'a>, other: Held<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        let (l, r, dtype) = self.operands(ctx, other)?;
        Self::binary_result(ctx, ctx.b.onnx().mul(l, r).like(l)?, dtype)
    }

    pub fn div(self, ctx: &Ctx<'c, 'a>, other: Held<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        let (l, r, dtype) = self.operands(ctx, other)?;
        Self::binary_result(ctx, ctx.b.onnx().div(l, r).like(l)?, dtype)
    }

    pub fn min(self, ctx: &Ctx<'c, 'a>, other: Held<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        let (l, r, dtype) = self.operands(ctx, other)?;
        Self::binary_result(ctx, ctx.b.onnx().min(&[l, r]).like(l)?, dtype)
    }

    pub fn max(self, ctx: &Ctx<'c, 'a>, other: Held<'c, 'a>) -> Result<Held<'c, 'a>, String> {
        let (l, r, dtype) = self.operands(ctx, other)?;
        Self::binary_result(ctx, ctx.b.onnx().max(&[l, r]).like(l)?, dtype)
    }

    /// `torch.clamp(self, lo, hi)` with Python numbers (NaN stays NaN).
    pub fn clamp(self, ctx: &Ctx<'c, 'a>, lo: Option<f64>, hi: Option<f64>) -> Result<Held<'c, 'a>, String> {
        let mut v = self;
        if let Some(lo) = lo {
            v = v.max(ctx, number_in(ctx, lo, self.dtype)?)?;
        }
        if let Some(hi) = hi {
            v = v.min(ctx, number_in(ctx, hi, self.dtype)?)?;
        }
        Ok(v)
    }
}

/// `Reshape(v, dims)` (static dims; `-1` allowed).
pub fn reshape<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, dims: &[i64]) -> Result<Value<'c, 'a>, String> {
    let element = builder::element_type(v.r#type()).ok_or("not a tensor")?;
    let shape = ctx.b.const_i64s(dims)?;
    let ty = if dims.iter().all(|d| *d >= 0) {
        let d: Vec<u64> = dims.iter().map(|d| *d as u64).collect();
        melior::ir::r#type::RankedTensorType::new(&d, element, None).into()
    } else {
        ctx.b.unranked(element)
    };
    ctx.b.onnx().reshape(v, shape, None).typed(ty)
}

/// The static sizes of `v` (torchao's block views and torch's reshapes of
/// these ops are written with constant shapes).
pub fn static_dims(v: Value<'_, '_>, what: &str) -> Result<Vec<i64>, String> {
    let dims = builder::dims(v.r#type()).ok_or_else(|| format!("{what} has an unknown rank"))?;
    dims.iter()
        .enumerate()
        .map(|(i, d)| {
            d.ok_or_else(|| format!("{what} has a dynamic size at dim {i}: the block view needs static sizes"))
        })
        .collect()
}

/// `v` cast to an integer `element` as torch's `.to(element)` does after a
/// clamp to `[qmin, qmax]`: directly when the range fits the type, else
/// through int64 (values outside the type wrap around, as torch's cast
/// does on x86).
pub fn to_int<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    v: Held<'c, 'a>,
    element: Type<'c>,
    qmin: f64,
    qmax: f64,
) -> Result<Value<'c, 'a>, String> {
    let (bits, signed) =
        int_kind(element).ok_or_else(|| format!("the quantized type {element} is not an integer type"))?;
    let (lo, hi) = type_range(bits, signed);
    if qmin >= lo as f64 && qmax <= hi as f64 {
        return ctx.b.cast_like_type(v.value, element);
    }
    let wide = ctx.b.cast_like_type(v.value, ctx.b.i64_type())?;
    ctx.b.cast_like_type(wide, element)
}

/// Where the zero point goes in a written-out quantization.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ZeroPoint {
    /// `round(x * (1 / s)) + zp` (quantize_per_tensor/channel, torchao).
    AfterRound,
    /// `round(x * (1 / s) + zp)` (quantize_per_token, quantize_per_channel_group).
    BeforeRound,
}

/// torch's `clamp(round(x * (1.0 / s)) + zp, qmin, qmax)` (or with the zero
/// point added before rounding) in torch's dtypes: `1.0 / s` in the scale's
/// dtype, the product in `promote(x, s)`, the zero point's addition in
/// `promote(that, zp)`; `x`, `s` and `zp` broadcast against each other.
/// Returns the clamped float value (cast it with [`to_int`]).
pub fn quantize_held<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Held<'c, 'a>,
    s: Held<'c, 'a>,
    zp: Option<Held<'c, 'a>>,
    order: ZeroPoint,
    qmin: f64,
    qmax: f64,
) -> Result<Held<'c, 'a>, String> {
    // `1.0 / s` is torch's `s.reciprocal() * 1.0`. `Reciprocal` (exact in
    // onnxruntime), not `Div(1, s)`: onnxruntime's DivMulFusion rewrites
    // `x * Div(1, s)` into `x / s`, which rounds differently.
    let inv = s.reciprocal(ctx)?;
    let mut v = x.mul(ctx, inv)?;
    if order == ZeroPoint::AfterRound {
        v = v.round(ctx)?;
    }
    if let Some(zp) = zp {
        v = v.add(ctx, zp)?;
    }
    if order == ZeroPoint::BeforeRound {
        v = v.round(ctx)?;
    }
    v.clamp(ctx, Some(qmin), Some(qmax))
}

/// `(q - zp) * s` with torch's promotions (`q - zp` in the integer type
/// both promote to, or in the zero point's float dtype; the product in
/// `promote(that, s)`).
pub fn dequantize_held<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    q: Held<'c, 'a>,
    zp: Option<Held<'c, 'a>>,
    s: Held<'c, 'a>,
) -> Result<Held<'c, 'a>, String> {
    let d = match zp {
        Some(zp) => q.sub(ctx, zp)?,
        None => q,
    };
    d.mul(ctx, s)
}

/// `v` ([C]) reshaped to broadcast along `axis` of a rank-`rank` tensor.
pub fn along_axis<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    v: Value<'c, 'a>,
    axis: usize,
    rank: usize,
) -> Result<Value<'c, 'a>, String> {
    let axes: Vec<i64> = (0..rank as i64).filter(|a| *a != axis as i64).collect();
    if axes.is_empty() {
        return Ok(v);
    }
    ctx.unsqueeze(v, &axes)
}

/// An optional Python number argument (`Scalar?`).
pub fn opt_number(ctx: &Ctx<'_, '_>, name: &str) -> Result<Option<f64>, String> {
    if ctx.args.is_none(name)? {
        return Ok(None);
    }
    ctx.args.number(name).map(|n| Some(n.as_f64()))
}

/// The number of elements of a static shape.
pub fn numel(dims: &[i64]) -> i64 {
    dims.iter().product()
}

// ==========================================================================
// torchao's block views (`_get_reduction_params`)
// ==========================================================================

/// How torchao views a tensor for a `block_size`: dim `i` of size `n` with
/// block `b` becomes `[n / b, b]` when `1 < b < n` (the block part reduced),
/// stays `[n]` and is reduced when `b == n > 1`, stays `[n]` unreduced when
/// `b == 1`. Scales and zero points are viewed as `params`: the view with 1
/// at the reduced positions (their element count is the number of blocks,
/// row-major).
pub struct BlockView {
    pub split: Vec<i64>,
    pub reduced: Vec<i64>,
    pub params: Vec<i64>,
}

pub fn block_view(sizes: &[i64], block: &[i64]) -> Result<BlockView, String> {
    if block.len() != sizes.len() {
        return Err(format!("block_size {block:?} has {} entries for a tensor of rank {}", block.len(), sizes.len()));
    }
    let mut view = BlockView { split: Vec::new(), reduced: Vec::new(), params: Vec::new() };
    for (i, (&n, &b)) in sizes.iter().zip(block).enumerate() {
        if b < 1 {
            return Err(format!("block_size {block:?}: block {b} of dim {i} is not positive"));
        }
        if b != n && b > 1 {
            if n % b != 0 {
                return Err(format!("dim {i} of size {n} is not divisible by its block size {b} (torchao asserts it)"));
            }
            view.split.extend([n / b, b]);
            view.params.extend([n / b, 1]);
            view.reduced.push(view.split.len() as i64 - 1);
        } else {
            view.split.push(n);
            if b != 1 {
                view.reduced.push(view.split.len() as i64 - 1);
                view.params.push(1);
            } else {
                view.params.push(n);
            }
        }
    }
    Ok(view)
}

/// A scale or zero point viewed as `params` (torch's `.view`: the element
/// count must match).
pub fn view_params<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    v: Value<'c, 'a>,
    params: &[i64],
    name: &str,
) -> Result<Value<'c, 'a>, String> {
    if let Some(dims) = builder::dims(v.r#type()) {
        if dims.iter().all(Option::is_some) {
            let n: i64 = dims.iter().map(|d| d.unwrap()).product();
            if n != numel(params) {
                return Err(format!("'{name}' has {n} elements, the block_size gives {} blocks", numel(params)));
            }
        }
    }
    reshape(ctx, v, params)
}

/// torchao's bounds of a quantized integer dtype (`_DTYPE_TO_QVALUE_BOUNDS`:
/// uint8, int8, int16, int32 and the sub-byte types), with `quant_min` /
/// `quant_max` defaulting to them and checked against them.
pub fn torchao_range(ctx: &Ctx<'_, '_>, element: Type<'_>) -> Result<(f64, f64), String> {
    let bounds = match int_kind(element) {
        Some((bits, signed)) if bits < 8 || (bits == 8) || (signed && (bits == 16 || bits == 32)) => type_range(bits, signed),
        _ => {
            return Err(format!(
                "torchao quantizes to uint8, int8, int16, int32 or sub-byte integers here, not {element} (float8: use the *_float8 ops)"
            ))
        }
    };
    let (lo, hi) = (bounds.0 as f64, bounds.1 as f64);
    let qmin = opt_number(ctx, "quant_min")?.unwrap_or(lo);
    let qmax = opt_number(ctx, "quant_max")?.unwrap_or(hi);
    if qmin < lo || qmax > hi {
        return Err(format!(
            "quant_min {qmin} / quant_max {qmax} outside the range [{lo}, {hi}] of {element} (torchao asserts it)"
        ));
    }
    Ok((qmin, qmax))
}

/// The largest finite value of a float8 type (`torch.finfo(dtype).max`).
pub fn float8_max(element: Type<'_>) -> Result<f64, String> {
    match element.to_string().as_str() {
        "f8E4M3FN" => Ok(448.0),
        "f8E5M2" => Ok(57344.0),
        other => {
            Err(format!("float8 type {other} is not supported (float8_e4m3fn and float8_e5m2 are: ONNX has no other)"))
        }
    }
}

/// Zero points as the QDQ ops take them, of `element`: a weight (PT2E's
/// int64 zero-point buffers) becomes an `onnx.weight_transform{kind =
/// "narrow"}`, an int8 initializer the writer checks value by value (an
/// out-of-range zero point fails the conversion, it would not be the
/// program's); any other value is cast.
/// True when the zero point argument `name` is a float tensor (torch's
/// `per_channel_affine_float_qparams`, EmbeddingQuantizer's: `135.92`):
/// torch then computes with the fraction (`(q - zp) * scale`), which an
/// integer zero point of `QuantizeLinear` / `DequantizeLinear` would drop.
pub fn float_zero_point(ctx: &Ctx<'_, '_>, name: &str) -> Result<bool, String> {
    Ok(match ctx.args.opt_tensor(name)? {
        Some(v) => builder::element_type(v.r#type()).is_some_and(builder::is_float),
        None => false,
    })
}

pub fn zero_points_as<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let from = builder::element_type(v.r#type()).ok_or("zero points are not a tensor")?;
    if from == element {
        return Ok(v);
    }
    if crate::onnx_ir::is_weight_value(v) && int_kind(from).is_some() && int_kind(element).is_some() {
        if let Some(ty) = builder::with_element_type(v.r#type(), element) {
            let kind = (
                melior::ir::Identifier::new(ctx.b.context, "kind"),
                melior::ir::attribute::StringAttribute::new(ctx.b.context, "narrow").into(),
            );
            // `to` (as Cast's): two narrowings of one weight to two types
            // are two values, not one e-node of the optimizer.
            let code = crate::onnx_ir::data_type_code(element).ok_or("zero point type without an ONNX code")?;
            let to = (
                melior::ir::Identifier::new(ctx.b.context, "to"),
                melior::ir::attribute::IntegerAttribute::new(ctx.b.i64_type(), code).into(),
            );
            return Ok(ctx.b.build_raw("weight_transform", &[v], vec![kind, to], &[ty])?.remove(0));
        }
    }
    ctx.b.cast_like_type(v, element)
}
