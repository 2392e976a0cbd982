use crate::Rule;

/// `HardSigmoid` with torch's slope 1/6 and offset 1/2.
pub const RULES: &[Rule] = &[Rule::custom("aten.hardsigmoid.default", |c| {
    let x = c.args.tensor("self")?;
    Ok(vec![c.b.onnx().hard_sigmoid(x, Some(1.0 / 6.0), Some(0.5)).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,5]", "self: T[0]"]).dtypes(&["f32", "f16", "bf16", "f64"])];
