use crate::Rule;

/// torch: `grad_output * mask * scale` (the mask cast to the gradient's type).
pub const RULES: &[Rule] = &[Rule::custom("aten.native_dropout_backward.default", |c| {
    let el = c.result_element(0)?;
    let g = c.tensor_as("grad_output", el)?;
    let m = c.tensor_as("mask", el)?;
    let b = &c.b;
    let gm = b.onnx().mul(g, m).typed(b.unranked(el))?;
    Ok(vec![c.b.onnx().mul(gm, b.const_scalar(el, c.args.float("scale")?)?).typed(c.result_type(0)?)?])
})
.samples(&[
    "grad_output: T[3,4]; mask: bool[3,4]; scale: 2.0",
    "grad_output: T[3,4]; mask: bool[3,4]; scale: 0.0",
    "grad_output: T[]; mask: bool[]; scale: 1.25",
    "grad_output: T[0,2]; mask: bool[0,2]; scale: 2.0",
])
.dtypes(&["f32", "f64"])];
