use crate::Rule;

/// `x.reshape_as(other)`: `Reshape` to `Shape(other)`.
pub const RULES: &[Rule] = &[Rule::custom("aten.reshape_as.default", |c| {
    let x = c.args.tensor("self")?;
    let shape = c.b.shape(c.args.tensor("other")?)?;
    Ok(vec![c.b.onnx().reshape(x, shape, Some(1)).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,6]; other: f32[3,4]", "self: T[]; other: i64[1,1]", "self: T[0,3]; other: T[3,0]", "self: T[4]; other: T[2,2]"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16", "i8", "u8"])];
