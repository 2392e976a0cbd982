use super::tensor_common::{concat, full, shape_part};
use crate::{builder, Ctx, Rule};
use melior::ir::{Type, Value, ValueLike};

/// `torch._chunk_cat(tensors, dim, num_chunks)`: each tensor is zero-padded
/// along `dim` to a multiple of `num_chunks`, viewed as
/// `[shape[:dim], num_chunks, -1]`, and the views are concatenated on
/// `dim + 1`. A dynamic length is padded and split with sizes read from the
/// shape.
pub const RULES: &[Rule] = &[Rule::custom("aten._chunk_cat.default", |c| {
    let b = &c.b;
    let tensors = c.args.tensors("tensors")?;
    let n = c.args.int("num_chunks")?;
    if n < 1 {
        return Err(format!("_chunk_cat expects a positive num_chunks, got {n}"));
    }
    let first = *tensors.first().ok_or("_chunk_cat of no tensors")?;
    let ranks: Vec<usize> = tensors.iter().map(|t| c.rank(*t)).collect::<Result<_, _>>()?;
    let dim = c.args.int("dim")?;
    let d = if ranks.iter().all(|&r| r == ranks[0]) {
        c.dim(dim, c.rank(first)?)?
    } else if dim >= 0 && ranks.iter().all(|&r| (dim as usize) < r) {
        dim as usize
    } else {
        return Err("_chunk_cat expects a non-negative dim below every rank when the ranks differ".into());
    };
    let element = c.result_element(0)?;
    let mut views = Vec::new();
    for (t, rank) in tensors.iter().zip(&ranks) {
        if *rank == 0 {
            return Err("_chunk_cat expects tensors of rank >= 1".into());
        }
        let Some(len) = builder::dims(t.r#type()).ok_or("unknown rank")?[d] else {
            views.push(dynamic_chunks(c, b.cast_like_type(*t, element)?, d, *rank, n, element)?);
            continue;
        };
        let t = b.cast_like_type(*t, element)?;
        let padded_len = (len + n - 1) / n * n;
        let t = if padded_len != len {
            let mut parts = Vec::new();
            if d > 0 {
                parts.push(shape_part(c, t, 0, Some(d as i64))?);
            }
            parts.push(b.const_i64s(&[padded_len - len])?);
            if d + 1 < *rank {
                parts.push(shape_part(c, t, d as i64 + 1, None)?);
            }
            let zeros = full(c, concat(c, &parts)?, element, 0.0)?;
            b.onnx().concat(&[t, zeros], d as i64).like(t)?
        } else {
            t
        };
        let mut parts = Vec::new();
        if d > 0 {
            parts.push(shape_part(c, t, 0, Some(d as i64))?);
        }
        parts.push(b.const_i64s(&[n, -1])?);
        views.push(b.onnx().reshape(t, concat(c, &parts)?, None).like(t)?);
    }
    Ok(vec![c.b.onnx().concat(&views, d as i64 + 1).typed(c.result_type(0)?)?])
})
.samples(&[
    "tensors: (T[2,5], T[2,3,2]); dim: 1; num_chunks: 2",
    "tensors: (T[6], T[4]); dim: 0; num_chunks: 3",
    "tensors: (T[3,4], T[3,7]); dim: -1; num_chunks: 4",
    "tensors: (T[5,2], T[1,3]); dim: 0; num_chunks: 2",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];

/// One tensor's `[shape[:d], n, -1]` view, its length L along `d` dynamic:
/// `(n - L mod n) mod n` zeros appended, then the view's sizes spelled out
/// (`allowzero`: any of them may be 0).
fn dynamic_chunks<'c, 'a>(
    c: &Ctx<'c, 'a>,
    t: Value<'c, 'a>,
    d: usize,
    rank: usize,
    n: i64,
    element: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let ints = b.unranked(b.i64_type());
    let nv = b.const_i64s(&[n])?;
    let len = shape_part(c, t, d as i64, Some(d as i64 + 1))?;
    let short = b.onnx().mod_(b.onnx().sub(nv, b.onnx().mod_(len, nv, None).typed(ints)?).typed(ints)?, nv, None).typed(ints)?;
    let lead = (d > 0).then(|| shape_part(c, t, 0, Some(d as i64))).transpose()?;
    let trail = (d + 1 < rank).then(|| shape_part(c, t, d as i64 + 1, None)).transpose()?;
    let mut parts: Vec<Value> = lead.into_iter().collect();
    parts.push(short);
    parts.extend(trail);
    let zeros = full(c, concat(c, &parts)?, element, 0.0)?;
    let padded = b.onnx().concat(&[t, zeros], d as i64).like(t)?;
    let per_chunk = b.onnx().div(b.onnx().add(len, short).typed(ints)?, nv).typed(ints)?;
    let rest = match trail {
        Some(trail) => {
            let count = c.reduce(crate::Reduction::Prod, trail, None, true, ints)?;
            b.onnx().mul(per_chunk, count).typed(ints)?
        }
        None => per_chunk,
    };
    let mut view: Vec<Value> = lead.into_iter().collect();
    view.push(nv);
    view.push(rest);
    b.onnx().reshape(padded, concat(c, &view)?, Some(1)).like(t)
}
