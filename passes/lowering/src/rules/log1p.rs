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
    let u = b.op_like("Add", &[x, one], &[], x)?;
    let log_u = b.op_like("Log", &[u], &[], x)?;
    let d = b.op_like("Sub", &[u, one], &[], x)?;
    let r = b.op_like("Div", &[x, d], &[], x)?;
    let corrected = b.op_like("Mul", &[log_u, r], &[], x)?;
    let u_is_one = b.op("Equal", &[u, one], &[], bool_t)?;
    let inf = b.op("IsInf", &[u], &[], bool_t)?;
    let r = b.op_like("Where", &[u_is_one, x, corrected], &[], x)?;
    Ok(vec![c.op("Where", &[inf, log_u, r], &[])?])
}
