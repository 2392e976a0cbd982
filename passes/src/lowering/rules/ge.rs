use super::common::compare;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.ge.Tensor", |c| compare(c, "GreaterOrEqual", false)),
    Rule::custom("aten.ge.Scalar", |c| compare(c, "GreaterOrEqual", false)),
];
