use super::index_common::{advanced, int_indices};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.index.Tensor", index)
    .samples(&[
        "self: T[4,5]; indices: (i64[3]{0..4})",
        "self: T[4,5]; indices: (none, i64[2]{0..5})",
        "self: T[4,5]; indices: (i64[2,1]{0..4}, i64[3]{0..5})",
        "self: T[4,5]; indices: (i64[3]{-4..4})",
        "self: T[4]; indices: (bool[4])",
        "self: T[3,4]; indices: (bool[3,4])",
        "self: T[3,4,2]; indices: (bool[3,4])",
        "self: T[3,4,2]; indices: (none, bool[4])",
        "self: T[3,4,2]; indices: (none, bool[4,2])",
        "self: T[3,4,2]; indices: (i64[2]{0..3}, none, i64[2]{0..2})",
        "self: T[3,4,2]; indices: (none, i64[2]{0..4}, i64[1]{0..2})",
        "self: T[3,4]; indices: (bool[3], i64[1]{0..4})",
        "self: T[0,4]; indices: (bool[0])",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16", "i8", "u8"])];

/// Advanced indexing `x[indices]` with integer and boolean index tensors:
/// one integer index is a `Gather`; otherwise the indexed dims are moved
/// first, the (broadcast) indices stacked and `GatherND`, and the indexed
/// block moved to where torch puts it (in place of the indexed dims when
/// they are consecutive, first otherwise).
fn index<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let indices = ctx.args.opt_tensors("indices")?;
    let rank = ctx.rank(x)?;
    let all_int = indices.iter().flatten().all(|v| {
        builder::element_type(v.r#type()).is_some_and(|e| {
            !builder::is_bool(e) && e != melior::ir::r#type::IntegerType::unsigned(b.context, 8).into()
        })
    });
    let given = int_indices(ctx, &indices)?;
    match given.as_slice() {
        [] => Ok(vec![x]),
        [(axis, idx)] if all_int => {
            if *axis >= rank {
                return Err(format!("too many indices for a tensor of rank {rank}"));
            }
            Ok(vec![ctx.b.onnx().gather(x, *idx, Some(*axis as i64)).typed(ctx.result_type(0)?)?])
        }
        many => {
            let adv = advanced(ctx, x, many)?;
            let gathered = b.onnx().gather_nd(adv.xt, adv.stacked, None).like(x)?;
            match adv.block_at {
                None => Ok(vec![gathered]),
                Some(p) => {
                    // [B(nb), pre(p), post] -> [pre, B, post]
                    let nb = adv.index_rank as i64;
                    let out_rank = adv.index_rank + rank - adv.dims.len();
                    let mut perm: Vec<i64> = (nb..nb + p as i64).collect();
                    perm.extend(0..nb);
                    perm.extend(nb + p as i64..out_rank as i64);
                    Ok(vec![ctx.b.onnx().transpose(gathered, Some(&perm)).typed(ctx.result_type(0)?)?])
                }
            }
        }
    }
}
