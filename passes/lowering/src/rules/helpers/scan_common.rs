//! Inclusive scans along one dim (cumprod, cummax / cummin, logcumsumexp)
//! by Hillis-Steele: `ceil(log2 n)` steps, step `s` (1, 2, 4, ...) combining
//! every element with the one `s` places earlier (the first `s` elements with
//! the scan's identity). With a static length `n` the steps are unrolled;
//! along a dynamic dim they are one ONNX `Loop` that doubles `s` while
//! `s < n`, so the graph stays O(1) in size whatever the run-time length.

use super::math_common::{along_dim, elem, is_float_value};
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

/// cummax / cummin: the running extreme and the index of the last element
/// that set it (torch: `x >= best` replaces, so ties move the index; a NaN
/// replaces and sticks, its index the last NaN seen). An inclusive scan in
/// ceil(log2 n) steps (scan_common) combining (earlier, later) pairs: take later where it is
/// NaN, or where earlier is not NaN and later >= earlier (<= for cummin).
pub(super) fn cumext<'c, 'a>(c: &Ctx<'c, 'a>, max: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x_in = c.args.tensor("self")?;
    let dim = c.args.int("dim")?;
    let n = scan_len(c, x_in, dim)?;
    let i64_type = c.b.i64_type();
    let float = is_float_value(x_in);
    // Bools (no ONNX ordering) and narrower ints (whose fill would not be
    // the type's extreme) are scanned as int64 and cast back.
    let widened = !float && elem(x_in)? != i64_type;
    let x = if widened { c.b.cast(x_in, i64_type)? } else { x_in };
    let element = elem(x)?;
    let mut indices_out = None;
    let values = along_dim(c, x, dim, |x, axis| {
        let b = &c.b;
        // Positions along the axis, broadcast to x's shape.
        let shape = b.shape(x)?;
        let one = b.const_i64_scalar(1)?;
        let ones = b.onnx().expand(one, shape).typed(b.unranked(i64_type))?;
        let axis_t = b.const_i64_scalar(axis)?;
        let pos = b.onnx().cum_sum(ones, axis_t, None, None).like(ones)?;
        let identity = if float {
            if max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        } else if max {
            i64::MIN as f64
        } else {
            i64::MAX as f64
        };
        let fill = if float || element != i64_type {
            b.const_scalar(element, identity)?
        } else {
            b.const_i64_scalar(if max { i64::MIN } else { i64::MAX })?
        };
        let zero_i = b.const_i64_scalar(0)?;
        let idx = b.onnx().sub(pos, one).like(ones)?;
        let scanned = inclusive_scan(c, &[(x, fill), (idx, zero_i)], axis, n, |b, earlier, later| {
            let (a, ai, y, yi) = (earlier[0], earlier[1], later[0], later[1]);
            let bool_t = b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into());
            let cmp = if max { b.onnx().greater_or_equal(y, a) } else { b.onnx().less_or_equal(y, a) };
            let cmp = cmp.typed(bool_t)?;
            let take = if float {
                let a_ok = b.onnx().not(b.onnx().is_na_n(a).typed(bool_t)?).typed(bool_t)?;
                let ok = b.onnx().and(a_ok, cmp).typed(bool_t)?;
                b.onnx().or(b.onnx().is_na_n(y).typed(bool_t)?, ok).typed(bool_t)?
            } else {
                cmp
            };
            Ok(vec![b.onnx().where_(take, y, a).like(y)?, b.onnx().where_(take, yi, ai).like(yi)?])
        })?;
        let (y, idx) = (scanned[0], scanned[1]);
        indices_out = Some(idx);
        Ok(y)
    })?;
    let mut idx = indices_out.ok_or("no indices")?;
    if c.rank(x_in)? == 0 {
        idx = c.squeeze(idx, &[0])?;
    }
    let values = if widened {
        let to = crate::onnx_ir::data_type_code(c.result_element(0)?).ok_or("no ONNX data type for the result")?;
        c.b.onnx().cast(values, None, None, to).typed(c.result_type(0)?)?
    } else {
        c.b.onnx().identity(values).typed(c.result_type(0)?)?
    };
    Ok(vec![values, c.b.onnx().identity(idx).typed(c.result_type(1)?)?])
}
