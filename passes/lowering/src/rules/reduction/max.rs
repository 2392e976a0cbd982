use super::math_common::{arg_nan, lift0, reduce_nan};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.max.dim", |c| reduce_with_index(c, crate::Reduction::Max, "ArgMax"))
        .samples(&[
            "self: T[3,4]; dim: 1",
            "self: T[3,4]; dim: 0; keepdim: true",
            "self: T[]; dim: 0",
            "self: T[]; dim: -1; keepdim: true",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.max.other", |c| {
        let e = c.result_element(0)?;
        let (a, b) = (c.tensor_as("self", e)?, c.tensor_as("other", e)?);
        // ONNX Max takes no bools: on bools max is Or.
        let y = if crate::builder::is_bool(e) { c.b.onnx().or(a, b) } else { c.b.onnx().max(&[a, b]) };
        Ok(vec![y.typed(c.result_type(0)?)?])
    })
    .samples(&["self: T[2,3]; other: T[3]", "self: T[]; other: T[2]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.max.default", |c| {
        let x = c.args.tensor("self")?;
        Ok(vec![reduce_nan(c, crate::Reduction::Max, x, None, false, c.result_type(0)?)?])
    })
    .samples(&["self: T[3,4]", "self: T[]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];

/// `max.dim` / `min.dim`: the reduced values and the index of the first
/// extreme element (`select_last_index=0`, like torch on CPU); a slice with
/// a NaN gives NaN and the index of its first NaN, like torch.
pub(super) fn reduce_with_index<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    reduce: crate::Reduction,
    arg: &str,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)? as i64;
    let keepdim = ctx.args.bool("keepdim")?;
    let values = reduce_nan(ctx, reduce, x, Some(&[dim]), keepdim, ctx.result_type(0)?)?;
    let (lx, lifted) = lift0(ctx, x)?;
    let indices = if lifted {
        let i = arg_nan(ctx, arg, lx, 0, false, ctx.b.unranked(ctx.b.i64_type()))?;
        ctx.b.onnx().identity(i).typed(ctx.result_type(1)?)?
    } else {
        arg_nan(ctx, arg, x, dim, keepdim, ctx.result_type(1)?)?
    };
    Ok(vec![values, indices])
}
