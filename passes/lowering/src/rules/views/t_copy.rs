use super::alias_common::same_as;
use crate::Rule;

/// `t_copy`: `t` as a fresh tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.t_copy.default", |c| same_as(c, "aten.t.default"))
    .samples(&["self: T[3,4]", "self: T[3]", "self: T[]", "self: T[0,2]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
