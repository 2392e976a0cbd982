use super::math_common::bool_op;
use crate::Rule;

/// `-x * log(x)` for x > 0, 0 at 0, -inf for x < 0, NaN for NaN (torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_entr.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let l = b.op_like("Log", &[x], &[], x)?;
    let p = b.op_like("Mul", &[x, l], &[], x)?;
    let p = b.op_like("Neg", &[p], &[], x)?;
    let zero = b.const_like(x, 0.0)?;
    let ninf = b.const_like(x, f64::NEG_INFINITY)?;
    let is_zero = bool_op(c, "Equal", &[x, zero])?;
    let is_neg = bool_op(c, "Less", &[x, zero])?;
    let p = b.op_like("Where", &[is_zero, zero, p], &[], x)?;
    Ok(vec![c.op("Where", &[is_neg, ninf, p], &[])?])
})
.samples(&["self: T[2,3]", "self: T[2,3]{pos}", "self: i64[2,3]{-1..3}", "self: T[]"])
.dtypes(&["f32", "i64"])];
