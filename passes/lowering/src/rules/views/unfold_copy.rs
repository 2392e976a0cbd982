use super::alias_common::same_as;
use crate::Rule;

/// `unfold_copy`: `unfold` as a fresh tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.unfold_copy.default", |c| same_as(c, "aten.unfold.default"))
    .samples(&[
        "self: T[2,5]; dimension: 1; size: 2; step: 2",
        "self: T[6,3]; dimension: 0; size: 3; step: 1",
        "self: T[]; dimension: 0; size: 1; step: 1",
        "self: T[4,3]; dimension: -2; size: 0; step: 2",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
