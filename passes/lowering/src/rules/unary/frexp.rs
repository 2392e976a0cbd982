use super::fp_common::{f64_type, frexp_f64, zero_or_special};
use crate::{builder, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.frexp.Tensor", frexp)
    .samples(&["self: T[3,4]", "self: T[]", "self: T[0]", "self: T[5]{pos}"])
    .dtypes(&["f32", "f64", "f16"])];

/// `self = mantissa * 2^exponent` with `0.5 <= |mantissa| < 1` and an int32
/// exponent, exactly (computed in double by powers of two); like torch
/// (std::frexp), 0 / -0 / inf / NaN give themselves and exponent 0.
fn frexp<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let el = c.result_element(0)?;
    if !builder::is_float(el) {
        return Err("frexp of a non-float tensor".into());
    }
    let b = &c.b;
    let xd = b.cast_like_type(x, f64_type(c))?;
    let special = zero_or_special(c, xd)?;
    let safe = b.onnx().where_(special, b.const_like(xd, 1.0)?, xd).like(xd)?;
    let (m, e) = frexp_f64(c, safe)?;
    // x itself through Where's false branch (onnxruntime's true branch turns
    // -0.0 into 0.0).
    // (Finite non-zero without Not: onnxruntime's NotWhereFusion would swap
    // the branches back.)
    let bool_t = b.unranked(super::math_common::bool_type(c));
    let ax = b.onnx().abs(xd).like(xd)?;
    let regular = b.onnx().and(b.onnx().greater(ax, b.const_like(xd, 0.0)?).typed(bool_t)?, b.onnx().less(ax, b.const_like(xd, f64::INFINITY)?).typed(bool_t)?).typed(bool_t)?;
    let m = b.onnx().where_(regular, m, xd).like(xd)?;
    let e = b.onnx().where_(special, b.const_like(xd, 0.0)?, e).like(xd)?;
    let m = b.onnx().cast(m, None, None, onnx_code(el)?).typed(c.result_type(0)?)?;
    let exp_el = c.result_element(1)?;
    let e = b.onnx().cast(e, None, None, onnx_code(exp_el)?).typed(c.result_type(1)?)?;
    Ok(vec![m, e])
}

fn onnx_code(t: melior::ir::Type<'_>) -> Result<i64, String> {
    crate::onnx_ir::data_type_code(t).ok_or_else(|| format!("no ONNX data type for {t}"))
}
