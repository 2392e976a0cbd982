use super::nn_common::grouped_shape;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.group_norm.default", group_norm)
    .samples(&[
        "input: T[2,4,3,3]; num_groups: 2; weight: T[4]; bias: T[4]",
        "input: T[2,6,5]; num_groups: 3",
        "input: T[0,4,3]; num_groups: 2; weight: T[4]; bias: T[4]",
    ])
    .dtypes(&["f32", "f16", "bf16", "f64"])];

/// Normalize over [C/G, spatial] per group: reshape to [N, G, C/G * spatial], mean and
/// variance over the last axis, back to the input shape, then the
/// per-channel affine.
fn group_norm<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("input")?;
    let rank = ctx.rank(x)?;
    let groups = ctx.args.int("num_groups")?;
    let eps = ctx.args.float("eps")?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let grouped = b.onnx().reshape(x, grouped_shape(ctx, x, None, groups)?, None).like(x)?;
    let mean = ctx.reduce(crate::Reduction::Mean, grouped, Some(&[-1]), true, b.unranked(element))?;
    let d = b.onnx().sub(grouped, mean).like(x)?;
    let sq = b.onnx().mul(d, d).like(x)?;
    let var = ctx.reduce(crate::Reduction::Mean, sq, Some(&[-1]), true, b.unranked(element))?;
    let var = b.onnx().add(var, b.const_like(x, eps)?).like(x)?;
    let std = b.onnx().sqrt(var).like(x)?;
    let normed = b.onnx().div(d, std).like(x)?;
    let shape = b.shape(x)?;
    let mut y = b.onnx().reshape(normed, shape, None).like(x)?;
    // weight / bias are [C]: broadcast as [C, 1, ...].
    let trailing: Vec<i64> = (1..rank as i64 - 1).collect();
    if let Some(w) = ctx.args.opt_tensor("weight")? {
        let w = if trailing.is_empty() { w } else { ctx.unsqueeze(w, &trailing)? };
        y = b.onnx().mul(y, w).like(x)?;
    }
    if let Some(bias) = ctx.args.opt_tensor("bias")? {
        let bias = if trailing.is_empty() { bias } else { ctx.unsqueeze(bias, &trailing)? };
        y = b.onnx().add(y, bias).like(x)?;
    }
    Ok(vec![ctx.b.onnx().identity(y).typed(ctx.result_type(0)?)?])
}
