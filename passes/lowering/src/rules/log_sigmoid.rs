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
    let m = b.op_like("Min", &[x, zero], &[], x)?;
    let a = b.op_like("Abs", &[x], &[], x)?;
    let a = b.op_like("Neg", &[a], &[], x)?;
    let e = b.op_like("Exp", &[a], &[], x)?;
    let u = b.op_like("Add", &[e, one], &[], x)?;
    let log_u = b.op_like("Log", &[u], &[], x)?;
    let um1 = b.op_like("Sub", &[u, one], &[], x)?;
    let r = b.op_like("Div", &[e, um1], &[], x)?;
    let l = b.op_like("Mul", &[log_u, r], &[], x)?;
    let u_one = super::math_common::bool_op(c, "Equal", &[u, one])?;
    let l = b.op_like("Where", &[u_one, e, l], &[], x)?;
    b.op("Sub", &[m, l], &[], c.result_type(0)?)
}
