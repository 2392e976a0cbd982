use super::math_common::isnan;
use super::nn_common::reduce_loss;
use super::like_common::Like;
use super::prod_common::vector_norm;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.triplet_margin_loss.default", loss)
    .samples(&[
        "anchor: T[4,5]; positive: T[4,5]; negative: T[4,5]",
        "anchor: T[4,5]; positive: T[4,5]; negative: T[4,5]; margin: 0.5; p: 1; swap: true; reduction: 0",
        "anchor: T[4,5]; positive: T[4,5]; negative: T[4,5]; margin: 2; p: 3; eps: 0.01; reduction: 2",
        "anchor: T[5]; positive: T[5]; negative: T[5]; swap: true; reduction: 0",
        "anchor: T[0,5]; positive: T[0,5]; negative: T[0,5]; reduction: 2",
    ])
    .dtypes(&["f32", "f64"])];

/// torch: `max(margin + d(a, p) - d(a, n), 0)` with `d` the pairwise
/// distance (`|x1 - x2 + eps|_p` over the last dim); with `swap`,
/// `d(a, n)` is `min(d(a, n), d(p, n))` (NaN-propagating); reduced.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    for name in ["anchor", "positive", "negative"] {
        let t = melior::ir::ValueLike::r#type(&c.args.tensor(name)?);
        if !crate::builder::element_type(t).is_some_and(crate::builder::is_float) {
            // torch subtracts in the integer type first (wrapping for uint8).
            return Err("triplet_margin_loss of integer tensors is not supported".into());
        }
    }
    let a = c.tensor_as("anchor", el)?;
    let pos = c.tensor_as("positive", el)?;
    let neg = c.tensor_as("negative", el)?;
    let e = Like::new(c, a);
    let (p, eps) = (c.args.float("p")?, c.args.float("eps")?);
    let dist = |x1: Value<'c, 'a>, x2: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        let d = e.add(e.sub(x1, x2)?, e.k(eps)?)?;
        vector_norm(c, d, Some(&[-1]), false, p)
    };
    let d_pos = dist(a, pos)?;
    let mut d_neg = dist(a, neg)?;
    if c.args.bool("swap")? {
        let d_swap = dist(pos, neg)?;
        let take = e.or(e.less(d_swap, d_neg)?, isnan(c, d_swap)?)?;
        d_neg = e.where_(take, d_swap, d_neg)?;
    }
    let v = e.sub(e.add(e.k(c.args.float("margin")?)?, d_pos)?, d_neg)?;
    let v = e.where_(e.less(v, e.k(0.0)?)?, e.k(0.0)?, v)?;
    Ok(vec![reduce_loss(c, v)?])
}
