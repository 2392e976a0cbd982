use crate::lowering::{Attr, Rule};

/// `beta * self + alpha * (mat1 @ mat2)` is `Gemm`.
pub const RULES: &[Rule] = &[Rule::custom("aten.addmm.default", |c| {
    let (a, b, bias) = (c.args.tensor("mat1")?, c.args.tensor("mat2")?, c.args.tensor("self")?);
    let alpha = c.args.number("alpha")?.as_f64() as f32;
    let beta = c.args.number("beta")?.as_f64() as f32;
    Ok(vec![c.op("Gemm", &[a, b, bias], &[("alpha", Attr::Float(alpha)), ("beta", Attr::Float(beta))])?])
})
.samples(&["self: T[4]; mat1: T[3,2]; mat2: T[2,4]", "self: T[3,4]; mat1: T[3,2]; mat2: T[2,4]; beta: 0.5; alpha: 2"])];
