//! `torchao::choose_qparams_affine(input, mapping_type, block_size,
//! target_dtype, quant_min, quant_max, eps, scale_dtype, zero_point_dtype,
//! keepdim)`: the scale and zero point of each block (torchao 0.18's
//! `_choose_qparams_affine`), in the input's dtype, in torchao's order:
//!
//! ```text
//! mn, mx = amin / amax over the block dims of the block view
//! mn_neg, mx_pos = min(mn, 0), max(mx, 0)
//! SYMMETRIC:                 scale = max(-mn_neg, mx_pos) / ((qmax - qmin) / 2)
//! SYMMETRIC_NO_CLIPPING_ERR: scale = where(smin > smax, smin, smax),
//!                            smin = mn_neg / qmin, smax = mx_pos / qmax
//!   (both) zp = full_like(scale, int((qmax + qmin + 1) / 2)); scale = max(scale, eps)
//! ASYMMETRIC:                scale = max((mx_pos - mn_neg) / (qmax - qmin), eps)
//!                            zp = clamp(qmin - round(mn_neg / scale), qmin, qmax)
//! ```
//!
//! `eps` defaults to `finfo(input.dtype).smallest_normal`, `scale_dtype` to
//! the input's dtype; the zero point keeps the scale's float dtype in the
//! symmetric modes unless `zero_point_dtype` is given (int32 by default in
//! the asymmetric one). The results are reshaped to the recorded shapes
//! (`keepdim` only changes those).

use super::quant_common::{held, number_in, reshape, static_dims, torchao_range, Held, Lowered};
use crate::{builder, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Type, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.torchao::choose_qparams_affine.default", choose_qparams_affine)];

/// `finfo(dtype).smallest_normal`.
fn smallest_normal(ctx: &Ctx<'_, '_>, dtype: Type<'_>) -> f64 {
    if dtype == Type::float64(ctx.b.context) {
        f64::MIN_POSITIVE
    } else if dtype == Type::float16(ctx.b.context) {
        2f64.powi(-14)
    } else {
        // float32 and bfloat16
        2f64.powi(-126)
    }
}

fn choose_qparams_affine<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Lowered<'c, 'a> {
    let target = ctx.args.dtype("target_dtype")?.ok_or("target_dtype is required")?;
    let (qmin, qmax) = torchao_range(ctx, target)?;
    let mapping = ctx.args.string("mapping_type")?;
    if !matches!(mapping.as_str(), "SYMMETRIC" | "SYMMETRIC_NO_CLIPPING_ERR" | "ASYMMETRIC") {
        return Err(format!(
            "unsupported mapping type {mapping} (torchao: SYMMETRIC, SYMMETRIC_NO_CLIPPING_ERR, ASYMMETRIC)"
        ));
    }
    let x = ctx.args.opt_tensor("input")?.ok_or("input is None")?;
    let dt = builder::element_type(x.r#type()).ok_or("the input is not a tensor")?;
    if !builder::is_float(dt) || dt.to_string().starts_with("f8") {
        return Err(format!("chooses parameters for float inputs, got {dt}"));
    }
    let eps = ctx.args.opt_float("eps")?.unwrap_or_else(|| smallest_normal(ctx, dt));
    let sizes = static_dims(x, "the input")?;
    if sizes.contains(&0) {
        return Err("the input is empty: torch's amin/amax refuse it".into());
    }
    let view = super::quant_common::block_view(&sizes, &ctx.args.ints("block_size")?)?;
    let xr = held(ctx, reshape(ctx, x, &view.split)?)?;
    // amin / amax with an empty dim list reduce every dim, as torch's do.
    let axes = (!view.reduced.is_empty()).then_some(view.reduced.as_slice());
    let compute = builder::element_type(xr.value.r#type()).ok_or("not a tensor")?;
    let reduce = |op: crate::Reduction| -> Result<Held<'c, 'a>, String> {
        let v = ctx.reduce(op, xr.value, axes, true, ctx.b.unranked(compute))?;
        Ok(Held { value: v, dtype: dt })
    };
    let zero = number_in(ctx, 0.0, dt)?;
    let mn_neg = reduce(crate::Reduction::Min)?.min(ctx, zero)?;
    let mx_pos = reduce(crate::Reduction::Max)?.max(ctx, zero)?;
    let (scale, zp) = if mapping == "ASYMMETRIC" {
        let s = mx_pos.sub(ctx, mn_neg)?.div(ctx, number_in(ctx, qmax - qmin, dt)?)?;
        let s = s.clamp(ctx, Some(eps), None)?;
        let r = mn_neg.div(ctx, s)?.round(ctx)?;
        let zp = number_in(ctx, qmin, dt)?.sub(ctx, r)?.clamp(ctx, Some(qmin), Some(qmax))?;
        (s, zp)
    } else {
        let s = if mapping == "SYMMETRIC" {
            let m = mn_neg.neg(ctx)?.max(ctx, mx_pos)?;
            m.div(ctx, number_in(ctx, (qmax - qmin) / 2.0, dt)?)?
        } else {
            let smin = mn_neg.div(ctx, number_in(ctx, qmin, dt)?)?;
            let smax = mx_pos.div(ctx, number_in(ctx, qmax, dt)?)?;
            let bool_type: Type<'c> = IntegerType::new(ctx.b.context, 1).into();
            let mask = ctx.b.onnx().greater(smin.value, smax.value).typed(ctx.b.unranked(bool_type))?;
            let v = ctx.b.onnx().where_(mask, smin.value, smax.value).like(smin.value)?;
            Held { value: v, dtype: dt }
        };
        // `int((quant_max + quant_min + 1) / 2)`: Python truncates toward zero.
        let mid = ((qmax + qmin + 1.0) / 2.0).trunc();
        let shape = ctx.b.shape(s.value)?;
        let mid = number_in(ctx, mid, dt)?;
        let zp = ctx.b.onnx().expand(mid.value, shape).like(mid.value)?;
        (s.clamp(ctx, Some(eps), None)?, Held { value: zp, dtype: dt })
    };
    let mut out = Vec::new();
    for (i, v) in [scale, zp].into_iter().enumerate() {
        let ty = ctx.result_type(i)?;
        let element = builder::element_type(ty).ok_or("the result is not a tensor")?;
        let result_dims = builder::dims(ty)
            .and_then(|d| d.into_iter().collect::<Option<Vec<i64>>>())
            .ok_or("the result has dynamic sizes")?;
        // `.to(scale_dtype)` / `.to(zero_point_dtype)` (float to int truncates).
        let v = ctx.b.cast_like_type(v.value, element)?;
        out.push(reshape(ctx, v, &result_dims)?);
    }
    Ok(out)
}
