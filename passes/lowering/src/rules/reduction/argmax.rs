use super::math_common::argext;
use crate::Rule;

/// The first index of the maximum; a NaN counts as the maximum (torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.argmax.default", |c| argext(c, "ArgMax"))
    .samples(&[
        "self: T[3,4]; dim: 1",
        "self: T[3,4]; dim: 0; keepdim: true",
        "self: T[3,4]",
        "self: T[3,4]; keepdim: true",
        "self: T[]; dim: 0",
        "self: T[]",
        "self: T[2,3,4]; dim: -1",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
