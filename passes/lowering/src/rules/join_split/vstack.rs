use super::shapes_common::atleast;
use crate::Rule;

/// `torch.vstack`: atleast_2d of each tensor, concatenated on dim 0.
pub const RULES: &[Rule] = &[Rule::custom("aten.vstack.default", |c| {
    let element = c.result_element(0)?;
    let mut parts = Vec::new();
    for t in c.args.tensors("tensors")? {
        parts.push(c.b.cast_like_type(atleast(c, t, 2)?, element)?);
    }
    Ok(vec![c.b.onnx().concat(&parts, 0).typed(c.result_type(0)?)?])
})
.samples(&["tensors: (T[3], T[3], T[2,3])", "tensors: (T[], T[])", "tensors: (T[2,3,4], T[1,3,4])", "tensors: (T[0,3], i64[3])"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
