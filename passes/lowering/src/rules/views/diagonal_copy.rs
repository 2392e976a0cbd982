use super::alias_common::same_as;
use crate::Rule;

/// `diagonal_copy`: `diagonal` as a fresh tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.diagonal_copy.default", |c| same_as(c, "aten.diagonal.default"))
    .samples(&[
        "self: T[3,4]",
        "self: T[3,4]; offset: -2",
        "self: T[3,4]; offset: 5",
        "self: T[2,3,4]; offset: 1; dim1: -1; dim2: 0",
        "self: T[0,3]",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
