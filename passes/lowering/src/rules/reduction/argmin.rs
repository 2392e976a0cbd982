use super::math_common::argext;
use crate::Rule;

/// The first index of the minimum; a NaN counts as the minimum (torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.argmin.default", |c| argext(c, "ArgMin"))
    .samples(&[
        "self: T[3,4]; dim: 1",
        "self: T[3,4]; dim: 0; keepdim: true",
        "self: T[3,4]",
        "self: T[]; dim: -1",
        "self: T[2,3,4]; dim: -2",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
