use super::random_common::normal_like;
use crate::Rule;

/// `x.normal_(mean, std)` in core ATen: `N(mean, std^2)` shaped like `self`.
pub const RULES: &[Rule] = &[Rule::custom("aten.normal_functional.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let element = c.result_element(0)?;
    let z = normal_like(c, x, element)?;
    let std = b.const_scalar(element, c.args.float("std")?)?;
    let mean = b.const_scalar(element, c.args.float("mean")?)?;
    let scaled = b.onnx().mul(z, std).like(z)?;
    Ok(vec![c.b.onnx().add(scaled, mean).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; mean: 1.0; std: 2.0"])];
