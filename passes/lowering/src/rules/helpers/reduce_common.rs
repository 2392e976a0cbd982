//! Reductions shared by mean, sum, amax, amin and var_mean: over dims or all, NaN-aware, 0-d lifted, empty inputs. Not a rule file.

use super::math_common::{arg_nan, is_float_value, isinf, isnan, lift0, reduce_nan, unranked_bool};
use crate::Ctx;
use melior::ir::Value;

/// A reduction over `dim` (all dims when None or empty), in the result
/// dtype. ReduceMax / ReduceMin propagate NaN like torch; a 0-d input is
/// reduced as a 1-element vector (ONNX refuses axis 0 on rank 0).
pub fn reduce_dims<'c, 'a>(ctx: &Ctx<'c, 'a>, op: crate::Reduction) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let dims = if ctx.args.is_none("dim")? { Vec::new() } else { ctx.args.ints("dim")? };
    let keepdim = ctx.args.bool("keepdim")?;
    let rank = ctx.rank(x)?;
    let mut axes = Vec::new();
    for d in dims {
        axes.push(ctx.dim(d, rank)? as i64);
    }
    let axes = (!axes.is_empty()).then_some(axes.as_slice());
    reduce(ctx, op, x, axes, keepdim)
}

/// A reduction over all dims to a 0-d tensor.
pub fn reduce_all<'c, 'a>(ctx: &Ctx<'c, 'a>, op: crate::Reduction) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    reduce(ctx, op, x, None, false)
}

fn reduce<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    op: crate::Reduction,
    x: Value<'c, 'a>,
    axes: Option<&[i64]>,
    keepdim: bool,
) -> Result<Vec<Value<'c, 'a>>, String> {
    if op == crate::Reduction::Max || op == crate::Reduction::Min {
        return Ok(vec![reduce_nan(ctx, op, x, axes, keepdim, ctx.result_type(0)?)?]);
    }
    let (x, lifted) = lift0(ctx, x)?;
    let (axes, keepdim) = if lifted { (None, false) } else { (axes, keepdim) };
    if op == crate::Reduction::Mean && reduced_count(x, axes) == Some(0) {
        // onnxruntime's mean of nothing is 0; torch's is 0 / 0 = NaN.
        return Ok(vec![mean_of_empty(ctx, x, axes, keepdim, ctx.result_type(0)?)?]);
    }
    Ok(vec![ctx.reduce(op, x, axes, keepdim, ctx.result_type(0)?)?])
}

/// The number of elements each reduced slice has, when static: 0 as soon
/// as one reduced dim is statically 0, whatever the others.
pub(super) fn reduced_count(x: Value<'_, '_>, axes: Option<&[i64]>) -> Option<i64> {
    let dims = crate::builder::dims(melior::ir::ValueLike::r#type(&x))?;
    let rank = dims.len() as i64;
    let picked: Vec<usize> = match axes {
        None => (0..dims.len()).collect(),
        Some(a) => a.iter().map(|&d| (if d < 0 { d + rank } else { d }) as usize).collect(),
    };
    let sizes: Vec<Option<i64>> = picked.into_iter().map(|i| dims.get(i).copied().flatten()).collect();
    if sizes.contains(&Some(0)) {
        return Some(0);
    }
    sizes.into_iter().product()
}

/// The mean over an empty reduction: `ReduceSum / 0` (NaN, like torch; a
/// reduction over a dim that is dynamic and 0 at run time gives
/// onnxruntime's 0 instead).
pub(super) fn mean_of_empty<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    axes: Option<&[i64]>,
    keepdim: bool,
    result: melior::ir::Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let element = super::math_common::elem(x)?;
    let sum = ctx.reduce(crate::Reduction::Sum, x, axes, keepdim, ctx.b.unranked(element))?;
    let zero = ctx.b.const_like(x, 0.0)?;
    ctx.b.onnx().div(sum, zero).typed(result)
}

