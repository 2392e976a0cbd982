use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.kl_div.default", loss).samples(&[
    "self: T[3,4]; target: T[3,4]{pos}",
    "self: T[3,4]; target: T[3,4]; reduction: 0; log_target: true",
    "self: T[3,4]; target: T[3,4]{pos}; reduction: 2",
    "self: T[3,4]; target: T[3,4]; reduction: 0",
])];

/// `log_target ? exp(t) (t - x) : xlogy(t, t) - t x` (0 where t == 0).
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let e = Like::new(c, x);
    let t = c.tensor_as("target", c.result_element(0)?)?;
    let l = if c.args.bool("log_target")? {
        e.mul(e.exp(t)?, e.sub(t, x)?)?
    } else {
        let zero = e.equal(t, e.k(0.0)?)?;
        let xlogy = e.where_(zero, e.k(0.0)?, e.mul(t, e.log(t)?)?)?;
        e.sub(xlogy, e.mul(t, x)?)?
    };
    Ok(vec![reduce_loss(c, l)?])
}
