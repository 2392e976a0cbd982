use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.native_layer_norm_backward.default", layer_norm_backward).samples(&[
    "grad_out: T[2,3,4]; input: T[2,3,4]; normalized_shape: [4]; mean: T[2,3,1]; rstd: T[2,3,1]{pos}; weight: T[4]; bias: T[4]; output_mask: [true, true, true]",
    "grad_out: T[2,3,4]; input: T[2,3,4]; normalized_shape: [3,4]; mean: T[2,1,1]; rstd: T[2,1,1]{pos}; weight: T[3,4]; bias: T[3,4]; output_mask: [true, true, true]",
    "grad_out: T[5,4]; input: T[5,4]; normalized_shape: [4]; mean: T[5,1]; rstd: T[5,1]{pos}; weight: T[4]; bias: T[4]; output_mask: [true, true, true]",
])];

/// With `xhat = (x - mean) * rstd` and `g = grad_out * weight`:
/// `grad_input = rstd * (g - mean(g) - xhat * mean(g * xhat))` over the
/// normalized dims; `grad_weight = sum(grad_out * xhat)` and
/// `grad_bias = sum(grad_out)` over the other dims.
fn layer_norm_backward<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let go = c.args.tensor("grad_out")?;
    let x = c.args.tensor("input")?;
    let mean = c.args.tensor("mean")?;
    let rstd = c.args.tensor("rstd")?;
    let rank = c.rank(x)?;
    let k = c.args.sym_ints("normalized_shape")?.len();
    let norm_axes: Vec<i64> = (rank - k..rank).map(|a| a as i64).collect();
    let batch_axes: Vec<i64> = (0..rank - k).map(|a| a as i64).collect();
    let ty = b.unranked(builder::element_type(x.r#type()).ok_or("not a tensor")?);
    let xhat = b.onnx().mul(b.onnx().sub(x, mean).like(x)?, rstd).like(x)?;
    let weight = c.args.opt_tensor("weight")?;
    let g = match weight {
        Some(w) => b.onnx().mul(go, w).like(x)?,
        None => go,
    };
    let mean_g = c.reduce(crate::Reduction::Mean, g, Some(&norm_axes), true, ty)?;
    let mean_gx = c.reduce(crate::Reduction::Mean, b.onnx().mul(g, xhat).like(x)?, Some(&norm_axes), true, ty)?;
    let inner = b.onnx().sub(b.onnx().sub(g, mean_g).like(x)?, b.onnx().mul(xhat, mean_gx).like(x)?).like(x)?;
    let grad_input = c.b.onnx().mul(inner, rstd).typed(c.result_type(0)?)?;
    let sum_batch = |v: Value<'c, 'a>, index: usize| -> Result<Value<'c, 'a>, String> {
        if batch_axes.is_empty() {
            return c.b.onnx().identity(v).typed(c.result_type(index)?);
        }
        c.reduce(crate::Reduction::Sum, v, Some(&batch_axes), false, c.result_type(index)?)
    };
    let grad_weight = sum_batch(b.onnx().mul(go, xhat).like(x)?, 1)?;
    let grad_bias = sum_batch(go, 2)?;
    Ok(vec![grad_input, grad_weight, grad_bias])
}
