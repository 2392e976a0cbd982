//! Vector norms shared by linalg_vector_norm, linalg_matrix_norm, linalg_norm and norm. Not a rule file.

use super::math_common::{lift0, reduce_nan};
use crate::{builder, Ctx};
use melior::ir::{Type, Value, ValueLike};

/// `torch.linalg.vector_norm`: sum(|x|^ord)^(1/ord) over `dim` (all dims
/// when None), with ord 2 / 1 as ReduceL2 / ReduceL1, ±inf as max/min of
/// |x| (NaN-propagating), 0 as the count of non-zeros.
pub(super) fn linalg_vector_norm<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let ord = ctx.args.number("ord")?.as_f64();
    let dims = if ctx.args.is_none("dim")? { Vec::new() } else { ctx.args.ints("dim")? };
    let keepdim = ctx.args.bool("keepdim")?;
    Ok(vec![vector_norm(ctx, x, ord, &dims, keepdim, ctx.result_type(0)?)?])
}

/// The vector norm of a float tensor over `dims` (all when empty), typed
/// `result`. Shared by `norm`, `linalg_norm` and `linalg_matrix_norm`.
pub(super) fn vector_norm<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    ord: f64,
    dims: &[i64],
    keepdim: bool,
    result: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let element = builder::element_type(x.r#type()).ok_or("operand is not a tensor")?;
    if !builder::is_float(element) {
        return Err("the vector norm needs a floating-point input".into());
    }
    if ord.is_nan() {
        return Err("norm order NaN".into());
    }
    let rank = ctx.rank(x)?;
    if rank == 0 && ord != 0.0 {
        // The norm of one element is its absolute value, for every order.
        for &d in dims {
            ctx.dim(d, rank)?;
        }
        return ctx.b.onnx().abs(x).typed(result);
    }
    let mut axes = Vec::new();
    for &d in dims {
        let axis = ctx.dim(d, rank)? as i64;
        if !axes.contains(&axis) {
            axes.push(axis);
        }
    }
    // A 0-d tensor is reduced as a 1-element vector (ONNX refuses axis 0 of rank 0).
    let (x, lifted) = lift0(ctx, x)?;
    let (axes, keepdim) = if lifted || axes.is_empty() { (None, keepdim && !lifted) } else { (Some(axes), keepdim) };
    // keepdim over all dims keeps every dim as size 1.
    let all: Vec<i64> = (0..rank as i64).collect();
    let axes = match (&axes, keepdim) {
        (None, true) => Some(all),
        _ => axes,
    };
    let axes = axes.as_deref();
    let unranked = ctx.b.unranked(element);
    // Typed like `x` (ranked): the NaN-aware max/min needs the rank.
    let abs = ctx.b.onnx().abs(x).typed(x.r#type())?;
    if ord == 2.0 {
        return ctx.reduce(crate::Reduction::L2, x, axes, keepdim, result);
    }
    if ord == 1.0 {
        return ctx.reduce(crate::Reduction::L1, x, axes, keepdim, result);
    }
    if ord.is_infinite() {
        let op = if ord > 0.0 { crate::Reduction::Max } else { crate::Reduction::Min };
        return reduce_nan(ctx, op, abs, axes, keepdim, result);
    }
    if ord == 0.0 {
        // Count of non-zero entries (NaN counts: NaN != 0).
        let zero = ctx.b.const_scalar(element, 0.0)?;
        let bool_ty = melior::ir::r#type::IntegerType::new(ctx.b.context, 1).into();
        let is_zero = ctx.b.onnx().equal(x, zero).typed(ctx.b.unranked(bool_ty))?;
        let nonzero = ctx.b.onnx().not(is_zero).typed(ctx.b.unranked(bool_ty))?;
        let ones = ctx.b.onnx().cast(nonzero, None, None, onnx_code(element)?).typed(unranked)?;
        return ctx.reduce(crate::Reduction::Sum, ones, axes, keepdim, result);
    }
    let p = ctx.b.const_scalar(element, ord)?;
    let powered = ctx.b.onnx().pow(abs, p).typed(unranked)?;
    let sum = ctx.reduce(crate::Reduction::Sum, powered, axes, keepdim, unranked)?;
    let inv = ctx.b.const_scalar(element, 1.0 / ord)?;
    ctx.b.onnx().pow(sum, inv).typed(result)
}

pub(super) fn onnx_code(element: Type<'_>) -> Result<i64, String> {
    crate::onnx_ir::data_type_code(element)
        .map(|c| c as i64)
        .ok_or_else(|| "element type without an ONNX code".to_string())
}

/// torch's renormalisation factor of a (float64) `norm` and 0-d `maxnorm`: `maxnorm / (norm +
/// 1e-7)` where `norm > maxnorm` (and `only`, when given, holds), else 1.
/// Shared with embedding_renorm.
pub(super) fn renorm_factor<'c, 'a>(
    c: &Ctx<'c, 'a>,
    norm: Value<'c, 'a>,
    maxnorm: Value<'c, 'a>,
    only: Option<Value<'c, 'a>>,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let bool_t = b.unranked(super::math_common::bool_type(c));
    let mut big = b.onnx().greater(norm, maxnorm).typed(bool_t)?;
    if let Some(only) = only {
        big = b.onnx().and(only, big).typed(bool_t)?;
    }
    let scale = b.onnx().div(maxnorm, b.onnx().add(norm, b.const_like(norm, 1e-7)?).like(norm)?).like(norm)?;
    b.onnx().where_(big, scale, b.const_like(norm, 1.0)?).like(norm)
}
