use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.expm1.default", expm1)
    .samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];

/// `exp(x) - 1`, corrected for the rounding of `exp` near 0 (Kahan):
/// `(u - 1) * x / log(u)` with `u = exp(x)`; `x` where `u == 1`, `-1` where
/// `u - 1 == -1`, `u` where it is infinite.
pub(super) fn expm1<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let bool_t = b.unranked(super::math_common::bool_type(c));
    let u = b.onnx().exp(x).like(x)?;
    let one = b.const_like(x, 1.0)?;
    let minus_one = b.const_like(x, -1.0)?;
    let d = b.onnx().sub(u, one).like(x)?;
    let log_u = b.onnx().log(u).like(x)?;
    let q = b.onnx().div(x, log_u).like(x)?;
    let corrected = b.onnx().mul(d, q).like(x)?;
    let u_is_one = b.onnx().equal(u, one).typed(bool_t)?;
    let d_is_m1 = b.onnx().equal(d, minus_one).typed(bool_t)?;
    let inf = b.onnx().is_inf(u, None, None).typed(bool_t)?;
    let r = b.onnx().where_(d_is_m1, minus_one, corrected).like(x)?;
    let r = b.onnx().where_(u_is_one, x, r).like(x)?;
    Ok(vec![c.b.onnx().where_(inf, u, r).typed(c.result_type(0)?)?])
}
