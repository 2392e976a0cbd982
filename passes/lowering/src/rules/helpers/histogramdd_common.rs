//! The multi-dimensional histogram shared by histogramdd and its _histogramdd_* parts. Not a rule file.

use super::histogram_common::linspace;
use super::math_common::{bool_type, elem};
use crate::{builder, Ctx};
use melior::ir::{Type, Value, ValueLike};

/// `torch.histogramdd` with bin counts (an int for every dim, or one int
/// repeated): the edges of [`count_edges`], the histogram of
/// [`histogram_of`]; results `(hist, *bin_edges)`.
pub(super) fn histogramdd_counts<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let p = points(ctx)?;
    let counts = bin_counts(ctx, p.d)?;
    let edges = count_edges(ctx, &p, &counts)?;
    let hist = histogram_of(ctx, &p, &edges)?;
    with_edges(ctx, hist, &edges)
}

/// `torch.histogramdd` with bin edges (a 1-D tensor for every dim; `range`
/// is ignored, as in torch): the edges are returned as given.
pub(super) fn histogramdd_tensors<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let p = points(ctx)?;
    let edges = tensor_edges(ctx, &p)?;
    let hist = histogram_of(ctx, &p, &edges)?;
    with_edges(ctx, hist, &edges)
}

/// Results `(hist, *edges)`, each typed as torch inferred.
pub(super) fn with_edges<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    hist: Value<'c, 'a>,
    edges: &[Value<'c, 'a>],
) -> Result<Vec<Value<'c, 'a>>, String> {
    let results = melior::ir::operation::OperationLike::result_count(&ctx.args.op);
    if results != 1 + edges.len() {
        return Err(format!(
            "histogramdd of a {}-dimensional histogram has {results} results, expected {} (hist and one edge tensor per dim)",
            edges.len(),
            1 + edges.len()
        ));
    }
    let mut out = vec![ctx.b.onnx().identity(hist).typed(ctx.result_type(0)?)?];
    for (i, e) in edges.iter().enumerate() {
        out.push(ctx.b.onnx().identity(*e).typed(ctx.result_type(1 + i)?)?);
    }
    Ok(out)
}

/// The input of a histogramdd op as points: `self` of shape `(..., D)` is
/// `M` points of `D` coordinates (`flat`, `(M, D)`; unset when `D` is 0).
pub(super) struct Points<'c, 'a> {
    pub flat: Option<Value<'c, 'a>>,
    pub d: usize,
    /// `M` when static.
    pub rows: Option<i64>,
    pub element: Type<'c>,
}

