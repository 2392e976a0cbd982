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

/// The index tensors of `indices` as `(dim, int64 index)` pairs: a boolean
/// mask over dims `d..d+k` becomes the `k` rows of `NonZero(mask)` (torch's
/// own definition of mask indexing; the number of selected elements is data
/// dependent).
pub fn int_indices<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    indices: &[Option<Value<'c, 'a>>],
) -> Result<Vec<(usize, Value<'c, 'a>)>, String> {
    let b = &ctx.b;
    let i64_type = b.i64_type();
    let mut out = Vec::new();
    let mut dim = 0usize;
    for idx in indices {
        let Some(idx) = idx else {
            dim += 1;
            continue;
        };
        let element = builder::element_type(idx.r#type()).ok_or("index is not a tensor")?;
        if builder::is_bool(element) || element == melior::ir::r#type::IntegerType::unsigned(b.context, 8).into() {
            let k = ctx.rank(*idx)?;
            if k == 0 {
                return Err("a 0-d boolean index is not supported".into());
            }
            let mask = b.cast_like_type(*idx, melior::ir::r#type::IntegerType::new(b.context, 1).into())?;
            let nz = b.onnx().non_zero(mask).typed(b.unranked(i64_type))?;
            // Each row: a 1-D index of a data-dependent length.
            let dynamic = unsafe { mlir_sys::mlirShapedTypeGetDynamicSize() } as u64;
            let row_type = melior::ir::r#type::RankedTensorType::new(&[dynamic], i64_type, None).into();
            for row in 0..k {
                let r = b.const_i64_scalar(row as i64)?;
                out.push((dim + row, b.onnx().gather(nz, r, Some(0)).typed(row_type)?));
            }
            dim += k;
        } else {
            out.push((dim, b.cast_like_type(*idx, i64_type)?));
            dim += 1;
        }
    }
    Ok(out)
}

/// The pieces of an advanced-indexing lowering: `x` transposed so that the
/// indexed dims come first, the index tensors broadcast and stacked on a
/// last axis (for GatherND / ScatterND), the broadcast index rank, and where
/// torch puts the indexed block in the result (`Some(p)`: at dim p, when the
/// indexed dims are consecutive and start at p > 0; `None`: first).
pub struct Advanced<'c, 'a> {
    pub xt: Value<'c, 'a>,
    pub perm: Vec<i64>,
    pub stacked: Value<'c, 'a>,
    pub index_rank: usize,
    pub block_at: Option<usize>,
    pub dims: Vec<usize>,
    /// The broadcast shape of the index tensors (1-D int64).
    pub index_shape: Value<'c, 'a>,
}

pub fn advanced<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    given: &[(usize, Value<'c, 'a>)],
) -> Result<Advanced<'c, 'a>, String> {
    let b = &ctx.b;
    let rank = ctx.rank(x)?;
    let i64s = b.unranked(b.i64_type());
    let dims: Vec<usize> = given.iter().map(|(d, _)| *d).collect();
    if dims.iter().any(|&d| d >= rank) {
        return Err(format!("too many indices for a tensor of rank {rank}"));
    }
    let mut seen = dims.clone();
    seen.sort();
    seen.dedup();
    if seen.len() != dims.len() {
        return Err("the same dim indexed twice".into());
    }
    let consecutive = dims.windows(2).all(|w| w[1] == w[0] + 1);
    let mut perm: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
    perm.extend((0..rank as i64).filter(|d| !dims.contains(&(*d as usize))));
    let xt = if perm.iter().enumerate().all(|(i, &p)| i as i64 == p) {
        x
    } else {
        b.onnx().transpose(x, Some(&perm.clone())).like(x)?
    };
    let mut index_rank = 0;
    for (_, v) in given {
        index_rank = index_rank.max(ctx.rank(*v)?);
    }
    // The common broadcast shape of the indices: the shape of their sum.
    let mut sum = given[0].1;
    for (_, v) in &given[1..] {
        sum = b.onnx().add(sum, *v).typed(i64s)?;
    }
    let index_shape = b.shape(sum)?;
    let mut stacked = Vec::new();
    for (_, v) in given {
        let e = b.onnx().expand(*v, index_shape).typed(i64s)?;
        stacked.push(ctx.unsqueeze(e, &[-1])?);
    }
    let stacked = if stacked.len() == 1 {
        stacked[0]
    } else {
        b.onnx().concat(&stacked, -1).typed(i64s)?
    };
    let block_at = (consecutive && dims[0] > 0).then_some(dims[0]);
    Ok(Advanced { xt, perm, stacked, index_rank, block_at, dims, index_shape })
}

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
        builder::element_type(v.r#type()).is_some_and(|e| !builder::is_bool(e) && e != melior::ir::r#type::IntegerType::unsigned(b.context, 8).into())
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
