use crate::Rule;

/// Matrix times vector: `MatMul` (numpy semantics drop the vector's dim).
pub const RULES: &[Rule] = &[Rule::custom("aten.mv.default", |c| {
    let el = super::prod_common::compute_type(c, c.result_element(0)?);
    let p = c.b.onnx().mat_mul(c.tensor_as("self", el)?, c.tensor_as("vec", el)?).typed(c.b.unranked(el))?;
    Ok(vec![super::prod_common::finish(c, p)?])
})
.samples(&["self: T[3,4]; vec: T[4]", "self: T[0,4]; vec: T[4]", "self: T[3,0]; vec: T[0]"])
.dtypes(&["f32", "f64", "i64", "f16", "bf16", "i32", "i8", "u8"])];
