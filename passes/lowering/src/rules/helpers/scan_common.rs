//! Inclusive scans along one dim (cumprod, cummax / cummin, logcumsumexp)
//! by Hillis-Steele: `ceil(log2 n)` steps, step `s` (1, 2, 4, ...) combining
//! every element with the one `s` places earlier (the first `s` elements with
//! the scan's identity). With a static length `n` the steps are unrolled;
//! along a dynamic dim they are one ONNX `Loop` that doubles `s` while
//! `s < n`, so the graph stays O(1) in size whatever the run-time length.

use crate::{
    builder::{self, Builder},
    Ctx,
};
use melior::ir::{r#type::IntegerType, Type, Value, ValueLike};

/// Scans `states` (tensors of one shape, rank >= 1) along `axis`, of static
/// length `n` or, when `None`, the run-time length. Each state comes with the
/// fill value (0-d, its element type) shifted in front: the identity of
/// `combine`, which gets `(earlier, later)` (the shifted states and the
/// current ones, same order) and returns the new states.
pub(super) fn inclusive_scan<'c, 'a>(
    c: &Ctx<'c, 'a>,
    states: &[(Value<'c, 'a>, Value<'c, 'a>)],
    axis: i64,
    n: Option<i64>,
    combine: impl Fn(&Builder<'c, 'a>, &[Value<'c, 'a>], &[Value<'c, 'a>]) -> Result<Vec<Value<'c, 'a>>, String>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let first = states.first().ok_or("a scan of no tensors")?.0;
    if n.is_some_and(|n| n <= 1) {
        // Nothing to combine (a 0-d tensor lifted to one element, or empty).
        return Ok(states.iter().map(|s| s.0).collect());
    }
    let rank = builder_rank(first)?;
    if let Some(n) = n {
        let b = &c.b;
        let mut ys: Vec<Value<'c, 'a>> = states.iter().map(|s| s.0).collect();
        let mut s = 1i64;
        while s < n {
            let mut earlier = Vec::with_capacity(ys.len());
            for (y, (_, fill)) in ys.iter().zip(states) {
                let ends = b.const_i64s(&[n - s])?;
                let mut pads = vec![0i64; 2 * rank];
                pads[axis as usize] = s;
                let pads = b.const_i64s(&pads)?;
                earlier.push(shifted(b, *y, axis, ends, pads, *fill)?);
            }
            ys = combine(b, &earlier, &ys)?;
            s *= 2;
        }
        return Ok(ys);
    }
    // The run-time length as a 0-d int64, read before the loop.
    let b = &c.b;
    let i64_t = b.i64_type();
    let scalar_i64: Type = melior::ir::r#type::RankedTensorType::new(&[], i64_t, None).into();
    let len = b.onnx().gather(b.shape(first)?, b.const_i64_scalar(axis)?, Some(0)).typed(scalar_i64)?;
    let mut types: Vec<Type<'c>> = states
        .iter()
        .map(|(v, _)| builder::element_type(v.r#type()).ok_or_else(|| "scan of a non-tensor".to_string()))
        .collect::<Result<_, _>>()?;
    types.push(i64_t);
    let mut init: Vec<Value<'c, 'a>> = states.iter().map(|s| s.0).collect();
    init.push(b.const_i64_scalar(1)?);
    // s doubles every iteration: 64 trips cover any int64 length.
    let trips = b.const_i64_scalar(64)?;
    let k = states.len();
    let mut out = super::polynomial_common::build_loop_while(c, &types, trips, &init, |b, _iter, _cond, carried| {
        let (ys, s) = (&carried[..k], carried[k]);
        let i64_1d = b.unranked(b.i64_type());
        // The first iteration runs even when n <= 1: shift by min(s, n) and
        // keep n - min(s, n) so that every step keeps the length n.
        let step = b.onnx().min(&[s, len]).typed(i64_1d)?;
        let kept = b.onnx().sub(len, step).typed(i64_1d)?;
        let ends = b.onnx().unsqueeze(kept, b.const_i64s(&[0])?).typed(i64_1d)?;
        let mut parts = Vec::new();
        if axis > 0 {
            parts.push(b.const_i64s(&vec![0; axis as usize])?);
        }
        parts.push(b.onnx().unsqueeze(step, b.const_i64s(&[0])?).typed(i64_1d)?);
        parts.push(b.const_i64s(&vec![0; 2 * rank - axis as usize - 1])?);
        let pads = b.onnx().concat(&parts, 0).typed(i64_1d)?;
        let earlier: Vec<Value<'c, 'a>> = ys
            .iter()
            .zip(states)
            .map(|(y, (_, fill))| shifted(b, *y, axis, ends, pads, *fill))
            .collect::<Result<_, _>>()?;
        let mut next = combine(b, &earlier, ys)?;
        let doubled = b.onnx().add(s, s).typed(i64_1d)?;
        let bool_t: Type = IntegerType::new(b.context, 1).into();
        let more = b.onnx().less(doubled, len).typed(b.unranked(bool_t))?;
        next.push(doubled);
        Ok((more, next))
    })?;
    out.truncate(k);
    Ok(out)
}

/// `y` shifted along `axis`: `y[..ends]` with `pads` (the shift in front
/// along `axis`) of `fill`.
fn shifted<'c, 'a>(
    b: &Builder<'c, 'a>,
    y: Value<'c, 'a>,
    axis: i64,
    ends: Value<'c, 'a>,
    pads: Value<'c, 'a>,
    fill: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let head = b.onnx().slice(y, b.const_i64s(&[0])?, ends, Some(b.const_i64s(&[axis])?), None).like(y)?;
    b.onnx().pad(head, pads, Some(fill), None, Some("constant")).like(y)
}

fn builder_rank(v: Value<'_, '_>) -> Result<usize, String> {
    match builder::rank(v.r#type()) {
        Some(0) | None => Err("a scan needs a tensor of known rank >= 1".into()),
        Some(r) => Ok(r),
    }
}

/// The length of `x` along `dim` for [`inclusive_scan`]: the static size,
/// 1 for a 0-d tensor (scanned as one element), `None` when dynamic.
pub(super) fn scan_len(c: &Ctx<'_, '_>, x: Value<'_, '_>, dim: i64) -> Result<Option<i64>, String> {
    let rank = c.rank(x)?;
    if rank == 0 {
        c.dim(dim, 0)?;
        return Ok(Some(1));
    }
    let axis = c.dim(dim, rank)?;
    Ok(builder::dims(x.r#type()).and_then(|d| d[axis]))
}
