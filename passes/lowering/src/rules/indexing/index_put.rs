use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.index_put.default", index_put)
    .samples(&[
        "self: T[5,3]; indices: (i64[1]{0..5}); values: T[1,3]",
        "self: T[5,3]; indices: (i64[4]{0..5}); values: T[4,3]; accumulate: true",
        "self: T[3,5]; indices: (none, i64[1]{0..5}); values: T[3,1]",
        "self: T[5,3]; indices: (bool[5]); values: T[]",
        "self: T[5,3]; indices: (bool[5,3]); values: T[]",
        "self: T[5,3]; indices: (bool[5,3]); values: T[]; accumulate: true",
        "self: T[2,5,3]; indices: (none, bool[5]); values: T[3]",
        "self: T[4,5]; indices: (i64[2]{0..4}, i64[2]{0..5}); values: T[2]",
        "self: T[4,5]; indices: (i64[3]{-4..0}, i64[1]{0..5}); values: T[]; accumulate: true",
        "self: T[3,4,2]; indices: (i64[2]{0..3}, none, i64[2]{0..2}); values: T[2,4]",
        "self: T[3,4,2]; indices: (none, i64[2]{0..4}, i64[2]{0..2}); values: T[3,1]",
        "self: T[0,3]; indices: (bool[0]); values: T[]",
    ])
    .dtypes(&["f32", "i64", "i32", "f64", "f16", "bf16", "i8", "u8", "bool"])];

/// `self[indices] = values` (`accumulate`: `+=`), integer or boolean index
/// tensors (masks become the rows of `NonZero`): the indexed dims are moved
/// first, `values` is broadcast to torch's indexing-result shape and laid out
/// like the moved tensor, then `ScatterND` (reduction "add" to accumulate)
/// and the inverse transpose.
fn index_put<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let indices = ctx.args.opt_tensors("indices")?;
    let values = ctx.tensor_as("values", ctx.result_element(0)?)?;
    index_put_values(ctx, x, &indices, values, ctx.args.bool("accumulate")?)
}

/// `x[indices] = values` (`+=` when accumulating) for given operands;
/// shared with `_unsafe_masked_index_put_accumulate`.
pub fn index_put_values<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    indices: &[Option<Value<'c, 'a>>],
    values: Value<'c, 'a>,
    accumulate: bool,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let rank = ctx.rank(x)?;
    let given = super::index::int_indices(ctx, indices)?;
    if given.is_empty() {
        return Err("index_put without index tensors is not supported".into());
    }
    let adv = super::index::advanced(ctx, x, &given)?;
    let i64s = b.unranked(b.i64_type());
    let m = adv.dims.len();
    let nb = adv.index_rank;
    // The shape torch broadcasts `values` to (the shape of `x[indices]`).
    let mut parts = Vec::new();
    let rest = |start: usize, end: Option<usize>| -> Result<Value<'c, 'a>, String> {
        b.onnx().shape(adv.xt, end.map(|end| end as i64), Some(start as i64)).typed(i64s)
    };
    if let Some(p) = adv.block_at {
        // [pre(p), B, post]: pre and post are dims m..m+p and m+p.. of xt.
        parts.push(rest(m, Some(m + p))?);
        parts.push(adv.index_shape);
        if m + p < rank {
            parts.push(rest(m + p, None)?);
        }
    } else {
        parts.push(adv.index_shape);
        if m < rank {
            parts.push(rest(m, None)?);
        }
    }
    let region = b.onnx().concat(&parts, 0).typed(i64s)?;
    let mut values = b.onnx().expand(values, region).like(values)?;
    if let Some(p) = adv.block_at {
        // [pre(p), B(nb), post] -> [B, pre, post]
        let out_rank = nb + rank - m;
        let mut perm: Vec<i64> = (p as i64..(p + nb) as i64).collect();
        perm.extend(0..p as i64);
        perm.extend((p + nb) as i64..out_rank as i64);
        values = b.onnx().transpose(values, Some(&perm)).like(values)?;
    }
    let reduction = accumulate.then_some("add");
    let identity = adv.perm.iter().enumerate().all(|(i, &p)| i as i64 == p);
    if identity {
        return Ok(vec![b.onnx().scatter_nd(adv.xt, adv.stacked, values, reduction).typed(ctx.result_type(0)?)?]);
    }
    let mut inverse = vec![0i64; rank];
    for (i, &p) in adv.perm.iter().enumerate() {
        inverse[p as usize] = i as i64;
    }
    let scattered = b.onnx().scatter_nd(adv.xt, adv.stacked, values, reduction).like(x)?;
    Ok(vec![ctx.b.onnx().transpose(scattered, Some(&inverse)).typed(ctx.result_type(0)?)?])
}
