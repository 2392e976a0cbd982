use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.leaky_relu.default", |c| {
    let alpha = c.args.number("negative_slope")?.as_f64() as f32;
    Ok(vec![c.op("LeakyRelu", &[c.args.tensor("self")?], &[("alpha", Attr::Float(alpha))])?])
})
.samples(&["self: T[2,3]", "self: T[2,3]; negative_slope: 0.2"]).dtypes(&["f32", "f16", "bf16", "f64"])];
