use super::act_common::log_sigmoid;
use crate::Rule;

/// (log_sigmoid(x), buffer) with torch's CPU buffer `exp(-|x|)` (what its
/// backward reads).
pub const RULES: &[Rule] = &[Rule::custom("aten.log_sigmoid_forward.default", |c| {
    let out = log_sigmoid(c)?;
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let a = c.b.onnx().abs(x).like(x)?;
    let a = c.b.onnx().neg(a).like(x)?;
    let buffer = c.b.onnx().exp(a).typed(c.result_type(1)?)?;
    Ok(vec![out, buffer])
})
.samples(&["self: T[2,3]", "self: T[0,3]", "self: T[]"])];
