use super::alias_common::same_as;
use crate::Rule;

/// `alias_copy`: `alias` as a fresh tensor (ONNX values are never views).
pub const RULES: &[Rule] = &[Rule::custom("aten.alias_copy.default", |c| same_as(c, "aten.alias.default"))
    .samples(&["self: T[2,3]", "self: T[]", "self: T[0,3]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
