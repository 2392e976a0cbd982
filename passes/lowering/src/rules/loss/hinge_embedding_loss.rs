use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.hinge_embedding_loss.default", loss).samples(&[
    "self: T[3,4]; target: T[3,4]",
    "self: T[3,4]; target: T[3,4]; margin: 0.5; reduction: 0",
    "self: T[3,4]; target: T[3,4]; reduction: 2",
])];

/// `where(target != 1, max(margin - self, 0), 0) + where(target != -1, self, 0)`.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let e = Like::new(c, x);
    let t = c.tensor_as("target", c.result_element(0)?)?;
    let clamp = e.max(e.sub(e.k(c.args.float("margin")?)?, x)?, e.k(0.0)?)?;
    let not_pos = e.not(e.equal(t, e.k(1.0)?)?)?;
    let not_neg = e.not(e.equal(t, e.k(-1.0)?)?)?;
    let l = e.add(e.where_(not_pos, clamp, e.k(0.0)?)?, e.where_(not_neg, x, e.k(0.0)?)?)?;
    Ok(vec![reduce_loss(c, l)?])
}
