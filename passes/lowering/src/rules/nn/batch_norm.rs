use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.batch_norm.default", |c| {
        // An empty input gives an empty output and leaves the running stats
        // alone (torch returns early, in training mode too).
        let x = c.args.tensor("input")?;
        if crate::builder::dims(melior::ir::ValueLike::r#type(&x)).is_some_and(|d| d.contains(&Some(0))) {
            return Ok(vec![c.b.onnx().identity(x).typed(c.result_type(0)?)?]);
        }
        if c.args.bool("training")? {
            if c.args.opt_tensor("running_mean")?.is_none() && c.args.opt_tensor("running_var")?.is_none() {
                // No running stats to update: plain batch statistics.
                return Ok(vec![super::batch_norm_common::batch_norm_stats(c, true)?.remove(0)]);
            }
            // aten-remove-inplace turns this case into
            // `_native_batch_norm_legit_functional` (the update becomes results).
            return Err("batch_norm in training mode updates running stats in place; run aten-remove-inplace first \
                        (it makes the update explicit)"
                .into());
        }
        batch_norm(c).map(|v| vec![v])
    }).samples(&["input: T[2,3,4,4]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; training: false; momentum: 0.1; eps: 0.00001; cudnn_enabled: false", "input: T[2,3,5]; weight: none; bias: none; running_mean: T[3]; running_var: T[3]{pos}; training: false; momentum: 0.1; eps: 0.001; cudnn_enabled: false", "input: T[2,3,4,4]; weight: T[3]; bias: T[3]; running_mean: none; running_var: none; training: true; momentum: 0.1; eps: 0.00001; cudnn_enabled: false", "input: T[4,3]; weight: none; bias: none; running_mean: none; running_var: none; training: true; momentum: 0.1; eps: 0.001; cudnn_enabled: false", "input: T[0]; weight: none; bias: none; running_mean: T[0]; running_var: T[0]; training: false; momentum: 0.1; eps: 0.001; cudnn_enabled: false", "input: T[0]; weight: none; bias: none; running_mean: T[0]; running_var: T[0]; training: true; momentum: 0.1; eps: 0.001; cudnn_enabled: false", "input: T[2,3,4]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; training: true; momentum: 0.1; eps: 0.00001; cudnn_enabled: false"]),
    Rule::custom("aten._native_batch_norm_legit_no_training.default", legit_no_training).samples(&["input: T[2,3,4,4]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; momentum: 0.1; eps: 0.00001; returns: [0]"]),
];

/// Results 1 and 2 (saved mean / invstd) are empty in inference.
fn legit_no_training<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let y = batch_norm(ctx)?;
    let empty1 = ctx.b.constant(ctx.result_type(1)?, &[])?;
    let empty2 = ctx.b.constant(ctx.result_type(2)?, &[])?;
    Ok(vec![y, empty1, empty2])
}

/// Inference `BatchNormalization`, with unit scale / zero bias when absent.
fn batch_norm<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let x = ctx.args.tensor("input")?;
    // A 1-D input has no channel dim: torch accepts it only empty (0
    // channels), and BatchNormalization needs one; the result is empty too.
    if let Some(dims) = crate::builder::dims(melior::ir::ValueLike::r#type(&x)) {
        if dims.len() < 2 {
            if dims.first() == Some(&Some(0)) {
                return ctx.b.onnx().identity(x).typed(ctx.result_type(0)?);
            }
            return Err("batch_norm needs an input with a channel dim (rank >= 2)".into());
        }
    }
    let mean = ctx.args.opt_tensor("running_mean")?.ok_or("batch_norm without running_mean")?;
    let var = ctx.args.opt_tensor("running_var")?.ok_or("batch_norm without running_var")?;
    let fill = |v: f64| -> Result<Value<'c, 'a>, String> {
        let shape = ctx.b.shape(mean)?;
        let s = ctx.b.const_like(mean, v)?;
        ctx.b.onnx().expand(s, shape).like(mean)
    };
    let scale = match ctx.args.opt_tensor("weight")? {
        Some(w) => w,
        None => fill(1.0)?,
    };
    let bias = match ctx.args.opt_tensor("bias")? {
        Some(b) => b,
        None => fill(0.0)?,
    };
    let eps = ctx.args.float("eps")?;
    ctx.b.onnx().batch_normalization(x, scale, bias, mean, var, Some(eps as f32), None, None).typed(ctx.result_type(0)?)
}
