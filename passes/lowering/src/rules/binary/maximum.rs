use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.maximum.default", |c| {
    let element = c.result_element(0)?;
    let (a, b) = (c.tensor_as("self", element)?, c.tensor_as("other", element)?);
    // ONNX Max takes no bools: on bools max is Or.
    let op = if crate::builder::is_bool(element) { "Or" } else { "Max" };
    Ok(vec![c.op(op, &[a, b], &[])?])
})
.samples(&["self: T[2,3]; other: T[3]", "self: T[2,3]; other: T[2,3]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
