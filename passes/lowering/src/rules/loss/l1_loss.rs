use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.l1_loss.default", loss).samples(&[
    "self: T[3,4]; target: T[3,4]",
    "self: T[3,4]; target: T[3,4]; reduction: 0",
    "self: T[3,4]; target: T[3,4]; reduction: 2",
])];

/// `|self - target|`, reduced.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let e = Like::new(c, x);
    let d = e.sub(x, c.tensor_as("target", c.result_element(0)?)?)?;
    Ok(vec![reduce_loss(c, e.abs(d)?)?])
}