/// `self` as points, with torch's checks: a float32 or float64 tensor (the
/// CPU kernel takes no other dtype) of rank >= 2 whose innermost dim (the
/// number of dimensions of the histogram) is static.
pub(super) fn points<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Points<'c, 'a>, String> {
    let x = ctx.args.tensor("self")?;
    let element = elem(x)?;
    if !matches!(crate::onnx_ir::data_type_code(element), Some(1) | Some(11)) {
        return Err(format!("histogramdd of element type {element}: torch's kernel takes float32 and float64 only"));
    }
    let dims = builder::dims(x.r#type()).ok_or("'self' is not a ranked tensor")?;
    if dims.len() < 2 {
        return Err("torch.histogramdd: input tensor should have at least 2 dimensions".into());
    }
    let d = dims[dims.len() - 1]
        .ok_or("histogramdd needs a static innermost dim (the number of dimensions of the histogram)")?;
    let rows = dims[..dims.len() - 1].iter().copied().product::<Option<i64>>();
    let flat = match d {
        0 => None,
        _ => Some(ctx.b.onnx().reshape(x, ctx.b.const_i64s(&[-1, d])?, None).typed(ctx.b.unranked(element))?),
    };
    Ok(Points { flat, d: d as usize, rows, element })
}

/// The bin count of every dim: `bins` (int[]) or the int `bins` repeated.
pub(super) fn bin_counts(ctx: &Ctx<'_, '_>, d: usize) -> Result<Vec<i64>, String> {
    let counts = if ctx.args.schema.arg("bins").is_some_and(|a| a.ty == "int") {
        vec![ctx.args.int("bins")?; d]
    } else {
        ctx.args.ints("bins")?
    };
    if counts.len() != d {
        return Err(format!(
            "histogramdd: the size of bins ({}) must be equal to the innermost dimension of the input ({d})",
            counts.len()
        ));
    }
    if let Some((i, n)) = counts.iter().enumerate().find(|(_, n)| **n <= 0) {
        return Err(format!("torch.histogramdd: bins must be > 0, but got {n} for dimension {i}"));
    }
    Ok(counts)
}

/// torch's equal-width edges (`histogramdd_bin_edges`): for each dim,
/// `counts[i] + 1` points of torch's linspace from the outer edges: `range`
/// (pairs per dim), else the min and max of that coordinate over the points
/// (0 and 1 when there are none); equal outer edges are widened by 0.5 each
/// side. The outer edges are checked like torch's when static (finite,
/// min <= max); data-dependent ones torch refuses at run time (NaN or
/// infinite coordinates) are not checked.
pub(super) fn count_edges<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    p: &Points<'c, 'a>,
    counts: &[i64],
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let d = p.d;
    let element = p.element;
    let fts = b.unranked(element);
    let bools = b.unranked(bool_type(ctx));
    let c = |v: f64| b.const_scalar(element, v);
    let mut bounds = Vec::with_capacity(d);
    if !ctx.args.is_none("range")? {
        let range = ctx.args.floats("range")?;
        if range.len() != 2 * d {
            return Err(format!(
                "torch.histogramdd: for a {d}-dimensional histogram range should have {} elements, but got {}",
                2 * d,
                range.len()
            ));
        }
        for i in 0..d {
            let (mut l, mut r) = (range[2 * i], range[2 * i + 1]);
            if !(l.is_finite() && r.is_finite()) {
                return Err(format!("torch.histogramdd: dimension {i}'s range [{l}, {r}] is not finite"));
            }
            if l > r {
                return Err(format!(
                    "torch.histogramdd: min should not exceed max, but got min {l} max {r} for dimension {i}"
                ));
            }
            if l == r {
                l -= 0.5;
                r += 0.5;
            }
            bounds.push((c(l)?, c(r)?));
        }
    } else if p.rows == Some(0) || d == 0 {
        for _ in 0..d {
            bounds.push((c(0.0)?, c(1.0)?));
        }
    } else {
        let flat = p.flat.ok_or("internal: no points")?;
        // With a dynamic point count, the first point (zeros when there is
        // none) is appended: the extrema are unchanged, and a reduction over
        // no points (whose value onnxruntime does not define) never runs.
        let (source, empty) = match p.rows {
            Some(_) => (flat, None),
            None => {
                let zeros = b.onnx().expand(c(0.0)?, b.const_i64s(&[1, d as i64])?).typed(fts)?;
                let padded = b.onnx().concat(&[flat, zeros], 0).typed(fts)?;
                let first =
                    b.onnx().slice(padded, b.const_i64s(&[0])?, b.const_i64s(&[1])?, Some(b.const_i64s(&[0])?), None).typed(fts)?;
                let source = b.onnx().concat(&[flat, first], 0).typed(fts)?;
                let rows = b.onnx().gather(b.shape(flat)?, b.const_i64_scalar(0)?, Some(0)).typed(b.unranked(b.i64_type()))?;
                let empty = b.onnx().equal(rows, b.const_i64_scalar(0)?).typed(bools)?;
                (source, Some(empty))
            }
        };
        let mins = ctx.reduce(crate::Reduction::Min, source, Some(&[0]), false, fts)?;
        let maxs = ctx.reduce(crate::Reduction::Max, source, Some(&[0]), false, fts)?;
        for i in 0..d {
            let at =
                |v: Value<'c, 'a>| b.onnx().gather(v, b.const_i64_scalar(i as i64)?, Some(0)).typed(fts);
            let (l, r) = (at(mins)?, at(maxs)?);
            let same = b.onnx().equal(l, r).typed(bools)?;
            let mut l = b.onnx().where_(same, b.onnx().sub(l, c(0.5)?).typed(fts)?, l).typed(fts)?;
            let mut r = b.onnx().where_(same, b.onnx().add(r, c(0.5)?).typed(fts)?, r).typed(fts)?;
            if let Some(empty) = empty {
                l = b.onnx().where_(empty, c(0.0)?, l).typed(fts)?;
                r = b.onnx().where_(empty, c(1.0)?, r).typed(fts)?;
            }
            bounds.push((l, r));
        }
    }
    bounds.into_iter().zip(counts).map(|((l, r), &n)| linspace(ctx, l, r, n + 1, element)).collect()
}

