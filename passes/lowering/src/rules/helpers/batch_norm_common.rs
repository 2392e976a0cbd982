//! Batch statistics shared by the batch-norm family. Not a rule file.

use crate::{builder, Ctx};
use melior::ir::{r#type::RankedTensorType, Value, ValueLike};

/// Batch normalization over every dim but 1, with torch's results:
/// `[y, save_mean, save_rstd, running_mean_out, running_var_out]`.
/// Training: batch statistics (biased variance for `y`), the running stats
/// blended with `momentum` (unbiased variance); `save_*` are the batch mean
/// and `1 / sqrt(var + eps)`. Eval: the running statistics, `save_*` empty,
/// running stats unchanged.
pub(super) fn batch_norm_stats<'c, 'a>(c: &Ctx<'c, 'a>, training: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let x = c.args.tensor("input")?;
    let rank = c.rank(x)?;
    if rank < 2 {
        return Err("batch norm of a tensor with fewer than 2 dims".into());
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let unranked = b.unranked(element);
    let axes: Vec<i64> = std::iter::once(0).chain(2..rank as i64).collect();
    let trailing: Vec<i64> = (1..rank as i64 - 1).collect();
    // [C] -> [C, 1, ...] to broadcast against [N, C, ...].
    let per_channel = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        if trailing.is_empty() {
            Ok(v)
        } else {
            c.unsqueeze(v, &trailing)
        }
    };
    let opt = |name: &str| -> Result<Option<Value<'c, 'a>>, String> {
        if c.args.schema.arg(name).is_some() {
            c.args.opt_tensor(name)
        } else {
            Ok(None)
        }
    };
    let running_mean = opt("running_mean")?;
    let running_var = opt("running_var")?;
    // Per-channel tensors have one value per channel: libtorch does not
    // check it, and another size would give a model onnxruntime rejects.
    let channels = builder::dims(x.r#type()).and_then(|d| d[1]);
    for name in ["weight", "bias", "running_mean", "running_var"] {
        let Some(v) = opt(name)? else { continue };
        let Some(dims) = builder::dims(v.r#type()) else { continue };
        let fits = dims.len() == 1 && !matches!((channels, dims[0]), (Some(c), Some(n)) if c != n);
        if !fits {
            let shown: Vec<String> = dims.iter().map(|d| d.map_or("?".to_string(), |d| d.to_string())).collect();
            return Err(format!(
                "'{name}' has shape [{}]; batch norm needs one value per channel ({} channels)",
                shown.join(", "),
                channels.map_or("?".to_string(), |c| c.to_string())
            ));
        }
    }
    let eps = b.const_like(x, c.args.float("eps")?)?;
    let (y, mean, rstd, rm_out, rv_out);
    if training {
        let mean_k = c.reduce(crate::Reduction::Mean, x, Some(&axes), true, unranked)?;
        let d = b.onnx().sub(x, mean_k).like(x)?;
        let sq = b.onnx().mul(d, d).like(x)?;
        let var_k = c.reduce(crate::Reduction::Mean, sq, Some(&axes), true, unranked)?;
        let ve = b.onnx().add(var_k, eps).like(x)?;
        let rstd_k = b.onnx().reciprocal(b.onnx().sqrt(ve).like(x)?).like(x)?;
        y = b.onnx().mul(d, rstd_k).like(x)?;
        let flat = b.const_i64s(&[-1])?;
        mean = b.onnx().reshape(mean_k, flat, None).like(x)?;
        rstd = b.onnx().reshape(rstd_k, flat, None).like(x)?;
        let var = b.onnx().reshape(var_k, flat, None).like(x)?;
        // Running stats: (1 - m) * running + m * batch (unbiased variance).
        match (running_mean, running_var) {
            (Some(rm), Some(rv)) => {
                let m = c.args.float("momentum")?;
                let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
                let n: Option<i64> = axes.iter().map(|&a| dims[a as usize]).product();
                let unbias = match n {
                    Some(n) => b.const_like(x, if n > 1 { n as f64 / (n - 1) as f64 } else { f64::NAN })?,
                    None => {
                        // Dynamic sizes: n = numel / C (C at least 1), n / (n - 1).
                        let i64_t = b.i64_type();
                        let size = b.onnx().size(x).typed(RankedTensorType::new(&[], i64_t, None).into())?;
                        let ch = b.onnx().shape(x, Some(2), Some(1)).typed(RankedTensorType::new(&[1], i64_t, None).into())?;
                        let ch = b.onnx().max(&[ch, b.const_i64s(&[1])?]).like(ch)?;
                        let count = b.cast(b.onnx().div(size, ch).like(ch)?, element)?;
                        let less = b.onnx().sub(count, b.const_like(x, 1.0)?).like(x)?;
                        b.onnx().div(count, less).like(x)?
                    }
                };
                let keep = b.const_like(x, 1.0 - m)?;
                let mm = b.const_like(x, m)?;
                let blend = |run: Value<'c, 'a>, batch: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
                    let a = b.onnx().mul(run, keep).like(x)?;
                    let bb = b.onnx().mul(batch, mm).like(x)?;
                    b.onnx().add(a, bb).like(x)
                };
                rm_out = Some(blend(rm, mean)?);
                let uv = b.onnx().mul(var, unbias).like(x)?;
                rv_out = Some(blend(rv, uv)?);
            }
            _ => {
                rm_out = None;
                rv_out = None;
            }
        }
    } else {
        let (rm, rv) = match (running_mean, running_var) {
            (Some(rm), Some(rv)) => (rm, rv),
            _ => return Err("batch norm in eval mode without running statistics".into()),
        };
        let d = b.onnx().sub(x, per_channel(rm)?).like(x)?;
        let ve = b.onnx().add(per_channel(rv)?, eps).like(x)?;
        let rstd_k = b.onnx().reciprocal(b.onnx().sqrt(ve).like(x)?).like(x)?;
        y = b.onnx().mul(d, rstd_k).like(x)?;
        let empty = melior::ir::r#type::RankedTensorType::new(&[0], element, None).into();
        mean = b.constant(empty, &[])?;
        rstd = b.constant(empty, &[])?;
        rm_out = Some(b.onnx().identity(rm).like(x)?);
        rv_out = Some(b.onnx().identity(rv).like(x)?);
    }
    let mut y = y;
    if let Some(w) = c.args.opt_tensor("weight")? {
        y = b.onnx().mul(y, per_channel(w)?).like(x)?;
    }
    if let Some(bias) = c.args.opt_tensor("bias")? {
        y = b.onnx().add(y, per_channel(bias)?).like(x)?;
    }
    let y = b.onnx().identity(y).like(x)?;
    let mut out = vec![y, mean, rstd];
    out.extend(rm_out);
    out.extend(rv_out);
    Ok(out)
}
