use super::alias_common::same_as;
use crate::Rule;

/// `unbind_copy`: `unbind` as fresh tensors.
pub const RULES: &[Rule] = &[Rule::custom("aten.unbind_copy.int", |c| same_as(c, "aten.unbind.int"))
    .samples(&["self: T[3,4]; dim: 0", "self: T[3,4]; dim: -1", "self: T[1,0]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