/// The `bins` tensors as edges, with torch's checks: one 1-D tensor of the
/// input's dtype per dim, with at least 2 edges (1 bin).
pub(super) fn tensor_edges<'c, 'a>(ctx: &Ctx<'c, 'a>, p: &Points<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let edges = ctx.args.tensors("bins")?;
    if edges.len() != p.d {
        return Err(format!(
            "torch.histogramdd: expected {} sequences of bin edges for a {}-dimensional histogram but got {}",
            p.d,
            p.d,
            edges.len()
        ));
    }
    for (i, e) in edges.iter().enumerate() {
        let dims = builder::dims(e.r#type()).ok_or("a bins tensor is not ranked")?;
        if dims.len() != 1 {
            return Err(format!(
                "torch.histogramdd: bins tensor should have one dimension, but got {} dimensions in the bins tensor for dimension {i}",
                dims.len()
            ));
        }
        if let Some(n) = dims[0].filter(|&n| n < 2) {
            return Err(format!("torch.histogramdd: bins must be > 0, but got {} for dimension {i}", n - 1));
        }
        if elem(*e)? != p.element {
            return Err(format!(
                "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got {} and {} for dimension {i}",
                p.element,
                elem(*e)?
            ));
        }
    }
    Ok(edges)
}

/// torch's CPU histogramdd kernel over `edges` (one 1-D tensor per dim):
/// a point is counted (with its `weight`, else 1) in the bin of the last
/// edge <= each coordinate, the last bin of every dim closed on the right;
/// a point with a coordinate outside its outer edges (or NaN) is skipped.
/// `density` divides by the total, then by the bin widths of every dim.
///
/// The flat bin index of every point (`sum pos_i * stride_i`; skipped
/// points get the index one past the last bin) is scattered with
/// `ScatterElements(add)` into `prod(bins) + 1` zeros, the extra slot
/// dropped.
pub(super) fn histogram_of<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    p: &Points<'c, 'a>,
    edges: &[Value<'c, 'a>],
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let element = p.element;
    let fts = b.unranked(element);
    let i64s = b.unranked(b.i64_type());
    let bools = b.unranked(bool_type(ctx));
    let density = ctx.args.bool("density")?;
    let Some(flat) = p.flat else {
        // A 0-dimensional histogram: one bin no point reaches (torch returns
        // 0, and NaN = 0 / 0 for the density).
        let zero = b.const_scalar(element, 0.0)?;
        return if density { b.onnx().div(zero, zero).typed(fts) } else { Ok(zero) };
    };
    let weight = match ctx.args.opt_tensor("weight")? {
        Some(w) => {
            let wd = builder::dims(w.r#type()).ok_or("'weight' is not a ranked tensor")?;
            let xd = builder::rank(ctx.args.tensor("self")?.r#type()).unwrap_or(0);
            if wd.len() + 1 != xd {
                return Err(
                    "torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding its innermost dimension"
                        .into(),
                );
            }
            Some(b.onnx().reshape(b.cast_like_type(w, element)?, b.const_i64s(&[-1])?, None).typed(fts)?)
        }
        None => None,
    };
    let one = b.const_i64_scalar(1)?;
    let mut index: Option<Value> = None;
    let mut valid: Option<Value> = None;
    let mut stride = one;
    let mut nbins = Vec::with_capacity(edges.len());
    for (i, &e) in edges.iter().enumerate().rev() {
        let col = b.onnx().gather(flat, b.const_i64_scalar(i as i64)?, Some(1)).typed(fts)?;
        let nb = b.onnx().sub(b.onnx().shape(e, None, None).typed(i64s)?, b.const_i64s(&[1])?).typed(i64s)?;
        let nb0 = ctx.squeeze(nb, &[0])?;
        // position: (#edges <= x) - 1, the last bin closed.
        let le = b.onnx().less_or_equal(e, ctx.unsqueeze(col, &[-1])?).typed(bools)?;
        let count = ctx.reduce(crate::Reduction::Sum, b.cast(le, b.i64_type())?, Some(&[-1]), false, i64s)?;
        let pos = b.onnx().sub(count, one).typed(i64s)?;
        let top = b.onnx().equal(pos, nb0).typed(bools)?;
        let pos = b.onnx().where_(top, b.onnx().sub(nb0, one).typed(i64s)?, pos).typed(i64s)?;
        let lo = b.onnx().gather(e, b.const_i64_scalar(0)?, Some(0)).typed(fts)?;
        let hi = b.onnx().gather(e, b.const_i64_scalar(-1)?, Some(0)).typed(fts)?;
        let inside = b.onnx().and(b.onnx().greater_or_equal(col, lo).typed(bools)?, b.onnx().less_or_equal(col, hi).typed(bools)?).typed(bools)?;
        let ok =
            b.onnx().and(inside, b.onnx().greater_or_equal(pos, b.const_i64_scalar(0)?).typed(bools)?).typed(bools)?;
        let term = b.onnx().mul(pos, stride).typed(i64s)?;
        index = Some(match index {
            Some(acc) => b.onnx().add(acc, term).typed(i64s)?,
            None => term,
        });
        valid = Some(match valid {
            Some(acc) => b.onnx().and(acc, ok).typed(bools)?,
            None => ok,
        });
        stride = b.onnx().mul(stride, nb0).typed(i64s)?;
        nbins.push(nb);
    }
    nbins.reverse();
    let (index, valid) = (index.ok_or("internal: no dims")?, valid.ok_or("internal: no dims")?);
    let total = stride;
    let index = b.onnx().where_(valid, index, total).typed(i64s)?;
    let zero = b.const_scalar(element, 0.0)?;
    let w = match weight {
        Some(w) => w,
        None => b.const_scalar(element, 1.0)?,
    };
    let updates = b.onnx().where_(valid, w, zero).typed(fts)?;
    let slots = ctx.unsqueeze(b.onnx().add(total, one).typed(i64s)?, &[0])?;
    let zeros = b.onnx().expand(zero, slots).typed(fts)?;
    let sums = b.onnx().scatter_elements(zeros, index, updates, Some(0), Some("add")).typed(fts)?;
    let end = ctx.unsqueeze(total, &[0])?;
    let hist = b.onnx().slice(sums, b.const_i64s(&[0])?, end, Some(b.const_i64s(&[0])?), None).typed(fts)?;
    let shape = if nbins.len() == 1 { nbins[0] } else { b.onnx().concat(&nbins, 0).typed(i64s)? };
    let mut hist = b.onnx().reshape(hist, shape, None).typed(fts)?;
    if density {
        let sum = ctx.reduce(crate::Reduction::Sum, hist, None, false, fts)?;
        hist = b.onnx().div(hist, sum).typed(fts)?;
        let d = edges.len();
        for (i, &e) in edges.iter().enumerate() {
            let part = |start: i64, end: i64| {
                b.onnx().slice(e, b.const_i64s(&[start])?, b.const_i64s(&[end])?, Some(b.const_i64s(&[0])?), None).typed(fts)
            };
            let widths = b.onnx().sub(part(1, i64::MAX)?, part(0, -1)?).typed(fts)?;
            let mut along = vec![1i64; d];
            along[i] = -1;
            let widths = b.onnx().reshape(widths, b.const_i64s(&along)?, None).typed(fts)?;
            hist = b.onnx().div(hist, widths).typed(fts)?;
        }
    }
    Ok(hist)
}
