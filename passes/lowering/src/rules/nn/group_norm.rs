use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.group_norm.default", group_norm)
    .samples(&[
        "input: T[2,4,3,3]; num_groups: 2; weight: T[4]; bias: T[4]",
        "input: T[2,6,5]; num_groups: 3",
        "input: T[0,4,3]; num_groups: 2; weight: T[4]; bias: T[4]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"])];

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

/// `[N, G, C/G * spatial]` for `x` `[N, C, *spatial]`: N from `n` (else
/// copied, Reshape's 0) and the group size spelled out, never -1 (with N = 0,
/// `-1` has no value and onnx.checker rejects the model).
pub fn grouped_shape<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    n: Option<Value<'c, 'a>>,
    groups: i64,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let i64t = b.unranked(b.i64_type());
    let n = match n {
        Some(n) => n,
        None => b.const_i64s(&[0])?,
    };
    let dims = builder::dims(x.r#type()).ok_or("group norm of a tensor of unknown rank")?;
    let inner = match dims[1..].iter().copied().collect::<Option<Vec<i64>>>() {
        Some(rest) if groups > 0 => b.const_i64s(&[rest.iter().product::<i64>() / groups])?,
        _ => {
            let rest = b.onnx().shape(x, None, Some(1)).typed(i64t)?;
            let prod = b.onnx().reduce_prod(rest, None, None, Some(1), None).typed(i64t)?;
            b.onnx().div(prod, b.const_i64s(&[groups.max(1)])?).typed(i64t)?
        }
    };
    b.onnx().concat(&[n, b.const_i64s(&[groups])?, inner], 0).typed(i64t)
}
