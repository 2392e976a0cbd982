//! torchao's float8 primitives: `torchao::choose_scale_float8`,
//! `quantize_affine_float8_non_decomposed` and
//! `dequantize_affine_float8_non_decomposed` (torchao 0.18). torch:
//!
//! ```text
//! choose_scale: s = amax(|x|) per block (keepdim) [clamped to [lb, ub]] / finfo(f8).max,
//!               reshaped to [size / block]; scale_dtype float8_e8m0fnu: exp2(round(log2(s)));
//!               returned as float32
//! quantize:     clamp(x.float() / scale, -max, max).to(f8)      (round to nearest even)
//! dequantize:   (f8.float() * scale).to(output_dtype)
//! ```
//!
//! the scale broadcasting against the tensor, or repeated over its blocks
//! (`repeat_interleave`) when it has one element per block. A per-tensor or
//! per-axis scale gives `QuantizeLinear` / `DequantizeLinear` with a float8
//! zero point (saturate = 1 is the clamp; the QDQ ops divide by the scale
//! and multiply by it, exactly torch's operations); other scales are
//! divided (multiplied) explicitly, then quantized with scale 1. float8
//! types exist from opset 19.

use super::quant_common::{float8_max, held, number_in, reshape, static_dims, Held, Lowered};
use crate::{builder, Ctx, Rule, MAX_OPSET};
use melior::ir::{attribute::FloatAttribute, r#type::RankedTensorType, Type, Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.torchao::choose_scale_float8.default", choose_scale_float8),
    Rule::custom("aten.torchao::quantize_affine_float8_non_decomposed.default", quantize_float8).opsets(19, MAX_OPSET),
    Rule::custom("aten.torchao::dequantize_affine_float8_non_decomposed.default", dequantize_float8)
        .opsets(19, MAX_OPSET),
];

fn choose_scale_float8<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let x = ctx.args.tensor("tensor")?;
    let dt = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    if !builder::is_float(dt) || dt.to_string().starts_with("f8") {
        return Err(format!("chooses scales for float inputs, got {dt}"));
    }
    let f8 = ctx.args.dtype("float8_dtype")?;
    let quant_max = match f8 {
        Some(t) => float8_max(t)?,
        None => 448.0,
    };
    let e8m0 = match ctx.args.dtype("scale_dtype")? {
        None => false,
        Some(t) if t == ctx.b.f32_type() => false,
        Some(t) if t.to_string() == "f8E8M0FNU" => true,
        Some(t) => return Err(format!("scale_dtype {t}: torchao supports float32 and float8_e8m0fnu")),
    };
    let sizes = static_dims(x, "the input")?;
    let block = ctx.args.ints("block_size")?;
    let view = super::quant_common::block_view(&sizes, &block)?;
    let xr = held(ctx, reshape(ctx, x, &view.split)?)?.abs(ctx)?;
    let axes = (!view.reduced.is_empty()).then_some(view.reduced.as_slice());
    let compute = builder::element_type(xr.value.r#type()).ok_or("not a tensor")?;
    let amax = ctx.reduce(crate::Reduction::Max, xr.value, axes, true, ctx.b.unranked(compute))?;
    let mut s = Held { value: amax, dtype: dt };
    let (lb, ub) = (ctx.args.opt_float("hp_value_lb")?, ctx.args.opt_float("hp_value_ub")?);
    if lb.is_some() || ub.is_some() {
        s = s.clamp(ctx, lb, ub)?;
    }
    let s = s.div(ctx, number_in(ctx, quant_max, dt)?)?;
    let out_dims: Vec<i64> = sizes.iter().zip(&block).map(|(n, b)| n / b).collect();
    let s = Held { value: reshape(ctx, s.value, &out_dims)?, dtype: dt };
    let s = if e8m0 { power_of_two(ctx, s)? } else { s };
    Ok(vec![ctx.b.cast_like_type(s.value, ctx.result_element(0)?)?])
}