/// The dims a reduction runs over.
pub(super) enum Dims {
    /// Every dim (the result is 0-d, or all 1s with keepdim).
    All,
    /// These dims; an empty list reduces nothing (`any(x, dim=())` is `x != 0`).
    List(Vec<i64>),
}

/// `dim: int[1]?` of `any.dims` / `all.dims`: None reduces all dims, `[]` none.
pub(super) fn dims_arg(ctx: &Ctx<'_, '_>) -> Result<Dims, String> {
    Ok(if ctx.args.is_none("dim")? { Dims::All } else { Dims::List(ctx.args.ints("dim")?) })
}

/// `any`: the count of non-zero elements is > 0; `all`: the count of zero
/// elements is 0. Counting keeps empty reductions right (any = false,
/// all = true), which Max / Min of nothing would not. "Non-zero" is tested
/// in the input's own type (`x != 0`: 0.5 and NaN are true, like torch).
pub(super) fn any_all<'c, 'a>(ctx: &Ctx<'c, 'a>, dims: Dims, any: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let keepdim = match dims {
        Dims::All => false,
        Dims::List(_) => ctx.args.bool("keepdim")?,
    };
    let (x, lifted) = lift0(ctx, x)?;
    let zero = b.const_like(x, 0.0)?;
    let is_zero = ctx.b.onnx().equal(x, zero).typed(unranked_bool(ctx))?;
    let hits = if any { ctx.b.onnx().not(is_zero).typed(unranked_bool(ctx))? } else { is_zero };
    let axes: Option<Vec<i64>> = match dims {
        Dims::All => None,
        Dims::List(d) if d.is_empty() => {
            // Nothing reduced: `x != 0` for both.
            let nonzero = ctx.b.onnx().not(is_zero).typed(unranked_bool(ctx))?;
            let nonzero = if lifted { ctx.squeeze(nonzero, &[0])? } else { nonzero };
            return Ok(vec![as_result(ctx, nonzero)?]);
        }
        Dims::List(d) => {
            let mut axes = Vec::new();
            for v in d {
                axes.push(ctx.dim(v, rank)? as i64);
            }
            Some(axes)
        }
    };
    let axes = if lifted { None } else { axes };
    let keepdim = keepdim && !lifted;
    let hits = b.cast(hits, b.i64_type())?;
    let count = ctx.reduce(crate::Reduction::Sum, hits, axes.as_deref(), keepdim, b.unranked(b.i64_type()))?;
    let zero = b.const_i64_scalar(0)?;
    let verdict = if any { b.onnx().greater(count, zero) } else { b.onnx().equal(count, zero) };
    let verdict = verdict.typed(unranked_bool(ctx))?;
    Ok(vec![as_result(ctx, verdict)?])
}

/// A bool verdict as the result: bool, or uint8 for a uint8 input (torch's
/// all/any keep uint8).
fn as_result<'c, 'a>(ctx: &Ctx<'c, 'a>, verdict: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let element = ctx.result_element(0)?;
    if crate::builder::is_bool(element) {
        return ctx.b.onnx().identity(verdict).typed(ctx.result_type(0)?);
    }
    let code = crate::onnx_ir::data_type_code(element).ok_or("no ONNX data type")?;
    ctx.b.onnx().cast(verdict, None, None, code).typed(ctx.result_type(0)?)
}

/// `max.dim` / `min.dim`: the reduced values and the index of the first
/// extreme element (`select_last_index=0`, like torch on CPU); a slice with
/// a NaN gives NaN and the index of its first NaN, like torch.
pub(super) fn reduce_with_index<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    reduce: crate::Reduction,
    arg: &str,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)? as i64;
    let keepdim = ctx.args.bool("keepdim")?;
    let values = reduce_nan(ctx, reduce, x, Some(&[dim]), keepdim, ctx.result_type(0)?)?;
    let (lx, lifted) = lift0(ctx, x)?;
    let indices = if lifted {
        let i = arg_nan(ctx, arg, lx, 0, false, ctx.b.unranked(ctx.b.i64_type()))?;
        ctx.b.onnx().identity(i).typed(ctx.result_type(1)?)?
    } else {
        arg_nan(ctx, arg, x, dim, keepdim, ctx.result_type(1)?)?
    };
    Ok(vec![values, indices])
}

