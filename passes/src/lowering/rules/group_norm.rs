use crate::lowering::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.group_norm.default", group_norm)
    .samples(&["input: T[2,4,3,3]; num_groups: 2; weight: T[4]; bias: T[4]", "input: T[2,6,5]; num_groups: 3"]).dtypes(&["f32", "f16", "bf16", "f64"])];

/// Normalize over [C/G, spatial] per group: reshape to [N, G, -1], mean and
/// variance over the last axis, back to the input shape, then the
/// per-channel affine.
fn group_norm<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("input")?;
    let rank = ctx.rank(x)?;
    let groups = ctx.args.int("num_groups")?;
    let eps = ctx.args.float("eps")?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let grouped = b.op_like("Reshape", &[x, b.const_i64s(&[0, groups, -1])?], &[], x)?;
    let mean = ctx.reduce("ReduceMean", grouped, Some(&[-1]), true, b.unranked(element))?;
    let d = b.op_like("Sub", &[grouped, mean], &[], x)?;
    let sq = b.op_like("Mul", &[d, d], &[], x)?;
    let var = ctx.reduce("ReduceMean", sq, Some(&[-1]), true, b.unranked(element))?;
    let var = b.op_like("Add", &[var, b.const_like(x, eps)?], &[], x)?;
    let std = b.op_like("Sqrt", &[var], &[], x)?;
    let normed = b.op_like("Div", &[d, std], &[], x)?;
    let shape = b.shape(x)?;
    let mut y = b.op_like("Reshape", &[normed, shape], &[], x)?;
    // weight / bias are [C]: broadcast as [C, 1, ...].
    let trailing: Vec<i64> = (1..rank as i64 - 1).collect();
    if let Some(w) = ctx.args.opt_tensor("weight")? {
        let w = if trailing.is_empty() { w } else { ctx.unsqueeze(w, &trailing)? };
        y = b.op_like("Mul", &[y, w], &[], x)?;
    }
    if let Some(bias) = ctx.args.opt_tensor("bias")? {
        let bias = if trailing.is_empty() { bias } else { ctx.unsqueeze(bias, &trailing)? };
        y = b.op_like("Add", &[y, bias], &[], x)?;
    }
    Ok(vec![ctx.op("Identity", &[y], &[])?])
}