/// `exp2(round(log2(s)))` in `s`'s dtype: log2 computed in float64 and
/// rounded to the dtype (torch's float32 log2 is within an ulp of that),
/// rounded half to even, 2^r exact in float64.
fn power_of_two<'c, 'a>(ctx: &Ctx<'c, 'a>, s: Held<'c, 'a>) -> Result<Held<'c, 'a>, String> {
    let f64_type = Type::float64(ctx.b.context);
    let wide = ctx.b.cast_like_type(s.value, f64_type)?;
    let ln = ctx.b.onnx().log(wide).like(wide)?;
    let ln2 = ctx.b.const_scalar(f64_type, std::f64::consts::LN_2)?;
    let log2 = ctx.b.onnx().div(ln, ln2).like(ln)?;
    let log2 = Held { value: log2, dtype: f64_type }.to(ctx, s.dtype)?.round(ctx)?;
    let r = ctx.b.cast_like_type(log2.value, f64_type)?;
    let two = ctx.b.const_scalar(f64_type, 2.0)?;
    let p = ctx.b.onnx().pow(two, r).like(r)?;
    Held { value: p, dtype: f64_type }.to(ctx, s.dtype)
}

/// How a float8 scale meets the tensor (torchao's
/// `_maybe_expand_scale_to_tensor_shape`).
enum Layout {
    /// One element: a 0-d scale.
    Tensor,
    /// One non-1 dim, equal to the tensor's: per-axis.
    Axis(usize),
    /// Broadcasts as it is (the scale's dims, each 1 or the tensor's).
    Broadcast,
    /// One element per block: repeated `blocks[i]` times along dim i.
    Blocks(Vec<i64>),
}

fn layout(x: &[i64], s: &[i64]) -> Result<Layout, String> {
    if s.iter().product::<i64>() == 1 {
        return Ok(Layout::Tensor);
    }
    if s.len() != x.len() {
        return Err(format!("a scale of shape {s:?} for a tensor of shape {x:?}: the ranks differ"));
    }
    if s.iter().zip(x).all(|(a, b)| a == b || *a == 1) {
        let non_one: Vec<usize> = (0..s.len()).filter(|i| s[*i] != 1).collect();
        return Ok(if non_one.len() == 1 { Layout::Axis(non_one[0]) } else { Layout::Broadcast });
    }
    let mut blocks = Vec::new();
    for (i, (&n, &c)) in x.iter().zip(s).enumerate() {
        if c == 0 || n % c != 0 {
            return Err(format!("dim {i}: tensor size {n} is not a multiple of the scale's size {c}"));
        }
        blocks.push(n / c);
    }
    Ok(Layout::Blocks(blocks))
}

/// The scale as the QDQ ops take it (0-d, or 1-D along `axis`), or
/// expanded to broadcast against the tensor.
fn shaped_scale<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    s: Value<'c, 'a>,
    x_dims: &[i64],
    layout: &Layout,
) -> Result<Value<'c, 'a>, String> {
    match layout {
        Layout::Tensor => reshape(ctx, s, &[]),
        Layout::Axis(axis) => reshape(ctx, s, &[x_dims[*axis]]),
        Layout::Broadcast => Ok(s),
        Layout::Blocks(blocks) => {
            // [c0, c1, ...] -> [c0, 1, c1, 1, ...] -> Expand [c0, b0, c1, b1, ...] -> [n0, n1, ...]
            let s_dims: Vec<i64> = x_dims.iter().zip(blocks).map(|(n, b)| n / b).collect();
            let inter: Vec<i64> = s_dims.iter().flat_map(|c| [*c, 1]).collect();
            let full: Vec<i64> = s_dims.iter().zip(blocks).flat_map(|(c, b)| [*c, *b]).collect();
            let v = reshape(ctx, s, &inter)?;
            let shape = ctx.b.const_i64s(&full)?;
            let v = ctx.b.onnx().expand(v, shape).like(v)?;
            reshape(ctx, v, x_dims)
        }
    }
}

/// A float8 zero point matching a QDQ scale (0-d, or zeros of `[n]`).
fn float8_zero<'c, 'a>(ctx: &Ctx<'c, 'a>, f8: Type<'c>, n: Option<i64>) -> Result<Value<'c, 'a>, String> {
    match n {
        None => ctx.b.const_scalar(f8, 0.0),
        Some(n) => {
            let ty = RankedTensorType::new(&[n as u64], f8, None).into();
            let zero = FloatAttribute::new(ctx.b.context, f8, 0.0).into();
            ctx.b.constant(ty, &vec![zero; n as usize])
        }
    }
}

