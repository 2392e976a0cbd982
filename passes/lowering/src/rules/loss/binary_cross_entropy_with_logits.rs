use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.binary_cross_entropy_with_logits.default", loss).samples(&[
    "self: T[3,4]; target: T[3,4]{pos}",
    "self: T[3,4]; target: T[3,4]{pos}; weight: T[4]; pos_weight: T[4]{pos}; reduction: 0",
    "self: T[3,4]; target: T[3,4]{pos}; pos_weight: T[3,4]{pos}; reduction: 2",
])];

/// `(1 - t) x + (1 + (pw - 1) t) (log(1 + exp(-|x|)) + max(-x, 0))`, times `weight`.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let e = Like::new(c, x);
    let t = c.tensor_as("target", c.result_element(0)?)?;
    let soft = e.add(e.softplus(e.neg(e.abs(x)?)?)?, e.max(e.neg(x)?, e.k(0.0)?)?)?;
    let scaled = match c.args.opt_tensor("pos_weight")? {
        Some(pw) => {
            let lw = e.add(e.mul(e.sub(pw, e.k(1.0)?)?, t)?, e.k(1.0)?)?;
            e.mul(lw, soft)?
        }
        None => soft,
    };
    let mut l = e.add(e.mul(e.sub(e.k(1.0)?, t)?, x)?, scaled)?;
    if let Some(w) = c.args.opt_tensor("weight")? {
        l = e.mul(l, w)?;
    }
    Ok(vec![reduce_loss(c, l)?])
}