/// Sum (or mean) of the non-NaN elements over `dim` (all dims when None or
/// empty); the mean of no non-NaN element is NaN (0 / 0, like torch).
pub(super) fn nan_reduce<'c, 'a>(c: &Ctx<'c, 'a>, mean: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let rank = c.rank(x)?;
    let dims = if c.args.is_none("dim")? { Vec::new() } else { c.args.ints("dim")? };
    let mut axes = Vec::new();
    for d in dims {
        axes.push(c.dim(d, rank)? as i64);
    }
    let keepdim = c.args.bool("keepdim")?;
    let (x, lifted) = lift0(c, x)?;
    let axes = (!axes.is_empty() && !lifted).then_some(axes);
    let keepdim = keepdim && !lifted;
    let b = &c.b;
    let (x, valid) = if is_float_value(x) {
        let nan = isnan(c, x)?;
        let zero = b.const_like(x, 0.0)?;
        let kept = b.onnx().where_(nan, zero, x).like(x)?;
        let ok = b.onnx().not(nan).typed(b.unranked(super::math_common::bool_type(c)))?;
        (kept, Some(ok))
    } else {
        (x, None)
    };
    let element = super::math_common::elem(x)?;
    let sum = c.reduce(crate::Reduction::Sum, x, axes.as_deref(), keepdim, b.unranked(element))?;
    if !mean {
        return Ok(vec![c.b.onnx().identity(sum).typed(c.result_type(0)?)?]);
    }
    let valid = valid.ok_or("nanmean of a non-float tensor (torch refuses it)")?;
    let n = b.cast(valid, element)?;
    let n = c.reduce(crate::Reduction::Sum, n, axes.as_deref(), keepdim, b.unranked(element))?;
    Ok(vec![c.b.onnx().div(sum, n).typed(c.result_type(0)?)?])
}

/// `m + log(sum(exp(x - m)))` with `m` the max over the dims, replaced by 0
/// where it is infinite (a row of -inf gives -inf, a +inf gives +inf; NaN
/// propagates through `exp`). Integer inputs are promoted to the float
/// result; empty `dim` reduces every dim (torch).
pub(super) fn logsumexp<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let rank = c.rank(x)?;
    let dims = c.args.ints("dim")?;
    let keepdim = c.args.bool("keepdim")?;
    let mut axes = Vec::new();
    for d in dims {
        axes.push(c.dim(d, rank)? as i64);
    }
    let (x, lifted) = lift0(c, x)?;
    let axes: Option<Vec<i64>> = if lifted || axes.is_empty() { None } else { Some(axes) };
    let keepdim = keepdim && !lifted;
    let b = &c.b;
    let unranked = b.unranked(super::math_common::elem(x)?);
    let m = c.reduce(crate::Reduction::Max, x, axes.as_deref(), true, unranked)?;
    let inf = isinf(c, m, true, true)?;
    let zero = b.const_like(x, 0.0)?;
    let m = b.onnx().where_(inf, zero, m).like(x)?;
    let shifted = b.onnx().sub(x, m).like(x)?;
    let e = b.onnx().exp(shifted).like(x)?;
    let s = c.reduce(crate::Reduction::Sum, e, axes.as_deref(), keepdim, unranked)?;
    let l = b.onnx().log(s).like(x)?;
    let m = if keepdim {
        m
    } else {
        match &axes {
            Some(a) => c.squeeze(m, a)?,
            None => {
                let shape = b.const_i64s(&[])?;
                b.onnx().reshape(m, shape, None).like(x)?
            }
        }
    };
    Ok(vec![c.b.onnx().add(l, m).typed(c.result_type(0)?)?])
}
