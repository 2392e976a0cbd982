use super::scan_common::cumext;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.cummin.default", |c| cumext(c, false))
    .samples(&["self: T[3,6]; dim: 1", "self: T[2,7]{-2..2}; dim: 0", "self: T[]; dim: -1", "self: T[0,3]; dim: 1"])
    .dtypes(&["f32", "i64", "i32", "i8", "bool"])];
