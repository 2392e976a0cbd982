//! `quantized_decomposed::choose_qparams_per_token` and
//! `choose_qparams_per_token_asymmetric`: the scales and zero points of
//! dynamic per-token quantization (one per index of the leading dims, shape
//! `[..., 1]`), computed in the input's dtype as torch does:
//!
//! ```text
//! symmetric (int8 only):
//!   s = abs(x).amax(-1, keepdim=True)       (float16: then .float())
//!   s = s.clamp(min=1e-5) / 127;  zp = zeros_like(s)
//! asymmetric (always [-128, 127], dtype ignored):
//!   mn = min(amin(x, -1, keepdim), 0);  mx = max(amax(x, -1, keepdim), 0)
//!   s = max((mx - mn) / 255, float32 eps 1.1920929e-07)
//!   dmin, dmax = mn / s, mx / s
//!   zp = where((-128 + dmin) + (127 + dmax) > 0, -128 - dmin, 127 - dmax)
//!   zp = clamp(zp, -128, 127).round()
//! ```
//!
//! Eager `choose_qparams_per_token` returns float32 scales and zero points,
//! while its meta kernel (the program's types) says float64 / int64: the
//! eager values are computed and cast to the recorded types. The asymmetric
//! op returns float64 / int64 in both. (`_choose_qparams_per_token_asymmetric_impl`,
//! which the asymmetric op calls, is kept by torch.export when called
//! directly; it has no rule until an op case holds it.)

use super::quant_common::{held, number_in, Held, Lowered};
use crate::{builder, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Type, Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.quantized_decomposed::choose_qparams_per_token.default", choose_qparams_per_token),
    Rule::custom(
        "aten.quantized_decomposed::choose_qparams_per_token_asymmetric.default",
        choose_qparams_per_token_asymmetric,
    ),
    // The implementation op itself (CompositeImplicitAutograd; torch.export
    // keeps it when a program calls it directly): the same computation.
    Rule::custom(
        "aten.quantized_decomposed::_choose_qparams_per_token_asymmetric_impl.default",
        choose_qparams_per_token_asymmetric,
    ),
];

/// The float input, held as torch holds it, and its rank.
fn float_input<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<(Held<'c, 'a>, usize), String> {
    let x = ctx.args.tensor("input")?;
    let element = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    if !builder::is_float(element) {
        return Err(format!("chooses parameters for float inputs, got {element}"));
    }
    let rank = ctx.rank(x)?;
    if rank == 0 {
        return Err("the input is 0-d: torch reduces over its last dim".into());
    }
    if builder::dims(x.r#type()).is_some_and(|d| d[rank - 1] == Some(0)) {
        return Err("the input's last dim is empty: torch's amax/amin refuse it".into());
    }
    Ok((held(ctx, x)?, rank))
}

/// `op(x, -1, keepdim=True)` (max and min are exact in the compute type).
fn reduce_last<'c, 'a>(ctx: &Ctx<'c, 'a>, op: crate::Reduction, x: Held<'c, 'a>, rank: usize) -> Result<Held<'c, 'a>, String> {
    let element = builder::element_type(x.value.r#type()).ok_or("not a tensor")?;
    let v = ctx.reduce(op, x.value, Some(&[rank as i64 - 1]), true, ctx.b.unranked(element))?;
    Ok(Held { value: v, dtype: x.dtype })
}

fn results<'c, 'a>(ctx: &Ctx<'c, 'a>, scale: Value<'c, 'a>, zp: Value<'c, 'a>) -> Lowered<'c, 'a> {
    Ok(vec![ctx.b.cast_like_type(scale, ctx.result_element(0)?)?, ctx.b.cast_like_type(zp, ctx.result_element(1)?)?])
}

fn choose_qparams_per_token<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let dtype = ctx.args.dtype("dtype")?.ok_or("dtype is required")?;
    let i8_type: Type<'c> = IntegerType::new(ctx.b.context, 8).into();
    if dtype != i8_type {
        return Err(format!("torch's choose_qparams_per_token supports int8 only, got {dtype}"));
    }
    let (x, rank) = float_input(ctx)?;
    let mut s = reduce_last(ctx, crate::Reduction::Max, x.abs(ctx)?, rank)?;
    if s.dtype == Type::float16(ctx.b.context) {
        s = s.to(ctx, ctx.b.f32_type())?;
    }
    let s = s.clamp(ctx, Some(1e-5), None)?.div(ctx, number_in(ctx, 127.0, s.dtype)?)?;
    // zeros_like(scales), in the zero point's recorded type.
    let zero = ctx.b.const_scalar(ctx.result_element(1)?, 0.0)?;
    let shape = ctx.b.shape(s.value)?;
    let zp = ctx.b.onnx().expand(zero, shape).like(zero)?;
    results(ctx, s.value, zp)
}

fn choose_qparams_per_token_asymmetric<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let (x, rank) = float_input(ctx)?;
    let dt = x.dtype;
    let (qmin, qmax) = (-128.0, 127.0);
    let mn = reduce_last(ctx, crate::Reduction::Min, x, rank)?.min(ctx, number_in(ctx, 0.0, dt)?)?;
    let mx = reduce_last(ctx, crate::Reduction::Max, x, rank)?.max(ctx, number_in(ctx, 0.0, dt)?)?;
    let s = mx.sub(ctx, mn)?.div(ctx, number_in(ctx, qmax - qmin, dt)?)?;
    let s = s.clamp(ctx, Some(f32::EPSILON as f64), None)?;
    let dmin = mn.div(ctx, s)?;
    let dmax = mx.div(ctx, s)?;
    let from_min = number_in(ctx, qmin, dt)?.add(ctx, dmin)?;
    let from_max = number_in(ctx, qmax, dt)?.add(ctx, dmax)?;
    let total = from_min.add(ctx, from_max)?;
    let zero = ctx.b.const_scalar(builder::element_type(total.value.r#type()).ok_or("not a tensor")?, 0.0)?;
    let bool_type: Type<'c> = IntegerType::new(ctx.b.context, 1).into();
    let positive = ctx.b.onnx().greater(total.value, zero).typed(ctx.b.unranked(bool_type))?;
    let low = number_in(ctx, qmin, dt)?.sub(ctx, dmin)?;
    let high = number_in(ctx, qmax, dt)?.sub(ctx, dmax)?;
    let zp = ctx.b.onnx().where_(positive, low.value, high.value).like(low.value)?;
    let zp = Held { value: zp, dtype: dt }.clamp(ctx, Some(qmin), Some(qmax))?.round(ctx)?;
    results(ctx, s.value, zp.value)
}
