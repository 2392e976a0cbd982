use super::alias_common::same_as;
use crate::Rule;

/// `narrow_copy`: `narrow` as a fresh tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.narrow_copy.default", |c| same_as(c, "aten.narrow.default"))
    .samples(&[
        "self: T[5,4]; dim: 0; start: 1; length: 3",
        "self: T[5,4]; dim: -1; start: 0; length: 2",
        "self: T[5,4]; dim: 1; start: 2; length: 0",
        "self: T[5,4]; dim: 0; start: -2; length: 2",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
