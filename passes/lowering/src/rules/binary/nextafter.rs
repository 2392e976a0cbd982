use super::fp_common::{f64_type, frexp_f64, zero_or_special};
use super::math_common::bool_type;
use crate::{Ctx, Rule};
use melior::ir::{Type, Value};

pub const RULES: &[Rule] = &[Rule::custom("aten.nextafter.default", nextafter)
    .samples(&[
        "self: T[3,4]; other: T[3,4]",
        "self: T[3,4]; other: T[4]",
        "self: T[]; other: T[]",
        "self: T[0,2]; other: T[2]",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[("self: f16[3]; other: f16[3]", "float32 and float64")])];

/// `std::nextafter` bit-exactly, without bit casts: in double, `x` moves by
/// its ulp `2^(e - p)` (`x = m * 2^e`, `p` = 24 / 53 mantissa bits; half
/// that towards zero from a power of two; never below the smallest
/// subnormal). `x +- ulp` is representable, so the double sum is exact and
/// the cast back is too (`FLT_MAX` up gives 2^128, which rounds to inf like
/// nextafterf). 0 steps to the smallest subnormal, +-inf to +-max, equal
/// operands give `other`, NaN gives NaN.
fn nextafter<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let (bits, min_exp, max) = if el == c.b.f32_type() {
        (24.0, -149.0, f32::MAX as f64)
    } else if el == Type::float64(c.b.context) {
        (53.0, -1074.0, f64::MAX)
    } else {
        return Err("nextafter is only lowered for float32 and float64 (bit-exact)".into());
    };
    let b = &c.b;
    let bool_t = b.unranked(bool_type(c));
    let f64_t = f64_type(c);
    let x = b.cast_like_type(c.tensor_as("self", el)?, f64_t)?;
    let y = b.cast_like_type(c.tensor_as("other", el)?, f64_t)?;
    let k = |v: f64| b.const_like(x, v);
    let special = zero_or_special(c, x)?;
    let safe = b.onnx().where_(special, k(1.0)?, x).like(x)?;
    let (m, e) = frexp_f64(c, safe)?;
    let pow2 = b.onnx().equal(b.onnx().abs(m).like(x)?, k(0.5)?).typed(bool_t)?;
    let up = b.onnx().greater(y, x).typed(bool_t)?;
    let positive = b.onnx().greater(x, k(0.0)?).typed(bool_t)?;
    let away = b.onnx().equal(up, positive).typed(bool_t)?;
    let towards_pow2 = b.onnx().and(b.onnx().not(away).typed(bool_t)?, pow2).typed(bool_t)?;
    let step_exp = b.onnx().sub(e, k(bits)?).like(x)?;
    let step_exp = b.onnx().where_(towards_pow2, b.onnx().sub(step_exp, k(1.0)?).like(x)?, step_exp).like(x)?;
    let step_exp = b.onnx().max(&[step_exp, k(min_exp)?]).like(x)?;
    let step = b.onnx().pow(k(2.0)?, step_exp).like(x)?;
    let r = b.onnx().where_(up, b.onnx().add(x, step).like(x)?, b.onnx().sub(x, step).like(x)?).like(x)?;
    // Stepping to zero keeps x's sign (nextafter(-tiny, 0) is -0.0); signed
    // zeros go through Where's false branch, which onnxruntime keeps (its
    // true branch turns -0.0 into 0.0).
    // (Conditions are built without Not: onnxruntime's NotWhereFusion would
    // swap the branches back.)
    let r_nonzero = b.onnx().greater(b.onnx().abs(r).like(x)?, k(0.0)?).typed(bool_t)?;
    let r = b.onnx().where_(r_nonzero, r, b.onnx().mul(x, k(0.0)?).like(x)?).like(x)?;
    // Smallest subnormal from zero: 2^min_exp in two exact steps.
    let tiny = b.onnx().mul(k(2f64.powi(-700))?, k(2f64.powi(min_exp as i32 + 700))?).like(x)?;
    let y_pos = b.onnx().greater(y, k(0.0)?).typed(bool_t)?;
    let from_zero = b.onnx().where_(y_pos, tiny, b.onnx().neg(tiny).like(x)?).like(x)?;
    let zero = b.onnx().equal(x, k(0.0)?).typed(bool_t)?;
    let r = b.onnx().where_(zero, from_zero, r).like(x)?;
    let inf = b.onnx().is_inf(x, Some(1), Some(1)).typed(bool_t)?;
    let r = b.onnx().where_(inf, b.onnx().where_(positive, k(max)?, k(-max)?).like(x)?, r).like(x)?;
    let differ = b.onnx().or(b.onnx().less(x, y).typed(bool_t)?, b.onnx().greater(x, y).typed(bool_t)?).typed(bool_t)?;
    let r = b.onnx().where_(differ, r, y).like(x)?;
    let nan = b.onnx().or(b.onnx().is_na_n(x).typed(bool_t)?, b.onnx().is_na_n(y).typed(bool_t)?).typed(bool_t)?;
    let r = b.onnx().where_(nan, k(f64::NAN)?, r).like(x)?;
    let code = crate::onnx_ir::data_type_code(el).ok_or("dtype")?;
    Ok(vec![c.b.onnx().cast(r, None, None, code).typed(c.result_type(0)?)?])
}
