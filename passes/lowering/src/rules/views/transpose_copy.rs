use super::alias_common::same_as;
use crate::Rule;

/// `transpose_copy`: `transpose` as a fresh tensor.
pub const RULES: &[Rule] = &[Rule::custom("aten.transpose_copy.int", |c| same_as(c, "aten.transpose.int"))
    .samples(&[
        "self: T[2,3,4]; dim0: 0; dim1: 2",
        "self: T[2,3]; dim0: -1; dim1: 0",
        "self: T[]; dim0: 0; dim1: -1",
        "self: T[0,3]; dim0: 1; dim1: 0",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])
    .refuses(&[("self: T[2,3]; dim0: 2; dim1: 0", "out of range")])];
