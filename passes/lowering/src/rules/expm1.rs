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
    let u = b.op_like("Exp", &[x], &[], x)?;
    let one = b.const_like(x, 1.0)?;
    let minus_one = b.const_like(x, -1.0)?;
    let d = b.op_like("Sub", &[u, one], &[], x)?;
    let log_u = b.op_like("Log", &[u], &[], x)?;
    let q = b.op_like("Div", &[x, log_u], &[], x)?;
    let corrected = b.op_like("Mul", &[d, q], &[], x)?;
    let u_is_one = b.op("Equal", &[u, one], &[], bool_t)?;
    let d_is_m1 = b.op("Equal", &[d, minus_one], &[], bool_t)?;
    let inf = b.op("IsInf", &[u], &[], bool_t)?;
    let r = b.op_like("Where", &[d_is_m1, minus_one, corrected], &[], x)?;
    let r = b.op_like("Where", &[u_is_one, x, r], &[], x)?;
    Ok(vec![c.op("Where", &[inf, u, r], &[])?])
}
