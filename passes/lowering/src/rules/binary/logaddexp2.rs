use super::logaddexp_common::logaddexp;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.logaddexp2.default", |c| logaddexp(c, true)).samples(&[
    "self: T[2,3]; other: T[2,3]",
    "self: T[2,3]; other: T[3]",
    "self: T[]; other: T[]",
])];
