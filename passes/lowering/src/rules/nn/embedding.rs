use crate::Rule;

/// Rows of the table: `Gather(weight, indices, axis=0)`.
pub const RULES: &[Rule] = &[Rule::custom("aten.embedding.default", |c| {
    let weight = c.args.tensor("weight")?;
    let indices = c.args.tensor("indices")?;
    Ok(vec![c.b.onnx().gather(weight, indices, Some(0)).typed(c.result_type(0)?)?])
})
.samples(&["weight: T[10,4]; indices: i64[2,3]{0..10}", "weight: T[5,2]; indices: i64[4]{0..5}"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
