use super::random_common::transformed_like;
use crate::Rule;

/// `x.cauchy_(median, sigma)` (functionalized: `cauchy`): torch's
/// `median + sigma * tan(pi * (u - 1/2))`, `u` uniform in (0, 1) (never at
/// the pole), shaped like `self`.
pub const RULES: &[Rule] = &[Rule::custom("aten.cauchy.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let (median, sigma) = (c.args.float("median")?, c.args.float("sigma")?);
    if !(sigma > 0.0) {
        return Err(format!("cauchy_ expects sigma > 0.0, but found sigma={sigma}"));
    }
    let element = c.result_element(0)?;
    if !crate::builder::is_float(element) {
        return Err(format!("cauchy_ of element type {element}: floating types only"));
    }
    let y = transformed_like(c, x, element, |u, t| {
        let half = b.const_scalar(t, 0.5)?;
        let centered = b.onnx().sub(u, half).typed(b.unranked(t))?;
        let pi = b.const_scalar(t, std::f64::consts::PI)?;
        let angle = b.onnx().mul(centered, pi).typed(b.unranked(t))?;
        let tan = b.onnx().tan(angle).typed(b.unranked(t))?;
        let sigma = b.const_scalar(t, sigma)?;
        let scaled = b.onnx().mul(tan, sigma).typed(b.unranked(t))?;
        let median = b.const_scalar(t, median)?;
        b.onnx().add(scaled, median).typed(b.unranked(t))
    })?;
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; median: 1.0; sigma: 2.0"])
.dtypes(&["f32", "f64"])
.refuses(&[("self: T[2,3]; sigma: 0.0", "sigma > 0")])];
