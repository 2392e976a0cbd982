//! `aten.view_as`: ONNX `Reshape` of `self` to `Shape(other)`.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.view_as.default", |c| {
    let x = c.args.tensor("self")?;
    let shape = c.b.shape(c.args.tensor("other")?)?;
    Ok(vec![c.b.onnx().reshape(x, shape, None).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,6]; other: T[3,4]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
