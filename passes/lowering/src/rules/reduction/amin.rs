use super::reduce_common::reduce_dims;
use crate::Rule;

/// NaN-propagating (a slice holding a NaN gives NaN, like torch).
pub const RULES: &[Rule] = &[Rule::custom("aten.amin.default", |c| reduce_dims(c, crate::Reduction::Min))
    .samples(&[
        "self: T[2,3,4]; dim: [1]",
        "self: T[2,3]; dim: [0]; keepdim: true",
        "self: T[2,3]",
        "self: T[]; dim: [-1]; keepdim: true",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
