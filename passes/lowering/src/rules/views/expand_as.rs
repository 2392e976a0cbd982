//! `aten.expand_as`: ONNX `Expand` of `self` to `Shape(other)`.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.expand_as.default", |c| {
    let x = c.args.tensor("self")?;
    let shape = c.b.shape(c.args.tensor("other")?)?;
    Ok(vec![c.b.onnx().expand(x, shape).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,1]; other: T[2,3,4]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
