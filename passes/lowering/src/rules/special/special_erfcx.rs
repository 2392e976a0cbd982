use super::erfc_common::fit;
use super::math_common::unranked_bool;
use crate::Rule;

/// `exp(x^2) erfc(x)`: for x >= 0.5 the fit `t exp(P(t))` (the `exp(-x^2)`
/// cancels, so no overflow or underflow for large x); below,
/// `exp(x^2) (1 - erf(x))` (overflows to inf past x ~ -9.4 in float32, like
/// torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_erfcx.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let one = b.const_like(x, 1.0)?;
    let half = b.const_like(x, 0.5)?;
    let z = b.onnx().max(&[x, half]).like(x)?;
    let (t, p) = fit(c, z)?;
    let far = b.onnx().mul(t, b.onnx().exp(p).like(x)?).like(x)?;
    let x2 = b.onnx().mul(x, x).like(x)?;
    let e2 = b.onnx().exp(x2).like(x)?;
    let erf = b.onnx().erf(x).like(x)?;
    let near = b.onnx().mul(e2, b.onnx().sub(one, erf).like(x)?).like(x)?;
    let is_near = c.b.onnx().less(x, half).typed(unranked_bool(c))?;
    Ok(vec![c.b.onnx().where_(is_near, near, far).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: i64[2,5]{-3..40}", "self: T[0]", "self: T[]"])
.dtypes(&["f32", "i64"])];
