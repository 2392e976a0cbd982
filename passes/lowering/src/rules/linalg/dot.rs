use crate::Rule;

/// `MatMul` of two vectors is their 0-d dot product.
pub const RULES: &[Rule] = &[Rule::custom("aten.dot.default", |c| {
    let el = super::prod_common::compute_type(c, c.result_element(0)?);
    let p = c.b.onnx().mat_mul(c.tensor_as("self", el)?, c.tensor_as("tensor", el)?).typed(c.b.unranked(el))?;
    Ok(vec![super::prod_common::finish(c, p)?])
})
.samples(&["self: T[5]; tensor: T[5]", "self: T[0]; tensor: T[0]", "self: T[1]; tensor: T[1]"])
.dtypes(&["f32", "f64", "i64", "i32", "f16", "bf16", "i8", "u8"])];
