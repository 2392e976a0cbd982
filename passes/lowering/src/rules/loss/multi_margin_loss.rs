use super::like_common::Like;
use super::nn_common::{class_rows, reduce_loss};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.multi_margin_loss.default", loss)
    .samples(&[
        "self: T[4,5]; target: i64[4]{0..5}",
        "self: T[4,5]; target: i64[4]{0..5}; p: 2; margin: 0.5; reduction: 0",
        "self: T[4,5]; target: i64[4]{0..5}; weight: T[5]{pos}; reduction: 2",
        "self: T[4,5]; target: i64[4]{0..5}; p: 2; weight: T[5]{pos}",
        "self: T[5]; target: i64[]{0..5}; reduction: 0",
        "self: T[5]; target: i64[1]{0..5}; reduction: 0",
        "self: T[5]; target: i64[]{0..5}",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[("self: T[4,5]; target: i64[4]{0..5}; p: 3", "p")])];

/// torch's kernel: per sample `sum_{i != y} w[y] * h(margin - x[y] + x[i]) / C`
/// with `h(z) = z` (p = 1) or `z*z` (p = 2) where `z > 0`, else 0 (a NaN `z`
/// counts 0, as in torch's `if (z > 0)`); reduced.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let x0 = c.tensor_as("self", el)?;
    let p = c.args.number("p")?.as_f64();
    if p != 1.0 && p != 2.0 {
        return Err(format!("multi_margin_loss: only p == 1 and p == 2 are supported, got {p}"));
    }
    let rank = c.rank(c.args.tensor("self")?)?;
    if rank > 2 {
        return Err("multi_margin_loss: input must be 0-d, 1-d or 2-d".into());
    }
    let b = &c.b;
    let i64_t = b.i64_type();
    let (x, classes, classes_f) = class_rows(c, x0, rank)?;
    let t0 = c.args.tensor("target")?;
    let t = b.onnx().reshape(b.cast(t0, i64_t)?, b.const_i64s(&[-1, 1])?, None).typed(b.unranked(i64_t))?;
    let e = Like::new(c, x0);
    let xt = b.onnx().gather_elements(x, t, Some(1)).like(x0)?;
    let z = e.add(e.sub(e.k(c.args.number("margin")?.as_f64())?, xt)?, x)?;
    let h = if p == 2.0 { e.mul(z, z)? } else { z };
    let classes_range =
        b.onnx().range(b.const_i64_scalar(0)?, classes, b.const_i64_scalar(1)?, None).typed(b.unranked(i64_t))?;
    let is_target = e.equal(classes_range, t)?;
    let keep = e.and(e.greater(z, e.k(0.0)?)?, e.not(is_target)?)?;
    let mut h = e.where_(keep, h, e.k(0.0)?)?;
    if let Some(w) = c.args.opt_tensor("weight")? {
        let w = b.cast_like(w, x0)?;
        let wt = b.onnx().gather(w, t, Some(0)).like(x0)?;
        h = e.mul(h, wt)?;
    }
    let s = c.reduce(crate::Reduction::Sum, h, Some(&[1]), false, b.unranked(el))?;
    let s = e.div(s, classes_f)?;
    // Per-sample losses: shaped like torch's result for reduction='none'
    // (its static shape: [N], 0-d, or [1] where export's meta says so).
    let s = super::prod_common::per_sample_shape(c, s, b.shape(t0)?)?;
    Ok(vec![reduce_loss(c, s)?])
}
