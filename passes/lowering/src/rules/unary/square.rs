//! `aten.square`: `Mul(x, x)` with `self` cast to the result type.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.square.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    Ok(vec![c.b.onnx().mul(x, x).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[0]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
