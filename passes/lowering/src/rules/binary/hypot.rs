use super::math_common::{unranked_bool, isinf};
use crate::Rule;

/// `sqrt(a^2 + b^2)` without overflow: `m * sqrt(1 + (n / m)^2)` with
/// `m = max(|a|, |b|)`, `n = min(|a|, |b|)`; 0 where `m` is 0; +inf where
/// either is infinite (even with a NaN, like C's hypot).
pub const RULES: &[Rule] = &[Rule::custom("aten.hypot.default", |c| {
    let element = c.result_element(0)?;
    let x = c.tensor_as("self", element)?;
    let y = c.tensor_as("other", element)?;
    let b = &c.b;
    let ax = b.onnx().abs(x).like(x)?;
    let ay = b.onnx().abs(y).like(x)?;
    let m = b.onnx().max(&[ax, ay]).like(x)?;
    let n = b.onnx().min(&[ax, ay]).like(x)?;
    let r = b.onnx().div(n, m).like(x)?;
    let r2 = b.onnx().mul(r, r).like(x)?;
    let one = b.const_like(x, 1.0)?;
    let s = b.onnx().add(one, r2).like(x)?;
    let s = b.onnx().sqrt(s).like(x)?;
    let h = b.onnx().mul(m, s).like(x)?;
    let zero = b.const_like(x, 0.0)?;
    let m_zero = c.b.onnx().equal(m, zero).typed(unranked_bool(c))?;
    let h = b.onnx().where_(m_zero, zero, h).like(x)?;
    let inf = b.const_like(x, f64::INFINITY)?;
    let xi = isinf(c, x, true, true)?;
    let yi = isinf(c, y, true, true)?;
    let any_inf = c.b.onnx().or(xi, yi).typed(unranked_bool(c))?;
    Ok(vec![c.b.onnx().where_(any_inf, inf, h).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[2,3]; other: T[2,3]",
    "self: T[2,3]; other: T[3]",
    "self: T[]; other: T[2]",
    "self: T[0,3]; other: T[3]",
]).dtypes(&["f32", "f16", "bf16", "f64"])];
