use crate::Rule;

/// `torch.ravel`: the elements as a 1-D tensor (row-major).
pub const RULES: &[Rule] = &[Rule::custom("aten.ravel.default", |c| {
    let x = c.args.tensor("self")?;
    let shape = c.b.const_i64s(&[-1])?;
    Ok(vec![c.b.onnx().reshape(x, shape, None).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[]", "self: T[0,3]", "self: T[2,3,4]"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
