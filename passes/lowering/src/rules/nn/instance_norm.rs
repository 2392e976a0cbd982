use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.instance_norm.default", instance_norm)
    .samples(&[
        "input: T[2,3,4,4]; weight: T[3]; bias: T[3]; running_mean: none; running_var: none; use_input_stats: true; momentum: 0.1; eps: 0.00001; cudnn_enabled: false",
        "input: T[2,3,5]; weight: none; bias: none; running_mean: none; running_var: none; use_input_stats: true; momentum: 0.1; eps: 0.001; cudnn_enabled: false",
        "input: T[2,3,5]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; use_input_stats: false; momentum: 0.1; eps: 0.00001; cudnn_enabled: false",
        // Input stats with running stats: through aten-remove-inplace.
        "input: T[2,3,5]; weight: T[3]; bias: T[3]; running_mean: T[3]; running_var: T[3]{pos}; use_input_stats: true; momentum: 0.1; eps: 0.00001; cudnn_enabled: false",
        "input: T[2,3,2,3]; weight: none; bias: none; running_mean: T[3]; running_var: T[3]{pos}; use_input_stats: true; momentum: 0.4; eps: 0.001; cudnn_enabled: false",
    ])];

/// Per-instance normalization over the spatial dims (biased variance);
/// with `use_input_stats=false`, the running statistics.
fn instance_norm<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let x = c.args.tensor("input")?;
    let rank = c.rank(x)?;
    if rank < 3 {
        return Err("instance_norm needs an [N, C, spatial...] input".into());
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let unranked = b.unranked(element);
    let trailing: Vec<i64> = (1..rank as i64 - 1).collect();
    let per_channel = |v: Value<'c, 'a>| c.unsqueeze(v, &trailing);
    let eps = b.const_like(x, c.args.float("eps")?)?;
    let running = (c.args.opt_tensor("running_mean")?, c.args.opt_tensor("running_var")?);
    let (d, ve) = if c.args.bool("use_input_stats")? {
        if running.0.is_some() || running.1.is_some() {
            // aten-remove-inplace rewrites this case (the update becomes results).
            return Err("instance_norm with use_input_stats and running stats updates them in place; run \
                        aten-remove-inplace first (it makes the update explicit)"
                .into());
        }
        let axes: Vec<i64> = (2..rank as i64).collect();
        let mean = c.reduce(crate::Reduction::Mean, x, Some(&axes), true, unranked)?;
        let d = b.onnx().sub(x, mean).like(x)?;
        let sq = b.onnx().mul(d, d).like(x)?;
        let var = c.reduce(crate::Reduction::Mean, sq, Some(&axes), true, unranked)?;
        (d, b.onnx().add(var, eps).like(x)?)
    } else {
        let (Some(rm), Some(rv)) = running else {
            return Err("instance_norm without input stats needs running statistics".into());
        };
        let d = b.onnx().sub(x, per_channel(rm)?).like(x)?;
        (d, b.onnx().add(per_channel(rv)?, eps).like(x)?)
    };
    let mut y = b.onnx().div(d, b.onnx().sqrt(ve).like(x)?).like(x)?;
    if let Some(w) = c.args.opt_tensor("weight")? {
        y = b.onnx().mul(y, per_channel(w)?).like(x)?;
    }
    if let Some(bias) = c.args.opt_tensor("bias")? {
        y = b.onnx().add(y, per_channel(bias)?).like(x)?;
    }
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}
