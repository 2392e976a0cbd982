use super::random_common::transformed_like;
use crate::Rule;

/// `x.geometric_(p)` (functionalized: `geometric`): the number of Bernoulli(p)
/// trials up to the first success, torch's `ceil(ln(u) / ln(1 - p))` with `u`
/// uniform in (0, 1), at least 1; cast to `self`'s dtype (integers too).
pub const RULES: &[Rule] = &[Rule::custom("aten.geometric.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let p = c.args.float("p")?;
    if !(p > 0.0 && p < 1.0) {
        return Err(format!("geometric_ expects p to be in (0, 1), but got p={p}"));
    }
    let element = c.result_element(0)?;
    let y = transformed_like(c, x, element, |u, t| {
        let ln = b.onnx().log(u).typed(b.unranked(t))?;
        let k = b.const_scalar(t, 1.0 / (-p).ln_1p())?;
        let ratio = b.onnx().mul(ln, k).typed(b.unranked(t))?;
        let ceil = b.onnx().ceil(ratio).typed(b.unranked(t))?;
        let one = b.const_scalar(t, 1.0)?;
        b.onnx().max(&[ceil, one]).typed(b.unranked(t))
    })?;
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; p: 0.3"])
.dtypes(&["f32", "f64", "i64"])
.refuses(&[("self: T[2,3]; p: 1.0", "(0, 1)")])];
