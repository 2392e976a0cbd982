use super::alias_common::same_as;
use crate::Rule;

/// `permute_copy`: `permute` as a fresh tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.permute_copy.default", |c| same_as(c, "aten.permute.default"))
    .samples(&["self: T[2,3,4]; dims: [2,0,1]", "self: T[2,3,4]; dims: [-1,-3,-2]", "self: T[]; dims: []", "self: T[0,3]; dims: [1,0]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
