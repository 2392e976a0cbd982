//! The last-two-dims transpose shared by mT, mH, adjoint and matrix_H. Not a rule file.

use crate::Ctx;
use melior::ir::Value;

/// `x.mT`: the last two dims swapped (a view; rank >= 2).

/// Transpose of the last two dims; shared by `mH` and `adjoint` (which are
/// the same for real tensors).
pub(super) fn swap_last_two<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    if rank < 2 {
        return Err(format!("needs a tensor of rank >= 2, got rank {rank}"));
    }
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(rank - 2, rank - 1);
    Ok(vec![ctx.b.onnx().transpose(x, Some(&perm)).typed(ctx.result_type(0)?)?])
}
