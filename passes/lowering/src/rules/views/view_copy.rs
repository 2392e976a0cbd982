use super::alias_common::same_as;
use crate::Rule;

/// `view_copy`: `view` as a fresh tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.view_copy.default", |c| same_as(c, "aten.view.default"))
    .samples(&["self: T[2,6]; size: [3,4]", "self: T[2,6]; size: [-1,3]", "self: T[]; size: [1,1]", "self: T[0,3]; size: [3,0]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
