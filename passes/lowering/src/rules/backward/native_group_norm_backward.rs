use super::nn_common::grouped_shape;
use crate::{builder, Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.native_group_norm_backward.default", group_norm_backward).samples(&[
    "grad_out: T[2,4,3,3]; input: T[2,4,3,3]; mean: T[2,2]; rstd: T[2,2]{pos}; weight: T[4]; N: 2; C: 4; HxW: 9; group: 2; output_mask: [true, true, true]",
    "grad_out: T[2,6,5]; input: T[2,6,5]; mean: T[2,3]; rstd: T[2,3]{pos}; weight: T[6]; N: 2; C: 6; HxW: 5; group: 3; output_mask: [true, true, true]",
    "grad_out: T[3,4]; input: T[3,4]; mean: T[3,1]; rstd: T[3,1]{pos}; weight: T[4]; N: 3; C: 4; HxW: 1; group: 1; output_mask: [true, true, true]",
])];

/// Per group (`[N, G, C/G * HxW]`), with `xhat = (x - mean) * rstd` and
/// `g = grad_out * weight[c]`: `grad_input = rstd * (g - mean(g) - xhat *
/// mean(g * xhat))`; `grad_weight[c] = sum(grad_out * xhat)` and
/// `grad_bias[c] = sum(grad_out)` over N and the spatial dims.
fn group_norm_backward<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let go = c.args.tensor("grad_out")?;
    let x = c.args.tensor("input")?;
    let mean = c.args.tensor("mean")?;
    let rstd = c.args.tensor("rstd")?;
    let groups = c.args.int("group")?;
    let rank = c.rank(x)?;
    let ty = b.unranked(builder::element_type(x.r#type()).ok_or("not a tensor")?);
    let n = match c.args.sym_int("N")? {
        IntArg::Static(n) => b.const_i64s(&[n])?,
        IntArg::Dynamic(v) => v,
    };
    let gshape = grouped_shape(c, x, Some(n), groups)?;
    let xshape = b.shape(x)?;
    let trailing: Vec<i64> = (1..rank as i64 - 1).collect();
    let per_channel = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        if trailing.is_empty() {
            Ok(v)
        } else {
            c.unsqueeze(v, &trailing)
        }
    };
    let xg = b.onnx().reshape(x, gshape, None).like(x)?;
    let mean3 = c.unsqueeze(mean, &[-1])?;
    let rstd3 = c.unsqueeze(rstd, &[-1])?;
    let xhat_g = b.onnx().mul(b.onnx().sub(xg, mean3).like(x)?, rstd3).like(x)?;
    let g = match c.args.opt_tensor("weight")? {
        Some(w) => b.onnx().mul(go, per_channel(w)?).like(x)?,
        None => go,
    };
    let gg = b.onnx().reshape(g, gshape, None).like(x)?;
    let mean_g = c.reduce(crate::Reduction::Mean, gg, Some(&[-1]), true, ty)?;
    let mean_gx = c.reduce(crate::Reduction::Mean, b.onnx().mul(gg, xhat_g).like(x)?, Some(&[-1]), true, ty)?;
    let inner = b.onnx().sub(b.onnx().sub(gg, mean_g).like(x)?, b.onnx().mul(xhat_g, mean_gx).like(x)?).like(x)?;
    let gi = b.onnx().mul(inner, rstd3).like(x)?;
    let grad_input = b.onnx().reshape(gi, xshape, None).typed(c.result_type(0)?)?;
    let xhat = b.onnx().reshape(xhat_g, xshape, None).like(x)?;
    let axes: Vec<i64> = std::iter::once(0).chain(2..rank as i64).collect();
    let grad_weight =
        c.reduce(crate::Reduction::Sum, b.onnx().mul(go, xhat).like(x)?, Some(&axes), false, c.result_type(1)?)?;
    let grad_bias = c.reduce(crate::Reduction::Sum, go, Some(&axes), false, c.result_type(2)?)?;
    Ok(vec![grad_input, grad_weight, grad_bias])
}
