use crate::lowering::{Ctx, Rule};
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
/// -inf / inf). Half inputs: computed in float32 with a float32 `eps`, as
/// torch does.
pub(super) fn logit<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let mut x = c.tensor_as("self", c.opmath_element()?)?;
    let b = &c.b;
    if let Some(eps) = c.args.opt_float("eps")? {
        let lo = b.const_like(x, eps)?;
        let hi = b.const_like(x, 1.0 - eps)?;
        x = b.op_like("Clip", &[x, lo, hi], &[], x)?;
    }
    let one = b.const_like(x, 1.0)?;
    let d = b.op_like("Sub", &[one, x], &[], x)?;
    let q = b.op_like("Div", &[x, d], &[], x)?;
    Ok(vec![c.opmath_result(b.op_like("Log", &[q], &[], x)?)?])
}
