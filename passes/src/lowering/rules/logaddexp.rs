use super::math_common::{bool_op, isinf};
use crate::lowering::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.logaddexp.default", |c| logaddexp(c, false)).samples(&[
    "self: T[2,3]; other: T[2,3]",
    "self: T[2,3]; other: T[3]",
    "self: T[]; other: T[2]",
    "self: T[0,3]; other: T[3]",
]).dtypes(&["f32", "f16", "bf16", "f64"])];

/// `log(exp(a) + exp(b))` (base 2 for logaddexp2), stably:
/// `max(a, b) + log1p(exp(-|a - b|))`; where `a == b` is infinite the result
/// is `a` (torch), a NaN operand gives NaN.
pub(super) fn logaddexp<'c, 'a>(c: &Ctx<'c, 'a>, base2: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = c.result_element(0)?;
    let a = c.tensor_as("self", element)?;
    let bv = c.tensor_as("other", element)?;
    let r = logaddexp_of(c, a, bv, base2)?;
    Ok(vec![c.op("Identity", &[r], &[])?])
}

/// logaddexp (or logaddexp2) of two float values of the same type.
pub(super) fn logaddexp_of<'c, 'a>(
    c: &Ctx<'c, 'a>,
    a: Value<'c, 'a>,
    bv: Value<'c, 'a>,
    base2: bool,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let m = b.op_like("Max", &[a, bv], &[], a)?;
    let d = b.op_like("Sub", &[a, bv], &[], a)?;
    let d = b.op_like("Abs", &[d], &[], a)?;
    let d = b.op_like("Neg", &[d], &[], a)?;
    let e = if base2 {
        let two = b.const_like(a, 2.0)?;
        b.op_like("Pow", &[two, d], &[], a)?
    } else {
        b.op_like("Exp", &[d], &[], a)?
    };
    // log1p(e) for e in (0, 1], corrected for the rounding of 1 + e.
    let one = b.const_like(a, 1.0)?;
    let u = b.op_like("Add", &[e, one], &[], a)?;
    let log_u = b.op_like("Log", &[u], &[], a)?;
    let um1 = b.op_like("Sub", &[u, one], &[], a)?;
    let r = b.op_like("Div", &[e, um1], &[], a)?;
    let l = b.op_like("Mul", &[log_u, r], &[], a)?;
    let u_one = bool_op(c, "Equal", &[u, one])?;
    let mut l = b.op_like("Where", &[u_one, e, l], &[], a)?;
    if base2 {
        let k = b.const_like(a, std::f64::consts::LOG2_E)?;
        l = b.op_like("Mul", &[l, k], &[], a)?;
    }
    let s = b.op_like("Add", &[m, l], &[], a)?;
    let same = bool_op(c, "Equal", &[a, bv])?;
    let inf = isinf(c, a, true, true)?;
    let both_inf = bool_op(c, "And", &[same, inf])?;
    b.op_like("Where", &[both_inf, a, s], &[], a)
}
