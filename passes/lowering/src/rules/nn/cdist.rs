use super::distance_common::cdist;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.cdist.default", cdist).samples(&[
    "x1: T[3,4]; x2: T[5,4]",
    "x1: T[2,3,4]; x2: T[2,5,4]; p: 1.0",
    "x1: T[30,4]; x2: T[27,4]",
])];
