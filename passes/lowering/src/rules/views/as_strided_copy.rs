use super::alias_common::same_as;
use crate::Rule;

/// `as_strided_copy`: `as_strided` as a fresh tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.as_strided_copy.default", |c| same_as(c, "aten.as_strided.default"))
    .samples(&[
        "self: T[3,4]; size: [2,2]; stride: [1,2]",
        "self: T[12]; size: [3,3]; stride: [3,1]; storage_offset: 2",
        "self: T[3,4]; size: [2,3]; stride: [0,1]",
        "self: T[3,4]; size: []; stride: []; storage_offset: 5",
        "self: T[3,4]; size: [0,2]; stride: [1,1]",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
