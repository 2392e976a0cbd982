use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.log_sigmoid.default", |c| Ok(vec![log_sigmoid(c)?])).samples(&[
    "self: T[2,3]",
    "self: T[0,3]",
    "self: T[]",
]).dtypes(&["f32", "f16", "bf16", "f64"])];

/// `log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))` (stable for large |x|;
/// the log1p corrected for the rounding of `1 + e`).
pub(super) fn log_sigmoid<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let zero = b.const_like(x, 0.0)?;
    let one = b.const_like(x, 1.0)?;
    let m = b.onnx().min(&[x, zero]).like(x)?;
    let a = b.onnx().abs(x).like(x)?;
    let a = b.onnx().neg(a).like(x)?;
    let e = b.onnx().exp(a).like(x)?;
    let u = b.onnx().add(e, one).like(x)?;
    let log_u = b.onnx().log(u).like(x)?;
    let um1 = b.onnx().sub(u, one).like(x)?;
    let r = b.onnx().div(e, um1).like(x)?;
    let l = b.onnx().mul(log_u, r).like(x)?;
    let u_one = c.b.onnx().equal(u, one).typed(super::math_common::unranked_bool(c))?;
    let l = b.onnx().where_(u_one, e, l).like(x)?;
    b.onnx().sub(m, l).typed(c.result_type(0)?)
}
