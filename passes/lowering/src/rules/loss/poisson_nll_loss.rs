use super::nn_common::{reduce_loss, Ew};
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
    let e = Ew { ctx: c, like: x };
    let t = c.tensor_as("target", result)?;
    let int_product = !crate::builder::is_float(
        crate::builder::element_type(melior::ir::ValueLike::r#type(&raw)).ok_or("input is not a tensor")?,
    ) && melior::ir::ValueLike::r#type(&raw) == melior::ir::ValueLike::r#type(&raw_t);
    let mut l = if c.args.bool("log_input")? {
        let tx = if int_product {
            c.b.cast_like_type(c.b.onnx().mul(raw_t, raw).like(raw)?, result)?
        } else {
            e.op("Mul", &[t, x])?
        };
        e.op("Sub", &[e.op("Exp", &[x])?, tx])?
    } else {
        let lg = e.op("Log", &[e.op("Add", &[x, e.k(c.args.float("eps")?)?])?])?;
        e.op("Sub", &[x, e.op("Mul", &[t, lg])?])?
    };
    if c.args.bool("full")? {
        let tl = e.op("Mul", &[t, e.op("Log", &[t])?])?;
        let two_pi_t = e.op("Mul", &[t, e.k(2.0 * std::f64::consts::PI)?])?;
        let st = e.op("Add", &[e.op("Sub", &[tl, t])?, e.op("Mul", &[e.k(0.5)?, e.op("Log", &[two_pi_t])?])?])?;
        let big = e.bool_op("Greater", &[t, e.k(1.0)?])?;
        l = e.op("Add", &[l, e.op("Where", &[big, st, e.k(0.0)?])?])?;
    }
    Ok(vec![reduce_loss(c, l)?])
}
