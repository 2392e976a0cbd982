use super::prod_common::{concat_i64, reshape, shape_part, shape_prod, transpose};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.bilinear.default", bilinear)
    .samples(&[
        "input1: T[4,3]; input2: T[4,5]; weight: T[2,3,5]; bias: T[2]",
        "input1: T[2,4,3]; input2: T[2,4,5]; weight: T[2,3,5]",
        "input1: T[3]; input2: T[5]; weight: T[2,3,5]; bias: T[2]",
        "input1: T[0,3]; input2: T[0,5]; weight: T[2,3,5]; bias: T[2]",
    ])
    .dtypes(&["f32", "f64"])];

/// `y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]`: `x1` as
/// `[N, I]` times `W` as `[I, O*J]`, viewed `[N, O, J]`, times `x2` as
/// `[N, 1, J]`, summed over `J`.
fn bilinear<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    super::prod_common::refuse_half(c, "bilinear")?;
    let el = super::prod_common::compute_type(c, c.result_element(0)?);
    let x1 = c.tensor_as("input1", el)?;
    let x2 = c.tensor_as("input2", el)?;
    let w = c.tensor_as("weight", el)?;
    if c.rank(c.args.tensor("weight")?)? != 3 {
        return Err("bilinear: weight must be 3-d".into());
    }
    let rank1 = c.rank(c.args.tensor("input1")?)?;
    if rank1 == 0 || c.rank(c.args.tensor("input2")?)? != rank1 {
        return Err("bilinear: inputs must have the same rank (at least 1)".into());
    }
    let n = shape_prod(c, x1, 0, Some(-1))?;
    let o = shape_part(c, w, 0, Some(1))?;
    let i = shape_part(c, w, 1, Some(2))?;
    let j = shape_part(c, w, 2, Some(3))?;
    let i64_t = c.b.unranked(c.b.i64_type());
    let oj = c.b.onnx().mul(o, j).typed(i64_t)?;
    let x1f = reshape(c, x1, concat_i64(c, &[n, i])?)?;
    let x2f = reshape(c, x2, concat_i64(c, &[n, j])?)?;
    let wt = reshape(c, transpose(c, w, &[1, 0, 2])?, concat_i64(c, &[i, oj])?)?;
    let t = c.b.onnx().mat_mul(x1f, wt).like(x1)?;
    let t = reshape(c, t, concat_i64(c, &[n, o, j])?)?;
    let p = c.b.onnx().mul(t, c.unsqueeze(x2f, &[1])?).like(x1)?;
    let mut y = c.reduce(crate::Reduction::Sum, p, Some(&[2]), false, c.b.unranked(el))?;
    if let Some(bias) = c.args.opt_tensor("bias")? {
        y = c.b.onnx().add(y, c.b.cast_like_type(bias, el)?).like(x1)?;
    }
    let shape = concat_i64(c, &[shape_part(c, x1, 0, Some(-1))?, o])?;
    let y = reshape(c, y, shape)?;
    Ok(vec![super::prod_common::finish(c, y)?])
}
