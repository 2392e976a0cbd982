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
    let px = b.op_like("Mul", &[x, pi], &[], x)?;
    let s = b.op_like("Sin", &[px], &[], x)?;
    let q = b.op_like("Div", &[s, px], &[], x)?;
    let zero = b.const_like(x, 0.0)?;
    let one = b.const_like(x, 1.0)?;
    let is_zero = super::math_common::bool_op(c, "Equal", &[x, zero])?;
    Ok(vec![c.op("Where", &[is_zero, one, q], &[])?])
}
