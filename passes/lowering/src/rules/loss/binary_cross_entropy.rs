use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.binary_cross_entropy.default", loss).samples(&[
    "self: T[3,4]{0..2}; target: T[3,4]{0..2}",
    "self: T[3,4]{0..2}; target: T[3,4]{0..2}; weight: T[4]; reduction: 0",
    "self: T[3,4]{0..2}; target: T[3,4]{0..2}; reduction: 2",
])];

/// `-w (t max(log x, -100) + (1 - t) max(log(1 - x), -100))`.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let e = Like::new(c, x);
    let t = c.tensor_as("target", c.result_element(0)?)?;
    let floor = e.k(-100.0)?;
    let log_x = e.max(e.log(x)?, floor)?;
    let log_1mx = e.max(e.log(e.sub(e.k(1.0)?, x)?)?, floor)?;
    let mut l = e.add(e.mul(t, log_x)?, e.mul(e.sub(e.k(1.0)?, t)?, log_1mx)?)?;
    l = e.neg(l)?;
    if let Some(w) = c.args.opt_tensor("weight")? {
        l = e.mul(l, w)?;
    }
    Ok(vec![reduce_loss(c, l)?])
}
