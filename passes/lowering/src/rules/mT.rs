use crate::{Ctx, Rule};
use melior::ir::Value;

/// `x.mT`: the last two dims swapped (a view; rank >= 2).
pub const RULES: &[Rule] = &[Rule::custom("aten.mT.default", swap_last_two)
    .samples(&["self: T[3,4]", "self: T[2,3,4]"])
    .dtypes(&["f32", "i64", "bool"])];

/// Transpose of the last two dims; shared by `mH` and `adjoint` (which are
/// the same for real tensors).
pub fn swap_last_two<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    if rank < 2 {
        return Err(format!("needs a tensor of rank >= 2, got rank {rank}"));
    }
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(rank - 2, rank - 1);
    Ok(vec![ctx.b.onnx().transpose(x, Some(&perm)).typed(ctx.result_type(0)?)?])
}
