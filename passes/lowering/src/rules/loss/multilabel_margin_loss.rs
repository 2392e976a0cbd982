use super::like_common::Like;
use super::nn_common::{class_rows, reduce_loss};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.multilabel_margin_loss.default", loss)
    .samples(&[
        "self: T[3,4]; target: i64[3,4]{-1..4}",
        "self: T[3,4]; target: i64[3,4]{-1..4}; reduction: 0",
        "self: T[3,4]; target: i64[3,4]{-1..4}; reduction: 2",
        "self: T[4]; target: i64[4]{-1..4}; reduction: 0",
        "self: T[4]; target: i64[4]{0..4}",
    ])
    .dtypes(&["f32", "f64"])];

/// torch's kernel: the labels of a sample are its target entries before the
/// first -1 (repeats count again); per sample
/// `sum_{j label} sum_{i not a label} max(0, 1 - x[y_j] + x[i]) / C`
/// (`z > 0` test: NaN counts 0); reduced.
fn loss<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let x0 = c.tensor_as("self", el)?;
    let rank = c.rank(c.args.tensor("self")?)?;
    if rank > 2 {
        return Err("multilabel_margin_loss: input must be 0-d, 1-d or 2-d".into());
    }
    let b = &c.b;
    let i64_t = b.i64_type();
    let i64_u = b.unranked(i64_t);
    let e = Like::new(c, x0);
    let (x, classes, classes_f) = class_rows(c, x0, rank)?;
    // The target has the input's shape: the same rows.
    let t = b.onnx().reshape(b.cast(c.args.tensor("target")?, i64_t)?, b.shape(x)?, None).typed(i64_u)?;
    // valid[n, j]: no -1 (any negative) before or at j.
    let negative = b.cast(e.less(t, b.const_i64_scalar(0)?)?, i64_t)?;
    let cum = b.onnx().cum_sum(negative, b.const_i64_scalar(1)?, None, None).typed(i64_u)?;
    let valid = e.equal(cum, b.const_i64_scalar(0)?)?;
    let label = b.onnx().where_(valid, t, b.const_i64_scalar(0)?).typed(i64_u)?;
    let xt = b.onnx().gather_elements(x, label, Some(1)).like(x0)?; // [N, j]
                                                                    // is_target[n, i]: i is one of the valid labels.
    let range = b.onnx().range(b.const_i64_scalar(0)?, classes, b.const_i64_scalar(1)?, None).typed(i64_u)?;
    let hit = e.equal(c.unsqueeze(label, &[2])?, range)?; // [N, j, i]
    let hit = e.and(hit, c.unsqueeze(valid, &[2])?)?;
    let f32_t = b.f32_type();
    let any = c.reduce(crate::Reduction::Max, b.cast(hit, f32_t)?, Some(&[1]), false, b.unranked(f32_t))?;
    let is_target = e.greater(any, b.const_scalar(f32_t, 0.0)?)?; // [N, i]
    let z = e.add(e.sub(e.k(1.0)?, c.unsqueeze(xt, &[2])?)?, c.unsqueeze(x, &[1])?)?; // [N, j, i]
    let keep = e.and(e.greater(z, e.k(0.0)?)?, c.unsqueeze(valid, &[2])?)?;
    let keep = e.and(keep, c.unsqueeze(e.not(is_target)?, &[1])?)?;
    let h = e.where_(keep, z, e.k(0.0)?)?;
    let s = c.reduce(crate::Reduction::Sum, h, Some(&[1, 2]), false, b.unranked(el))?;
    let s = e.div(s, classes_f)?;
    // Per-sample losses: shaped like torch's result for reduction='none'
    // (its static shape: [N], 0-d, or [1] where export's meta says so).
    let s = super::prod_common::per_sample_shape(c, s, b.const_i64s(if rank == 2 { &[-1] } else { &[] })?)?;
    Ok(vec![reduce_loss(c, s)?])
}
