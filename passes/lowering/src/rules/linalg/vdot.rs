use crate::Rule;

/// `conj(self) . other`: for real tensors the plain dot product (`MatMul` of
/// two vectors).
pub const RULES: &[Rule] = &[Rule::custom("aten.vdot.default", |c| {
    let el = super::prod_common::compute_type(c, c.result_element(0)?);
    let p = c.b.onnx().mat_mul(c.tensor_as("self", el)?, c.tensor_as("other", el)?).typed(c.b.unranked(el))?;
    Ok(vec![super::prod_common::finish(c, p)?])
})
.samples(&["self: T[5]; other: T[5]", "self: T[0]; other: T[0]"])
.dtypes(&["f32", "f64", "i64"])];
