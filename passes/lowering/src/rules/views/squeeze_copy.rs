use super::alias_common::same_as;
use crate::Rule;

/// `squeeze_copy`: `squeeze` as a fresh tensor.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.squeeze_copy.default", |c| same_as(c, "aten.squeeze.default"))
        .samples(&["self: T[1,3,1]", "self: T[2,3]", "self: T[]", "self: T[1,0]"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
    Rule::custom("aten.squeeze_copy.dim", |c| same_as(c, "aten.squeeze.dim"))
        .samples(&["self: T[3,1,4]; dim: 1", "self: T[3,4]; dim: 0", "self: T[3,1]; dim: -1", "self: T[]; dim: 0"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
    Rule::custom("aten.squeeze_copy.dims", |c| same_as(c, "aten.squeeze.dims"))
        .samples(&["self: T[1,3,1]; dim: [0,2]", "self: T[1,3,1]; dim: [-1,1]", "self: T[2,3]; dim: []"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
];
