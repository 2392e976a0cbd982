use super::math_common::{unranked_bool, isinf};
use super::signbit_common::signbit;
use crate::{Ctx, Rule};
use melior::ir::{Value, ValueLike};

/// `atan2(y, x)` from `Atan` on [0, 1]: `r = atan(min(|x|,|y|) / max(|x|,|y|))`,
/// `pi/2 - r` where |y| > |x|, `pi - r` where x's sign bit is set (so -0.0
/// counts, like C), negated where y's sign bit is set. Both zero gives +-0 or
/// +-pi and both infinite +-pi/4 or +-3pi/4 like C; NaN propagates. Integer
/// inputs are promoted to the float result.
pub const RULES: &[Rule] = &[Rule::custom("aten.atan2.default", |c| {
    let element = c.result_element(0)?;
    let y = c.tensor_as("self", element)?;
    let x = c.tensor_as("other", element)?;
    let r = atan2(c, y, x)?;
    Ok(vec![c.b.onnx().identity(r).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[2,3]; other: T[2,3]",
    "self: T[2,3]; other: T[3]",
    "self: T[]; other: T[2]",
    "self: T[0,3]; other: T[3]",
    "self: T[4,4]{-1..2}; other: T[4,4]{-1..2}",
])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

/// `atan2(y, x)` of two float values of the same element type (see above;
/// also `angle` of a complex tensor).
pub(super) fn atan2<'c, 'a>(c: &Ctx<'c, 'a>, y: Value<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let element = crate::builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let b = &c.b;
    let ax = b.onnx().abs(x).like(x)?;
    let ay = b.onnx().abs(y).like(x)?;
    let hi = b.onnx().max(&[ax, ay]).like(x)?;
    let lo = b.onnx().min(&[ax, ay]).like(x)?;
    let q = b.onnx().div(lo, hi).like(x)?;
    let zero = b.const_scalar(element, 0.0)?;
    let one = b.const_scalar(element, 1.0)?;
    let hi_zero = c.b.onnx().equal(hi, zero).typed(unranked_bool(c))?;
    let q = b.onnx().where_(hi_zero, zero, q).like(x)?;
    let xi = isinf(c, x, true, true)?;
    let yi = isinf(c, y, true, true)?;
    let both_inf = c.b.onnx().and(xi, yi).typed(unranked_bool(c))?;
    let q = b.onnx().where_(both_inf, one, q).like(x)?;
    let r = b.onnx().atan(q).like(x)?;
    let half_pi = b.const_scalar(element, std::f64::consts::FRAC_PI_2)?;
    let pi = b.const_scalar(element, std::f64::consts::PI)?;
    let steep = c.b.onnx().greater(ay, ax).typed(unranked_bool(c))?;
    let r2 = b.onnx().sub(half_pi, r).like(x)?;
    let r = b.onnx().where_(steep, r2, r).like(x)?;
    let x_neg = signbit(c, x)?;
    let r3 = b.onnx().sub(pi, r).like(x)?;
    let r = b.onnx().where_(x_neg, r3, r).like(x)?;
    let y_neg = signbit(c, y)?;
    let nr = b.onnx().neg(r).like(x)?;
    b.onnx().where_(y_neg, nr, r).like(x)
}
