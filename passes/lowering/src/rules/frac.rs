use crate::Rule;

/// `x - trunc(x)` with `trunc(x) = sign(x) * floor(|x|)` (inf gives NaN like
/// torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.frac.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let a = b.op_like("Abs", &[x], &[], x)?;
    let f = b.op_like("Floor", &[a], &[], x)?;
    let s = b.op_like("Sign", &[x], &[], x)?;
    let t = b.op_like("Mul", &[s, f], &[], x)?;
    Ok(vec![c.op("Sub", &[x, t], &[])?])
})
.samples(&["self: T[2,5]", "self: T[0]", "self: T[]"]).dtypes(&["f32", "f16", "bf16", "f64"])];
