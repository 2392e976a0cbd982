use super::index_common::nonzero;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.argwhere.default", nonzero)
    .samples(&["self: T[3,4]", "self: T[5]", "self: T[2,0]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"])];