fn scale_and_layout<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<(Value<'c, 'a>, Vec<i64>, Layout), String> {
    let scale = ctx.args.tensor("scale")?;
    let x_dims = static_dims(x, "the tensor")?;
    let layout = layout(&x_dims, &static_dims(scale, "the scale")?)?;
    Ok((scale, x_dims, layout))
}

fn quantize_float8<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let f8 = ctx.result_element(0)?;
    // The clamp to [-max, max] is QuantizeLinear's saturation.
    float8_max(f8)?;
    let x = ctx.args.tensor("tensor")?;
    let x_type = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    if !builder::is_float(x_type) || x_type.to_string().starts_with("f8") {
        return Err(format!("quantizes float inputs, got {x_type}"));
    }
    let f32_type = ctx.b.f32_type();
    let (scale, x_dims, layout) = scale_and_layout(ctx, x)?;
    let s_type = builder::element_type(scale.r#type()).ok_or("the scale is not a tensor")?;
    if s_type == Type::float64(ctx.b.context) {
        return Err("a float64 scale (torch divides in float64 then) is not supported".into());
    }
    // `tensor.to(float32)`; a half scale promotes to float32 exactly.
    let x = ctx.b.cast_like_type(x, f32_type)?;
    let scale = ctx.b.cast_like_type(scale, f32_type)?;
    match layout {
        Layout::Tensor => {
            let s = shaped_scale(ctx, scale, &x_dims, &layout)?;
            let zp = float8_zero(ctx, f8, None)?;
            let node = ctx.b.onnx().quantize_linear(x, s, Some(zp), None, None, None, None, Some(1));
            Ok(vec![node.typed(ctx.result_type(0)?)?])
        }
        Layout::Axis(axis) => {
            let s = shaped_scale(ctx, scale, &x_dims, &layout)?;
            let zp = float8_zero(ctx, f8, Some(x_dims[axis]))?;
            let node = ctx.b.onnx().quantize_linear(x, s, Some(zp), Some(axis as i64), None, None, None, Some(1));
            Ok(vec![node.typed(ctx.result_type(0)?)?])
        }
        Layout::Broadcast | Layout::Blocks(_) => {
            let s = shaped_scale(ctx, scale, &x_dims, &layout)?;
            let scaled = ctx.b.onnx().div(x, s).like(x)?;
            let one = ctx.b.const_scalar(f32_type, 1.0)?;
            let zp = float8_zero(ctx, f8, None)?;
            let node = ctx.b.onnx().quantize_linear(scaled, one, Some(zp), None, None, None, None, Some(1));
            Ok(vec![node.typed(ctx.result_type(0)?)?])
        }
    }
}

fn dequantize_float8<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let q = ctx.args.tensor("tensor")?;
    let q_type = builder::element_type(q.r#type()).ok_or("the input is not a tensor")?;
    if !q_type.to_string().starts_with("f8") {
        return Err(format!("dequantizes float8 tensors, got {q_type}"));
    }
    float8_max(q_type)?;
    let out = ctx.result_element(0)?;
    let f32_type = ctx.b.f32_type();
    let (scale, x_dims, layout) = scale_and_layout(ctx, q)?;
    let s_type = builder::element_type(scale.r#type()).ok_or("the scale is not a tensor")?;
    let f32_ty = builder::with_element_type(q.r#type(), f32_type).ok_or("unranked input")?;
    let y = if s_type == Type::float64(ctx.b.context) {
        // float32 values times float64 scales: a float64 product.
        let f64_type = Type::float64(ctx.b.context);
        let v = ctx.b.cast(ctx.b.cast(q, f32_type)?, f64_type)?;
        let s = shaped_scale(ctx, scale, &x_dims, &layout)?;
        ctx.b.onnx().mul(v, s).like(v)?
    } else {
        let scale = ctx.b.cast_like_type(scale, f32_type)?;
        let s = shaped_scale(ctx, scale, &x_dims, &layout)?;
        match layout {
            Layout::Tensor => ctx.b.onnx().dequantize_linear(q, s, None, None, None, None).typed(f32_ty)?,
            Layout::Axis(axis) => ctx.b.onnx().dequantize_linear(q, s, None, Some(axis as i64), None, None).typed(f32_ty)?,
            Layout::Broadcast | Layout::Blocks(_) => {
                let v = ctx.b.cast(q, f32_type)?;
                ctx.b.onnx().mul(v, s).like(v)?
            }
        }
    };
    Ok(vec![ctx.b.cast_like_type(y, out)?])
}
