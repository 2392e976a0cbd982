//! `aten.minimum`: ONNX `Min` of both operands cast to the result type; on bools `And` (ONNX `Min` takes no
//! bools).

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.minimum.default", |c| {
    let element = c.result_element(0)?;
    let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
    // ONNX Min takes no bools: on bools min is And.
    let y = if crate::builder::is_bool(element) { c.b.onnx().and(a, b) } else { c.b.onnx().min(&[a, b]) };
    Ok(vec![y.typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; other: T[3]", "self: T[2,3]; other: T[2,3]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
