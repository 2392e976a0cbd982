use super::tensor_common::sort;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.argsort.default", argsort)
        .samples(&[
            "self: T[3,5]",
            "self: T[3,5]; dim: 0; descending: true",
            "self: T[6]; descending: true",
            "self: T[2,3,4]; dim: -2",
            "self: T[]",
            "self: T[0,3]; dim: 0",
        ])
        .dtypes(&["f32", "i64", "i32", "f64", "bool"]),
    Rule::custom("aten.argsort.stable", argsort)
        .samples(&[
            "self: T[3,5]; stable: true",
            "self: T[3,5]; stable: true; dim: 0; descending: true",
            "self: i64[9]{0..3}; stable: true",
            "self: i64[9]{0..3}; stable: true; descending: true",
            "self: T[]; stable: false",
            "self: T[2,0]; stable: true",
        ])
        .dtypes(&["f32", "i64", "i32", "f64", "bool"]),
];

/// The indices of a stable sort along `dim` (NaN largest, ties in index
/// order: torch's CPU sort is stable for both overloads); a 0-d tensor gives
/// index 0.
fn argsort<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    if rank == 0 {
        return Ok(vec![ctx.b.const_i64_scalar(0)?]);
    }
    let (_, indices) = sort(ctx, x, dim, ctx.args.bool("descending")?)?;
    Ok(vec![ctx.b.onnx().identity(indices).typed(ctx.result_type(0)?)?])
}
