use super::math_common::reduce_nan;
use crate::Rule;

/// (amin, amax) over `dim` (every dim when None), NaN-propagating.
pub const RULES: &[Rule] = &[Rule::custom("aten.aminmax.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let keepdim = c.args.bool("keepdim")?;
    let axes = match c.args.opt_int("dim")? {
        Some(d) => Some(vec![c.dim(d, rank)? as i64]),
        None => None,
    };
    Ok(vec![
        reduce_nan(c, crate::Reduction::Min, x, axes.as_deref(), keepdim, c.result_type(0)?)?,
        reduce_nan(c, crate::Reduction::Max, x, axes.as_deref(), keepdim, c.result_type(1)?)?,
    ])
})
.samples(&[
    "self: T[3,4]",
    "self: T[3,4]; dim: 1",
    "self: T[3,4]; dim: 0; keepdim: true",
    "self: T[3,4]; keepdim: true",
    "self: T[]; dim: 0",
    "self: T[]",
])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
