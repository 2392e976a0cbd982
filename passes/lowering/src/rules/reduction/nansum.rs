use super::math_common::{is_float_value, isnan, lift0};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.nansum.default", |c| nan_reduce(c, false))
    .samples(&[
        "self: T[3,4]",
        "self: T[3,4]; dim: [1]",
        "self: T[3,4,2]; dim: [0,2]; keepdim: true",
        "self: T[]; dim: [0]",
        "self: T[0,3]; dim: [0]",
        "self: T[3,4]; dim: [1]; dtype: dtype(f32)",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

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
