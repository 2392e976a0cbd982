use crate::{builder, Rule};

/// `Relu` on floats; onnxruntime has no integer Relu kernel, so `Max(x, 0)`.
pub const RULES: &[Rule] = &[Rule::custom("aten.relu.default", |c| {
    let x = c.args.tensor("self")?;
    if builder::is_float(c.result_element(0)?) {
        return Ok(vec![c.b.onnx().relu(x).typed(c.result_type(0)?)?]);
    }
    let zero = c.b.const_like(x, 0.0)?;
    Ok(vec![c.b.onnx().max(&[x, zero]).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[1,4]", "self: T[0,3]", "self: T[]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
