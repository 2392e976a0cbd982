use super::math_common::{bool_op, isinf};
use crate::Rule;

/// `sqrt(a^2 + b^2)` without overflow: `m * sqrt(1 + (n / m)^2)` with
/// `m = max(|a|, |b|)`, `n = min(|a|, |b|)`; 0 where `m` is 0; +inf where
/// either is infinite (even with a NaN, like C's hypot).
pub const RULES: &[Rule] = &[Rule::custom("aten.hypot.default", |c| {
    let element = c.result_element(0)?;
    let x = c.tensor_as("self", element)?;
    let y = c.tensor_as("other", element)?;
    let b = &c.b;
    let ax = b.op_like("Abs", &[x], &[], x)?;
    let ay = b.op_like("Abs", &[y], &[], x)?;
    let m = b.op_like("Max", &[ax, ay], &[], x)?;
    let n = b.op_like("Min", &[ax, ay], &[], x)?;
    let r = b.op_like("Div", &[n, m], &[], x)?;
    let r2 = b.op_like("Mul", &[r, r], &[], x)?;
    let one = b.const_like(x, 1.0)?;
    let s = b.op_like("Add", &[one, r2], &[], x)?;
    let s = b.op_like("Sqrt", &[s], &[], x)?;
    let h = b.op_like("Mul", &[m, s], &[], x)?;
    let zero = b.const_like(x, 0.0)?;
    let m_zero = bool_op(c, "Equal", &[m, zero])?;
    let h = b.op_like("Where", &[m_zero, zero, h], &[], x)?;
    let inf = b.const_like(x, f64::INFINITY)?;
    let xi = isinf(c, x, true, true)?;
    let yi = isinf(c, y, true, true)?;
    let any_inf = bool_op(c, "Or", &[xi, yi])?;
    Ok(vec![c.op("Where", &[any_inf, inf, h], &[])?])
})
.samples(&[
    "self: T[2,3]; other: T[2,3]",
    "self: T[2,3]; other: T[3]",
    "self: T[]; other: T[2]",
    "self: T[0,3]; other: T[3]",
]).dtypes(&["f32", "f16", "bf16", "f64"])];
