use crate::Rule;

/// `Mish` from opset 18; before, `x * tanh(softplus(x))`.
pub const RULES: &[Rule] = &[Rule::custom("aten.mish.default", |c| {
    let x = c.args.tensor("self")?;
    if c.b.opset >= 18 {
        return Ok(vec![c.op("Mish", &[x], &[])?]);
    }
    let sp = c.b.op_like("Softplus", &[x], &[], x)?;
    let t = c.b.op_like("Tanh", &[sp], &[], x)?;
    Ok(vec![c.op("Mul", &[x, t], &[])?])
})
.samples(&["self: T[2,5]", "self: T[0]"]).dtypes(&["f32", "f16", "bf16", "f64"])];
