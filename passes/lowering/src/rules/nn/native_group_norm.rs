use super::nn_common::grouped_shape;
use crate::{builder, Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.native_group_norm.default", native_group_norm)
    .samples(&[
        "input: T[2,4,3,3]; weight: T[4]; bias: T[4]; N: 2; C: 4; HxW: 9; group: 2; eps: 0.00001",
        "input: T[2,6,5]; weight: none; bias: none; N: 2; C: 6; HxW: 5; group: 3; eps: 0.001",
        "input: T[3,4]; weight: T[4]; bias: none; N: 3; C: 4; HxW: 1; group: 4; eps: 0.00001",
        "input: T[1,6,2,2,3]; weight: T[6]; bias: T[6]; N: 1; C: 6; HxW: 12; group: 1; eps: 0.00001",
        "input: T[0,4,3]; weight: T[4]; bias: T[4]; N: 0; C: 4; HxW: 3; group: 2; eps: 0.00001",
    ])
    .dtypes(&["f32", "f16", "f64"])]; // not bf16: torch's bfloat16 group norm differs by a bf16 ulp from the float32-computed result

/// Normalizes over [C/G, spatial] per group: `[y, mean [N, G], rstd [N, G]]`
/// (rstd = 1 / sqrt(biased var + eps)), then the per-channel affine.
fn native_group_norm<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let x = c.args.tensor("input")?;
    let rank = c.rank(x)?;
    let groups = c.args.int("group")?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let unranked = b.unranked(element);
    let n = match c.args.sym_int("N")? {
        IntArg::Static(n) => b.const_i64s(&[n])?,
        IntArg::Dynamic(v) => v,
    };
    let shape = grouped_shape(c, x, Some(n), groups)?;
    let grouped = b.onnx().reshape(x, shape, None).like(x)?;
    let mean = c.reduce(crate::Reduction::Mean, grouped, Some(&[-1]), true, unranked)?;
    let d = b.onnx().sub(grouped, mean).like(x)?;
    let sq = b.onnx().mul(d, d).like(x)?;
    let var = c.reduce(crate::Reduction::Mean, sq, Some(&[-1]), true, unranked)?;
    let ve = b.onnx().add(var, b.const_like(x, c.args.float("eps")?)?).like(x)?;
    let rstd = b.onnx().reciprocal(b.onnx().sqrt(ve).like(x)?).like(x)?;
    let normed = b.onnx().mul(d, rstd).like(x)?;
    let mut y = b.onnx().reshape(normed, b.shape(x)?, None).like(x)?;
    let trailing: Vec<i64> = (1..rank as i64 - 1).collect();
    if let Some(w) = c.args.opt_tensor("weight")? {
        let w = if trailing.is_empty() { w } else { c.unsqueeze(w, &trailing)? };
        y = b.onnx().mul(y, w).like(x)?;
    }
    if let Some(bias) = c.args.opt_tensor("bias")? {
        let bias = if trailing.is_empty() { bias } else { c.unsqueeze(bias, &trailing)? };
        y = b.onnx().add(y, bias).like(x)?;
    }
    let y = b.onnx().identity(y).like(x)?;
    let mean = c.squeeze(mean, &[-1])?;
    let rstd = c.squeeze(rstd, &[-1])?;
    Ok(vec![y, mean, rstd])
}
