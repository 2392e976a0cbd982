use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.poisson_nll_loss.default", loss).samples(&[
    "input: T[3,4]; target: T[3,4]{pos}; log_input: true; full: false; eps: 0.00000001; reduction: 1",
    "input: T[3,4]{pos}; target: T[3,4]{pos}; log_input: false; full: true; eps: 0.00000001; reduction: 0",
    "input: T[3,4]; target: T[3,4]{pos}; log_input: true; full: true; eps: 0.00000001; reduction: 2",
    "input: T[3,4]{0..4}; target: T[3,4]{0..5}; log_input: true; full: false; eps: 0.00000001; reduction: 1",
])
.dtypes(&["f32", "f64", "i64", "i32"])];

/// `log_input ? exp(x) - t x : x - t log(x + eps)`, plus the Stirling term
/// `t log t - t + 0.5 log(2 pi t)` where `t > 1` when `full`.
/// Integer inputs: torch's `exp(x)` and `x + eps` promote to the float
/// result, `t * x` of two integer tensors stays in their type (wrapping).
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let raw = c.args.tensor("input")?;
    let raw_t = c.args.tensor("target")?;
    let result = c.result_element(0)?;
    let x = c.b.cast_like_type(raw, result)?;
    let e = Like::new(c, x);
    let t = c.tensor_as("target", result)?;
    let int_product = !crate::builder::is_float(
        crate::builder::element_type(melior::ir::ValueLike::r#type(&raw)).ok_or("input is not a tensor")?,
    ) && melior::ir::ValueLike::r#type(&raw) == melior::ir::ValueLike::r#type(&raw_t);
    let mut l = if c.args.bool("log_input")? {
        let tx = if int_product {
            c.b.cast_like_type(c.b.onnx().mul(raw_t, raw).like(raw)?, result)?
        } else {
            e.mul(t, x)?
        };
        e.sub(e.exp(x)?, tx)?
    } else {
        let lg = e.log(e.add(x, e.k(c.args.float("eps")?)?)?)?;
        e.sub(x, e.mul(t, lg)?)?
    };
    if c.args.bool("full")? {
        let tl = e.mul(t, e.log(t)?)?;
        let two_pi_t = e.mul(t, e.k(2.0 * std::f64::consts::PI)?)?;
        let st = e.add(e.sub(tl, t)?, e.mul(e.k(0.5)?, e.log(two_pi_t)?)?)?;
        let big = e.greater(t, e.k(1.0)?)?;
        l = e.add(l, e.where_(big, st, e.k(0.0)?)?)?;
    }
    Ok(vec![reduce_loss(c, l)?])
}
