use super::diagonal_common::diag_embed;
use crate::{Attr, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.diag.default", diag)
    .samples(&[
        "self: T[3]",
        "self: T[3]; diagonal: 1",
        "self: T[3]; diagonal: -2",
        "self: T[0]",
        "self: T[3,4]",
        "self: T[3,4]; diagonal: 2",
        "self: T[3,4]; diagonal: -1",
        "self: T[3,4]; diagonal: 7",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"])];

/// 1-D: a square matrix with `self` on diagonal `diagonal`; 2-D: that
/// diagonal of the matrix.
fn diag<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let offset = ctx.args.int("diagonal")?;
    match ctx.rank(x)? {
        1 => Ok(vec![diag_embed(ctx, x, offset, 0, 1)?]),
        2 => Ok(vec![super::diagonal_common::diagonal(ctx, x, offset, 0, 1)?]),
        r => {
            let _ = Attr::Int(0);
            Err(format!("diag expects a 1-D or 2-D tensor, got rank {r}"))
        }
    }
}
