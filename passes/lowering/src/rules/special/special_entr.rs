use super::math_common::unranked_bool;
use crate::Rule;

/// `-x * log(x)` for x > 0, 0 at 0, -inf for x < 0, NaN for NaN (torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_entr.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let l = b.onnx().log(x).like(x)?;
    let p = b.onnx().mul(x, l).like(x)?;
    let p = b.onnx().neg(p).like(x)?;
    let zero = b.const_like(x, 0.0)?;
    let ninf = b.const_like(x, f64::NEG_INFINITY)?;
    let is_zero = c.b.onnx().equal(x, zero).typed(unranked_bool(c))?;
    let is_neg = c.b.onnx().less(x, zero).typed(unranked_bool(c))?;
    let p = b.onnx().where_(is_zero, zero, p).like(x)?;
    Ok(vec![c.b.onnx().where_(is_neg, ninf, p).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[2,3]{pos}", "self: i64[2,3]{-1..3}", "self: T[]"])
.dtypes(&["f32", "i64"])];
