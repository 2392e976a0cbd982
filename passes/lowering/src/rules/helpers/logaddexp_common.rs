//! log(exp(a) + exp(b)) shared by logaddexp, logaddexp2 and logcumsumexp. Not a rule file.

use crate::{builder::Builder, Ctx};
use melior::ir::{r#type::IntegerType, Value};

/// `log(exp(a) + exp(b))` (base 2 for logaddexp2), stably:
/// `max(a, b) + log1p(exp(-|a - b|))`; where `a == b` is infinite the result
/// is `a` (torch), a NaN operand gives NaN.
pub(super) fn logaddexp<'c, 'a>(c: &Ctx<'c, 'a>, base2: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = c.result_element(0)?;
    let a = c.tensor_as("self", element)?;
    let bv = c.tensor_as("other", element)?;
    let r = logaddexp_of(&c.b, a, bv, base2)?;
    Ok(vec![c.b.onnx().identity(r).typed(c.result_type(0)?)?])
}

/// logaddexp (or logaddexp2) of two float values of the same type.
pub(super) fn logaddexp_of<'c, 'a>(
    b: &Builder<'c, 'a>,
    a: Value<'c, 'a>,
    bv: Value<'c, 'a>,
    base2: bool,
) -> Result<Value<'c, 'a>, String> {
    let bool_t = b.unranked(IntegerType::new(b.context, 1).into());
    let m = b.onnx().max(&[a, bv]).like(a)?;
    let d = b.onnx().sub(a, bv).like(a)?;
    let d = b.onnx().abs(d).like(a)?;
    let d = b.onnx().neg(d).like(a)?;
    let e = if base2 {
        let two = b.const_like(a, 2.0)?;
        b.onnx().pow(two, d).like(a)?
    } else {
        b.onnx().exp(d).like(a)?
    };
    // log1p(e) for e in (0, 1], corrected for the rounding of 1 + e.
    let one = b.const_like(a, 1.0)?;
    let u = b.onnx().add(e, one).like(a)?;
    let log_u = b.onnx().log(u).like(a)?;
    let um1 = b.onnx().sub(u, one).like(a)?;
    let r = b.onnx().div(e, um1).like(a)?;
    let l = b.onnx().mul(log_u, r).like(a)?;
    let u_one = b.onnx().equal(u, one).typed(bool_t)?;
    let mut l = b.onnx().where_(u_one, e, l).like(a)?;
    if base2 {
        let k = b.const_like(a, std::f64::consts::LOG2_E)?;
        l = b.onnx().mul(l, k).like(a)?;
    }
    let s = b.onnx().add(m, l).like(a)?;
    let same = b.onnx().equal(a, bv).typed(bool_t)?;
    let inf = b.onnx().is_inf(a, Some(1), Some(1)).typed(bool_t)?;
    let both_inf = b.onnx().and(same, inf).typed(bool_t)?;
    b.onnx().where_(both_inf, a, s).like(a)
}
