//! Infinity tests shared by isinf, isposinf and isneginf. Not a rule file.

use super::math_common::{unranked_bool, is_float_value};
use crate::Ctx;
use melior::ir::Value;

/// `IsInf` on floats (detecting +inf and/or -inf); false for integers and
/// bools (`x != x`).
pub(super) fn inf<'c, 'a>(c: &Ctx<'c, 'a>, pos: bool, neg: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    if is_float_value(x) {
        let (detect_negative, detect_positive) = (Some(neg as i64), Some(pos as i64));
        return Ok(vec![c.b.onnx().is_inf(x, detect_negative, detect_positive).typed(c.result_type(0)?)?]);
    }
    let eq = c.b.onnx().equal(x, x).typed(unranked_bool(c))?;
    Ok(vec![c.b.onnx().not(eq).typed(c.result_type(0)?)?])
}
