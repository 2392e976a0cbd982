use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.logit.default", logit).samples(&[
    "self: T[2,3]{pos}",
    "self: T[2,3]",
    "self: T[2,3]; eps: 0.1",
    "self: T[]; eps: 0.000001",
    "self: T[0,3]",
    "self: T[64]{pos}; eps: 0.001",
])
.dtypes(&["f32", "f64", "f16", "bf16"])];

/// `log(x / (1 - x))`, `x` first clamped to `[eps, 1 - eps]` when `eps` is
/// given (torch; without eps, values outside [0, 1] give NaN and 0 / 1 give
/// -inf / inf). float16/bfloat16: torch's kernel does this in the half
/// type's own arithmetic (eps and 1 - eps rounded to it, and every step
/// rounded), unlike most half kernels: computed in float32 with those
/// roundings made explicit (`onnx-widen-half` would otherwise round only
/// the result).
pub(super) fn logit<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let result = c.result_element(0)?;
    let half = crate::builder::is_half_float(result);
    let mut x = c.tensor_as("self", c.opmath_element()?)?;
    let b = &c.b;
    // The half type's rounding of a float32 value (identity otherwise).
    let round = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        if half {
            let h = b.cast(v, result)?;
            b.cast(h, b.f32_type())
        } else {
            Ok(v)
        }
    };
    if let Some(eps) = c.args.opt_float("eps")? {
        let lo = round(b.const_like(x, eps)?)?;
        let hi = round(b.onnx().sub(b.const_like(x, 1.0)?, lo).like(x)?)?;
        x = b.onnx().clip(x, Some(lo), Some(hi)).like(x)?;
    }
    let one = b.const_like(x, 1.0)?;
    let d = round(b.onnx().sub(one, x).like(x)?)?;
    let q = round(b.onnx().div(x, d).like(x)?)?;
    Ok(vec![c.opmath_result(b.onnx().log(q).like(x)?)?])
}
