use super::math_common::{bool_type, elem};
use super::tensor_common::sort;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.nanmedian.default", nanmedian_all)
        .samples(&["self: T[3,5]", "self: T[6]", "self: T[]", "self: T[2,2]", "self: f32[0]", "self: i64[9]{0..3}"])
        .dtypes(&["f32", "i64", "i32", "f64"]),
    Rule::custom("aten.nanmedian.dim", nanmedian_dim)
        .samples(&[
            "self: T[3,5]; dim: 1",
            "self: T[4,5]; dim: 0; keepdim: true",
            "self: T[6]; dim: 0",
            "self: T[2,3,4]; dim: -1",
            "self: T[]; dim: 0",
            "self: T[]; dim: -1; keepdim: true",
            "self: i64[3,8]{0..3}; dim: 1",
            "self: T[0,3]; dim: 1",
        ])
        .dtypes(&["f32", "i64", "i32", "f64"]),
];

/// Position of the lower median among the `count` non-NaN elements of a
/// row: `(count - 1) / 2` with C's truncation (0 when the row is all NaN,
/// which then picks the first NaN, like torch).
fn median_position<'c, 'a>(ctx: &Ctx<'c, 'a>, count: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let i64s = b.unranked(b.i64_type());
    let one = b.const_i64_scalar(1)?;
    let zero = b.const_i64_scalar(0)?;
    let two = b.const_i64_scalar(2)?;
    let m = b.onnx().sub(count, one).typed(i64s)?;
    let m = b.onnx().max(&[m, zero]).typed(i64s)?;
    b.onnx().div(m, two).typed(i64s)
}

/// Number of non-NaN elements along `axis` (kept), int64.
fn non_nan_count<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, axis: i64) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let i64s = b.unranked(b.i64_type());
    let ok = if builder::is_float(elem(x)?) {
        let nan = b.onnx().is_na_n(x).typed(b.unranked(bool_type(ctx)))?;
        b.onnx().not(nan).typed(b.unranked(bool_type(ctx)))?
    } else {
        let shape = b.shape(x)?;
        let t = b.const_scalar(bool_type(ctx), 1.0)?;
        b.onnx().expand(t, shape).typed(b.unranked(bool_type(ctx)))?
    };
    let ok = b.cast(ok, b.i64_type())?;
    ctx.reduce(crate::Reduction::Sum, ok, Some(&[axis]), true, i64s)
}

/// The lower median of the non-NaN elements (NaN when there are none, and
/// for an empty tensor, like torch).
fn nanmedian_all<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let n: i64 = super::tensor_common::static_dims(ctx, x, "nanmedian")?.iter().product();
    let element = elem(x)?;
    if n == 0 {
        if !builder::is_float(element) {
            return Err("nanmedian of an empty integer tensor has no value".into());
        }
        let nan = b.const_scalar(element, f64::NAN)?;
        return Ok(vec![ctx.b.onnx().identity(nan).typed(ctx.result_type(0)?)?]);
    }
    let flat = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
    let (values, _) = sort(ctx, flat, 0, false)?;
    let count = non_nan_count(ctx, flat, 0)?;
    let pos = median_position(ctx, count)?;
    let picked = b.onnx().gather(values, pos, Some(0)).like(x)?;
    Ok(vec![ctx.b.onnx().reshape(picked, b.const_i64s(&[])?, None).typed(ctx.result_type(0)?)?])
}

/// Lower median of the non-NaN elements along `dim` and its index in
/// `self` (ties: the first in index order, torch's comparator); an all-NaN
/// row gives NaN and the index of its first NaN.
fn nanmedian_dim<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let keepdim = ctx.args.bool("keepdim")?;
    if rank == 0 {
        return Ok(vec![ctx.b.onnx().identity(x).typed(ctx.result_type(0)?)?, b.onnx().identity(b.const_i64_scalar(0)?).typed(ctx.result_type(1)?)?]);
    }
    if builder::dims(x.r#type()).is_some_and(|d| d[dim] == Some(0)) {
        return Err("nanmedian along an empty dim is undefined (torch refuses it)".into());
    }
    let (values, indices) = sort(ctx, x, dim, false)?;
    let count = non_nan_count(ctx, x, dim as i64)?;
    let pos = median_position(ctx, count)?;
    let axis = Some(dim as i64);
    let mut v = b.onnx().gather_elements(values, pos, axis).like(x)?;
    let mut i = b.onnx().gather_elements(indices, pos, axis).typed(b.unranked(b.i64_type()))?;
    if builder::is_float(elem(x)?) {
        // An all-NaN row: torch's nth_element sees only equivalent elements;
        // the index it leaves first depends on the row size only.
        let n = builder::dims(x.r#type())
            .and_then(|d| d[dim])
            .ok_or("nanmedian along a dynamic dim of a float tensor is not supported (the index of an all-NaN row depends on the size)")?;
        let none = b.onnx().equal(count, b.const_i64_scalar(0)?).typed(b.unranked(bool_type(ctx)))?;
        let at = b.const_i64_scalar(all_nan_index(n as usize) as i64)?;
        i = b.onnx().where_(none, at, i).typed(b.unranked(b.i64_type()))?;
    }
    if !keepdim {
        v = ctx.squeeze(v, &[dim as i64])?;
        i = ctx.squeeze(i, &[dim as i64])?;
    }
    Ok(vec![ctx.b.onnx().identity(v).typed(ctx.result_type(0)?)?, b.onnx().identity(i).typed(ctx.result_type(1)?)?])
}

/// The element libstdc++'s `std::nth_element(first, first, last, comp)`
/// leaves first when every element is equivalent (`comp` always false), as
/// an index into the original order: torch's nanmedian of an all-NaN row
/// (k = 0) returns it. Introselect: median-of-three pivot moved to the front
/// (the middle element, as nothing compares less), an unguarded partition
/// that swaps every pair from both ends, then insertion sort (no moves) on
/// the last range of at most 3.
fn all_nan_index(n: usize) -> usize {
    let mut idx: Vec<usize> = (0..n).collect();
    let (mut first, mut last) = (0usize, n);
    let nth = 0usize;
    while last - first > 3 {
        let mid = first + (last - first) / 2;
        idx.swap(first, mid);
        // __unguarded_partition(first + 1, last, pivot = first)
        let (mut lo, mut hi) = (first + 1, last);
        let cut = loop {
            hi -= 1;
            if lo >= hi {
                break lo;
            }
            idx.swap(lo, hi);
            lo += 1;
        };
        if cut <= nth {
            first = cut;
        } else {
            last = cut;
        }
    }
    idx[nth]
}
