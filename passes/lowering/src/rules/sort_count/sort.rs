use super::tensor_common::sort as stable_sort;
use crate::{Ctx, Rule};
use melior::ir::Value;

const SAMPLES: &[&str] = &[
    "self: T[3,5]",
    "self: T[3,5]; dim: 0; descending: true",
    "self: T[6]; descending: true",
    "self: T[2,3,4]; dim: 1",
    "self: T[]",
    "self: T[0,3]; dim: 0",
    "self: T[4,0]",
];

pub const RULES: &[Rule] = &[
    Rule::custom("aten.sort.default", |c| sort(c, c.args.int("dim")?, c.args.bool("descending")?))
        .samples(SAMPLES)
        .dtypes(&["f32", "i64", "bool", "i32", "f64"]),
    Rule::custom("aten.sort.stable", |c| sort(c, c.args.int("dim")?, c.args.bool("descending")?))
        .samples(&[
            "self: T[3,5]; stable: true",
            "self: T[3,5]; stable: true; dim: 0; descending: true",
            "self: T[8]; stable: none; descending: true",
            "self: T[]; stable: true",
            "self: T[2,0]; stable: true",
        ])
        .dtypes(&["f32", "i64", "bool", "i32", "f64"]),
];

/// A stable sort (torch's CPU sort is stable for both overloads; ties keep
/// index order), NaN largest; a 0-d tensor sorts to itself with index 0.
fn sort<'c, 'a>(ctx: &Ctx<'c, 'a>, dim: i64, descending: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(dim, rank)?;
    if rank == 0 {
        return Ok(vec![x, ctx.b.const_i64_scalar(0)?]);
    }
    let (values, indices) = stable_sort(ctx, x, dim, descending)?;
    Ok(vec![values, indices])
}
