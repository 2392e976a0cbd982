use super::shapes_common::atleast;
use crate::Rule;

/// `torch.hstack`: 1-D (after atleast_1d) tensors are concatenated on dim
/// 0, others on dim 1.
pub const RULES: &[Rule] = &[Rule::custom("aten.hstack.default", |c| {
    let element = c.result_element(0)?;
    let tensors = c.args.tensors("tensors")?;
    let first = *tensors.first().ok_or("hstack of no tensors")?;
    let axis = if c.rank(first)? <= 1 { 0 } else { 1 };
    let mut parts = Vec::new();
    for t in tensors {
        parts.push(c.b.cast_like_type(atleast(c, t, 1)?, element)?);
    }
    Ok(vec![c.b.onnx().concat(&parts, axis).typed(c.result_type(0)?)?])
})
.samples(&[
    "tensors: (T[], T[3], T[])",
    "tensors: (T[2,3], T[2,1])",
    "tensors: (T[2,3,4], T[2,0,4], T[2,1,4])",
    "tensors: (T[3], i64[2])",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
