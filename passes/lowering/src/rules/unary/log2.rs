use crate::Rule;

/// `Log(x) * log2(e)`; integer inputs promoted to the float result.
pub const RULES: &[Rule] = &[Rule::custom("aten.log2.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let l = c.b.onnx().log(x).like(x)?;
    let k = c.b.const_like(x, std::f64::consts::LOG2_E)?;
    Ok(vec![c.b.onnx().mul(l, k).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]{pos}", "self: T[2,3]", "self: T[0,3]", "self: T[]"])
.dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
