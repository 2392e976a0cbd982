use super::erfc_common::fit;
use super::math_common::bool_op;
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
    let z = b.op_like("Max", &[x, half], &[], x)?;
    let (t, p) = fit(c, z)?;
    let far = b.op_like("Mul", &[t, b.op_like("Exp", &[p], &[], x)?], &[], x)?;
    let x2 = b.op_like("Mul", &[x, x], &[], x)?;
    let e2 = b.op_like("Exp", &[x2], &[], x)?;
    let erf = b.op_like("Erf", &[x], &[], x)?;
    let near = b.op_like("Mul", &[e2, b.op_like("Sub", &[one, erf], &[], x)?], &[], x)?;
    let is_near = bool_op(c, "Less", &[x, half])?;
    Ok(vec![c.op("Where", &[is_near, near, far], &[])?])
})
.samples(&["self: T[2,3]", "self: i64[2,5]{-3..40}", "self: T[0]", "self: T[]"])
.dtypes(&["f32", "i64"])];
