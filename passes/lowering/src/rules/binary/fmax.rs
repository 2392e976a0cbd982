use super::math_common::{is_float_value, isnan};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.fmax.default", |c| fmaxmin(c, "Max"))
    .samples(&["self: T[2,3]; other: T[2,3]", "self: T[2,3]; other: T[3]", "self: T[]; other: T[2]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

/// `Max` / `Min` ignoring NaN: where one side is NaN the other is taken (NaN
/// only when both are).
pub(super) fn fmaxmin<'c, 'a>(c: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = c.result_element(0)?;
    if crate::builder::is_bool(element) {
        // ONNX Max/Min take no bools: on bools max is Or, min is And.
        let x = c.tensor_as("self", element)?;
        let y = c.tensor_as("other", element)?;
        let z = if op == "Max" { c.b.onnx().or(x, y) } else { c.b.onnx().and(x, y) };
        return Ok(vec![z.typed(c.result_type(0)?)?]);
    }
    let x = c.tensor_as("self", element)?;
    let y = c.tensor_as("other", element)?;
    let b = &c.b;
    let m = b.op_like(op, &[x, y], &[], x)?;
    if !is_float_value(x) {
        return Ok(vec![c.b.onnx().identity(m).typed(c.result_type(0)?)?]);
    }
    let xn = isnan(c, x)?;
    let yn = isnan(c, y)?;
    let m = b.onnx().where_(yn, x, m).like(x)?;
    Ok(vec![c.b.onnx().where_(xn, y, m).typed(c.result_type(0)?)?])
}
