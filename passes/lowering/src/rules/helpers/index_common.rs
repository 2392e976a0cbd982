//! Advanced indexing (integer and boolean index tensors, nonzero) shared by index, index_put, _unsafe_masked_index*, nonzero and argwhere. Not a rule file.

use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

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
    let stacked = if stacked.len() == 1 { stacked[0] } else { b.onnx().concat(&stacked, -1).typed(i64s)? };
    let block_at = (consecutive && dims[0] > 0).then_some(dims[0]);
    Ok(Advanced { xt, perm, stacked, index_rank, block_at, dims, index_shape })
}

/// The index tensors (int64 or int32; `None` entries kept) cast to int64
/// and clamped to `[-size, size - 1]` of the dim they index.
pub fn clamp_indices<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    indices: &[Option<Value<'c, 'a>>],
) -> Result<Vec<Option<Value<'c, 'a>>>, String> {
    let b = &ctx.b;
    let rank = ctx.rank(x)?;
    if indices.len() > rank {
        return Err(format!("too many indices ({}) for a tensor of rank {rank}", indices.len()));
    }
    let i64s = b.unranked(b.i64_type());
    let mut out = Vec::new();
    for (d, idx) in indices.iter().enumerate() {
        let Some(idx) = idx else {
            out.push(None);
            continue;
        };
        let element = builder::element_type(idx.r#type()).ok_or("index is not a tensor")?;
        if builder::is_float(element)
            || builder::is_bool(element)
            || element == melior::ir::r#type::IntegerType::unsigned(b.context, 8).into()
        {
            return Err("_unsafe_masked_index expects int64 or int32 index tensors".into());
        }
        // Typed with the index's rank (the indexing lowering needs it).
        let ranked = builder::with_element_type(idx.r#type(), b.i64_type()).ok_or("index is not a tensor")?;
        let idx = b.cast_like_type(*idx, b.i64_type())?;
        let size = b.onnx().shape(x, Some(d as i64 + 1), Some(d as i64)).typed(i64s)?;
        let size = ctx.squeeze(size, &[0])?;
        let low = b.onnx().neg(size).typed(i64s)?;
        let high = b.onnx().sub(size, b.const_i64_scalar(1)?).typed(i64s)?;
        let clamped = b.onnx().max(&[idx, low]).typed(ranked)?;
        out.push(Some(b.onnx().min(&[clamped, high]).typed(ranked)?));
    }
    Ok(out)
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
    let given = int_indices(ctx, indices)?;
    if given.is_empty() {
        return Err("index_put without index tensors is not supported".into());
    }
    let adv = advanced(ctx, x, &given)?;
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

/// `Transpose(NonZero(x))`: one row of indices per nonzero element, in
/// row-major order (`[n, rank]`). A 0-d input gives `[n, 0]`.
pub fn nonzero<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    if ctx.rank(x)? == 0 {
        // n = 1 if x != 0 else 0; the rows have no columns.
        let one = b.const_i64s(&[1])?;
        let flat = b.onnx().reshape(x, one, None).like(x)?;
        let nz = b.onnx().non_zero(truth(ctx, flat)?).typed(b.unranked(b.i64_type()))?;
        // nz: [1, n] -> [n, 0]
        let t = b.onnx().transpose(nz, Some(&[1, 0])).typed(b.unranked(b.i64_type()))?;
        let starts = b.const_i64s(&[0])?;
        let ends = b.const_i64s(&[0])?;
        let axes = b.const_i64s(&[1])?;
        return Ok(vec![ctx.b.onnx().slice(t, starts, ends, Some(axes), None).typed(ctx.result_type(0)?)?]);
    }
    let nz = b.onnx().non_zero(truth(ctx, x)?).typed(b.unranked(b.i64_type()))?;
    Ok(vec![ctx.b.onnx().transpose(nz, Some(&[1, 0])).typed(ctx.result_type(0)?)?])
}

/// `x != 0` as bool (onnxruntime's NonZero has no kernel for every type,
/// e.g. float64).
fn truth<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let element = crate::builder::element_type(melior::ir::ValueLike::r#type(&x)).ok_or("not a tensor")?;
    if crate::builder::is_bool(element) {
        return Ok(x);
    }
    let zero = b.const_scalar(element, 0.0)?;
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let eq = b.onnx().equal(x, zero).typed(b.unranked(bool_type))?;
    b.onnx().not(eq).typed(b.unranked(bool_type))
}
