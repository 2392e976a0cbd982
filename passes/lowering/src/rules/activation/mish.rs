use crate::Rule;

/// `Mish` from opset 18; before, `x * tanh(softplus(x))`.
pub const RULES: &[Rule] = &[Rule::custom("aten.mish.default", |c| {
    let x = c.args.tensor("self")?;
    if c.b.opset >= 18 {
        return Ok(vec![c.b.onnx().mish(x).typed(c.result_type(0)?)?]);
    }
    let sp = c.b.onnx().softplus(x).like(x)?;
    let t = c.b.onnx().tanh(sp).like(x)?;
    Ok(vec![c.b.onnx().mul(x, t).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,5]", "self: T[0]"]).dtypes(&["f32", "f16", "bf16", "f64"])];
