//! The sign bit (-0 included) shared by signbit, atan2 and copysign. Not a rule file.

use super::math_common::{unranked_bool, is_float_value};
use crate::Ctx;
use melior::ir::Value;

/// Whether the sign bit is set: `x < 0`, or for a float zero `1 / x < 0`
/// (-0.0). ONNX cannot read the sign bit of a NaN: NaN gives false (the sign
/// of Python's `float('nan')`; a NaN made negative, e.g. `-nan`, differs
/// from torch).
pub(super) fn signbit<'c, 'a>(c: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    if crate::builder::element_type(melior::ir::ValueLike::r#type(&x))
        .is_some_and(crate::builder::is_bool)
    {
        let t = c.b.onnx().equal(x, x).typed(unranked_bool(c))?;
        return c.b.onnx().not(t).typed(unranked_bool(c));
    }
    let zero = b.const_like(x, 0.0)?;
    let neg = c.b.onnx().less(x, zero).typed(unranked_bool(c))?;
    if !is_float_value(x) {
        return Ok(neg);
    }
    let one = b.const_like(x, 1.0)?;
    let r = b.onnx().div(one, x).like(x)?;
    let neg_zero = c.b.onnx().less(r, zero).typed(unranked_bool(c))?;
    c.b.onnx().or(neg, neg_zero).typed(unranked_bool(c))
}
