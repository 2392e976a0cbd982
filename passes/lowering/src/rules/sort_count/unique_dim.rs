use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.unique_dim.default", unique_dim)
    .samples(&[
        "self: i64[6,2]{0..2}; dim: 0",
        "self: i64[6,2]{0..2}; dim: 0; return_inverse: true; return_counts: true",
        "self: i64[2,6]{0..2}; dim: -1; return_inverse: true; return_counts: true",
        "self: T[4,3]; dim: 1; return_counts: true",
    ])
    .dtypes(&["f32", "i64", "f64"])];

/// ONNX `Unique` along `dim` (sorted: slices in lexicographic order, like
/// torch); outputs not asked for are empty int64 tensors.
fn unique_dim<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    if rank == 0 {
        return Err("unique_dim needs a tensor of rank >= 1".into());
    }
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let i64s = b.unranked(b.i64_type());
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let outs = b.onnx().unique(x, Some(dim as i64), Some(1)).results(&[b.unranked(element), i64s, i64s, i64s])?;
    let empty = || super::tensor_common::const_index(ctx, &[0], &[]);
    // torch's unique_dim computes the inverse and counts whatever the flags
    // say; an output typed `tensor<0xi64>` while there are slices is one it
    // left empty.
    let left_empty = |i: usize| -> Result<bool, String> {
        let n = builder::dims(x.r#type()).and_then(|d| d[dim]);
        Ok(builder::dims(ctx.result_type(i)?) == Some(vec![Some(0)]) && n != Some(0))
    };
    let inverse = if left_empty(1)? { empty()? } else { outs[2] };
    let counts = if left_empty(2)? { empty()? } else { outs[3] };
    Ok(vec![outs[0], inverse, counts])
}
