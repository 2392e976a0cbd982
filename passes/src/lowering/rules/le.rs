use super::common::compare;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.le.Tensor", |c| compare(c, "LessOrEqual", false)),
    Rule::custom("aten.le.Scalar", |c| compare(c, "LessOrEqual", false)),
];
