use super::alias_common::same_as;
use crate::Rule;

/// `expand_copy`: `expand` as a fresh tensor (`implicit` only matters to autograd).
pub const RULES: &[Rule] = &[Rule::custom("aten.expand_copy.default", |c| same_as(c, "aten.expand.default"))
    .samples(&["self: T[3,1]; size: [3,4]", "self: T[3,1]; size: [2,-1,4]", "self: T[]; size: [2,2]", "self: T[1,3]; size: [0,3]", "self: T[3,1]; size: [3,4]; implicit: true"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
