use crate::Rule;

/// `x - trunc(x)` with `trunc(x) = sign(x) * floor(|x|)` (inf gives NaN like
/// torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.frac.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let a = b.onnx().abs(x).like(x)?;
    let f = b.onnx().floor(a).like(x)?;
    let s = b.onnx().sign(x).like(x)?;
    let t = b.onnx().mul(s, f).like(x)?;
    Ok(vec![c.b.onnx().sub(x, t).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,5]", "self: T[0]", "self: T[]"]).dtypes(&["f32", "f16", "bf16", "f64"])];
