//! Softmax over a dim shared by softmax, log_softmax and their special_ aliases. Not a rule file.

use super::math_common::along_dim;
use crate::{Attr, Ctx};
use melior::ir::Value;

/// `Softmax(axis=dim)` (per-axis semantics since opset 13), computed in the
/// requested dtype; a 0-d input as a 1-element vector.
pub(super) fn softmax<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let dim = ctx.args.int("dim")?;
    if ctx.rank(x)? > 0 {
        return Ok(vec![ctx.op(op, &[x], &[("axis", Attr::Int(dim))])?]);
    }
    Ok(vec![along_dim(ctx, x, dim, |x, axis| ctx.b.op_like(op, &[x], &[("axis", Attr::Int(axis))], x))?])
}
