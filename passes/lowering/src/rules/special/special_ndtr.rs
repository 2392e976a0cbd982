use super::erfc_common::erfc_of;
use crate::Rule;

/// The standard normal CDF, `erfc(-x / sqrt(2)) / 2` (accurate in the lower
/// tail, where `(1 + erf(x / sqrt(2))) / 2` would round to 0).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_ndtr.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let k = c.b.const_like(x, -std::f64::consts::FRAC_1_SQRT_2)?;
    let z = c.b.onnx().mul(x, k).like(x)?;
    let e = erfc_of(c, z)?;
    let half = c.b.const_like(x, 0.5)?;
    Ok(vec![c.b.onnx().mul(e, half).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
.dtypes(&["f32", "i64"])];
