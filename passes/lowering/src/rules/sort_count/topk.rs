use super::tensor_common::sort;
use crate::{Ctx, IntArg, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.topk.default", topk)
    .samples(&[
        "self: T[3,5]; k: 2",
        "self: T[3,5]; k: 3; dim: 0; largest: false",
        "self: T[6]; k: 6",
        "self: T[6]; k: 0",
        "self: T[2,3,4]; k: 1; dim: 1",
        "self: T[]; k: 1",
        "self: T[4,5]; k: 2; dim: -2; largest: false",
    ])
    // f32 only: random floats have no ties, and which of tied elements
    // torch's topk returns is unspecified (its CPU kernel is not stable).
    .dtypes(&["f32", "f64"])];

/// The first `k` of a stable sort (largest: descending), NaN counted
/// largest like torch. `sorted=False` leaves the order unspecified in torch;
/// this gives the sorted order.
fn topk<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let k = ctx.args.sym_int("k")?;
    if rank == 0 {
        if let IntArg::Static(k) = k {
            if k > 1 {
                return Err(format!("topk: k={k} is out of range for a 0-d tensor"));
            }
            if k == 1 {
                return Ok(vec![x, b.const_i64_scalar(0)?]);
            }
        }
        return Err("topk on a 0-d tensor with k other than 1 is not supported".into());
    }
    let (values, indices) = sort(ctx, x, dim, ctx.args.bool("largest")?)?;
    let zero = b.const_i64s(&[0])?;
    let end = ctx.int_tensor(k)?;
    let axes = b.const_i64s(&[dim as i64])?;
    let v = ctx.b.onnx().slice(values, zero, end, Some(axes), None).typed(ctx.result_type(0)?)?;
    let i = ctx.b.onnx().slice(indices, zero, end, Some(axes), None).typed(ctx.result_type(1)?)?;
    Ok(vec![v, i])
}
