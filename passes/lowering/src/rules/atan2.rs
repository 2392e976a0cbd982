use super::math_common::{bool_op, isinf};
use super::signbit::signbit;
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
    Ok(vec![c.op("Identity", &[r], &[])?])
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
    let ax = b.op_like("Abs", &[x], &[], x)?;
    let ay = b.op_like("Abs", &[y], &[], x)?;
    let hi = b.op_like("Max", &[ax, ay], &[], x)?;
    let lo = b.op_like("Min", &[ax, ay], &[], x)?;
    let q = b.op_like("Div", &[lo, hi], &[], x)?;
    let zero = b.const_scalar(element, 0.0)?;
    let one = b.const_scalar(element, 1.0)?;
    let hi_zero = bool_op(c, "Equal", &[hi, zero])?;
    let q = b.op_like("Where", &[hi_zero, zero, q], &[], x)?;
    let xi = isinf(c, x, true, true)?;
    let yi = isinf(c, y, true, true)?;
    let both_inf = bool_op(c, "And", &[xi, yi])?;
    let q = b.op_like("Where", &[both_inf, one, q], &[], x)?;
    let r = b.op_like("Atan", &[q], &[], x)?;
    let half_pi = b.const_scalar(element, std::f64::consts::FRAC_PI_2)?;
    let pi = b.const_scalar(element, std::f64::consts::PI)?;
    let steep = bool_op(c, "Greater", &[ay, ax])?;
    let r2 = b.op_like("Sub", &[half_pi, r], &[], x)?;
    let r = b.op_like("Where", &[steep, r2, r], &[], x)?;
    let x_neg = signbit(c, x)?;
    let r3 = b.op_like("Sub", &[pi, r], &[], x)?;
    let r = b.op_like("Where", &[x_neg, r3, r], &[], x)?;
    let y_neg = signbit(c, y)?;
    let nr = b.op_like("Neg", &[r], &[], x)?;
    b.op_like("Where", &[y_neg, nr, r], &[], x)
}
