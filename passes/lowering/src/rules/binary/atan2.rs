use super::elementwise_common::atan2;
use crate::Rule;

/// `atan2(y, x)` from `Atan` on [0, 1]: `r = atan(min(|x|,|y|) / max(|x|,|y|))`,
/// `pi/2 - r` where |y| > |x|, `pi - r` where x's sign bit is set (so -0.0
/// counts, like C), negated where y's sign bit is set. Both zero gives +-0 or
/// +-pi and both infinite +-pi/4 or +-3pi/4 like C; NaN propagates. Integer
/// inputs are promoted to the float result.
pub const RULES: &[Rule] = &[Rule::custom("aten.atan2.default", |c| {
    let element = c.result_element(0)?;
    let y = c.tensor_as("self", element)?;
    let x = c.tensor_as("other", element)?;
    let r = atan2(c, y, x)?;
    Ok(vec![c.b.onnx().identity(r).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[2,3]; other: T[2,3]",
    "self: T[2,3]; other: T[3]",
    "self: T[]; other: T[2]",
    "self: T[0,3]; other: T[3]",
    "self: T[4,4]{-1..2}; other: T[4,4]{-1..2}",
])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
