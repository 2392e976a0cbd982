//! Pieces shared by the elementwise-math, comparison and reduction rules
//! (NaN-aware reductions, 0-d lifting, float predicates). Not a rule file.

use crate::{builder, Attr, Ctx};
use melior::ir::{r#type::IntegerType, Type, Value, ValueLike};

/// `i1`.
pub fn bool_type<'c>(ctx: &Ctx<'c, '_>) -> Type<'c> {
    IntegerType::new(ctx.b.context, 1).into()
}

/// The element type of a value.
pub fn elem<'c>(v: Value<'c, '_>) -> Result<Type<'c>, String> {
    builder::element_type(v.r#type()).ok_or_else(|| "operand is not a tensor".to_string())
}

/// True when `v` has a floating-point element type.
pub fn is_float_value(v: Value<'_, '_>) -> bool {
    builder::element_type(v.r#type()).is_some_and(builder::is_float)
}

/// A bool tensor type of unknown shape (the result type of a comparison).
pub fn unranked_bool<'c>(ctx: &Ctx<'c, '_>) -> Type<'c> {
    ctx.b.unranked(bool_type(ctx))
}

/// `IsNaN(x)` (bool).
pub fn isnan<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
    ctx.b.onnx().is_na_n(x).typed(unranked_bool(ctx))
}

/// `IsInf(x)` (bool) detecting +inf and/or -inf.
pub fn isinf<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, '_>, pos: bool, neg: bool) -> Result<Value<'c, 'a>, String> {
    ctx.b.onnx().is_inf(x, Some(neg as i64), Some(pos as i64)).typed(ctx.b.unranked(bool_type(ctx)))
}

/// A 0-d tensor is reduced / scanned as a 1-element vector along axis 0:
/// ONNX reductions, Softmax, CumSum and ArgMax refuse axis 0 on rank 0.
/// Returns `(x, true)` with `x` unsqueezed when it is 0-d; `dim` must then be
/// 0 or -1 (torch accepts only those on a 0-d tensor).
pub fn lift0<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<(Value<'c, 'a>, bool), String> {
    if ctx.rank(x)? == 0 {
        Ok((ctx.unsqueeze(x, &[0])?, true))
    } else {
        Ok((x, false))
    }
}

/// `ReduceMax` / `ReduceMin` propagating NaN like torch (onnxruntime's
/// reductions skip NaN): where a reduced slice holds a NaN, the result is NaN.
pub fn reduce_nan<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    op: crate::Reduction,
    x: Value<'c, 'a>,
    axes: Option<&[i64]>,
    keepdim: bool,
    result: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let (x, lifted) = lift0(ctx, x)?;
    let axes: Option<Vec<i64>> = if lifted { None } else { axes.map(<[i64]>::to_vec) };
    let keepdim = keepdim && !lifted;
    if !is_float_value(x) {
        return ctx.reduce(op, x, axes.as_deref(), keepdim, result);
    }
    let element = elem(x)?;
    let values = ctx.reduce(op, x, axes.as_deref(), keepdim, ctx.b.unranked(element))?;
    let has_nan = any_nan(ctx, x, axes.as_deref(), keepdim)?;
    let nan = ctx.b.const_scalar(element, f64::NAN)?;
    ctx.b.onnx().where_(has_nan, nan, values).typed(result)
}

/// Whether each reduced slice of a float `x` holds a NaN (bool).
pub fn any_nan<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, '_>,
    axes: Option<&[i64]>,
    keepdim: bool,
) -> Result<Value<'c, 'a>, String> {
    let nan = isnan(ctx, x)?;
    let f32_type = ctx.b.f32_type();
    let nanf = ctx.b.cast(nan, f32_type)?;
    let count = ctx.reduce(crate::Reduction::Max, nanf, axes, keepdim, ctx.b.unranked(f32_type))?;
    ctx.b.cast(count, bool_type(ctx))
}

/// `ArgMax` / `ArgMin` along `axis` (first index of the extreme value) with
/// torch's NaN rule: a slice holding a NaN gives the index of its first NaN.
/// `x` must be at least 1-d.
pub fn arg_nan<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    op: &str,
    x: Value<'c, 'a>,
    axis: i64,
    keepdim: bool,
    result: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let attrs = [("axis", Attr::Int(axis)), ("keepdims", Attr::Int(keepdim as i64))];
    let i64_type = ctx.b.i64_type();
    if !is_float_value(x) {
        // ONNX ArgMax/ArgMin take no bools: as int32 0/1 (first index kept).
        let x = if builder::element_type(x.r#type()).is_some_and(builder::is_bool) {
            ctx.b.cast(x, IntegerType::new(ctx.b.context, 32).into())?
        } else {
            x
        };
        return ctx.b.op(op, &[x], &attrs, result);
    }
    let index = ctx.b.op(op, &[x], &attrs, ctx.b.unranked(i64_type))?;
    let nan = isnan(ctx, x)?;
    let f32_type = ctx.b.f32_type();
    let nanf = ctx.b.cast(nan, f32_type)?;
    let first_nan = ctx.b.onnx().arg_max(nanf, Some(axis), Some(keepdim as i64), None).typed(ctx.b.unranked(i64_type))?;
    let has = ctx.reduce(crate::Reduction::Max, nanf, Some(&[axis]), keepdim, ctx.b.unranked(f32_type))?;
    let has = ctx.b.cast(has, bool_type(ctx))?;
    ctx.b.onnx().where_(has, first_nan, index).typed(result)
}

/// `ArgMax` / `ArgMin` of the aten `argmax` / `argmin` schema
/// (`dim: int?`, `keepdim`), over the flattened tensor when `dim` is None.
pub fn argext<'c, 'a>(ctx: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let keepdim = ctx.args.bool("keepdim")?;
    let rank = ctx.rank(x)?;
    match ctx.args.opt_int("dim")? {
        Some(d) if rank > 0 => {
            let d = ctx.dim(d, rank)? as i64;
            Ok(vec![arg_nan(ctx, op, x, d, keepdim, ctx.result_type(0)?)?])
        }
        dim => {
            if let Some(d) = dim {
                ctx.dim(d, 0)?;
            }
            // Over the flattened tensor; keepdim gives 1s of the input's rank.
            let flat = ctx.b.const_i64s(&[-1])?;
            let x = ctx.b.onnx().reshape(x, flat, None).like(x)?;
            let r = arg_nan(ctx, op, x, 0, false, ctx.b.unranked(ctx.b.i64_type()))?;
            let shape = ctx.b.const_i64s(&vec![1; if keepdim || dim.is_some() { rank } else { 0 }])?;
            Ok(vec![ctx.b.onnx().reshape(r, shape, None).typed(ctx.result_type(0)?)?])
        }
    }
}

/// Lowers a shape-preserving op along `dim` (Softmax, CumSum, ...) of a
/// possibly 0-d `x`: `build(x, axis)` on the lifted tensor, squeezed back.
pub fn along_dim<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    dim: i64,
    build: impl FnOnce(Value<'c, 'a>, i64) -> Result<Value<'c, 'a>, String>,
) -> Result<Value<'c, 'a>, String> {
    let rank = ctx.rank(x)?;
    let axis = ctx.dim(dim, rank)? as i64;
    let (x, lifted) = lift0(ctx, x)?;
    let y = build(x, axis)?;
    if lifted {
        ctx.squeeze(y, &[0])
    } else {
        Ok(y)
    }
}
