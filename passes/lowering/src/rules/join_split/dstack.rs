use super::shapes_common::atleast;
use crate::Rule;

/// `torch.dstack`: atleast_3d of each tensor, concatenated on dim 2.
pub const RULES: &[Rule] = &[Rule::custom("aten.dstack.default", |c| {
    let element = c.result_element(0)?;
    let mut parts = Vec::new();
    for t in c.args.tensors("tensors")? {
        parts.push(c.b.cast_like_type(atleast(c, t, 3)?, element)?);
    }
    Ok(vec![c.b.onnx().concat(&parts, 2).typed(c.result_type(0)?)?])
})
.samples(&["tensors: (T[3], T[3])", "tensors: (T[], T[])", "tensors: (T[2,3], T[2,3,2])", "tensors: (T[2,3,4,5], T[2,3,1,5])", "tensors: (T[2], i64[2])"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
