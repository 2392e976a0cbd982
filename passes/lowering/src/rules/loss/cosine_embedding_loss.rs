use super::nn_common::reduce_loss;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.cosine_embedding_loss.default", loss)
    .samples(&[
        "input1: T[4,5]; input2: T[4,5]; target: i64[4]{-1..2}",
        "input1: T[4,5]; input2: T[4,5]; target: T[4]{-1..2}; margin: 0.3; reduction: 0",
        "input1: T[4,5]; input2: T[4,5]; target: i64[4]{-1..2}; margin: -0.5; reduction: 2",
        "input1: T[5]; input2: T[5]; target: i64[]{-1..2}; reduction: 0",
        "input1: T[5]; input2: T[5]; target: i64[]{-1..2}",
        "input1: T[0,5]; input2: T[0,5]; target: i64[0]{-1..2}; reduction: 2",
    ])
    .dtypes(&["f32", "f64"])];

/// torch: `cos = sum(x1*x2) / sqrt((sum(x1^2) + 1e-12) * (sum(x2^2) + 1e-12))`
/// over the last dim, `1 - cos` where target == 1, `max(cos - margin, 0)`
/// where target == -1, 0 elsewhere; reduced.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let x1 = c.tensor_as("input1", el)?;
    let x2 = c.tensor_as("input2", el)?;
    let dim = c.rank(c.args.tensor("target")?)? as i64;
    let t = c.tensor_as("target", el)?;
    let e = Like::new(c, x1);
    let ty = c.b.unranked(el);
    let sum = |v: Value<'c, 'a>| c.reduce(crate::Reduction::Sum, v, Some(&[dim]), false, ty);
    let prod = sum(e.mul(x1, x2)?)?;
    let m1 = e.add(sum(e.mul(x1, x1)?)?, e.k(1e-12)?)?;
    let m2 = e.add(sum(e.mul(x2, x2)?)?, e.k(1e-12)?)?;
    let cos = e.div(prod, e.sqrt(e.mul(m1, m2)?)?)?;
    let pos = e.sub(e.k(1.0)?, cos)?;
    let neg = e.sub(cos, e.k(c.args.float("margin")?)?)?;
    let neg = e.where_(e.less(neg, e.k(0.0)?)?, e.k(0.0)?, neg)?;
    let out_pos = e.where_(e.equal(t, e.k(1.0)?)?, pos, e.k(0.0)?)?;
    let out_neg = e.where_(e.equal(t, e.k(-1.0)?)?, neg, e.k(0.0)?)?;
    Ok(vec![reduce_loss(c, e.add(out_pos, out_neg)?)?])
}
