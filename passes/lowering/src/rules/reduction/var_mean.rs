use super::math_common::lift0;
use super::var_common::variance;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.var_mean.correction", |c| with_mean(c, false)).samples(&[
        "self: T[3,5]; dim: [1]",
        "self: T[3,5]; dim: [0]; correction: 0; keepdim: true",
        "self: T[2,3,4]; dim: [1,2]",
        "self: T[3,4]",
        "self: T[]; dim: [-1]; correction: 0",
        "self: T[3,4]; dim: []; keepdim: true",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.var_mean.default", |c| all_with_mean(c, false)).samples(&[
        "self: T[3,5]",
        "self: T[3,5]; unbiased: false",
        "self: T[4]",
        "self: T[0]; unbiased: false",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.var_mean.dim", |c| with_mean(c, false))
        .samples(&["self: T[3,5]; dim: [1]", "self: T[3,5]; dim: [0]; unbiased: false; keepdim: true"]).dtypes(&["f32", "f16", "bf16", "f64"]),
];

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
