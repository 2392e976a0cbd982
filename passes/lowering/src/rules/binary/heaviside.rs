use super::math_common::unranked_bool;
use crate::Rule;

/// `values` where `x == 0`, else `x > 0` (NaN gives 0, like torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.heaviside.default", |c| {
    let element = c.result_element(0)?;
    let x = c.tensor_as("self", element)?;
    let v = c.tensor_as("values", element)?;
    if crate::builder::is_bool(element) {
        // Bools have no ONNX order (Greater): true stays true, false takes `values`.
        return Ok(vec![c.b.onnx().or(x, v).typed(c.result_type(0)?)?]);
    }
    let b = &c.b;
    let zero = b.const_scalar(element, 0.0)?;
    let pos = c.b.onnx().greater(x, zero).typed(unranked_bool(c))?;
    let step = b.cast(pos, element)?;
    let is_zero = c.b.onnx().equal(x, zero).typed(unranked_bool(c))?;
    Ok(vec![c.b.onnx().where_(is_zero, v, step).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[2,3]{-1..2}; values: T[2,3]",
    "self: T[2,3]; values: T[3]",
    "self: T[]; values: T[2]",
    "self: T[0,3]; values: T[]",
])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
