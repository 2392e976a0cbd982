//! Reductions shared by mean, sum, amax, amin and var_mean: over dims or all, NaN-aware, 0-d lifted, empty inputs. Not a rule file.

use super::math_common::{lift0, reduce_nan};
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
