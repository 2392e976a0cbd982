use super::math_common::{lift0, unranked_bool};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.any.default", |c| any_all(c, Dims::All, true))
        .samples(&["self: T[3,4]", "self: T[0]", "self: T[]"])
        .dtypes(&["bool", "f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.any.dim", |c| any_all(c, Dims::List(vec![c.args.int("dim")?]), true))
        .samples(&[
            "self: T[3,4]; dim: 1",
            "self: T[3,4]; dim: 0; keepdim: true",
            "self: i64[3,4]{0..2}; dim: -1",
            "self: T[]; dim: 0",
            "self: T[]; dim: -1; keepdim: true",
            "self: T[0,3]; dim: 0",
        ])
        .dtypes(&["bool", "f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.any.dims", |c| any_all(c, dims_arg(c)?, true))
        .samples(&[
            "self: T[3,4,2]; dim: [0,2]",
            "self: T[3,4]; dim: [1]; keepdim: true",
            "self: T[3,4]",
            "self: T[3,4]; dim: []",
            "self: T[]; dim: [0]",
        ])
        .dtypes(&["bool", "f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];

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
