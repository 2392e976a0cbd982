use super::erfc_common::{erfc_of, fit};
use super::math_common::bool_op;
use crate::Rule;

/// `log(ndtr(x))` without underflow: for x < -1 (z = -x / sqrt(2) > 0.7)
/// `log(1/2) + log(t) + P(t) - z^2` from the erfc fit; otherwise
/// `log1p(-erfc(x / sqrt(2)) / 2)` (log1p corrected for the rounding of
/// `1 + u`), accurate as ndtr approaches 1.
pub const RULES: &[Rule] = &[Rule::custom("aten.special_log_ndtr.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let one = b.const_like(x, 1.0)?;
    let k = b.const_like(x, -std::f64::consts::FRAC_1_SQRT_2)?;
    let z = b.op_like("Mul", &[x, k], &[], x)?;
    let lo = b.const_like(x, std::f64::consts::FRAC_1_SQRT_2)?;
    let zf = b.op_like("Max", &[z, lo], &[], x)?;
    let (t, p) = fit(c, zf)?;
    let lt = b.op_like("Log", &[t], &[], x)?;
    let z2 = b.op_like("Mul", &[zf, zf], &[], x)?;
    let tail = b.op_like("Add", &[lt, p], &[], x)?;
    let tail = b.op_like("Sub", &[tail, z2], &[], x)?;
    let tail = b.op_like("Add", &[tail, b.const_like(x, 0.5f64.ln())?], &[], x)?;
    // log1p(u), u = -erfc(-z) / 2 in (-1, 0].
    let nz = b.op_like("Neg", &[z], &[], x)?;
    let e = erfc_of(c, nz)?;
    let u = b.op_like("Mul", &[e, b.const_like(x, -0.5)?], &[], x)?;
    let w = b.op_like("Add", &[u, one], &[], x)?;
    let lw = b.op_like("Log", &[w], &[], x)?;
    let d = b.op_like("Sub", &[w, one], &[], x)?;
    let r = b.op_like("Div", &[u, d], &[], x)?;
    let corrected = b.op_like("Mul", &[lw, r], &[], x)?;
    let w_one = bool_op(c, "Equal", &[w, one])?;
    let body = b.op_like("Where", &[w_one, u, corrected], &[], x)?;
    let is_tail = bool_op(c, "Less", &[x, b.const_like(x, -1.0)?])?;
    Ok(vec![c.op("Where", &[is_tail, tail, body], &[])?])
})
.samples(&["self: T[2,3]", "self: i64[2,5]{-40..40}", "self: T[0]", "self: T[]"])
.dtypes(&["f32", "i64"])];
