use crate::{Attr, Rule};

/// `HardSigmoid` with torch's slope 1/6 and offset 1/2.
pub const RULES: &[Rule] = &[Rule::custom("aten.hardsigmoid.default", |c| {
    let x = c.args.tensor("self")?;
    Ok(vec![c.op("HardSigmoid", &[x], &[("alpha", Attr::Float(1.0 / 6.0)), ("beta", Attr::Float(0.5))])?])
})
.samples(&["self: T[2,5]", "self: T[0]"]).dtypes(&["f32", "f16", "bf16", "f64"])];
