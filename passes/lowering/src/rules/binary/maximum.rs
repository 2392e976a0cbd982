//! `aten.maximum`: ONNX `Max` of both operands cast to the result type; on bools `Or` (ONNX `Max` takes no
//! bools).

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.maximum.default", |c| {
    let element = c.result_element(0)?;
    let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
    // ONNX Max takes no bools: on bools max is Or.
    let y = if crate::builder::is_bool(element) { c.b.onnx().or(a, b) } else { c.b.onnx().max(&[a, b]) };
    Ok(vec![y.typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; other: T[3]", "self: T[2,3]; other: T[2,3]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
