use super::random_common::{compute_type, standard_normal};
use crate::Rule;

/// `x.log_normal_(mean, std)` (functionalized: `log_normal`):
/// `exp(mean + std * N(0, 1))`, shaped like `self`.
pub const RULES: &[Rule] = &[Rule::custom("aten.log_normal.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let (mean, std) = (c.args.float("mean")?, c.args.float("std")?);
    if !(std > 0.0) {
        return Err(format!("log_normal_ expects std > 0.0, but found std={std}"));
    }
    let element = c.result_element(0)?;
    let t = compute_type(c, element)?;
    let z = standard_normal(c, b.shape(x)?, element)?;
    let std = b.const_scalar(t, std)?;
    let scaled = b.onnx().mul(z, std).typed(b.unranked(t))?;
    let mean = b.const_scalar(t, mean)?;
    let shifted = b.onnx().add(scaled, mean).typed(b.unranked(t))?;
    let y = b.onnx().exp(shifted).typed(b.unranked(t))?;
    Ok(vec![c.b.onnx().identity(b.cast_like_type(y, element)?).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; mean: 0.5; std: 0.25"])
.dtypes(&["f32", "f64"])
.refuses(&[("self: T[2,3]; std: 0.0", "std > 0")])];
