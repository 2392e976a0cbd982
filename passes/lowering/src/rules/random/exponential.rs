use super::random_common::transformed_like;
use crate::Rule;

/// `x.exponential_(lambd)` (functionalized: `exponential`): `-ln(u) / lambd`,
/// `u` uniform in (0, 1), so every draw is positive and finite (torch's
/// `-log1p(-u) / lambd` with `u` in [0, 1), the same distribution).
pub const RULES: &[Rule] = &[Rule::custom("aten.exponential.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let lambd = c.args.float("lambd")?;
    if !(lambd > 0.0) {
        return Err(format!("exponential_ expects lambda > 0.0, but found lambda={lambd}"));
    }
    let element = c.result_element(0)?;
    if !crate::builder::is_float(element) {
        return Err(format!("exponential_ of element type {element}: floating types only"));
    }
    let y = transformed_like(c, x, element, |u, t| {
        let ln = b.onnx().log(u).typed(b.unranked(t))?;
        let k = b.const_scalar(t, -1.0 / lambd)?;
        b.onnx().mul(ln, k).typed(b.unranked(t))
    })?;
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; lambd: 2.0"])
.dtypes(&["f32", "f64"])
.refuses(&[("self: T[2,3]; lambd: 0.0", "lambda > 0")])];
