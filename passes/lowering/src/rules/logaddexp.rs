use crate::{builder::Builder, Attr, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Value};

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
    let r = logaddexp_of(&c.b, a, bv, base2)?;
    Ok(vec![c.op("Identity", &[r], &[])?])
}

/// logaddexp (or logaddexp2) of two float values of the same type.
pub(super) fn logaddexp_of<'c, 'a>(
    b: &Builder<'c, 'a>,
    a: Value<'c, 'a>,
    bv: Value<'c, 'a>,
    base2: bool,
) -> Result<Value<'c, 'a>, String> {
    let bool_t = b.unranked(IntegerType::new(b.context, 1).into());
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
    let u_one = b.op("Equal", &[u, one], &[], bool_t)?;
    let mut l = b.op_like("Where", &[u_one, e, l], &[], a)?;
    if base2 {
        let k = b.const_like(a, std::f64::consts::LOG2_E)?;
        l = b.op_like("Mul", &[l, k], &[], a)?;
    }
    let s = b.op_like("Add", &[m, l], &[], a)?;
    let same = b.op("Equal", &[a, bv], &[], bool_t)?;
    let inf = b.op("IsInf", &[a], &[("detect_positive", Attr::Int(1)), ("detect_negative", Attr::Int(1))], bool_t)?;
    let both_inf = b.op("And", &[same, inf], &[], bool_t)?;
    b.op_like("Where", &[both_inf, a, s], &[], a)
}
