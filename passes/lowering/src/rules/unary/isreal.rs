use super::shapes_common::real_only;
use crate::Rule;

/// `torch.isreal`: true everywhere for a real tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.isreal.default", |c| {
    let x = real_only(c.args.tensor("self")?, "isreal")?;
    let t = c.b.const_scalar(c.result_element(0)?, 1.0)?;
    let shape = c.b.shape(x)?;
    Ok(vec![c.b.onnx().expand(t, shape).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[]", "self: T[0,2]"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
