use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.log1p.default", log1p)
    .samples(&["self: T[2,3]{pos}", "self: T[2,3]", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];

/// `log(1 + x)`, corrected for the rounding of `1 + x`:
/// `log(u) * x / (u - 1)` with `u = 1 + x` (exact where `u - 1 == x`; `x`
/// itself where `u == 1`, i.e. |x| below float epsilon). Infinite `u` keeps
/// `log(u)`.
pub(super) fn log1p<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let bool_t = b.unranked(super::math_common::bool_type(c));
    let one = b.const_like(x, 1.0)?;
    let u = b.onnx().add(x, one).like(x)?;
    let log_u = b.onnx().log(u).like(x)?;
    let d = b.onnx().sub(u, one).like(x)?;
    let r = b.onnx().div(x, d).like(x)?;
    let corrected = b.onnx().mul(log_u, r).like(x)?;
    let u_is_one = b.onnx().equal(u, one).typed(bool_t)?;
    let inf = b.onnx().is_inf(u, None, None).typed(bool_t)?;
    let r = b.onnx().where_(u_is_one, x, corrected).like(x)?;
    Ok(vec![c.b.onnx().where_(inf, log_u, r).typed(c.result_type(0)?)?])
}
