//! Variance shared by var, std and var_mean. Not a rule file.

use super::math_common::lift0;
use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

/// `sum((x - mean)^2) / (N - correction)` over `dim` (all dims when None);
/// N is read at run time over dynamic dims. std = sqrt(var).
pub(super) fn variance<'c, 'a>(ctx: &Ctx<'c, 'a>, std: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let shape = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let rank = shape.len();
    let dims = reduced_dims(ctx, rank)?;
    // `.dim` says unbiased (a correction of 1 or 0), `.correction` the number.
    let correction = if ctx.args.schema.arg("unbiased").is_some() {
        if ctx.args.bool("unbiased")? {
            1.0
        } else {
            0.0
        }
    } else if ctx.args.is_none("correction")? {
        1.0
    } else {
        ctx.args.number("correction")?.as_f64()
    };
    let keepdim = ctx.args.bool("keepdim")?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    // A 0-d input (dims empty) reduces over nothing: `None` on a 0-d tensor.
    let axes = if dims.is_empty() { None } else { Some(&dims[..]) };
    let mean = ctx.reduce(crate::Reduction::Mean, x, axes, true, b.unranked(element))?;
    let d = b.onnx().sub(x, mean).like(x)?;
    let sq = b.onnx().mul(d, d).like(x)?;
    let sum = ctx.reduce(crate::Reduction::Sum, sq, axes, keepdim, b.unranked(element))?;
    let denom = degrees_of_freedom(ctx, x, &shape, &dims, correction)?;
    let var = b.onnx().div(sum, denom).like(x)?;
    if std {
        Ok(vec![ctx.b.onnx().sqrt(var).typed(ctx.result_type(0)?)?])
    } else {
        Ok(vec![ctx.b.onnx().identity(var).typed(ctx.result_type(0)?)?])
    }
}

/// `max(N - correction, 0)` in `x`'s element type, N the number of elements
/// of `x` (dims `shape`) over `dims`: a constant when those dims are static,
/// else read from `Shape(x)` (a time axis of dynamic length: audio feature
/// normalization, instance-norm-like layers written by hand). N - correction
/// <= 0 divides by 0 and gives NaN or inf, like torch.
pub(super) fn degrees_of_freedom<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    shape: &[Option<i64>],
    dims: &[i64],
    correction: f64,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    if let Some(n) = dims.iter().map(|&d| shape[d as usize]).product::<Option<i64>>() {
        return b.const_like(x, (n as f64 - correction).max(0.0));
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    // In float64 (exact for any element count), then the element type.
    let n = super::common::element_count_f64(ctx, x, dims)?;
    let f64_type = melior::ir::Type::float64(b.context);
    let dof = b.onnx().sub(n, b.const_scalar(f64_type, correction)?).like(n)?;
    let dof = b.onnx().max(&[dof, b.const_scalar(f64_type, 0.0)?]).like(n)?;
    b.cast(dof, element)
}

/// The dims a `var` / `std` (`_mean`) with a `dim` argument reduces, checked
/// and non-negative: all dims when `dim` is None or `[]` (like torch). A 0-d
/// input accepts `0` / `-1` and gives no dims (there is nothing to reduce).
pub(super) fn reduced_dims(ctx: &Ctx<'_, '_>, rank: usize) -> Result<Vec<i64>, String> {
    let given = if ctx.args.is_none("dim")? { Vec::new() } else { ctx.args.ints("dim")? };
    let mut dims = Vec::new();
    for d in given {
        let d = ctx.dim(d, rank)? as i64;
        if rank > 0 && !dims.contains(&d) {
            dims.push(d);
        }
    }
    if dims.is_empty() && rank > 0 {
        dims = (0..rank as i64).collect();
    }
    Ok(dims)
}

/// `var.default` / `std.default` (`self`, `unbiased`): over every element
/// (N static), a 0-d result. N - unbiased <= 0 divides by 0 and gives NaN,
/// like torch (also for an empty tensor).
pub(super) fn variance_all<'c, 'a>(c: &Ctx<'c, 'a>, std: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let shape = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let all: Vec<i64> = (0..shape.len() as i64).collect();
    let correction = if c.args.bool("unbiased")? { 1.0 } else { 0.0 };
    let (x, _) = super::math_common::lift0(c, x)?;
    let b = &c.b;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let mean = c.reduce(crate::Reduction::Mean, x, None, true, b.unranked(element))?;
    let d = b.onnx().sub(x, mean).like(x)?;
    let sq = b.onnx().mul(d, d).like(x)?;
    let sum = c.reduce(crate::Reduction::Sum, sq, None, false, b.unranked(element))?;
    let denom = degrees_of_freedom(c, x, &shape, &all, correction)?;
    let var = b.onnx().div(sum, denom).like(x)?;
    let y = if std { b.onnx().sqrt(var) } else { b.onnx().identity(var) };
    Ok(vec![y.typed(c.result_type(0)?)?])
}

/// (var or std, mean) over the same dims (all when None).
pub(super) fn with_mean<'c, 'a>(c: &Ctx<'c, 'a>, std: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let v = variance(c, std)?.remove(0);
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dims = super::var_common::reduced_dims(c, rank)?;
    let axes = if dims.is_empty() { None } else { Some(&dims[..]) };
    let keepdim = c.args.bool("keepdim")?;
    let mean = if super::reduce_common::reduced_count(x, axes) == Some(0) {
        super::reduce_common::mean_of_empty(c, x, axes, keepdim, c.result_type(1)?)?
    } else {
        c.reduce(crate::Reduction::Mean, x, axes, keepdim, c.result_type(1)?)?
    };
    Ok(vec![v, mean])
}

/// `var_mean.default` / `std_mean.default` (`self`, `unbiased`): over every
/// element, both results 0-d.
pub(super) fn all_with_mean<'c, 'a>(c: &Ctx<'c, 'a>, std: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let shape = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let all: Vec<i64> = (0..shape.len() as i64).collect();
    let empty = super::reduce_common::reduced_count(x, None) == Some(0);
    let correction = if c.args.bool("unbiased")? { 1.0 } else { 0.0 };
    let (x, _) = lift0(c, x)?;
    let b = &c.b;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let mean_k = c.reduce(crate::Reduction::Mean, x, None, true, b.unranked(element))?;
    let d = b.onnx().sub(x, mean_k).like(x)?;
    let sq = b.onnx().mul(d, d).like(x)?;
    let sum = c.reduce(crate::Reduction::Sum, sq, None, false, b.unranked(element))?;
    let denom = super::var_common::degrees_of_freedom(c, x, &shape, &all, correction)?;
    let var = b.onnx().div(sum, denom).like(x)?;
    let v = if std {
        b.onnx().sqrt(var).typed(c.result_type(0)?)?
    } else {
        b.onnx().identity(var).typed(c.result_type(0)?)?
    };
    let mean = if empty {
        super::reduce_common::mean_of_empty(c, x, None, false, c.result_type(1)?)?
    } else {
        c.reduce(crate::Reduction::Mean, x, None, false, c.result_type(1)?)?
    };
    Ok(vec![v, mean])
}
