use super::tensor_common::{pick, sort};
use crate::{builder, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.median.default", median_all)
        .samples(&["self: T[3,5]", "self: T[6]", "self: T[]", "self: T[2,2]"])
        .dtypes(&["f32", "i64", "i32", "f64"]),
    Rule::custom("aten.median.dim", median_dim)
        .samples(&[
            "self: T[3,5]; dim: 1",
            "self: T[4,5]; dim: 0; keepdim: true",
            "self: T[6]; dim: 0",
            "self: T[2,3,4]; dim: -1",
            "self: T[]; dim: 0",
        ])
        .dtypes(&["f32", "i64", "i32", "f64"]),
];

/// The lower median of all elements (element `(n-1)/2` of the sorted
/// values); NaN if any element is NaN (torch propagates it).
fn median_all<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let n: i64 = super::tensor_common::static_dims(ctx, x, "median")?.iter().product();
    if n == 0 {
        return Err("median of an empty tensor is undefined (torch refuses it)".into());
    }
    let flat = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
    let (values, _) = sort(ctx, flat, 0, false)?;
    let idx = b.const_i64_scalar((n - 1) / 2)?;
    let m = b.onnx().gather(values, idx, Some(0)).like(x)?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        return Ok(vec![m]);
    }
    // NaN sorts last: the largest element is NaN iff any is.
    let last = b.const_i64_scalar(n - 1)?;
    let top = b.onnx().gather(values, last, Some(0)).like(x)?;
    let isnan = b.onnx().is_na_n(top).typed(b.unranked(IntegerType::new(b.context, 1).into()))?;
    Ok(vec![ctx.b.onnx().where_(isnan, top, m).typed(ctx.result_type(0)?)?])
}

/// Lower median along `dim` and its index; where a row holds NaN, NaN and
/// the index of its first NaN (torch's result).
fn median_dim<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    if rank == 0 {
        return Ok(vec![x, b.const_i64_scalar(0)?]);
    }
    let n = super::tensor_common::static_dims(ctx, x, "median")?[dim];
    if n == 0 {
        return Err("median along an empty dim is undefined (torch refuses it)".into());
    }
    let keepdim = ctx.args.bool("keepdim")?;
    let (values, indices) = sort(ctx, x, dim, false)?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        return pick(ctx, values, indices, dim, (n - 1) / 2, keepdim);
    }
    let picked = {
        let idx = b.const_i64s(&[(n - 1) / 2])?;
        let axis = Some(dim as i64);
        (b.onnx().gather(values, idx, axis).like(x)?, b.onnx().gather(indices, idx, axis).like(indices)?)
    };
    let bool_type = IntegerType::new(b.context, 1).into();
    let isnan = b.onnx().is_na_n(x).typed(b.unranked(bool_type))?;
    let as_int = b.cast(isnan, IntegerType::new(b.context, 32).into())?;
    // First NaN of each row (ArgMax picks the first maximum).
    let first = b.onnx().arg_max(as_int, Some(dim as i64), Some(1), None).typed(b.unranked(b.i64_type()))?;
    let any = b.onnx().gather_elements(isnan, first, Some(dim as i64)).typed(b.unranked(bool_type))?;
    let nan = b.const_scalar(element, f64::NAN)?;
    let mut v = b.onnx().where_(any, nan, picked.0).like(x)?;
    let mut i = b.onnx().where_(any, first, picked.1).like(indices)?;
    if !keepdim {
        v = ctx.squeeze(v, &[dim as i64])?;
        i = ctx.squeeze(i, &[dim as i64])?;
    }
    Ok(vec![v, i])
}
