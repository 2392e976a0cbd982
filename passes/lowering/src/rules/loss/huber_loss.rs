use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.huber_loss.default", loss).samples(&[
    "self: T[3,4]; target: T[3,4]",
    "self: T[3,4]; target: T[3,4]; reduction: 0; delta: 0.5",
    "self: T[3,4]; target: T[3,4]; reduction: 2; delta: 2.5",
])];

/// `0.5 d^2` where `|d| < delta`, else `delta (|d| - 0.5 delta)`.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let e = Like::new(c, x);
    let delta = c.args.float("delta")?;
    let d = e.sub(x, c.tensor_as("target", c.result_element(0)?)?)?;
    let a = e.abs(d)?;
    let quad = e.mul(e.mul(d, d)?, e.k(0.5)?)?;
    let lin = e.mul(e.sub(a, e.k(0.5 * delta)?)?, e.k(delta)?)?;
    let small = e.less(a, e.k(delta)?)?;
    Ok(vec![reduce_loss(c, e.where_(small, quad, lin)?)?])
}
