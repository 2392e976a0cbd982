use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.sinc.default", sinc)
    .samples(&["self: T[2,3]", "self: i64[2,3]{-2..3}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];

/// `sin(pi x) / (pi x)`, 1 at 0 (integers promoted to float).
pub(super) fn sinc<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let pi = b.const_like(x, std::f64::consts::PI)?;
    let px = b.onnx().mul(x, pi).like(x)?;
    let s = b.onnx().sin(px).like(x)?;
    let q = b.onnx().div(s, px).like(x)?;
    let zero = b.const_like(x, 0.0)?;
    let one = b.const_like(x, 1.0)?;
    let is_zero = c.b.onnx().equal(x, zero).typed(super::math_common::unranked_bool(c))?;
    Ok(vec![c.b.onnx().where_(is_zero, one, q).typed(c.result_type(0)?)?])
}
