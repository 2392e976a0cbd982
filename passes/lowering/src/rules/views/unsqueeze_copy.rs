use super::alias_common::same_as;
use crate::Rule;

/// `unsqueeze_copy`: `unsqueeze` as a fresh tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.unsqueeze_copy.default", |c| same_as(c, "aten.unsqueeze.default"))
    .samples(&["self: T[2,3]; dim: 0", "self: T[2,3]; dim: -1", "self: T[]; dim: 0", "self: T[0]; dim: 1"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
