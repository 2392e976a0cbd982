use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.index_select.default", index_select)
    .samples(&[
        "self: T[4,5]; dim: 1; index: i64[3]{0..5}",
        "self: T[4,5]; dim: 0; index: i64[2]{0..4}",
        "self: T[4,5]; dim: -1; index: i64[]{0..5}",
        "self: T[]; dim: 0; index: i64[1]{0..1}",
        "self: T[]; dim: -1; index: i64[]{0..1}",
        "self: T[4,5]; dim: 0; index: i64[0]",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16", "i8", "u8"])
    .refuses(&[("self: T[4,5]; dim: 2; index: i64[1]{0..4}", "out of range")])];

/// `Gather(x, index as 1-D, axis=dim)`; a 0-d `self` (dim 0 or -1, index
/// of one element) gives a 0-d result.
fn index_select<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let index = ctx.args.tensor("index")?;
    let minus_one = b.const_i64s(&[-1])?;
    let index = b.onnx().reshape(index, minus_one, None).like(index)?;
    if rank == 0 {
        let x1 = b.onnx().reshape(x, minus_one, None).like(x)?;
        let g = b.onnx().gather(x1, index, Some(0)).like(x)?;
        let scalar = b.const_i64s(&[])?;
        return Ok(vec![ctx.b.onnx().reshape(g, scalar, None).typed(ctx.result_type(0)?)?]);
    }
    Ok(vec![ctx.b.onnx().gather(x, index, Some(dim as i64)).typed(ctx.result_type(0)?)?])
}
