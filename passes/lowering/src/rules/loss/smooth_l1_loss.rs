use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.smooth_l1_loss.default", loss).samples(&[
    "self: T[3,4]; target: T[3,4]",
    "self: T[3,4]; target: T[3,4]; reduction: 0; beta: 0.5",
    "self: T[3,4]; target: T[3,4]; reduction: 2; beta: 0.0",
])];

/// `0.5 d^2 / beta` where `|d| < beta`, else `|d| - 0.5 beta` (beta 0: L1).
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let e = Like::new(c, x);
    let beta = c.args.float("beta")?;
    let d = e.sub(x, c.tensor_as("target", c.result_element(0)?)?)?;
    let a = e.abs(d)?;
    if beta == 0.0 {
        return Ok(vec![reduce_loss(c, a)?]);
    }
    let quad = e.div(e.mul(e.mul(d, d)?, e.k(0.5)?)?, e.k(beta)?)?;
    let lin = e.sub(a, e.k(0.5 * beta)?)?;
    let small = e.less(a, e.k(beta)?)?;
    Ok(vec![reduce_loss(c, e.where_(small, quad, lin)?)?])
}
