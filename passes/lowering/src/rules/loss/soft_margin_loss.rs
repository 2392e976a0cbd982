use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.soft_margin_loss.default", loss).samples(&[
    "self: T[3,4]; target: T[3,4]",
    "self: T[3,4]; target: T[3,4]; reduction: 0",
    "self: T[3,4]; target: T[3,4]; reduction: 2",
])];

/// `log(1 + exp(-target * self))`.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let e = Like::new(c, x);
    let tx = e.mul(x, c.tensor_as("target", c.result_element(0)?)?)?;
    let l = e.softplus(e.neg(tx)?)?;
    Ok(vec![reduce_loss(c, l)?])
}
