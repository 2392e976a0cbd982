use crate::Rule;

/// `x * 57.29577951308232` in the float result type.
pub const RULES: &[Rule] = &[Rule::custom("aten.rad2deg.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let k = c.b.const_like(x, 57.29577951308232)?;
    Ok(vec![c.b.onnx().mul(x, k).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[0]", "self: T[]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
