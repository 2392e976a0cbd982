use super::random_common::uniform_like;
use crate::Rule;

/// `U[from, to)` shaped like `self` (`x.uniform_(a, b)`): `from + (to - from) * U[0, 1)`
/// in the result type, like torch.
pub const RULES: &[Rule] = &[Rule::custom("aten.uniform.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let element = c.result_element(0)?;
    let (from, to) = (c.args.float("from")?, c.args.float("to")?);
    if from > to {
        return Err(format!("uniform_ expects to return a [from, to) range, but found from={from} > to={to}"));
    }
    let u = uniform_like(c, x, element)?;
    let span = b.const_scalar(element, to - from)?;
    let lo = b.const_scalar(element, from)?;
    let scaled = b.onnx().mul(u, span).like(u)?;
    Ok(vec![c.b.onnx().add(scaled, lo).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; from: -2.0; to: 3.0"])];
