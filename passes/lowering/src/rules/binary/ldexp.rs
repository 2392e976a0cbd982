use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.ldexp.Tensor", ldexp)
    .samples(&[
        "self: T[3,4]; other: i64[3,4]{-5..6}",
        "self: T[3,4]; other: i64[4]{-200..200}",
        "self: T[]; other: T[2]",
        "self: T[2,3]; other: i32[3]{-140..140}",
        "self: T[0,3]; other: i64[3]{0..3}",
        "self: T[3,4]; other: i64[3,4]{-2300..2300}",
        "self: T[3,4]; other: T[3,4]",
        "self: i64[3,4]{-5..5}; other: i64[3,4]{-160..10}",
        "self: i64[3,4]{-5..5}; other: T[3,4]",
    ])
    .dtypes(&["f32", "f64", "f16"])];

/// torch: a float `self` with integer exponents is scaled exactly (one
/// rounding, like `std::ldexp`); otherwise `self * pow(2.0, other)`, the
/// power in `other`'s float type (float32 for an integer `self` and
/// exponent, so 2^200 overflows there as in torch), the product in the
/// result type. Half tensors are computed in float32 and rounded once
/// (products of halves are exact in float32).
fn ldexp<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let b = &c.b;
    let f32_t = b.f32_type();
    let other = c.args.tensor("other")?;
    let oel = builder::element_type(other.r#type()).ok_or("other is not a tensor")?;
    let sel = builder::element_type(c.args.tensor("self")?.r#type()).ok_or("self is not a tensor")?;
    if builder::is_float(sel) && !builder::is_float(oel) && !builder::is_bool(oel) {
        return exact(c, el, oel);
    }
    let pow_t = if builder::is_float(oel) { oel } else { f32_t };
    let f16 = |t: melior::ir::Type<'c>| builder::is_float(t) && t != f32_t && t != melior::ir::Type::float64(b.context);
    let pow_c = if f16(pow_t) { f32_t } else { pow_t };
    let e = b.cast_like_type(other, pow_c)?;
    let mut p = b.onnx().pow(b.const_scalar(pow_c, 2.0)?, e).typed(b.unranked(pow_c))?;
    if pow_c != pow_t {
        p = b.cast(p, pow_t)?;
    }
    let mul_t = if f16(el) { f32_t } else { el };
    let x = c.tensor_as("self", el)?;
    let x = b.cast_like_type(x, mul_t)?;
    let p = b.cast_like_type(p, mul_t)?;
    let y = b.onnx().mul(x, p).typed(b.unranked(mul_t))?;
    Ok(vec![c.b.onnx().cast(y, None, None, crate::onnx_ir::data_type_code(el).ok_or("dtype")?).typed(c.result_type(0)?)?])
}

/// `self * 2^other` rounded once, for a float `self` and integer `other`:
/// computed in double, where `2^n` is exact for `-1074 <= n <= 1023` and one
/// multiply rounds correctly; larger `n` scale up in three exact steps
/// (only the final value can overflow), smaller `n` by `2^-1000` first
/// (exact unless the result underflows to 0 anyway). Half / float32 results
/// never need the extra steps (their products stay inside double's range
/// once `n` is clamped to it) and are rounded once by the final cast.
fn exact<'c, 'a>(c: &Ctx<'c, 'a>, el: melior::ir::Type<'c>, oel: melior::ir::Type<'c>) -> Result<Vec<Value<'c, 'a>>, String> {
    let _ = oel;
    let b = &c.b;
    let f64_t = melior::ir::Type::float64(b.context);
    let x = b.cast_like_type(c.tensor_as("self", el)?, f64_t)?;
    let n = b.cast(c.args.tensor("other")?, f64_t)?;
    let k = |v: f64| b.const_scalar(f64_t, v);
    let two = k(2.0)?;
    let clip = |v: Value<'c, 'a>, lo: f64, hi: f64| -> Result<Value<'c, 'a>, String> { b.onnx().min(&[b.onnx().max(&[v, k(lo)?]).typed(b.unranked(f64_t))?, k(hi)?]).typed(b.unranked(f64_t)) };
    let single = b.onnx().mul(x, b.onnx().pow(two, clip(n, -1074.0, 1023.0)?).typed(b.unranked(f64_t))?).typed(b.unranked(f64_t))?;
    let y = if el == f64_t {
        // n > 1023: three steps of at most 2^767 (n clamped to 2300).
        let big = clip(n, 0.0, 2300.0)?;
        let third = b.onnx().floor(b.onnx().div(big, k(3.0)?).typed(b.unranked(f64_t))?).typed(b.unranked(f64_t))?;
        let last = b.onnx().sub(big, b.onnx().mul(third, two).typed(b.unranked(f64_t))?).typed(b.unranked(f64_t))?;
        let p3 = b.onnx().pow(two, third).typed(b.unranked(f64_t))?;
        let up = b.onnx().mul(b.onnx().mul(b.onnx().mul(x, p3).typed(b.unranked(f64_t))?, p3).typed(b.unranked(f64_t))?, b.onnx().pow(two, last).typed(b.unranked(f64_t))?).typed(b.unranked(f64_t))?;
        // n < -1074: by 2^-1000, then by 2^(n + 1000) (n clamped to -2300).
        let rest = clip(b.onnx().add(n, k(1000.0)?).typed(b.unranked(f64_t))?, -1300.0, 0.0)?;
        let down = b.onnx().mul(b.onnx().mul(x, b.onnx().pow(two, k(-1000.0)?).typed(b.unranked(f64_t))?).typed(b.unranked(f64_t))?, b.onnx().pow(two, rest).typed(b.unranked(f64_t))?).typed(b.unranked(f64_t))?;
        let bool_t = b.unranked(super::math_common::bool_type(c));
        let is_up = b.onnx().greater(n, k(1023.0)?).typed(bool_t)?;
        let is_down = b.onnx().less(n, k(-1074.0)?).typed(bool_t)?;
        let y = b.onnx().where_(is_up, up, b.onnx().where_(is_down, down, single).typed(b.unranked(f64_t))?).typed(b.unranked(f64_t))?;
        // A zero result has x's sign: x * 0 through Where's false branch
        // (onnxruntime's true branch turns -0.0 into 0.0).
        // (No Not: onnxruntime's NotWhereFusion would swap the branches back.)
        let nonzero = b.onnx().greater(b.onnx().abs(y).typed(b.unranked(f64_t))?, k(0.0)?).typed(bool_t)?;
        b.onnx().where_(nonzero, y, b.onnx().mul(x, k(0.0)?).typed(b.unranked(f64_t))?).typed(b.unranked(f64_t))?
    } else {
        single
    };
    let code = crate::onnx_ir::data_type_code(el).ok_or("dtype")?;
    Ok(vec![c.b.onnx().cast(y, None, None, code).typed(c.result_type(0)?)?])
}
